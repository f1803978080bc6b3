"""Devices at the table: camera, buttons, LEDs, speaker. Each is one small interface with a real
backend and a fake one, in the style of gpiozero's pin factories."""

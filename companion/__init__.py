"""The table session: CLI, event log, game rules and the wiring between devices and phones."""

__version__ = "0.1.0"

"""``companion serve``: the table session on a production WSGI server (waitress, threaded)."""

from __future__ import annotations

import logging
import signal
import sys
from pathlib import Path

import click

from companion import config as config_mod
from companion import games as games_mod
from companion.games import Actor, RuleError
from companion.netinfo import phone_url, terminal_qr
from companion.store import EventStore
from companion.table import Table

log = logging.getLogger("companion")


def wire_devices(table: Table, cfg: dict, pin_factory="auto"):
    """Buttons, LED and speaker, attached to the table. Returns the button panel."""
    from hardware.buttons import ButtonPanel, make_pin_factory, pins_from_config
    from hardware.speaker import make_speaker

    bcfg = cfg["buttons"]
    factory = make_pin_factory(pin_factory) if isinstance(pin_factory, str) else pin_factory
    panel = ButtonPanel(
        pins_from_config(bcfg), hold_seconds=float(bcfg.get("hold_seconds", 2.0)),
        bounce_ms=int(bcfg.get("bounce_ms", 20)),
        shutdown_hold_seconds=float(bcfg.get("shutdown_hold_seconds", 5.0)),
        led_pin=int(bcfg.get("led") or 0) or None, pin_factory=factory,
    )
    device = Actor("device")

    def act(kind: str) -> None:
        game_id = table.active_game
        if game_id is None:
            return
        try:
            table.act(game_id, device, {"type": kind})
        except RuleError as err:
            log.info("button %s refused: %s", kind, err)

    panel.on("draw", "press", lambda: act("draw"))
    panel.on("draw", "hold", lambda: act("undo"))
    panel.on("undo", "hold", lambda: act("undo"))
    panel.on("next", "press", lambda: act("next"))

    speaker = make_speaker(True)  # voice on/off and the language are read at each call (settings page)

    def on_event(game_id: str, ev, view: dict) -> None:
        if ev.type == "draw":
            panel.blink()
        call = view.get("call")
        lang = cfg["server"].get("lang", "el")
        if ev.type == "draw" and call and cfg["speech"].get("enabled", True):
            speaker.say(call.get(lang) or call.get("en", ""), lang)

    table.subscribe(on_event)
    return panel, speaker


def build(data_dir: Path, cfg: dict, pin_factory="auto"):
    from web import create_app

    store = EventStore(data_dir / "companion.sqlite3")
    table = Table(store)
    panel, speaker = wire_devices(table, cfg, pin_factory)
    app = create_app(table, {"DEFAULT_GAME": cfg["server"]["game"], "CONFIG": cfg,
                             "DATA_DIR": str(data_dir)})
    app.extensions["panel"], app.extensions["speaker"] = panel, speaker  # the settings page rewires them
    try:  # the camera loop (hardware issue); absent until companion/camera_service.py exists
        from companion.camera_service import attach_camera
    except ImportError:
        attach_camera = None
    if attach_camera is not None:
        attach_camera(app, table, cfg)
    from companion.herald_camera import attach_real_bag

    attach_real_bag(app, table)  # Augustus: the camera reads the drawn token in real-bag mode
    from companion.games.castle_dice_camera import attach as attach_castle_camera

    attach_castle_camera(app, table)  # Castle Dice: tray readings credit rolls and picks
    return app, table, panel, speaker


@click.command()
@click.option("--host", default=None, help="Address to listen on (default 0.0.0.0: every interface).")
@click.option("--port", default=None, type=int, help="Port to listen on (default 8000).")
@click.option("--data", "data_dir", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the SQLite event log and config (default: the user's data directory).")
@click.option("--game", default=None, type=click.Choice(list(games_mod.GAMES)),
              help="The game a new table starts with.")
@click.option("--camera", default=None, help="auto | picamera2 | usb:N | replay:PATH | synthetic | none")
@click.option("--threads", default=32, show_default=True, help="Worker threads (each live phone holds one).")
@click.option("--pins", default="auto", type=click.Choice(["auto", "mock", "lgpio", "default"]),
              help="GPIO pin factory: real pins on a Pi, mock pins elsewhere.")
def serve(host, port, data_dir, game, camera, threads, pins):
    """Start the companion: phones connect to the printed address or QR code."""
    import waitress

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    data_dir = data_dir or config_mod.default_data_dir()
    cfg = config_mod.load(data_dir)
    host = host or cfg["server"]["host"]
    port = port or int(cfg["server"]["port"])
    if game:
        cfg["server"]["game"] = game
    if camera:
        cfg["camera"]["source"] = camera
    app, table, panel, speaker = build(data_dir, cfg, pins)
    url = phone_url(host, port)
    app.config["PUBLIC_URL"] = url.rstrip("/")
    app.config["DATA_DIR"] = str(data_dir)
    app.config["CONFIG"] = cfg
    click.echo(f"Tabletop companion: open {url} on your phone (data in {data_dir})")
    click.echo(terminal_qr(url))
    sys.stdout.flush()
    def stop(*_):
        # open phone pages hold live channels; they end at once, so waitress need not wait for them
        table.close_channels()
        camera = app.extensions.get("camera")
        if camera is not None:
            camera.stop()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)  # Ctrl-C at `make run`: the same clean stop
    try:
        waitress.serve(app, host=host, port=port, threads=threads, ident="companion",
                       channel_timeout=300, connection_limit=200, clear_untrusted_proxy_headers=True)
    finally:
        panel.close()
        table.store.close()

"""``companion teach``: guided calibration of a custom dice or token set.

The companion asks for each face in turn ("show a WOOD die with the COW face up under the camera,
then press the button"), captures a frame, crops the die, shows where it saved the crop, lets you
redo a face, and finally writes a set folder that ``companion read --dice-set DIR`` uses at once.

It listens to the keyboard and to the table's draw/read button at once (the same pins as
``companion serve``, from the config or ``--pins``), whichever comes first: a press of the button
or Enter captures, holding the button (or the undo button) redoes the last face. Off a Raspberry
Pi the buttons are gpiozero's mock pins, so only the keyboard counts there.

Without a camera, ``--from-images DIR`` teaches from still photos: either a set-like folder
(``DIR/<type>/<face>/*.png`` or ``DIR/examples/<type>/<face>/*.png``) or a flat folder whose
pictures are taken in name order, one per capture.
"""

from __future__ import annotations

import queue
import sys
import threading
from pathlib import Path

import click
import cv2

from companion import config as config_mod
from companion.dicesets import IMAGE_EXT, SetError, TeachSession, template_steps
from companion.i18n import caps, t


class _StillCamera:
    """Pictures from a folder, served in order (or per face when the folder is set-shaped)."""

    def __init__(self, folder: Path):
        self.folder = folder
        base = folder / "examples" if (folder / "examples").is_dir() else folder
        self.per_face: dict[tuple[str, str], list[Path]] = {}
        for p in sorted(base.glob("*/*/*")):
            if p.suffix.lower() in IMAGE_EXT:
                self.per_face.setdefault((p.parent.parent.name, p.parent.name), []).append(p)
        self.flat = [p for p in sorted(folder.iterdir()) if p.suffix.lower() in IMAGE_EXT]
        self.current: tuple[str, str] | None = None

    def has(self, typ: str, face: str) -> bool:
        return not self.per_face or bool(self.per_face.get((typ, face)))

    def read(self):
        if self.per_face:
            lst = self.per_face.get(self.current or ("", ""), [])
        else:
            lst = self.flat
        if not lst:
            return None
        img = cv2.imread(str(lst.pop(0)), cv2.IMREAD_COLOR)
        return img


def _open_camera(spec: str):
    try:
        from hardware.camera import open_camera  # written by the camera owner
    except ImportError:
        raise click.ClickException("no camera support is installed here; use --from-images DIR") from None
    try:
        return open_camera(spec)
    except Exception as err:  # noqa: BLE001 - any backend failure becomes a sentence
        raise click.ClickException(f"cannot open the camera '{spec}': {err}") from None


def _label(meta: dict, what: str, ident: str, lang: str) -> str:
    lab = (meta.get(what) or {}).get(ident, {}).get("label", {})
    if isinstance(lab, str):
        return lab
    return lab.get(lang) or lab.get("en") or ident


class _Commands:
    """What the player asks for next, from the keyboard or the table's buttons, first come first served.

    A line typed on the keyboard is its own command ("" = capture, "r", "f", "s", "q"). A press of the
    draw/read button is "" (capture); holding it, or holding the undo button, is "f" (redo the last
    face). When the keyboard input ends, the command keeps listening to the buttons if they are real
    ones, and otherwise stops ("q").
    """

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[str, str]] = queue.Queue()
        self.panel = None
        self.buttons_live = False
        self._said_eof = False

    def listen_keyboard(self, stream) -> None:
        def run() -> None:
            try:
                for line in iter(stream.readline, ""):
                    self._queue.put(("key", line.strip().lower()))
            except (ValueError, OSError):  # the stream was closed under us
                pass
            self._queue.put(("eof", ""))

        threading.Thread(target=run, name="teach-keyboard", daemon=True).start()

    def listen_buttons(self, pins: str, data_dir: Path | None) -> str:
        """Claims the draw/read and undo buttons (and the LED, buzzer) of the config; returns a line
        saying what the buttons do here."""
        try:
            from gpiozero.pins.mock import MockFactory

            from hardware.buttons import ButtonPanel, make_pin_factory
        except ImportError:
            return "No GPIO support here: press Enter to capture."
        bcfg = config_mod.load(data_dir or config_mod.default_data_dir()).get("buttons", {})
        wanted = {role: int(bcfg.get(role) or 0) for role in ("draw", "undo")}
        if not wanted["draw"]:
            return "No draw/read button in the config ([buttons] draw = 0): press Enter to capture."
        try:
            factory = make_pin_factory(pins)
            self.panel = ButtonPanel(
                wanted, hold_seconds=float(bcfg.get("hold_seconds", 2.0)), bounce_ms=int(bcfg.get("bounce_ms", 20)),
                led_pin=int(bcfg.get("led") or 0) or None, buzzer_pin=int(bcfg.get("buzzer") or 0) or None,
                pin_factory=factory)
        except Exception as err:  # noqa: BLE001 - pins held by `companion serve`, no GPIO access, ...
            self.panel = None
            busy = any(w in f"{type(err).__name__} {err}".lower() for w in ("inuse", "in use", "busy"))
            hint = " Is `companion serve` running? Stop it to use the button here." if busy else ""
            return f"The buttons cannot be used ({err}).{hint} Press Enter to capture."
        self.panel.on("draw", "press", lambda: self._queue.put(("button", "")))
        self.panel.on("draw", "hold", lambda: self._queue.put(("button", "f")))
        self.panel.on("undo", "hold", lambda: self._queue.put(("button", "f")))
        mock = isinstance(self.panel.factory, MockFactory)
        self.buttons_live = not (mock and pins == "auto")
        if not self.buttons_live:
            return "No GPIO on this machine (mock pins): press Enter to capture."
        secs = self.panel.hold_seconds
        return (f"Button on GPIO {wanted['draw']}: press = capture, hold {secs:g} s = redo the last face"
                " (Enter works too).")

    def next(self) -> str:
        while True:
            source, cmd = self._queue.get()
            if source != "eof":
                return cmd
            if not self.buttons_live:
                return "q"
            if not self._said_eof:
                self._said_eof = True
                click.echo("  (no more keyboard input: waiting for the button)")

    def feedback(self) -> None:
        if self.panel is not None:
            self.panel.blink(1)
            self.panel.beep(1)

    def close(self) -> None:
        if self.panel is not None:
            self.panel.close()
            self.panel = None


@click.command()
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--like", "like", default=None, help="Copy the faces (and labels) of this set: castle-dice, "
              "augustus-tokens or a set folder. Default: castle-dice, or augustus-tokens with --kind tokens.")
@click.option("--face", "faces", multiple=True, help="A face to teach as TYPE/FACE (repeatable); adds to --like.")
@click.option("--kind", type=click.Choice(["dice", "tokens"]), default=None)
@click.option("--per-face", default=5, show_default=True, type=click.IntRange(1, 20),
              help="Pictures per face (3 to 10 work best).")
@click.option("--camera", "camera_spec", default="usb:0", show_default=True,
              help="Camera: usb:0, synthetic, replay:PATH.")
@click.option("--from-images", "from_images", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="Teach from still photos in this folder instead of the camera.")
@click.option("--name", default=None, help="Set name (default: the folder name).")
@click.option("--lang", type=click.Choice(["el", "en"]), default="en", show_default=True)
@click.option("--pins", default="auto", type=click.Choice(["auto", "mock", "lgpio", "default", "none"]),
              help="GPIO pin factory for the draw/read button, as for `companion serve`; none = keyboard only.")
@click.option("--data", "data_dir", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="The companion's data folder, whose config.toml names the button pins (default: the user's).")
@click.option("--yes", "-y", is_flag=True, help="Do not wait for Enter: capture at once (scripts, tests).")
def teach(out: Path, like, faces, kind, per_face, camera_spec, from_images, name, lang, pins, data_dir,
          yes) -> None:
    """Teach a custom dice or token set into the folder OUT, face by face."""
    if like is None and not faces:
        like = "augustus-tokens" if kind == "tokens" else "castle-dice"
    try:
        meta, steps = template_steps(like, list(faces))
    except SetError as err:
        raise click.ClickException(str(err)) from None
    if kind is None:
        kind = meta.get("kind") or ("tokens" if {t for t, _ in steps} == {"token"} else "dice")
    camera = _StillCamera(from_images) if from_images else _open_camera(camera_spec)
    session = TeachSession(out, steps, meta, kind)
    click.echo(f"Teaching {len(steps)} face(s), {per_face} picture(s) each, into {out}")
    commands = _Commands()
    try:
        if not yes:
            click.echo("At each prompt: Enter = capture, r = redo the last picture, f = redo the last face, "
                       "s = skip this face, q = stop.")
            if pins != "none":
                click.echo(commands.listen_buttons(pins, data_dir))
            commands.listen_keyboard(sys.stdin)
        _teach_faces(session, steps, camera, commands, meta=meta, kind=kind, per_face=per_face, lang=lang,
                     from_images=from_images, yes=yes)
    finally:
        commands.close()
    taught = [s for s in session.status() if s["captured"]]
    if not taught:
        raise click.ClickException("nothing was captured, so no set was saved")
    session.steps = [(s["type"], s["face"]) for s in taught]
    try:
        reader = session.save(name)
    except SetError as err:
        raise click.ClickException(str(err)) from None
    for w in reader.warnings:
        click.echo(f"warning: {w}", err=True)
    click.echo(f"Saved the set '{reader.name}' ({len(taught)} faces, learned in {reader.learn_seconds:.1f} s).")
    click.echo(f"Use it with: companion read --dice-set {out} PHOTO.jpg")
    _say_how_to_use(out, data_dir)


def _say_how_to_use(out: Path, data_dir: Path | None) -> None:
    """Which game's camera could read with the set, and how to choose it at the table."""
    from companion.dicesets import GAME_SETS, check_fits

    data = data_dir or config_mod.default_data_dir()
    for game in GAME_SETS:
        try:
            check_fits(game, out)
        except SetError:
            continue
        where = out.resolve()
        choose = (f"pick '{where.name}' on the host's settings page"
                  if where.parent == (data / "sets").resolve() else
                  f"put  {game} = \"{where}\"  under [sets] in {data / 'config.toml'}")
        click.echo(f"To read {game} with it at the table: {choose}.")


def _teach_faces(session: TeachSession, steps: list[tuple[str, str]], camera, commands: _Commands, *,
                 meta: dict, kind: str, per_face: int, lang: str, from_images: Path | None, yes: bool) -> None:
    """Asks for each face in turn until it has ``per_face`` pictures; "f" (or holding the button)
    throws away the pictures of the face being taught, or of the last face taught when this one has
    none yet, and asks for it again."""
    key = "teach.prompt." + ("tokens" if kind == "tokens" else "dice")
    if commands.buttons_live:
        key += "_button"
    i = 0
    while i < len(steps):
        typ, face = steps[i]
        if isinstance(camera, _StillCamera):
            camera.current = (typ, face)
            if not camera.has(typ, face):
                click.echo(f"  {typ}/{face}: no pictures in {from_images}; skipped")
                i += 1
                continue
        tl, fl = _label(meta, "types", typ, lang), _label(meta, "faces", face, lang)
        text = t(lang, key, type=caps(tl), face=caps(fl))
        session.clear(typ, face)
        answer, back_to = "", None
        while len(session.captures(typ, face)) < per_face:
            n = len(session.captures(typ, face)) + 1
            if not yes:
                click.echo(f"[{typ}/{face} {n}/{per_face}] {text}")
                answer = commands.next()
            if answer in ("q", "s"):
                break
            if answer == "r":
                gone = session.redo(typ, face)
                click.echo(f"  removed {gone}" if gone else "  nothing to redo for this face yet")
                continue
            if answer == "f":
                earlier = [j for j in range(i) if session.captures(*steps[j])]
                if session.captures(typ, face) or not earlier:
                    session.clear(typ, face)
                    click.echo(f"  redo {typ}/{face}: its pictures are thrown away")
                    continue
                back_to = earlier[-1]
                click.echo(f"  redo {'/'.join(steps[back_to])}: its pictures are thrown away")
                break
            frame = camera.read()
            if frame is None:
                if isinstance(camera, _StillCamera):
                    click.echo(f"  {typ}/{face}: no more pictures ({n - 1} taken)")
                    break
                click.echo("  the camera gave no picture; try again")
                continue
            path, found = session.add(typ, face, frame)
            commands.feedback()
            h, w = cv2.imread(str(path)).shape[:2]
            redo = "r, or hold the button" if commands.buttons_live else "r"
            note = "" if found else f"  (no die found: kept the whole picture; redo it with {redo})"
            click.echo(f"  captured {w}x{h} px -> {path}{note}")
        if answer == "q":
            click.echo("Stopped.")
            return
        i = back_to if back_to is not None else i + 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(teach())

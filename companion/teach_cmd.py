"""``companion teach``: guided calibration of a custom dice or token set.

The companion asks for each face in turn ("show a WOOD die with the COW face up under the camera,
then press Enter"), captures a frame, crops the die, shows where it saved the crop, lets you redo
a face, and finally writes a set folder that ``companion read --dice-set DIR`` uses at once.

Without a camera, ``--from-images DIR`` teaches from still photos: either a set-like folder
(``DIR/<type>/<face>/*.png`` or ``DIR/examples/<type>/<face>/*.png``) or a flat folder whose
pictures are taken in name order, one per capture.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
import cv2

from companion.dicesets import IMAGE_EXT, SetError, TeachSession, template_steps


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


PROMPT = {
    "en": "Show a {type} die with the {face} face up under the camera, then press Enter",
    "el": "Δείξτε ένα ζάρι {type} με την πλευρά {face} προς τα πάνω κάτω από την κάμερα και πατήστε Enter",
}
PROMPT_TOKEN = {
    "en": "Put a {face} token under the camera, then press Enter",
    "el": "Βάλτε ένα πιόνι {face} κάτω από την κάμερα και πατήστε Enter",
}


def _label(meta: dict, what: str, ident: str, lang: str) -> str:
    lab = (meta.get(what) or {}).get(ident, {}).get("label", {})
    if isinstance(lab, str):
        return lab
    return lab.get(lang) or lab.get("en") or ident


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
@click.option("--yes", "-y", is_flag=True, help="Do not wait for Enter: capture at once (scripts, tests).")
def teach(out: Path, like, faces, kind, per_face, camera_spec, from_images, name, lang, yes) -> None:
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
    click.echo("At each prompt: Enter = capture, r = redo the last picture, s = skip this face, q = stop.")
    for typ, face in steps:
        if isinstance(camera, _StillCamera):
            camera.current = (typ, face)
            if not camera.has(typ, face):
                click.echo(f"  {typ}/{face}: no pictures in {from_images}; skipped")
                continue
        tl, fl = _label(meta, "types", typ, lang), _label(meta, "faces", face, lang)
        text = (PROMPT_TOKEN if kind == "tokens" else PROMPT)[lang].format(type=tl.upper(), face=fl.upper())
        session.clear(typ, face)
        while len(session.captures(typ, face)) < per_face:
            n = len(session.captures(typ, face)) + 1
            answer = "" if yes else click.prompt(f"[{typ}/{face} {n}/{per_face}] {text}", default="",
                                                 show_default=False)
            answer = answer.strip().lower()
            if answer == "q":
                break
            if answer == "s":
                break
            if answer == "r":
                gone = session.redo(typ, face)
                click.echo(f"  removed {gone}" if gone else "  nothing to redo for this face yet")
                continue
            frame = camera.read()
            if frame is None:
                if isinstance(camera, _StillCamera):
                    click.echo(f"  {typ}/{face}: no more pictures ({n - 1} taken)")
                    break
                click.echo("  the camera gave no picture; try again")
                continue
            path, found = session.add(typ, face, frame)
            h, w = cv2.imread(str(path)).shape[:2]
            note = "" if found else "  (no die found: kept the whole picture; press r to redo)"
            click.echo(f"  captured {w}x{h} px -> {path}{note}")
        if answer == "q":
            click.echo("Stopped.")
            break
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(teach())

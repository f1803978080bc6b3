"""``companion read``: read the dice in still images (the GUIDE's "Contracts" section).

    companion read [--dice-set NAME|DIR] [--json] [--overlay OUT.png] IMAGE...

With ``--json`` each image gives one line:
``{"image": "<path as given>", "ms": 12.3, "dice": [...], "tokens": [...]}``; ``ms`` is the time
the reader took on the decoded image (file loading excluded). Without ``--json`` a short
human line per image.

Problems are reported one line per file on stderr, the other files are still read, and the
exit status says what happened:

* 0 - every image was read;
* 1 - at least one file could not be read (missing, empty, corrupt, truncated, too large);
* 2 - bad usage, e.g. an unknown ``--dice-set``;
* 3 - every file was read, but some only after a conversion that may cost accuracy
  (greyscale, 16-bit, alpha): their JSON line is printed and a ``note`` line goes to stderr.

``--overlay OUT.png`` writes the image with boxes and values. With several images, each one
is written to ``OUT-<image stem>.png`` (same folder and suffix as OUT).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

import click

STANDARD = "standard-d6"


def _fail(msg: str) -> None:
    click.echo(f"companion read: {msg}", err=True)


def _taught_or(dice_set: str, data_dir: Path | None) -> str:
    """A set taught on the phone's teach screen by name (``<data dir>/sets/<name>``), else as given."""
    from companion import config as config_mod
    from companion.dicesets import BUILTIN

    if dice_set in BUILTIN or Path(dice_set).expanduser().is_dir() or "/" in dice_set:
        return dice_set
    taught = Path(data_dir or config_mod.default_data_dir()) / "sets" / dice_set
    return str(taught) if taught.is_dir() else dice_set


def _make_reader(dice_set: str, data_dir: Path | None = None) -> Callable[[Any], dict]:
    import cv2

    # The readers work on many small patches, where OpenCV's worker threads cost more than
    # they give (and on a busy machine much more): one thread reads fastest.
    cv2.setNumThreads(1)
    if dice_set == STANDARD:
        from vision.pips import read_pips, warm_up

        warm_up()  # one-time library set-up stays out of the first image's "ms"
        return lambda img: {"dice": read_pips(img), "tokens": []}
    try:
        from companion.dicesets import SetError, open_set
    except ImportError:
        _fail(f"dice set {dice_set!r} cannot be used: only {STANDARD!r} is built in and custom dice sets "
              f"are not installed in this copy.")
        sys.exit(2)
    try:
        reader = open_set(_taught_or(dice_set, data_dir))
    except SetError as err:
        _fail(str(err))
        sys.exit(2)
    except (OSError, ValueError) as err:
        _fail(f"dice set {dice_set!r} cannot be opened: {err}")
        sys.exit(2)

    def read(img: Any) -> dict:
        out = reader.read(img)
        if isinstance(out, dict):
            return {"dice": list(out.get("dice") or []), "tokens": list(out.get("tokens") or [])}
        return {"dice": list(out), "tokens": []}

    return read


def _overlay_path(out: str, image: str, many: bool) -> Path:
    o = Path(out)
    if not many:
        return o
    suffix = o.suffix or ".png"
    return o.with_name(f"{o.stem}-{Path(image).stem}{suffix}")


def _human(image: str, ms: float, dice: list[dict], tokens: list[dict]) -> str:
    faces = [str(d.get("face")) if d.get("face") is not None else "?" for d in dice]
    parts = [f"{image}: {len(dice)} dice"]
    if faces:
        parts.append("[" + " ".join(faces) + "]")
    if any(d.get("value") is not None for d in dice):
        parts.append(f"total {sum(int(d['value']) for d in dice if d.get('value') is not None)}")
    if tokens:
        parts.append(f"{len(tokens)} tokens")
    unsure = [d.get("reason") for d in dice if d.get("face") is None]
    if unsure:
        parts.append(f"({len(unsure)} unsure: {'; '.join(sorted(set(map(str, unsure))))})")
    parts.append(f"{ms:.1f} ms")
    return "  ".join(parts)


@click.command("read")
@click.option("--dice-set", "dice_set", default=STANDARD, show_default=True, metavar="NAME|DIR",
              help="Which dice to read: the built-in standard-d6, castle-dice or augustus-tokens, a set taught "
                   "on the phone (by its name) or a set folder.")
@click.option("--data", "data_dir", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="The companion's data folder whose sets/ holds the sets taught on the phone (default: the user's).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per image, one per line.")
@click.option("--overlay", "overlay", default=None, metavar="OUT.png",
              help="Also write the image with boxes and values (several images: OUT-<stem>.png).")
@click.argument("images", nargs=-1, required=True, metavar="IMAGE...")
def read(dice_set: str, data_dir: Path | None, as_json: bool, overlay: str | None, images: tuple[str, ...]) -> None:
    """Read the dice in still images."""
    from companion.imageio import ImageError, load_image

    reader = _make_reader(dice_set, data_dir)
    failed = converted = False
    for image in images:
        try:
            loaded = load_image(image)
        except ImageError as err:
            _fail(str(err))
            failed = True
            continue
        try:
            t0 = time.perf_counter()
            result = reader(loaded.image)
            ms = (time.perf_counter() - t0) * 1000
        except Exception as err:  # a reader bug must not hide the other files' results
            _fail(f"{image}: the reader failed on this image ({type(err).__name__}: {err}).")
            failed = True
            continue
        dice, tokens = result["dice"], result["tokens"]
        if loaded.notes:
            converted = True
            click.echo(f"companion read: note: {image}: {'; '.join(loaded.notes)}.", err=True)
        if as_json:
            click.echo(json.dumps({"image": image, "ms": round(ms, 2), "dice": dice, "tokens": tokens},
                                  ensure_ascii=False))
        else:
            click.echo(_human(image, ms, dice, tokens))
        if overlay:
            import cv2

            from vision.overlay import draw_overlay

            target = _overlay_path(overlay, image, len(images) > 1)
            try:
                ok = cv2.imwrite(str(target), draw_overlay(loaded.image, dice, tokens))
            except cv2.error:
                ok = False
            if not ok:
                _fail(f"{image}: the overlay could not be written to {target} (check the folder and the "
                      f"suffix, e.g. .png).")
                failed = True
        sys.stdout.flush()
    if failed:
        sys.exit(1)
    if converted:
        sys.exit(3)

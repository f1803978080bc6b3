"""Taught dice and token sets: the set folder format, its validation, the learning cache, reading.

A set folder::

    SET/
      set.toml                      # optional: name, kind = "dice" | "tokens", labels, meanings
      examples/<type>/<face>/*.png  # each picture shows ONE die (or token) of that type, that face up

The folder names alone are enough to read a set. ``open_set(name_or_dir)`` accepts a built-in set
name (``castle-dice``, ``augustus-tokens``) or a folder path and returns a ``SetReader`` whose
``read(image_bgr)`` follows the ``companion read`` contract (see shared GUIDE.md). Learning takes a
few seconds and is cached under the user's cache directory, keyed by a hash of the example file
names, sizes and modification times (and the reader's version), so an edited folder is relearned.

The image maths lives in ``vision.custom``; this module only reads files.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import custom

log = logging.getLogger(__name__)

BUILTIN_DIR = Path(__file__).resolve().parent / "sets"
BUILTIN = ("castle-dice", "augustus-tokens")
IMAGE_EXT = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}
READER_VERSION = "custom-1"     # bump when vision.custom changes what it stores
MIN_EXAMPLES = 3


class SetError(ValueError):
    """A set folder that cannot be used; the message names the file or face that is wrong."""


@dataclass
class SetInfo:
    name: str
    kind: str                                   # "dice" | "tokens"
    root: Path
    files: dict[tuple[str, str], list[Path]]    # (type, face) -> example pictures
    toml: dict = field(default_factory=dict)
    provisional: bool = False

    @property
    def types(self) -> list[str]:
        return sorted({t for t, _ in self.files})

    def faces_of(self, typ: str) -> list[str]:
        listed = self.toml.get("types", {}).get(typ, {}).get("faces")
        found = sorted(f for t, f in self.files if t == typ)
        if listed:
            return list(dict.fromkeys([f for f in listed if (typ, f) in self.files] + found))
        return found

    def label(self, what: str, ident: str, lang: str = "en") -> str:
        """Label of a type (what="type") or face (what="face") in ``lang``; falls back to the id."""
        table = self.toml.get("types" if what == "type" else "faces", {}).get(ident, {})
        lab = table.get("label", {})
        if isinstance(lab, str):
            return lab
        return lab.get(lang) or lab.get("en") or ident

    def meaning(self, face: str) -> dict | None:
        m = self.toml.get("faces", {}).get(face, {}).get("meaning")
        return dict(m) if isinstance(m, dict) else None

    def value(self, face: str | None) -> int | None:
        if face is None:
            return None
        m = self.meaning(face) or {}
        if isinstance(m.get("amount"), int):
            return int(m["amount"])
        if isinstance(m.get("value"), int):
            return int(m["value"])
        if not self.toml:
            g = re.search(r"(\d+)$", face)
            return int(g.group(1)) if g else None
        return None


def _is_image(p: Path) -> bool:
    return p.is_file() and p.suffix.lower() in IMAGE_EXT and not p.name.startswith(".")


def resolve(name_or_dir: str | os.PathLike) -> Path:
    s = str(name_or_dir)
    if s in BUILTIN:
        return BUILTIN_DIR / s
    p = Path(s).expanduser()
    if p.is_dir():
        return p
    if (BUILTIN_DIR / s).is_dir():
        return BUILTIN_DIR / s
    raise SetError(f"'{s}' is neither a built-in set ({', '.join(BUILTIN)}) nor a folder that exists")


def load_set_folder(name_or_dir: str | os.PathLike) -> tuple[SetInfo, list[str]]:
    """Read and check a set folder. Raises SetError for what cannot work; returns warnings."""
    root = resolve(name_or_dir)
    warnings: list[str] = []
    meta: dict = {}
    toml_path = root / "set.toml"
    if toml_path.exists():
        try:
            meta = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise SetError(f"{toml_path}: not valid TOML ({err})") from None
    ex = root / "examples"
    if not ex.is_dir():
        raise SetError(f"{root}: there is no examples/ folder; put pictures in examples/<type>/<face>/")
    files: dict[tuple[str, str], list[Path]] = {}
    for tdir in sorted(p for p in ex.iterdir() if p.is_dir() and not p.name.startswith(".")):
        faces = sorted(p for p in tdir.iterdir() if p.is_dir() and not p.name.startswith("."))
        stray = [p.name for p in tdir.iterdir() if _is_image(p)]
        if stray:
            raise SetError(f"{tdir}: pictures must be inside a face folder (examples/{tdir.name}/<face>/),"
                           f" found {stray[0]}")
        if not faces:
            raise SetError(f"{tdir}: the type folder '{tdir.name}' has no face folders")
        for fdir in faces:
            imgs = sorted(p for p in fdir.iterdir() if _is_image(p))
            if not imgs:
                raise SetError(f"{fdir}: the face '{tdir.name}/{fdir.name}' has no pictures (.png or .jpg)")
            if len(imgs) < MIN_EXAMPLES:
                warnings.append(f"{tdir.name}/{fdir.name} has only {len(imgs)} picture(s); "
                                f"{MIN_EXAMPLES} to 10 work best")
            files[(tdir.name, fdir.name)] = imgs
    if not files:
        raise SetError(f"{ex}: no examples; expected examples/<type>/<face>/*.png")
    for typ, spec in (meta.get("types") or {}).items():
        for face in spec.get("faces", []) if isinstance(spec, dict) else []:
            if (typ, face) not in files:
                raise SetError(f"{root}: set.toml lists the face '{typ}/{face}' but examples/{typ}/{face}/"
                               " is missing or empty")
    kind = meta.get("kind")
    if kind not in (None, "dice", "tokens"):
        raise SetError(f"{toml_path}: kind must be \"dice\" or \"tokens\", not {kind!r}")
    if kind is None:
        kind = "tokens" if {t for t, _ in files} == {"token"} else "dice"
    info = SetInfo(name=str(meta.get("name") or root.name), kind=kind, root=root, files=files, toml=meta,
                   provisional=bool(meta.get("provisional", False)))
    return info, warnings


def _code_version() -> bytes:
    try:
        return Path(custom.__file__).read_bytes()
    except OSError:
        return READER_VERSION.encode()


def folder_hash(info: SetInfo) -> str:
    h = hashlib.sha256(READER_VERSION.encode())
    h.update(hashlib.sha256(_code_version()).digest())  # a new reader relearns
    for key in sorted(info.files):
        for p in info.files[key]:
            st = p.stat()
            h.update(f"{key[0]}/{key[1]}/{p.name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    t = info.root / "set.toml"
    if t.exists():
        h.update(t.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    env = os.environ.get("COMPANION_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("tabletop-companion")) / "sets"


def _read_image(p: Path) -> np.ndarray:
    img = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if img is None:
        raise SetError(f"{p}: cannot be read as a picture")
    if min(img.shape[:2]) < 12:
        raise SetError(f"{p}: the picture is too small ({img.shape[1]}x{img.shape[0]} pixels)")
    return img


def load_examples(info: SetInfo) -> tuple[list[custom.Example], list[str]]:
    exs, warnings = [], []
    for (typ, face), paths in sorted(info.files.items()):
        for p in paths:
            exs.append(custom.Example(typ, face, _read_image(p), str(p.relative_to(info.root))))
    sides = np.array([max(e.image.shape[:2]) for e in exs], np.float32)
    med = float(np.median(sides))
    for e, s in zip(exs, sides, strict=True):
        if s > 6 * med or s < med / 6:
            warnings.append(f"{e.source}: {int(s)} pixels across while most pictures are about {int(med)};"
                            " mixed sizes are fine for crops vs photos, but check that this one is right")
    return exs, warnings


def learn_set(info: SetInfo, *, use_cache: bool = True) -> tuple[custom.SetModel, list[str], float]:
    """(model, warnings, seconds spent learning: 0 when it came from the cache)."""
    key = f"{re.sub(r'[^A-Za-z0-9_.-]', '_', info.name)}-{folder_hash(info)}.npz"
    path = cache_dir() / key
    if use_cache and path.exists():
        try:
            with np.load(path, allow_pickle=False) as z:
                model = custom.SetModel.from_arrays(z)
            return model, list(model.info.get("warnings", [])), 0.0
        except (OSError, ValueError, KeyError) as err:
            log.warning("ignoring a broken cache file %s: %s", path, err)
    t0 = time.perf_counter()
    exs, warnings = load_examples(info)
    model, w2 = custom.learn(exs, info.kind)
    warnings += w2
    model.info["warnings"] = warnings
    model.info["name"] = info.name
    secs = time.perf_counter() - t0
    if use_cache:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, **model.to_arrays())
            os.replace(tmp, path)
        except OSError as err:
            log.warning("cannot write the set cache %s: %s", path, err)
    return model, warnings, secs


class SetReader:
    """Reads one set in still images or camera frames (see ``read``)."""

    def __init__(self, info: SetInfo, model: custom.SetModel, warnings: list[str], learn_seconds: float = 0.0):
        self.info = info
        self.model = model
        self.warnings = warnings
        self.learn_seconds = learn_seconds

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def kind(self) -> str:
        return self.info.kind

    def read(self, image_bgr: np.ndarray) -> dict:
        """``{"dice": [...], "tokens": [...]}``; entries follow the GUIDE ``companion read`` shape."""
        if image_bgr is None or not hasattr(image_bgr, "shape"):
            raise ValueError("no picture to read")
        img = image_bgr
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        elif img.shape[2] == 4:
            img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
        out: dict[str, list] = {"dice": [], "tokens": []}
        for r in custom.read(img, self.model):
            e = {"x": r["x"], "y": r["y"], "w": r["w"], "h": r["h"], "set": self.info.name,
                 "type": r["type"] if self.info.kind == "dice" else "token", "face": r["face"],
                 "value": self.info.value(r["face"]), "confidence": r["confidence"]}
            if r["face"] is None:
                e["reason"] = r.get("reason", "unsure")
            else:
                m = self.info.meaning(r["face"])
                if m:
                    e["meaning"] = m
                # what the players call it, for the phone page (the face id is not for them)
                e["label"] = {lang: self.info.label("face", r["face"], lang) for lang in ("el", "en")}
            out["dice" if self.info.kind == "dice" else "tokens"].append(e)
        return out


_OPEN: dict[tuple[str, str], SetReader] = {}


def open_set(name_or_dir: str | os.PathLike, *, use_cache: bool = True) -> SetReader:
    """A built-in set name ("castle-dice", "augustus-tokens") or a set folder path -> SetReader."""
    info, warnings = load_set_folder(name_or_dir)
    key = (str(info.root.resolve()), folder_hash(info))
    if use_cache and key in _OPEN:
        return _OPEN[key]
    model, w2, secs = learn_set(info, use_cache=use_cache)
    reader = SetReader(info, model, list(dict.fromkeys(warnings + w2)), secs)
    if use_cache:
        _OPEN[key] = reader
    return reader


# --- the set each game reads with --------------------------------------------------------------
# A game's camera reads with its built-in set until the players teach their own printing: a set
# taught on the teach screen is saved under <data dir>/sets/<name>/ and named in the config's
# [sets] table (``castle-dice = "my-dice"``); a folder path works there too.
GAME_SETS = {"castle-dice": "castle-dice", "augustus": "augustus-tokens"}  # game -> built-in set


def taught_dir(data_dir: str | os.PathLike) -> Path:
    return Path(data_dir) / "sets"


def set_source(game: str, cfg: dict | None, data_dir: str | os.PathLike | None) -> str:
    """What ``open_set`` opens for ``game``: the config's choice (a built-in name, a set taught
    under the data folder, or a folder path), else the game's built-in set."""
    choice = str(((cfg or {}).get("sets") or {}).get(game) or GAME_SETS[game])
    if choice in BUILTIN or data_dir is None or not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", choice):
        return choice
    taught = taught_dir(data_dir) / choice
    return str(taught) if taught.is_dir() else choice


def check_fits(game: str, name_or_dir: str | os.PathLike) -> tuple[SetInfo, list[str]]:
    """The set folder, checked to be usable by ``game``'s camera: the right kind and only faces
    the game knows (those of its built-in set). Returns (info, warnings: faces not taught);
    raises SetError naming what does not fit."""
    info, _ = load_set_folder(name_or_dir)
    base, _ = load_set_folder(GAME_SETS[game])
    if info.kind != base.kind:
        raise SetError(f"the set '{info.name}' has {info.kind}, but {game} reads {base.kind}")
    unknown = sorted(f"{t}/{f}" for t, f in info.files if (t, f) not in base.files)
    if unknown:
        raise SetError(f"the set '{info.name}' has faces {game} does not know: {', '.join(unknown[:5])}"
                       f" (its faces are those of '{base.name}', e.g. {'/'.join(next(iter(base.files)))})")
    missing = sorted(f"{t}/{f}" for t, f in base.files if (t, f) not in info.files)
    warnings = [f"the set '{info.name}' has no pictures of {', '.join(missing[:8])}"
                f"{' ...' if len(missing) > 8 else ''}: the camera cannot read those faces"] if missing else []
    return info, warnings


def open_for_game(game: str, cfg: dict | None, data_dir: str | os.PathLike | None) -> SetReader:
    """The reader ``game``'s camera uses now. A chosen set that is gone or does not fit any more
    is logged and the built-in set is read instead (the table keeps working)."""
    source = set_source(game, cfg, data_dir)
    if source != GAME_SETS[game]:
        try:
            check_fits(game, source)
            return open_set(source)
        except (SetError, OSError) as err:
            log.warning("the set chosen for %s cannot be used (%s); reading with '%s'", game, err, GAME_SETS[game])
    return open_set(GAME_SETS[game])


def sets_for(game: str, data_dir: str | os.PathLike | None) -> list[str]:
    """The names a host may choose for ``game``: its built-in set and the taught sets that fit."""
    names = [GAME_SETS[game]]
    root = taught_dir(data_dir) if data_dir is not None else None
    if root is not None and root.is_dir():
        for p in sorted(root.iterdir()):
            try:
                check_fits(game, p)
            except (SetError, OSError):
                continue
            names.append(p.name)
    return names


# --- teaching ----------------------------------------------------------------------------------
def crop_object(frame_bgr: np.ndarray, margin: float = 0.18) -> tuple[np.ndarray, bool]:
    """Crop the one die/token in a camera frame. Returns (crop, found); the whole frame if not found."""
    h, w = frame_bgr.shape[:2]
    if max(h, w) <= 160:  # already a close-up
        return frame_bgr.copy(), True
    small = frame_bgr
    sc = 1.0
    if max(h, w) > 640:
        sc = max(h, w) / 640
        small = cv2.resize(frame_bgr, (int(w / sc), int(h / sc)), interpolation=cv2.INTER_AREA)
    m = custom.segment_single(small)
    if m is None:
        return frame_bgr.copy(), False
    x, y, bw, bh = cv2.boundingRect(m)
    x, y, bw, bh = x * sc, y * sc, bw * sc, bh * sc
    mx, my = bw * margin, bh * margin
    x0, y0 = int(max(0, x - mx)), int(max(0, y - my))
    x1, y1 = int(min(w, x + bw + mx)), int(min(h, y + bh + my))
    return frame_bgr[y0:y1, x0:x1].copy(), True


def template_steps(like: str | None = None, faces: list[str] | None = None) -> tuple[dict, list[tuple[str, str]]]:
    """(set.toml dict to start from, [(type, face), ...] to ask for, in order).

    ``like`` is a built-in set or a set folder whose set.toml lists types and faces; ``faces`` is an
    explicit list of "type/face" (or "face" for tokens)."""
    meta: dict = {}
    steps: list[tuple[str, str]] = []
    if like:
        root = resolve(like)
        t = root / "set.toml"
        if t.exists():
            meta = tomllib.loads(t.read_text(encoding="utf-8"))
        for typ, spec in (meta.get("types") or {}).items():
            for f in spec.get("faces", []):
                if (typ, f) not in steps:
                    steps.append((typ, f))
        if not steps:
            info, _ = load_set_folder(root)
            steps = sorted(info.files)
    for item in faces or []:
        typ, _, face = item.strip().rpartition("/")
        typ = typ or "token"
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", typ) or not re.fullmatch(r"[A-Za-z0-9_.-]+", face):
            raise SetError(f"'{item}' is not a face name: use letters, digits, '-' or '_' as TYPE/FACE")
        if (typ, face) not in steps:
            steps.append((typ, face))
    if not steps:
        raise SetError("nothing to teach: give a set to copy the faces from, or the faces as TYPE/FACE")
    return meta, steps


class TeachSession:
    """A set folder being built capture by capture (used by ``companion teach`` and the teach API)."""

    def __init__(self, root: str | os.PathLike, steps: list[tuple[str, str]], meta: dict | None = None,
                 kind: str | None = None):
        self.root = Path(root)
        self.steps = list(steps)
        self.meta = dict(meta or {})
        if kind is None:
            kind = self.meta.get("kind") or ("tokens" if {t for t, _ in steps} == {"token"} else "dice")
        self.kind = kind
        (self.root / "examples").mkdir(parents=True, exist_ok=True)

    def _dir(self, typ: str, face: str) -> Path:
        if (typ, face) not in self.steps:
            raise SetError(f"'{typ}/{face}' is not one of the faces being taught")
        return self.root / "examples" / typ / face

    def captures(self, typ: str, face: str) -> list[Path]:
        d = self._dir(typ, face)
        return sorted(p for p in d.glob("*.png")) if d.is_dir() else []

    def add(self, typ: str, face: str, frame_bgr: np.ndarray, *, crop: bool = True) -> tuple[Path, bool]:
        if frame_bgr is None or getattr(frame_bgr, "ndim", 0) != 3:
            raise SetError("the camera gave no picture; check that it is connected and try again")
        img, found = crop_object(frame_bgr) if crop else (frame_bgr, True)
        d = self._dir(typ, face)
        d.mkdir(parents=True, exist_ok=True)
        existing = self.captures(typ, face)
        n = int(existing[-1].stem) + 1 if existing and existing[-1].stem.isdigit() else len(existing)
        path = d / f"{n:02d}.png"
        if not cv2.imwrite(str(path), img):
            raise SetError(f"cannot write {path}")
        return path, found

    def redo(self, typ: str, face: str) -> Path | None:
        """Forget the last capture of a face (returns the removed file)."""
        caps = self.captures(typ, face)
        if not caps:
            return None
        caps[-1].unlink()
        return caps[-1]

    def clear(self, typ: str, face: str) -> None:
        for p in self.captures(typ, face):
            p.unlink()

    def status(self) -> list[dict]:
        return [{"type": t, "face": f, "captured": len(self.captures(t, f))} for t, f in self.steps]

    def write_toml(self, name: str) -> Path:
        import tomli_w

        meta = {k: v for k, v in self.meta.items() if k not in ("name", "provisional", "provenance")}
        meta["name"] = name
        meta["kind"] = self.kind
        meta["provisional"] = False
        meta["provenance"] = "taught with companion teach"
        types: dict = {}
        for t, f in self.steps:
            if not self.captures(t, f):
                continue
            spec = dict((self.meta.get("types") or {}).get(t, {}))
            spec["faces"] = [ff for tt, ff in self.steps if tt == t and self.captures(tt, ff)]
            types[t] = spec
        meta["types"] = types
        faces = {f: v for f, v in (self.meta.get("faces") or {}).items() if any(ff == f for _, ff in self.steps)}
        meta["faces"] = faces
        path = self.root / "set.toml"
        path.write_text(tomli_w.dumps(meta), encoding="utf-8")
        return path

    def save(self, name: str | None = None) -> SetReader:
        """Write set.toml, check the folder and learn it; raises SetError when a face has no picture."""
        missing = [f"{t}/{f}" for t, f in self.steps if not self.captures(t, f)]
        if missing:
            raise SetError(f"no picture yet for {', '.join(missing[:5])}{' …' if len(missing) > 5 else ''};"
                           " capture them or leave them out")
        self.write_toml(name or self.root.name)
        _OPEN.clear()
        return open_set(self.root)


# --- rendered set folders (tests, benches, the shipped provisional examples) -------------------
def write_rendered_set(dest, set_spec: dict, *, per_face: int = 5, seed: int = 0, style: str = "castle",
                       max_side: int = 80, photo_side: int = 150, margin: tuple[float, float] = (0.12, 0.3),
                       photos: bool = True) -> int:
    """Write ``dest/examples/<type>/<face>/NN.png`` from vision.render (tight crops, and every
    fourth one a small whole photo). Returns how many pictures were written."""
    from vision import render

    rng = np.random.default_rng(seed)
    count = 0
    for typ, face in render.spec_items(set_spec):
        d = Path(dest) / "examples" / typ / face
        d.mkdir(parents=True, exist_ok=True)
        for i in range(per_face):
            crop = i % 4 != 3 or not photos
            img = render.render_example(rng, typ, face, set_spec=set_spec, style=style, crop=crop, margin=margin)
            sc = (max_side if crop else photo_side) / max(img.shape[:2])
            if sc < 1:
                img = cv2.resize(img, None, fx=sc, fy=sc, interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(d / f"{i:02d}.png"), img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    """python -m companion.dicesets make-set castle-dice|augustus-tokens|alt-dice|alt-tokens DIR [N] [SEED]
    python -m companion.dicesets scene OUT.png [SEED]      (one rendered tray, its truth printed)"""
    import sys

    from vision import render

    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) >= 3 and argv[0] == "make-set" and argv[1] in render.SPECS:
        name, dest = argv[1], argv[2]
        n = int(argv[3]) if len(argv) > 3 else 5
        seed = int(argv[4]) if len(argv) > 4 else 0
        style = "glyph" if name.startswith("alt") else "castle"
        print(write_rendered_set(dest, render.SPECS[name], per_face=n, seed=seed, style=style), "examples written")
        return 0
    if len(argv) >= 2 and argv[0] == "scene":
        img, truth = render.render_scene(np.random.default_rng(int(argv[2]) if len(argv) > 2 else 0))
        cv2.imwrite(argv[1], img)
        print(truth)
        return 0
    print(main.__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())

"""Loading image files for the CLI, with one clear sentence for every way a file can be bad.

``load_image(path) -> LoadedImage`` returns an 8-bit BGR array plus ``notes``: conversions that
were made so the image could be read (grey, 16-bit, alpha). A file that cannot be read raises
``ImageError`` whose message is a sentence for the user (no traceback needed).

This module reads files, so it is the one part of ``vision`` that is not pure; the reader
itself (``vision.pips``) never touches the file system.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

MAX_PIXELS = 40_000_000  # 40 MP: more than any table camera; 8000x8000 is refused
MAX_BYTES = 200 * 1024 * 1024

try:  # libjpeg/libpng warnings ("Premature end of JPEG file") must not leak to stderr
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
except Exception:  # pragma: no cover - older builds without the logging module
    pass


class ImageError(ValueError):
    """An image file that cannot be read; ``str(err)`` is a sentence for the user."""


@dataclass
class LoadedImage:
    image: np.ndarray  # H x W x 3, uint8, BGR
    notes: list[str] = field(default_factory=list)  # conversions made to read it


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    n = len(data)
    while i + 9 < n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        seg = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + seg
    return None


def _truncated(data: bytes) -> str | None:
    if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-64:]:
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in data[-64:]:
        return "PNG"
    return None


def load_image(path: str | os.PathLike) -> LoadedImage:
    p = Path(path)
    if not p.exists():
        raise ImageError(f"{path}: no such file.")
    if p.is_dir():
        raise ImageError(f"{path}: is a folder, not an image file.")
    try:
        size = p.stat().st_size
        if size == 0:
            raise ImageError(f"{path}: the file is empty (0 bytes), so there is no image to read.")
        if size > MAX_BYTES:
            raise ImageError(f"{path}: the file is {size // (1024 * 1024)} MB; images over "
                             f"{MAX_BYTES // (1024 * 1024)} MB are refused.")
        data = p.read_bytes()
    except PermissionError:
        raise ImageError(f"{path}: permission denied; the file cannot be opened.") from None
    except OSError as err:
        raise ImageError(f"{path}: the file cannot be read ({err.strerror or err}).") from None
    dims = _png_size(data) or _jpeg_size(data)
    if dims and dims[0] * dims[1] > MAX_PIXELS:
        raise ImageError(f"{path}: the image is {dims[0]}x{dims[1]} pixels; the reader takes at most "
                         f"{MAX_PIXELS // 1_000_000} megapixels, please scale it down (a 640x480 to "
                         f"1920x1080 photo is plenty).")
    kind = _truncated(data)
    if kind:
        raise ImageError(f"{path}: the {kind} file is truncated (it ends before the image does); "
                         f"copy or save it again.")
    buf = np.frombuffer(data, dtype=np.uint8)
    # JPEGs (phone photos) are decoded so that their EXIF orientation is applied, like every
    # photo viewer does; other formats keep alpha and 16-bit depth so we can say what we did.
    flags = cv2.IMREAD_ANYCOLOR | cv2.IMREAD_ANYDEPTH if data[:2] == b"\xff\xd8" else cv2.IMREAD_UNCHANGED
    try:
        img = cv2.imdecode(buf, flags)
    except cv2.error:
        img = None
    if img is None or img.size == 0:
        raise ImageError(f"{path}: not an image that can be read (corrupt, or not a JPEG/PNG/BMP/TIFF/WebP).")
    h, w = img.shape[:2]
    if h * w > MAX_PIXELS:
        raise ImageError(f"{path}: the image is {w}x{h} pixels; the reader takes at most "
                         f"{MAX_PIXELS // 1_000_000} megapixels, please scale it down.")
    if min(h, w) < 8:
        raise ImageError(f"{path}: the image is only {w}x{h} pixels, too small to show dice.")
    notes: list[str] = []
    if img.dtype != np.uint8:
        depth = {np.dtype(np.uint16): "16-bit", np.dtype(np.float32): "floating-point"}.get(img.dtype, str(img.dtype))
        if img.dtype == np.uint16:
            img = (img >> 8).astype(np.uint8)
        else:
            img = cv2.normalize(img.astype(np.float32), None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
        notes.append(f"{depth} image converted to 8-bit")
    if img.ndim == 2 or (img.ndim == 3 and img.shape[2] == 1):
        img = cv2.cvtColor(img.reshape(h, w), cv2.COLOR_GRAY2BGR)
        notes.append("greyscale image: dice colours are unknown, read on brightness only")
    elif img.shape[2] == 4:
        alpha = img[:, :, 3:4].astype(np.float32) / 255.0
        if float(alpha.min()) < 1.0:
            notes.append("transparent areas (alpha) were put on white")
        else:
            notes.append("alpha channel ignored")
        img = (img[:, :, :3].astype(np.float32) * alpha + 255.0 * (1 - alpha)).astype(np.uint8)
    elif img.shape[2] != 3:
        raise ImageError(f"{path}: the image has {img.shape[2]} channels; only grey, colour and colour "
                         f"with alpha are supported.")
    return LoadedImage(np.ascontiguousarray(img), notes)

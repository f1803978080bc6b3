"""Standard pip-dice reader: a BGR image goes in, one entry per die comes out.

The pipeline is classical and runs in a few milliseconds on one core:

1. **Pip blobs.** Both polarities (dark pips on light dice, light pips on dark dice) are
   found with mean-adaptive thresholds at three block sizes, so pips from about 2 px to 20 px
   in radius are caught. Each blob must be a solid, nearly elliptical spot whose surrounding
   ring is uniform and clearly lighter (or darker) than the spot: that removes wood grain,
   text strokes, cables and most table texture.
2. **Faces.** Pips are linked into a face when they have a similar size and ellipse shape
   (pips on a side face are foreshortened differently from the top face), lie within a
   die-sized distance, and the straight line between them stays on uniform die body (no
   gap between dice, no edge between the top and a side face).
3. **Pattern.** A face must show a standard d6 pattern (one centre pip; a diagonal pair;
   three in line; a parallelogram; a parallelogram plus centre; two rows of three) at a pip
   spacing that fits the pip size. Faces that look like dice but do not fit are reported
   with ``value: None`` and a reason instead of a guess.
4. **Top face.** A die seen at an angle also shows pips on its side faces; those faces are
   more foreshortened than the top face, lit differently and sit next to it, so of two
   neighbouring faces the one with the rounder (or clearly crisper) pips is kept as the top
   face. Pips of one face share one evenly lit body: their body levels match closely.
5. **Doubt.** A wrong value is worse than none: overlapping sub-faces (a 6 with a lost pip) and
   pip-dark marks on a face that its pattern does not explain give ``value: None`` with a
   reason starting "doubtful"; a 3 in a line with a matching column beside it is a 6.

Sizes. Small dice (tiny pips at the finest scale, dice of about 25 px or less) are read on a copy
enlarged 1.75 times: their packed pips separate and the pip tests work above the pixel grid.
Only the parts of that copy around spots seen at full size are searched (packed into one
mosaic), and a column of touching pips that still makes one bar is split back into pips.
Dice of 150 px and more are read on a half-size copy. Pictures larger than 900 px (a phone) are
read on a 640 px copy first, then on larger copies while the pips there are small.

Other dice and light. Ghosts (faint pips of a translucent die's other faces beside its crisp
top-face pips) are dropped; a logo in place of the 1 pip is read as 1 when it sits alone on a
face of the other dice' size and colour; a dim picture's colours are brightened for the colour
tests; the two pips of a 2 must share one paint; dots in a row are no 4, 5 or 6.

Motion blur. A die that moved in the exposure has its pips smeared into parallel streaks (a row
of pips along the motion into one beaded bar), which pass no pip test: away from the faces read,
such streaks of one width and one smear length are read as pips, one per bead, where the die's
outline is smeared along the motion too (see :func:`_blurred_faces`).
"""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

SET_NAME = "standard-d6"

# Adaptive-threshold block sizes (pixels) and the largest pip radius each block may report.
# (block size at its resolution, smallest and largest pip radius in full-resolution pixels);
# the first runs at full resolution, the other two at half resolution.
_SCALES = ((11, 1.2, 6.0), (27, 3.0, 9.0), (31, 8.0, 22.0))
_C = 12  # grey levels below the local mean that count as "pip"
_MAX_SIDE = 1280  # larger images are read on a downscaled copy (coordinates are mapped back)
_NATIVE_SIDE = 900  # pictures up to this size are read as they are; larger ones ...
_WORK_SIDE = 640  # ... on a copy this large first (their dice then look as in a webcam's frame)
_FINE_PIP = 5.0  # ... and again on copies twice as large while their pips are smaller than this (px)
_TINY_PIP = 4.0  # pips smaller than this (semi-axis, px) are read on an enlarged copy...
_UPSCALE = 1.75  # ... this much larger (real photos' small dice read best at 1.75-2: their pips are
#                  blurrier than a render's), searched only around spot-sized blobs seen at full size:
_SEEN_MAX = 40  # blobs up to this wide or high (px; a small die's merged 6 included) ...
_ROI_PAD = 14  # ... with this much room (px, full size) around them ...
_CELL = 4  # ... marked on a grid of cells this large (grouped when closer than 2 * _LINK px),
_LINK = 6
_FRAME = 2  # ... and packed into one mosaic with frames this wide (px)
_CON_RATIO = 1.4  # pips whose contrasts differ more than this ratio ...
_SIZE_RATIO = 1.2  # ... and sizes more than this one are on different faces (a side face)
_TIGHT = 6.3  # pips of one face link up to this many pip radii apart (a 4's side, a 6's rows)
_TWO_RD_ROUND = 0.17  # a 2's pips: largest roundness difference when both are round (>= 0.8)
_TWO_RD_FLAT = 0.1  # ... and when one is foreshortened (a side-face pip next to a top 1?)
_TWO_RD_SMALL = 0.03  # ... more for twin-bodied pips under _TWO_SMALL_PIP px (a small blob's roundness is coarse)
_TWO_SMALL_PIP = 6.0
_TWIN_BODY = 0.04  # pips whose body levels differ by less (x pip contrast) are on one face
_TWIN_NEAR = 4.5  # ... when closer than this many pip radii
_TWO_RING = 0.12  # a 2's pips: largest body-level difference (x pip contrast) ...
_TWO_RING_TWIN = 0.2  # ... and for round twin pips (a translucent die: the table shows through unevenly)
_MORE_PIPS = 0.03  # splitting a group into faces: each pip counts as this much roundness
_SAME_LIGHT = 0.14  # pips of one face: largest body-level difference (x pip contrast) ...
_BIG_PIP = 5.0  # ... for pips this big (smaller pips' rings are noisier: 0.2)
_OVERLAP = 0.8  # sub-faces of a group whose centres are closer (x the larger's span) overlap
_MARKS = 0.7  # pip-dark area beyond a face's own pips (in pips) that makes its reading doubtful
_DIM_SIDE = 1.8  # a face whose pips have this much less contrast than its neighbour's is a side
_ONE_NEAR = 2.8  # a 1: the die colour must reach at least this many pip radii around it
_GHOST_DIP = 0.32  # ... a dip no deeper than this (x pip contrast) ...
_GHOST_WIDE = 1.0  # ... and wider than this many pip radii is a translucent die's ghost pip
_GAP = 0.15  # a dip this deep (x pip contrast) on the line between two pips is a seam between dice
_SIDE_RATIO = 1.8  # a side face next to a top face may have pips up to this much smaller
_SIDE_RATIO_DIM = 2.5  # ... or this much smaller when they are much dimmer too (_DIM_SIDE)
_SWIRL_RING = 2.0  # a 2's body colour: rings this many pip radii round its pips ...
_SWIRL_CHROMA = 20.0  # ... at least this colourful (Lab a, b) for a swirl to be told from a seam ...
_SWIRL_HUE = 25.0  # ... whose every sample on the segment has the body's hue within this many degrees
_PAINT = 14.0  # largest hue difference (Lab a, b) between the two pips of a 2
_LOW_VIEW = 0.15  # a flat face above a rounder one by less than this is the top (low camera)
_LIT_TOP = 1.25  # a flat face above a rounder one whose pips stand out this much more is the top (_lit_flat_top)
_LIT_TOP_MIN = 0.55  # ... when at least this round (a sliver below: a side face)
_TINY_SIDE_R = 4.5  # a face with pips smaller than this (px read) ...
_TINY_SIDE_BIG = 1.3  # ... next to one with pips this much bigger is its side face (_tiny_side_below)
_DIM = 150  # pictures whose brightest parts are darker than this are brightened first ...
_BRIGHT = 220  # ... to this level (a well-lit picture's brightest parts) ...
_MAX_GAIN = 3.0  # ... by at most this much
_FAINT = 0.35  # a face's pip contrast below this share of the other dice' (and smaller): a mark
_GHOST = 2.2  # a pip beside one of its size with this many times its contrast is a ghost
_BIG_PIP_R = 11.0  # pips this big (px) are read again on a half-size copy (dice of 150 px and more)
_BIG_SIDE = 160  # ... when that copy is at least this large
_LOGO_MIN_FACE = 36.0  # logos are sought on dice whose face is at least this big (px of the picture)
_LOGO_BODY = 18.0  # Lab distance within which a logo die's face matches the other dice' body colour
_LAB_TILE = 16  # Lab colour is converted in tiles this large, where needed
_TWO_FACES_RD = 0.15  # a face's pips whose roundness jumps this much (and fit badly) are two faces
_FLAT_PIECE = 0.85  # a bar's pieces this much less high than wide, across the bar, are flat pips (_flat_pieces)
_SQUEEZED = 0.8  # pieces of a bar wider than 1 / this (x their length) are squeezed across it
_JUST_OVER = 1.1  # a round pip up to this much over the finest scale's size range is kept as a last resort
_BAR_FILL = 0.72  # least share of its ellipse a bar of touching pips fills (one pip: 0.78)
_ROUND_PIECE = 0.95  # the roundness of a bar's pieces, at most (a pip's, measured)
_COCKED = 0.3  # pips this much less round than the other dice' pips: a tilted (cocked) top face
_THIRD_OFF = 0.25  # a 3's missing corner pip: at most this far (x the pips' spacing) from where it belongs
_CUT_NEAR = 3.6  # a 1 cut by the picture's edge: its die colour reaches this many radii of its core (half a face: 3.75)
_CUT_EVEN = 1.3  # ... all round, this evenly far (longest / shortest ray)
_TWO_CON = 1.25  # a 2's pips: the brighter (more contrast) may not also be the bigger by more than ...
_TWO_SIZE = 1.1  # ... this much (twins; _similar allows _CON_RATIO and _SIZE_RATIO: a side face)
_UNEVEN_ROUND = 0.7  # a 1 and a loose pip beside it, both this round, ...
_UNEVEN_SIZE = 1.3  # ... and alike in size (or core) within this ratio, may be a translucent die's 2
_CORNER_END = 0.58  # ... whose face ends this near (x their distance) beyond each pip (see _at_corners)
_FOR_GOOD = 8  # a ray leaves the die colour for good when it stays off it this many steps (of 0.3 pip radii)
_GHOSTED_CON = 0.8  # ... for a ghosted 1 whose pip has this share of the contrast of the other dice' pips ...
_GHOSTED_OTHERS = 4  # ... of which there are this many at least
_GHOSTED_SPREAD = 0.45  # a lone pip with ghosts round it: its rings may spread this much (x its contrast) ...
_GHOSTED_CLEAR = 0.7  # ... when no ring sample comes nearer the pip's darkness than this share of its contrast
_LIGHT_BODY = 8.0  # a die lighter than the tray: a light blob up to this many (coarsest) pip radii across ...
_LIGHT_STEP = 30  # ... in which pixels this much lighter (grey levels) than its median are its light pips
_FINER_BIG = 1.2  # a pip this many times bigger than its dropped finer find ...
_FINER_ROUND = 0.9  # ... that is at least this round (see _finer_where_alike)
_CROWD_MIN = 6  # a face read amid this many look-alike marks that no face explains ...
_CROWD_NEAR = 0.9  # ... between this many ...
_CROWD_FAR = 3.5  # ... and this many face sides from its centre ...
_CROWD_ARC = 270  # ... spread round it over this many degrees at least, is print, not a die
_MARKED_CROWD = 3  # a face doubted for pip-like marks on it, amid this many look-alikes (as above) ...
_MARKED_ARC = 180  # ... over this many degrees, is print too
_PRINT_NEAR = 0.75  # a face read with two look-alike marks or more between this many ...
_PRINT_FAR = 4.0  # ... and this many face sides from its centre ...
_PRINT_ARC = 120  # ... spread over this many degrees at least ...
_PRINT_EXITS = 3  # ... whose body colour ends for good in no more than this many of 16 directions, is print


@dataclass(slots=True)
class Pip:
    x: float
    y: float
    a: float  # semi-major axis, px
    b: float  # semi-minor axis, px
    theta: float  # orientation of the major axis, radians in [0, pi)
    contrast: float  # ring mean minus spot mean (in the pip-dark polarity), grey levels
    ring: float  # body level around the pip (in the pip-dark polarity)
    spot: float
    polarity: int  # +1 dark pips on a light die, -1 light pips on a dark die
    stretched: bool = False  # just over its scale's size range (motion blur): any other find wins
    finer: Pip | None = None  # the largest smaller find of the same pip, dropped for this one (_dedupe)

    @property
    def r(self) -> float:
        return self.a

    @property
    def roundness(self) -> float:
        return self.b / self.a if self.a > 0 else 0.0


_UNIT = {n: (np.cos(np.linspace(0, 2 * np.pi, n, endpoint=False)),
            np.sin(np.linspace(0, 2 * np.pi, n, endpoint=False))) for n in (16, 24)}


def _ring_samples(img: np.ndarray, x: float, y: float, a: float, b: float, th: float, k: float,
                  n: int = 16) -> np.ndarray:
    """Grey values on an ellipse k times the pip's own, around (x, y)."""
    cos_t, sin_t = _UNIT[n]
    ca, sa = math.cos(th), math.sin(th)
    ex, ey = (k * a) * cos_t, (k * b) * sin_t
    xs = (x + ex * ca - ey * sa + 0.5).astype(np.intp)
    ys = (y + ex * sa + ey * ca + 0.5).astype(np.intp)
    np.minimum(np.maximum(xs, 0, out=xs), img.shape[1] - 1, out=xs)
    np.minimum(np.maximum(ys, 0, out=ys), img.shape[0] - 1, out=ys)
    return img[ys, xs].astype(np.float32)


def _ring_samples_arr(img: np.ndarray, x: np.ndarray, y: np.ndarray, a: np.ndarray, b: np.ndarray,
                      th: list[float], k: float, n: int = 16, neg: np.ndarray | None = None) -> np.ndarray:
    """:func:`_ring_samples` of many ellipses at once (centres, semi-axes as arrays, orientations
    as a list), with the very same arithmetic (the same grey values come out). ``neg``: the
    rows sampled in the negative of ``img`` (see :func:`_flip`)."""
    cos_t, sin_t = _UNIT[n]
    ca = np.array([math.cos(t) for t in th])[:, None]
    sa = np.array([math.sin(t) for t in th])[:, None]
    ex, ey = (k * a)[:, None] * cos_t, (k * b)[:, None] * sin_t
    xs = (x[:, None] + ex * ca - ey * sa + 0.5).astype(np.intp)
    ys = (y[:, None] + ex * sa + ey * ca + 0.5).astype(np.intp)
    np.minimum(np.maximum(xs, 0, out=xs), img.shape[1] - 1, out=xs)
    np.minimum(np.maximum(ys, 0, out=ys), img.shape[0] - 1, out=ys)
    return _flip(img[ys, xs], neg).astype(np.float32)


def _flip(v: np.ndarray, neg: np.ndarray | None) -> np.ndarray:
    """Grey values sampled (rows: blobs) in the dark-pip image, turned into those of its negative
    (255 - v, the light-pip image) in the rows ``neg``: both polarities' blobs are measured
    together, on one image."""
    if neg is None or not neg.any():
        return v
    return np.where(neg.reshape((-1,) + (1,) * (v.ndim - 1)), 255 - v, v)


def _clamp(a: np.ndarray, hi: int) -> np.ndarray:
    """``np.clip(a, 0, hi)`` of an integer array, in place (the same values, faster)."""
    return np.minimum(np.maximum(a, 0, out=a), hi, out=a)


def _norm(v: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(v, axis=-1)`` (the same arithmetic, without its overhead)."""
    return np.sqrt(np.add.reduce(v * v, axis=-1))


_RING8: np.ndarray = np.array([(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * np.pi, 8, endpoint=False)])


class _Masks:
    """Pip masks of one grey image at one block size, for both polarities: pixels at least _C
    grey levels darker (+1) or lighter (-1) than their block's mean. The same masks as
    ``cv2.adaptiveThreshold(..., ADAPTIVE_THRESH_MEAN_C, THRESH_BINARY_INV, block, _C)`` of the
    image and of its negative (but 0/1, see :func:`_blobs`), the box mean computed once for both."""

    def __init__(self, gray: np.ndarray, inside: np.ndarray | None = None) -> None:
        self.gray = gray
        self.inside = inside  # optional: masks are kept only where this is non-zero
        self._by_block: dict[int, dict[int, np.ndarray]] = {}

    def __call__(self, block: int) -> dict[int, np.ndarray]:
        m = self._by_block.get(block)
        if m is None:
            g = self.gray
            mean = cv2.boxFilter(g, -1, (block, block), borderType=cv2.BORDER_REPLICATE | cv2.BORDER_ISOLATED)
            # (thresholded in place, the light-pip difference written over the mean: fewer
            # fresh image-sized arrays, each of which costs page faults and cache misses)
            dark = cv2.subtract(mean, g)
            cv2.threshold(dark, _C - 1, 1, cv2.THRESH_BINARY, dst=dark)
            light = cv2.subtract(g, mean, dst=mean)
            cv2.threshold(light, _C - 1, 1, cv2.THRESH_BINARY, dst=light)
            m = self._by_block[block] = {+1: dark, -1: light}
            if self.inside is not None:
                for k in m:
                    cv2.bitwise_and(m[k], self.inside, dst=m[k])
        return m


def _find_pips(full: tuple[_Masks, np.ndarray], half: tuple[_Masks, np.ndarray],
               scales: tuple[int, ...] = (0, 1, 2), seen: list | None = None,
               bars: bool | list = False, streaks: list | None = None,
               bodies: list | None = None) -> dict[int, list[Pip]]:
    """Pips of both polarities (dark pips: +1, light pips: -1), not deduped.

    Small pips are searched at full resolution, medium and large ones on a half-size copy
    (four times fewer pixels, same pips). Each pair is (pip masks, lightly blurred grey of the
    dark-pip polarity: the light pips are measured on its negative).
    With ``seen``, the boxes of all spot-sized blobs at the finest scale are added to it
    (see :func:`_regions`). With ``bars``, longer blobs are tried as rows of touching pips
    (small dice, where a 6's packed pips merge); when ``bars`` is a list, the pips split from
    such bars go to it instead (the other pips are the same as without ``bars``).
    ``streaks``: the blobs of each run at full resolution go to it (see :func:`_streak_candidates`);
    ``bodies``: those of the run on the half-size copy (see :func:`_pips_on_light_bodies`).
    """
    pips: dict[int, list[Pip]] = {+1: [], -1: []}
    # Both polarities' blobs go in one go, and so do the scales on one image (the two finer
    # ones, both on ``full``): the per-blob tests are the same for each blob, with far fewer
    # numpy calls. (Each scale's pips still come after those of the scales before it.)
    runs = [[k] for k in scales]
    if len(runs) > 1 and scales[0] == 0 and scales[1] == 1:
        runs[:2] = [[0, 1]]
    for run in runs:
        (masks, gs), f = ((full, 1.0), (full, 1.0), (half, 2.0))[run[0]]
        ms, rmins, rmaxs = [], [], []
        for k in run:
            block, rmin, rmax = _SCALES[k]
            m = masks(block)
            ms += [m[+1], m[-1]]
            rmins += [rmin / f] * 2
            rmaxs += [rmax / f] * 2
        for pol, found in _find_pips_at(tuple(ms), gs, rmins, rmaxs, f, seen if run[0] == 0 else None,
                                        bars, streaks if f == 1.0 else bodies).items():
            pips[pol].extend(found)
    return pips


def _find_pips_at(masks: tuple[np.ndarray, ...], gs: np.ndarray, rmins: list[float], rmaxs: list[float],
                  f: float, seen: list | None = None, bars: bool | list = False,
                  streaks: list | None = None) -> dict[int, list[Pip]]:
    """The pips in ``masks`` (pairs of a dark-pip and a light-pip mask, one pair per scale, of
    pip radii ``rmins`` to ``rmaxs``: one per mask), measured on ``gs`` (the dark-pip grey; the
    light pips on its negative): {+1: dark pips, -1: light pips}, each scale's after those of
    the scales before it. With ``seen``, the first pair's spot-sized blobs go to it."""
    out: dict[int, list[Pip]] = {+1: [], -1: []}
    h, w = masks[0].shape
    stats, cents, blob_px, src = _blobs(masks)
    if streaks is not None:
        streaks.append((stats, cents, blob_px, src, (h, w)))
    if not len(stats):
        return out
    neg_all = src % 2 == 1
    # each blob's size range (plain numbers when all masks share one)
    if len(set(rmins)) == 1 and len(set(rmaxs)) == 1:
        rmin, rmax = rmins[0], rmaxs[0]
        def at_(v, ix):
            return v
    else:
        rmin, rmax = np.array(rmins)[src], np.array(rmaxs)[src]
        def at_(v, ix):
            return v[ix]
    area = stats[:, cv2.CC_STAT_AREA]
    x0s, y0s = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    bw = stats[:, cv2.CC_STAT_WIDTH]
    bh = stats[:, cv2.CC_STAT_HEIGHT]
    if seen is not None:
        # Everything spot-sized, pip or not (a small die's 6 may be one merged blob here).
        seen.append(stats[(area >= 3) & (bw <= _SEEN_MAX) & (bh <= _SEEN_MAX) & (src < 2), :4])
    whole = (x0s > 0) & (y0s > 0) & (x0s + bw < w) & (y0s + bh < h)  # not cut by the border
    big_enough = area >= np.maximum(4 / f, math.pi * rmin * rmin * 0.3)
    ok = big_enough & (area <= math.pi * rmax * rmax * 1.3)
    ok &= (bw <= 2 * rmax + 2) & (bh <= 2 * rmax + 2) & (bw >= 2) & (bh >= 2) & whole
    fill = area / np.maximum(bw * bh, 1)
    ok &= (fill > 0.45) & ((fill < 0.95) | (np.maximum(bw, bh) <= 4))  # (a tiny pip may fill its box)
    # Two or three touching pips in a row (a small die's 6) make a bar longer than one pip:
    # it goes on to the shape tests, to be split there (``barish``).
    long_side = np.maximum(bw, bh)
    bar = (~ok & big_enough & whole & (long_side > 2 * rmax + 2) & (long_side <= 6.8 * rmax + 2)
           & (np.minimum(bw, bh) >= 2) & (area <= math.pi * 3.4 * rmax * rmax * 1.3)
           & (fill > 0.25) & (fill < 0.95)) if (bars is True or isinstance(bars, list)) and f == 1.0 else np.zeros_like(ok)
    idx = np.nonzero(ok | bar)[0]
    if idx.size == 0:
        return out
    # Quick contrast test on 8 ring points before any per-blob work.
    cx0, cy0 = cents[idx, 0], cents[idx, 1]
    rad = 0.75 * np.maximum(bw[idx], bh[idx]) + 1.0
    rx = _clamp(np.round(cx0[:, None] + rad[:, None] * _RING8[None, :, 0]).astype(int), w - 1)
    ry = _clamp(np.round(cy0[:, None] + rad[:, None] * _RING8[None, :, 1]).astype(int), h - 1)
    neg = neg_all[idx]
    ringv = _flip(gs[ry, rx], neg).astype(np.float32)
    spotv = _flip(gs[np.round(cy0).astype(int), np.round(cx0).astype(int)], neg).astype(np.float32)
    ringv.sort(axis=1)
    med = 0.5 * (ringv[:, 3] + ringv[:, 4])  # median of 8 (grey levels: exact)
    con = med - spotv
    good = ((con >= 30) & ((ringv < (spotv + 0.5 * con)[:, None]).sum(axis=1) <= 4)) | bar[idx]
    # Shape tests per blob (second moments of all blobs' pixels at once); the ring samples of
    # the blobs that pass are taken all at once too.
    sel = idx[good]
    if not sel.size:
        return out
    rmin_s, rmax_s = at_(rmin, sel), at_(rmax, sel)
    mu20, mu02, mu11 = _blob_moments(blob_px, sel, area, cents)
    common = np.sqrt(np.maximum(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 * mu11))
    l1, l2 = (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
    a = 2 * np.sqrt(np.maximum(l1, 0.0)) + 0.5  # +0.5: pixel-grid bias
    b = 2 * np.sqrt(np.maximum(l2, 0.0)) + 0.5
    # Two or three touching pips (a 6 on a small die) make one bar: split below.
    barish = (rmax_s < a) & (a <= 3.4 * rmax_s) & (rmin_s <= b) & (b <= rmax_s) & (b >= 0.22 * a)
    den = math.pi * (a - 0.5) * (b - 0.5)  # (0 for a blob with no width: no pip either way)
    efill = np.divide(area[sel], den, out=np.zeros(den.shape), where=den > 0)
    # (a bar of pips pinched deeply between them fills its ellipse less than one pip does)
    # A round pip just over the finest scale's size range stays too, as a last resort (the
    # next scale may run it into a mark beside it: a translucent die's grain, a neighbour pip)
    just_over = ((f == 1.0) & (rmax_s == _SCALES[0][2]) & (a > rmax_s) & (a <= _JUST_OVER * rmax_s)
                 & (b > rmax_s))
    ok = ((l2 > 0) & (~((a < rmin_s) | (a > rmax_s) | (b < 0.25 * a)) | barish | just_over)
          & (efill > np.where(barish, _BAR_FILL, 0.78)) & (efill < 1.2))
    th = (0.5 * np.arctan2(2 * mu11, mu20 - mu02)) % math.pi
    ks = np.flatnonzero(ok)
    sk = sel[ks]
    neg = neg_all[sk]
    cxa, cya, aa, ba, tha = cents[sk, 0], cents[sk, 1], a[ks], b[ks], th[ks]
    spota = _flip(gs[np.round(cya).astype(np.intp), np.round(cxa).astype(np.intp)], neg).astype(np.float64)
    thl = tha.tolist()
    if not ks.size:
        return out
    rings = _ring_samples_arr(gs, cxa, cya, aa, ba, thl, 1.5, neg=neg)
    rings.sort(axis=1)
    rmean = (0.5 * (rings[:, 7] + rings[:, 8])).astype(np.float64)  # median of 16
    contrasts = rmean - spota
    cuts = np.count_nonzero(rings < (spota + 0.5 * contrasts)[:, None], axis=1)
    # A pip (over 4 px) is dark all through; a whole dark die (with light pips in it) is not.
    cxs, cys, as_, bs = cxa[:, None], cya[:, None], aa[:, None], ba[:, None]
    ca_, sa_ = np.cos(tha)[:, None], np.sin(tha)[:, None]
    kk, jj = _INNER
    iy = _clamp(np.round(cys + kk * as_ * sa_ + jj * bs * ca_).astype(np.intp), gs.shape[0] - 1)
    ix = _clamp(np.round(cxs + kk * as_ * ca_ - jj * bs * sa_).astype(np.intp), gs.shape[1] - 1)
    inner = _flip(gs[iy, ix], neg).max(axis=1).astype(np.float64)
    # The ring must be body (neighbouring pips may cut into a quarter of it at most), and
    # clearly lighter than the spot.
    live = (contrasts >= 30) & (cuts <= 6)
    barish = barish[ks]
    just_over = just_over[ks]
    from_bar = bar[sk] if isinstance(bars, list) else np.zeros(ks.size, bool)
    try_split = live & (barish | (ba / aa < 0.6))
    # Inter-quartile spread of the 16 samples; where neighbouring pips cut into the ring
    # (a 6's packed columns), the spread of the body samples beyond them. (Compared in
    # float32, as the samples are.)
    rows = np.arange(ks.size)
    spread = rings[rows, 12] - rings[rows, np.where(cuts >= 2, 6, 4)]
    # A pip just over the size range, stretched by motion blur (not split as a bar), stays as
    # a last resort (``stretched``: any other find of it wins); a round one far over it is left
    # to the next scale. (A round one just over it too stays as a last resort: on a small die's
    # 6, enlarged, the next scale merges a column of such pips into one blob.)
    rmax_k = at_(rmax_s, ks)
    stretched = (barish & (f == 1.0) & (rmax_k == _SCALES[0][2]) & (aa <= 1.3 * rmax_k)
                 & (ba >= 0.6 * np.maximum(aa, rmax_k)) & ((ba <= 0.85 * aa) | (aa <= _JUST_OVER * rmax_k)))
    plain = (live & (~barish | stretched) & ~from_bar & ~(spread > (0.3 * contrasts + 6).astype(np.float32))
             & ~((aa > 4) & (inner > spota + 0.6 * contrasts)))
    todo = np.flatnonzero(try_split | plain).tolist()
    if not todo:
        return out
    if f != 1.0:
        px, py, pa, pb = (cxa + 0.5) * f - 0.5, (cya + 0.5) * f - 0.5, aa * f, ba * f
    else:
        px, py, pa, pb = cxa, cya, aa, ba
    cols = list(zip(px.tolist(), py.tolist(), pa.tolist(), pb.tolist(), thl, contrasts.tolist(),
                    rmean.tolist(), spota.tolist(), strict=True))
    # A somewhat long pip over 4 px may be a pip with a ghost run into it: measured on its core.
    long_ = np.flatnonzero((try_split | plain) & (ba > 0.55 * aa) & (ba < 0.85 * aa) & (aa > 4.0))
    cores = {}
    if long_.size:
        ok, ccx, ccy, crd, cth = _pip_cores(blob_px, gs, sk[long_], area, spota[long_] + 0.5 * contrasts[long_],
                                            cxa[long_], cya[long_], aa[long_], neg[long_])
        for m in np.flatnonzero(ok).tolist():
            n_, wd = int(long_[m]), float(ba[long_[m]])
            cx_, cy_ = float(ccx[m]), float(ccy[m])
            if f != 1.0:
                cx_, cy_, wd = (cx_ + 0.5) * f - 0.5, (cy_ + 0.5) * f - 0.5, wd * f
            cores[n_] = (cx_, cy_, wd, wd * float(crd[m]), float(cth[m]))
    tried = np.flatnonzero(try_split).tolist()
    splits = dict(zip(tried, _split_bars(gs, cxa[tried].tolist(), cya[tried].tolist(), aa[tried].tolist(),
                                         ba[tried].tolist(), [thl[i] for i in tried],
                                         rmean[tried].tolist(), neg[tried].tolist()), strict=True)) if tried else {}
    pols = np.where(neg, -1, 1).tolist()
    # the pixels of the bars split into pieces, all gathered at once (see _flat_pieces)
    split_rows = [n_ for n_ in todo if splits.get(n_)]
    bar_px = {}
    if split_rows:
        _o, bxs, bys = _blob_pixels(blob_px, sk[split_rows], area)
        ends = np.cumsum(area[sk[split_rows]]).tolist()
        bar_px = {n_: (bxs[e - int(area[sk[n_]]):e], bys[e - int(area[sk[n_]]):e]) for n_, e in zip(split_rows, ends, strict=True)}
    for n_ in todo:
        polarity = pols[n_]
        pips = out[polarity]
        split = splits.get(n_)
        if split is not None:
            if split:
                into = bars if from_bar[n_] else pips
                th, rm = thl[n_], cols[n_][6]
                # The pieces' width across the bar over their length along it (1 for a row
                # of round pips; a side face's row of squeezed pips stays squeezed). The
                # moments of k touching discs of radius R: a = 2.236 R (k = 2), 3.416 R (3).
                squeeze = (ba[n_] - 0.5) * (2.236 if len(split) == 2 else 3.416) / max(aa[n_] - 0.5, 1e-6)
                # (the measured squeeze, up to a round pip's: a bar of round pips spaced a
                # little apart reads a little squeezed, and its pieces must still match the
                # pieces of the next bar, a 6's other column, measured the same way)
                rd, sth = min(squeeze, _ROUND_PIECE), th
                if squeeze * _SQUEEZED > 1:
                    rd, sth = 1 / squeeze, (th + 0.5 * math.pi) % math.pi
                shapes = _flat_pieces(*bar_px[n_], split, th)
                for k_, (sx, sy, sr, sspot) in enumerate(split):
                    pr, prd, pth = (sr, rd, sth) if shapes is None else shapes[k_]
                    if f != 1.0:
                        sx, sy, pr = (sx + 0.5) * f - 0.5, (sy + 0.5) * f - 0.5, pr * f
                    # (a piece of a bar split on the half-size copy is measured coarsely, its
                    # size from the whole bar's: a finer scale's find of the same pip wins)
                    into.append(Pip(sx, sy, pr, pr * prd, pth, rm - sspot, rm, sspot, polarity, f != 1.0))
                continue
            if not plain[n_]:
                continue
        col = cols[n_]
        if n_ in cores:
            col = (*cores[n_], *col[5:])
        pips.append(Pip(*col, polarity, bool(barish[n_] or just_over[n_])))
    return out


def _flat_pieces(xs: np.ndarray, ys: np.ndarray, split: list[tuple[float, float, float, float]],
                 th: float) -> list[tuple[float, float, float]] | None:
    """The shapes (radius, roundness, orientation) of a bar's pieces when they are pips
    squeezed flat, as a low camera sees a top face: the pips of a 6's column (or a 3's, a 5's
    diagonal) touch there along the way the face is foreshortened, and each piece is wider
    across that way than along it, whichever way the bar runs (a rotated die's diagonal bar
    of level, flat pips; level within 30 degrees, as the table is seen from low in an upright
    picture). Measured on the bar's pixels nearest each piece's centre (the bar cut
    midway between them); None when the pieces are not clearly flatter than a round pip
    (on average; a small die's 6 of round pips: their shape is read from the bar as a whole).
    ``xs, ys``: the bar's pixels (in raster order)."""
    c = np.array([(sx, sy) for sx, sy, _r, _s in split])
    near = np.argmin((xs[:, None] - c[None, :, 0]) ** 2 + (ys[:, None] - c[None, :, 1]) ** 2, axis=1)
    out = []
    for k in range(len(split)):
        mine = near == k
        n = int(mine.sum())
        if n < 5:
            return None
        dx, dy = xs[mine] - xs[mine].mean(), ys[mine] - ys[mine].mean()
        m20, m02, m11 = float((dx * dx).mean()), float((dy * dy).mean()), float((dx * dy).mean())
        common = math.sqrt(max(0.0, ((m20 - m02) / 2) ** 2 + m11 * m11))
        l1, l2 = (m20 + m02) / 2 + common, (m20 + m02) / 2 - common
        a, b = 2 * math.sqrt(max(l1, 0.0)) + 0.5, 2 * math.sqrt(max(l2, 0.0)) + 0.5
        pth = (0.5 * math.atan2(2 * m11, m20 - m02)) % math.pi
        if _angle_diff(pth, th) < math.radians(20) or _angle_diff(pth, 0.0) >= math.radians(30):
            return None  # (along the bar: a row of round pips a little apart; not level: no table seen from low)
        out.append((a, b / a, pth))
    return out if sum(rd for _a, rd, _t in out) < _FLAT_PIECE * len(out) else None


def _pip_cores(blob_px: list, gs: np.ndarray, ks: np.ndarray,
               area: np.ndarray, half: np.ndarray, bx: np.ndarray, by: np.ndarray,
               length: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, ...]:
    """A pip that has run into a faint spot beside it (a translucent die's ghost pip, a
    shadow) makes one lopsided blob at the pip threshold; its part darker than ``half`` (half
    way between spot and body) is the pip itself. For the blobs ``ks`` (rows of :func:`_blobs`'
    stats, its pixels ``blob_px``), all at once: whether that core is round and off the blob's
    centre ``bx, by`` (a pip seen at a slant has its core in the middle), and the core's
    centre, roundness and orientation. ``neg``: the blobs measured on the negative of ``gs``. (Its size stays the blob's semi-minor axis, which the
    spot did not stretch: measured at the pip threshold, as other pips are.)"""
    k = ks.size
    nb = area[ks]
    owner, px, py = _blob_pixels(blob_px, ks, area)
    core = _flip(gs[py, px], neg[owner] if neg.any() else None) < half[owner]
    o = owner[core]
    xs, ys = px[core].astype(np.float64), py[core].astype(np.float64)
    n = np.bincount(o, minlength=k)
    nn = np.maximum(n, 1)
    mx, my = np.bincount(o, xs, k) / nn, np.bincount(o, ys, k) / nn
    dx, dy = xs - mx[o], ys - my[o]
    mu20, mu02, mu11 = np.bincount(o, dx * dx, k) / nn, np.bincount(o, dy * dy, k) / nn, np.bincount(o, dx * dy, k) / nn
    common = np.sqrt(np.maximum(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 * mu11))
    l1, l2 = (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
    rd = (2 * np.sqrt(np.maximum(l2, 0.0)) + 0.5) / (2 * np.sqrt(np.maximum(l1, 0.0)) + 0.5)
    th = (0.5 * np.arctan2(2 * mu11, mu20 - mu02)) % math.pi
    ok = ((n >= 5) & (n <= 0.8 * nb) & (rd >= 0.85)
          & (np.hypot(mx - bx, my - by) >= np.maximum(0.08 * length, 0.4)))
    return ok, mx, my, rd, th


# four points inside a pip, at 0.35 of its axes: (major, minor) axis factors
_INNER = (np.array([[0.35, -0.35, 0.0, 0.0]]), np.array([[0.0, 0.0, 0.35, -0.35]]))


def _blobs(masks: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray, list, np.ndarray]:
    """The 8-connected blobs of 0/1 masks of one size (dark-pip and light-pip masks): the stats
    and centroids of ``cv2.connectedComponentsWithStats`` of each mask without the background's
    row (the same values; the first mask's blobs first), each blob's pixels (see
    :func:`_blob_pixels`) and each blob's mask (its index in ``masks``). (Each mask's pixels are
    gathered on their own: arrays that stay in the cache, quicker than all masks' at once.)"""
    parts, stats, cents, counts = [], [], [], []
    off = 0
    labels: dict = {}  # (one label image per label type, written over mask by mask)
    for mask in masks:
        st, ce, px = _mask_blobs(mask, labels)
        parts.append((off, *px))
        stats.append(st)
        cents.append(ce)
        counts.append(len(st))
        off += len(st)
    src = np.repeat(np.arange(len(masks)), counts)
    if len(masks) == 1:
        return stats[0], cents[0], parts, src
    return np.concatenate(stats), np.concatenate(cents), parts, src


def _mask_blobs(mask: np.ndarray, buffers: dict | None = None) -> tuple[np.ndarray, np.ndarray,
                                                                       tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The 8-connected blobs of a 0/1 mask: the stats and centroids of
    ``cv2.connectedComponentsWithStats`` without the background's row (the same values), and
    each blob's pixels (x, y, the blob's first row in them: blob by blob, each in raster order).

    OpenCV's stats pass also walks every background pixel (twice the labelling's cost); here
    they are summed over the marked pixels only, from the labels alone. ``buffers``: label
    images to write the labels into (by label type; the masks of one call share one size)."""
    # (16-bit labels are quicker to write; there are never more blobs than marked pixels)
    # (Spaghetti labels as BBDT does, same labels, a little faster with 16-bit labels)
    small = cv2.countNonZero(mask) < 65000
    ltype = cv2.CV_16U if small else cv2.CV_32S
    n, labels = cv2.connectedComponentsWithAlgorithm(
        mask, 8, ltype, cv2.CCL_SPAGHETTI if small else cv2.CCL_BBDT,
        **({} if buffers is None or ltype not in buffers else {"labels": buffers[ltype]}))
    if buffers is not None:
        buffers[ltype] = labels
    at = np.flatnonzero(mask.view(np.bool_))  # (raster order)
    lab = labels.ravel()[at]
    bits = max(1, mask.size - 1).bit_length()
    if (n - 1).bit_length() + bits <= 32:
        # Each pixel's label and position in one 32-bit key, sorted: the positions come out
        # blob by blob, each blob's in raster order (the order of a stable sort by label), and
        # numpy sorts 32-bit keys much faster than it argsorts labels. (Keys are unique.)
        key = lab.astype(np.uint32) << np.uint32(bits)
        key |= at.astype(np.uint32)
        key.sort()
        at = (key & np.uint32((1 << bits) - 1)).view(np.int32)
    else:
        if n <= 1 << 16:
            lab = lab.astype(np.uint16, copy=False)  # (a stable sort of 16-bit keys is a radix sort)
        # (pixel positions and coordinates as 32-bit integers: half the memory to go through)
        at = at.astype(np.int32)[np.argsort(lab, kind="stable")]
    area = np.bincount(lab, minlength=n)[1:]
    first = np.cumsum(area) - area
    ys = at // np.int32(mask.shape[1])
    xs = at - ys * np.int32(mask.shape[1])
    if not area.size:
        return np.zeros((0, 5), np.int32), np.zeros((0, 2)), (xs, ys, first)
    x0, y0 = np.minimum.reduceat(xs, first), ys[first]
    stats = np.stack([x0, y0, np.maximum.reduceat(xs, first) - x0 + 1, ys[first + area - 1] - y0 + 1, area],
                     axis=1).astype(np.int32)
    cents = np.stack([np.add.reduceat(xs, first, dtype=np.int64) / area,
                      np.add.reduceat(ys, first, dtype=np.int64) / area], axis=1)
    return stats, cents, (xs, ys, first)


def _blob_moments(blob_px: list, sel: np.ndarray, area: np.ndarray,
                  cents: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Normalised central second moments (mu20, mu02, mu11 over the area) of the blobs ``sel``
    (rows of :func:`_blobs`' stats, its pixels ``blob_px``), all blobs at once, each summed over
    its pixels in raster order."""
    k = sel.size
    cnt = area[sel]
    owner, xs, ys = _blob_pixels(blob_px, sel, area)
    dx = xs - cents[sel, 0][owner]
    dy = ys - cents[sel, 1][owner]
    return (np.bincount(owner, dx * dx, k) / cnt, np.bincount(owner, dy * dy, k) / cnt,
            np.bincount(owner, dx * dy, k) / cnt)


def _blob_pixels(blob_px: list, sel: np.ndarray,
                 area: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pixels of the blobs ``sel`` (rows of :func:`_blobs`' stats, ascending; its pixels
    ``blob_px``: per mask, its first blob's row and its blobs' pixels x, y and first rows in
    them): each one's blob (0 .. len(sel) - 1), x and y, blob by blob, each in raster order."""
    out = []
    starts = np.searchsorted(sel, [part[0] for part in blob_px] + [np.iinfo(np.int64).max])
    for (off, xs, ys, first), s0, s1 in zip(blob_px, starts[:-1].tolist(), starts[1:].tolist(), strict=True):
        if s1 == s0 and len(blob_px) > 1:
            continue
        mine = sel[s0:s1]
        cnt = area[mine]
        owner = np.repeat(np.arange(s0, s1), cnt)
        at = np.repeat(first[mine - off] - (np.cumsum(cnt) - cnt), cnt) + np.arange(owner.size)
        out.append((owner, xs[at], ys[at]))
    if len(out) == 1:
        return out[0]
    if not out:
        return np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0, np.intp)
    return tuple(np.concatenate(v) for v in zip(*out, strict=True))


_K3 = np.ones(3) / 3  # a 3-sample running mean


def _split_bar(gs: np.ndarray, cx: float, cy: float, a: float, b: float, th: float,
               body: float, neg: bool = False) -> list[tuple[float, float, float, float]]:
    """Two or three small pips that touch make one bar-shaped blob. Along the bar's axis they
    show as dark dips with lighter necks between them: returns (x, y, radius, darkness) of
    each pip, or [] for a bar without necks (one stretched pip). ``neg``: measured on the
    negative of ``gs``."""
    # (the pieces must be round: 2 or 3 pieces whose length matches the bar's width)
    if all(abs(2 * (a - 0.5) / k - 2 * (b - 0.5)) > 0.4 * (2 * (a - 0.5) / k) for k in (3, 2)):
        return []
    ca, sa = math.cos(th), math.sin(th)
    ts = np.arange(-a, a + 0.01, 0.5)
    xs = _clamp(np.round(cx + ts * ca).astype(int), gs.shape[1] - 1)
    ys = _clamp(np.round(cy + ts * sa).astype(int), gs.shape[0] - 1)
    v = np.convolve((255 - gs[ys, xs] if neg else gs[ys, xs]).astype(np.float32), _K3, mode="same")
    core = float(v[2:-2].min()) if v.size > 4 else float(v.min())
    contrast = body - core
    if contrast < 30:
        return []
    found = _bar_pieces(ts.tolist(), v.tolist(), core, contrast, a, b)
    if found is None:
        return []
    r, pieces = found
    return [(cx + c * ca, cy + c * sa, r, d) for c, d in pieces]


def _bar_pieces(tl: list[float], vl: list[float], core: float, contrast: float, a: float,
                b: float) -> tuple[float, list[tuple[float, float]]] | None:
    """The 3 (else 2) round pieces of a bar from its darkness profile ``vl`` along the bar
    (at offsets ``tl``): dark pieces with lighter necks between them. Returns (piece radius,
    [(offset along the bar, darkness)]), or None."""
    for k in (3, 2):
        step = 2 * (a - 0.5) / k
        if abs(step - 2 * (b - 0.5)) > 0.4 * step:
            continue  # the pieces would not be round
        # (every neck must be lighter than every piece by 0.15 contrast: the first neck against
        # the first piece already rules out most bars, before the other pieces are looked at)
        if not _interp(-(a - 0.5) + step * 1, tl, vl) > _interp(-(a - 0.5) + step * 0.5, tl, vl) + 0.15 * contrast:
            continue
        centres = [-(a - 0.5) + step * (j + 0.5) for j in range(k)]
        vc = [_interp(c, tl, vl) for c in centres]
        if not max(vc) < core + 0.3 * contrast:
            continue  # (the pieces are not dark enough: the necks need not be looked at)
        necks = [-(a - 0.5) + step * (j + 1) for j in range(k - 1)]
        if min(_interp(c, tl, vl) for c in necks) > max(vc) + 0.15 * contrast:
            return 0.5 * step + 0.5, list(zip(centres, vc, strict=True))
    return None


def _split_bars(gs: np.ndarray, cx: list[float], cy: list[float], a: list[float], b: list[float],
                th: list[float], body: list[float], neg: list[bool]) -> list[list[tuple[float, float, float, float]]]:
    """:func:`_split_bar` of many bars at once (the profiles along all bars sampled and
    smoothed together, with the very same arithmetic: the same pieces come out)."""
    out: list[list[tuple[float, float, float, float]]] = [[] for _ in cx]
    # (the pieces must be round: 2 or 3 pieces whose length matches the bar's width)
    # (written out for k = 3, 2: the same arithmetic as in the loop below)
    go = [i for i, (ai, bi) in enumerate(zip(a, b, strict=True))
          if not (abs(2 * (ai - 0.5) / 3 - 2 * (bi - 0.5)) > 0.4 * (2 * (ai - 0.5) / 3)
                  and abs(2 * (ai - 0.5) / 2 - 2 * (bi - 0.5)) > 0.4 * (2 * (ai - 0.5) / 2))]
    if not go:
        return out
    ts = [np.arange(-a[i], a[i] + 0.01, 0.5) for i in go]
    lens = [t.size for t in ts]
    if min(lens) < 3:  # (never for real bars; one by one then)
        for i in go:
            out[i] = _split_bar(gs, cx[i], cy[i], a[i], b[i], th[i], body[i], neg[i])
        return out
    cs = [(math.cos(th[i]), math.sin(th[i])) for i in go]
    n = np.array(lens)
    rep = np.repeat(np.arange(len(go)), n)
    t_all = np.concatenate(ts)
    ca = np.array([c for c, _s in cs])[rep]
    sa = np.array([s for _c, s in cs])[rep]
    xs = _clamp(np.round(np.array([cx[i] for i in go])[rep] + t_all * ca).astype(int), gs.shape[1] - 1)
    ys = _clamp(np.round(np.array([cy[i] for i in go])[rep] + t_all * sa).astype(int), gs.shape[0] - 1)
    # all profiles in one row, each after a zero (a 3-sample running mean then ends each
    # profile as np.convolve(..., mode="same") of the profile alone does)
    starts = np.cumsum(n) - n + np.arange(1, len(go) + 1)
    row = np.zeros(int(n.sum()) + len(go) + 1, np.float64)
    row[np.repeat(starts - (np.cumsum(n) - n), n) + np.arange(int(n.sum()))] = _flip(gs[ys, xs], np.array(
        [neg[i] for i in go])[rep])
    v_all = np.convolve(row, _K3, mode="same").tolist()
    t_list = t_all.tolist()
    o = 0
    for g, i in enumerate(go):
        m, p0 = lens[g], int(starts[g])
        tl, vl = t_list[o:o + m], v_all[p0:p0 + m]
        o += m
        core = min(vl[2:-2]) if m > 4 else min(vl)
        contrast = body[i] - core
        if contrast < 30:
            continue
        found = _bar_pieces(tl, vl, core, contrast, a[i], b[i])
        if found is not None:
            r, pieces = found
            ca_i, sa_i = cs[g]
            out[i] = [(cx[i] + c * ca_i, cy[i] + c * sa_i, r, d) for c, d in pieces]
    return out


def _interp(x: float, xp: list[float], fp: list[float]) -> float:
    """``np.interp(x, xp, fp)`` for one x and short increasing lists (same arithmetic)."""
    if x <= xp[0]:
        return fp[0]
    if x >= xp[-1]:
        return fp[-1]
    j = bisect.bisect_right(xp, x) - 1  # the last xp[j] <= x
    if x == xp[j]:
        return fp[j]
    return (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]) * (x - xp[j]) + fp[j]


def _x_pairs(xs: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """All pairs (i, j), i < j, of points whose x differ by at most about ``reach`` (a little
    more), in row-major order (as ``np.nonzero(np.triu(..., 1))`` lists them): the only pairs
    that can be closer than ``reach``. Found on the points sorted by x, not among all pairs."""
    n = xs.size
    order = np.argsort(xs, kind="stable")
    xo = xs[order]
    cnt = np.searchsorted(xo, xo + (reach * (1 + 1e-6) + 1e-6), side="right") - np.arange(1, n + 1)
    a = np.repeat(np.arange(n), cnt)
    b = a + 1 + np.arange(a.size) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    i, j = order[a], order[b]
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    k = np.argsort(lo * n + hi)
    return lo[k], hi[k]


def _dedupe(pips: list[Pip]) -> list[Pip]:
    """The same pip is often found at two block sizes: keep the more complete (larger) one,
    unless the larger is several touching pips seen as one blob."""
    if not pips:
        return []
    pips.sort(key=lambda p: (p.stretched, -p.a))
    xs = np.array([p.x for p in pips])
    ys = np.array([p.y for p in pips])
    aa = np.array([p.a for p in pips])
    # (only pairs of pips closer than the larger radius count below)
    lo, hi = _x_pairs(xs, float(aa.max()))
    d2 = (xs[hi] - xs[lo]) ** 2 + (ys[hi] - ys[lo]) ** 2
    # dup: pip hi (smaller or equal, later) repeats the kept pip lo
    dup = (d2 < (0.8 * aa[lo]) ** 2) & (aa[lo] < 1.7 * aa[hi])
    keep = np.ones(len(pips), bool)
    o = np.argsort(hi[dup] * len(pips) + lo[dup])
    for i, j in zip(hi[dup][o].tolist(), lo[dup][o].tolist(), strict=True):  # row by row: keep[j] is final
        if keep[j]:
            keep[i] = False
            if pips[j].finer is None:
                pips[j].finer = pips[i]
    # A coarse blob that covers two or more finer pips is those pips merged, not a pip.
    both = keep[lo] & keep[hi]
    inside = np.bincount(hi[both], (aa[lo] * 1.7 <= aa[hi])[both] & (d2 < aa[hi] ** 2)[both], len(pips))
    inside += np.bincount(lo[both], (aa[hi] * 1.7 <= aa[lo])[both] & (d2 < aa[lo] ** 2)[both], len(pips))
    return [pips[i] for i in np.flatnonzero(keep & (inside < 2)).tolist()]


def _finer_where_alike(pips: list[Pip]) -> list[Pip]:
    """A pip found much bigger (and less round) than the finer find of it that :func:`_dedupe`
    dropped, and like at most one of its neighbours (another pip run into a mark) while that
    finer find is like more of them, is the pip run into a mark at the coarser scale (a
    translucent die's ghost or grain, a marbled swirl): the finer find is the pip. (Motion
    blur stretches every pip of a face alike: they stay alike and keep their stretched finds.
    The neighbours are taken as already mended.)"""
    todo = [k for k, p in enumerate(pips)
            if p.finer is not None and p.a >= _FINER_BIG * p.finer.a and p.finer.roundness >= _FINER_ROUND
            and p.finer.roundness > p.roundness]
    if not todo:
        return pips
    out = list(pips)
    xy = np.array([[p.x, p.y] for p in pips])
    for k in todo:
        p, f = pips[k], pips[k].finer
        near = np.flatnonzero(np.hypot(xy[:, 0] - p.x, xy[:, 1] - p.y) < _TIGHT * f.a).tolist()
        mates = [out[j] for j in near if j != k and out[j].polarity == p.polarity]
        alike, alike_finer = sum(_similar(p, m) for m in mates), sum(_similar(f, m) for m in mates)
        if alike <= 1 and alike_finer > alike:
            out[k] = f
    return out


class _UF:
    def __init__(self, n: int):
        self.p = list(range(n))

    def find(self, i: int) -> int:
        while self.p[i] != i:
            self.p[i] = self.p[self.p[i]]
            i = self.p[i]
        return i

    def union(self, i: int, j: int) -> None:
        self.p[self.find(i)] = self.find(j)


def _median(values) -> float:
    """``statistics.median`` (the same arithmetic), without its overhead."""
    data = sorted(values)
    n = len(data)
    if n == 0:
        raise ValueError("no median for empty data")
    if n % 2 == 1:
        return data[n // 2]
    i = n // 2
    return (data[i - 1] + data[i]) / 2


def _median_of(a: np.ndarray, axis: int | None = None) -> np.ndarray:
    """``np.median`` of a small float array without NaNs (the same arithmetic, in the array's
    precision: the middle value, or half the sum of the middle two), without its overhead."""
    s = np.sort(a, axis=axis)
    ax = 0 if axis is None else axis
    k = s.shape[ax] // 2
    mid = np.take(s, k, axis=ax)
    return mid if s.shape[ax] % 2 else (np.take(s, k - 1, axis=ax) + mid) / 2


def _angle_diff(t1: float, t2: float) -> float:
    d = abs(t1 - t2) % math.pi
    return min(d, math.pi - d)


def _line_on_body(gs: np.ndarray, p: Pip, q: Pip) -> bool:
    """True when the segment between two pips stays on uniform die body (see
    :func:`_lines_on_body`, which tests many pairs at once)."""
    return _lines_on_body({p.polarity: gs}, [(p, q)])[0]


def _swirl_between(img: _Lab, p: Pip, q: Pip) -> bool:
    """Is what crosses the segment between two pips (where :func:`_line_on_body` saw a step)
    the die's own colour, lighter or darker: a marbled die's swirl, not the seam between two
    dice (the table, a shadow: another hue)? Only a clearly coloured body can tell."""
    ring = _SWIRL_RING * np.array([p.a, q.a])[:, None]
    rx = np.array([p.x, q.x])[:, None] + ring * _UNIT12[0]
    ry = np.array([p.y, q.y])[:, None] + ring * _UNIT12[1]
    h, w = img.shape[:2]
    d = _dist(p, q)
    t = np.linspace(0.0, 1.0, max(6, int(d / 0.8)))
    t = t[(t * d > 1.5 * p.a) & ((1 - t) * d > 1.5 * q.a)]
    if not t.size:
        return False
    sx, sy = p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t
    xs = _clamp(np.round(np.concatenate([rx.ravel(), sx])).astype(np.intp), w - 1)
    ys = _clamp(np.round(np.concatenate([ry.ravel(), sy])).astype(np.intp), h - 1)
    lab = img.at(ys, xs).reshape(-1, 3).astype(np.float32)
    ab = lab[:, 1:] - 128.0
    body = np.median(ab[:rx.size], axis=0)
    chroma = float(np.hypot(*body))
    if chroma < _SWIRL_CHROMA:
        return False
    line = ab[rx.size:]
    c = np.hypot(line[:, 0], line[:, 1])
    cos = (line @ body) / np.maximum(c * chroma, 1e-6)
    return bool(np.all((c >= 0.5 * chroma) & (cos >= math.cos(math.radians(_SWIRL_HUE)))))


def _lines_on_body(gs_by_pol: dict[int, np.ndarray], pairs: list[tuple[Pip, Pip]]) -> list[bool]:
    """:func:`_line_on_body` of many pairs of pips at once (each pair in its polarity's grey
    image), with the very same arithmetic: the same answers come out."""
    return _lines_on_body_at(gs_by_pol, np.array([(p.x, p.y, q.x, q.y, p.a, q.a, p.ring, q.ring, p.spot, q.spot,
                                                    p.polarity) for p, q in pairs]).reshape(-1, 11))


def _lines_on_body_at(gs_by_pol: dict[int, np.ndarray], pq: np.ndarray) -> list[bool]:
    """:func:`_lines_on_body` of pairs given as rows (p.x, p.y, q.x, q.y, p.a, q.a, p.ring,
    q.ring, p.spot, q.spot, polarity)."""
    out = np.ones(len(pq), bool)
    dx, dy = pq[:, 2] - pq[:, 0], pq[:, 3] - pq[:, 1]
    d = np.array([math.hypot(u, v) for u, v in zip(dx.tolist(), dy.tolist(), strict=True)])
    rows = np.flatnonzero(d >= 1e-6)  # pairs with a segment to sample
    if not rows.size:
        return out.tolist()
    pq, dx, dy, d = pq[rows], dx[rows], dy[rows], d[rows]
    m = len(rows)
    cnt = np.maximum(6, (d / 0.8).astype(np.int64))
    rep = np.repeat(np.arange(m), cnt)
    # each pair's np.linspace(0, 1, n) (its arithmetic: i * (1 / (n - 1)), the last one 1)
    first = np.cumsum(cnt) - cnt
    t = (np.arange(rep.size) - first[rep]) * (1.0 / (cnt - 1))[rep]
    t[first + cnt - 1] = 1.0
    px, py, pol = pq[:, 0], pq[:, 1], pq[:, 10]
    dr = d[rep]
    use = (t * dr > (1.5 * pq[:, 4])[rep]) & ((1 - t) * dr > (1.5 * pq[:, 5])[rep])
    rep, t = rep[use], t[use]
    if not t.size:
        return out.tolist()
    vals = np.empty(t.size, np.int64)
    for sign, gs in gs_by_pol.items():
        e = pol[rep] == sign
        if not e.any():
            continue
        r = rep[e]
        xs = _clamp(np.round(px[r] + dx[r] * t[e]).astype(np.intp), gs.shape[1] - 1)
        ys = _clamp(np.round(py[r] + dy[r] * t[e]).astype(np.intp), gs.shape[0] - 1)
        vals[e] = gs[ys, xs]
    nv = np.bincount(rep, minlength=m)
    # each pair's samples in increasing order (rep is already in order): min, the 5 % quantiles
    srt = np.sort(rep * 256 + vals) - rep * 256  # (rep sorted: the same rows, values sorted)
    start = np.cumsum(nv) - nv
    has = nv > 0
    kq = (0.05 * (nv - 1) + 0.5).astype(np.int64)
    safe = np.where(has, start, 0)
    vmin = srt[safe].astype(np.float32)
    lo = srt[np.where(has, start + kq, 0)]
    hi = srt[np.where(has, start + nv - 1 - kq, 0)]
    pa, qa, pr, qr, ps, qs = pq[:, 4:10].T
    body = 0.5 * (pr + qr)
    spot = 0.5 * (ps + qs)
    contrast = body - spot
    rmin = np.minimum(pr, qr)
    # (the tests compare in float32, as the scalar version does with a float32 minimum)
    gap = vmin < (spot + 0.55 * contrast).astype(np.float32)
    edge = (hi - lo).astype(np.float32) > (0.35 * contrast + 8).astype(np.float32)
    plain = vmin >= (rmin - np.maximum(_GAP * contrast, 18.0)).astype(np.float32)
    deep = vmin < (rmin - _GHOST_DIP * contrast).astype(np.float32)
    half = np.float32(0.5) * (vmin + rmin.astype(np.float32))
    below = np.bincount(rep, weights=vals < half[rep], minlength=m)
    wide = below.astype(np.int64) * d / np.maximum(nv, 1) > _GHOST_WIDE * 0.5 * (pa + qa)
    out[rows] = ~has | (~gap & ~edge & (plain | (~deep & wide)))
    return out.tolist()


def _similar(p: Pip, q: Pip, tol: float = 1.0) -> bool:
    """Same polarity, size, ellipse shape and body brightness: likely the same face."""
    if p.polarity != q.polarity:
        return False
    ra = max(p.a, q.a) / min(p.a, q.a)
    if ra > 1 + 0.35 * tol and not (min(p.a, q.a) < 3 and ra < 1 + 0.7 * tol):
        return False
    small = min(p.a, q.a) < 3.5
    contrast = 0.5 * (p.contrast + q.contrast)
    dim, bright = (p, q) if p.contrast <= q.contrast else (q, p)  # (sorted by contrast, stable)
    if bright.contrast > _CON_RATIO * tol * dim.contrast and bright.a > _SIZE_RATIO * dim.a:
        return False  # a side face: lit differently (its pips stand out less) and foreshortened
    # Close neighbours on one evenly lit face may differ more in roundness (perspective, a
    # pip near the face edge); far apart, a roundness step is the edge to a side face.
    twin_body = (abs(p.ring - q.ring) <= max(4.0, _TWIN_BODY * contrast)
                 and _dist(p, q) < _TWIN_NEAR * max(p.a, q.a))
    if abs(p.roundness - q.roundness) > (0.22 if small or twin_body else 0.14) * tol:
        return False
    # (squeezed along different ways: two faces; a round pip's way is noise)
    if (min(p.roundness, q.roundness) < 0.8 and max(p.roundness, q.roundness) < 0.9
            and _angle_diff(p.theta, q.theta) > math.radians(30) * tol):
        return False
    return abs(p.ring - q.ring) <= (0.2 if min(p.a, q.a) < _BIG_PIP else _SAME_LIGHT) * contrast * tol + 4


def _similar_pairs(pips: list[Pip]):
    """:func:`_similar` (at tol 1) of many pairs of pips at once, with the very same arithmetic:
    a function of the pairs (index arrays) and their distances (as :func:`_dist` gives them)."""
    at = np.array([[p.a, p.b, p.contrast, p.ring, p.theta, p.polarity] for p in pips]).reshape(-1, 6)
    a_, b_, con_, ring_, th_, pol_ = at.T
    rnd_ = b_ / a_

    def similar(ii: np.ndarray, jj: np.ndarray, d: np.ndarray) -> np.ndarray:
        pa, qa = a_[ii], a_[jj]
        amax, amin = np.maximum(pa, qa), np.minimum(pa, qa)
        ra = amax / amin
        fail = (pol_[ii] != pol_[jj]) | ((ra > 1 + 0.35 * 1.0) & ~((amin < 3) & (ra < 1 + 0.7 * 1.0)))
        pc, qc = con_[ii], con_[jj]
        contrast = 0.5 * (pc + qc)
        p_dim = pc <= qc
        dim_c, bright_c = np.where(p_dim, pc, qc), np.where(p_dim, qc, pc)
        dim_a, bright_a = np.where(p_dim, pa, qa), np.where(p_dim, qa, pa)
        fail |= (bright_c > _CON_RATIO * 1.0 * dim_c) & (bright_a > _SIZE_RATIO * dim_a)
        dring = np.abs(ring_[ii] - ring_[jj])
        twin_body = (dring <= np.maximum(4.0, _TWIN_BODY * contrast)) & (d < _TWIN_NEAR * amax)
        pr, qr = rnd_[ii], rnd_[jj]
        fail |= np.abs(pr - qr) > np.where((amin < 3.5) | twin_body, 0.22, 0.14) * 1.0
        dth = np.abs(th_[ii] - th_[jj]) % math.pi
        fail |= ((np.minimum(pr, qr) < 0.8) & (np.maximum(pr, qr) < 0.9)
                 & (np.minimum(dth, math.pi - dth) > math.radians(30) * 1.0))
        fail |= ~(dring <= np.where(amin < _BIG_PIP, 0.2, _SAME_LIGHT) * contrast * 1.0 + 4)
        return ~fail

    return similar


def _dist(p: Pip, q: Pip) -> float:
    return math.hypot(p.x - q.x, p.y - q.y)


def _pattern(pl: list[tuple[float, float]], r: float, rb: float) -> tuple[bool, float, str]:
    """Does this set of pip centres form a d6 face? Returns (ok, quality 0..1, reason).

    ``r`` is the pips' semi-major axis (upper bounds on spacing), ``rb`` their geometric-mean
    radius (lower bounds): blur stretches pips, foreshortening squeezes them.
    (Plain float arithmetic: a face has at most six pips, too few for numpy to pay off.)"""
    n = len(pl)
    if n == 1:
        return True, 1.0, ""
    if n == 2:
        d = math.hypot(pl[0][0] - pl[1][0], pl[0][1] - pl[1][1])
        ok = 3.6 * rb <= d <= 10.5 * r
        return ok, 1.0 if ok else 0.0, "" if ok else "two pips at an odd distance"
    cx, cy = _mean_xy(pl)
    if n == 3:
        dc = [math.hypot(x - cx, y - cy) for x, y in pl]
        mid = dc.index(min(dc))
        e0, e1 = (pl[i] for i in range(3) if i != mid)
        span = math.hypot(e0[0] - e1[0], e0[1] - e1[1])
        off = dc[mid] / max(span, 1e-6)
        ok = off < 0.12 and 4.0 * rb <= span <= 10.5 * r
        return ok, max(0.0, 1 - off / 0.12), "" if ok else "three pips not in a line"
    if n in (4, 5):
        if n == 5:
            dc = [math.hypot(x - cx, y - cy) for x, y in pl]
            mid = dc.index(min(dc))
            corners = pl[:mid] + pl[mid + 1:]
            ccx, ccy = _mean_xy(corners)
            size = sum([math.hypot(x - ccx, y - ccy) for x, y in corners]) / 4
            if dc[mid] > 0.2 * size:
                return False, 0.0, "five pips without a centre pip"
        else:
            corners, ccx, ccy = pl, cx, cy
        # Order corners by angle around the centre: a parallelogram has equal opposite sides.
        q = sorted(corners, key=lambda pt: math.atan2(pt[1] - ccy, pt[0] - ccx))
        size = sum([math.hypot(x - ccx, y - ccy) for x, y in q]) / 4
        err = math.hypot((q[0][0] + q[2][0]) / 2 - (q[1][0] + q[3][0]) / 2,
                         (q[0][1] + q[2][1]) / 2 - (q[1][1] + q[3][1]) / 2) / max(size, 1e-6)
        sides = [math.hypot(q[k][0] - q[k - 1][0], q[k][1] - q[k - 1][1]) for k in range(4)]
        ratio = max(sides) / max(min(sides), 1e-6)
        # A real parallelogram, not dots in a row: its diagonals cross at a clear angle.
        d1 = (q[2][0] - q[0][0], q[2][1] - q[0][1])
        d2 = (q[3][0] - q[1][0], q[3][1] - q[1][1])
        cross = abs(d1[0] * d2[1] - d1[1] * d2[0]) / max(math.hypot(*d1) * math.hypot(*d2), 1e-6)
        ok = err < 0.2 and ratio < 2.2 and cross > 0.5 and 1.8 * rb <= size <= 7.0 * r
        return ok, max(0.0, 1 - err / 0.2), "" if ok else f"{n} pips not on a square"
    if n == 6:
        # Two parallel rows of three: try every split into two triples.
        best = (9.0, 0.0)
        # (the distances between the pips, each once: hypot is symmetric)
        dd = [[0.0] * 6 for _ in range(6)]
        for u, v in _PAIRS6:
            dd[u][v] = dd[v][u] = math.hypot(pl[u][0] - pl[v][0], pl[u][1] - pl[v][1])
        # each triple's two end pips (the farthest apart: the first of equals in the order
        # (1st, 2nd), (1st, 3rd), (2nd, 3rd)), their distance and how far its middle pip lies
        # off their midpoint (x that distance); the triples are the splits' rows, split by split
        tri = []
        for u, v, w in _TRIPLES6:
            du = dd[u]
            i, j, k, span = u, v, w, du[v]
            if du[w] > span:
                i, j, k, span = u, w, v, du[w]
            if dd[v][w] > span:
                i, j, k, span = v, w, u, dd[v][w]
            (xi, yi), (xj, yj), (xk, yk) = pl[i], pl[j], pl[k]
            tri.append((i, j, span, math.hypot((xi + xj) / 2 - xk, (yi + yj) / 2 - yk) / max(span, 1e-6)))
        for s, ix in enumerate(_ROWS6):
            (i0, j0, s0, off0), (i1, j1, s1, off1) = tri[2 * s], tri[2 * s + 1]
            worst = max(0.0, off0, off1)
            # (the cheap test first: a split with a row not in a line cannot make the 6, nor
            # change its reading: the best split then has a worse row still, and fits no 6)
            if not worst < 0.15:
                continue
            d0 = ((pl[j0][0] - pl[i0][0]) / max(s0, 1e-6), (pl[j0][1] - pl[i0][1]) / max(s0, 1e-6))
            d1 = ((pl[j1][0] - pl[i1][0]) / max(s1, 1e-6), (pl[j1][1] - pl[i1][1]) / max(s1, 1e-6))
            par = abs(d0[0] * d1[0] + d0[1] * d1[1])
            if not par > 0.9:
                continue
            m1, m2 = (_mean_xy([pl[i] for i in row]) for row in ix)
            sep = math.hypot(m1[0] - m2[0], m1[1] - m2[1])
            # The rows lie side by side (apart across their direction), not end to end.
            across = abs((m2[0] - m1[0]) * d0[1] - (m2[1] - m1[1]) * d0[0])
            if not (across >= 0.8 * sep and sep >= 2.2 * rb):
                continue
            if worst < best[0]:
                best = (worst, sep)
        worst, sep = best
        ok = worst < 0.15 and sep <= 9 * r
        return ok, max(0.0, 1 - worst / 0.15), "" if ok else "six pips not in two rows"
    return False, 0.0, f"{n} pips on one face"


def _mean_xy(pl: list[tuple[float, float]]) -> tuple[float, float]:
    # (sums of lists, not of generators: the same sums, quicker)
    return sum([x for x, _y in pl]) / len(pl), sum([y for _x, y in pl]) / len(pl)


_SPLITS6 = tuple(itertools.combinations(range(1, 6), 2))
# the two rows of each split of a 6 (pip indices, each row in increasing order), all pairs of pips
_ROWS6 = tuple(((0, *tri), tuple(i for i in range(1, 6) if i not in tri)) for tri in _SPLITS6)
_PAIRS6 = tuple(itertools.combinations(range(6), 2))
_TRIPLES6 = tuple(t for ix in _ROWS6 for t in ix)


@dataclass
class _Face:
    idx: list[int]
    pips: list[Pip]
    cx: float
    cy: float
    r: float
    roundness: float
    ok: bool
    quality: float
    reason: str
    polarity: int
    cut: bool = False  # a 1 whose die the picture's edge cuts (_cut_one): read though near the edge
    top: bool = False  # a flat top 1 seen by a low camera in front of the dice (_flat_top_1s)


def _blob_shape(gs: np.ndarray, p: Pip) -> tuple[float, float]:
    """Solidity and circularity of the pip's outline at the half-contrast level."""
    rad = int(p.a * 2.2) + 2
    x0, y0 = max(0, int(p.x) - rad), max(0, int(p.y) - rad)
    win = gs[y0:int(p.y) + rad + 1, x0:int(p.x) + rad + 1]
    m = (win < (p.spot + p.ring) / 2).astype(np.uint8)
    _n, lab = cv2.connectedComponents(m, connectivity=8)
    i = lab[int(round(p.y)) - y0, int(round(p.x)) - x0]
    if i == 0:
        return 0.0, 0.0
    cs, _ = cv2.findContours((lab == i).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    c = max(cs, key=cv2.contourArea)
    area = cv2.contourArea(c)
    hull = cv2.contourArea(cv2.convexHull(c))
    per = cv2.arcLength(c, True)
    return area / max(hull, 1.0), 4 * math.pi * area / max(per * per, 1.0)


class _Lab:
    """The image in (lightly blurred) Lab colour, converted only where needed: each crop is
    converted when asked for (blurred with a pixel of margin, so every pixel is as in a
    conversion of the whole blurred image). (The crops asked for are small, a few thousand
    pixels at most: converting them again costs less than looking up a cache of converted
    tiles would.)"""

    def __init__(self, img: np.ndarray, gray: np.ndarray | None = None) -> None:
        self.img = _stretch(img, gray)  # colour differences of a dim picture as in a well-lit one
        self.shape = img.shape

    def crop(self, y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
        """The Lab colour of the rows y0 .. y1 - 1 and columns x0 .. x1 - 1 (y0, x0 >= 0; the
        ends are cut at the picture's edge)."""
        h, w = self.img.shape[:2]
        y1, x1 = min(y1, h), min(x1, w)
        if y1 <= y0 or x1 <= x0:
            return np.zeros((max(0, y1 - y0), max(0, x1 - x0), 3 if self.img.ndim == 3 else 1), np.uint8)
        ya, xa = max(0, y0 - 1), max(0, x0 - 1)
        part = cv2.GaussianBlur(self.img[ya:min(h, y1 + 1), xa:min(w, x1 + 1)], (3, 3), 0)
        part = cv2.cvtColor(part, cv2.COLOR_BGR2Lab) if part.ndim == 3 else part[:, :, None]
        return part[y0 - ya:y1 - ya, x0 - xa:x1 - xa]

    def at(self, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """Lab colour at the pixels (ys, xs) (integer arrays of one shape, inside the picture):
        the same values as :meth:`crop` gives there, converted only at these pixels. Each one's
        3 x 3 neighbourhood (mirrored at the picture's edge, as the blur of a whole crop is) is
        copied into a strip of 3 x 3 blocks side by side (cv2.remap, nearest pixel: a copy) and
        blurred there by the very blur of :meth:`crop` (each block's middle sees just its own
        block). Cheaper than a crop for a few hundred scattered pixels."""
        n = ys.size
        if 3 * n >= 30000:  # (remap's maps are at most 32767 wide)
            k = 9000
            y, x = ys.ravel(), xs.ravel()
            return np.concatenate([self.at(y[i:i + k], x[i:i + k]) for i in range(0, n, k)]).reshape(ys.shape + (-1,))
        # the maps: block i is the pixels (ys[i] + dy, xs[i] + dx), dy, dx in -1, 0, 1
        x3 = np.repeat(xs.ravel().astype(np.float32), 3).reshape(n, 3)
        x3 += _STEP3
        mx = np.empty((3, 3 * n), np.float32)
        mx[:] = x3.reshape(1, 3 * n)
        my = np.repeat(ys.ravel().astype(np.float32), 3)[None, :] + _STEP3[:, None]
        strip = cv2.remap(self.img, mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REFLECT_101)
        part = cv2.GaussianBlur(strip, (3, 3), 0)[1:2, 1::3]
        if self.img.ndim == 3:
            part = cv2.cvtColor(part, cv2.COLOR_BGR2Lab)
        return part.reshape(ys.shape + (-1,))


_STEP3 = np.array([-1.0, 0.0, 1.0], np.float32)
_COS16, _SIN16 = _UNIT[16][0][:, None], _UNIT[16][1][:, None]  # 16 directions, as columns
_EXTENT_KS = np.arange(2.0, 14.01, 0.3)  # (steps along the rays of _body_extent, in pip radii)


def _ray_colours(img: _Lab, p: Pip) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The colours along 16 rays from the pip (steps _EXTENT_KS in pip radii, along its axes):
    (which samples are inside the picture, the body colour (the median of the first two
    steps), each sample's Lab distance from it, the median of the rays' largest distance)."""
    reach = int(14.6 * p.a) + 3
    h, w = img.shape[:2]
    x0, y0 = max(0, int(p.x) - reach), max(0, int(p.y) - reach)
    ch, cw = min(h, int(p.y) + reach + 1) - y0, min(w, int(p.x) + reach + 1) - x0  # (the crop's size)
    ks = _EXTENT_KS
    ca, sa = math.cos(p.theta), math.sin(p.theta)
    ex = ks[None, :] * p.a * _COS16
    ey = ks[None, :] * p.b * _SIN16
    xs = np.round(p.x + ex * ca - ey * sa).astype(int)
    ys = np.round(p.y + ex * sa + ey * ca).astype(int)
    inside = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    # (the colours of the crop around the pip there, sampled alone: far fewer pixels)
    v = img.at(_clamp(ys - y0, ch - 1) + y0, _clamp(xs - x0, cw - 1) + x0).astype(np.float32)
    body = _median_of(v[:, 0:2].reshape(-1, v.shape[2]), axis=0)
    dist = _norm(v - body)
    return inside, body, dist, float(_median_of(dist.max(axis=1)))


def _body_extent(img: _Lab, p: Pip, thr: float = 18.0, ghosts: list[Pip] = ()) -> tuple[float, float, float]:
    """Cast 16 rays from the pip: where does the die body (its colour, in Lab) end?

    Returns (asymmetry of opposite rays, 5th shortest, 13th shortest exit) in pip radii.
    The faint ``ghosts`` of a translucent die's other pips around it are body, not its end.
    """
    ks = _EXTENT_KS
    inside, body, dist, beyond = _ray_colours(img, p)
    # A die the colour of the table ends in a small step: the edge is where a ray gets at
    # least half way to what lies beyond (most rays reach the table), but never below 8.
    thr = min(thr, max(8.0, 0.5 * beyond))
    if ghosts:
        g = _norm(img.at(np.array([int(round(q.y)) for q in ghosts]),
                         np.array([int(round(q.x)) for q in ghosts])).astype(np.float32) - body)
        thr = max(thr, min(1.2 * float(g.max()), 0.7 * beyond))
    dev = (dist > thr) & inside  # off the image: unknown, not an end
    first = np.where(dev.any(axis=1), ks[np.argmax(dev, axis=1)], 14.5)
    asym = float(_median_of(np.abs(first[:8] - first[8:]) / (first[:8] + first[8:])))
    es = np.sort(first)
    return asym, float(es[4]), float(es[12])


def _single_pip_is_die(gs: np.ndarray, p: Pip, rings: tuple[float, ...] = (2.2, 2.7), ghosted: bool = False) -> bool:
    """A lone pip counts as a 1 only when it is a clean disc in the middle of a clean patch.

    Lone dots are where most false dice come from (key caps, print, specks), so the outline
    must be round and solid, and the body around it uniform.
    """
    if p.roundness < 0.6:
        return False
    solidity, circ = _blob_shape(gs, p)
    # (below 4 px a round pip's outline is a staircase of few pixels: solidity about 0.86)
    small_disc = p.a < 4 and p.roundness >= 0.85
    if solidity < (0.82 if small_disc else 0.88) or circ < (0.74 if p.a >= 4 else 0.6):
        return False
    return _clean_rings(gs, p, rings, ghosted)


def _clean_rings(gs: np.ndarray, p: Pip, rings: tuple[float, ...], ghosted: bool = False) -> bool:
    """The rings of :func:`_single_pip_is_die`: uniform body, clearly lighter than the pip.
    ``ghosted``: ghosts of the die's other pips were seen round it (a translucent die): its
    body is not one level, and may vary more where nothing comes near the pip's darkness."""
    for k in rings:
        ring = np.sort(_ring_samples(gs, p.x, p.y, p.a, p.b, p.theta, k, n=24))
        if ring[0] < p.spot + 0.6 * p.contrast:
            return False
        # The 10th and 90th percentiles of 24 samples lie between the 3rd and 4th and the 21st
        # and 22nd smallest: the exact ones are needed only when those bounds do not decide.
        uneven = ghosted and ring[0] >= p.spot + _GHOSTED_CLEAR * p.contrast
        spread = (_GHOSTED_SPREAD if uneven else 0.3) * p.contrast + 6
        if float(ring[20] - ring[3]) > spread + 0.01:
            return False
        if float(ring[21] - ring[2]) < spread - 0.01:
            continue
        p10, p90 = np.percentile(ring, (10, 90))
        if p90 - p10 > spread:
            return False
    return True


def _two_is_plain(gs: np.ndarray, p: Pip, q: Pip) -> bool:
    """A 2's centre and its two empty corners must be plain die body, like the pips' rings."""
    cx, cy = 0.5 * (p.x + q.x), 0.5 * (p.y + q.y)
    hx, hy = 0.5 * (q.x - p.x), 0.5 * (q.y - p.y)
    body = 0.5 * (p.ring + q.ring)
    contrast = 0.5 * (p.contrast + q.contrast)
    for k in (0.0, 0.9, -0.9):
        x, y = int(round(cx - k * hy)), int(round(cy + k * hx))
        if not (1 <= x < gs.shape[1] - 1 and 1 <= y < gs.shape[0] - 1):
            return False
        v = int(gs[y - 1:y + 2, x - 1:x + 2].sum()) / 9
        if abs(v - body) > 0.3 * contrast + 8:
            return False
    return True


_OUTLINE_KS = np.arange(0.25, 1.81, 0.05)  # (steps along the rays of _two_has_outline, in half face sides)
_OUTLINE_HALF_KS = _OUTLINE_KS[None, :] * 0.5


def _two_has_outline(img: _Lab, p: Pip, q: Pip, thr: float = 12.0) -> bool:
    """The face of a 2 ends somewhere: in at least half of 16 directions from its centre the
    colour changes (die edge, side face, table) within ~0.9 face sides. Two dots printed on a
    mat, or on any large plain surface, have no such outline."""
    cx, cy = 0.5 * (p.x + q.x), 0.5 * (p.y + q.y)
    s = _dist(p, q) / 0.78
    reach = int(0.95 * s) + 3
    h, w = img.shape[:2]
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    ch, cw = min(h, int(cy) + reach + 1) - y0, min(w, int(cx) + reach + 1) - x0  # (the crop's size)
    ks = _OUTLINE_KS
    xs = np.round(cx + _OUTLINE_HALF_KS * s * _COS16).astype(int)
    ys = np.round(cy + _OUTLINE_HALF_KS * s * _SIN16).astype(int)
    inside = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    # (the colours of the crop around the face there, sampled alone: far fewer pixels)
    v = img.at(_clamp(ys - y0, ch - 1) + y0, _clamp(xs - x0, cw - 1) + x0).astype(np.float32)
    near = np.zeros(xs.shape, bool)
    for pp in (p, q):
        near |= (xs - pp.x) ** 2 + (ys - pp.y) ** 2 < (1.8 * pp.a) ** 2
    body_px = v[(ks[None, :] < 0.6) & ~near & inside]
    if body_px.shape[0] < 8:
        return True  # cannot tell: do not reject
    body = _median_of(body_px, axis=0)
    dist = _norm(v - body)
    # (a white die on a light table ends in a small step: half way to what lies beyond)
    thr = min(thr, max(9.0, 0.5 * float(_median_of(np.where(near, 0.0, dist).max(axis=1)))))
    dev = (dist > thr) & ~near
    dev |= ~inside  # a face cut by the image border ends there
    ended = dev.any(axis=1)
    return int(ended.sum()) >= 8


def _plausible_two(gs_by_pol: dict[int, np.ndarray], p: Pip, q: Pip, alone: bool = False) -> bool:
    """Two pips make a 2 only if they are twins (a top-face 1 and a side-face pip are not:
    the side pip is more foreshortened) and the rest of the face between them is plain.
    ``alone``: no other pip links to them (they are not a part picked out of a larger group)."""
    if p.polarity != q.polarity:
        return False
    # The two pips of a 2 lie on one face, lit alike: their body levels match closely. A
    # side face is lit differently (a step of 10 % of the pip contrast or more).
    contrast = 0.5 * (p.contrast + q.contrast)
    dring = abs(p.ring - q.ring)
    if dring > _TWO_RING * contrast + 4:
        # A translucent die's body is not one level (the table and the die's own shadow show
        # through it): two round pips alike in size and shape may differ more, when nothing
        # else links to them. (A side-face pip beside a top 1 is foreshortened: not round, or
        # not the 1's twin; a pip picked out of a larger group may be a neighbouring die's.)
        twins = (alone and min(p.roundness, q.roundness) >= 0.8 and abs(p.roundness - q.roundness) <= 0.1
                 and max(p.a, q.a) / min(p.a, q.a) <= 1.15)
        if not twins or dring > _TWO_RING_TWIN * contrast + 4:
            return False
    twin_body = dring <= max(6.0, 0.06 * contrast)
    size_tol = 1.3 if twin_body else 1.2
    if max(p.a, q.a) / min(p.a, q.a) > size_tol:
        if min(p.roundness, q.roundness) < 0.7:
            return False
        gs = gs_by_pol[p.polarity]  # (blurred round pips' blobs differ more than the pips)
        rp, rq = _core_radius(gs, p), _core_radius(gs, q)
        if max(rp, rq) / min(rp, rq) > size_tol:
            return False
    # Two round pips may differ a little (lens, perspective); when one is clearly squeezed,
    # a small difference already means "another face" (unless the body says one face).
    both_round = min(p.roundness, q.roundness) >= 0.8
    rd_max = _TWO_RD_ROUND if both_round or twin_body else _TWO_RD_FLAT
    if twin_body and max(p.a, q.a) < _TWO_SMALL_PIP:
        # (a blob of a few dozen pixels measures its roundness to a pixel's worth of its
        # width: twins on one body level may differ that much more)
        rd_max += _TWO_RD_SMALL
    if abs(p.roundness - q.roundness) > rd_max:
        return False
    if not both_round and _angle_diff(p.theta, q.theta) > math.radians(25):
        return False
    if _unlike_twins(p, q):
        return False
    return _two_is_plain(gs_by_pol[p.polarity], p, q)


def _unlike_twins(p: Pip, q: Pip) -> bool:
    """The two pips of a 2 are twins: one paint, one light, one size. Two marks of which one
    both stands out clearly more (over _TWO_CON times the contrast) and is bigger (over
    _TWO_SIZE) are two different things (a key's legend and the light gap between dark keys
    on a keyboard look like the light pips of a dark die), not a 2. (The pips of a larger
    face may differ more, as _similar allows: a 2 is two pips only, and the likeliest made by
    chance.)"""
    dim, bright = (p, q) if p.contrast <= q.contrast else (q, p)
    return bright.contrast > _TWO_CON * dim.contrast and bright.a > _TWO_SIZE * dim.a


def _pip_colour(img: _Lab, p: Pip) -> np.ndarray:
    """Mean Lab colour of the pip's inner part (the pip's paint, little of the body)."""
    return _pip_colours(img, [p])[0]


def _pip_colours(img: _Lab, ps: list[Pip]) -> list[np.ndarray]:
    """:func:`_pip_colour` of several pips, their patches' pixels converted at once (_Lab.at:
    the values of a crop there, row by row as a crop's reshaped; the same means)."""
    h, w = img.shape[:2]
    ys, xs, ns = [], [], []
    for p in ps:
        k = max(1, int(round(0.4 * p.b)))
        x, y = int(round(p.x)), int(round(p.y))
        yy, xx = np.mgrid[max(0, y - k):min(h, y + k + 1), max(0, x - k):min(w, x + k + 1)]
        ys.append(yy.ravel())
        xs.append(xx.ravel())
        ns.append(yy.size)
    v = img.at(np.concatenate(ys), np.concatenate(xs))
    out, i = [], 0
    for n in ns:
        out.append(v[i:i + n].astype(np.float32).mean(axis=0))
        i += n
    return out


def _same_paint(img: _Lab, p: Pip, q: Pip, tol: float = _PAINT) -> bool:
    """The pips of one die are painted alike: their hue (Lab a, b) matches closely."""
    cp, cq = _pip_colours(img, [p, q])
    if cp.shape[0] < 3:
        return True
    return float(np.hypot(cp[1] - cq[1], cp[2] - cq[2])) <= tol


def _two_ok(gs_by_pol: dict[int, np.ndarray], img: _Lab, p: Pip, q: Pip, alone: bool = False) -> bool:
    return (_plausible_two(gs_by_pol, p, q, alone) and _same_paint(img, p, q)
            and _two_has_outline(img, p, q))


def _crowded_two(p: Pip, q: Pip, pips: list[Pip], xy: np.ndarray | None = None) -> bool:
    """A pip of a 2 with a look-alike much nearer than the 2's other pip (under 0.4 of their
    distance, where no pip of a neighbouring face or die can be): it belongs with that
    look-alike (a side face's row of pips next to a top 1), and the pair is not a 2.
    ``xy``: the pips' centres as an array (rows as ``pips``), when at hand."""
    lim = (0.4 * _dist(p, q)) ** 2
    if xy is None:
        xy = np.array([[r.x, r.y] for r in pips]).reshape(-1, 2)
    # (the distances to all pips at once; the look-alike test only for the few near ones)
    for s in (p, q):
        for k in np.flatnonzero((xy[:, 0] - s.x) ** 2 + (xy[:, 1] - s.y) ** 2 < lim).tolist():
            r = pips[k]
            if r is not p and r is not q and _similar(r, s):
                return True
    return False


_CORE_KS = np.arange(0.0, 1.01, 0.1)  # (steps along the rays of _core_radius, in pip radii)
_COS8, _SIN8 = np.cos(np.arange(8) * (np.pi / 4))[:, None], np.sin(np.arange(8) * (np.pi / 4))[:, None]


def _core_radius(gs: np.ndarray, p: Pip) -> float:
    """The pip's radius where it is half as dark as its middle (mean of 8 rays, px): a
    blurred pip's blob reaches further out, into the blur."""
    mid = p.spot + 0.5 * p.contrast
    ks = _CORE_KS * p.a
    xs = _clamp(np.round(p.x + ks[None, :] * _COS8).astype(int), gs.shape[1] - 1)
    ys = _clamp(np.round(p.y + ks[None, :] * _SIN8).astype(int), gs.shape[0] - 1)
    light = gs[ys, xs] > mid
    out = np.where(light.any(axis=1), ks[np.argmax(light, axis=1)], p.a)
    return max(float(out.mean()), 0.5 * p.a)


def _lone_pip_is_one(img: _Lab, p: Pip, gs: np.ndarray | None = None, ghosts: list[Pip] = ()) -> bool:
    """A 1: the pip sits in the middle of a compact patch of die colour that ends all round
    (at least _ONE_NEAR radii of its core away: a blurred pip's blob is wider than the pip).
    ``ghosts``: the faint pips seen through a translucent die around it."""
    asym, near, far = _body_extent(img, p, ghosts=ghosts)
    if gs is not None and near < _ONE_NEAR:
        near *= p.a / _core_radius(gs, p)
    return asym <= 0.3 and near >= _ONE_NEAR and far <= 7.6


def _cut_one(img: _Lab, p: Pip, gs: np.ndarray) -> bool:
    """A 1 whose die lies partly off the picture (cut by its edge): a round pip between 1.5
    radii and half a face from the edge, whose die colour ends on every side that is in the
    picture (rays from the pip as in :func:`_body_extent`) as a 1's does: at least half a face
    side away (_CUT_NEAR radii of its core), at most 7.6, about equally far all round (_CUT_EVEN): the pip
    is its face's middle, not a corner pip of a face whose other pips lie beyond the edge
    (that face ends much nearer on two sides than on the others). (:func:`_lone_pip_is_one`
    counts the rays off the picture as a body that never ends.)"""
    h, w = img.shape[:2]
    edge = min(p.x, p.y, w - 1 - p.x, h - 1 - p.y)
    if p.roundness < 0.8 or not 1.5 * p.a <= edge < 0.5 * 7.5 * p.a:  # (half a face, see _face_size)
        return False
    ks = _EXTENT_KS
    ca, sa = math.cos(p.theta), math.sin(p.theta)
    ex, ey = ks[None, :] * p.a * _COS16, ks[None, :] * p.b * _SIN16
    xs = np.round(p.x + ex * ca - ey * sa).astype(int)
    ys = np.round(p.y + ex * sa + ey * ca).astype(int)
    inside = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    v = img.at(_clamp(ys, h - 1), _clamp(xs, w - 1)).astype(np.float32)
    body = _median_of(v[:, 0:2].reshape(-1, v.shape[2]), axis=0)
    dist = _norm(v - body)
    thr = min(18.0, max(8.0, 0.5 * float(_median_of(np.where(inside, dist, 0.0).max(axis=1)))))
    dev = (dist > thr) & inside
    ended = dev.any(axis=1)
    first = np.where(ended, ks[np.argmax(dev, axis=1)], 14.5)
    out_at = np.where((~inside).any(axis=1), ks[np.argmax(~inside, axis=1)], 14.5)
    seen = ended & (first < out_at)  # the rays whose die colour ends before the picture does
    cut = ~seen & (out_at < 14.5)
    if seen.sum() < 8 or not cut.any() or (~seen & ~cut).any():
        return False
    lo, hi = float(first[seen].min()), float(first[seen].max())
    return lo * p.a / _core_radius(gs, p) >= _CUT_NEAR and hi <= min(7.6, _CUT_EVEN * lo)


def _make_face(gs_by_pol: dict[int, np.ndarray], ps: list[Pip]) -> _Face:
    if len(ps) == 1:  # (a 1: its pattern, medians and mean are the pip's own values)
        p = ps[0]
        return _Face([], ps, float(p.x), float(p.y), p.a, p.roundness, True, 1.0, "", p.polarity)
    pl = [(float(p.x), float(p.y)) for p in ps]
    r = _median([p.a for p in ps])
    rb = _median([math.sqrt(p.a * p.b) for p in ps])
    return _face_of(ps, pl, r, rb, *_pattern(pl, r, rb))


def _face_of(ps: list[Pip], pl: list[tuple[float, float]], r: float, rb: float, ok: bool, quality: float,
             reason: str) -> _Face:
    """The face of :func:`_make_face`, its pattern tested (``pl``, ``r``, ``rb``: as it takes them)."""
    if ok and len(ps) >= 3 and quality < 0.5:
        # A barely fitting pattern whose pips fall into a round and a squeezed lot (a gap in
        # roundness): a top face and a side face, not one face (a 4 and a side's 2 as a 6).
        rd = sorted(p.roundness for p in ps)
        if max(b - a for a, b in itertools.pairwise(rd)) >= _TWO_FACES_RD:
            ok, quality, reason = False, 0.0, "pips of a top and a side face"
    sx, sy = _sum_xy(pl)  # (the centre as numpy's mean of the rows: summed in order)
    return _Face([], ps, sx / len(pl), sy / len(pl), r, _median([p.roundness for p in ps]),
                 ok, quality, reason, ps[0].polarity)


def _sub_faces(gs_by_pol: dict[int, np.ndarray], img: _Lab, ps: list[Pip]) -> list[_Face]:
    """A linked group that is not one face (top face merged with a side face, or two dice):
    find its largest sub-groups that are valid faces, roundest (then highest) first."""
    n = len(ps)
    if n > 14:
        return []
    pts = np.array([[p.x, p.y] for p in ps])
    dm = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    # pips of one face lie at most this far apart (a 4's or 5's diagonal of small pips, in the
    # larger pip's radii: the group's other pips, a side face's, may be smaller)
    ra = np.array([p.a for p in ps])
    reach = (8.5 * np.maximum(ra[:, None], ra[None, :]) - dm).tolist()
    valid: list[tuple[frozenset, _Face]] = []
    # links[i]: the pips j > i that may share a face with pip i (near enough, alike), as bits
    # (each pair tested once, as the search below would test it)
    links = [0] * n
    for i in range(n):
        row, m = reach[i], 0
        for j in range(i + 1, n):
            if row[j] >= 0 and _similar(ps[i], ps[j], 1.3):
                m |= 1 << j
        links[i] = m
    pl_all = [(float(p.x), float(p.y)) for p in ps]  # (what _make_face takes of each pip)
    a_all = [p.a for p in ps]
    rb_all = [math.sqrt(p.a * p.b) for p in ps]

    pairs: list[tuple[frozenset, _Face]] = []  # pairs that fit a 2's pattern: tested below

    def grow(sub: list[int], cand: int) -> None:
        """Every set of pips linked to each other that extends ``sub`` by pips of ``cand``
        (bits: the later pips linked to all of ``sub``), in increasing order."""
        if len(sub) >= 2:
            # (_make_face's face, made only when its pattern fits: the others are not kept)
            pl = [pl_all[i] for i in sub]
            r = _median([a_all[i] for i in sub])
            rb = _median([rb_all[i] for i in sub])
            ok, quality, reason = _pattern(pl, r, rb)
            if ok:
                face = _face_of([ps[i] for i in sub], pl, r, rb, ok, quality, reason)
                if face.ok:
                    (valid if len(sub) > 2 else pairs).append((frozenset(sub), face))
                    order.append(face)
        if len(sub) == 6:
            return
        while cand:
            low = cand & -cand
            cand ^= low
            j = low.bit_length() - 1
            grow(sub + [j], cand & links[j])

    order: list[_Face] = []  # (the faces in the order found)
    for i in range(n):
        grow([i], links[i])
    def clean(sub: frozenset, face: _Face) -> bool:
        """No other pip of the group may lie inside the face's pattern: a 2 with a third pip
        between its corners is not a 2."""
        c = np.array([face.cx, face.cy])
        extent = max(float(np.linalg.norm(pts[i] - c)) for i in sub) if len(sub) > 1 else 0.0
        return all(float(np.linalg.norm(pts[j] - c)) >= 1.1 * extent for j in range(n) if j not in sub)

    valid = [(sub, f) for sub, f in valid if clean(sub, f)]
    # A 2 inside a larger clean face is never kept (only faces no other one contains are), so
    # the costly tests of a 2 are made only for the other pairs.
    for sub, f in pairs:
        if any(sub < t for t, _g in valid):
            continue
        i, j = sorted(sub)
        if _two_ok(gs_by_pol, img, ps[i], ps[j]) and not _crowded_two(ps[i], ps[j], ps) and clean(sub, f):
            valid.append((sub, f))
    rank = {id(f): k for k, f in enumerate(order)}
    valid.sort(key=lambda sf: rank[id(sf[1])])  # (in the order found, as the sort below expects)
    maximal = [(s, f) for s, f in valid if not any(s < t for t, _g in valid)]
    maximal.sort(key=lambda sf: (-round(sf[1].roundness + _MORE_PIPS * len(sf[0]), 2), -len(sf[0]), sf[1].cy))
    used: set[int] = set()
    out = []
    for sub, face in maximal:
        if sub & used:
            continue
        used |= sub
        out.append(face)
    if n == 3 and len(out) == 1 and len(out[0].pips) == 2:
        out = [_two_beside_a_one(gs_by_pol, img, ps, out[0], [f for s, f in maximal if len(s) == 2])]
    return out


def _is_clean_one(gs_by_pol: dict[int, np.ndarray], img: _Lab, p: Pip) -> bool:
    """Would this pip, left alone, be read as a 1 (the tests of a lone pip in _faces)?"""
    gs = gs_by_pol[p.polarity]
    return _single_pip_is_die(gs, p, (1.5,)) and _clean_rings(gs, p, (2.2, 2.7)) and _lone_pip_is_one(img, p, gs)


def _two_beside_a_one(gs_by_pol: dict[int, np.ndarray], img: _Lab, ps: list[Pip], two: _Face,
                      twos: list[_Face]) -> _Face:
    """Three alike pips, a top face's 1 and the 2 of a side face next to it: the 1 pairs up
    with the 2's nearer pip as well as the 2's pips do with each other. Of the 2s they make,
    the one whose left-over pip is a clean 1 explains every pip (the other leaves a pip of a
    side face, crowded by its die's edge, that is no 1); the roundest 2 is kept otherwise."""
    def left(f: _Face) -> Pip:
        return next(p for p in ps if all(p is not q for q in f.pips))

    if _is_clean_one(gs_by_pol, img, left(two)):
        return two
    return next((f for f in twos if f is not two and _is_clean_one(gs_by_pol, img, left(f))), two)


def _third_row(f: _Face, left: list[Pip]) -> bool:
    """Is this 4 two rows of a 6 (an oblong, twice as long as wide) with a pip of its group
    left over where the 6's third row would continue it? A 6 one of whose pips was not found
    (merged into the die's rim, or lost in glare) splits into such a 4 and leftovers."""
    if len(f.pips) != 4 or not left:
        return False
    q = _face_corners(f)
    if q is None:
        return False
    sides = [math.hypot(q[k][0] - q[k - 1][0], q[k][1] - q[k - 1][1]) for k in range(4)]
    short, long_ = min(sides), max(sides)
    if long_ < 1.5 * short:
        return False
    for k in range(4):
        c, n = q[k], q[k - 1]
        s = math.hypot(c[0] - n[0], c[1] - n[1])
        if s > 1.25 * short:
            continue  # (along a long side: no third row that way)
        for a, b in ((c, n), (n, c)):
            tx, ty = 2 * a[0] - b[0], 2 * a[1] - b[1]
            if any(math.hypot(p.x - tx, p.y - ty) < 0.35 * s and p.polarity == f.polarity
                   and _similar(p, f.pips[0], 1.3) for p in left):
                return True
    return False


def _interleaved(subs: list[_Face]) -> bool:
    """Do two of these faces overlap (each one's centre well inside the other's pattern)?"""
    def extent(f: _Face) -> float:
        return max((_dist(p, q) for p in f.pips for q in f.pips), default=0.0)

    for i, a in enumerate(subs):
        for b in subs[i + 1:]:
            if min(len(a.pips), len(b.pips)) >= 2 and math.hypot(a.cx - b.cx, a.cy - b.cy) < _OVERLAP * max(extent(a), extent(b)):
                return True
    return False


def _join_threes(gs_by_pol: dict[int, np.ndarray], faces: list[_Face]) -> list[_Face]:
    """The two rows of a 6 with big spacing between them come out as two parallel 3s side by
    side: join them when together they make a 6 on one unbroken face."""
    threes = [i for i, f in enumerate(faces) if f.ok and len(f.pips) == 3]
    extent = {i: max(max(p.x for p in faces[i].pips) - min(p.x for p in faces[i].pips),
                     max(p.y for p in faces[i].pips) - min(p.y for p in faces[i].pips)) for i in threes}
    used: set[int] = set()
    joined = []
    if len(threes) < 2:
        return list(faces)
    # (the pairs that may be the two rows, found all at once: one polarity, at about the
    # spacing tested below, with a hair of slack; the exact tests follow, pair by pair in
    # the same order: the others would not pass them)
    at = np.array([[faces[i].cx, faces[i].cy, extent[i], faces[i].polarity] for i in threes])
    dx, dy = at[:, None, 0] - at[None, :, 0], at[:, None, 1] - at[None, :, 1]
    d2, half = dx * dx + dy * dy, 0.5 * (at[:, None, 2] + at[None, :, 2])
    may = np.triu((at[:, None, 3] == at[None, :, 3]) & (d2 < (1.3 * half) ** 2 * (1 + 1e-9))
                  & (d2 > (0.4 * half) ** 2 * (1 - 1e-9)), 1)
    for ia, ib in zip(*np.nonzero(may), strict=True):
        a_i, b_i = threes[ia], threes[ib]
        if a_i in used or b_i in used:
            continue
        fa, fb = faces[a_i], faces[b_i]
        if fa.polarity != fb.polarity:
            continue
        span = 0.5 * (extent[a_i] + extent[b_i])
        sep = math.hypot(fa.cx - fb.cx, fa.cy - fb.cy)
        if not 0.4 * span < sep < 1.3 * span:
            continue
        f6 = _make_face(gs_by_pol, fa.pips + fb.pips)
        if not f6.ok or not all(_similar(p, q) for p in fa.pips for q in fb.pips):
            continue
        gs = gs_by_pol[fa.polarity]
        near = [min(fb.pips, key=lambda q, p=p: _dist(p, q)) for p in fa.pips]
        if not all(_line_on_body(gs, p, q) for p, q in zip(fa.pips, near, strict=True)):
            continue
        used.update((a_i, b_i))
        joined.append(f6)
    return [f for i, f in enumerate(faces) if i not in used] + joined


def _complete_threes(gs_by_pol: dict[int, np.ndarray], faces: list[_Face], singles: list[Pip],
                     lone: set[int] = frozenset()) -> list[_Face]:
    """A small die's 3 whose corner pip's ring runs over the die's edge (darker body there
    than around the middle pip) is not linked: its middle and other corner make a "2" too
    close for a 2. A lone pip of like size just beyond that pair, in line and as far again,
    is its third pip (taken from ``singles``). ``lone``: the ids of the singles that linked
    to no pip at all (see :func:`_threes_of_singles`)."""
    out = []
    for f in faces:
        if f.ok or len(f.pips) != 2:
            out.append(f)
            continue
        p, q = f.pips
        d = _dist(p, q)
        for a, b in ((p, q), (q, p)):
            tx, ty = 2 * b.x - a.x, 2 * b.y - a.y  # (beyond b: b is the middle pip)
            s = next((s for s in singles if s.polarity == p.polarity
                      and math.hypot(s.x - tx, s.y - ty) < _THIRD_OFF * d
                      and max(s.a, b.a) < 1.35 * min(s.a, b.a)  # (the size test of _similar)
                      and _line_on_body(gs_by_pol[p.polarity], b, s)), None)
            if s is not None:
                f3 = _make_face(gs_by_pol, [a, b, s])
                if f3.ok:
                    singles.remove(s)
                    f = f3
                    break
        out.append(f)
    return out + _threes_of_singles(gs_by_pol, singles, lone)


def _threes_of_singles(gs_by_pol: dict[int, np.ndarray], singles: list[Pip], lone: set[int]) -> list[_Face]:
    """A slightly blurred small die's 3 whose two corner pips' rings both run over the die's
    edge (:func:`_complete_threes`): none of its pips links up. Three lone pips of like size,
    evenly in line (the middle one between the others, as far from each), with plain body
    between them and corners lit alike, are that 3 (taken from ``singles``). Only pips that
    linked to no pip at all (ids in ``lone``) count: a pip left over when a group was split
    into faces belongs to one of them (a row of a 6 beside its side face's pips)."""
    out: list[_Face] = []
    idx = [i for i, p in enumerate(singles) if id(p) in lone]
    if len(idx) < 3:
        return out
    pool = [singles[i] for i in idx]
    xy = np.array([[p.x, p.y] for p in pool])
    ra = np.array([p.a for p in pool])
    dd = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    used: set[int] = set()
    for m in np.flatnonzero((dd < _TIGHT * ra[:, None]).sum(axis=1) >= 3).tolist():  # (itself and two more)
        if m in used:
            continue
        mid = pool[m]
        cand = [i for i in np.flatnonzero(dd[m] < _TIGHT * ra[m]).tolist() if i != m and i not in used
                and pool[i].polarity == mid.polarity and max(ra[i], ra[m]) < 1.35 * min(ra[i], ra[m])]
        for a, b in itertools.combinations(cand, 2):
            p, q = pool[a], pool[b]
            d = 0.5 * (dd[m, a] + dd[m, b])
            contrast = 0.5 * (p.contrast + q.contrast)
            if (math.hypot(p.x + q.x - 2 * mid.x, p.y + q.y - 2 * mid.y) > _THIRD_OFF * d
                    or abs(p.ring - q.ring) > 0.2 * contrast + 4 or max(p.a, q.a) > 1.35 * min(p.a, q.a)
                    or max(u.roundness for u in (p, q, mid)) - min(u.roundness for u in (p, q, mid)) > 0.22):
                continue  # (alike as _similar's pips, their body level aside: a print's strokes are not)
            if not all(_lines_on_body(gs_by_pol, [(mid, p), (mid, q)])):
                continue
            f3 = _make_face(gs_by_pol, [p, mid, q])
            if f3.ok:
                used.update((a, b, m))
                out.append(f3)
                break
    for i in sorted((idx[k] for k in used), reverse=True):
        del singles[i]
    return out


def _hypot_lt(dx: np.ndarray, dy: np.ndarray, lim) -> np.ndarray:
    """``np.hypot(dx, dy) < lim`` (arrays that broadcast), exactly, at a fraction of the cost:
    the squared distance decides wherever it is clearly on one side of the limit, np.hypot
    (slow) only the few cases within a hair of it."""
    d2 = dx * dx + dy * dy
    l2 = lim * lim
    out = d2 < l2 * (1 - 1e-9)
    amb = ~out & (d2 <= l2 * (1 + 1e-9))
    if amb.any():
        shape = np.broadcast_shapes(np.shape(dx), np.shape(dy), np.shape(lim))
        out = np.broadcast_to(out, shape).copy()
        amb = np.broadcast_to(amb, shape)
        out[amb] = np.hypot(np.broadcast_to(dx, shape)[amb], np.broadcast_to(dy, shape)[amb]) \
            < np.broadcast_to(lim, shape)[amb]
    return out


def _components(pips: list[Pip], reach: float, ok_pairs) -> list[list[int]]:
    """Connected groups of pips; only pairs of one polarity closer than ``reach`` mean radii are
    tested, all at once: ``ok_pairs`` (index arrays of the pairs in, a boolean array out)."""
    n = len(pips)
    parent = list(range(n))  # (a union-find, inline: the groups do not depend on its shape)
    if n > 1:
        xy = np.array([[p.x, p.y] for p in pips])
        ra = np.array([p.a for p in pips])
        pol = np.array([p.polarity for p in pips])
        ii, jj = _x_pairs(xy[:, 0], reach * float(ra.max()))
        close = (_hypot_lt(xy[ii, 0] - xy[jj, 0], xy[ii, 1] - xy[jj, 1], reach * 0.5 * (ra[ii] + ra[jj]))
                 & (pol[ii] == pol[jj]))
        ii, jj = ii[close], jj[close]
        ok = ok_pairs(ii, jj)
        # (only the linked pairs are walked in Python: the groups do not depend on the others)
        for i, j in zip(ii[ok].tolist(), jj[ok].tolist(), strict=True):
            while parent[i] != i:
                parent[i] = i = parent[parent[i]]
            while parent[j] != j:
                parent[j] = j = parent[parent[j]]
            parent[i] = j
    # (each group in order of its first pip, its pips in order: as any union-find gives them)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        r = i
        while parent[r] != r:
            r = parent[r]
        groups.setdefault(r, []).append(i)
    return list(groups.values())


def _drop_ghosts(pips: list[Pip]) -> list[Pip]:
    """A translucent die shows the pips of its bottom and side faces through its body: faint
    copies among its crisp top-face pips. A pip with a like-sized neighbour on the same die
    that has far more contrast is such a ghost."""
    if len(pips) < 2:
        return pips
    xy = np.array([[p.x, p.y] for p in pips])
    ra = np.array([p.a for p in pips])
    con = np.array([p.contrast for p in pips])
    pol = np.array([p.polarity for p in pips])
    # (only pairs that can be that near are looked at: those of points whose x differ little)
    i, j = _x_pairs(xy[:, 0], 6.0 * float(ra.max()))
    alike = (pol[i] == pol[j]) & (ra[j] < 1.5 * ra[i]) & (ra[i] < 1.5 * ra[j])
    i, j = i[alike], j[alike]
    dx, dy = xy[i, 0] - xy[j, 0], xy[i, 1] - xy[j, 1]
    strongest = np.zeros(len(pips))
    for u, v, lim in ((i, j, ra[i]), (j, i, ra[j])):  # (u's neighbour v, within 6 of u's radii)
        near = _hypot_lt(dx, dy, 6.0 * lim)
        np.maximum.at(strongest, u[near], con[v[near]])
    return [p for p, s in zip(pips, strongest, strict=True) if s < _GHOST * p.contrast]


def _faces(gs_by_pol: dict[int, np.ndarray], img: _Lab, pips: list[Pip]) -> list[_Face]:
    kept = _drop_ghosts(pips)
    ids = {id(p) for p in kept}
    ghosts = [p for p in pips if id(p) not in ids]
    pips = kept
    # 1. Tight links: neighbouring pips of a 3, 4, 5 or 6 are at most ~4.8 pip radii apart,
    # alike (_similar) and with plain body between them (_line_on_body).
    at = np.array([[p.x, p.y, p.a, p.b, p.ring, p.spot, p.polarity] for p in pips]).reshape(-1, 7)
    similar = _similar_pairs(pips)

    def tight(ii: np.ndarray, jj: np.ndarray) -> np.ndarray:
        """Are the pairs of pips (index arrays) tightly linked? (All pairs at once.)"""
        x, y, a, b, ring, spot, pol = at.T
        d = np.array([math.hypot(u, v) for u, v in zip((x[ii] - x[jj]).tolist(), (y[ii] - y[jj]).tolist(),
                                                       strict=True)])  # (as _dist)
        r = 0.5 * (a[ii] + a[jj])
        rb = 0.5 * (np.sqrt(a[ii] * b[ii]) + np.sqrt(a[jj] * b[jj]))
        near = (1.9 * rb < d) & (d < _TIGHT * r) & similar(ii, jj, d)
        i, j = ii[near], jj[near]
        linked = near.copy()
        linked[near] = _lines_on_body_at(gs_by_pol, np.stack([x[i], y[i], x[j], y[j], a[i], a[j], ring[i], ring[j],
                                                              spot[i], spot[j], pol[i]], axis=1))
        return linked

    groups = [[pips[i] for i in g] for g in _components(pips, _TIGHT, tight)]
    faces: list[_Face] = []
    singles: list[Pip] = []
    lone: set[int] = set()  # (the pips that linked to no other)
    for ps in groups:
        if len(ps) == 1:
            singles.append(ps[0])
            lone.add(id(ps[0]))
            continue
        f = _make_face(gs_by_pol, ps)
        if len(ps) == 2 and f.ok and (not _two_ok(gs_by_pol, img, *ps, alone=True)
                                      or _crowded_two(*ps, pips, at[:, :2]) or _two_flat_ones(gs_by_pol, img, ps)):
            singles.extend(ps)  # not a 2: maybe a 1 next to a glimpse of a side face
            continue
        if not f.ok and len(ps) > 2:
            subs = _sub_faces(gs_by_pol, img, ps)
            if _interleaved(subs):
                # Sub-faces that overlap are not a top face beside a side face but one face
                # with a pip lost (a 6's merged middle pip): say so rather than guess.
                f.reason = "doubtful: pips that fit no single face pattern"
                f.quality = -1.0
                faces.append(f)
                continue
            if subs:
                faces.extend(subs)
                taken = {id(p) for sf in subs for p in sf.pips}
                left = [p for p in ps if id(p) not in taken]
                for sf in subs:
                    if sf.ok and _third_row(sf, left):
                        sf.ok = False
                        sf.reason = "doubtful: four pips of a six whose other pips were not all found"
                singles.extend(left)  # maybe a 1 beside them
                continue
        faces.append(f)
    faces = _join_threes(gs_by_pol, faces)
    faces = _complete_threes(gs_by_pol, faces, singles, lone)
    # 2. Lone pips: a diagonal pair of similar pips on clean body is a 2, otherwise a 1.
    # (corner pips of a 2 sit near the face edge: only a narrow clean ring is required here)
    flat = [p for p in singles if _flat_lone_pip(gs_by_pol, img, p)]
    singles = [p for p in singles if _single_pip_is_die(gs_by_pol[p.polarity], p, (1.5,), ghosted=any(
        g.polarity == p.polarity and _dist(g, p) < 4.0 * p.a for g in ghosts))]
    pairs = []
    for i, p in enumerate(singles):
        for j in range(i + 1, len(singles)):
            q = singles[j]
            r = 0.5 * (p.a + q.a)
            rb = 0.5 * (math.sqrt(p.a * p.b) + math.sqrt(q.a * q.b))
            d = _dist(p, q)
            if (4.4 * rb < d < 9.5 * r and (_line_on_body(gs_by_pol[p.polarity], p, q) or _swirl_between(img, p, q))
                    and _two_ok(gs_by_pol, img, p, q, alone=True)
                    and not _crowded_two(p, q, pips, at[:, :2])):
                pairs.append((d / r, i, j))
    used = set()
    for _d, i, j in sorted(pairs):
        if i in used or j in used:
            continue
        used.update((i, j))
        faces.append(_make_face(gs_by_pol, [singles[i], singles[j]]))
    for i, p in enumerate(singles):
        if i in used:
            continue
        around = [g for g in ghosts if g.polarity == p.polarity and _dist(g, p) < 4.0 * p.a]
        # (its shape passed _single_pip_is_die above: only the wider rings are left to test)
        if (_clean_rings(gs_by_pol[p.polarity], p, (2.2, 2.7), ghosted=bool(around))
                and _lone_pip_is_one(img, p, gs_by_pol[p.polarity], around)):
            faces.append(_make_face(gs_by_pol, [p]))
        elif _cut_one(img, p, gs_by_pol[p.polarity]):
            faces.append(f1 := _make_face(gs_by_pol, [p]))
            f1.cut = True
        elif p.roundness >= 0.7:
            # Not clearly a 1 on its own (side-face pips crowd it), but it may still be the
            # top-face 1 above a side face: kept as a candidate for _pick_top_faces.
            f1 = _make_face(gs_by_pol, [p])
            f1.reason = "candidate"
            faces.append(f1)
    for p in flat:  # (see _flat_lone_pip)
        f1 = _make_face(gs_by_pol, [p])
        f1.reason = "flat candidate"
        faces.append(f1)
    return faces


def _flat_lone_pip(gs_by_pol: dict[int, np.ndarray], img: _Lab, p: Pip) -> bool:
    """A lone pip squeezed flat (0.4-0.6 as high as wide, lying within 30 degrees of level)
    and otherwise as clean as a 1: a solid blob in a compact patch of die colour. It may be a
    die's top-face 1 seen from a low camera (see _flat_top_1s); the tests of a lone pip
    (_single_pip_is_die) want 0.6 and more."""
    if not 0.4 <= p.roundness < 0.6 or _angle_diff(p.theta, 0.0) >= math.radians(30):
        return False
    gs = gs_by_pol[p.polarity]
    if _blob_shape(gs, p)[0] < 0.88:
        return False
    return _clean_rings(gs, p, (1.5, 2.2, 2.7)) and _lone_pip_is_one(img, p, gs)


def _two_flat_ones(gs_by_pol: dict[int, np.ndarray], img: _Lab, ps: list[Pip]) -> bool:
    """Two flat pips (squeezed top to bottom, as a low camera sees the table) each as clean as
    a 1 on its own (_flat_lone_pip: die colour all round it, ending about as far on every side)
    are the top 1s of two dice side by side, not a 2: a 2's corner pips sit near its face's
    edges. (They go on as flat candidates, see _flat_top_1s.)"""
    return all(_flat_lone_pip(gs_by_pol, img, p) for p in ps)


def _face_size(f: _Face) -> float:
    """Estimated side of the face in pixels (a pip radius is about 1/7.5 of the face side)."""
    return 7.5 * f.r


def _uneven_twos(gs_by_pol: dict[int, np.ndarray], img: _Lab, faces: list[_Face], pips: list[Pip],
                 grouped: set[int]) -> list[_Face]:
    """A 2 on a translucent die, read as a 1: the table, the die's shadow and the ghosts of
    its bottom face's pips show through its body, so the body level at one pip of the 2 is not
    the other's and a ghost run into a pip makes it a little longer or bigger: the pair fails
    the twin tests of a 2 (:func:`_plausible_two`), each pip is left alone and one of them is
    kept as a top 1. Such a 1 is a 2 when a round pip of its size that no face took lies at a
    2's diagonal across plain body of the same paint inside one face's outline, and that was
    in no face of several pips (``grouped``: their pips' ids, before the top faces were
    picked; a side face's pips are in one, or foreshortened; a neighbouring die's lie across a
    seam)."""
    taken = {id(p) for f in faces for p in f.pips} | grouped
    loose = [q for q in pips if id(q) not in taken and q.roundness >= _UNEVEN_ROUND]
    if not loose:
        return faces
    out = []
    for f in faces:
        p = f.pips[0]
        if len(f.pips) != 1 or not f.ok or f.cut or f.top or p.roundness < _UNEVEN_ROUND:
            out.append(f)
            continue
        gs = gs_by_pol[p.polarity]
        best = None
        for q in loose:
            if q.polarity != p.polarity or id(q) in taken:
                continue
            r = 0.5 * (p.a + q.a)
            rb = 0.5 * (math.sqrt(p.a * p.b) + math.sqrt(q.a * q.b))
            d = _dist(p, q)
            if (not 4.4 * rb < d < 9.5 * r or abs(p.roundness - q.roundness) > 0.2
                    or max(p.contrast, q.contrast) > _CON_RATIO * min(p.contrast, q.contrast)):
                continue  # (a ghost pip stands out far less)
            if max(p.a, q.a) / min(p.a, q.a) > _UNEVEN_SIZE:
                rp, rq = _core_radius(gs, p), _core_radius(gs, q)
                if max(rp, rq) / min(rp, rq) > _UNEVEN_SIZE:
                    continue
            if (_unlike_twins(p, q) or not _two_is_plain(gs, p, q) or not _line_on_body(gs, p, q)
                    or not _at_corners(img, p, q)
                    or not _same_paint(img, p, q) or not _two_has_outline(img, p, q)
                    or _crowded_two(p, q, pips)):
                continue
            if best is None or d < _dist(p, best):
                best = q
        if best is None:
            out.append(f)
            continue
        taken.add(id(best))
        out.append(_make_face(gs_by_pol, [p, best]))
    return out


def _ghosted_ones(img: _Lab, faces: list[_Face], cands: list[_Face]) -> list[_Face]:
    """A translucent die's 1 with the ghosts of its bottom face's six pips around it: too faint
    to be found as pips, they still change the body's colour in rings around the 1, so its die
    colour seems to end right next to it (:func:`_lone_pip_is_one` fails) and it stays a mere
    candidate, then goes. A candidate far from every face kept whose die colour, read past such
    spots (where a ray leaves it for good, :func:`_extent_for_good`), ends all round as a 1's
    does is a 1, when its pip stands out as clearly as the pips of the other dice of its
    polarity (at least _GHOSTED_OTHERS of them: dots on dark key caps are fainter)."""
    out = []
    kept = [(f.cx, f.cy, _face_size(f)) for f in faces]
    for c in cands:
        if c in faces or c.reason != "candidate":
            continue
        # (as clear a pip as the other dice' of its kind: a faint dot on a dark key cap is not)
        alike = [p.contrast for f in faces if f.ok and f.polarity == c.polarity for p in f.pips]
        if len(alike) < _GHOSTED_OTHERS or c.pips[0].contrast < _GHOSTED_CON * _median(alike):
            continue
        if any(math.hypot(x - c.cx, y - c.cy) < 0.9 * (s + _face_size(c)) for x, y, s in kept):
            continue
        asym, near, far = _extent_for_good(img, c.pips[0])
        if asym <= 0.3 and near >= _ONE_NEAR and far <= 7.6:
            c.reason = ""
            out.append(c)
            kept.append((c.cx, c.cy, _face_size(c)))
    return out


def _extent_for_good(img: _Lab, p: Pip, thr: float = 18.0) -> tuple[float, float, float]:
    """:func:`_body_extent` where a ray's die colour ends only where the ray leaves it for good
    (it does not come back within the next _FOR_GOOD steps): faint spots on the body are
    crossed, not marks as strong as half the pip."""
    ks = _EXTENT_KS
    inside, body, dist, beyond = _ray_colours(img, p)
    thr = min(thr, max(8.0, 0.5 * beyond))
    dev = (dist > thr) & inside
    n = dev.shape[1]
    gone = dev.copy()  # off the die colour here and in the next _FOR_GOOD steps
    for k in range(1, _FOR_GOOD + 1):
        gone[:, :n - k] &= dev[:, k:]
    # (only faint spots are crossed, a ghost's blend of pip and body: a mark as far from the
    # body's colour as half the pip's ends it there)
    pip = img.at(np.array([int(round(p.y))]), np.array([int(round(p.x))])).astype(np.float32)
    gone |= (dist > max(thr, 0.5 * float(_norm(pip - body)[0]))) & inside
    first = np.where(gone.any(axis=1), ks[np.argmax(gone, axis=1)], 14.5)
    asym = float(_median_of(np.abs(first[:8] - first[8:]) / (first[:8] + first[8:])))
    es = np.sort(first)
    return asym, float(es[4]), float(es[12])


_CORNER_TS = np.arange(0.1, 0.96, 0.05)  # (steps along the rays of _at_corners, x the pips' distance)


def _at_corners(img: _Lab, p: Pip, q: Pip, thr: float = 18.0) -> bool:
    """The pips of a 2 sit in opposite corners of its face: beyond each of them, away from the
    other, the die's colour ends within _CORNER_END of their distance (0.4 on a square face).
    A top 1 sits in its face's middle: beyond it, away from a side face's pip below it, the
    top face goes on for a half face (over 0.6 of their distance)."""
    d = _dist(p, q)
    h, w = img.shape[:2]
    mid = np.array([0.35, 0.5, 0.65])
    body = _median_of(img.at(_clamp(np.round(p.y + (q.y - p.y) * mid).astype(np.intp), h - 1),
                             _clamp(np.round(p.x + (q.x - p.x) * mid).astype(np.intp), w - 1)).astype(np.float32),
                      axis=0)
    for s, o in ((p, q), (q, p)):
        ux, uy = (s.x - o.x) / d, (s.y - o.y) / d
        ts = _CORNER_TS[_CORNER_TS * d > 1.6 * s.a]
        xs, ys = np.round(s.x + ux * ts * d).astype(np.intp), np.round(s.y + uy * ts * d).astype(np.intp)
        inside = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
        if not ts.size or not inside.all():
            continue  # (cut by the picture's edge: cannot tell)
        far = _norm(img.at(ys, xs).astype(np.float32) - body) > min(thr, max(8.0, 0.5 * float(
            _norm(img.at(ys[-1:], xs[-1:]).astype(np.float32) - body)[0])))
        if not far.any() or ts[int(np.argmax(far))] > _CORNER_END:
            return False
    return True


def _side_abstentions_dropped(faces: list[_Face]) -> list[_Face]:
    """A side face of a die whose top face was read, that itself failed to read (its pips
    squeezed like a cocked top face's, or crossed by the ghosts of a translucent die's other
    pips: "top face tilted", "doubtful: pip-like marks"), was reported beside the die as an
    abstention (a false die). Right below a face read (towards the camera, as _pick_top_1s has
    it), with clearly flatter pips of the same polarity, it is that die's side face: dropped."""
    read = [f for f in faces if f.ok]
    out = []
    for f in faces:
        if not f.ok and f.reason.startswith(("top face tilted", "doubtful: pip-like marks")):
            side = False
            for t in read:
                d = math.hypot(f.cx - t.cx, f.cy - t.cy)
                if (t.polarity == f.polarity and d < 1.15 * max(_face_size(t), _face_size(f))
                        and f.cy > t.cy + 0.3 * d and t.roundness > f.roundness + 0.1):
                    side = True
                    break
            if side:
                continue
        out.append(f)
    return out


def _pick_top_faces(faces: list[_Face], height: int) -> list[_Face]:
    """Drop side faces (then the leftover "candidate" lone pips, see ``_pick_top_1s``)."""
    faces = _flat_top_1s(faces)
    faces = _pick_top_1s(faces)
    return _pick_top_faces_by_shape(faces, height)


def _flat_top_1s(faces: list[_Face]) -> list[_Face]:
    """A flat candidate 1 (_flat_lone_pip) right above a clearly rounder face of its die is
    that die's top face, seen from a low camera, when the camera is known to be in front of
    the dice: a die lower in the picture shows its side face below its top face (a clearly
    rounder face above a flatter one), so the point of the table below the camera lies below
    that die, and side faces turn towards it, down. (With the camera over the dice, a flat
    face above a rounder one is a side face turned up, towards the camera.) The rounder face
    below goes; the other flat candidates go."""
    flat = [f for f in faces if f.reason == "flat candidate"]
    if not flat:
        return faces
    rest = [f for f in faces if f.reason != "flat candidate"]
    # the lowest die in the picture whose side face lies clearly below its top face (of each
    # polarity: a key's legends beside white dice are no dice, yet may look like a flat 1
    # above a rounder mark)
    front_y = {+1: -math.inf, -1: -math.inf}
    for t in rest:
        for o in rest:
            d = math.hypot(o.cx - t.cx, o.cy - t.cy)
            if (o is not t and t.ok and len(t.reason) == 0 and o.polarity == t.polarity
                    and 0 < d < 1.15 * max(_face_size(t), _face_size(o)) and o.cy - t.cy >= 0.7 * d
                    and t.roundness >= o.roundness + 0.12 and max(t.r, o.r) <= _SIDE_RATIO * min(t.r, o.r)):
                front_y[t.polarity] = max(front_y[t.polarity], t.cy)
    keep: list[_Face] = []
    for c in flat:
        if c.cy >= front_y[c.polarity]:
            continue
        below = [k for k, f in enumerate(rest)
                 if f.polarity == c.polarity and f.roundness >= c.roundness + 0.1
                 and max(c.r, f.r) / min(c.r, f.r) < 1.4
                 and 0 < (dd := math.hypot(f.cx - c.cx, f.cy - c.cy)) < 1.15 * max(_face_size(c), _face_size(f))
                 and f.cy - c.cy >= 0.7 * dd]
        if below:
            k = min(below, key=lambda k: math.hypot(rest[k].cx - c.cx, rest[k].cy - c.cy))
            del rest[k]
            c.reason = ""
            c.top = True
            keep.append(c)
    keep += _flat_twin_tops([c for c in flat if not c.top and c.cy < front_y[c.polarity]], keep)
    return rest + keep


def _flat_twin_tops(cands: list[_Face], tops: list[_Face]) -> list[_Face]:
    """Flat candidate 1s beside a flat top 1 of _flat_top_1s (the camera in front of the dice),
    squeezed just like it (roundness within 0.1, long axes within 20 degrees, pips of one size)
    and level with it (not above or below it: no face of its die), are the top faces of the
    dice beside it, seen alike; their front faces may be hidden by the dice in front."""
    out: list[_Face] = []
    for c in cands:
        p = c.pips[0]
        for t in tops:
            d = math.hypot(t.cx - c.cx, t.cy - c.cy)
            if (t.polarity == c.polarity and abs(t.roundness - c.roundness) <= 0.1
                    and max(t.r, c.r) / min(t.r, c.r) < 1.2
                    and _angle_diff(t.pips[0].theta, p.theta) < math.radians(20)
                    and 0 < d < 1.15 * max(_face_size(t), _face_size(c)) and abs(t.cy - c.cy) <= 0.7 * d):
                c.reason = ""
                c.top = True
                out.append(c)
                break
    return out


def _pick_top_1s(faces: list[_Face]) -> list[_Face]:
    """A round lone pip just above a face with clearly flatter pips is the top face (a 1) of
    the die whose side face that is: keep the 1, drop the side face. Other candidates go."""
    cands = [f for f in faces if f.reason == "candidate"]
    rest = [f for f in faces if f.reason != "candidate"]
    drop: set[int] = set()
    keep1: list[_Face] = []
    # (a low camera sees the top face flatter than the side face below it: see _low_camera)
    low = bool(cands) and _low_camera(rest)
    for c in cands:
        for k, f in enumerate(rest):
            if k in drop or f.polarity != c.polarity or len(f.pips) < 2:
                continue
            d = math.hypot(f.cx - c.cx, f.cy - c.cy)
            if (d < 1.15 * max(_face_size(c), _face_size(f)) and f.cy > c.cy + 0.3 * d
                    and (c.roundness > f.roundness + 0.1 or low) and _side_size_ok(c, f)):
                drop.add(k)
                c.reason = ""
                keep1.append(c)
                break
    return [f for k, f in enumerate(rest) if k not in drop] + keep1


def _side_size_ok(c: _Face, f: _Face) -> bool:
    """May ``f`` be the side face of the die whose top-face 1 is ``c``, by their pip sizes?
    Within 1.4 either way; a side face's pips may be smaller, as elsewhere (_SIDE_RATIO),
    when they are also clearly flatter (foreshortened, farther round the die) and make a
    face (not a key's legends, at odd distances, below a mark on a key above)."""
    ratio = max(c.r, f.r) / min(c.r, f.r)
    return ratio < 1.4 or (c.r > f.r and ratio < _SIDE_RATIO and c.roundness > f.roundness + 0.1 and f.ok)


def _face_contrast(f: _Face) -> float:
    return float(_median([p.contrast for p in f.pips]))


def _seen_from_low(top: _Face, side: _Face, height: int) -> bool:
    """Is ``top`` (the flatter face) the top face after all, seen by a low camera?

    The side faces a camera sees turn towards the point of the table right below it (the
    image centre for a camera looking straight down, below the picture for one looking across
    the table). So in the upper half of an upright picture a side face is never *above* the
    top face: when a face squeezed top-to-bottom (pips wide and flat, as the table plane is
    seen from a low camera) sits right above a slightly rounder face, the rounder one is the
    side. (A much flatter face above is a side face seen from a camera not quite overhead.)
    In the lower half a side face above the top face is seen only by a camera looking down
    past it (its nadir above the die): it is then a sliver, its pips less than 0.6 as high as
    wide unless the die is over 37 degrees off the lens axis. So there too a face squeezed to
    0.6-0.85 right above a slightly rounder one is the top face (a low camera's)."""
    d = math.hypot(side.cx - top.cx, side.cy - top.cy)
    if not top.ok or side.cy - top.cy < 0.7 * d:
        return False
    if max(top.cy, side.cy) > 0.5 * height and not 0.6 <= top.roundness <= 0.85:
        return False
    if not 0.0 <= side.roundness - top.roundness < _LOW_VIEW:
        return False
    return all(_angle_diff(p.theta, 0.0) < math.radians(30) for p in top.pips)


def _lit_flat_top(top: _Face, side: _Face, top_con: float, side_con: float) -> bool:
    """Is ``top`` (a face squeezed flat, right above a rounder face ``side``) the top face of a
    die seen by a low camera, though no other die tells a low camera (a lone die) and the
    rounder face below is much rounder (a die turned about 45 degrees)? Said when the flat face
    is also the better lit one: the light from above falls on a die's top face, so its pips
    stand out more than the side face's (a camera looking down sees the side face, a sliver
    or not, turned away from that light, dimmer); its pips are level (squeezed top to bottom,
    as the table is seen from low) and not smaller than the side face's."""
    d = math.hypot(side.cx - top.cx, side.cy - top.cy)
    if not top.ok or d == 0 or side.cy - top.cy < 0.7 * d or not _LIT_TOP_MIN <= top.roundness <= 0.85:
        return False
    if side.roundness <= top.roundness or top.r < side.r or top_con < _LIT_TOP * side_con:
        return False
    return all(_angle_diff(p.theta, 0.0) < math.radians(30) for p in top.pips)


def _towards_camera(faces: list[_Face]) -> tuple[float, float]:
    """Which way (unit vector) side faces lie from their top faces in this picture: down in an
    upright picture, unless the dice that show it clearly (two faces of clearly different
    roundness) agree on another way (a picture turned sideways, a camera mounted turned)."""
    by_side: dict[int, list[tuple[float, float]]] = {}
    if len(faces) < 2:
        return 0.0, 1.0
    # (pairs that can vote, found all at once: the same tests, the distance with a hair of
    # slack; the exact tests follow)
    at = np.array([[f.cx, f.cy, _face_size(f), f.polarity, f.roundness, f.r] for f in faces])
    cx, cy, size, pol, rnd, r = at.T
    dn = np.hypot(cx[:, None] - cx[None, :], cy[:, None] - cy[None, :])
    may = ((pol[:, None] == pol[None, :]) & ~(np.abs(rnd[:, None] - rnd[None, :]) < 0.2)
           & ~(np.maximum(r[:, None], r[None, :]) / np.minimum(r[:, None], r[None, :]) > _SIDE_RATIO)
           & (dn < 1.15 * np.maximum(size[:, None], size[None, :]) * (1 + 1e-9) + 1e-9))
    for i, j in zip(*np.nonzero(np.triu(may, 1)), strict=True):
        t, o = faces[i], faces[j]
        d = math.hypot(o.cx - t.cx, o.cy - t.cy)
        if not 0 < d < 1.15 * max(_face_size(t), _face_size(o)):
            continue
        top, side = (t, o) if t.roundness > o.roundness else (o, t)
        # (one vote per side face: two faces competing for the top of one die, a 4 and a 3
        # sharing pips, are one die's say, not two)
        by_side.setdefault(id(side), []).append(((side.cx - top.cx) / d, (side.cy - top.cy) / d))
    votes = [(sum(v[0] for v in vs) / len(vs), sum(v[1] for v in vs) / len(vs)) for vs in by_side.values()]
    if len(votes) >= 2:
        gx, gy = sum(v[0] for v in votes) / len(votes), sum(v[1] for v in votes) / len(votes)
        n = math.hypot(gx, gy)
        if n > 0.7 and gy / n < 0.5:  # they agree, on a way clearly not down
            return gx / n, gy / n
    return 0.0, 1.0


def _low_camera(faces: list[_Face]) -> bool:
    """Is the camera low (looking across the table, less than about 45 degrees above it)?

    Then a die's top face is seen more obliquely than the side face below it: its pips are
    the flatter ones, squeezed top-to-bottom, and it lies above the side face. Said when the
    dice that show two faces one above the other agree on that: at least two such dice, and
    the flatter face above in at least 3 of 4 (a camera looking down sees the rounder face
    above, except for dice right below it). A sliver of a side face above (pips less than
    0.6 as high as wide) is a picture upside down, not a low camera: seen from 37 degrees
    above the table, a top face is still 0.6 as high as wide."""
    if len(faces) < 2:
        return False
    at = np.array([[f.cx, f.cy, _face_size(f), f.polarity, f.roundness, f.r] for f in faces])
    cx, cy, size, pol, rnd, r = at.T
    dx, dy = cx[None, :] - cx[:, None], cy[None, :] - cy[:, None]
    d = np.hypot(dx, dy)
    # pairs (i above j) of faces of one die, one above the other, of clearly different roundness
    pair = ((pol[:, None] == pol[None, :]) & (dy >= 0.7 * d) & (d > 0)
            & (d < 1.15 * np.maximum(size[:, None], size[None, :]))
            & (np.maximum(r[:, None], r[None, :]) <= _SIDE_RATIO * np.minimum(r[:, None], r[None, :]))
            & (np.abs(rnd[:, None] - rnd[None, :]) >= 0.05))
    # (a rounder face below may be quite round, over 0.92: a die turned 45 degrees shows a
    # low camera its side face squeezed across as much as down: both ways by about 0.7-0.77 at 40 degrees)
    low = high = 0
    for i, j in zip(*np.nonzero(pair), strict=True):
        up = faces[i]
        if (0.6 <= up.roundness < faces[j].roundness
                and all(_angle_diff(p.theta, 0.0) < math.radians(30) for p in up.pips)):
            low += 1
        elif up.roundness > faces[j].roundness + 0.12:  # (a camera looking down: the side is much flatter)
            high += 1
    return low >= 2 and low >= 3 * high


def _pick_top_faces_by_shape(faces: list[_Face], height: int) -> list[_Face]:
    """Drop side faces. Of two faces of one die, the top face has the rounder pips (it is seen
    less obliquely); when both are equally round, the top face is the one further from the
    camera, i.e. higher in the image (side faces turn towards the camera). A low camera sees
    the top face squeezed flat above the side face (``_seen_from_low``)."""
    keep = [True] * len(faces)
    order = sorted(range(len(faces)), key=lambda i: (-faces[i].roundness, faces[i].cy))
    low = _low_camera(faces)
    ux, uy = (0.0, 1.0) if low else _towards_camera(faces)
    # The faces near each face (same polarity, closer than the limit below, with a hair of
    # slack: the exact test follows), in ``order``: found all at once.
    near_in_order: list[list[int]] = [[] for _ in faces]
    if len(faces) > 1:
        at = np.array([[f.cx, f.cy, _face_size(f), f.polarity] for f in faces])
        dn = np.hypot(at[:, None, 0] - at[None, :, 0], at[:, None, 1] - at[None, :, 1])
        near = ((dn < 1.15 * np.maximum(at[:, None, 2], at[None, :, 2]) * (1 + 1e-9) + 1e-9)
                & (at[:, None, 3] == at[None, :, 3]))
        order_a = np.array(order)
        for i, row in enumerate(near[:, order]):
            near_in_order[i] = order_a[row].tolist()
    fcon = [_face_contrast(f) for f in faces]
    for i in order:
        t = faces[i]
        if not keep[i]:
            continue
        for j in near_in_order[i]:
            o = faces[j]
            if j == i or not keep[j] or o.polarity != t.polarity:
                continue
            if t.top or o.top:
                # (a flat top 1 of _flat_top_1s: the faces next to it are its die's side faces)
                if t.top and o.top or math.hypot(o.cx - t.cx, o.cy - t.cy) >= 1.15 * max(_face_size(t), _face_size(o)):
                    continue
                keep[i if o.top else j] = False
                if o.top:
                    break
                continue
            ratio = max(t.r, o.r) / min(t.r, o.r)
            if ratio > _SIDE_RATIO:
                # (another die of other pips, unless the smaller face is also much dimmer: a
                # side face, its pips squeezed and in shade, next to a blurred top face's
                # swollen pips)
                small, big = (i, j) if t.r < o.r else (j, i)
                if ratio > _SIDE_RATIO_DIM or not fcon[big] > _DIM_SIDE * fcon[small]:
                    continue
            d = math.hypot(o.cx - t.cx, o.cy - t.cy)
            s = max(_face_size(t), _face_size(o))
            if d >= 1.15 * s:
                continue
            # A dim face (in shadow, turned away) beside a crisp one is its side face.
            if fcon[j] > _DIM_SIDE * fcon[i]:
                continue
            if fcon[i] > _DIM_SIDE * fcon[j]:
                keep[j] = False
                continue
            if (_seen_from_low(o, t, height) or (low and o.cy < t.cy - 0.7 * d)
                    or _lit_flat_top(o, t, fcon[j], fcon[i])):
                keep[i] = False
                break
            if low and t.cy < o.cy - 0.7 * d:
                keep[j] = False
                continue
            if _tiny_side_below(t, o, d, ux, uy, fcon[i], fcon[j]):
                keep[i] = False
                break
            rd = t.roundness - o.roundness
            if d < 0.3 * s or rd >= 0.07 or (rd > -0.07 and (o.cx - t.cx) * ux + (o.cy - t.cy) * uy > 0.3 * d):
                keep[j] = False
    return [f for f, k in zip(faces, keep, strict=True) if k]


def _tiny_side_below(side: _Face, top: _Face, d: float, ux: float, uy: float, side_con: float,
                     top_con: float) -> bool:
    """Is ``side`` (the rounder face) a small die's side face after all, ``top`` its top face?
    Pips of a few pixels come out round whatever their shape (a sliver's pips as well), so
    roundness does not tell; but a side face's foreshortened pips blur into clearly smaller
    spots than the top face's (or a little smaller and dimmer: turned from the light above),
    and it lies towards the camera from the top face (down in an upright picture, ``ux, uy``),
    closer than a face's side (the centres of two dice are farther apart). Radii in the pixels
    read: the small dice are read enlarged (_UPSCALE)."""
    if not top.ok or side.r >= _TINY_SIDE_R:
        return False
    if top.r < _TINY_SIDE_BIG * side.r and not (top.r >= 1.15 * side.r and top_con >= _LIT_TOP * side_con):
        return False
    s = _face_size(top)
    return d < 0.8 * s and (side.cx - top.cx) * ux + (side.cy - top.cy) * uy > 0.5 * d


def _smear(f: _Face) -> float:
    """A die moving in the exposure smears all its pips the same way (one long axis, clearly
    elongated): their long axis then overstates the face; returns the factor that undoes it."""
    if len(f.pips) < 2 or f.roundness >= 0.65:
        return 1.0
    if max(_angle_diff(p.theta, f.pips[0].theta) for p in f.pips) > math.radians(15):
        return 1.0
    return math.sqrt(f.roundness)


def _logo_ones(img: _Lab, gs_by_pol: dict[int, np.ndarray], faces: list[_Face], pips: list[Pip],
               scale: float) -> list[_Face]:
    """Dice whose 1 face carries an engraved logo instead of a pip: a mark of the pips' colour,
    bigger than a pip and of any shape, alone in the middle of a face as big as the other dice'
    faces and of their body colour, which ends all round. Only beside dice read with pips (their
    size and colour are what a logo die must match)."""
    sure = [f for f in faces if f.ok and len(f.pips) >= 2]
    if not sure:
        return []
    h, w = img.shape[:2]
    out: list[_Face] = []
    for pol in {f.polarity for f in sure}:
        mine = [f for f in sure if f.polarity == pol]
        r = float(_median([f.r for f in mine]))
        s = _face_size(mine[0]) if len(mine) == 1 else float(_median([_face_size(f) for f in mine]))
        if s < _LOGO_MIN_FACE * scale:
            continue  # a logo on a die this small cannot be told from a smudge
        bodies = None  # (the faces' body colours, taken when a mark gets that far)
        # marks of the pips' colour, sought on a half-size copy (cheaper; a logo is big)
        gs = gs_by_pol[pol]
        small = cv2.resize(gs, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        block = max(3, int(0.4 * s)) | 1
        mask = cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, _C)
        few = cv2.countNonZero(mask) < 65000  # (16-bit labels are quicker; the same blobs)
        n, _lab, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
            mask, 8, cv2.CV_16U if few else cv2.CV_32S, cv2.CCL_SPAGHETTI)
        area_k = 4 * stats[1:, cv2.CC_STAT_AREA]
        side_k = 2 * np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT])
        fit = ((0.5 * math.pi * r * r <= area_k) & (area_k <= 10 * math.pi * r * r)
               & (2.5 * r <= side_k) & (side_k <= 0.6 * s))
        for k in (np.flatnonzero(fit) + 1).tolist():
            side = 2 * max(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT])
            cx, cy = (2 * float(v) + 0.5 for v in cents[k])
            if not (s < cx < w - 1 - s and s < cy < h - 1 - s):
                continue
            if any(0.12 * s < math.hypot(p.x - cx, p.y - cy) < 0.45 * s for p in pips if p.polarity == pol):
                continue  # pips on the face off its centre: a die with pips (read or not)
            if any(math.hypot(f.cx - cx, f.cy - cy) < 0.5 * s for f in faces):
                continue  # a die already read (or doubted) here
            if bodies is None:
                bodies = np.array([_face_body(img, f) for f in mine])
            if _is_logo_die(img, mask, cx / 2, cy / 2, side / 2, s / 2, bodies, 2):
                spot = float(gs[int(cy), int(cx)])
                ring = float(np.median(_ring_samples(gs, cx, cy, 0.3 * s, 0.3 * s, 0.0, 1.0, n=16)))
                logo = Pip(cx, cy, r, r, 0.0, ring - spot, ring, spot, pol)
                out.append(_Face([], [logo], cx, cy, r, 1.0, True, 0.5, "", pol))
    return out


_UNIT12 = (np.cos(np.linspace(0, 2 * np.pi, 12, endpoint=False)), np.sin(np.linspace(0, 2 * np.pi, 12, endpoint=False)))


def _face_body(img: _Lab, f: _Face) -> np.ndarray:
    """Median Lab colour of a face's body (rings around its pips)."""
    h, w = img.shape[:2]
    x0, y0 = max(0, int(min(p.x for p in f.pips) - 3 * f.r)), max(0, int(min(p.y for p in f.pips) - 3 * f.r))
    x1, y1 = min(w, int(max(p.x for p in f.pips) + 3 * f.r) + 1), min(h, int(max(p.y for p in f.pips) + 3 * f.r) + 1)
    cos_t, sin_t = _UNIT12
    px = np.array([[p.x, p.y, 2.0 * p.a] for p in f.pips])
    xs = (px[:, 0:1] + px[:, 2:3] * cos_t).ravel().round().astype(int) - x0
    ys = (px[:, 1:2] + px[:, 2:3] * sin_t).ravel().round().astype(int) - y0
    # (the colours of the crop x0 .. x1 - 1, y0 .. y1 - 1 there, sampled alone)
    xs, ys = _clamp(xs, x1 - x0 - 1) + x0, _clamp(ys, y1 - y0 - 1) + y0
    lab = img.at(ys, xs)
    v = np.sort(lab.reshape(-1, lab.shape[-1]).astype(np.float32), axis=0)
    n = v.shape[0]
    # (np.median along axis 0: grey levels, so the mean of the middle two is exact)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def _is_logo_die(img: _Lab, mask: np.ndarray, mx: float, my: float, mark: float, ms: float,
                 bodies: np.ndarray, k: int) -> bool:
    """The checks of _logo_ones for one mark (centre, size and face size in ``mask`` pixels,
    ``k`` times smaller than the image)."""
    cx, cy, s = k * mx, k * my, k * ms
    h, w = img.shape[:2]
    reach = int(0.95 * s) + 2
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    ch, cw = min(h, int(cy) + reach + 1) - y0, min(w, int(cx) + reach + 1) - x0  # (the crop's size)
    t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ks = np.arange(0.3, 0.96, 0.05) * s
    xs = _clamp(np.round(cx + ks[None, :] * np.cos(t)[:, None]).astype(int) - x0, cw - 1)
    ys = _clamp(np.round(cy + ks[None, :] * np.sin(t)[:, None]).astype(int) - y0, ch - 1)
    # (the colours of the crop around the mark there, sampled alone: far fewer pixels)
    v = img.at(ys + y0, xs + x0).astype(np.float32)
    # the face around the mark has the other dice' body colour ...
    body = np.median(v[:, 0], axis=0)
    if float(np.min(np.linalg.norm(bodies - body, axis=1))) > _LOGO_BODY:
        return False
    if np.mean(np.linalg.norm(v[:, 0] - body, axis=1) < _LOGO_BODY) < 0.8:
        return False
    # ... and ends all round at about half a face (the die's edge; diagonals up to 0.75)
    off = np.linalg.norm(v - body, axis=2) > _LOGO_BODY
    ends = np.where(off.any(axis=1), ks[np.argmax(off, axis=1)], np.inf) / s
    if np.count_nonzero((ends > 0.38) & (ends < 0.85)) < 13:
        return False
    # ... and is clean: no other marks between the logo and the face's edge
    mr = int(0.45 * ms) + 1
    yy, xx = np.mgrid[-mr:mr + 1, -mr:mr + 1]
    rr = np.hypot(xx, yy)
    ring = (rr > 0.5 * mark + 1) & (rr < 0.4 * ms)
    ym, xm = int(round(my)) - mr, int(round(mx)) - mr
    if ym < 0 or xm < 0 or ym + 2 * mr + 1 > mask.shape[0] or xm + 2 * mr + 1 > mask.shape[1] or not ring.any():
        return False
    return float(np.mean(mask[ym:ym + 2 * mr + 1, xm:xm + 2 * mr + 1][ring] > 0)) < 0.03


def _drop_faint_marks(faces: list[_Face]) -> list[_Face]:
    """Marks in a basket's weave or a printed pattern can fall into a pip pattern; beside the
    real dice of the picture they are far fainter and smaller (dice of other colours differ in
    contrast, but not threefold and in size at once)."""
    if len(faces) < 3:
        return faces
    out = []
    fcon = [_face_contrast(g) for g in faces]  # (once per face, not once per pair)
    read = [i for i, g in enumerate(faces) if g.ok]
    if len({id(g) for g in faces}) == len(faces):
        # (a face's others are the faces read but itself: the sorted values of all of those,
        # its own value taken out when it is one of them, are the others' values sorted)
        cons, rs = sorted([fcon[i] for i in read]), sorted([faces[i].r for i in read])
        for k, f in enumerate(faces):
            if len(read) - f.ok >= 2:
                c = cons
                if f.ok:
                    c = cons.copy()
                    del c[bisect.bisect_left(c, fcon[k])]
                if fcon[k] < _FAINT * _median(c):
                    rr = rs
                    if f.ok:
                        rr = rs.copy()
                        del rr[bisect.bisect_left(rr, f.r)]
                    if f.r < 0.7 * _median(rr):
                        continue
            out.append(f)
        return out
    for k, f in enumerate(faces):
        others = [i for i, g in enumerate(faces) if g is not f and g.ok]
        if len(others) >= 2:
            con = _median(fcon[i] for i in others)
            r = _median(faces[i].r for i in others)
            if fcon[k] < _FAINT * con and f.r < 0.7 * r:
                continue
        out.append(f)
    return out


def _flag_cocked(faces: list[_Face]) -> None:
    """A cocked die (leaning on another die or the tray wall) shows its top face tilted: its
    pips are much more foreshortened than those of the dice lying flat around it."""
    flat = [f.roundness for f in faces if f.ok]
    if len(flat) < 3:
        return
    typical = float(_median(flat))
    for f in faces:
        if f.ok and f.roundness < typical - _COCKED and not _squeezed_alike_nearby(f, faces):
            f.ok = False
            f.reason = "top face tilted: the die looks cocked, re-roll it"


def _squeezed_alike_nearby(f: _Face, faces: list[_Face]) -> bool:
    """Is a die near ``f`` (within 4 face sizes) squeezed just like it (roundness within 0.08,
    pips' long axes within 20 degrees)? A cocked die is tilted on its own; dice side by side
    squeezed alike are smeared by the camera's shake (or seen by one oblique camera), even
    when the other dice of a picture (a mosaic of several pictures) are round."""
    ways = [p.theta for p in f.pips]
    for o in faces:
        if (o is f or not o.ok or abs(o.roundness - f.roundness) > 0.08
                or math.hypot(o.cx - f.cx, o.cy - f.cy) > 4 * max(_face_size(f), _face_size(o))):
            continue
        if all(_angle_diff(p.theta, t) < math.radians(20) for p in o.pips for t in ways):
            return True
    return False


def _face_corners(f: _Face) -> list[tuple[float, float]] | None:
    """The four corner pip positions of a face's pattern (for a 2 or 3 the empty corners are
    the diagonal turned by 90 degrees), or None for a 1 or a 6. (Plain floats, with numpy's
    arithmetic: distances as sqrt(dx * dx + dy * dy), means summed in order.)"""
    pts = [(p.x, p.y) for p in f.pips]
    n = len(pts)
    if n in (2, 3):
        best, i, j = -1.0, 0, 0
        for a_ in range(n):  # (the first largest distance in row order, as np.argmax finds it)
            for b_ in range(n):
                dx, dy = pts[a_][0] - pts[b_][0], pts[a_][1] - pts[b_][1]
                dd = math.sqrt(dx * dx + dy * dy)
                if dd > best:
                    best, i, j = dd, a_, b_
        (xi, yi), (xj, yj) = pts[i], pts[j]
        cx, cy = 0.5 * (xi + xj), 0.5 * (yi + yj)
        hx, hy = 0.5 * (xj - xi), 0.5 * (yj - yi)
        return [(cx - hx, cy - hy), (cx + hy, cy - hx), (cx + hx, cy + hy), (cx - hy, cy + hx)]
    if n in (4, 5):
        cx, cy = _sum_xy(pts)
        cx, cy = cx / n, cy / n
        if n == 5:
            dc = [math.sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy)) for x, y in pts]
            del pts[dc.index(min(dc))]
            cx, cy = _sum_xy(pts)
            cx, cy = cx / 4, cy / 4
        order = np.argsort(np.arctan2([y - cy for _x, y in pts], [x - cx for x, _y in pts])).tolist()
        return [pts[k] for k in order]
    return None


def _sum_xy(pl: list[tuple[float, float]]) -> tuple[float, float]:
    """Sums of the x and of the y, added in order (as numpy adds a few rows)."""
    sx, sy = pl[0]
    for x, y in pl[1:]:
        sx += x
        sy += y
    return sx, sy


def _unexplained_marks(gs_by_pol: dict[int, np.ndarray], f: _Face) -> float:
    """Dark (pip-coloured) area on the face beyond the face's own pips, in pips.

    A 6 whose middle pips merged or were missed, read as a 2, 3 or 4, leaves pip-dark marks
    between its corner pips."""
    q = _face_corners(f)
    if q is None:
        return 0.0
    gs = gs_by_pol[f.polarity]
    r = float(_median([p.a for p in f.pips]))
    cx, cy = _sum_xy(q)
    cx, cy = cx / 4, cy / 4
    grown = []
    for x, y in q:  # each corner 0.8 pip radii further out from the centre
        vx, vy = x - cx, y - cy
        k = 1 + 0.8 * r / max(math.sqrt(vx * vx + vy * vy), 1e-6)
        grown.append((cx + vx * k, cy + vy * k))
    x0, y0 = math.floor(min(x for x, _y in grown)), math.floor(min(y for _x, y in grown))
    x1, y1 = math.ceil(max(x for x, _y in grown)) + 1, math.ceil(max(y for _x, y in grown)) + 1
    h, w = gs.shape
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.array([(round(x - x0), round(y - y0)) for x, y in grown], np.int32), 1)
    level = _median([0.5 * (p.ring + p.spot) for p in f.pips])
    dark = gs[y0:y1, x0:x1] < level
    dark &= mask.view(bool)  # (the mask is 0 or 1)
    # which dark pixels lie near one of the face's own pips (tested at the dark pixels only)
    yy, xx = np.nonzero(dark)
    pp = np.array([[p.x, p.y, (1.4 * p.a) ** 2] for p in f.pips])
    # (arrays of (pip, dark pixel): numpy's inner loops then run along the many pixels)
    near = np.logical_or.reduce(((xx + x0)[None, :] - pp[:, 0:1]) ** 2 + ((yy + y0)[None, :] - pp[:, 1:2]) ** 2
                                <= pp[:, 2:3], axis=0)
    own = int(np.count_nonzero(near))
    extra = int(near.size - own)
    return extra / max(own / len(f.pips), 1.0)


def _has_face_mate(gs_by_pol: dict[int, np.ndarray], p: Pip, pips: list[Pip]) -> bool:
    """Is there a twin of this pip (same size, same body level) at a face's pip spacing with
    plain body between them? Then it is not a lone 1 (a pip of a 3 or 5 that lost its links)."""
    for q in pips:
        if q is p or q.polarity != p.polarity:
            continue
        d = _dist(p, q)
        if not 2.5 * p.a < d < 5.5 * p.a or max(p.a, q.a) / min(p.a, q.a) > 1.25:
            continue
        if abs(p.ring - q.ring) > max(4.0, _TWIN_BODY * p.contrast) or abs(p.contrast - q.contrast) > 0.25 * p.contrast:
            continue
        if abs(p.roundness - q.roundness) < 0.12 and _line_on_body(gs_by_pol[p.polarity], p, q):
            return True
    return False


def _packed_three_without_die(img: _Lab, f: _Face) -> bool:
    """Three tightly spaced dots in a line (an ellipsis in print) with no die outline around."""
    if not f.ok or len(f.pips) != 3:
        return False
    d = {(i, j): _dist(f.pips[i], f.pips[j]) for i in range(3) for j in range(i + 1, 3)}
    (i, j), span = max(d.items(), key=lambda kv: kv[1])
    rb = _median([math.sqrt(p.a * p.b) for p in f.pips])
    return span < 5.0 * rb and not _two_has_outline(img, f.pips[i], f.pips[j])


def _column_of_six(gs_by_pol: dict[int, np.ndarray], f: _Face) -> _Face | None:
    """A 3 in a line may be one column of a 6 whose other column was not found (small dice,
    packed pips). Beside it, one column-length away, three pip-dark spots with plain body
    half-way: then the face is the 6."""
    gs = gs_by_pol[f.polarity]
    pts = np.array([[p.x, p.y] for p in f.pips])
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    axis = pts[j] - pts[i]
    span = float(np.linalg.norm(axis))
    perp = np.array([-axis[1], axis[0]]) / max(span, 1e-6)
    body = _median([p.ring for p in f.pips])
    spot = _median([p.spot for p in f.pips])
    con = body - spot
    h, w = gs.shape
    item = gs.item
    px, py = float(perp[0]), float(perp[1])
    xy = pts.tolist()

    def level(x: float, y: float) -> float:
        """Mean grey of the 3 x 3 pixels around (x, y), or -1 off the picture."""
        xi, yi = round(x), round(y)
        if not (1 <= xi < w - 1 and 1 <= yi < h - 1):
            return -1.0
        return (item(yi - 1, xi - 1) + item(yi - 1, xi) + item(yi - 1, xi + 1) + item(yi, xi - 1) + item(yi, xi)
                + item(yi, xi + 1) + item(yi + 1, xi - 1) + item(yi + 1, xi) + item(yi + 1, xi + 1)) / 9

    for sign in (1.0, -1.0):
        for k in (1.0, 0.85, 1.15):
            c = sign * k * span
            ox, oy = c * px, c * py
            hx, hy = 0.5 * ox, 0.5 * oy
            # (every spot must be in the picture (level >= 0), pip-dark beyond, body half-way:
            # tested as sampled, the first spot that fails settles it)
            if (all(0 <= level(x + ox, y + oy) < spot + 0.45 * con for x, y in xy)
                    and all((v := level(x + hx, y + hy)) >= 0 and v > body - 0.25 * con for x, y in xy)):
                off = sign * k * span * perp
                new = [Pip(p.x + off[0], p.y + off[1], p.a, p.b, p.theta, p.contrast, p.ring, p.spot, p.polarity)
                       for p in f.pips]
                f6 = _make_face(gs_by_pol, f.pips + new)
                if f6.ok:
                    return f6
    return None


# Motion blur: a die moving in the exposure smears each pip into a streak along the motion (a
# row of pips into one long bar, beaded where the pips were); such streaks never pass as pips.
_STREAK_LONG = 1.6  # a blob this many times longer than wide (and as wide as a pip) may be a streak
_STREAK_ANGLE = math.radians(12)  # streaks of one die: parallel within this ...
_STREAK_WIDTH = 1.35  # ... as wide within this ratio ...
_STREAK_NEAR = 7.0  # ... and their centres within this many streak widths (x 0.5: pip radii)
_STREAK_L = 0.35  # their smear lengths agree within this much of a streak's width (+ 15 % of the length)
_STREAK_SIDE = 1.15  # streaks this near a face read (x its size, beyond the streak's half length) are its side faces' pips
_STREAK_END = 2.2  # streaks end to end: at most this many streak lengths apart (a side face's pips: about 3)
_BEAD_STEP = 1.5  # a row's beads are at least this many streak widths apart (a side face's squeezed row: closer)
_STREAK_MIN_W = 3.5  # streaks at least this wide (px): thinner ones are lines, not smeared pips
_STREAK_ASYM = 0.25  # largest asymmetry of the die body's extent around a face read from streaks
_BEAD = 0.14  # a bead along a streak: its darkness rises this much (x the streak's contrast) over the dips beside it
_NECK = 0.3  # ... or the streak's width narrows this much (x its largest) between the beads


def _streak_candidates(raw: tuple, gs_by_pol: dict[int, np.ndarray], faces: list[_Face] = ()) -> list[tuple]:
    """Motion-blurred pips (see :func:`_blurred_faces`): elongated, solid blobs of pip width at
    one block size whose ring is uniform body, clearly lighter (or darker) than they are.
    ``raw``: the blobs of one block size at full resolution as :func:`_find_pips_at` kept them. Blobs next to the
    ``faces`` (read ones: their side faces' foreshortened pips) are none. Each streak is
    (x, y, half length, half width, orientation, contrast, body level, polarity, blob pixels,
    blob row in ``raw``)."""
    stats, cents, blob_px, src, (h, w) = raw
    area = stats[:, 4]
    # (most blobs are specks: the other tests on the few larger ones only)
    cand = np.flatnonzero((area >= 25) & (area <= 1200))
    x0s, y0s, bw, bh = (stats[cand, k] for k in range(4))
    long_side = np.maximum(bw, bh)
    # (at least _STREAK_MIN_W wide along its length: not a line, such as an edge)
    cand = cand[(long_side >= 10) & (long_side <= 70) & (area[cand] >= 2.5 * long_side)
                & (x0s > 0) & (y0s > 0) & (x0s + bw < w) & (y0s + bh < h)]
    bw, bh = stats[:, 2], stats[:, 3]
    if cand.size and faces:
        # (the reach of a face's side faces, beyond the blob's half length, which is at most
        # its box's diagonal)
        fs = np.array([(f.cx, f.cy, _STREAK_SIDE * _face_size(f)) for f in faces
                       if f.ok or f.reason.startswith(("top face tilted", "doubtful"))]).reshape(-1, 3)
        fx, fy, reach = fs[:, 0], fs[:, 1], fs[:, 2]
        if fx.size:
            cx, cy = cents[cand, 0][:, None], cents[cand, 1][:, None]
            half = (0.5 * np.hypot(bw[cand], bh[cand]))[:, None]
            d2 = (cx - fx[None, :]) ** 2 + (cy - fy[None, :]) ** 2
            cand = cand[~(d2 < (reach[None, :] + half) ** 2).any(axis=1)]
    if not cand.size:
        return []
    mu20, mu02, mu11 = _blob_moments(blob_px, cand, area, cents)
    common = np.sqrt(np.maximum(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 * mu11))
    a = 2 * np.sqrt(np.maximum((mu20 + mu02) / 2 + common, 0.0)) + 0.5
    b = 2 * np.sqrt(np.maximum((mu20 + mu02) / 2 - common, 0.0)) + 0.5
    den = math.pi * (a - 0.5) * (b - 0.5)
    efill = np.divide(area[cand], den, out=np.zeros(den.shape), where=den > 0)
    keep = (b >= 2.0) & (b <= 9.5) & (a >= _STREAK_LONG * b) & (a <= 7.0 * b) & (efill > 0.7) & (efill < 1.2)
    if keep.any() and faces and fx.size:
        # (and exactly: within reach of a face beyond the streak's half length)
        d2 = (cents[cand, 0][:, None] - fx[None, :]) ** 2 + (cents[cand, 1][:, None] - fy[None, :]) ** 2
        keep &= ~(d2 < (reach[None, :] + a[:, None]) ** 2).any(axis=1)
    if not keep.any():
        return []
    sel, a, b = cand[keep], a[keep], b[keep]
    th = ((0.5 * np.arctan2(2 * mu11, mu20 - mu02)) % math.pi)[keep]
    neg = src[sel] % 2 == 1
    gs = gs_by_pol[+1]
    cx, cy = cents[sel, 0], cents[sel, 1]
    rings = _ring_samples_arr(gs, cx, cy, a + 2.0, b + 2.0, th.tolist(), 1.0, neg=neg)
    rings.sort(axis=1)
    body = 0.5 * (rings[:, 7] + rings[:, 8])
    # the streak's level: the darkest (pip-dark polarity) of a few points along its axis
    ks = np.array([-0.5, -0.25, 0.0, 0.25, 0.5])[None, :]
    ca, sa = np.cos(th)[:, None], np.sin(th)[:, None]
    xs = _clamp(np.round(cx[:, None] + ks * a[:, None] * ca).astype(np.intp), w - 1)
    ys = _clamp(np.round(cy[:, None] + ks * a[:, None] * sa).astype(np.intp), h - 1)
    spot = _flip(gs[ys, xs], neg).astype(np.float32).min(axis=1)
    con = body - spot
    cuts = np.count_nonzero(rings < (spot + 0.5 * con)[:, None], axis=1)
    spread = rings[:, 12] - rings[:, 4]
    good = (con >= 30) & (cuts <= 2) & (spread <= 0.45 * con + 6)
    out = []
    owner, px, py = _blob_pixels(blob_px, sel[good], area)
    idx = np.flatnonzero(good)
    for k, i in enumerate(idx.tolist()):
        on = owner == k
        out.append((float(cx[i]), float(cy[i]), float(a[i]), float(b[i]), float(th[i]), float(con[i]),
                    float(body[i]), -1 if neg[i] else 1, (px[on], py[on]), int(sel[i])))
    return out


def _streak_beads(gs: np.ndarray, s: tuple) -> tuple[float, float, list[float]]:
    """A streak's length and width (px, from its pixels) and where along its axis (px from its
    centre) its beads are: the places its darkness peaks, each clearly (_BEAD) over the dips
    between it and the next (one bead: a single pip smeared; a row of pips smeared along the
    row keeps a bead where each pip was, while the smear is shorter than their spacing)."""
    x, y, _a, _b, th, con, body, pol, (px, py) = s[:9]
    ux, uy = math.cos(th), math.sin(th)
    t = (px - x) * ux + (py - y) * uy
    lo, hi = float(t.min()), float(t.max())
    length = hi - lo + 1.0
    # mean width: a stadium of width d and length l covers d (l - d) + pi d^2 / 4 pixels
    area = float(px.size)
    c = math.pi / 4 - 1
    disc = length * length + 4 * c * area
    width = (-length + math.sqrt(max(disc, 0.0))) / (2 * c) if disc > 0 else length
    width = min(width, length)
    # the darkness profile along the axis: at each step, the darkness summed across the streak
    # (a shaking die smears its pips along a wavy path: the beads may show in its width)
    ts = np.arange(lo, hi + 0.5, 1.0)
    off = np.linspace(-0.8, 0.8, 7) * width
    sx = x + ts[:, None] * ux - off[None, :] * uy
    sy = y + ts[:, None] * uy + off[None, :] * ux
    hgt, wid = gs.shape[:2]
    v = gs[_clamp(np.round(sy).astype(np.intp), hgt - 1), _clamp(np.round(sx).astype(np.intp), wid - 1)]
    v = v.astype(np.float32) if pol > 0 else 255.0 - v.astype(np.float32)
    prof = np.maximum(body - v, 0.0).mean(axis=1)
    if prof.size >= 3:
        prof = np.convolve(np.pad(prof, 1, mode="edge"), np.array([0.25, 0.5, 0.25]), mode="valid")
    peaks = _profile_peaks(prof, _BEAD * con, 0.6 * width)
    if len(peaks) == 1:
        # The blob's own width along it: a row smeared along a wavy path may show its beads
        # only there, necked between the pips (the darkness across it then stays even)
        cnt = np.bincount(np.round(t - lo).astype(np.intp), minlength=ts.size)[:ts.size].astype(np.float64)
        if cnt.size >= 3:
            cnt = np.convolve(np.pad(cnt, 1, mode="edge"), np.array([0.25, 0.5, 0.25]), mode="valid")
        necked = _profile_peaks(cnt, _NECK * float(cnt.max()), 0.6 * width)
        if len(necked) > 1:
            peaks = necked
    return length, width, [float(ts[i]) for i in peaks]


def _profile_peaks(prof: np.ndarray, need: float, gap: float) -> list[int]:
    """The peaks of a profile along a streak (see :func:`_streak_beads`) that each rise at least
    ``need`` over the lowest point between it and its neighbours, at least ``gap`` apart (the
    weakest dropped first, until all that are left rise so much)."""
    peaks = [i for i in range(prof.size) if (i == 0 or prof[i] >= prof[i - 1]) and (i == prof.size - 1 or prof[i] > prof[i + 1])]
    while len(peaks) > 1:
        rises = []
        for j, i in enumerate(peaks):
            left = prof[peaks[j - 1]:i + 1].min() if j > 0 else -np.inf
            right = prof[i:peaks[j + 1] + 1].min() if j + 1 < len(peaks) else -np.inf
            near = min(i - peaks[j - 1] if j > 0 else 1e9, peaks[j + 1] - i if j + 1 < len(peaks) else 1e9)
            rises.append(prof[i] - max(left, right) - (1e9 if near < gap else 0.0))
        j = int(np.argmin(rises))
        if rises[j] >= need:
            break
        peaks.pop(j)
    return peaks


def _blurred_faces(gs_by_pol: dict[int, np.ndarray], img: _Lab, faces: list[_Face], raw: list) -> list[_Face]:
    """Motion-blurred dice: faces read from groups of streaks (see :func:`_streak_candidates`)
    away from the faces already read.

    A die that moved during the exposure smears every pip by the same motion: its streaks are
    parallel, as wide as a pip and smeared by one length L. A streak's length is its pips' span
    along it plus a pip's width plus L; a row of pips smeared along the row keeps a bead where
    each pip was (:func:`_streak_beads`). So each bead is a pip, at its place less the smear;
    the streaks' L must agree, the pips must make a d6 face, and the die's outline must be
    smeared along the motion too (:func:`_body_ramps`). Where a lone bead may hide more pips (a
    streak so long that a row's beads could have merged), the smears do not agree or a
    streak-like mark was left out (:func:`_stray_marks`), a die of three streaks or more is
    reported with ``value: None`` (a reason starting "doubtful"); fewer are left out.
    ``raw``: the blobs of each block size at full resolution (see :func:`_find_pips`)."""
    out: list[_Face] = []
    for entry in raw:  # (each block size's blobs: a small die's streaks show at the finest)
        out += _blurred_faces_in(gs_by_pol, img, faces + out, entry)
    return out


def _blurred_faces_in(gs_by_pol: dict[int, np.ndarray], img: _Lab, faces: list[_Face], raw: tuple) -> list[_Face]:
    """:func:`_blurred_faces` in the blobs of one block size."""
    # (next to a face read, parallel elongated pips are those of its side faces, foreshortened)
    streaks = _streak_candidates(raw, gs_by_pol, faces)
    if len(streaks) < 2:
        return []
    # (the pairs of one die, all pairs at once)
    x, y, _a, b, th, con, body, pol = (np.array([s[k] for s in streaks]) for k in range(8))
    d = np.abs(th[:, None] - th[None, :]) % math.pi
    link = ((pol[:, None] == pol[None, :]) & (np.minimum(d, math.pi - d) < _STREAK_ANGLE)
            & (np.maximum(b[:, None], b[None, :]) < _STREAK_WIDTH * np.minimum(b[:, None], b[None, :]))
            & (np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) < _STREAK_NEAR * 0.5 * (b[:, None] + b[None, :]))
            & (np.abs(body[:, None] - body[None, :]) < 0.25 * np.minimum(con[:, None], con[None, :])))
    uf = _UF(len(streaks))
    for i, j in np.argwhere(np.triu(link, 1)).tolist():
        uf.union(i, j)
    groups: dict[int, list[int]] = {}
    for i in range(len(streaks)):
        groups.setdefault(uf.find(i), []).append(i)
    found = []
    for members in groups.values():
        if not 2 <= len(members) <= 6:
            continue
        f = _streak_face(gs_by_pol, img, [streaks[i] for i in members], raw)
        if f is not None:
            found.append(f)
    # (the smeared pips of a blurred die's side face lie next to its top face, read surer or
    # from more pips)
    out: list[_Face] = []
    for f in sorted(found, key=lambda f: (not f.ok, -len(f.pips))):
        if not any(math.hypot(f.cx - g.cx, f.cy - g.cy) < _STREAK_SIDE * _face_size(g) + _face_size(f) / 2
                   for g in out):
            out.append(f)
    return out


def _body_ramps(gs: np.ndarray, group: list[tuple], cx: float, cy: float, reach: float) -> tuple[float, float]:
    """How far the die body's edge is spread out along the streaks' motion and across it (px of
    grey between 20 % and 80 % of the way from the body's level to what lies beyond, median of
    rays cast both ways from just past the streaks, on three parallel lines each). A die that
    moved has its outline smeared as its pips are, along the motion only; a side face's
    foreshortened pips (elongated and parallel too) sit on a face whose edges are sharp."""
    th, pol = group[0][4], group[0][7]
    ux, uy = math.cos(th), math.sin(th)
    px = np.concatenate([s[8][0] for s in group]).astype(np.float64) - cx
    py = np.concatenate([s[8][1] for s in group]).astype(np.float64) - cy
    ext_u, ext_n = float(np.abs(px * ux + py * uy).max()), float(np.abs(-px * uy + py * ux).max())
    body = _median([s[6] for s in group])
    h, w = gs.shape[:2]
    ks = np.arange(0.0, reach + 0.5, 1.0)
    out = []
    for (ex, ey), start, side in ((( ux, uy), ext_u, ext_n), ((-ux, -uy), ext_u, ext_n),
                                  ((-uy, ux), ext_n, ext_u), ((uy, -ux), ext_n, ext_u)):
        offs = np.array([-0.5, 0.0, 0.5]) * side
        xs = cx + (start + 1.0 + ks)[None, :] * ex - offs[:, None] * ey
        ys = cy + (start + 1.0 + ks)[None, :] * ey + offs[:, None] * ex
        v = gs[_clamp(np.round(ys).astype(np.intp), h - 1), _clamp(np.round(xs).astype(np.intp), w - 1)]
        v = v.astype(np.float64) if pol > 0 else 255.0 - v.astype(np.float64)
        far = np.median(v[:, -3:], axis=1)
        delta = body - far
        q = (v - far[:, None]) / np.where(np.abs(delta) < 1e-6, 1.0, delta)[:, None]
        spread = np.count_nonzero((q > 0.2) & (q < 0.8), axis=1).astype(np.float64)
        out.append(np.where(np.abs(delta) >= 20, spread, np.nan))
    along = np.concatenate(out[:2])
    across = np.concatenate(out[2:])
    if np.isnan(along).all() or np.isnan(across).all():
        return math.nan, math.nan
    return float(np.nanmedian(along)), float(np.nanmedian(across))


def _stray_marks(raw: tuple, group: list[tuple], cx: float, cy: float, inner: float, outer: float) -> bool:
    """Is there a pip-dark blob (in the streaks' polarity, at the finest scale) besides the
    group's streaks on the die: within ``inner`` px of the face centre (cx, cy) and as large as
    a third of a streak, or within ``outer`` px and streak-like (parallel to the streaks, of
    their width)? Such a blob is a streak that failed the streak tests (one run into the die's
    smeared edge, say): the pips read from the others may be too few."""
    stats, cents, blob_px, src, _shape = raw
    x0, y0, bw, bh, area = (stats[:, k].astype(np.float64) for k in range(5))
    dx = np.maximum(np.maximum(x0 - cx, cx - (x0 + bw - 1)), 0.0)
    dy = np.maximum(np.maximum(y0 - cy, cy - (y0 + bh - 1)), 0.0)
    d2 = dx * dx + dy * dy
    near = (src == src[group[0][9]]) & (area >= min(s[8][0].size for s in group) / 3)
    near[[s[9] for s in group]] = False
    if (near & (d2 < inner * inner)).any():
        return True
    sel = np.flatnonzero(near & (d2 < outer * outer))
    if not sel.size:
        return False
    mu20, mu02, mu11 = _blob_moments(blob_px, sel, stats[:, 4], cents)
    common = np.sqrt(np.maximum(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 * mu11))
    a = 2 * np.sqrt(np.maximum((mu20 + mu02) / 2 + common, 0.0)) + 0.5
    b = 2 * np.sqrt(np.maximum((mu20 + mu02) / 2 - common, 0.0)) + 0.5
    th = (0.5 * np.arctan2(2 * mu11, mu20 - mu02)) % math.pi
    bs = _median([s_[3] for s_ in group])
    for ai, bi, ti in zip(a.tolist(), b.tolist(), th.tolist(), strict=True):
        if (ai >= 1.3 * bi and bs / 1.5 <= bi <= 1.5 * bs
                and _angle_diff(ti, group[0][4]) < 2 * _STREAK_ANGLE):
            return True
    return False


def _streak_face(gs_by_pol: dict[int, np.ndarray], img: _Lab, group: list[tuple], raw: tuple) -> _Face | None:
    """The face of one group of parallel streaks (see :func:`_blurred_faces`), or None when
    they make no die."""
    pol = group[0][7]
    gs = gs_by_pol[+1]
    meas = [_streak_beads(gs, s) for s in group]
    widths = [m[1] for m in meas]
    wd = _median(widths)
    if max(widths) > _STREAK_WIDTH * min(widths):
        return None
    smears = [ln - wi - (bd[-1] - bd[0]) for ln, wi, bd in meas]
    sm = _median(smears)
    if sm < 0.6 * wd or wd < _STREAK_MIN_W:
        return None  # hardly smeared (the pip tests' business), or thinner than a pip of a die one reads
    agree = all(abs(s - sm) <= _STREAK_L * wd + 0.15 * sm for s in smears)
    r = 0.5 * wd
    ps = []
    for s, (_ln, _wi, bd) in zip(group, meas, strict=True):
        x, y, _a, _b, th, con, body = s[:7]
        ux, uy = math.cos(th), math.sin(th)
        px, py = s[8]
        t = (px - x) * ux + (py - y) * uy
        mid = 0.5 * (float(t.min()) + float(t.max()))
        shift = mid - sum(bd) / len(bd)  # (the beads' middle is the streak's middle)
        for tb in bd:
            ps.append(Pip(x + (tb + shift) * ux, y + (tb + shift) * uy, r, r, th, con, body, body - con, pol))
    if len(ps) > 6:
        return None
    # Pips smeared, not foreshortened (a side face's pips are elongated and parallel too): a
    # row's beads keep the pips' spacing, as wide apart as a pip's width allows, and streaks
    # end to end along the motion are close for their length (foreshortened pips are not
    # longer than a pip, and are spaced as pips are).
    for _ln, wi, bd in meas:
        if len(bd) > 1 and min(b - a for a, b in itertools.pairwise(bd)) < _BEAD_STEP * wi:
            return None
    for si, mi in zip(group, meas, strict=True):
        ends = []  # (the streaks ahead or behind it along the motion, and their length)
        for sj, mj in zip(group, meas, strict=True):
            dx, dy = sj[0] - si[0], sj[1] - si[1]
            along = abs(dx * math.cos(si[4]) + dy * math.sin(si[4]))
            if sj is not si and along > 0.7 * math.hypot(dx, dy):
                ends.append((along, 0.5 * (mi[0] + mj[0])))
        if ends and min(ends)[0] > _STREAK_END * min(ends)[1]:
            return None
    f = _make_face(gs_by_pol, ps)
    if not f.ok:
        return None
    # The die's body is centred on the face (pips read from part of a die's streaks are not)
    if _body_extent(img, Pip(f.cx, f.cy, r, r, group[0][4], 0.0, 0.0, 0.0, pol))[0] > _STREAK_ASYM:
        return None
    # The die's outline smeared along the motion as its pips are (where the die stands out
    # from what lies beyond: a face's side faces have sharp edges all round)
    # (a comparison with a NaN, an outline that does not stand out, is False: not known)
    along, across = _body_ramps(gs, group, f.cx, f.cy, 0.6 * _face_size(f) + sm)
    if along < across:
        return None
    # A lone bead in a streak much longer than wide may be a row whose beads merged (a smear
    # as long as the pips' spacing): then the count is not sure.
    hidden = all(len(bd) == 1 for _ln, _wi, bd in meas) and max(ln for ln, _wi, _bd in meas) > 3.2 * wd
    # Beads mark the pips only while the smear is shorter than their spacing (a longer one
    # makes beads where the smears of neighbouring pips overlap, between the pips)
    hidden |= any(len(bd) > 1 and sm_ >= min(b - a for a, b in itertools.pairwise(bd))
                  for (_ln, _wi, bd), sm_ in zip(meas, smears, strict=True))
    if not agree or hidden or _stray_marks(raw, group, f.cx, f.cy, 2.8 * r + 0.5 * sm, 5.6 * r + 0.5 * sm):
        # (a die given as doubtful must still look like one die: its streaks share one paint
        # and light, their contrasts as alike as those of one face's pips)
        # (and two streaks alone are too little to list a die of unknown value: lines of a
        # print, a side face's pips, the edge of a book are as likely)
        cons = [s[5] for s in group]
        if max(cons) > _CON_RATIO * min(cons) or len(group) < 3:
            return None
        f.ok, f.quality = False, 0.0
        f.reason = "doubtful: motion blur (pips smeared into streaks)"
    return f


def _all_pips(gray: np.ndarray, stop_if_tiny: bool = False, coarse: bool = True,
              seen: list | None = None, bars: bool = False,
              streaks: list | None = None) -> tuple[list[Pip], dict[int, np.ndarray]]:
    """Pips of both polarities, and the blurred grey image each polarity was measured on.

    With ``stop_if_tiny``, returns ([], {}) as soon as the finest scale shows the pips are tiny
    (the caller then reads an enlarged copy, where ``seen`` says what to look at: see
    :func:`_regions`). Without ``coarse`` the largest pips (half-size copy) are not sought.
    ``bars``, ``streaks``: see :func:`_find_pips`."""
    gs_dark = cv2.GaussianBlur(gray, (3, 3), 0)
    gs_light = 255 - gs_dark
    full = _Masks(gray)
    # Deciding whether the pips are tiny, count pips split from bars too: on small, blurred
    # dice a 6's columns may all be bars at this size.
    pieces: list[Pip] = []
    fine = _find_pips((full, gs_dark), (full, gs_dark), (0,), seen, pieces if stop_if_tiny else bars, streaks)
    if stop_if_tiny and (_tiny_pips(fine[+1] + fine[-1]) or _tiny_pips(pieces)):
        return [], {}
    # Not tiny, yet a 6 of big pips on a small die (about 26 px) may have its columns merged
    # into bars at this size: their pieces are pips as well.
    for pol in fine:
        fine[pol] += [p for p in pieces if p.polarity == pol]
    half = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
    half_s = cv2.GaussianBlur(half, (3, 3), 0)
    rest = (1, 2) if coarse else (1,)
    half_m = _Masks(half)
    bodies: list = []
    more = _find_pips((full, gs_dark), (half_m, half_s), rest, bars=bars, streaks=streaks, bodies=bodies)
    more[-1] += _pips_on_light_bodies(half, half_s, bodies, fine[-1] + more[-1])
    pips = _dedupe(fine[+1] + more[+1]) + _dedupe(fine[-1] + more[-1])
    return pips, {+1: gs_dark, -1: gs_light}


def _pips_on_light_bodies(half: np.ndarray, half_s: np.ndarray, bodies: list, found: list[Pip]) -> list[Pip]:
    """Light pips on a die that is itself lighter than the tray around it (a red, green or
    purple die with white pips on a dark felt tray): at the coarse scales the block's mean is
    mostly the dark tray, so the die's whole body is "lighter than the mean" and its pips merge
    with it into one die-sized blob, which is no pip. Inside each such blob of the half-size
    copy's coarsest mask (too big for a pip, not bigger than a die), the pixels clearly lighter
    than the blob's own body level (its median) are the pips: they are measured and tested as
    any pip, in the size range of both coarse scales, and kept where no light pip was
    ``found`` (``half``, ``half_s``: the half-size copy and its blurred grey; ``bodies``: the
    blobs of its masks, as :func:`_find_pips` gives them)."""
    if not bodies:
        return []
    stats, _ce, parts, src, shape = bodies[0]
    st = stats[src == 1]  # (the light-pip mask's blobs)
    _off, xs, ys, first = parts[1]
    rmax = _SCALES[2][2] / 2  # (half-size pixels)
    if not len(st):
        return []
    area, bw, bh = st[:, 4], st[:, 2], st[:, 3]
    rmin = _SCALES[1][1] / 2
    big = np.flatnonzero((area > math.pi * (_SCALES[1][2] / 2) ** 2 * 1.3)
                         & (np.maximum(bw, bh) <= _LIGHT_BODY * rmax) & (np.minimum(bw, bh) >= 6 * rmin))
    if not big.size:
        return []
    owner = np.repeat(np.arange(big.size), area[big])
    at = np.concatenate([np.arange(first[k], first[k] + area[k]) for k in big.tolist()])
    vals = half[ys[at], xs[at]].astype(np.int64)
    srt = np.sort(owner * 256 + vals) - owner * 256
    start = np.cumsum(area[big]) - area[big]
    med = srt[start + area[big] // 2]
    lit = vals > med[owner] + _LIGHT_STEP
    # (a pip's worth of such pixels in a blob at least: not the odd speck of noise or glare)
    lit &= (np.bincount(owner, lit, big.size) >= math.pi * rmin * rmin)[owner]
    if not lit.any():
        return []
    # (searched on the part of the picture around them only, then moved back)
    lx, ly = xs[at[lit]], ys[at[lit]]
    pad = int(2 * rmax) + 6
    x0, y0 = max(0, int(lx.min()) - pad), max(0, int(ly.min()) - pad)
    x1, y1 = min(shape[1], int(lx.max()) + pad + 1), min(shape[0], int(ly.max()) + pad + 1)
    inner = np.zeros((y1 - y0, x1 - x0), np.uint8)
    inner[ly - y0, lx - x0] = 1
    new = _find_pips_at((np.zeros_like(inner), inner), np.ascontiguousarray(half_s[y0:y1, x0:x1]),
                        [rmin] * 2, [rmax] * 2, 2.0)[-1]
    for p in new:
        p.x, p.y = p.x + 2 * x0, p.y + 2 * y0
    old = [p for p in found if p.polarity == -1]
    if not new or not old:
        return new
    xy = np.array([[p.x, p.y] for p in old])
    return [p for p in new if not (np.hypot(xy[:, 0] - p.x, xy[:, 1] - p.y) < p.a + 1).any()]


def _stretch(img: np.ndarray, gray: np.ndarray | None = None) -> np.ndarray:
    """An underexposed picture (a dim room, a dark tray) brightened so that its brightest parts
    are as bright as in a well-lit one: the colour tests' limits (where a die ends, where a
    face ends) then mean the same in any light. (Only a gain, like a longer exposure.)
    ``gray``: the picture's grey, when at hand (its pixels are those of a grey sample)."""
    sample = img[::4, ::4]
    if gray is not None:
        grey = gray[::4, ::4]
    else:
        grey = sample if sample.ndim == 2 else cv2.cvtColor(np.ascontiguousarray(sample), cv2.COLOR_BGR2GRAY)
    # The 99.5th percentile is at least the grey level one rank below its own; when that is
    # already bright (most pictures), the picture is not dim: no need for the exact percentile.
    # (that rank's level is at least _DIM when fewer pixels than the rank + 1 are darker)
    if np.count_nonzero(grey < _DIM) < max(0, int(0.995 * (grey.size - 1)) - 1) + 1:
        return img
    hi = float(np.percentile(grey, 99.5))
    if hi >= _DIM or hi < 16:
        return img
    gain = min(_MAX_GAIN, _BRIGHT / hi)
    lut = np.clip(np.arange(256, dtype=np.float32) * gain, 0, 255).astype(np.uint8)
    return cv2.LUT(img, lut)


def _regions(seen: list[np.ndarray], shape: tuple[int, ...], scale: float) -> list[tuple[int, int, int, int]]:
    """Where to look for pips on a copy enlarged ``scale`` times: rectangles ``(x0, y0, x1, y1)``
    (even, in the copy's pixels; they may overlap) around the spot-sized blobs ``seen`` at the
    finest scale of the original, with room for the pip tests' context.

    A tray of many small dice is mostly plain tray: searching only around what could be a
    pip (or a small die's merged pips) saves most of the work on the enlarged copy. Blobs
    closer than about 2 * _LINK px (the pips of one die) share one rectangle."""
    h, w = shape[:2]
    c = _CELL
    occ = np.zeros(((h + c - 1) // c, (w + c - 1) // c), np.uint8)
    boxes = np.concatenate(seen) if seen else np.zeros((0, 4), np.int32)
    if len(boxes) == 0:
        return []
    m = _LINK
    cx0 = np.maximum(boxes[:, 0] - m, 0) // c
    cy0 = np.maximum(boxes[:, 1] - m, 0) // c
    cx1 = (boxes[:, 0] + boxes[:, 2] + m) // c + 1
    cy1 = (boxes[:, 1] + boxes[:, 3] + m) // c + 1
    for a, b, e, d in set(zip(cx0.tolist(), cy0.tolist(), cx1.tolist(), cy1.tolist(), strict=True)):
        occ[b:d, a:e] = 1
    _n, _lab, st, _ = cv2.connectedComponentsWithStats(occ, connectivity=8)
    sw, sh = int(round(w * scale)), int(round(h * scale))
    out = []
    pad = _ROI_PAD - m
    for gx, gy, gw, gh in st[1:, :4].tolist():
        x0 = int(math.floor(max(0, gx * c - pad) * scale)) // 2 * 2
        y0 = int(math.floor(max(0, gy * c - pad) * scale)) // 2 * 2
        x1 = min(sw, (int(math.ceil(min(w, (gx + gw) * c + pad) * scale)) + 1) // 2 * 2)
        y1 = min(sh, (int(math.ceil(min(h, (gy + gh) * c + pad) * scale)) + 1) // 2 * 2)
        if x1 - x0 >= 16 and y1 - y0 >= 16:
            out.append((x0, y0, x1, y1))
    return out


def _all_pips_in(gray: np.ndarray, regions: list[tuple[int, int, int, int]], coarse: bool = True,
                 bars: bool = True) -> tuple[list[Pip], dict[int, np.ndarray]]:
    """:func:`_all_pips`, searching only inside ``regions`` (see :func:`_regions`).

    The regions are packed side by side into one smaller picture (a mosaic, each region
    framed by a copy of its edge pixels), which is searched as a whole: a few blob labellings
    of a fraction of the pixels instead of one per region. Pips are measured on the whole
    image's blurred grey (copied into the mosaic) and mapped back to the image."""
    gs_dark = cv2.GaussianBlur(gray, (3, 3), 0)
    gs_by_pol = {+1: gs_dark, -1: 255 - gs_dark}
    if not regions:
        return [], gs_by_pol
    tiles, (mh, mw) = _pack(regions, gray.shape[1])
    g = np.zeros((mh, mw), np.uint8)
    gs = np.zeros((mh, mw), np.uint8)
    inside = np.zeros((mh, mw), np.uint8)
    e = _FRAME
    for (x0, y0, x1, y1), (u, v) in zip(regions, tiles, strict=True):
        for src, dst in ((gray, g), (gs_dark, gs)):
            dst[v - e:v + y1 - y0 + e, u - e:u + x1 - x0 + e] = cv2.copyMakeBorder(
                src[y0:y1, x0:x1], e, e, e, e, cv2.BORDER_REPLICATE)
        inside[v:v + y1 - y0, u:u + x1 - x0] = 255
    full = _Masks(g, inside)
    half = cv2.resize(g, (mw // 2, mh // 2), interpolation=cv2.INTER_AREA)
    half_s = cv2.GaussianBlur(half, (3, 3), 0)
    half_m = _Masks(half, inside[::2, ::2])
    out: list[Pip] = []
    bodies: list = []
    found = _find_pips((full, gs), (half_m, half_s), (0, 1, 2) if coarse else (0, 1), bars=bars, bodies=bodies)
    found[-1] += _pips_on_light_bodies(half, half_s, bodies, found[-1])
    for pol in (+1, -1):
        out.extend(_dedupe(_unpack(found[pol], regions, tiles, gray.shape)))
    return out, gs_by_pol


def _pack(regions: list[tuple[int, int, int, int]], width: int) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Shelf packing of rectangles (each with a frame of _FRAME px) into a strip at most
    ``width`` wide (or as wide as the widest): the even top-left corner of each rectangle's
    inside in the mosaic, and the mosaic's size. Of a few strip widths the smallest mosaic wins."""
    e = _FRAME
    order = sorted(range(len(regions)), key=lambda i: regions[i][1] - regions[i][3])
    widest = max(r[2] - r[0] + 2 * e for r in regions)
    best: tuple[int, list[tuple[int, int]], tuple[int, int]] | None = None
    for strip in sorted({widest, max(widest, width // 2), max(widest, width)}):
        pos: list[tuple[int, int]] = [(0, 0)] * len(regions)
        u = v = shelf = 0
        for i in order:
            x0, y0, x1, y1 = regions[i]
            w, h = x1 - x0 + 2 * e, y1 - y0 + 2 * e
            if u + w > strip:
                u, v, shelf = 0, v + shelf, 0
            pos[i] = (u + e, v + e)
            u += w
            shelf = max(shelf, h)
        size = ((v + shelf + 1) // 2 * 2, (strip + 1) // 2 * 2)
        if best is None or size[0] * size[1] < best[0]:
            best = (size[0] * size[1], pos, size)
    assert best is not None
    return best[1], best[2]


def _unpack(pips: list[Pip], regions: list[tuple[int, int, int, int]], tiles: list[tuple[int, int]],
            shape: tuple[int, ...]) -> list[Pip]:
    """Pips found in the mosaic, moved back to the image; pips that touch the edge of their
    region (where it is not the image's edge) were cut by it and are dropped (regions
    overlap: a pip cut by one is whole in another)."""
    if not pips:
        return []
    h, w = shape[:2]
    reg = np.array(regions, np.float64)
    til = np.array(tiles, np.float64)
    px = np.array([p.x for p in pips])[:, None]
    py = np.array([p.y for p in pips])[:, None]
    u, v = til[None, :, 0], til[None, :, 1]
    rw, rh = (reg[:, 2] - reg[:, 0])[None], (reg[:, 3] - reg[:, 1])[None]
    hit = (px >= u) & (px < u + rw) & (py >= v) & (py < v + rh)
    k = np.argmax(hit, axis=1)
    out = []
    for i, p in enumerate(pips):
        t = int(k[i])
        if not hit[i, t]:
            continue
        x0, y0, x1, y1 = regions[t]
        x, y = p.x - tiles[t][0] + x0, p.y - tiles[t][1] + y0
        m = p.a + 1.0
        if ((x0 > 0 and x - x0 < m) or (y0 > 0 and y - y0 < m) or (x1 < w and x1 - 1 - x < m)
                or (y1 < h and y1 - 1 - y < m)):
            continue
        p.x, p.y = x, y
        out.append(p)
    return out


def read_pips(image_bgr: np.ndarray) -> list[dict]:
    """Read every standard pip die in a BGR (or grey) image.

    Returns one GUIDE-contract entry per die: centre ``x, y`` of the top face, ``w, h`` of the
    estimated face, ``value`` 1..6 and ``face`` "1".."6", or ``None`` plus a ``reason``.
    Coordinates are in the pixels of the image given, whatever its size.
    """
    img = np.asarray(image_bgr)
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[:, :, 0]
    if img.ndim == 3 and img.shape[2] == 4:
        img = img[:, :, :3]
    if img.dtype != np.uint8:
        img = cv2.convertScaleAbs(img, alpha=255.0 / max(1.0, float(img.max())))
    if min(img.shape[:2]) < 8:
        return []
    side = max(img.shape[:2])
    if side <= _NATIVE_SIDE:
        out = _read_native(img)[0]
        if side >= 2 * _BIG_SIDE and (not out or max(_pip_radius([d], 1.0) for d in out) >= _BIG_PIP_R):
            out = _with_big_dice(out, _read_at(img, 0.5)[0])
        return out
    # Larger pictures (a phone, a webcam in HD) are read on a copy of _WORK_SIDE pixels first:
    # the dice there look as in the photos the pip tests were made on. While the pips are small
    # there (many small dice far away), the dice are read again on copies twice as large (up
    # to the picture's own size).
    scale = _WORK_SIDE / side
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    out, tiny = _read_native(small, scale)
    if not tiny and len(out) < 3:
        # Few dice (or none) with big pips on the small copy: a close-up of a die or two, or
        # a tray of small dice far away, too small to show there or looking like the pips of
        # one die. A copy twice as large tells: it wins when it reads many more dice (a
        # close-up's side faces, read there, are a die or two more).
        s2 = min(1.0, 2 * scale)
        out2, tiny2 = _read_full(img) if s2 == 1.0 else _read_at(img, s2, tiny=True)
        v, v2 = (sum(d["value"] is not None for d in o) for o in (out, out2))
        if v2 < (1 if v == 0 else max(3, 2 * v + 1)) and not (tiny2 and _far_tray_unread(out2)):
            return out
        out, tiny, scale = out2, tiny2, s2
    while scale < 1.0 and (tiny or _pip_radius(out, scale) < _FINE_PIP):
        scale = min(1.0, 2 * scale)
        out2, tiny = _read_full(img) if scale == 1.0 else _read_at(img, scale, tiny=True)
        tiny = tiny or _far_tray_unread(out2)
        # the finer reading is the surer one, unless it lost dice
        if sum(d["value"] is not None for d in out2) >= 0.9 * sum(d["value"] is not None for d in out):
            out = out2
    return out


def _far_tray_unread(out: list[dict]) -> bool:
    """A copy read larger because the pips were tiny on the one before that reads no die (or
    one, a speck of dice taken for a die): a 12 MP phone picture of a tray of small dice far
    away (about 20 px, the tray a small part of the picture), the dice still 6 px or so on the
    1280 px copy, no pips showing there. That tells nothing of the pips' size: the next copy,
    twice as large, is read too."""
    return sum(d["value"] is not None for d in out) <= 1


def _with_big_dice(out: list[dict], half: list[dict]) -> list[dict]:
    """Dice of 150-200 px have pips too big for the pip tests at full size: read on a copy of
    half the size, they replace whatever the full-size reading made of them."""
    big = [d for d in half if _pip_radius([d], 1.0) >= _BIG_PIP_R]
    if not big:
        return out
    keep = [d for d in out if not any(abs(d["x"] - b["x"]) < 0.6 * b["w"] and abs(d["y"] - b["y"]) < 0.6 * b["h"]
                                      for b in big)]
    return sorted(keep + big, key=lambda d: (d["y"], d["x"]))


def _pip_radius(out: list[dict], scale: float) -> float:
    """Typical pip radius of these readings (in original pixels) on a copy ``scale`` times the
    size (a face is about 7.5 pip radii); infinite without readings."""
    if not out:
        return math.inf
    return float(_median([d["w"] for d in out])) * scale / 7.5


def _read_native(img: np.ndarray, scale: float = 1.0) -> tuple[list[dict], bool]:
    """Read a picture of at most about _NATIVE_SIDE pixels; coordinates are divided by
    ``scale``. Also says whether the pips were tiny (small dice far away)."""
    side = max(img.shape[:2])
    gray = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    seen: list[np.ndarray] = []
    raw: list = []
    found = _all_pips(gray, stop_if_tiny=side * _UPSCALE <= _MAX_SIDE, seen=seen, streaks=raw)
    if not found[1]:
        # Small dice (about 25 px or less): their packed pips touch at this resolution
        # and the pip tests work at the edge of the pixel grid; an enlarged copy reads
        # better. Only the parts of it around spots seen here are searched.
        out, tiny = _read_at(img, _UPSCALE, regions=_regions(seen, gray.shape, _UPSCALE), tiny=True)[0], True
    else:
        out, tiny = _read_at(img, 1.0, (gray, *found), streaks=raw)
    if scale != 1.0:
        for d in out:
            for k in ("x", "y", "w", "h"):
                d[k] = round(d[k] / scale, 1)
    return out, tiny


def _read_full(img: np.ndarray) -> tuple[list[dict], bool]:
    """A large picture read at its own size (the last step of :func:`read_pips`). Small dice
    far away (a tray of 20 dice of about 20 px in a phone's picture) still have tiny pips
    there: as in a small picture (:func:`_read_native`), they are read on a copy enlarged
    _UPSCALE times, only around the spots seen at full size."""
    gray = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    seen: list[np.ndarray] = []
    raw: list = []
    found = _all_pips(gray, stop_if_tiny=True, seen=seen, bars=True, streaks=raw)
    if not found[1]:
        return _read_at(img, _UPSCALE, regions=_regions(seen, gray.shape, _UPSCALE), tiny=True)[0], True
    return _read_at(img, 1.0, (gray, *found), tiny=True, streaks=raw)


def _tiny_pips(pips: list[Pip]) -> bool:
    """Are most pips that have a pip-sized neighbour (pips of a face, not specks) tiny?"""
    if len(pips) < 2:
        return False
    xy = np.array([[p.x, p.y] for p in pips])
    ra = np.array([p.a for p in pips])
    # (a neighbour closer than 5 radii: the nearest one is; only pairs of points whose x differ
    # little can be that close)
    i, j = _x_pairs(xy[:, 0], 5.0 * float(ra.max()))
    dx, dy = xy[i, 0] - xy[j, 0], xy[i, 1] - xy[j, 1]
    paired = np.zeros(len(pips), bool)
    paired[i[_hypot_lt(dx, dy, 5.0 * ra[i])]] = True
    paired[j[_hypot_lt(dx, dy, 5.0 * ra[j])]] = True
    if paired.sum() < 2:
        return False
    return float(_median(ra[paired].tolist())) < _TINY_PIP


def _read_at(img: np.ndarray, scale: float, found: tuple | None = None,
             regions: list | None = None, tiny: bool = False, streaks: list | None = None) -> tuple[list[dict], bool]:
    """Read at one scale; also says whether the pips found were tiny (radius under 2.5 px).
    With ``regions`` (rectangles in the scaled image), pips are sought only there; ``tiny``
    (the pips are known to be small) also tries bars of touching pips. ``streaks``: the finest
    scale's blobs of ``found`` (see :func:`_blurred_faces`)."""
    if found is not None:
        work = img
        gray, pips, gs_by_pol = found
    else:
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        work = img if scale == 1.0 else cv2.resize(img, None, fx=scale, fy=scale, interpolation=interp)
        gray = work if work.ndim == 2 else cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
        streaks = [] if regions is None else None
        pips, gs_by_pol = (_all_pips(gray, bars=tiny, streaks=streaks) if regions is None
                           else _all_pips_in(gray, regions, bars=tiny))
    lab = _Lab(work, gray)
    pips = _finer_where_alike(pips)
    faces = _faces(gs_by_pol, lab, pips)
    grouped = {id(p) for f in faces if len(f.pips) > 1 for p in f.pips}
    cands = [f for f in faces if f.reason == "candidate"]
    faces = _pick_top_faces(faces, work.shape[0])
    faces = _uneven_twos(gs_by_pol, lab, faces, pips, grouped)
    faces += _ghosted_ones(lab, faces, cands)
    _flag_cocked(faces)
    faces = [f for f in faces if not _packed_three_without_die(lab, f)]
    faces = _drop_faint_marks(faces)
    for f in faces:
        if f.ok and len(f.pips) == 1 and _has_face_mate(gs_by_pol, f.pips[0], pips):
            f.ok = False
            f.reason = "doubtful: a lone pip with a twin pip on the same face"
    for k, f in enumerate(faces):
        if f.ok and len(f.pips) == 3:
            f6 = _column_of_six(gs_by_pol, f)
            if f6 is not None:
                faces[k] = f = f6
        if f.ok and _unexplained_marks(gs_by_pol, f) > _MARKS:
            f.ok = False
            # Two dots among more marks are far more often a dotted print than a die
            f.reason = "not a die" if len(f.pips) == 2 else "doubtful: pip-like marks on the face that fit no pattern"
    faces = [f for f in faces if f.reason != "not a die"]
    faces = _side_abstentions_dropped(faces)
    faces += _logo_ones(lab, gs_by_pol, faces, pips, scale)
    if streaks:
        faces += _blurred_faces(gs_by_pol, lab, faces, streaks)
    faces = _uncrowded(faces, pips, lab)
    out = []
    h, w = work.shape[:2]
    for f in sorted(faces, key=lambda f: (f.cy, f.cx)):
        half = 0.5 * _face_size(f) * _smear(f)
        edge = min(f.cx, f.cy, w - 1 - f.cx, h - 1 - f.cy)
        if (len(f.pips) <= 2 and edge < half and not f.cut) or (not f.ok and edge < 1.5 * half):
            continue  # a 1 or 2 cut by the image edge cannot be told from a partial face
        if not f.ok and not f.reason.startswith(("top face tilted", "doubtful")):
            # Pips that make no d6 pattern: a glimpse of side faces, a dotted mat, print...
            # far more often than a die (and a die here could not be placed reliably anyway).
            continue
        s = _face_size(f) / scale
        entry = {"x": round(f.cx / scale, 1), "y": round(f.cy / scale, 1), "w": round(s, 1),
                 "h": round(s, 1), "set": SET_NAME, "type": "d6"}
        if f.ok:
            v = len(f.pips)
            conf = 0.8 + 0.19 * f.quality
            entry.update(face=str(v), value=v, confidence=round(conf, 3))
        else:
            entry.update(face=None, value=None, confidence=0.0, reason=f.reason)
        out.append(entry)
    tiny = bool(faces) and float(_median([f.r for f in faces])) < 2.5 or (not faces and bool(pips))
    return out, tiny


def _uncrowded(faces: list[_Face], pips: list[Pip], img: _Lab) -> list[_Face]:
    """The faces read, less those that are print: a "die" in a printed page (the dots of i's,
    colons, full stops, round letters) or on a dotted mat has more marks just like its "pips",
    that no face explains, around it; a die's surroundings are tray, other dice (whose pips
    their faces explain) and its own side faces (on one side of it, and most often
    foreshortened or lit otherwise). A face is dropped when such look-alikes (free pips of
    its pips' polarity, size, shape, contrast and body level, see :func:`_look_alikes`)

    - number _CROWD_MIN or more between _CROWD_NEAR and _CROWD_FAR face sides from its centre,
      spread round it over _CROWD_ARC degrees or more (a 1 amid a dotted mat's lattice too),
      or _MARKED_CROWD over _MARKED_ARC degrees round a face already doubted for pip-like
      marks on it that fit no pattern (the letters round a row of o's); or
    - are two or more between _PRINT_NEAR and _PRINT_FAR face sides, over _PRINT_ARC degrees
      or more (for a 1, only amid a crowd as above: a lone pip's outline is tested on its
      own), and the face has no outline: the body colour does not end for good within a
      face side in more than _PRINT_EXITS of 16 directions (:func:`_exits_for_good`; the
      paper goes on round the letters, a die ends at its edges).

    By the picture's edge the arcs asked for are the share of a turn that the picture shows
    two face sides out.

    (The readings of the dev photos, of their changed copies in bench/vision_robust.py and of
    the synthetic trays of bench/vision.py stay the same; bench/vision_print.py: false dice
    on 40 printed pages 376 -> 164, on 40 dotted mats 203 -> 137; with the picture's edge
    allowed for, 126 and 40; with crowded 1s too, 123 and 9; with marked faces amid fewer
    look-alikes, 74 and 9.)"""
    taken = {id(p) for f in faces for p in f.pips}
    free = [p for p in pips if id(p) not in taken]
    judged = [k for k, f in enumerate(faces) if f.ok or f.reason.startswith(("top face tilted", "doubtful"))]
    if len(free) < 2 or not judged:
        return faces
    d, ang = _look_alikes([faces[k] for k in judged], free)
    crowd = (d >= _CROWD_NEAR) & (d <= _CROWD_FAR)
    near = (d >= _PRINT_NEAR) & (d <= _PRINT_FAR)
    drop = set()
    h, w = img.shape[:2]
    for row in np.flatnonzero(np.count_nonzero(near, axis=1) >= 2).tolist():
        f = faces[judged[row]]
        crowded = np.count_nonzero(crowd[row]) >= _CROWD_MIN
        if len(f.pips) == 1 and not crowded:
            continue  # (a lone pip's outline has been tested already: only a crowd tells here)
        # (by the picture's edge, marks can only be on the side the picture shows: the arcs
        # asked for are that share of the full ones)
        s = 2.0 * _face_size(f)
        seen = np.count_nonzero((f.cx + s * _COS16 >= 0) & (f.cx + s * _COS16 < w)
                                & (f.cy + s * _SIN16 >= 0) & (f.cy + s * _SIN16 < h)) / 16
        marked = f.reason.startswith("doubtful: pip-like marks")
        if ((marked and np.count_nonzero(crowd[row]) >= _MARKED_CROWD
             and _arc(ang[row, crowd[row]]) >= seen * math.radians(_MARKED_ARC))
                or (crowded and _arc(ang[row, crowd[row]]) >= seen * math.radians(_CROWD_ARC))
                or (_arc(ang[row, near[row]]) >= seen * math.radians(_PRINT_ARC)
                    and _exits_for_good(img, f) <= _PRINT_EXITS)):
            drop.add(judged[row])
    return [f for k, f in enumerate(faces) if k not in drop]


def _look_alikes(faces: list[_Face], pips: list[Pip]) -> tuple[np.ndarray, np.ndarray]:
    """For each face (rows) and pip (columns): the pip's distance from the face centre (in
    face sides; infinite where the pip is not like the face's pips) and direction (radians).
    Like: of the face's polarity, size within 3/4 to 4/3 of its pips' (mean), contrast within
    1/1.4 to 1.4 times, roundness within 0.15, body level within 0.15 contrast + 4."""
    fc = np.array([(f.cx, f.cy, _face_size(f), f.polarity) + tuple(
        sum(v) / len(f.pips) for v in zip(*[(p.a, p.contrast, p.roundness, p.ring) for p in f.pips], strict=True))
        for f in faces])
    px, py, pa, pc, pr, pb, pp = (np.array(v)[None, :] for v in zip(
        *[(p.x, p.y, p.a, p.contrast, p.roundness, p.ring, p.polarity) for p in pips], strict=True))
    cx, cy, s, pol, a, c, rd, body = (fc[:, k:k + 1] for k in range(8))
    like = ((pp == pol) & (pa >= 0.75 * a) & (pa <= a / 0.75) & (pc >= c / 1.4) & (pc <= 1.4 * c)
            & (np.abs(pr - rd) <= 0.15) & (np.abs(pb - body) <= 0.15 * c + 4))
    dx, dy = px - cx, py - cy
    return np.where(like, np.hypot(dx, dy) / s, np.inf), np.arctan2(dy, dx)


def _arc(ang: np.ndarray) -> float:
    """The arc (radians) that directions ``ang`` span round a point: the full turn less the
    largest gap between neighbouring directions (0 for fewer than two)."""
    if ang.size < 2:
        return 0.0
    a = np.sort(ang)
    return 2 * math.pi - float(np.diff(np.concatenate([a, a[:1] + 2 * math.pi])).max())


_EXIT_KS = np.arange(0.2, 1.31, 0.05)[None, :]  # (steps along the rays of _exits_for_good, in face sides)


def _exits_for_good(img: _Lab, f: _Face) -> int:
    """In how many of 16 directions from the face centre the body colour (the median colour
    up to 0.32 face sides, off the pips) ends for good within one face side: every step
    beyond, up to 1.3 face sides, is off it (or off the picture), from a step inside the
    picture (a body that runs up to the picture's edge is not seen to end). A die's top face ends at its
    edges (side faces, table, other dice beyond); print's paper goes on round the letters.
    16 (no reason to doubt) when too little of the body shows to tell."""
    s = _face_size(f)
    h, w = img.shape[:2]
    xs = np.round(f.cx + _EXIT_KS * s * _COS16).astype(np.intp)
    ys = np.round(f.cy + _EXIT_KS * s * _SIN16).astype(np.intp)
    inside = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    v = img.at(_clamp(ys, h - 1), _clamp(xs, w - 1)).astype(np.float32)
    on_pip = np.zeros(xs.shape, bool)
    for p in f.pips:
        on_pip |= (xs - p.x) ** 2 + (ys - p.y) ** 2 < (1.8 * p.a) ** 2
    at_body = (_EXIT_KS <= 0.32) & ~on_pip & inside
    if np.count_nonzero(at_body) < 8:
        return 16
    body = _median_of(v[at_body], axis=0)
    dist = _norm(v - body)
    # (a white die on a light table ends in a small step, as in _two_has_outline)
    thr = min(12.0, max(9.0, 0.5 * float(_median_of(np.where(on_pip, 0.0, dist).max(axis=1)))))
    off_in = (dist > thr) & inside & ~on_pip
    off = off_in | (~inside & ~on_pip)
    # off from some step within one face side to the end of the ray, beginning inside the
    # picture (where the body runs up to the picture's edge, it is not seen to end)
    tail = np.flip(np.logical_and.accumulate(np.flip(off, axis=1), axis=1), axis=1)
    return int(np.count_nonzero((tail & off_in)[:, _EXIT_KS[0] <= 1.0].any(axis=1)))


def warm_up() -> None:
    """Run the reader once on a synthetic 640x480 tray so one-time library set-up (OpenCV's
    thread pool, buffers, colour tables) is not paid by the first real frame."""
    img = np.full((480, 640, 3), 110, np.uint8)
    for k, value in enumerate((1, 2, 5)):
        x0, y0 = 120 + 160 * k, 200
        cv2.rectangle(img, (x0, y0), (x0 + 60, y0 + 60), (235, 235, 235), -1)
        spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]}[value]
        for u, v in spots:
            cv2.circle(img, (x0 + 30 + 17 * u, y0 + 30 + 17 * v), 6, (25, 25, 25), -1, cv2.LINE_AA)
    read_pips(img)

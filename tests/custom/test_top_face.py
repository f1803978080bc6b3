"""A die seen from one side is outlined with its side: its patch is cut down to its top face
(_top_face: a straight line of changing colour along a whole edge parts the side from the top), so
it matches the examples of its face whichever side shows. A die seen from above, or a symbol with
straight edges, keeps its whole patch."""

import cv2
import numpy as np
import pytest

from vision import custom

BODY = (70, 120, 200)  # BGR, an orange die
SIDE = (45, 80, 140)   # ... its side, in shade
TABLE = (60, 60, 60)


def _die(side_px: int, bar: bool = False, wide: bool = False, outlined: bool = False,
         bare: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A picture of a die whose top face is 100 pixels square, with ``side_px`` of its side showing
    below it: (picture, outline with the side, outline of the top face alone)."""
    img = np.full((320, 320, 3), TABLE, np.uint8)
    rng = np.random.default_rng(3)
    img = np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)
    x0, y0 = 110, 90
    cv2.rectangle(img, (x0, y0), (x0 + 99, y0 + 99), BODY, -1)
    if side_px:
        cv2.rectangle(img, (x0, y0 + 100), (x0 + 99, y0 + 99 + side_px), SIDE, -1)
        cv2.circle(img, (x0 + 50, y0 + 100 + side_px // 2), max(3, side_px // 4), (20, 20, 20), -1)  # the side's symbol
    if not bare:  # the top's symbol: a triangle and a dot (not symmetric under any turn)
        cv2.fillPoly(img, [np.array([[x0 + 30, y0 + 70], [x0 + 50, y0 + 25], [x0 + 70, y0 + 70]], np.int32)],
                     (20, 20, 20))
        cv2.circle(img, (x0 + 78, y0 + 30), 7, (20, 20, 20), -1)
    if bar:  # a bar along the top of the face, a straight edge (but not along the whole edge)
        cv2.rectangle(img, (x0 + 30, y0 + 12), (x0 + 65, y0 + 18), (20, 20, 20), -1)
    if wide:  # a wide triangle whose base runs along nearly the whole bottom edge, a little in
        cv2.fillPoly(img, [np.array([[x0 + 8, y0 + 84], [x0 + 50, y0 + 40], [x0 + 92, y0 + 84]], np.int32)],
                     (20, 20, 20))
    if outlined:  # an outlined box whose lower stroke runs along nearly the whole bottom edge
        cv2.rectangle(img, (x0 + 8, y0 + 56), (x0 + 91, y0 + 86), (20, 20, 20), 4)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    whole = np.array([[x0, y0], [x0 + 99, y0], [x0 + 99, y0 + 99 + side_px], [x0, y0 + 99 + side_px]], np.int32)
    top = np.array([[x0, y0], [x0 + 99, y0], [x0 + 99, y0 + 99], [x0, y0 + 99]], np.int32)
    return img, whole.reshape(-1, 1, 2), top.reshape(-1, 1, 2)


def _like(a: np.ndarray, b: np.ndarray) -> float:
    da, db = custom.descriptors([a], "square")[0], custom.descriptors([b], "square")[0]
    return float(da @ db)


@pytest.mark.parametrize("side_px", [18, 28])
def test_a_die_outlined_with_its_side_gives_the_patch_of_its_top(side_px, monkeypatch):
    img, whole, top = _die(side_px)
    ref = custom.canonical_patch(img, top, "square")
    got = custom.canonical_patch(img, whole, "square")
    monkeypatch.setattr(custom, "TOP_FACE", False)
    uncut = custom.canonical_patch(img, whole, "square")
    assert _like(got, ref) > 0.9
    assert _like(got, ref) > _like(uncut, ref) + 0.1


def test_the_box_leaves_out_the_strip_of_the_side():
    img, whole, _ = _die(28)
    P = custom._patch_side("square")
    q = custom._quad(whole)
    M = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [P, 0], [P, P], [0, P]]))
    patch = cv2.warpPerspective(img, M, (P, P))
    x0, y0, x1, y1 = custom._top_face(patch)
    face_bottom = P * 100 / 128  # the top face ends 100 pixels down the 128 of the outline
    assert abs(y1 - face_bottom) <= 2, (x0, y0, x1, y1)
    assert (x0, y0) == (0, 0) and x1 == P


@pytest.mark.parametrize("bar,wide,outlined", [(False, False, False), (True, False, False), (False, True, False),
                                               (False, False, True)])
def test_a_die_seen_from_above_keeps_its_whole_patch(bar, wide, outlined):
    # (the base of a wide triangle is a straight line along an edge, too, with ink on its inner
    # side; the inner edge of an outlined box's stroke has the body on its inner side, and the body
    # again beyond the stroke)
    img, _, top = _die(0, bar=bar, wide=wide, outlined=outlined)
    P = custom._patch_side("square")
    q = custom._quad(top)
    M = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [P, 0], [P, P], [0, P]]))
    patch = cv2.warpPerspective(img, M, (P, P))
    assert custom._top_face(patch) == (0, 0, P, P)


def test_a_bare_top_face_keeps_its_side():
    # a blank seen from one side: its top alone would show nothing to match, its side does
    img, whole, _ = _die(28, bare=True)
    P = custom._patch_side("square")
    q = custom._quad(whole)
    M = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [P, 0], [P, P], [0, P]]))
    assert custom._top_face(cv2.warpPerspective(img, M, (P, P))) == (0, 0, P, P)

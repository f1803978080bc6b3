"""The pip reader on real dev photos and on synthetic hard cases (values asserted, not "it ran")."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from dev_sample import FULL_DEV, match, yolo_labels
from synth_pips import COLOURS, Die, Scene, render

from vision.pips import read_pips

CONTRACT_KEYS = {"x", "y", "w", "h", "set", "type", "face", "value", "confidence"}


def _read_truth(scene: Scene, seed: int = 0, tol: float = 0.5):
    img, truth = render(scene, seed)
    dice = read_pips(img)
    pairs, extra = match([(t["x"], t["y"], t["value"]) for t in truth], dice,
                         tol=max(t["size"] for t in truth) * tol if truth else 20)
    return dice, pairs, extra


# ---------------------------------------------------------------- real photos
def test_every_die_in_the_dev_sample_is_read(sample_images):
    for image in sample_images:
        img = cv2.imread(str(image))
        dice = read_pips(img)
        truth = yolo_labels(image)
        pairs, extra = match(truth, dice, tol=25)
        assert all(v == got for v, got in pairs), f"{image.name}: (label, read) = {pairs}"
        assert not extra, f"{image.name}: false dice {extra}"


def test_entries_follow_the_guide_contract(sample_images):
    dice = read_pips(cv2.imread(str(sample_images[0])))
    assert dice
    for d in dice:
        assert set(d) >= CONTRACT_KEYS
        assert d["set"] == "standard-d6" and d["type"] == "d6"
        assert d["face"] == str(d["value"]) and 1 <= d["value"] <= 6
        assert 0.0 < d["confidence"] <= 1.0
        assert all(isinstance(d[k], float) for k in ("x", "y", "w", "h"))


@pytest.mark.skipif(not FULL_DEV.is_dir(), reason="the shared dev set is not on this machine")
def test_valid_split_accuracy():
    """Held-out Valid split (not tuned on): at least 95 % of dice read right, no wrong-value spree."""
    correct = total = wrong = false = 0
    for image in sorted((FULL_DEV / "Valid").glob("*.jpg")):
        dice = read_pips(cv2.imread(str(image)))
        pairs, extra = match(yolo_labels(image), dice, tol=25)
        total += len(pairs)
        correct += sum(v == got for v, got in pairs)
        wrong += sum(isinstance(got, int) and v != got for v, got in pairs)
        false += len(extra)
    assert total > 200
    assert correct / (total + false) >= 0.95
    assert wrong <= 0.025 * total


def _read_sample(name: str) -> list[tuple[int, object]]:
    from dev_sample import SAMPLE

    image = SAMPLE / name
    pairs, extra = match(yolo_labels(image), read_pips(cv2.imread(str(image))), tol=25)
    assert not extra, f"{name}: false dice {extra}"
    return pairs


@pytest.mark.parametrize("name", ["two_24.jpg", "two_44.jpg"])
def test_oblique_two_is_not_read_as_a_one(name):
    """A 2 seen at an angle: its pips differ in roundness (one near the face edge), yet both
    sit on the same evenly lit face, while the side-face pips nearby are lit differently."""
    pairs = _read_sample(name)
    assert (2, 2) in pairs and all(v == got for v, got in pairs), pairs


@pytest.mark.parametrize("name", ["dice_8.jpg", "valid_3.jpg"])
def test_top_one_and_side_pip_are_not_a_two(name):
    """A top-face 1 above a side face: the side-face pip's body is lit differently."""
    pairs = _read_sample(name)
    assert (1, 1) in pairs and all(v == got for v, got in pairs), pairs


# ---------------------------------------------------------------- synthetic: colours and scenes
@pytest.mark.parametrize("colour", sorted(COLOURS))
def test_all_six_faces_in_every_colour(colour):
    """Dark pips on light dice and light pips on dark dice, all faces, rotated."""
    scene = Scene(background="grey",
                  dice=[Die(120 + v * 80, 200 + (v % 2) * 90, 50, v, angle=15 * v, colour=colour) for v in range(1, 7)])
    dice, pairs, extra = _read_truth(scene)
    assert pairs == [(v, v) for v, _ in pairs], pairs
    assert not extra


@pytest.mark.parametrize("background", ["grey", "wood", "text", "coins", "noise"])
def test_no_dice_no_detections(background):
    img, _ = render(Scene(background=background), seed=3)
    assert read_pips(img) == []


def test_dots_by_the_pictures_edge_are_print_too():
    """A dotted mat: amid the lattice the dots make no die, but by the picture's edge they
    made 2s (18 false dice on these 8 mats): the look-alike marks round such a "face" can only
    lie on the side the picture shows (the arcs asked for are that share of a full turn), and
    where the mat runs up to the edge its colour is not seen to end there (no outline). Then 5;
    with 1s amid a crowd of look-alikes dropped too, 2."""
    found = [read_pips(render(Scene(background="dots"), seed=seed)[0]) for seed in range(8)]
    assert sum(len(f) for f in found) <= 3, [len(f) for f in found]
    assert found[6] == [], found[6]  # four 2s by the right edge and the corners


def test_ones_amid_a_dense_lattice_of_dots_are_print():
    """A dense lattice of dots of two sizes (about 19 px apart): the big dots read as 1s (24
    false dice), each amid many more like it that no face explains. A 1 amid such a crowd,
    all round it, is print as a face of more pips is."""
    assert [d for d in read_pips(render(Scene(background="dots"), seed=32)[0]) if d["value"] is not None] == []


def test_dotted_mat_gives_few_false_dice():
    """A mat printed with pip-like dots: most lattices give nothing; never more than a few."""
    found = [read_pips(render(Scene(background="dots"), seed=seed)[0]) for seed in range(4)]
    assert sum(len(f) == 0 for f in found) >= 2
    assert max(len(f) for f in found) <= 4


@pytest.mark.xfail(reason="known weakness: some dot lattices still give false 1s and 2s", strict=False)
def test_dotted_mat_gives_no_dice():
    for seed in range(8):
        img, _ = render(Scene(background="dots"), seed=seed)
        assert read_pips(img) == [], seed


def test_blank_and_tiny_images():
    assert read_pips(np.zeros((480, 640, 3), np.uint8)) == []
    assert read_pips(np.full((480, 640, 3), 255, np.uint8)) == []
    assert read_pips(np.full((10, 10, 3), 128, np.uint8)) == []


@pytest.mark.parametrize("background", ["wood", "text", "coins"])
def test_dice_on_busy_backgrounds(background):
    scene = Scene(background=background,
                  dice=[Die(150 + v * 70, 240, 45, v, angle=20, colour="white" if v % 2 else "red")
                        for v in range(1, 7)])
    dice, pairs, extra = _read_truth(scene)
    assert pairs == [(v, v) for v in range(1, 7)]
    assert not extra


def test_glare_and_shadows():
    scene = Scene(dice=[Die(150 + v * 70, 240, 50, v, angle=10, colour="white") for v in range(1, 7)],
                  glare=True, shadow=True)
    dice, pairs, extra = _read_truth(scene)
    assert pairs == [(v, v) for v in range(1, 7)]
    assert not extra


def test_straight_down_camera_no_shadow():
    scene = Scene(dice=[Die(150 + v * 70, 240, 50, v, angle=10, colour="blue") for v in range(1, 7)],
                  tilt=0.0, shadow=False)
    _dice, pairs, extra = _read_truth(scene)
    assert pairs == [(v, v) for v in range(1, 7)]
    assert not extra


def test_cocked_die_is_not_guessed():
    """A die leaning on something shows a tilted top face: abstain, never a confident value."""
    scene = Scene(dice=[Die(150 + v * 70, 240, 50, v, angle=10, colour="white", cocked=(v == 4))
                        for v in range(1, 7)])
    dice, pairs, _extra = _read_truth(scene)
    got = dict(pairs)
    assert got[4] is None or got[4] == "missed"
    cocked = [d for d in dice if d["value"] is None]
    assert all(d["face"] is None and "cocked" in d["reason"] for d in cocked)
    assert [got[v] for v in (1, 2, 3, 5, 6)] == [1, 2, 3, 5, 6]


@pytest.mark.parametrize("tilt", [0.3, 0.45])
def test_side_faces_are_not_read(tilt):
    """Every die shows a side face with three pips towards the camera (a steeper view at 0.45);
    only top faces count."""
    scene = Scene(dice=[Die(130 + v * 75, 240, 55, v, angle=0, colour="ivory") for v in range(1, 7)], tilt=tilt)
    _dice, pairs, extra = _read_truth(scene)
    assert pairs == [(v, v) for v in range(1, 7)]
    assert not extra


def test_touching_dice_in_a_row_with_seams():
    scene = Scene(dice=[Die(150 + v * 58, 240, 55, v, angle=0, colour="white") for v in range(1, 7)])
    dice, pairs, extra = _read_truth(scene)
    assert pairs == [(v, v) for v in range(1, 7)]
    assert all(d["value"] is None for d in extra), extra  # at most an abstention on a side face


def test_small_dice_are_never_misread_much():
    """25 dice of 22 px: most are read and hardly any is given a wrong value."""
    dice = [Die(40 + (k % 6) * 100, 60 + (k // 6) * 90, 22, k % 6 + 1, angle=7 * k,
                colour=sorted(COLOURS)[k % 10], pip_ratio=0.22) for k in range(25)]
    _d, pairs, extra = _read_truth(Scene(dice=dice, tilt=0.1))
    correct = sum(v == got for v, got in pairs)
    wrong = sum(isinstance(got, int) and v != got for v, got in pairs)
    assert correct >= 15, pairs
    assert wrong <= 2, pairs
    assert len(extra) <= 1


def test_grey_and_16_bit_arrays_are_accepted():
    scene = Scene(dice=[Die(200 + v * 60, 240, 50, v, angle=5, colour="white") for v in (2, 3, 5)])
    img, _ = render(scene, 1)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert sorted(d["value"] for d in read_pips(grey)) == [2, 3, 5]
    deep = img.astype(np.uint16) * 257
    assert sorted(d["value"] for d in read_pips(deep)) == [2, 3, 5]
    bgra = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    assert sorted(d["value"] for d in read_pips(bgra)) == [2, 3, 5]


def test_large_image_coordinates_are_in_original_pixels():
    scene = Scene(width=640, height=480, dice=[Die(320, 240, 60, 5, colour="white")])
    img, _ = render(scene, 2)
    big = cv2.resize(img, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)  # 2560x1920
    (d,) = read_pips(big)
    assert d["value"] == 5
    assert abs(d["x"] - 1280) < 12 and abs(d["y"] - 960) < 12


def test_small_dice_in_a_large_photo_are_read_at_full_detail():
    """A phone photo (2560x1920) of 25 small dice (26 px): the reader retries at a finer scale."""
    dice = [Die(300 + (k % 5) * 400, 300 + (k // 5) * 350, 26, k % 6 + 1, angle=9 * k,
                colour=sorted(COLOURS)[k % 10]) for k in range(25)]
    img, truth = render(Scene(width=2560, height=1920, dice=dice, tilt=0.1), 3)
    pairs, extra = match([(t["x"], t["y"], t["value"]) for t in truth], read_pips(img), tol=15)
    assert sum(v == got for v, got in pairs) >= 20, pairs
    assert not any(isinstance(got, int) and v != got for v, got in pairs)
    assert not extra


@pytest.mark.parametrize(("name", "value"), [("six_29.jpg", 6), ("three_26.jpg", 3)])
def test_pip_flattened_near_the_face_edge_still_counts(name, value):
    """One pip of a 6 or a 3 looks flatter than its neighbours (perspective, near the face
    edge); on the same evenly lit face it still belongs to the face."""
    pairs = _read_sample(name)
    assert (value, value) in pairs and all(v == got for v, got in pairs), pairs


def test_dim_side_face_does_not_replace_the_top_face():
    """Two faint, round side-face pips beside a crisp 6: the 6 is the top face, no false 2."""
    pairs = _read_sample("six_47.jpg")
    assert (6, 6) in pairs and all(v == got for v, got in pairs), pairs


def test_trays_of_twenty_small_dice():
    """Trays of 20 dice of 18-26 px in all colours (packed 6s, tiny pips): the reader works on
    an enlarged copy; most dice are read and few are given a wrong value."""
    from synth_pips import random_scene

    correct = total = wrong = false = 0
    for seed in range(8):
        img, truth = render(random_scene(seed, n=20, size=(18.0, 26.0), background="grey"), seed)
        pairs, extra = match([(t["x"], t["y"], t["value"]) for t in truth], read_pips(img), tol=10)
        total += len(pairs)
        correct += sum(v == got for v, got in pairs)
        wrong += sum(isinstance(got, int) and v != got for v, got in pairs)
        false += len(extra)
    assert correct >= 0.88 * total, (correct, total)
    assert wrong <= 0.06 * total and false <= 2, (wrong, false)


def test_small_ones_and_twos_with_light_pips_on_coloured_dice():
    """1s and 2s of 18-22 px, white pips on red, green, blue and purple dice: the blur around a
    bright pip widens its blob, yet the die around a 1 is measured against the pip's core,
    a 2's two pips may differ in blob size, and a face shaded darker towards one pip is not
    a seam between two dice."""
    import random

    rng = random.Random(5)
    colours = ("red", "green", "blue", "purple")
    correct = total = wrong = 0
    for seed in range(4):
        dice = [Die(70 + 100 * (k % 6) + rng.uniform(-8, 8), 70 + 110 * (k // 6) + rng.uniform(-8, 8),
                    rng.uniform(18, 22), 1 + k % 2, angle=rng.uniform(0, 90), colour=colours[(k + seed) % 4])
                for k in range(24)]
        img, truth = render(Scene(dice=dice, background="grey", blur=1.0), seed)
        pairs, extra = match([(t["x"], t["y"], t["value"]) for t in truth], read_pips(img), tol=10)
        total += len(pairs) + len(extra)
        correct += sum(v == got for v, got in pairs)
        wrong += sum(isinstance(got, int) and v != got for v, got in pairs) + len(extra)
    # (before: 77 of 96 read)
    assert correct >= 0.92 * total and wrong <= 0.04 * total, (correct, wrong, total)


@pytest.mark.parametrize("name", ["six_50.jpg", "six_46.jpg"])
def test_six_with_a_lost_pip_is_not_given_a_wrong_value(name):
    """Blurred 6s whose pips are found only in part: the leftover pips make overlapping 2s
    and 3s. A wrong value is worse than an abstention, so the die is listed as doubtful."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / name
    pairs, _extra = match(yolo_labels(image), read_pips(cv2.imread(str(image))), tol=25)
    assert all(got in (v, None) for v, got in pairs), pairs
    assert (6, None) in pairs or (6, 6) in pairs, pairs


def test_six_with_lost_middle_pips_is_not_read_as_four():
    """Small 6s whose middle pips were not found: pip-dark marks between the corner pips make
    the 4 doubtful (synthetic trays of small dice)."""
    from synth_pips import random_scene

    fours_from_sixes = 0
    for seed in range(12):
        img, truth = render(random_scene(seed, n=20, size=(18.0, 26.0), background="grey"), seed)
        pairs, _extra = match([(t["x"], t["y"], t["value"]) for t in truth], read_pips(img), tol=10)
        fours_from_sixes += sum(v == 6 and got == 4 for v, got in pairs)
    assert fours_from_sixes <= 1


def test_six_with_one_column_lost_is_read_from_the_other():
    """A blurred 6 whose second column of pips was not found reads as a 3 in a line; three
    pip-dark spots one column-length beside it, on plain body, make it the 6."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / "six_45.jpg"
    dice = read_pips(cv2.imread(str(image)))
    pairs, _extra = match([(417.0, 146.0, 6)], dice, tol=25)
    assert pairs == [(6, 6)], pairs
    pairs, _extra = match(yolo_labels(image), dice, tol=25)
    assert all(got in (v, None, "missed") for v, got in pairs), pairs


@pytest.mark.parametrize(("name", "value"), [("four_4.jpg", 4), ("six_18.jpg", 6)])
def test_side_face_pips_lit_differently_do_not_join_the_top_face(name, value):
    """Large pips of a side face sit close to the top face's pips but their body is lit
    differently: they do not join the top face (a 4 plus two side pips is not a 6)."""
    pairs = _read_sample(name)
    assert (value, value) in pairs and all(v == got for v, got in pairs), pairs


def test_top_four_beside_side_pips_is_kept_whole():
    """A 4 linked with two side-face pips: of the ways to split the group into faces, the one
    that keeps the whole 4 wins over a 2 borrowing one of its pips."""
    pairs = _read_sample("four_15.jpg")
    assert (4, 4) in pairs and all(v == got for v, got in pairs), pairs


def test_packed_sixes_of_medium_dice_are_read():
    """6s with big pips nearly touching (dice of ~48 px, as in a phone photo of a crowded
    tray): the ring around a pip is cut by its neighbours, yet each pip is found."""
    dice = [Die(80 + k * 95, 240, 48, 6, angle=12 * k, colour=c, pip_ratio=0.22)
            for k, c in enumerate(("white", "black", "blue", "purple", "orange", "red"))]
    _d, pairs, extra = _read_truth(Scene(background="grey", dice=dice, tilt=0.1))
    assert sum(got == 6 for _v, got in pairs) >= 5, pairs
    assert not any(isinstance(got, int) and got != 6 for _v, got in pairs), pairs
    assert not extra


def test_packed_sixes_of_small_dice_are_read():
    """6s on dice of ~20 px, slightly blurred: each column of three pips merges into one bar
    (light pips on dark dice most of all); the bars are split back into pips."""
    colours = ("black", "blue", "purple", "red", "green", "white")
    dice = [Die(60 + (k % 6) * 100, 100 + (k // 6) * 140, 20, 6, angle=9 * k, colour=colours[k % 6],
                pip_ratio=0.21) for k in range(18)]
    _d, pairs, extra = _read_truth(Scene(background="grey", dice=dice, tilt=0.15, blur=0.7, jpeg=85), seed=3)
    assert sum(got == 6 for _v, got in pairs) >= 15, pairs
    assert sum(isinstance(got, int) and got != 6 for _v, got in pairs) <= 1, pairs
    assert not extra


def _tray_of_24(value: int, size: float, pip_ratio: float, blur: float, colours: tuple[str, ...]):
    """24 dice showing ``value``, ``size`` px, in 4 rows of 6, on a grey tray seen a little
    tilted: (label, read) pairs and extra readings."""
    dice = [Die(60 + (k % 6) * 100, 80 + (k // 6) * 110, size, value, angle=7 * k + 3, colour=colours[k % 6],
                pip_ratio=pip_ratio) for k in range(24)]
    _d, pairs, extra = _read_truth(Scene(background="grey", dice=dice, tilt=0.2, blur=blur, noise=2), seed=5)
    return pairs, extra


_SIX_COLOURS = ("white", "ivory", "black", "red", "blue", "green")


def test_small_threes_with_a_corner_ring_over_the_die_edge_are_read():
    """3s on dice of 19 px: a corner pip's ring reaches over the die's edge (darker than the
    middle pip's), so only the middle and the other corner link up, too close for a 2; the
    lone pip in line beyond them completes the 3 (18 of 24 were read before)."""
    pairs, extra = _tray_of_24(3, 19, 0.18, 0.0, ("white", "ivory", "black", "red", "blue", "yellow"))
    assert sum(got == 3 for _v, got in pairs) >= 22, pairs
    assert not any(isinstance(got, int) and got != 3 for _v, got in pairs), pairs
    assert not extra


def test_small_sixes_whose_columns_split_a_little_squeezed_are_read():
    """6s on blurred dice of 21 px: each column merges into one bar, split into three pieces;
    a column of round pips spaced a little apart measures a little squeezed, and its pieces
    must still match the other column's (21 of 24 were read before)."""
    pairs, extra = _tray_of_24(6, 21, 0.2, 0.7, _SIX_COLOURS)
    assert sum(got == 6 for _v, got in pairs) >= 23, pairs
    assert sum(isinstance(got, int) and got != 6 for _v, got in pairs) <= 1, pairs
    assert not extra


def test_small_sixes_whose_columns_merge_with_deep_necks_are_read():
    """6s on blurred dice of 19 px: a column of three pips merged into one bar pinched deeply
    between its pips fills its ellipse less than a pip does (0.7-0.78), and must still be split
    (22 of 24 were read before)."""
    pairs, extra = _tray_of_24(6, 19, 0.19, 0.7, _SIX_COLOURS)
    assert all(got == 6 for _v, got in pairs) and len(pairs) == 24, pairs
    assert not extra


def test_sixes_of_big_pips_on_small_dice_read_at_native_size_are_read():
    """6s of big pips (0.21 of the face) on dice of 24 px: the pips are not tiny, so the tray is
    read at its own size, where each column is one bar; its pieces count as pips there too
    (14 of 24 were read before)."""
    pairs, extra = _tray_of_24(6, 24, 0.21, 0.0, _SIX_COLOURS)
    assert sum(got == 6 for _v, got in pairs) >= 22, pairs
    assert not any(isinstance(got, int) and got != 6 for _v, got in pairs), pairs
    assert not extra


def test_sixes_of_pips_just_over_the_finest_size_range_are_read():
    """6s on blurred dice of 26 px, read enlarged: their round pips are just over the finest
    scale's size range, and the next scale merges each column into one blob; they stay as
    pips of last resort (one was read as a 2 before)."""
    pairs, extra = _tray_of_24(6, 26, 0.2, 0.7, _SIX_COLOURS)
    assert all(got == 6 for _v, got in pairs) and len(pairs) == 24, pairs
    assert not extra


def test_ellipsis_in_print_is_not_a_three():
    """Three touching dots in a line on plain paper: no die outline around them."""
    img = np.full((200, 300, 3), 150, np.uint8)
    for x in (140, 147, 154):
        cv2.rectangle(img, (x - 3, 97), (x + 3, 103), (20, 20, 20), -1)
    assert read_pips(img) == []


def test_lone_pip_with_a_twin_on_its_face_is_not_a_one():
    """A 2 whose face has no clear outline (white die on a pale table) falls apart into lone
    pips; a pip with a twin beside it on the same evenly lit face is not reported as a 1."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / "valid_46.jpg"
    pairs, _extra = match(yolo_labels(image), read_pips(cv2.imread(str(image))), tol=25)
    assert all(got in (v, None) for v, got in pairs), pairs


def test_low_camera_top_face_squeezed_above_its_side_face():
    """two_29: a camera low over the table sees the top face (a 2) squeezed flat above the
    front face (a 4) with rounder pips; the top face is the one read."""
    pairs = _read_sample("two_29.jpg")
    assert all(v == got for v, got in pairs), pairs


def test_keyboard_led_and_legend_are_not_a_two():
    """five_30: a laptop key's green LED and its grey legend look like two light pips on a dark
    die, but the two pips of a 2 are painted alike."""
    pairs = _read_sample("five_30.jpg")
    assert all(v == got for v, got in pairs), pairs


def test_motion_blurred_two_at_the_edge_is_read():
    """two_47: dice moving in the exposure smear their pips one way; a smeared 2 near the
    picture's bottom edge is not mistaken for a face cut by the edge."""
    pairs = _read_sample("two_47.jpg")
    assert all(v == got for v, got in pairs), pairs


@pytest.mark.parametrize(("name", "sixes"), [("six_46.jpg", 5), ("six_45.jpg", 4)])
def test_pips_stretched_by_motion_blur_are_found(name, sixes):
    """Dice moving in the exposure: each pip of a 6 is smeared a little past the finest pip
    size, while the coarser scale sees each column as one bar. The stretched pips still count
    (six_46's third die was an abstention, six_45's lower right die was missed)."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / name
    # (tol 32: six_45's label boxes take in the side faces, so their centres lie lower)
    pairs, extra = match(yolo_labels(image), read_pips(cv2.imread(str(image))), tol=32)
    assert not extra and all(got in (v, "missed") for v, got in pairs), (pairs, extra)
    assert pairs.count((6, 6)) >= sixes, pairs


@pytest.mark.parametrize(("name", "value"), [("dice_11.jpg", 1), ("four_11.jpg", 4), ("four_4.jpg", 4)])
def test_small_top_face_beside_a_side_face_row(name, value):
    """At half size (dice of ~28 px) the side face's pips crowd against the top face's:
    dice_11's top 1 and the nearest pip of the side face's 3 are not a 2 (that pip's
    look-alikes sit much nearer to it than the 1 does), four_11's 4 with the side's two flat
    pips is not a 6 (a barely fitting 6 whose pips are round and flat in two lots), and
    four_4's side faces, whose squeezed pips touch in bars, stay flatter than its top 4."""
    from dev_sample import SAMPLE

    image = SAMPLE / name
    img = cv2.resize(cv2.imread(str(image)), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    truth = [(x * 0.5, y * 0.5, v) for x, y, v in yolo_labels(image)]
    pairs, extra = match(truth, read_pips(img), tol=12)
    assert (value, value) in pairs and not extra, (pairs, extra)
    assert all(got in (v, "missed") for v, got in pairs), pairs


@pytest.mark.parametrize("change", ["dark", "phone", "half"])
def test_dim_phone_sized_and_small_pictures_read_as_well(change):
    """The same photos taken in a dim room (45 % exposure), by a phone (3x larger) or from
    twice as far (half size: dice of 20-40 px): the reader reads them about as well as the
    originals."""
    from dev_sample import SAMPLE

    right = total = 0
    for image in sorted(SAMPLE.glob("*.jpg")):
        img = cv2.imread(str(image))
        if change == "dark":
            img, k = (img.astype(np.float32) * 0.45).astype(np.uint8), 1
        elif change == "half":
            img, k = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), 0.5
        else:
            img, k = cv2.resize(img, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC), 3
        truth = [(x * k, y * k, v) for x, y, v in yolo_labels(image)]
        pairs, extra = match(truth, read_pips(img), tol=25 * k)
        total += len(pairs) + len(extra)
        right += sum(v == got for v, got in pairs)
    assert right >= 0.97 * total, (right, total)


def _finish_scene(finish: str, seed: int):
    """A tray of 12 dice (34-60 px, every colour) with a marbled or translucent finish."""
    rng = np.random.default_rng(seed)
    cols = sorted(COLOURS)
    dice = [Die(90 + 150 * (k % 4), 100 + 140 * (k // 4), float(rng.uniform(34, 60)), k % 6 + 1,
                angle=float(rng.uniform(0, 90)), colour=cols[(k + seed) % 10], finish=finish)
            for k in range(12)]
    return render(Scene(dice=dice, background=["grey", "wood"][seed % 2], tilt=float(rng.uniform(0, 0.3))), seed)


def _finish_tray(finish: str) -> dict:
    """12 trays of 12 dice (34-60 px, every colour) with a marbled or translucent finish."""
    c = {"right": 0, "wrong": 0, "abstain": 0, "missed": 0, "extra": 0, "total": 0}
    for seed in range(12):
        img, truth = _finish_scene(finish, seed)
        pairs, extra = match([(t["x"], t["y"], t["value"]) for t in truth], read_pips(img), tol=20)
        for v, got in pairs:
            c["right" if v == got else "missed" if got == "missed" else "abstain" if got is None else "wrong"] += 1
        c["extra"] += len(extra)
        c["total"] += len(pairs)
    return c


def test_marbled_dice_are_mostly_read():
    """Swirls of a second colour through the body cross the lines between pips and look like
    the seam between touching dice. Measured: 128 of 144 right, 4 wrong, 4 extra; now, a swirl
    of the die's own hue told from a seam between a 2's pips, 140 right, 2 wrong, 1 extra; with
    pips run into a swirl measured on their finer finds, 141, 1, 1: a guard against getting
    worse (the target is the xfail below)."""
    c = _finish_tray("marbled")
    assert c["right"] >= 0.93 * c["total"], c
    assert c["wrong"] <= 0.03 * c["total"] and c["extra"] <= 4, c


def test_a_swirl_of_the_dies_own_colour_between_a_twos_pips_is_no_seam():
    """A red marbled 2 of 53 px: a lighter red swirl crosses the line between its pips, a step
    that says "two dice touching here" in grey. In colour it is the die's own hue, where a seam
    shows the table or a shadow: it is a 2 (a 1 was read, the other pip left over)."""
    img, _ = _finish_scene("marbled", 0)
    near = [d for d in read_pips(img) if abs(d["x"] - 540) < 12 and abs(d["y"] - 240) < 12]
    assert [d["value"] for d in near] == [2], near


def test_a_low_camera_reads_the_upper_face_not_the_rounder_one():
    """A phone held low across the table (about 40 degrees above it) sees each die's top face
    flatter than the side face below it. Across 20 such trays the upper face is read: measured
    106 of 115 right, 6 extra (taking the rounder face for the top: 91 right, 26 extra)."""
    import synth_pips as sp
    right = total = extra = 0
    for seed in range(20):
        # (the top face squeezed to 0.66 of its width; the side face 0.75 high)
        _dice, pairs, ex = _read_truth(sp.random_scene(seed, tilt=0.75), seed)
        right += sum(v == got for v, got in pairs)
        total += len(pairs)
        extra += len(ex)
    assert right >= 0.85 * total and extra <= 0.1 * total, (right, total, extra)


def test_translucent_dice_are_mostly_read():
    """The ghost pips of a translucent die's bottom face run into its pips at the pip threshold
    (one lopsided blob); the pip is measured on its dark core then. Measured: 129 of 144 right,
    2 wrong, 6 extra (123, 5 and 8 before a 2's round twin pips could differ in body level;
    99 right, 17 extra before the core was used); now, pips run into ghosts or grain measured
    on their finer finds, 142 right, none wrong, 1 extra: a guard against getting worse (the
    target below is met)."""
    c = _finish_tray("translucent")
    assert c["right"] >= 0.93 * c["total"], c
    assert c["wrong"] <= 0.02 * c["total"] and c["extra"] <= 4, c


@pytest.mark.parametrize("finish", [
    pytest.param("marbled", marks=pytest.mark.xfail(
        reason="known weakness: marbled dice read at 98 % (141 of 144), one of them wrong", strict=False)),
    "translucent"])  # (142 of 144 right, none wrong)
def test_marbled_and_translucent_dice_read_as_plain_ones(finish):
    """Dice with a finish (ghost pips of the bottom face through a translucent body, swirls of
    a second colour through a marbled one) read as plain dice do: 97 % right, none wrong."""
    c = _finish_tray(finish)
    assert c["right"] >= 0.97 * c["total"] and c["wrong"] == 0, c


@pytest.mark.parametrize("size", [150, 200, 240])
def test_big_dice_up_to_200_px_and_beyond(size):
    """Dice filling much of a close-up: their pips are too big for the pip tests at full size;
    they are read on a half-size copy instead, every face and colour."""
    for value in range(1, 7):
        for colour in ("white", "red", "black"):
            img, _ = render(Scene(dice=[Die(320, 240, size, value, angle=20 * value, colour=colour)], tilt=0.15),
                            value)
            dice = read_pips(img)
            assert [d["value"] for d in dice] == [value], (size, value, colour, dice)


@pytest.mark.parametrize("size", [40, 60, 90])
def test_logo_on_the_one_face_reads_as_one(size):
    """Some dice carry a maker's logo instead of the 1 pip (a star, a ring, letters): beside dice
    read with pips, a mark alone in the middle of a face of their size and colour is a 1."""
    logos = [("white", "star"), ("red", "ring"), ("black", "letters"), ("ivory", "star")]
    dice = [Die(100 + 130 * k, 150, size, 1, angle=15 * k, colour=c, logo=logo) for k, (c, logo) in enumerate(logos)]
    dice += [Die(100 + 130 * k, 330, size, k + 2, angle=10 * k, colour=c)
             for k, (c, _l) in enumerate(logos)]
    _dice, pairs, extra = _read_truth(Scene(dice=dice, tilt=0.1), seed=1)
    assert len(pairs) == 8 and all(v == got for v, got in pairs), pairs
    assert all(d["value"] is None for d in extra), extra  # at most an abstention on a side face


def test_a_lone_logo_like_mark_without_dice_is_not_a_one():
    """Without dice read by their pips there is nothing to match a logo die against."""
    img, _ = render(Scene(dice=[Die(320, 240, 60, 1, colour="white", logo="star")], tilt=0.1), 1)
    assert read_pips(img) == []


@pytest.mark.parametrize("seed, x, y", [(7, 132, 138), (21, 416, 244)])
def test_translucent_two_with_an_uneven_body_is_a_two(seed, x, y):
    """Seen through a translucent die, the table and the die's own shadow make its body lighter
    at one pip of a 2 than at the other (a body-level step that otherwise says "a side face"):
    two round twin pips linked to nothing else are still a 2 (they were read as a 1)."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 12 and abs(d["y"] - y) < 12]
    assert [d["value"] for d in near] == [2], near


def test_side_faces_beside_a_blurred_top_face_are_not_read():
    """Slightly out of focus, small dice's top-face pips swell while the squeezed pips of the
    side faces below stay small: more than 1.8 times smaller, they were taken for another
    die's face and reported (abstentions beside the die). Much dimmer too, they are its sides."""
    import synth_pips as sp
    img, truth = render(sp.random_scene(22, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), 22)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    dice = read_pips(img)
    near = [d for d in dice if abs(d["x"] - 543) < 20 and abs(d["y"] - 330) < 20]
    assert [d["value"] for d in near] == [6], near  # a blue 6 with two side faces of three pips below
    assert len(dice) <= len(truth) + 3, (len(dice), len(truth))


@pytest.mark.parametrize("seed, x, y", [(2, 82, 275), (11, 179, 131), (25, 226, 403), (35, 114, 334), (8, 37, 137)])
def test_blurred_small_threes_whose_pips_link_to_none_are_read(seed, x, y):
    """Dice of about 20 px slightly out of focus: both corner pips' rings of a 3 run over the
    die's darker edge, so none of the three pips links to another (their body levels differ).
    Three like lone pips, evenly in line, are the 3 (they were missed)."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, n=20, size=(18.0, 26.0), background="grey"), seed)
    near = [d for d in read_pips(cv2.GaussianBlur(img, (0, 0), 0.8)) if abs(d["x"] - x) < 10 and abs(d["y"] - y) < 10]
    assert [d["value"] for d in near] == [3], near


@pytest.mark.parametrize("seed, kind, x, y", [(25, "felt", 417, 140), (19, "small", 450, 89)])
def test_six_split_into_a_four_and_a_leftover_row_pip_is_not_a_four(seed, kind, x, y):
    """A 6 one of whose pips is not found (run into the die's rim) splits into two rows (an
    oblong 4) and a leftover pip where the third row continues it: not a 4 (it was read as
    one), an abstention."""
    import synth_pips as sp
    kw = {"felt": {"n": 12, "size": (26.0, 60.0), "background": "felt"},
          "small": {"n": 20, "size": (18.0, 26.0), "background": "grey"}}[kind]
    img, _ = render(sp.random_scene(seed, **kw), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 15 and abs(d["y"] - y) < 15]
    assert [d["value"] for d in near] in ([None], [6]), near


@pytest.mark.parametrize("seed, width", [(8, 1920), (2, 1920), (3, 1280)])
def test_tray_of_small_dice_in_a_large_picture_is_read(seed, width):
    """A phone's picture of a tray of 20 dice of 18-26 px (the tray a small part of the
    picture): on the reader's 640 px copy the dice are 6-13 px, too small to show or looking
    like the pips of one die; read again larger, and at full size on a copy enlarged around
    the spots as a small picture's small dice are, they read as in a 640 px picture."""
    import synth_pips as sp
    img, truth = render(sp.random_scene(seed, n=20, size=(18.0, 26.0), background="grey"), seed)
    h = width * 3 // 4
    big = np.full((h, width, 3), np.median(img.reshape(-1, 3), axis=0).astype(np.uint8), np.uint8)
    y0, x0 = (h - 480) // 2, (width - 640) // 2
    big[y0:y0 + 480, x0:x0 + 640] = img
    dice = read_pips(big)
    pairs, extra = match([(t["x"] + x0, t["y"] + y0, t["value"]) for t in truth], dice, tol=12)
    assert sum(v == got for v, got in pairs) >= 19 and not extra, (pairs, extra)


def test_small_clean_one_is_not_rejected_for_its_pixel_outline():
    """A 1 of a small pip (radius about 2.5 px, pip 0.15 of a 31 px face): the outline of so
    few pixels is a staircase, its solidity about 0.86 even for a perfect disc; below 4 px the
    shape test allows that (it was missed), as it already allowed a lower circularity."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(26, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), 26)
    near = [d for d in read_pips(img) if abs(d["x"] - 303) < 10 and abs(d["y"] - 214) < 10]
    assert [d["value"] for d in near] == [1], near


def test_coarse_bar_piece_does_not_displace_the_finer_pip():
    """A green 5 of 34 px whose soft-edged white pips merge in pairs on the half-size copy: the
    bar is split into two pieces, each measured from the whole bar (half as big again as the
    pip). Kept over the finer scale's find of the same corner pip, the piece matched no other
    pip of the face, which read as "4 pips not on a square" and was dropped (the die was
    missed). The finer find wins now, as a stretched pip's does."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(23, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), 23)
    near = [d for d in read_pips(img) if abs(d["x"] - 128) < 10 and abs(d["y"] - 386) < 10]
    assert [d["value"] for d in near] == [5], near


def test_small_two_whose_pips_measure_unlike_in_roundness_is_a_two():
    """A yellow 2 of 19 px, read enlarged: its pips of about 4.7 px measure 0.78 and 0.95 round
    (one run a little into the face's shading), just over the 0.17 allowed, on one body level.
    At that size a blob's roundness is only good to about a pixel of its width: such twins
    may differ a little more (it was missed)."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(32, n=20, size=(18.0, 26.0), background="grey"), 32)
    near = [d for d in read_pips(img) if abs(d["x"] - 79) < 10 and abs(d["y"] - 218) < 10]
    assert [d["value"] for d in near] == [2], near


def test_translucent_one_with_ghosts_round_it_is_read():
    """A white translucent 1 of 31 px: three ghosts of its bottom face's pips show round the
    pip, and its body's grey spreads a little more than a 1's rings allow (56 against 46 grey
    levels, contrast 133), though no ring sample comes near the pip's darkness. With ghosts
    seen round it, the body may vary that much (it was missed)."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(39, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), 39)
    near = [d for d in read_pips(img) if abs(d["x"] - 470) < 10 and abs(d["y"] - 203) < 10]
    assert [d["value"] for d in near] == [1], near


def test_round_pip_just_over_the_finest_size_run_into_grain_is_kept():
    """A blue translucent 5 of 54 px on wood: one corner pip (radius about 6.6 px) is just over
    the finest scale's range, and at the next scale the wood grain showing through the body
    runs into it. Kept from the finest scale as a last resort (any other find wins), the
    face has its five pips (it was read as "4 pips not on a square" and dropped)."""
    img, _ = _finish_scene("translucent", 1)
    near = [d for d in read_pips(img) if abs(d["x"] - 390) < 10 and abs(d["y"] - 380) < 10]
    assert [d["value"] for d in near] == [5], near


def test_pip_run_into_grain_at_the_coarser_scale_is_measured_round():
    """A blue translucent 3 of 53 px on wood: at the coarser scale the grain through the body
    runs into two of its pips, found longer (8 px against the third's 6.3): not alike, none
    linked, and a lone 1 was read instead. The round finds of the finest scale, whose size is
    the long finds' width, are those pips."""
    img, _ = _finish_scene("translucent", 9)
    near = [d for d in read_pips(img) if abs(d["x"] - 390) < 10 and abs(d["y"] - 100) < 10]
    assert [d["value"] for d in near] == [3], near


def test_translucent_one_whose_near_ring_shows_ghosts_is_read():
    """A blue translucent 1 of 47 px on wood, a ghost of its bottom pips beside the pip: the
    grain and the ghosts through the body spread its nearest ring (60 grey levels, 47
    allowed) though nothing there comes near the pip's darkness. With a ghost seen beside it
    the nearest ring may vary as its wider rings may (a side face below was reported as a
    cocked die instead)."""
    img, _ = _finish_scene("translucent", 1)
    dice = read_pips(img)
    assert [d["value"] for d in dice if abs(d["x"] - 90) < 10 and abs(d["y"] - 100) < 10] == [1], dice
    assert not [d for d in dice if abs(d["x"] - 92) < 10 and abs(d["y"] - 129) < 10], dice


def test_pip_run_into_a_ghost_at_the_coarser_scale_gives_way_to_its_finer_find():
    """A white translucent 4 of 45 px on wood: on the half-size copy one corner pip runs into a
    ghost of the bottom face and is found half as big again (8.4 px against 5.8), like none of
    the other three; the finer find of it, dropped as the smaller duplicate, is like them. It
    is the pip: a 4 (a lone 1 was read, a wrong value)."""
    img, _ = _finish_scene("translucent", 5)
    near = [d for d in read_pips(img) if abs(d["x"] - 540) < 12 and abs(d["y"] - 100) < 12]
    assert [d["value"] for d in near] == [4], near


def test_two_pips_run_into_ghosts_alike_do_not_make_a_two():
    """A green translucent 4 of 56 px on wood: two opposite corner pips run into ghosts on the
    half-size copy, both found too big (8.6 and 8.0 px against 6.8) and alike each other: they
    made a 2 (a wrong value). Their finer finds are like the other two pips: a 4."""
    img, _ = _finish_scene("translucent", 9)
    near = [d for d in read_pips(img) if abs(d["x"] - 540) < 12 and abs(d["y"] - 100) < 12]
    assert [d["value"] for d in near] == [4], near


def test_one_die_with_two_candidate_tops_does_not_turn_the_camera():
    """Light falling off across a tray of 20 small dice (a lamp at one side): one die whose 4
    and 3 compete for its top face (sharing pips) gave two votes for "side faces lie to the
    right" and, with one more die, turned every die's choice of top face sideways (a 6 lost
    to its side face's row of three). Each side face votes once."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(33, n=20, size=(18.0, 26.0), background="grey"), 33)
    img = np.clip(img * np.linspace(1.1, 0.65, img.shape[1], dtype=np.float32)[None, :, None], 0, 255).astype(np.uint8)
    near = [d for d in read_pips(img) if abs(d["x"] - 448) < 10 and abs(d["y"] - 87) < 10]
    assert [d["value"] for d in near] == [6], near


def test_top_one_beside_a_side_two_is_not_paired_with_it():
    """dice_42: the top-face 1 of the die at (295, 97) and the front face's 2 below it make
    three alike pips linked in one group; the 1 with the 2's upper pip was read as a 2 (the
    2's lower pip left over, no 1). The split that leaves a clean 1 explains every pip."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / "dice_42.jpg"
    dice = read_pips(cv2.imread(str(image)))
    pairs, extra = match(yolo_labels(image), dice, tol=25)
    assert not extra and pairs == [(1, 1)] * 5, (pairs, extra)


def test_a_low_camera_keeps_a_top_one_above_its_rounder_side_face():
    """Low-camera tray 15: the die at (486, 281) shows a 1 on top, its pip crowded by the side
    face's 3 right below (so only a candidate 1), and that 3 is rounder than the 1. When the
    dice agree that the camera is low, the 1 above is the top face, not the 3 (which was read
    as a 6 below the die's place, the 1 missed)."""
    import synth_pips as sp

    img, truth = render(sp.random_scene(15, tilt=0.75), 15)
    dice = read_pips(img)
    near = [d for d in dice if abs(d["x"] - 486) < 40 and 250 < d["y"] < 360]
    assert [d["value"] for d in near] == [1], near
    assert abs(near[0]["y"] - 281) < 10, near


def test_a_low_camera_reads_the_upper_face_in_the_lower_half_too():
    """Low-camera tray 27: one die in the lower half, its top 3 squeezed to 0.73 right above
    its side face's rounder 3 (0.85). A side face above the top face is a sliver there (a
    camera looking down past the die), so the squeezed upper face is the top: it was the
    rounder side face, read as a 6 below the die's place."""
    import synth_pips as sp

    img, truth = render(sp.random_scene(27, tilt=0.75), 27)
    dice = read_pips(img)
    assert [(t["value"]) for t in truth] == [3]
    assert [d["value"] for d in dice] == [3], dice
    assert abs(dice[0]["x"] - truth[0]["x"]) < 8 and abs(dice[0]["y"] - truth[0]["y"]) < 8, (dice, truth)


def test_a_flat_top_one_above_its_front_face_when_the_camera_is_in_front():
    """dice_20: a low camera; the die far back at (85, 121) shows its top 1 squeezed flat
    (0.48 as high as wide) right above its front face's pip (0.9). The die at (358, 309), lower
    in the picture, shows its rounder top 1 above its flatter side 5: the camera is in front,
    side faces lie below their top faces, so the flat 1 above is the top face (it was missed
    and the front face's pip read as a 1 at (104, 146))."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / "dice_20.jpg"
    dice = read_pips(cv2.imread(str(image)))
    far = [d for d in dice if d["x"] < 130 and d["y"] < 135]
    assert [(round(d["x"]), round(d["y"]), d["value"]) for d in far] == [(84, 121, 1)], far
    pairs, _extra = match(yolo_labels(image), dice, tol=25)
    assert (1, 1) in pairs and pairs.count((1, 1)) >= 3, pairs  # (the two in front and this one)


def test_a_top_one_above_a_side_face_of_smaller_flatter_pips_is_kept():
    """Colour tray 38: the die at (229, 203) shows a 1 on top and two side faces' rows of 3
    below it, their pips foreshortened: flatter (0.55-0.61 against 0.89) and 1.5 times
    smaller. That is its side faces (the 1 was missed and the two rows read as two cocked
    dice), as a side face's pips may be up to _SIDE_RATIO smaller elsewhere."""
    import synth_pips as sp

    img, _truth = render(sp.random_scene(38, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), 38)
    near = [d for d in read_pips(img) if abs(d["x"] - 229) < 25 and 190 < d["y"] < 230]
    assert [(round(d["x"]), round(d["y"]), d["value"]) for d in near] == [(229, 203, 1)], near


def test_keyboard_legend_and_key_gap_are_not_a_two():
    """two_23: on a dark laptop keyboard a key's light legend and the lighter gap between keys
    look like the two light pips of a dark die; but the legend stands out 1.4 times more and
    is 1.2 times bigger, and a 2's pips are twins (it was a false 2 at (601, 53)). The three
    white dice's 2s, their pips smeared by motion, are still read."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / "two_23.jpg"
    dice = read_pips(cv2.imread(str(image)))
    pairs, extra = match(yolo_labels(image), dice, tol=25)
    assert pairs == [(2, 2)] * 3 and not extra, (pairs, extra)
    # light pips on dark dice (the picture inverted) are still twins: the 2s are read
    inv = read_pips(255 - cv2.imread(str(image)))
    pairs, _extra = match(yolo_labels(image), inv, tol=25)
    assert pairs == [(2, 2)] * 3, pairs


def test_dice_smeared_alike_are_not_cocked_beside_round_dice():
    """two_23's three dice are all smeared one way by the camera's shake (pips 0.53-0.59 as
    wide as long). Beside three photos of round dice in one 2x2 mosaic they are much flatter
    than the picture's typical die, but a cocked die is tilted on its own: dice side by side
    squeezed alike are not cocked (they were three abstentions)."""
    from dev_sample import SAMPLE

    ims = [cv2.imread(str(SAMPLE / n)) for n in ("hard/two_23.jpg", "valid_72.jpg", "five_27.jpg", "six_18.jpg")]
    mosaic = np.vstack([np.hstack(ims[:2]), np.hstack(ims[2:])])
    dice = [d for d in read_pips(mosaic) if d["x"] < 640 and d["y"] < 480]
    pairs, extra = match(yolo_labels(SAMPLE / "hard" / "two_23.jpg"), dice, tol=25)
    assert pairs == [(2, 2)] * 3 and not extra, (pairs, extra)


def test_a_one_cut_by_the_bottom_edge_is_read():
    """dice_37: the die at the bottom shows its 1 at (325, 463), 17 px above the picture's
    edge, which cuts off a third of its face: on the sides in the picture its die colour ends
    as a 1's does, evenly left and right (it was missed: the rays off the picture counted as
    a body that never ends)."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / "dice_37.jpg"
    dice = read_pips(cv2.imread(str(image)))
    pairs, extra = match(yolo_labels(image), dice, tol=25)
    assert pairs == [(1, 1)] * 3 and not extra, (pairs, extra)


@pytest.mark.parametrize("name", ["three_26.jpg", "three_41.jpg", "two_24.jpg", "four_15.jpg"])
def test_a_corner_pip_of_a_face_cut_by_the_edge_is_no_one(name):
    """Each 2, 3 or 4 with the picture cut just past (1.6 and 2.2 pip radii) its first pip from
    each side in turn: the pip left is a corner pip whose face runs off the picture; its face
    ends nearer on two sides than on the others, so it is not read as a cut 1 (_cut_one)."""
    from dev_sample import SAMPLE

    from vision import pips as P

    img = cv2.imread(str(SAMPLE / name))
    pips = P._all_pips(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))[0]
    faces = [d for d in read_pips(img) if d["value"] in (2, 3, 4)]
    assert len(faces) >= 2
    crops = ones = 0
    for d in faces:
        mine = [p for p in pips if abs(p.x - d["x"]) < 0.5 * d["w"] and abs(p.y - d["y"]) < 0.5 * d["w"]]
        assert len(mine) >= d["value"], (d, len(mine))
        for k in (1.6, 2.2):
            for axis, sign in ((0, 1), (0, -1), (1, 1), (1, -1)):
                # the first pip from this side (left, right, top, bottom), the rest cut off
                p = min(mine, key=lambda p: sign * (p.x, p.y)[axis])
                cut = int((p.x, p.y)[axis] + sign * k * p.a)
                keep = slice(0, cut) if sign > 0 else slice(cut, None)
                part = np.ascontiguousarray(img[:, keep] if axis == 0 else img[keep])
                off = [0, 0]
                off[axis] = 0 if sign > 0 else cut
                crops += 1
                ones += sum(r["value"] == 1 and math.hypot(r["x"] + off[0] - p.x, r["y"] + off[1] - p.y) < 0.5 * d["w"]
                            for r in read_pips(part))
    assert crops >= 16 and ones == 0, (crops, ones)


def test_flat_top_ones_of_touching_dice_are_no_two():
    """dice_20: a low camera in front of the dice sees a cluster of three small white dice far
    back, their top 1s squeezed flat (0.55 as high as wide). The 1s of the two dice side by side
    at (53, 147) and (74, 157), each as clean as a lone 1, are not one 2 of a die between them
    (a 2's corner pips sit near its face's edges); the 1 at (74, 157) sits right above its
    die's front face (a 4), the 1 beside it is squeezed alike and level with it, and the 2 on
    the right side face at (100, 169) is a side face of that die, not a die (it was read)."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / "dice_20.jpg"
    dice = read_pips(cv2.imread(str(image)))
    back = sorted((round(d["x"]), round(d["y"]), d["value"]) for d in dice if d["x"] < 130 and d["y"] < 200)
    assert back == [(53, 147, 1), (74, 157, 1), (84, 121, 1)], back
    pairs, extra = match(yolo_labels(image), dice, tol=25)
    assert pairs == [(1, 1)] * 5 and not extra, (pairs, extra)


# ---------------------------------------------------------------- motion blur
def _motion_blur(img: np.ndarray, length: float, degrees: float) -> np.ndarray:
    """The picture of a scene that moved ``length`` px along ``degrees`` in the exposure."""
    n = int(length) | 1
    k = np.zeros((n + 2, n + 2), np.float32)
    c = (n + 2) // 2
    dx, dy = 0.5 * length * np.cos(np.radians(degrees)), 0.5 * length * np.sin(np.radians(degrees))
    cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    return cv2.filter2D(img, -1, k / k.sum(), borderType=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize(("name", "x", "y", "value"), [("four_50.jpg", 260, 105, 4), ("six_44.jpg", 524, 344, 6)])
def test_motion_blurred_die_is_read_from_its_streaks(name, x, y, value):
    """A die that moved in the exposure: four_50's 4 shows four short parallel bars (each pip
    smeared), six_44's 6 two long beaded bars (each row of 3 smeared into one). No pip passes
    the pip tests; the streaks, one smear length for all, a pip per bead, make the face (both
    were missed). The other dice are read as before."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / name
    dice = read_pips(cv2.imread(str(image)))
    pairs, extra = match([(x, y, value)], dice, tol=25)
    assert pairs == [(value, value)], pairs
    pairs, extra = match(yolo_labels(image), dice, tol=25)
    assert all(v == got for v, got in pairs), pairs
    assert not extra, extra


def test_motion_blurred_six_with_wavy_streaks_is_read():
    """six_45's blurred 6 at (515, 228): a shaking die smeared each column into a wavy bar whose
    beads show in its width (necked between the pips) more than in its darkness: read as a 6
    (it was missed)."""
    from dev_sample import SAMPLE

    image = SAMPLE / "hard" / "six_45.jpg"
    pairs, _extra = match([(515.0, 228.0, 6)], read_pips(cv2.imread(str(image))), tol=25)
    assert pairs == [(6, 6)], pairs


def test_motion_blurred_synthetic_dice_are_read_without_new_mistakes():
    """Trays of a 4, a 6 and a 5 on dice of 56 px in six colours (dark pips on light dice and
    light on dark), smeared by a quarter and by a third of a die along 0, 35, 90 and 130
    degrees: 144 dice. More are read from their streaks (before: 46), no false die is added
    and no more are misread (the 8 misread ones are pips smeared little enough to pass the
    pip tests, read as a face of fewer pips before any streak is looked at)."""
    right = wrong = false = 0
    for colour in ("white", "black", "red", "yellow", "blue", "ivory"):
        for deg in (0, 35, 90, 130):
            for frac in (0.25, 0.35):
                dice = [Die(140 + 180 * k, 240, 56, v, angle=a, colour=colour)
                        for k, (v, a) in enumerate(((4, 8), (6, 0), (5, 20)))]
                img, truth = render(Scene(dice=dice, tilt=0.0, shadow=False, noise=2.0), 3)
                img = _motion_blur(img, frac * 56, deg)
                pairs, extra = match([(t["x"], t["y"], t["value"]) for t in truth], read_pips(img), tol=28)
                right += sum(v == got for v, got in pairs)
                wrong += sum(isinstance(got, int) and v != got for v, got in pairs)
                false += len(extra)
    assert false == 0 and wrong <= 8, (false, wrong)
    assert right >= 52, right


@pytest.mark.parametrize("seed, x, y", [(6, 161, 84), (7, 489, 288), (15, 131, 264), (36, 329, 298)])
def test_low_camera_sixes_whose_flat_pips_touch_are_read(seed, x, y):
    """A low camera (about 40 degrees above the table) squeezes a 6's top face so much that
    the pips of a column touch: split back from the bar they make, the pieces are flat pips
    (wider across the column than along it, level), like the 6's other pips, not round ones
    along the column; the 6 was missed, read as a 2 or left doubtful."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, tilt=0.75), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 15 and abs(d["y"] - y) < 15]
    assert [d["value"] for d in near] == [6], near


@pytest.mark.parametrize("seed, x, y, value", [(136, 475, 52, 6), (136, 353, 67, 6), (136, 405, 60, 3),
                                               (117, 125, 230, 6), (67, 128, 309, 4)])
def test_low_camera_tops_above_round_side_faces_of_turned_dice(seed, x, y, value):
    """A die turned about 45 degrees shows a low camera its side face squeezed across about as
    much as down: its pips look round, yet it is the side face below the flat top face. Such
    dice tell a low camera too (the side face was read instead of the top face)."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, tilt=0.75), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 12 and abs(d["y"] - y) < 12]
    assert [d["value"] for d in near] == [value], near


@pytest.mark.parametrize("seed, x, y, value", [(170, 151, 276, 1), (122, 534, 319, 1), (163, 498, 57, 2),
                                               (80, 334, 262, 4)])
def test_low_camera_lit_flat_top_above_a_much_rounder_side_face(seed, x, y, value):
    """A lone die (no other die tells a low camera) turned about 45 degrees: a low camera sees
    its top face flat, with level pips, above a side face whose pips look much rounder. The
    top face is the one the light from above falls on: its pips stand out more. (The side
    face below was read instead.)"""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, tilt=0.75), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 12 and abs(d["y"] - y) < 12]
    assert [d["value"] for d in near] == [value], near


@pytest.mark.parametrize("seed, x, y, value", [(71, 73, 37, 6), (71, 230, 376, 5), (71, 301, 417, 6),
                                               (87, 39, 424, 6), (20, 543, 131, 1)])
def test_small_dice_side_face_of_tiny_round_pips_is_not_the_top(seed, x, y, value):
    """Dice of about 20 px: the pips of a side face, a few pixels big, come out round (as
    round as the top face's or rounder), so roundness does not tell the top face; the side
    face's pips are clearly smaller (or a little smaller and dimmer) and lie just below the
    top face's. (The side face, a 3, was read instead.)"""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, n=20, size=(18.0, 26.0), background="grey"), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 8 and abs(d["y"] - y) < 8]
    assert [d["value"] for d in near] == [value], near


@pytest.mark.parametrize("seed, width", [(8, 4000), (1, 4000), (17, 3264)])
def test_tray_of_small_dice_in_a_12_mp_phone_picture_is_read(seed, width):
    """A 12 MP phone picture of a tray of 20 dice of 18-26 px: on the 640 and 1280 px copies
    the dice are 3-8 px, no pips show and nothing (or a speck taken for a die) is read there;
    larger copies are read then, up to the picture's own size (all 20 were missed)."""
    import synth_pips as sp
    img, truth = render(sp.random_scene(seed, n=20, size=(18.0, 26.0), background="grey"), seed)
    h = width * 3 // 4
    big = np.full((h, width, 3), np.median(img.reshape(-1, 3), axis=0).astype(np.uint8), np.uint8)
    y0, x0 = (h - 480) // 2, (width - 640) // 2
    big[y0:y0 + 480, x0:x0 + 640] = img
    pairs, extra = match([(t["x"] + x0, t["y"] + y0, t["value"]) for t in truth], read_pips(big), tol=12)
    assert sum(v == got for v, got in pairs) >= 19 and not extra, (pairs, extra)


@pytest.mark.parametrize("seed, x, y, value", [(13, 333, 113, 4), (14, 423, 241, 5), (37, 389, 203, 4),
                                               (11, 571, 52, 4), (11, 110, 339, 3)])
def test_light_pips_on_a_die_lighter_than_its_dark_felt_tray_are_found(seed, x, y, value):
    """Green and red dice with white pips on a dark felt tray: at the coarse scales the block's
    mean is mostly the dark felt, so the die's whole body is lighter than the mean and its pips
    merged with it into one die-sized blob (only a pip or two was found: missed dice). Inside
    such a blob the pixels clearly lighter than its own body are the pips."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, n=12, size=(26.0, 60.0), background="felt"), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 15 and abs(d["y"] - y) < 15]
    assert [d["value"] for d in near] == [value], near


@pytest.mark.parametrize("seed, x, y", [(0, 506, 146), (9, 76, 165), (36, 98, 48)])
def test_translucent_two_whose_pips_fail_the_twin_tests_is_not_a_one(seed, x, y):
    """A translucent die's 2 whose pips differ in body level and shape (a ghost of the bottom
    face's pips run into one, the tray showing through): left alone, one of them was kept as a
    top 1. A round loose pip of its size at a 2's diagonal, in the face's opposite corner, on
    plain body of the same paint, makes it a 2."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 14 and abs(d["y"] - y) < 14]
    assert [d["value"] for d in near] == [2], near


@pytest.mark.parametrize("name, x, y", [("dice_12", 208, 74), ("dice_46", 188, 48), ("dice_8", 198, 138)])
def test_top_one_and_a_loose_side_pip_below_it_are_not_a_two(name, x, y):
    """Half-size dev photos: a top 1 above a side face, one of whose round pips links to no
    other, is not a translucent die's 2 (beyond the 1 its top face goes on: not a corner; read
    dice_12 as 2 without _at_corners; all three without the "grouped" rule)."""
    from dev_sample import FULL_DEV

    paths = list(FULL_DEV.rglob(f"{name}.jpg"))
    if not paths:
        pytest.skip(f"{name}: the full dev set is not here")
    img = cv2.imread(str(paths[0]))
    img = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 20 and abs(d["y"] - y) < 20]
    assert [d["value"] for d in near] == [1], near


@pytest.mark.parametrize("seed, x, y", [(39, 348, 202), (61, 54, 199), (94, 56, 54)])
def test_translucent_one_ringed_by_faint_ghosts_is_read(seed, x, y):
    """A translucent die's 1 with its bottom face's six ghost pips around it, too faint to be
    found as pips: they seemed to end the die's colour right beside the 1, which was dropped
    (missed dice). Read past such faint spots, its die colour ends all round as a 1's does."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), seed)
    near = [d for d in read_pips(img) if abs(d["x"] - x) < 12 and abs(d["y"] - y) < 12]
    assert [d["value"] for d in near] == [1], near


def test_a_pip_like_mark_in_embossed_print_is_not_a_ghosted_one():
    """four_8: a dark hole beside embossed letters on a USB plug passes as a lone pip whose
    colour ends near it; the letters are marks as strong as the pip, not faint ghosts: no 1."""
    from dev_sample import FULL_DEV

    path = FULL_DEV / "Train" / "four_8.jpg"
    if not path.exists():
        pytest.skip("the full dev set is not here")
    near = [d for d in read_pips(cv2.imread(str(path))) if abs(d["x"] - 43) < 15 and abs(d["y"] - 147) < 15]
    assert near == [], near


@pytest.mark.parametrize("seed, x, y, top", [(22, 330, 201, (318, 190)), (22, 269, 402, (277, 391)),
                                             (20, 299, 65, (309, 55))])
def test_side_face_abstention_below_a_read_top_face_is_dropped(seed, x, y, top):
    """Translucent dice' side faces whose squeezed pips fail to read ("top face tilted",
    "doubtful: pip-like marks") were reported as abstentions beside the die read (false dice);
    right below a face read, with flatter pips, they are its side faces."""
    import synth_pips as sp
    img, _ = render(sp.random_scene(seed, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), seed)
    dice = read_pips(img)
    assert not [d for d in dice if abs(d["x"] - x) < 7 and abs(d["y"] - y) < 7], dice
    assert [d for d in dice if abs(d["x"] - top[0]) < 14 and abs(d["y"] - top[1]) < 14 and d["value"]]


def test_a_printed_page_gives_few_false_dice():
    """A page of print (a rulebook, a score sheet) fills the picture: the dots of i's, colons,
    full stops and round letters make 2s, 3s and 6s. Amid look-alike marks that no face
    explains, with no outline of their own, they are dropped. (Before: 97 detections, 51 of
    them with a value, on these ten pages; then 53 and 29; with the picture's edge allowed
    for, 39 and 17; now, a face doubted for marks on it dropped amid fewer look-alikes, 23
    and 17.)"""
    found = [read_pips(render(Scene(background="fullpage"), seed=seed)[0]) for seed in range(10)]
    assert sum(len(f) for f in found) <= 28, [len(f) for f in found]
    assert sum(d["value"] is not None for f in found for d in f) <= 20


@pytest.mark.xfail(reason="known weakness: some words on a printed page still read as dice", strict=False)
def test_a_printed_page_gives_no_dice():
    for seed in range(10):
        assert read_pips(render(Scene(background="fullpage"), seed=seed)[0]) == [], seed


def test_dice_on_and_beside_a_printed_page_are_read():
    """Dice on a table where a printed sheet lies, some of them on the sheet: all read; fewer
    false dice from the print (20 before on these four scenes, then 14, now 13)."""
    import synth_pips as sp
    extras = 0
    for seed in range(4):
        dice, pairs, extra = _read_truth(sp.random_scene(seed, n=8, background="page"), seed)
        assert pairs == [(v, v) for v, _ in pairs] and len(pairs) == 8, (seed, pairs)
        extras += len(extra)
    assert extras <= 15


def test_a_face_in_print_has_no_outline_a_die_has_one():
    """_exits_for_good: the body colour of a die's top face ends for good (side faces, tray)
    in most directions; round a "face" of two dots on a page the paper goes on."""
    from vision.pips import Pip, _exits_for_good, _Face, _Lab

    def face(img, cx, cy, s):
        r = 0.1 * s
        pips = [Pip(cx - 0.25 * s, cy - 0.25 * s, r, r, 0.0, 150, 220, 70, 1),
                Pip(cx + 0.25 * s, cy + 0.25 * s, r, r, 0.0, 150, 220, 70, 1)]
        for p in pips:
            cv2.circle(img, (int(p.x), int(p.y)), int(r), (40, 40, 40), -1, cv2.LINE_AA)
        return _Face([0, 1], pips, cx, cy, s / 7.5, 1.0, True, 1.0, "", 1)

    tray = np.full((200, 200, 3), 110, np.uint8)
    cv2.rectangle(tray, (70, 70), (130, 130), (225, 225, 225), -1)
    die = face(tray, 100, 100, 60)
    paper = np.full((200, 200, 3), 230, np.uint8)
    cv2.putText(paper, "ab: cd", (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (40, 40, 40), 2, cv2.LINE_AA)
    dots = face(paper, 100, 140, 40)
    assert _exits_for_good(_Lab(tray), die) >= 14
    assert _exits_for_good(_Lab(paper), dots) <= 2

"""Cases from stand-in sets the reader was not tuned on (bench/other_hand.py and bench/third_hand.py,
seeds 7 and 8, then 9 and 10; the reader had been measured on seeds 1 to 6, then 1 to 8 only).

- Tokens of the table's very colour (navy tokens on a navy cloth) show nothing of themselves but
  their printed symbol: circles of the sure tokens' size centred on symbols read them. They also
  read a token of a near colour whose outline and rim are lost.
- A cloth printed with dots, each read weakly as a face, must not set the size of the objects:
  the size is the strongly sure readings'.
- In warm dim light a mint die on beige paper takes about the paper's colour: the search for dice
  of the table's colour judges colours in the picture's light as the sure dice tell it.
- In dim light a white die's shared face (a face name of two types) is read as the darker type's:
  judging the light of the picture must not keep it out for being lit unlike the type it was
  first read as.
- A circle that takes in a token's shadow reads it off-centre and shrunk (a ring as a pentagon):
  it does not take the place of a reading of the token's own size.
- A die found by no outline (a purple die on a cloth dotted pink) is read from the square around
  its symbol, where that reading is plain.

Seeds 11 to 14 (drawn after the reader was measured on seeds 1 to 10):

- Taught from whole photos, a grey die on a grey or white table was outlined with the table (the
  whole picture, or a pool of glare): an outline far bigger than the other pictures' objects is
  not the object, the one of their size and of the type's colour is.
- The squares of a checkered cloth are not dice: the patch around a square turns up again a
  square's width away, a die's does not.
- A token read by its symbol, plainly like its face, counts a little further from its type's
  colour (red tokens in a wood table's light).
- Taught from photos on a checkered cloth whose squares are a die's size and colour, a square is
  not the die: a candidate whose patch turns up again around it is a tile of the cloth.

Seeds 15 and 16 (drawn after the reader was measured on seeds 1 to 14):

- A dark token in a pool of glare looks pale: a circle of the other tokens' size there counts,
  whatever its colour, when its symbol is plainly one face's.

Seeds 17 and 18 (drawn after the reader was measured on seeds 1 to 16):

- A red token on brown wood has about the wood's lightness: in grey its rim shows no circle, in
  likeness to the tokens' colour it does.
- A token whose rim is lost in the table is outlined by its inner disc, and read wrongly from it:
  the circle of the other tokens' size around it reads it.

Misses of earlier seeds, mended after seeds 19 and 20 were measured (the commonest miss left in
dice: grey dice on grey or lilac cloths, seeds 7, 11 and 14):

- A grey die with faint edges is outlined with its shadow, too big and off its middle, and read
  unsure: the square of the strongly sure dice's size around its outline's middle reads it.

Seeds 19 and 20 (drawn after the reader was measured on seeds 1 to 18):

- Dark tokens on a dark cloth printed with small light dots: the dots are taken out (a median
  filter) before circles are looked for.
- A lone die on paper of its colour, read unsure from an outline with a strip of the paper: with
  nothing sure, the square of the taught photos' die size around that outline reads it.

Seeds 21 and 22 (drawn after the reader was measured on seeds 1 to 20):

- Light symbols printed on black tokens are one colour in every example, as the tokens are, and
  better shaped: the tokens' colour is voted on without the outlines inside a round one.
- Black tokens on a near-black cloth show neither rims nor a colour of their own: with nothing
  strongly sure, circles around the symbols are read at a few token sizes, and the size that
  reads best counts. Sure ones read from their symbols are smaller than the tokens: circles
  around the other symbols are read wider too. A symbol joined to a light line of the table is
  found from its pieces; a reading barely ahead of the next face, or of a piece of a token,
  does not keep the symbol search away.

Seeds 23 and 24 (drawn after the reader was measured on seeds 1 to 22):

- Patches of a cloth of dashes read weakly as a face, at more than twice the area of the
  strongly sure tokens, are not tokens.
- On a cloth of dashes the bits of dashes are too many to look for symbols among: the blobs of a
  symbol's area are few enough.

Seeds 25 and 26 (drawn after the reader was measured on seeds 1 to 24):

- Small pale tokens in whole photos on pale tables: in a picture the size of the photos where
  small tokens were found, the token is not the whole picture.
- A rimmed token outlined by its inner disc shows its symbol too big: a sure reading less like
  its face than the examples typically are is read again from a wider circle.

Seeds 27 and 28 (drawn after the reader was measured on seeds 1 to 26):

- Small dark tokens on dark wood, found only by their symbols, are read at their own size: the
  sizes guessed for a set taught from crops start small enough.
- A symbol off its token's middle is read from a circle beside it.

Seeds 29 and 30 (drawn after the reader was measured on seeds 1 to 28):

- A die of the grid cloth's colour whose black symbol joins its dark side and the grid's lines
  is found from the pieces of that blob.
- A light blue die in glare is washed nearly white: where its symbol is plainly one face's and
  its colour plainly nearest that face's type, it counts a little further from the type's colour.
- The dot inside a ring symbol, read as a face of one dot, is far smaller than the dice: it does
  not keep the square search's reading of its die away.
- Under a blue cast that the other dice show, an orange die keeps its hue: a die plainly of its
  type as it is does not become an abstention in the picture's light.

Seeds 31 and 32 (drawn after the reader was measured on seeds 1 to 30):

- A sharp token outlined with its side (a light crescent past its rim), taught from blurred
  examples and read barely ahead of another face, is decided again from three views: as read,
  shrunk and blurred.

Seeds 33 and 34 (drawn after the reader was measured on seeds 1 to 32):

- A token outlined with its side or shadow past its rim reads its symbol too small, and as another
  face, less like it than the examples are like each other: it is read again from a narrower
  circle too (as from a wider one), and the best reading counts.
"""

from __future__ import annotations

import glob

import cv2
import numpy as np
import pytest



def _scene(stand_in, hand: str, seed: int, kind: str, examples: str, scene: int) -> tuple[list[dict], list[dict]]:
    """A stand-in set with its scenes up to ``scene``, learned (``stand_in``); that scene read:
    (its truth, the readings)."""
    if hand == "other_hand":
        from bench import other_hand

        if not glob.glob(other_hand.PHOTOS):
            # without them its tables are gradients: other scenes than the ones described here
            pytest.skip("bench/other_hand.py draws its tables on the real photos of shared/datasets/dice-dev, "
                        "not beside this clone")
    reader, scenes, truth = stand_in(hand, seed, kind, examples, scene + 1)
    name = f"{scene:03d}.png"
    return truth[name], reader.read(cv2.imread(str(scenes / name)))[kind]


def _at(truth: list[dict], *places: tuple[float, float]) -> list[dict]:
    """The objects of ``truth`` lying at ``places`` (x, y), within 5 pixels."""
    return [t for t in truth if any(np.hypot(t["x"] - x, t["y"] - y) < 5 for x, y in places)]


def _all_read(stand_in, hand: str, seed: int, kind: str, examples: str, scene: int, count: int) -> None:
    """The scene holds ``count`` objects, and each is read right, and nothing else is read."""
    want, got = _scene(stand_in, hand, seed, kind, examples, scene)
    assert len(want) == count
    assert len(_right(want, got)) == len(want) == len(got), (want, got)


def _read_there(stand_in, hand: str, seed: int, kind: str, examples: str, scene: int,
                places: list[tuple[float, float]], faces: list[str]) -> tuple[list[dict], list[dict]]:
    """The objects of the scene at ``places`` have ``faces`` (in any order), and each is read
    right: (the scene's truth, the readings)."""
    want, got = _scene(stand_in, hand, seed, kind, examples, scene)
    there = _at(want, *places)
    assert sorted(t["face"] for t in there) == sorted(faces)
    assert _right(there, got) == there, got
    return want, got


def _right(truth: list[dict], got: list[dict]) -> list[dict]:
    return [t for t in truth if any((d.get("type", "token"), d["face"]) == (t["type"], t["face"])
                                    and np.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.5 * t["w"] for d in got)]


def test_tokens_of_the_cloths_colour_are_read_by_their_symbols(stand_in):
    # third-hand seed 7 tokens, scene 024: 12 navy tokens on a navy cloth. Their colour and their
    # rims are lost in the cloth; 9 were read before the symbol search, the other three missed
    want, got = _scene(stand_in, "third_hand", 7, "tokens", "crops", 24)
    assert len(want) == 12
    assert len(_right(want, got)) == 12 and len(got) == 12, (want, got)


def test_a_token_lost_in_a_cloth_of_a_near_colour_is_read_by_its_symbol(stand_in):
    # other-hand seed 7 tokens taught from photos, scene 020: red tokens on a dark red cloth. The
    # "tri" token at (296, 94) was found by no outline and no circle (its rim too faint); the
    # circle around its symbol reads it 0.97 like the tri, of the tokens' colour
    want, got = _scene(stand_in, "other_hand", 7, "tokens", "photos", 20)
    tri = _at(want, (296, 94))
    assert [t["face"] for t in tri] == ["tri"]
    assert _right(tri, got) == tri, got
    # nothing is read twice or where there is no token
    assert len(got) <= len(want) and len(_right(want, got)) == len(got), got


@pytest.mark.long
def test_a_dotted_cloth_does_not_set_the_size_of_the_dice(stand_in):
    # other-hand seed 8 dice taught from photos, scene 028: three dice on a purple cloth with a grid
    # of green dots. 11 dots were read for sure but weakly (0.51-0.55 like the slate hex; the
    # examples match each other 0.74 or more); their median size made the three dice (twelve times
    # their area) too big to keep: 3 dice missed, 17 dots reported
    want, got = _scene(stand_in, "other_hand", 8, "dice", "photos", 28)
    assert len(want) == 3
    assert len(_right(want, got)) == 3 and len(got) == 3, (want, got)


@pytest.mark.long
def test_a_white_die_in_dim_light_is_not_read_as_the_purple_die_of_its_face(stand_in):
    # other-hand seed 7 dice taught from photos, scene 010: 12 dice in dim light; two white dice
    # with the "skull" face (a face of the white and the purple type) read as purple: all dice are
    # darker than taught, the white ones much darker than white, so they came nearer purple. The
    # light judged from the sure dice was not applied to them, for being lit unlike purple dice
    want, got = _scene(stand_in, "other_hand", 7, "dice", "photos", 10)
    assert sorted(t["type"] for t in want if t["face"] == "skull") == ["bone", "bone"]
    assert len(_right(want, got)) == len(want) == len(got), (want, got)


@pytest.mark.long
def test_a_die_the_colour_of_the_paper_in_warm_dim_light_is_found(stand_in):
    # third-hand seed 7 dice taught from photos, scene 013: a mint die at (255, 422) on beige paper
    # ruled with dashes. The light (warmer and dimmer than taught) takes mint near the paper's
    # colour: the colour masks hold the paper with it, its edges of lightness are weak, and as it
    # is the table is not near mint. In the light the sure dice tell, it is: the search for dice of
    # the table's colour finds it
    want, got = _scene(stand_in, "third_hand", 7, "dice", "photos", 13)
    die = _at(want, (255, 422))
    assert [(t["type"], t["face"]) for t in die] == [("mint", "bolt")]
    assert _right(die, got) == die, got
    assert len(_right(want, got)) == len(want) == len(got), got


def test_a_circle_around_a_token_and_its_shadow_does_not_replace_the_token(stand_in):
    # third-hand seed 9 tokens taught from crops, scene 039: two ring tokens whose circles with
    # their shadows (1.2 times as wide) read as the pentagon with a dot, 0.79-0.80 like it, and
    # replaced the readings of the rings' own circles
    want, got = _scene(stand_in, "third_hand", 9, "tokens", "crops", 39)
    rings = [t for t in want if t["face"] == "ring"]
    assert len(rings) == 2
    assert _right(rings, got) == rings, got
    assert len(_right(want, got)) == len(want) == len(got), got


@pytest.mark.long
def test_a_die_found_by_no_outline_is_read_around_its_symbol(stand_in):
    # other-hand seed 10 dice taught from crops, scene 032: a purple die at (160, 431) on a grey
    # cloth dotted pink was found by no outline; the square around its symbol reads it 0.91 like
    # the bolt, 0.35 ahead of the next face, of the purple type's colour
    want, got = _scene(stand_in, "other_hand", 10, "dice", "crops", 32)
    die = _at(want, (160, 431))
    assert [(t["type"], t["face"]) for t in die] == [("grove", "bolt")]
    assert _right(die, got) == die, got
    assert len(_right(want, got)) == len(want) == len(got), got


@pytest.mark.long
def test_a_grey_die_taught_on_grey_tables_is_learned_from_the_die_not_the_table(stand_in):
    # other-hand seed 12 dice taught from photos: in 3 of the 5 photos of the slate "target" face
    # the die was outlined with the table (14 to 100 % of the picture; the dice of the other
    # photos cover 0.3 to 2.5 %), so the face was learned from the table. Scene 000: of its two
    # slate targets one was read as the hex, the other abstained
    want, got = _scene(stand_in, "other_hand", 12, "dice", "photos", 0)
    targets = [t for t in want if (t["type"], t["face"]) == ("slate", "target")]
    assert len(targets) == 2
    assert _right(targets, got) == targets, got
    assert len(_right(want, got)) == len(want) == len(got), got


@pytest.mark.long
def test_the_squares_of_a_checkered_cloth_are_not_read_as_dice(stand_in):
    # other-hand seed 14 dice taught from photos, scene 031: 11 dice on a green checkered cloth
    # whose squares are about a die's size; two squares were reported as dice (unsure)
    want, got = _scene(stand_in, "other_hand", 14, "dice", "photos", 31)
    assert len(want) == 11
    assert len(got) <= len(want) and len(_right(want, got)) == len(got), got


def test_red_tokens_on_wood_are_read_by_their_symbols(stand_in):
    # other-hand seed 13 tokens taught from crops, scene 039: 12 red tokens on a striped wood
    # table. Three were found by no outline; the circles around their symbols read them 0.93-0.98
    # like their faces, 0.2-0.36 ahead of the next, but 4.1-4.6 from the tokens' colour (4 allowed)
    want, got = _scene(stand_in, "other_hand", 13, "tokens", "crops", 39)
    three = _at(want, (82, 196), (349, 344), (96, 342))
    assert sorted(t["face"] for t in three) == ["bolt", "bolt", "moon"]
    assert _right(three, got) == three, got
    assert len(got) <= len(want), got  # (the five at (580, 374) is still read as the two)


@pytest.mark.long
def test_a_die_taught_on_a_checkered_cloth_is_learned_from_the_die_not_a_square(stand_in):
    # other-hand seed 14 dice taught from photos: in 2 of the 5 photos of the slate "skull" face
    # the die lies on a checkered cloth whose squares are its size and about its colour, and a
    # square was learned as the die (in one, the squares crowded the die out of the candidates).
    # Scene 002: both slate skulls were missed
    want, got = _scene(stand_in, "other_hand", 14, "dice", "photos", 2)
    skulls = [t for t in want if (t["type"], t["face"]) == ("slate", "skull")]
    assert len(skulls) == 2
    assert _right(skulls, got) == skulls, got
    assert len(_right(want, got)) == len(want) == len(got), got


def test_a_token_washed_pale_by_glare_is_read_by_its_symbol(stand_in):
    # other-hand seed 16 tokens taught from crops, scene 022: a black token at (127, 317) in a
    # pool of glare on a pink cloth looks light grey. Its circle, of the other tokens' size, was
    # found but dropped for its colour (12.7 from the tokens', 9 allowed); it reads 0.95 like the
    # bolt, 0.26 ahead of the next face
    want, got = _scene(stand_in, "other_hand", 16, "tokens", "crops", 22)
    bolt = _at(want, (127.4, 316.8))
    assert [t["face"] for t in bolt] == ["bolt"]
    assert _right(bolt, got) == bolt, got
    assert len(_right(want, got)) == len(want) == len(got), got


def test_red_tokens_on_brown_wood_are_found_by_their_colour_and_read_whole(stand_in):
    # other-hand seed 18 tokens taught from photos, scene 005: nine dark red tokens on brown wood.
    # The heart at (518, 175) was found by no outline, and in grey by no circle (its rim about as
    # light as the wood); the circle in likeness to the tokens' colour reads it 0.85 like the heart.
    # The five at (280, 382), its rim lost in the wood, was outlined by its inner disc (30 pixels
    # wide of 42) and read as the two, 0.68 like it and 0.02 ahead of the five; the circle of the
    # strongly sure tokens' size around it reads it 0.97 like the five
    want, got = _scene(stand_in, "other_hand", 18, "tokens", "photos", 5)
    two = _at(want, (517.7, 174.9), (280.5, 381.9))
    assert sorted(t["face"] for t in two) == ["five", "heart"]
    assert _right(two, got) == two, got
    # nothing is read where there is no token
    assert len(got) <= len(want), got


@pytest.mark.long
def test_a_grey_die_outlined_with_its_shadow_is_read_from_a_square_of_the_dice_size(stand_in):
    # other-hand seed 7 dice taught from crops, scene 005: a slate die at (571, 331) on a lilac
    # cloth, its edges faint. Its outlines take in its shadow (53-61 pixels wide; the dice are about
    # 38) and read 0.55 like the hex, 0.03 ahead of the target: unsure, it was missed. The square of
    # the strongly sure dice's size around its outline's middle reads it 0.93 like the hex
    want, got = _scene(stand_in, "other_hand", 7, "dice", "crops", 5)
    die = _at(want, (571, 331))
    assert [(t["type"], t["face"]) for t in die] == [("slate", "hex")]
    assert _right(die, got) == die, got
    assert len(_right(want, got)) == len(want) == len(got), got


def test_dark_tokens_on_a_dark_cloth_printed_with_light_dots_are_found(stand_in):
    # other-hand seed 19 tokens taught from photos, scene 027: six dark teal tokens on a dark purple
    # cloth printed with a grid of small light dots. The dots' edges set the circle search's edge
    # threshold past the tokens' faint rims, and their rows made circles of their own: the only
    # circles found were three times a token's width, and all six tokens were missed. With the dots
    # taken out by a median filter narrower than a token (it leaves 3 % of the picture's edge
    # strength; on the two tables where, used everywhere, it turned a reading wrong, 39 and 63 %:
    # it is used at 25 % or less), the six circles are the strongest
    want, got = _scene(stand_in, "other_hand", 19, "tokens", "photos", 27)
    assert len(want) == 6
    assert len(_right(want, got)) == len(want) == len(got), (want, got)


@pytest.mark.long
def test_a_lone_die_on_paper_of_its_colour_is_read_from_a_square_of_the_taught_size(stand_in):
    # third-hand seed 19 dice taught from photos, scene 016: one mint die (the arrow) on mint paper
    # ruled with dashes. Nothing was read for sure, so no size was known; its outline takes in a
    # strip of the paper and read 0.38 like the arrow, unsure. The square of the size the dice had
    # in the taught photos, around that outline's middle, reads it
    want, got = _scene(stand_in, "third_hand", 19, "dice", "photos", 16)
    assert [(t["type"], t["face"]) for t in want] == [("mint", "arrow")]
    assert len(_right(want, got)) == len(want) == len(got), (want, got)


def test_light_symbols_on_black_tokens_are_not_learned_as_the_tokens(stand_in):
    # third-hand seed 21 tokens taught from crops, scene 001: eleven black tokens with light pink
    # symbols on a pink veined table. The symbols (bars, squares, a crescent) were outlined in
    # every example in one light colour and better shaped than the tokens, and taken for the
    # tokens: the reader looked for light patches, read 4 tokens and 7 symbols' pieces or veins
    _all_read(stand_in, "third_hand", 21, "tokens", "crops", 1, 11)


def test_black_tokens_on_a_black_cloth_are_read_around_their_symbols(stand_in):
    # third-hand seed 21 tokens taught from crops, scene 011: seven black tokens on a near-black
    # cloth with light veins. Only a crescent was read, weakly, at half a token's area. Circles
    # around the symbols at token widths of 0.1-0.22 of the picture's height read three tokens,
    # best at 0.17 (82 pixels, the tokens' width); the four symbols that touch a vein were found
    # once the pieces of a symbol were grouped without the vein beside them
    _all_read(stand_in, "third_hand", 21, "tokens", "crops", 11, 7)


def test_a_symbol_beside_a_light_stripe_and_a_piece_of_a_token_do_not_hide_a_token(stand_in):
    # third-hand seed 21 tokens taught from crops. Scene 018: a bars token beside an orange stripe
    # was read as the duo, 0.03 ahead, from an outline of three quarters of a token; its symbol
    # joined to the stripe was too big to be looked for. Scene 017: a duo token was read as the
    # grid from a piece of it (half the sure tokens' area), which kept the symbol search away
    want, got = _scene(stand_in, "third_hand", 21, "tokens", "crops", 18)
    bars = _at(want, (278, 396))
    assert [t["face"] for t in bars] == ["bars2"]
    assert _right(want, got) == want and len(got) == len(want), got
    want, got = _scene(stand_in, "third_hand", 21, "tokens", "crops", 17)
    duo = _at(want, (554, 308))
    assert [t["face"] for t in duo] == ["duo"]
    assert _right(want, got) == want and len(got) == len(want), got


def test_tokens_read_from_their_symbols_alone_do_not_set_the_search_too_small(stand_in):
    # third-hand seed 21 tokens taught from photos, scene 008: twelve black tokens on a dark cloth.
    # The eight sure ones were outlined by their light symbols, at 0.6 of a token's area; circles
    # of that width around the other four symbols read none of them. Circles 1.3 times as wide
    # are read too, and of each place's the best counts
    _all_read(stand_in, "third_hand", 21, "tokens", "photos", 8, 12)


def test_patches_of_a_dashed_cloth_twice_a_tokens_size_are_not_tokens(stand_in):
    # third-hand seed 24 tokens taught from photos, scene 035: eleven small cream tokens on a cream
    # cloth printed with grey dashes. Four patches of dashes were read weakly (0.54-0.56 like the
    # waves; the examples are 0.76 like each other, and their colour is not the tokens') from
    # outlines 2.4-2.7 times the strongly sure tokens' area, and reported as unsure tokens. Tokens
    # read weakly were at most 2.2 times that area (over 96 stand-in sets)
    _all_read(stand_in, "third_hand", 24, "tokens", "photos", 35, 11)


def test_symbols_are_looked_for_on_a_cloth_of_dashes(stand_in):
    # third-hand seed 9 tokens taught from crops, scene 027: ten peach tokens on a cream cloth of
    # grey dashes. The cloth takes the tokens' colour in the likeness map and hides their rims; the
    # dashes cut into 130 small bits crowded out the symbol search (more than 40 blobs of a symbol's
    # width: a patterned table). Two drops and a dots6 were missed and a dots6 read as the key from
    # an outline off its middle. The blobs of a symbol's area are 15 or so: the symbols
    want, got = _read_there(stand_in, "third_hand", 9, "tokens", "crops", 27,
                            [(209, 93), (574, 181), (128, 310)], ["dots6", "dots6", "drop"])
    assert len(_right(want, got)) == len(got), got


def test_pale_tokens_in_whole_photos_of_pale_tables_are_not_learned_as_the_table(stand_in):
    # third-hand seed 25 tokens taught from whole 640x480 photos: cream tokens 20-70 pixels wide,
    # half of them on pale tables (green, beige, grey, pink). In 20 of the 35 photos the whole
    # picture was taken for the token ("a die that fills its crop": the table's colour, read in
    # its middle, is about the tokens'), so the faces were learned from tables: 71 % read.
    # Scene 009: seven tokens, two read
    _all_read(stand_in, "third_hand", 25, "tokens", "photos", 9, 7)


def test_a_rimmed_token_read_from_its_inner_disc_is_read_again_wider(stand_in):
    # third-hand seed 26 tokens taught from crops, scene 018: nine purple tokens with pink rims on
    # a pink veined table. Three keys were outlined by their inner discs (inside the rims), their
    # symbols too big, and read as the arrow, 0.65-0.68 like it, 0.12 ahead of the key (the
    # examples are 0.86 like each other, as a median). Circles 1.2 times as wide read them 0.83-0.88
    # like the key
    want, got = _read_there(stand_in, "third_hand", 26, "tokens", "crops", 18,
                            [(396, 211), (534, 231), (54, 324)], ["key"] * 3)
    assert len(_right(want, got)) == len(want) == len(got), got


def test_small_dark_tokens_on_dark_wood_are_read_at_their_own_size(stand_in):
    # third-hand seed 28 tokens taught from crops, scene 016: five dark brown tokens 40 pixels
    # wide (0.083 of the picture's height) on dark striped wood; nothing is read from outlines,
    # so circles around the symbols are read at a few guessed sizes. The smallest was 0.1; at
    # 0.17 the plus, drop and blob were read as the bolt (0.73-0.82 like it: the circles took in
    # the wood, as the bolt's examples do), which scored best of the guesses
    _read_there(stand_in, "third_hand", 28, "tokens", "crops", 16,
                [(54, 169), (149, 248), (541, 246)], ["blob", "drop", "plus"])


def test_a_token_whose_symbol_is_off_its_middle_is_read_from_a_circle_beside_it(stand_in):
    # third-hand seed 28 tokens taught from whole photos, scene 031: brown tokens on brown
    # wood, found only by their symbols. The three bars rise to one side, so the middle of the
    # symbol lies a third of a radius off the token's: the circle around it read the bars only
    # 0.55 like their face, under the faces' floor. Circles 0.2 and 0.4 radii to that side read
    # them 0.93 and 0.89 like the bars, 0.47 and 0.46 ahead
    _read_there(stand_in, "third_hand", 28, "tokens", "photos", 31, [(91, 253)], ["bars3"])


@pytest.mark.long
def test_a_die_whose_symbol_joins_its_side_and_the_grid_is_found_by_its_symbol(stand_in):
    # third-hand seed 29 dice taught from whole photos, scene 017: a lilac die at (115, 235) on a
    # lilac cloth ruled with dark lines, lying on a crossing of two lines. Its outline merges with
    # the lines (no candidate there at all), and the symbol search saw one blob of the black bolt,
    # the die's dark side and the lines, far wider than a symbol: the die was missed
    _read_there(stand_in, "third_hand", 29, "dice", "photos", 17, [(115, 235)], ["bolt"])


@pytest.mark.long
def test_an_orange_die_plainly_orange_stays_read_under_a_cast_it_does_not_show(stand_in):
    # third-hand seed 29 dice taught from whole photos, scene 013: five dice on a lavender table
    # in bluish light. The forest, lilac and magenta dice are 0.12-0.15 bluer than taught (chroma
    # b), the orange dice not: the orange dots7 at (480, 71) was 0.5 from orange's colour as it
    # is, 18.7 with that cast taken out (orange's examples vary little in hue), and abstained
    _read_there(stand_in, "third_hand", 29, "dice", "photos", 13, [(480, 71)], ["dots7"])


@pytest.mark.long
def test_the_dot_inside_a_ring_does_not_keep_its_die_unread(stand_in):
    # other-hand seed 30 dice taught from whole photos, scene 024: a green die with a ring and a
    # dot (the eye) at (381, 93) on a green cloth. Its outline took in the cloth (read 0.64 like
    # the eye); the dot alone read 0.70 like the queen (a face of one dot), held the place
    # against the square search's reading of the die, and was then dropped for its size
    _read_there(stand_in, "other_hand", 30, "dice", "photos", 24, [(381, 93)], ["eye"])


@pytest.mark.long
def test_a_light_blue_die_in_glare_counts_when_its_symbol_is_plain(stand_in):
    # third-hand seed 30 dice taught from whole photos, scene 021: a sky-blue die at (459, 71) in
    # the glare of a white table, washed nearly white. The square around its symbol read it 0.92
    # like the bolt, 0.22 ahead of the next class, but 6.6 from sky's colour (a search of the whole
    # picture counted only within 4): missed
    _read_there(stand_in, "third_hand", 30, "dice", "photos", 21, [(459, 71)], ["bolt"])


def test_a_token_read_barely_ahead_of_another_face_is_read_again_shrunk_and_blurred(stand_in):
    # third-hand seed 32 tokens taught from crops, scene 021: eleven sharp blue tokens on a dark
    # violet cloth, each outlined with its side, a light crescent past its dark rim; the examples
    # are blurred. The duo at (374, 328) read 0.85 like the moon, 0.03 ahead of the key; shrunk to
    # 0.88 of its outline 0.81 like the duo, 0.15 ahead; blurred 0.84, 0.16 ahead. The sun at
    # (439, 312) read 0.87 like the moon, 0.03 ahead; shrunk 0.89 like the sun, blurred 0.80
    want, got = _read_there(stand_in, "third_hand", 32, "tokens", "crops", 21,
                            [(374, 328), (439, 312)], ["duo", "sun"])
    assert len(_right(want, got)) == len(want) == len(got), got


def test_a_token_outlined_past_its_rim_is_read_again_narrower(stand_in):
    # third-hand seed 33 tokens taught from whole photos (tokens a few pixels wide in them), scene
    # 001: a sun at (59, 265) outlined with its side, 54 px across where the other tokens' outlines
    # are 47-48: read 0.61 like the bolt (0.15 ahead of the sun); from a circle 0.88 as wide, 0.92
    # like the sun
    _read_there(stand_in, "third_hand", 33, "tokens", "photos", 1, [(59, 265)], ["sun"])

"""A face name taught on several die types: one symbol (pooled) or a name reused for another symbol."""

from __future__ import annotations

import pytest

from companion.dicesets import open_set, write_rendered_set


def _groups(model) -> dict[tuple[str, str], int]:
    return {lab: int(g) for lab, g in zip(model.labels, model.cls_group, strict=True)}


def test_a_face_shared_by_types_is_one_group(alt_set):
    g = _groups(open_set(alt_set).model)
    # ALT_DICE draws "skull" on all four types and a1/a2/bolt on red and blue
    assert len({g[(t, "skull")] for t in ("red", "blue", "white", "purple")}) == 1
    for face in ("a1", "a2"):
        assert g[("red", face)] == g[("blue", face)]
    # different faces never share a group
    for (t1, f1), g1 in g.items():
        for (t2, f2), g2 in g.items():
            if f1 != f2:
                assert g1 != g2, (t1, f1, t2, f2)


@pytest.mark.xfail(reason="borderline since dice are read from their top face (_top_face): the red and blue "
                          "bolts' examples match across types by a median of -0.114 of their own type's, "
                          "POOL_MIN is -0.1 (-0.097 with whole patches)", strict=False)
def test_the_bolt_shared_by_red_and_blue_is_one_group(alt_set):
    g = _groups(open_set(alt_set).model)
    assert g[("red", "bolt")] == g[("blue", "bolt")]


def test_a_face_name_reused_for_another_symbol_stays_apart(tmp_path):
    spec = {"kind": "dice", "types": {"red": ((50, 50, 190), ["p", "q"]), "blue": ((170, 90, 40), ["r", "s"])}}
    write_rendered_set(tmp_path, spec, per_face=5, seed=4, style="glyph")
    ex = tmp_path / "examples" / "blue"
    (ex / "r").rename(ex / "p")  # blue "p" shows the glyph of "r", red "p" its own
    model = open_set(tmp_path).model
    g = _groups(model)
    assert g[("red", "p")] != g[("blue", "p")]


def _chance_model(per_face: int, rng):
    """Four die types: face "p" on all four (one pooled group), face "q" on the first only; every
    example is a random unit vector, so no face is any likelier than another."""
    import numpy as np

    from vision.custom import SetModel

    types = ["t0", "t1", "t2", "t3"]
    labels = [(t, "p") for t in types] + [("t0", "q")]
    n = per_face * len(labels)
    desc = rng.normal(size=(n, 64)).astype(np.float32)
    desc /= np.linalg.norm(desc, axis=1, keepdims=True)
    cls = np.repeat(np.arange(len(labels)), per_face).astype(np.int32)
    z = np.zeros((4, 3), np.float32)
    return SetModel("dice", "square", types, labels, z, z + 1, z, z + 1, desc, cls,
                    desc_src=np.arange(n, dtype=np.int32), cls_group=np.array([0, 0, 0, 0, 4], np.int32))


def test_a_pooled_face_wins_no_more_often_than_a_lone_one(monkeypatch):
    # 20 examples pooled against 5 (or 12 against 3, 40 against 10): by chance each face should
    # win about half of the random queries. The mean of the best 40 % (of the pool, of the lone
    # face's examples) let the pool win 73 % with 3 examples per face, 58 % with 5 and 55 % with
    # 10: a share of a larger sample reaches further up its tail. Now 50, 47 and 49 %.
    import numpy as np

    from vision.custom import _class_scores

    # how many examples count, alone: other types' examples count as much as the die's own
    monkeypatch.setattr("vision.custom.POOL_OTHER", 0.0, raising=False)
    rng = np.random.default_rng(3)
    for per_face in (3, 5, 10):
        wins = 0
        for _ in range(20):
            model = _chance_model(per_face, rng)
            q = rng.normal(size=(100, 1, 64)).astype(np.float32)
            q /= np.linalg.norm(q, axis=2, keepdims=True)
            for d in q:
                s = _class_scores(model, d)
                wins += int(s[0] > s[4])
        assert 0.42 < wins / 2000 < 0.58, (per_face, wins / 2000)


def test_a_pooled_face_counts_the_dies_own_examples_first():
    # The query is exactly t1's examples; t0's own examples do not match it at all, t2's and t3's
    # match at 0.8. Pooled, every type used to score alike (0.9); now another type's examples
    # count POOL_OTHER less, so t0 (whose own examples miss) scores below t1, t2 and t3.
    import numpy as np

    from vision.custom import POOL_OTHER, _class_scores

    model = _chance_model(5, np.random.default_rng(0))
    sim = np.repeat([0.0, 1.0, 0.8, 0.8, 0.0], 5)  # per example: t0, t1, t2, t3 (face p), t0 (face q)
    d = np.zeros((25, 64), np.float32)
    d[:, 0] = sim
    d[np.arange(25), 1 + np.arange(25)] = np.sqrt(1 - sim ** 2)
    model.desc = d
    s = _class_scores(model, np.eye(64, dtype=np.float32)[:1])
    # best 10 of 20: for t1 its own five 1.0 and five 0.8 - POOL_OTHER; for t0 five 1.0 - POOL_OTHER
    # and five 0.8 - POOL_OTHER
    assert abs(s[1] - (1.0 + 0.8 - POOL_OTHER) / 2) < 1e-5
    assert abs(s[0] - (1.0 + 0.8 - 2 * POOL_OTHER) / 2) < 1e-5
    assert abs(s[2] - s[1]) < 1e-5 and abs(s[3] - s[1]) < 1e-5
    assert s[0] < s[1] - 0.01

"""A face name taught on several die types: one symbol (pooled) or a name reused for another symbol."""

from __future__ import annotations

from companion.dicesets import open_set, write_rendered_set


def _groups(model) -> dict[tuple[str, str], int]:
    return {lab: int(g) for lab, g in zip(model.labels, model.cls_group, strict=True)}


def test_a_face_shared_by_types_is_one_group(alt_set):
    g = _groups(open_set(alt_set).model)
    # ALT_DICE draws "skull" on all four types and a1/a2/bolt on red and blue
    assert len({g[(t, "skull")] for t in ("red", "blue", "white", "purple")}) == 1
    for face in ("a1", "a2", "bolt"):
        assert g[("red", face)] == g[("blue", face)]
    # different faces never share a group
    for (t1, f1), g1 in g.items():
        for (t2, f2), g2 in g.items():
            if f1 != f2:
                assert g1 != g2, (t1, f1, t2, f2)


def test_a_face_name_reused_for_another_symbol_stays_apart(tmp_path):
    spec = {"kind": "dice", "types": {"red": ((50, 50, 190), ["p", "q"]), "blue": ((170, 90, 40), ["r", "s"])}}
    write_rendered_set(tmp_path, spec, per_face=5, seed=4, style="glyph")
    ex = tmp_path / "examples" / "blue"
    (ex / "r").rename(ex / "p")  # blue "p" shows the glyph of "r", red "p" its own
    model = open_set(tmp_path).model
    g = _groups(model)
    assert g[("red", "p")] != g[("blue", "p")]

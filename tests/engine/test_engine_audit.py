"""Defects an audit found: typos in an effect's filter, a 616.1 choice that names an Aura
without umbra armor."""

from __future__ import annotations

from judge.engine import load_board, parse_compact, resolve


def _warnings(text: str) -> tuple[str, ...]:
    return load_board(parse_compact(text)).warnings


def test_typos_in_an_effect_filter_warn_as_on_a_permanent() -> None:
    text = (
        "player A\nperm s controller=A artifact\n"
        "effect e source=s layer=7c affects.types=creeture affects.colors=plaid effect.power=1\n"
    )
    w = _warnings(text)
    assert any("affects : type « creeture » inconnu" in x for x in w), w
    assert any("affects : couleur « plaid » inconnue" in x for x in w), w
    good = text.replace("creeture", "creature").replace("plaid", "green")
    assert _warnings(good) == ()


UMBRA = """
player Alice
player Bob
perm o controller=Alice creature 2/2 damage=2 regeneration_shields=1
perm u controller=Alice enchantment Aura enchant=creature attached_to=o keywords="umbra armor"
perm v controller=Alice enchantment Aura enchant=creature attached_to=o
choice 616.1 object=o apply=APPLY
"""


def test_a_replacement_choice_naming_an_aura_without_umbra_armor_warns() -> None:
    """616.1, 702.89a: only regeneration or an Aura with umbra armor replaces the
    destruction; naming another Aura is reported, not silently asked again."""
    res = resolve(load_board(parse_compact(UMBRA.replace("APPLY", "v"))).board)
    assert res.stopped == "choice"
    assert any(
        w.startswith("choices[0] (616.1, « o ») : « v » n'a pas l'armure d'ombre")
        for w in res.warnings
    ), res.warnings
    for good in ("u", "regeneration"):
        res = resolve(load_board(parse_compact(UMBRA.replace("APPLY", good))).board)
        assert res.stopped is None
        assert not any("616.1" in w for w in res.warnings), res.warnings

"""The world rule, table-driven: 420.5i (fr-pre2009) and 704.5k (fr-2024) say the same thing.

420.5i: « Si deux (ou plus) permanents avec le sur-type "du Monde" sont en jeu, tous, sauf
celui qui a été un permanent avec le sur-type "du Monde" depuis le moins de temps, sont mis
dans les cimetières de leurs propriétaires. En cas d'égalité, tous les permanents concernés
sont mis dans les cimetières de leurs propriétaires. »

So: the newest (greatest timestamp) stays when it is alone; when two or more share the newest
timestamp, every World permanent goes, including older ones."""

from __future__ import annotations

import pytest
from engine_helpers import TWO, actions, applies, battlefield, board, run, zone_of

RULE = {"fr-pre2009": "420.5i", "fr-2024": "704.5k"}

# (timestamps of w1, w2, ... in order, the ids that go to the graveyard)
CASES = [
    pytest.param([1], [], id="un-seul"),
    pytest.param([1, 2], ["w1"], id="distincts-le-plus-recent-reste"),
    pytest.param([2, 1], ["w2"], id="distincts-ordre-inverse"),
    pytest.param([5, 1, 3], ["w2", "w3"], id="trois-distincts"),
    pytest.param([3, 3], ["w1", "w2"], id="egalite-deux"),
    pytest.param([0, 0], ["w1", "w2"], id="egalite-horodatage-zero"),
    pytest.param([7, 7, 7], ["w1", "w2", "w3"], id="egalite-trois"),
    pytest.param([1, 2, 2], ["w1", "w2", "w3"], id="egalite-des-plus-recents"),
    pytest.param([2, 2, 1], ["w1", "w2", "w3"], id="egalite-des-plus-recents-ordre"),
    pytest.param([1, 1, 2], ["w1", "w2"], id="egalite-des-plus-anciens-le-recent-reste"),
    pytest.param([4, 9, 4, 9, 2], ["w1", "w2", "w3", "w4", "w5"], id="egalite-cinq"),
]


def _text(timestamps: list[int]) -> str:
    lines = [
        f"perm w{i} controller={'Alice' if i % 2 else 'Bob'} enchantment world timestamp={t}"
        for i, t in enumerate(timestamps, start=1)
    ]
    # A non-World enchantment with the newest timestamp of all never counts.
    lines.append(f"perm e controller=Alice enchantment timestamp={max(timestamps) + 1}")
    return TWO + "\n".join(lines)


@pytest.mark.parametrize("ruleset", sorted(RULE))
@pytest.mark.parametrize(("timestamps", "gone"), CASES)
def test_world_rule(ruleset: str, timestamps: list[int], gone: list[str]) -> None:
    rule = RULE[ruleset]
    text = _text(timestamps)
    assert applies(board(text), ruleset) == {f"{rule} put_into_graveyard {g}" for g in gone}
    res = run(text, ruleset)
    # One pass at most: everything the rule puts away goes in a single event.
    assert actions(res) == ([[f"{rule} put_into_graveyard {g}" for g in gone]] if gone else [])
    kept = [f"w{i}" for i in range(1, len(timestamps) + 1) if f"w{i}" not in gone]
    assert battlefield(res) == sorted([*kept, "e"])
    for g in gone:
        assert zone_of(res, g) == "graveyard"


@pytest.mark.parametrize("ruleset", sorted(RULE))
def test_a_tie_is_said(ruleset: str) -> None:
    res = run(_text([3, 3]), ruleset)
    whys = [a.why for p in res.passes for a in p.actions]
    assert len(whys) == 2 and all("égalité" in w for w in whys), whys

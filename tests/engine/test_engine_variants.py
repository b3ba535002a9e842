"""Archenemy (704.6e) and Planechase (704.6f), table-driven in the compact form."""

from __future__ import annotations

import pytest

from judge.engine import BoardError, resolve
from tests.engine.engine_helpers import TWO, actions, all_notes, board

ARCH = "variant archenemy\narchenemy Alice\n" + TWO
PLANES = "variant planechase\n" + TWO
SCHEME = "other m zone=command owner=Alice scheme face_up"
PHENOMENON = "other ph zone=command owner=Alice phenomenon face_up"

CASES = {
    "scheme to the bottom": (ARCH + SCHEME, [["704.6e scheme_to_bottom m"]], set()),
    "ongoing scheme stays": (ARCH + SCHEME + " ongoing", [], set()),
    "face-down scheme": (ARCH + SCHEME.replace(" face_up", ""), [], set()),
    "a scheme trigger waits": (
        ARCH + SCHEME + "\nother n zone=command owner=Alice scheme trigger_on_stack",
        [[]],
        {"704.6e not_applicable m"},
    ),
    "a scheme ability on the stack": (
        ARCH + SCHEME + "\nstack m ability=menace controller=Alice",
        [[]],
        {"704.6e not_applicable m"},
    ),
    "not in a normal game": (TWO + SCHEME, [], set()),
    "planeswalk (active player)": (
        PLANES + "active_player Bob\n" + PHENOMENON,
        [["704.6f planeswalk Bob"]],
        set(),
    ),
    "planeswalk (planar controller)": (
        PLANES + "planar_controller Alice\nactive_player Bob\n" + PHENOMENON,
        [["704.6f planeswalk Alice"]],
        set(),
    ),
    "phenomenon trigger on the stack": (
        PLANES + PHENOMENON + " trigger_on_stack",
        [[]],
        {"704.6f not_applicable ph"},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_variant_actions(name: str) -> None:
    text, passes, notes = CASES[name]
    res = resolve(board(text))
    assert actions(res) == passes
    assert all_notes(res) == notes


def test_the_card_is_turned_face_down() -> None:
    res = resolve(board(ARCH + SCHEME))
    [scheme] = res.final.other_zones
    assert (scheme.zone, scheme.face_up) == ("command", False)


def test_under_the_old_rules_nothing_happens() -> None:
    res = resolve(board(ARCH + SCHEME), "fr-pre2009")
    assert actions(res) == []
    assert any("variante" in w for w in res.warnings)


def test_an_unknown_archenemy_is_refused() -> None:
    with pytest.raises(BoardError, match="« archenemy »"):
        board("variant archenemy\narchenemy Zed\n" + TWO)

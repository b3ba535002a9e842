"""The final board reads back (JSON and compact form) and resolving it again changes
nothing: what has ended is left out (611.3a static effects, 800.4a a loser's objects, spent
choices), what lasts is kept (611.2c resolved effects)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine import (
    board_to_compact,
    board_to_dict,
    decode_board_text,
    load_board,
    load_board_file,
    resolve,
)
from tests.engine.engine_helpers import board

BOARDS = Path(__file__).resolve().parents[2] / "corpus" / "boards"
GALLERY = sorted(BOARDS.glob("*.json"))

# The audit's multiplayer boards: a loser leaves the game with a static effect, a resolved
# effect from a card they own, a stolen creature, a stack item.
MIN = """
player Alice
player Bob
player Carol life=0
perm c1 controller=Carol artifact
effect e source=c1 layer=7c affects.types=creature effect.toughness=1
"""
MULTI = """
player Alice
player Bob
player Carol life=0
perm c1 name=Lord controller=Carol creature 2/2
perm c2 name=Pret controller=Alice owner=Carol creature 1/1
perm b1 name=Vole controller=Carol owner=Bob entered_under=Bob creature 2/2
perm b2 name=VoleB owner=Bob creature 2/2
perm a1 name=Ours controller=Alice creature printed.toughness=1 damage=1
perm aura controller=Alice enchantment Aura enchant=creature attached_to=c1
ability a1 adieu trigger=dies
effect bonus source=c1 layer=7c affects.types=creature affects.controller=any affects.other \
  effect.toughness=1
effect steal source=c1 kind=resolved layer=2 affects.ids=b2 effect.control=Carol
stack c1 ability=x controller=Carol
"""
M2 = """
player Alice
player Bob
player Carol life=0
perm a name=Ours controller=Alice creature printed.toughness=1 damage=1
other sp zone=graveyard owner=Carol
effect g source=sp kind=resolved controller=Carol layer=7c affects.ids=a effect.toughness=3
"""
# A token with a dies ability: its trigger waits on the stack after the token ceased to exist.
TOKEN = """
player A
player B
perm t controller=A creature 1/1 damage=1 token
ability t adieu trigger=dies
"""
TEXTS = {"min": MIN, "multi": MULTI, "m2": M2, "token": TOKEN}


def _stable(start_board: object) -> None:
    res = resolve(start_board)  # type: ignore[arg-type]
    for label, text in (
        ("json", json.dumps(board_to_dict(res.final))),
        ("compact", board_to_compact(res.final)),
    ):
        again = load_board(decode_board_text(text)).board
        res2 = resolve(again)
        assert res2.actions == [], label
        assert res2.triggers == (), label
        assert board_to_dict(res2.final) == board_to_dict(again), label


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.stem)
def test_every_gallery_final_board_reads_back_and_is_stable(path: Path) -> None:
    _stable(load_board_file(path).board)


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_multiplayer_final_boards_read_back_and_are_stable(name: str) -> None:
    _stable(board(TEXTS[name]))


def test_a_static_effect_ends_with_its_source_leaving_the_game() -> None:
    """800.4a, 611.3a: Carol's artifact leaves with her; its static effect is no longer in
    force and is not in the final board."""
    res = resolve(board(MIN))
    assert [p.id for p in res.final.permanents] == []
    assert res.final.continuous_effects == ()


def test_a_resolved_effect_lasts_after_its_source_left_the_game() -> None:
    """611.2c: the bonus of Carol's spell lasts; the bear still has toughness 4 and its
    effect names no source any more."""
    res = resolve(board(M2))
    assert [e.id for e in res.final.continuous_effects] == ["g"]
    d = board_to_dict(res.final)["continuous_effects"][0]
    assert "source" not in d
    assert [p.id for p in res.final.permanents] == ["a"]


def test_a_resolved_effect_naming_a_missing_source_is_still_an_error() -> None:
    from judge.engine import BoardError

    with pytest.raises(BoardError, match="« source » : « zz » n'existe pas"):
        board(M2.replace("source=sp", "source=zz"))


def test_a_trigger_whose_source_ceased_to_exist_stays_on_the_stack() -> None:
    """704.5d, 113.7a: the token's ability is on the stack, its source gone."""
    res = resolve(board(TOKEN))
    assert [(s.source, s.source_gone) for s in res.final.stack] == [("t", True)]
    assert "source_gone" in board_to_compact(res.final)


def test_a_used_legend_choice_is_left_out() -> None:
    res = resolve(load_board_file(BOARDS / "legendes-blessee-et-indestructible.json").board)
    assert res.final.choices.raw == ()


def test_a_resolution_waiting_for_a_choice_keeps_the_choices_already_stated() -> None:
    # 704.5u: a's sector is stated, b's is not. The pass waits for b's, so nothing is
    # performed: the board handed back keeps a's choice, or a's sector would be lost.
    text = (
        "player Alice\nplayer Bob\n"
        'perm sculptor controller=Alice artifact keywords="space sculptor"\n'
        "perm a controller=Alice creature 1/1\n"
        "perm b controller=Alice creature 1/1\n"
        "choice 704.5u creature=a sector=alpha\n"
    )
    res = resolve(load_board(decode_board_text(text)).board)
    assert [c.rule for c in res.choices_needed] == ["704.5u"]
    kept = board_to_dict(res.final)["choices"]
    assert {"rule": "704.5u", "creature": "a", "sector": "alpha"} in kept

"""One test per state-based effect of 420.5 (fr-pre2009), with the cases where it must not
apply, and the differences from 704 the old text makes."""

from __future__ import annotations

import pytest
from engine_helpers import TWO, applies, board, notes, performed

from judge.engine import resolve
from judge.engine.pre2009 import REGISTRY

OLD = "fr-pre2009"


@pytest.mark.parametrize(("life", "loses"), [(0, True), (-1, True), (1, False)])
def test_420_5a_zero_or_less_life(life: int, loses: bool) -> None:
    b = board(f"player Alice life={life}\nplayer Bob")
    assert (applies(b, OLD) == {"420.5a lose_game Alice"}) is loses


def test_420_5b_zero_toughness_not_regenerable() -> None:
    b = board(TWO + "perm c controller=Alice creature 1/0 regeneration_shields=1")
    assert performed(b, OLD) == {"420.5b put_into_graveyard c"}
    assert notes(b, OLD) == {"420.5b not_replaceable c"}
    assert applies(board(TWO + "perm c controller=Alice creature 1/1"), OLD) == set()


@pytest.mark.parametrize(
    ("toughness", "damage", "destroyed"), [(2, 2, True), (2, 3, True), (2, 1, False), (0, 2, False)]
)
def test_420_5c_lethal_damage(toughness: int, damage: int, destroyed: bool) -> None:
    b = board(TWO + f"perm c controller=Alice creature 1/{toughness} damage={damage}")
    assert ("420.5c destroy c" in applies(b, OLD)) is destroyed


def test_420_5c_knows_no_deathtouch() -> None:
    b = board(TWO + "perm c controller=Alice creature 3/3 damage=1 deathtouch_damage=1")
    assert applies(b, OLD) == set()
    assert notes(b, OLD) == {"420.5c not_applicable c"}
    assert applies(b) == {"704.5h destroy c"}  # the current rules destroy it


def test_420_5c_regeneration_replaces() -> None:
    b = board(TWO + "perm c controller=Alice creature 2/2 damage=2 regeneration_shields=1")
    assert performed(b, OLD) == {"420.5c regenerate c"}


@pytest.mark.parametrize(
    ("lines", "goes"),
    [
        (
            "perm c controller=Bob creature 2/2\nperm a controller=Alice enchantment Aura "
            "enchant=creature attached_to=c",
            False,
        ),
        (
            "perm l controller=Bob land\nperm a controller=Alice enchantment Aura "
            "enchant=creature attached_to=l",
            True,
        ),
        ("perm a controller=Alice enchantment Aura enchant=creature", True),
        ("perm a controller=Alice enchantment Aura enchant=player attached_to=Bob", False),
        ("perm a controller=Alice enchantment Aura enchant=creature attached_to=Bob", True),
    ],
)
def test_420_5d_local_enchantment(lines: str, goes: bool) -> None:
    assert (applies(board(TWO + lines), OLD) == {"420.5d put_into_graveyard a"}) is goes


def test_420_5e_every_copy_whoever_controls_it() -> None:
    b = board(
        TWO
        + "perm a name=X controller=Alice legendary creature 1/1\n"
        + "perm b name=X controller=Bob legendary creature 1/1\n"
        + "perm c name=Y controller=Bob legendary creature 1/1"
    )
    assert applies(b, OLD) == {"420.5e put_into_graveyard a", "420.5e put_into_graveyard b"}
    assert applies(b) == set()  # 704.5j: different controllers
    res = resolve(b, OLD)
    assert res.choices_needed == ()  # nobody chooses under the old rule


def test_420_5e_does_not_apply_if_only_one_is_legendary() -> None:
    b = board(
        TWO
        + "perm a name=X controller=Alice legendary creature 1/1\n"
        + "perm b name=X controller=Alice creature 1/1"
    )
    assert applies(b, OLD) == set()
    assert notes(b, OLD) == {"420.5e not_applicable a"}


def test_420_5f_tokens() -> None:
    b = board(TWO + "other t zone=exile owner=Alice token\nother c zone=exile owner=Alice")
    assert applies(b, OLD) == {"420.5f cease_to_exist t"}


def test_420_5g_draw_from_empty_library() -> None:
    assert applies(board("player Alice drew_from_empty_library\nplayer Bob"), OLD) == {
        "420.5g lose_game Alice"
    }
    assert applies(board(TWO), OLD) == set()


def test_420_5h_poison_even_in_two_headed_giant() -> None:
    assert applies(board("player Alice poison=10\nplayer Bob"), OLD) == {"420.5h lose_game Alice"}
    assert applies(board("player Alice poison=9\nplayer Bob"), OLD) == set()


def test_420_5i_world_rule() -> None:
    b = board(
        TWO
        + "perm w1 controller=Alice enchantment world timestamp=2\n"
        + "perm w2 controller=Bob enchantment world timestamp=1"
    )
    assert applies(b, OLD) == {"420.5i put_into_graveyard w2"}


@pytest.mark.parametrize(
    ("line", "gone"),
    [
        ("other c zone=graveyard owner=Alice spell_copy", True),
        ("other c zone=stack owner=Alice spell_copy", False),
        ("other c zone=hand owner=Alice card_copy", True),
    ],
)
def test_420_5j_copies(line: str, gone: bool) -> None:
    assert (applies(board(TWO + line), OLD) == {"420.5j cease_to_exist c"}) is gone


def test_420_5k_equipment_only() -> None:
    equip = (
        "perm a controller=Bob artifact\nperm e controller=Alice artifact Equipment attached_to=a"
    )
    assert applies(board(TWO + equip), OLD) == {"420.5k unattach e"}
    fort = (
        "perm c controller=Bob creature 1/1\n"
        "perm f controller=Alice artifact Fortification attached_to=c"
    )
    assert applies(board(TWO + fort), OLD) == set()
    assert notes(board(TWO + fort), OLD) == {"420.5 not_applicable f"}
    assert applies(board(TWO + fort)) == {"704.5n unattach f"}


def test_what_the_old_text_does_not_know() -> None:
    b = board(
        TWO
        + "perm pw controller=Alice planeswalker counters=loyalty:0\n"
        + "perm c controller=Alice creature 2/2 counters=+1/+1:1,-1/-1:1\n"
        + "perm s controller=Alice enchantment Saga counters=lore:3 final_chapter=3\n"
        + "perm x controller=Alice creature 1/1 attached_to=c\n"
        + "other d zone=command owner=Alice dungeon bottommost_room"
    )
    assert applies(b, OLD) == set()
    assert notes(b, OLD) == {
        "420.5 not_applicable pw",
        "420.5 not_applicable c",
        "420.5 not_applicable s",
        "420.5 not_applicable x",
        "420.5 not_applicable d",
    }
    assert applies(b) == {
        "704.5i put_into_graveyard pw",
        "704.5q remove_counters c",
        "704.5s sacrifice s",
        "704.5p unattach x",
        "704.5t remove_from_game d",
    }


def test_variants_are_not_in_the_old_text() -> None:
    b = board(
        "player A\nplayer B\nplayer C\nplayer D\nteam T1 members=A,B life=0\nteam T2 members=C,D",
        variant="two-headed-giant",
    )
    res = resolve(b, OLD)
    assert res.losers == ()
    assert any("420.5" in w for w in res.warnings)


def test_the_registry_lists_420_5a_to_k_once() -> None:
    assert [c.rule for c in REGISTRY] == [f"420.5{c}" for c in "abcdefghijk"]
    for check in REGISTRY:
        assert check.func.__doc__ is not None
        assert check.func.__doc__.startswith(check.rule + " ")

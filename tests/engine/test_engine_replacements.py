"""Replacements of a destruction (umbra armor 702.89a, regeneration, their order 616.1;
shield counters 122.1c), bestow (702.103f), a player leaving a multiplayer game (800.4a),
and choices asked only when the outcome depends on them (issue 12, items 3, 4 and 6)."""

from __future__ import annotations

import pytest

from judge.engine import BoardError, resolve
from tests.engine.engine_helpers import TWO, actions, all_notes, battlefield, board, zone_of

KNIGHT = "perm c name=Chevalier controller=Alice creature 2/2 damage=3"
UMBRA = (
    "perm u name=Armure controller=Alice enchantment Aura enchant=creature attached_to=c "
    'keywords="umbra armor"'
)

REPLACEMENT_CASES = {
    "umbra armor alone": (
        f"{KNIGHT}\n{UMBRA}",
        [["702.89a destroy u"]],
        ["c"],
    ),
    "regeneration alone": (f"{KNIGHT} regeneration_shields=1", [["704.5g regenerate c"]], ["c"]),
    "shield counter does not replace a state-based destruction": (
        f"{KNIGHT} counters=shield:1",
        [["704.5g destroy c"]],
        [],
    ),
    "both, regeneration chosen": (
        f"{KNIGHT} regeneration_shields=1\n{UMBRA}\nchoice 616.1 object=c apply=regeneration",
        [["704.5g regenerate c"]],
        ["c", "u"],
    ),
    "both, umbra armor chosen": (
        f"{KNIGHT} regeneration_shields=1\n{UMBRA}\nchoice 616.1 object=c apply=u",
        [["702.89a destroy u"]],
        ["c"],
    ),
    "indestructible: nothing to replace": (
        f"{KNIGHT} indestructible regeneration_shields=1\n{UMBRA}",
        [],
        ["c", "u"],
    ),
}


@pytest.mark.parametrize("name", sorted(REPLACEMENT_CASES))
def test_replacing_a_destruction(name: str) -> None:
    text, passes, left = REPLACEMENT_CASES[name]
    res = resolve(board(TWO + text))
    assert [p for p in actions(res) if p] == passes
    assert battlefield(res) == left
    assert res.stopped is None


def test_umbra_armor_removes_the_damage() -> None:
    res = resolve(board(TWO + f"{KNIGHT}\n{UMBRA}"))
    knight = next(p for p in res.final.permanents if p.id == "c")
    assert knight.damage == 0
    assert "704.5g replaced c" in all_notes(res)


def test_the_controller_chooses_the_order_of_replacements() -> None:
    """616.1e: regeneration or umbra armor — different outcomes, so the engine asks."""
    res = resolve(board(TWO + f"{KNIGHT} regeneration_shields=1\n{UMBRA}"))
    assert res.stopped == "choice"
    [asked] = res.choices_needed
    assert (asked.rule, asked.player, asked.subject, asked.options) == (
        "616.1",
        "Alice",
        "c",
        ("regeneration", "u"),
    )


def test_the_shield_counter_says_why_it_does_not_apply() -> None:
    res = resolve(board(TWO + f"{KNIGHT} counters=shield:1"))
    assert "122.1c not_replaced c" in all_notes(res)


def test_a_bestowed_aura_becomes_a_creature() -> None:
    """702.103f: its creature dies; the bestowed Aura stays as a creature (not 704.5m)."""
    text = (
        "perm h name=Hôte controller=Bob creature 1/1 damage=1\n"
        "perm b name=Nymphe controller=Bob enchantment Aura enchant=creature attached_to=h "
        "bestowed 2/2\n"
    )
    res = resolve(board(TWO + text))
    assert actions(res) == [["704.5g destroy h"], ["702.103f end_bestow b"]]
    nymph = next(p for p in res.final.permanents if p.id == "b")
    assert nymph.is_creature and "Aura" not in nymph.subtypes and not nymph.bestowed


def test_an_ordinary_aura_still_goes_to_the_graveyard() -> None:
    text = (
        "perm h controller=Bob creature 1/1 damage=1\n"
        "perm b controller=Bob enchantment Aura enchant=creature attached_to=h 2/2\n"
    )
    assert actions(resolve(board(TWO + text))) == [
        ["704.5g destroy h"],
        ["704.5m put_into_graveyard b"],
    ]


def test_a_bestowed_aura_needs_its_toughness() -> None:
    with pytest.raises(BoardError, match="« toughness »"):
        board(TWO + "perm b controller=Bob enchantment Aura enchant=creature bestowed")


# --- 800.4a --------------------------------------------------------------------------

THREE = "player Alice life=0\nplayer Bob\nplayer Chloé\n"
LEAVING = (
    "perm a1 name=Ours controller=Alice creature 2/2\n"
    "perm b1 name=Golem controller=Bob creature 3/3\n"
    "perm c1 name=Elfe owner=Chloé controller=Alice creature 1/1\n"
    "perm d1 name=Loup owner=Chloé controller=Alice entered_under=Chloé creature 2/2\n"
    "perm aura name=Pacifisme controller=Bob enchantment Aura enchant=creature attached_to=a1\n"
    "other g1 zone=graveyard owner=Alice\n"
    "effect vol source=a1 kind=resolved layer=2 affects.ids=b1 effect.control=Alice\n"
    "stack a1 ability=persist controller=Alice\n"
    "stack b1 ability=undying controller=Bob\n"
)


def test_a_player_who_loses_a_multiplayer_game_leaves_it() -> None:
    res = resolve(board(THREE + LEAVING))
    assert actions(res) == [
        [
            "704.5a lose_game Alice",
            "800.4a exile c1",
            "800.4a leave_game a1",
            "800.4a leave_game g1",
            "800.4a revert_control b1",
            "800.4a revert_control d1",
        ],
        ["704.5m put_into_graveyard aura"],
    ]
    assert zone_of(res, "a1") is None and zone_of(res, "g1") is None
    assert zone_of(res, "c1") == "exile"
    controllers = {p.id: p.controller for p in res.final.permanents}
    assert controllers == {"b1": "Bob", "d1": "Chloé"}
    assert res.final.continuous_effects == ()
    assert [s.controller for s in res.final.stack] == ["Bob"]


def test_a_two_player_game_keeps_the_objects_of_the_loser() -> None:
    """The game is over: nothing leaves (800.4a is for multiplayer games)."""
    res = resolve(board("player Alice life=0\nplayer Bob\n" + LEAVING.replace("Chloé", "Bob")))
    assert actions(res)[0] == ["704.5a lose_game Alice"]


def test_two_headed_giant_teams_lose_together() -> None:
    """810.8a: if either player on a team loses, the team loses."""
    text = (
        "variant two-headed-giant\nplayer A1 drew_from_empty_library\nplayer A2\n"
        "player B1\nplayer B2\nteam A members=A1,A2\nteam B members=B1,B2\n"
    )
    res = resolve(board(text))
    assert res.losers == ("A1", "A2")


# --- choices only where the outcome depends on them ----------------------------------


def test_no_legend_choice_when_both_die_anyway() -> None:
    text = (
        "perm a name=Isamaru controller=Alice creature legendary 2/2 damage=2\n"
        "perm b name=Isamaru controller=Alice creature legendary 2/2 damage=3\n"
    )
    res = resolve(board(TWO + text))
    assert res.choices_needed == ()
    assert actions(res) == [["704.5g destroy a", "704.5g destroy b"]]


def test_a_legend_choice_when_one_survives() -> None:
    text = (
        "perm a name=Isamaru controller=Alice creature legendary 2/2 damage=2\n"
        "perm b name=Isamaru controller=Alice creature legendary 2/2\n"
    )
    assert [c.rule for c in resolve(board(TWO + text)).choices_needed] == ["704.5j"]


def test_a_legend_choice_when_the_damaged_one_is_indestructible() -> None:
    text = (
        "perm a name=Isamaru controller=Alice creature legendary 2/2 damage=2 indestructible\n"
        "perm b name=Isamaru controller=Alice creature legendary 2/2 damage=3\n"
    )
    assert [c.rule for c in resolve(board(TWO + text)).choices_needed] == ["704.5j"]

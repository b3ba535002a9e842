"""Continuous effects in layer order (613) and stated triggers (603.10a), table-driven in the
compact form; the compact form written back; bad boards (issue 12, items 1, 2 and 7)."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest

from judge.engine import (
    BoardError,
    board_to_compact,
    board_to_dict,
    decode_board_text,
    load_board,
    load_board_file,
    render_text,
    resolve,
)
from judge.engine.layers import _Layers
from judge.engine.state import Snapshot
from tests.engine.engine_helpers import TWO, actions, battlefield, board

LORD = (
    "perm lord name=Seigneur controller=Alice creature 2/2 damage=2\n"
    "effect bonus source=lord layer=7c affects.other affects.types=creature "
    "affects.controller=you effect.power=1 effect.toughness=1 "
    'text="les autres créatures que vous contrôlez gagnent +1/+1"\n'
)


def toughness(text: str, ident: str) -> int | None:
    return Snapshot(board(TWO + text)).permanents[ident].toughness


# --- layers, rule by rule -------------------------------------------------------------

LAYER_CASES = {
    # 7c: a lord's bonus applies to the others it matches, not to itself nor to Bob's.
    "7c-bonus": (LORD + "perm e controller=Alice creature printed.toughness=1", "e", 2),
    "7c-not-self": (LORD, "lord", 2),
    "7c-not-opponent": (LORD + "perm b controller=Bob creature printed.toughness=1", "b", 1),
    # counters count in 7c with the printed value, once.
    "counters": ("perm e controller=Alice creature printed.toughness=2 counters=-1/-1:1", "e", 1),
    # 7b then 7c: set to 0, then +1 (613.4b before 613.4c), whatever the timestamps.
    "7b-then-7c": (
        "perm e controller=Alice creature printed.toughness=4\n"
        "effect up source=e layer=7c timestamp=1 affects.self effect.toughness=1\n"
        "effect set source=e layer=7b timestamp=2 affects.self effect.set_toughness=0",
        "e",
        1,
    ),
    # 7b twice: the later timestamp wins (613.7).
    "7b-timestamps": (
        "perm e controller=Alice creature printed.toughness=4\n"
        "effect a source=e layer=7b timestamp=5 affects.self effect.set_toughness=1\n"
        "effect b source=e layer=7b timestamp=3 affects.self effect.set_toughness=6",
        "e",
        1,
    ),
    # 7d after 7c: 1/3 gets +0/-2, becomes 1/1, then switches to 1/1; 3/1 switched is 1/3.
    "7d-switch": (
        "perm e controller=Alice creature printed.power=1 printed.toughness=3\n"
        "effect s source=e layer=7d affects.self effect.switch",
        "e",
        1,
    ),
    # 7a: a characteristic-defining ability counts the creatures its controller controls.
    "7a-cda": (
        "perm g controller=Alice creature printed.power=* printed.toughness=*\n"
        "perm x controller=Alice creature 1/1\n"
        "effect c source=g kind=cda layer=7a effect.cda=creatures_you_control",
        "g",
        2,
    ),
    "7a-hand": (
        "perm g controller=Alice creature printed.toughness=*\n"
        "other h1 zone=hand owner=Alice\nother h2 zone=hand owner=Alice\n"
        "other h3 zone=hand owner=Bob\n"
        "effect c source=g kind=cda layer=7a effect.cda=cards_in_hand",
        "g",
        2,
    ),
    # 2 before 7c: after the control change, "you control" follows the new controller.
    "2-then-7c": (
        LORD + "perm b controller=Bob creature printed.toughness=1\n"
        "effect steal source=lord kind=resolved layer=2 affects.ids=b effect.control=Alice",
        "b",
        2,
    ),
    # 6 then 7c: the lord lost all its abilities, its bonus no longer exists (613.8).
    "6-removes-source": (
        LORD + "perm e controller=Alice creature printed.toughness=1\n"
        "perm m controller=Bob enchantment\n"
        "effect mute source=m layer=6 affects.ids=lord effect.remove_abilities=all",
        "e",
        1,
    ),
    # A resolved effect is locked to its ids and lasts after its source left.
    "resolved-lasts": (
        "perm e controller=Alice creature printed.toughness=1\n"
        "other spell zone=graveyard owner=Alice\n"
        "effect g source=spell kind=resolved layer=7c affects.ids=e effect.toughness=3",
        "e",
        4,
    ),
    # A static effect whose source is not on the battlefield has ended.
    "static-ended": (
        "perm e controller=Alice creature printed.toughness=1\n"
        "other gone zone=graveyard owner=Alice\n"
        "effect g source=gone layer=7c affects.types=creature effect.toughness=3",
        "e",
        1,
    ),
}


@pytest.mark.parametrize("name", sorted(LAYER_CASES))
def test_layers(name: str) -> None:
    text, ident, expected = LAYER_CASES[name]
    assert toughness(text, ident) == expected


def test_layer_6_in_timestamp_order() -> None:
    """Adding then removing every ability, or the reverse (613.7: timestamps)."""
    gain_then_lose = (
        "perm e controller=Alice creature 1/1\nperm x controller=Bob artifact\n"
        "effect a source=x layer=6 timestamp=1 affects.ids=e effect.add_abilities=indestructible\n"
        "effect b source=x layer=6 timestamp=2 affects.ids=e effect.remove_abilities=all"
    )
    snap = Snapshot(board(TWO + gain_then_lose))
    assert not snap.permanents["e"].is_indestructible
    lose_then_gain = gain_then_lose.replace("timestamp=1", "timestamp=9")
    assert Snapshot(board(TWO + lose_then_gain)).permanents["e"].is_indestructible


def test_the_lord_dies_and_its_creatures_shrink_in_the_next_pass() -> None:
    """704.3 with 613: the lord dies in pass 1; in pass 2 its bonus has ended."""
    res = resolve(
        board(
            TWO + LORD + "perm e name=Elfe controller=Alice creature printed.toughness=1 damage=1\n"
        )
    )
    assert actions(res) == [["704.5g destroy lord"], ["704.5g destroy e"]]
    why = res.passes[1].actions[0].why
    assert why.startswith("endurance 1 (1 de base ; l'effet « les autres créatures")
    assert "a pris fin quand sa source a quitté le champ de bataille (613)" in why


def test_where_the_toughness_comes_from() -> None:
    res = resolve(
        board(
            TWO + "perm o name=Ours controller=Bob creature printed.toughness=2 "
            "counters=-1/-1:1 damage=1\n"
        )
    )
    assert res.passes[0].actions[0].why == (
        "endurance 1 (2 de base, -1 (1 marqueur -1/-1)), 1 blessure marquée"
    )


def test_counters_removed_change_a_printed_toughness_once() -> None:
    """704.5q removes a +1/+1 and a -1/-1: the layers count what remains, no more."""
    text = "perm e controller=Alice creature printed.toughness=2 counters=+1/+1:1,-1/-1:2\n"
    res = resolve(board(TWO + text))
    assert battlefield(res) == ["e"]
    assert Snapshot(res.final).permanents["e"].toughness == 1


def test_a_board_without_static_ability_reads_stated_values() -> None:
    snap = Snapshot(board(TWO + "perm e controller=Alice creature 2/2 counters=+1/+1:1\n"))
    assert snap.origins == {}
    assert snap.permanents["e"].toughness == 2


# --- triggers (603.10a, 603.3b) ---------------------------------------------------------

TRIGGERS = (
    "active_player Bob\n"
    "perm a name=Aigle controller=Alice creature 1/1 damage=1 dealt_damage_this_turn_by=v\n"
    'ability a adieu trigger=dies text="piochez une carte"\n'
    "perm v name=Vampire controller=Bob creature 2/2\n"
    "ability v festin trigger=damaged_creature_dies\n"
    "perm w name=Guetteur controller=Alice creature 1/3\n"
    "ability w deuil trigger=another_creature_dies\n"
    "ability w tous trigger=creature_dies\n"
    "perm b name=Ours controller=Bob creature 2/2 damage=3\n"
    "ability b part trigger=leaves\n"
)


def test_dies_triggers_from_last_known_information_in_apnap_order() -> None:
    res = resolve(board(TWO + TRIGGERS))
    got = [(t.controller, t.source, t.ability, t.object) for t in res.triggers]
    assert got == [
        ("Bob", "b", "part", "b"),
        ("Bob", "v", "festin", "a"),
        ("Alice", "a", "adieu", "a"),
        ("Alice", "w", "deuil", "a"),
        ("Alice", "w", "deuil", "b"),
        ("Alice", "w", "tous", "a"),
        ("Alice", "w", "tous", "b"),
    ]
    assert [s.source for s in res.final.stack] == [t[1] for t in got]
    assert all(t.after_pass == 1 for t in res.triggers)


def test_a_watcher_dying_at_the_same_time_still_sees_the_others() -> None:
    """603.10a: leaves-the-battlefield abilities look back in time."""
    text = (
        "perm w controller=Alice creature 1/1 damage=1\n"
        "ability w deuil trigger=another_creature_dies\n"
        "perm x controller=Bob creature 1/1 damage=1\n"
    )
    res = resolve(board(TWO + text))
    assert [(t.source, t.object) for t in res.triggers] == [("w", "x")]


def test_an_effect_of_a_permanent_that_lost_its_abilities_is_gone() -> None:
    """613.8: the removal applies first; the ability granting indestructible no longer
    exists."""
    text = (
        "perm e controller=Alice creature 1/1\n"
        "effect a source=e layer=6 timestamp=9 affects.self effect.add_abilities=indestructible\n"
        "effect b source=e layer=6 timestamp=2 affects.self effect.remove_abilities=all"
    )
    assert not Snapshot(board(TWO + text)).permanents["e"].is_indestructible


def test_dependency_goes_before_timestamps() -> None:
    """613.8a: the grant depends on the removal of its source's abilities, so the removal
    applies first although it is newer; the grant then no longer exists."""
    text = (
        "perm g name=Capitaine controller=Alice creature 2/2\n"
        "perm e controller=Alice creature 1/1\nperm m controller=Bob enchantment\n"
        "effect grant source=g layer=6 timestamp=1 affects.other affects.types=creature "
        "effect.add_abilities=indestructible\n"
        "effect mute source=m layer=6 timestamp=5 affects.ids=g effect.remove_abilities=all"
    )
    assert not Snapshot(board(TWO + text)).permanents["e"].is_indestructible
    without_mute = text.rsplit("\n", 1)[0]
    assert Snapshot(board(TWO + without_mute)).permanents["e"].is_indestructible


# 613.8 in layer 2: (board, object, its controller after layer 2, its controller if the
# effects applied in timestamp order alone).
MUTINY = (
    "perm mut name=Mutinerie controller=Alice artifact\n"
    "other vol zone=graveyard owner=Bob\n"
    # "You control all creatures your opponents control" (Alice's, static, oldest).
    "effect all source=mut layer=2 timestamp=1 affects.types=creature "
    "affects.controller=opponents effect.control=Alice\n"
)
DEPENDENCY_CASES = {
    # 613.8a: Bob's newer steal changes what the mutiny applies to (x becomes an opponent's):
    # the mutiny depends on it, applies after it and takes x back.
    "613.8a-what-it-applies-to": (
        MUTINY + "perm x controller=Alice creature 1/1\n"
        "effect steal source=vol kind=resolved layer=2 timestamp=2 affects.ids=x "
        "effect.control=Bob",
        "x",
        "Alice",
        "Bob",
    ),
    # 613.8a: the steal gives Bob the mutiny's source, so "opponents" now means Alice: the
    # mutiny applies after it, and Bob's creature z is no longer an opponent's.
    "613.8a-its-source-changes-hands": (
        MUTINY + "perm z controller=Bob creature 1/1\n"
        "effect steal source=vol kind=resolved layer=2 timestamp=2 affects.ids=mut "
        "effect.control=Bob",
        "z",
        "Bob",
        "Alice",
    ),
    # 613.7: a change of control that applies to every creature, whoever controls it, depends
    # on nothing: timestamps decide and the newer steal wins.
    "613.7-no-dependency": (
        MUTINY.replace("affects.controller=opponents", "affects.controller=any")
        + "perm x controller=Alice creature 1/1\n"
        "effect steal source=vol kind=resolved layer=2 timestamp=2 affects.ids=x "
        "effect.control=Bob",
        "x",
        "Bob",
        "Bob",
    ),
    # 613.8b: each mutiny changes what the other applies to (a loop): timestamp order,
    # Alice's first (z to Alice), then Bob's takes both creatures.
    "613.8b-loop": (
        "perm s1 controller=Alice artifact\nperm s2 controller=Bob artifact\n"
        "perm x controller=Alice creature 1/1\nperm z controller=Bob creature 1/1\n"
        "effect e2 source=s2 layer=2 timestamp=2 affects.types=creature "
        "affects.controller=opponents effect.control=Bob\n"
        "effect e1 source=s1 layer=2 timestamp=1 affects.types=creature "
        "affects.controller=opponents effect.control=Alice",
        "x",
        "Bob",
        "Bob",
    ),
}


@pytest.mark.parametrize("name", sorted(DEPENDENCY_CASES))
def test_dependency_in_layer_2(name: str) -> None:
    """613.8: within layer 2, an effect whose targets a change of control would change waits
    for that change (613.8a–b); in a loop, timestamp order (613.8b)."""
    text, ident, expected, by_timestamps = DEPENDENCY_CASES[name]
    assert Snapshot(board(TWO + text)).permanents[ident].controller == expected
    with mock.patch.object(_Layers, "may_depend", return_value=False):
        plain = Snapshot(board(TWO + text)).permanents[ident].controller
    assert plain == by_timestamps  # what the dependency changes, or not


def test_the_loop_of_613_8b_leaves_the_z_creature_to_the_newer_mutiny() -> None:
    text = DEPENDENCY_CASES["613.8b-loop"][0]
    assert Snapshot(board(TWO + text)).permanents["z"].controller == "Bob"


def test_abilities_lost_in_layer_6_do_not_trigger() -> None:
    text = (
        "perm a controller=Alice creature 1/1 damage=1\n"
        "ability a adieu trigger=dies\n"
        "effect m source=a layer=6 affects.self effect.remove_abilities=all\n"
    )
    assert resolve(board(TWO + text)).triggers == ()


def test_a_noncreature_leaving_does_not_die() -> None:
    text = (
        "perm s controller=Alice enchantment Saga final_chapter=1 counters=lore:1\n"
        "ability s fin trigger=dies\nability s part trigger=leaves\n"
    )
    assert [t.ability for t in resolve(board(TWO + text)).triggers] == ["part"]


# --- the compact form both ways ---------------------------------------------------------


@pytest.mark.parametrize("text", [LORD, TRIGGERS, LAYER_CASES["7a-hand"][0]])
def test_compact_round_trip(text: str) -> None:
    b = board(TWO + text)
    compact = board_to_compact(b)
    again = load_board(decode_board_text(compact)).board
    assert board_to_dict(again) == board_to_dict(b)
    assert board_to_compact(again) == compact


# --- bad boards -------------------------------------------------------------------------

BAD = {
    "no source": ("effect e source=nobody layer=7c effect.power=1", "« source »"),
    "no layer": ("perm x controller=Alice\neffect e source=x layer=5 effect.power=1", "« layer »"),
    "wrong layer field": (
        "perm x controller=Alice\neffect e source=x layer=7c effect.control=Bob",
        "« control »",
    ),
    "resolved without ids": (
        "perm x controller=Alice\neffect e source=x kind=resolved layer=7c effect.power=1",
        "« affects »",
    ),
    "unknown cda": (
        "perm x controller=Alice\neffect e source=x kind=cda layer=7a effect.cda=lands",
        "« cda »",
    ),
    "trigger without event": ("perm x controller=Alice\nability x t text=boom", "« trigger »"),
    "unknown trigger": ("perm x controller=Alice\nability x t trigger=attacks", "« trigger »"),
    "unknown damage source": (
        "perm x controller=Alice creature 1/1 dealt_damage_this_turn_by=ghost",
        "« dealt_damage_this_turn_by »",
    ),
    "unknown controller": (
        "perm x controller=Alice\neffect e source=x layer=7c controller=Zed effect.power=1",
        "« controller »",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_boards_name_the_field_and_the_object(name: str) -> None:
    text, word = BAD[name]
    with pytest.raises(BoardError) as caught:
        board(TWO + text)
    assert word in caught.value.message
    if "effect" in text:
        assert "continuous_effects[0]" in caught.value.message


def test_text_output_lists_the_stated_triggers() -> None:
    out = render_text(resolve(board(TWO + TRIGGERS)))
    assert "capacité « piochez une carte » d'Aigle (a), contrôlée par Alice" in out


@pytest.mark.parametrize(
    "path",
    sorted((Path(__file__).resolve().parents[2] / "corpus" / "boards").glob("*.json")),
    ids=lambda p: p.stem,
)
def test_every_gallery_board_prints_back_to_its_compact_text(path: Path) -> None:
    b = load_board_file(path).board
    compact = board_to_compact(b)
    again = load_board(decode_board_text(compact)).board
    assert board_to_dict(again) == board_to_dict(b)
    assert board_to_compact(again) == compact

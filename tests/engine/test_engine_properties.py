"""Properties over generated boards (hypothesis), under both rulesets: after resolution no
state-based action applies; the outcome does not depend on the order of the objects in
the file; resolution ends; layers reused between passes change nothing."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from judge.engine import Board, Resolution, layers, load_board, next_event, render_text, resolve
from judge.engine.state import Snapshot

NAMES = ["Alpha", "Beta", "Gamma"]
PLAYERS = ["A", "B"]
RULESETS: list[str] = ["fr-2024", "fr-pre2009"]


@st.composite
def board_data(draw: st.DrawFn) -> dict[str, Any]:
    players = []
    for name in PLAYERS:
        p: dict[str, Any] = {
            "name": name,
            "life": draw(st.integers(-2, 3)),
            "poison": draw(st.sampled_from([0, 3, 10])),
            "drew_from_empty_library": draw(st.booleans()),
            "cant_lose": draw(st.booleans()),
        }
        if draw(st.booleans()):
            p["loss_replacement"] = {
                "name": "Miroir",
                "life": 20,
                "permanents_to_library": draw(st.booleans()),
            }
        players.append(p)
    perms: list[dict[str, Any]] = []
    n = draw(st.integers(0, 14))
    for i in range(n):
        ident = f"p{i}"
        controller = draw(st.sampled_from(PLAYERS))
        owner = draw(st.sampled_from(PLAYERS))
        kind = draw(
            st.sampled_from(
                [
                    "creature",
                    "creature",
                    "creature",
                    "aura",
                    "equipment",
                    "planeswalker",
                    "saga",
                    "battle",
                    "artifact",
                    "world",
                    "role",
                ]
            )
        )
        p = {"id": ident, "controller": controller, "owner": owner, "timestamp": i}
        p["name"] = draw(st.sampled_from(NAMES))
        if draw(st.booleans()):
            p["supertypes"] = ["legendary"]
        targets = [q["id"] for q in perms] + PLAYERS + [None]
        if kind == "creature":
            counters = {
                "+1/+1": draw(st.integers(0, 2)),
                "-1/-1": draw(st.integers(0, 2)),
            }
            p.update(
                types=["creature"],
                power=draw(st.integers(-1, 3)),
                toughness=draw(st.integers(-1, 3)),
                damage=draw(st.integers(0, 3)),
                deathtouch_damage=draw(st.integers(0, 1)),
                regeneration_shields=draw(st.integers(0, 2)),
                indestructible=draw(st.booleans()),
                token=draw(st.booleans()),
                counters=counters,
                keywords=draw(st.lists(st.sampled_from(["persist", "undying"]), unique=True)),
                protection_from=draw(st.lists(st.sampled_from(["white", "red"]), unique=True)),
            )
            if draw(st.booleans()):
                p["max_counters"] = {"+1/+1": draw(st.integers(0, 2))}
            if draw(st.integers(0, 5)) == 0:
                p["attached_to"] = draw(st.sampled_from(targets))
        elif kind in ("aura", "role"):
            p.update(
                types=["enchantment"],
                subtypes=["Aura", "Role"] if kind == "role" else ["Aura"],
                enchant=draw(st.sampled_from(["creature", "land", "permanent", "player"])),
                attached_to=draw(st.sampled_from(targets)),
                colors=[draw(st.sampled_from(["white", "red", "green"]))],
            )
        elif kind == "equipment":
            p.update(
                types=["artifact"],
                subtypes=[draw(st.sampled_from(["Equipment", "Fortification"]))],
                attached_to=draw(st.sampled_from(targets)),
            )
        elif kind == "planeswalker":
            p.update(types=["planeswalker"], counters={"loyalty": draw(st.integers(0, 2))})
        elif kind == "saga":
            p.update(
                types=["enchantment"],
                subtypes=["Saga"],
                counters={"lore": draw(st.integers(0, 3))},
                final_chapter=draw(st.integers(0, 3)),
                trigger_on_stack=draw(st.booleans()),
            )
        elif kind == "battle":
            other = "B" if controller == "A" else "A"
            p.update(
                types=["battle"],
                subtypes=["Siege"],
                counters={"defense": draw(st.integers(0, 2))},
                protector=draw(st.sampled_from([None, controller, other])),
            )
        elif kind == "world":
            p.update(types=["enchantment"], supertypes=["world"])
        else:
            p.update(types=["artifact"], attached_to=draw(st.sampled_from(targets)))
        perms.append(p)
    # one choice for every possible legend group, so that resolution never has to stop
    groups: dict[tuple[str, str], list[str]] = {}
    for p in perms:
        if "legendary" in p.get("supertypes", []):
            groups.setdefault((p["controller"], p["name"]), []).append(p["id"])
    choices = [{"rule": "704.5j", "keep": draw(st.sampled_from(ids))} for ids in groups.values()]
    others = []
    for i in range(draw(st.integers(0, 4))):
        others.append(
            {
                "id": f"o{i}",
                "zone": draw(st.sampled_from(["graveyard", "exile", "stack", "hand"])),
                "owner": draw(st.sampled_from(PLAYERS)),
                "token": draw(st.booleans()),
                "spell_copy": draw(st.booleans()),
                "card_copy": draw(st.booleans()),
            }
        )
    return {
        "players": players,
        "permanents": perms,
        "other_zones": others,
        "choices": choices,
        "continuous_effects": draw(effects(perms, others)),
    }


@st.composite
def effects(draw: st.DrawFn, perms: list[dict[str, Any]], others: list[dict[str, Any]]) -> Any:
    """Continuous effects (613) and stated triggers on some of the generated permanents;
    every effect has its own timestamp (the file's order never decides)."""
    creatures = [p for p in perms if p.get("types") == ["creature"]]
    for p in creatures:
        if draw(st.integers(0, 3)) == 0:
            p["printed"] = {"toughness": draw(st.integers(0, 3))}
        if draw(st.integers(0, 3)) == 0:
            event = draw(st.sampled_from(["dies", "another_creature_dies", "creature_dies"]))
            p["triggered_abilities"] = [{"id": "t", "trigger": event}]
    sources = [p["id"] for p in perms] + [o["id"] for o in others]
    out: list[dict[str, Any]] = []
    if not sources or not draw(st.booleans()):
        return out
    for i in range(draw(st.integers(0, 4))):
        # Not layer 2: the stated legend choices follow the stated controllers.
        layer = draw(st.sampled_from(["6", "7b", "7c", "7c", "7d"]))
        body: dict[str, Any] = {
            "2": {"control": draw(st.sampled_from(PLAYERS))},
            "6": {"remove_abilities": ["all"]}
            if draw(st.booleans())
            else {"add_abilities": ["indestructible"]},
            "7b": {"set_toughness": draw(st.integers(0, 2))},
            "7c": {"power": 1, "toughness": draw(st.integers(-2, 2))},
            "7d": {"switch": True},
        }[layer]
        affects: dict[str, Any] = draw(
            st.sampled_from(
                [{"types": ["creature"]}, {"other": True, "controller": "you"}, {"self": True}]
            )
        )
        out.append(
            {
                "id": f"e{i}",
                "source": draw(st.sampled_from(sources)),
                "layer": layer,
                "affects": affects,
                "effect": body,
                "timestamp": 100 + i,
            }
        )
    return out


def load(data: dict[str, Any]) -> Board:
    return load_board(data).board


def outcome(res: Resolution) -> tuple[object, ...]:
    return (
        [[(a.rule, a.kind, a.subject, a.also, a.why) for a in p.actions] for p in res.passes],
        [[(n.rule, n.kind, n.subject, n.why) for n in p.not_applied] for p in res.passes],
        res.losers,
        [(t.source, t.ability, t.controller, t.after_pass) for t in res.triggers],
        sorted((p.id, repr(p)) for p in res.final.permanents),
        sorted(repr(o) for o in res.final.other_zones),
        res.final.players,
        res.final.stack,
        [(c.rule, c.player, c.options) for c in res.choices_needed],
        res.stopped,
    )


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(board_data(), st.sampled_from(RULESETS))
def test_after_resolution_no_state_based_action_applies(data: dict[str, Any], ruleset: str) -> None:
    res = resolve(load(data), ruleset)
    assume(res.stopped is None)
    left, asked = next_event(res.final, ruleset)
    assert left == []
    assert asked == []
    # resolving again changes nothing
    again = resolve(res.final, ruleset)
    assert [p.actions for p in again.passes] == [() for _ in again.passes]
    assert again.final.permanents == res.final.permanents


@SETTINGS
@given(board_data(), st.sampled_from(RULESETS), st.randoms(use_true_random=False))
def test_outcome_does_not_depend_on_the_order_of_objects(
    data: dict[str, Any], ruleset: str, rnd: random.Random
) -> None:
    shuffled = dict(data)
    for key in ("permanents", "other_zones", "choices", "continuous_effects"):
        items = list(data[key])
        rnd.shuffle(items)
        shuffled[key] = items
    assert outcome(resolve(load(data), ruleset)) == outcome(resolve(load(shuffled), ruleset))


@SETTINGS
@given(board_data(), st.sampled_from(RULESETS))
def test_resolution_ends(data: dict[str, Any], ruleset: str) -> None:
    board = load(data)
    res = resolve(board, ruleset)
    assert res.stopped in (None, "loop")
    # each pass removes, moves or changes something that does not come back
    bound = 3 * (len(board.permanents) + len(board.other_zones) + len(board.players)) + 3
    assert len(res.passes) <= bound
    watchers = sum(len(p.triggered_abilities) for p in board.permanents)
    assert len(res.triggers) <= len(board.permanents) * (2 + watchers)


def _what_happens(res: Resolution) -> tuple[object, ...]:
    """The outcome without the explanations (which say where each number comes from)."""
    return (
        [[(a.rule, a.kind, a.subject) for a in p.actions] for p in res.passes],
        res.losers,
        [(t.source, t.ability, t.controller, t.object) for t in res.triggers],
        sorted(p.id for p in res.final.permanents),
        sorted((o.id, o.zone) for o in res.final.other_zones),
        res.stopped,
    )


@SETTINGS
@given(board_data(), st.sampled_from(RULESETS))
def test_a_board_without_static_ability_is_read_as_stated(
    data: dict[str, Any], ruleset: str
) -> None:
    """No continuous effect and no printed value: the stated values are the current ones, as
    before layers were modelled — an effect that changes nothing changes no outcome."""
    data = dict(data, continuous_effects=[])
    for p in data["permanents"]:
        p.pop("printed", None)
    plain = resolve(load(data), ruleset)
    assert not Snapshot(load(data)).origins
    source = data["permanents"][0]["id"] if data["permanents"] else None
    assume(source is not None)
    neutral = {"id": "n", "source": source, "layer": "7c", "effect": {"power": 0, "toughness": 0}}
    with_neutral = resolve(load(dict(data, continuous_effects=[neutral])), ruleset)
    assert _what_happens(with_neutral) == _what_happens(plain)


def _explained(layered: layers.Layered) -> list[tuple[str, str]]:
    return [(pid, o.explain()) for pid, o in layered.origins.items()]


@SETTINGS
@given(board_data(), st.sampled_from(RULESETS))
def test_layers_reused_between_passes_give_what_fresh_layers_give(
    data: dict[str, Any], ruleset: str
) -> None:
    """A pass starts from the previous pass's application of the continuous effects and
    works out again only the permanents that changed: at every pass, the permanents and
    their explanations are those of an application worked out afresh, and so is the outcome."""
    real = layers.apply_layers

    def compared(board: Board, previous: layers.Layered | None = None) -> layers.Layered:
        got = real(board, previous)
        fresh = real(board)
        assert list(got.permanents.items()) == list(fresh.permanents.items())
        assert _explained(got) == _explained(fresh)
        return got

    board = load(data)
    with mock.patch.object(layers, "apply_layers", compared):
        reused = resolve(board, ruleset)
    with mock.patch.object(layers, "_reuse", return_value=None):
        fresh = resolve(board, ruleset)
    assert outcome(reused) == outcome(fresh)
    assert render_text(reused) == render_text(fresh)

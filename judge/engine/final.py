"""The final board of a resolution, as a board file can state it: what has ended is left
out, so that the board reads back and resolving it again changes nothing.

- a static effect or a characteristic-defining ability whose source is no longer on the
  battlefield has ended (611.3a, 613); a resolved effect lasts (611.2c) but only for the
  permanents it was locked to that are still there, and names no source once its source has
  ceased to exist or left the game (800.4a);
- an ability on the stack whose source no longer exists stays there (113.7a) and says so
  (`source_gone`);
- a stated choice that was used, or that names an object or a player no longer there, is
  left out."""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import replace
from typing import Any

from judge.engine.records import read_choices
from judge.engine.state import Board, ContinuousEffect
from judge.engine.vocabulary import CHOICE_FIELDS, choice_key

# What each field of a stated choice names.
_CHOICE_REFS: Mapping[str, str] = {
    "keep": "permanent",
    "creature": "permanent",
    "battle": "permanent",
    "object": "permanent",
    "apply": "permanent",
    "commander": "object",
    "protector": "player",
    "player": "player",
}


def _kept_effect(
    e: ContinuousEffect, on_battlefield: Set[str], existing: Set[str]
) -> ContinuousEffect | None:
    resolved = e.kind == "resolved"
    if not resolved and e.source not in on_battlefield:
        return None  # ended with its source leaving the battlefield
    assert e.affects.ids is not None or not resolved  # a resolved effect is locked to ids
    if e.affects.ids is not None:
        ids = e.affects.ids & on_battlefield
        if not ids:
            return None  # every object it names has left the battlefield
        if ids != e.affects.ids:
            e = replace(e, affects=replace(e.affects, ids=ids))
    if resolved and e.source and e.source not in existing:
        e = replace(e, source="")
    return e


def _choice_stands(
    choice: Mapping[str, Any], used: Set[str], ids: Set[str], perms: Set[str], players: Set[str]
) -> bool:
    rule = str(choice.get("rule"))
    fields = CHOICE_FIELDS.get(rule)
    if fields is None or choice_key(rule, str(choice.get(fields[0]))) in used:
        return False
    for name, what in _CHOICE_REFS.items():
        value = choice.get(name)
        if not isinstance(value, str) or (name == "apply" and value == "regeneration"):
            continue
        pool = {"permanent": perms, "object": ids, "player": players}[what]
        if value not in pool:
            return False
    return True


def final_board(board: Board, used_choices: Set[str]) -> Board:
    """`board` with the ended effects and the spent choices left out (the same object when
    nothing is)."""
    perms = {p.id for p in board.permanents}
    ids = perms | {o.id for o in board.other_zones}
    players = {p.name for p in board.players}
    effects: list[ContinuousEffect] = []
    for e in board.continuous_effects:
        kept = _kept_effect(e, perms, ids)
        if kept is not None:
            effects.append(kept)
    stack = tuple(
        s if s.source in ids or s.source_gone else replace(s, source_gone=True) for s in board.stack
    )
    raw = [c for c in board.choices.raw if _choice_stands(c, used_choices, ids, perms, players)]
    changes: dict[str, Any] = {}
    if len(effects) != len(board.continuous_effects) or any(
        a is not b for a, b in zip(effects, board.continuous_effects, strict=True)
    ):
        changes["continuous_effects"] = tuple(effects)
    if stack != board.stack:
        changes["stack"] = stack
    if len(raw) != len(board.choices.raw):
        changes["choices"] = read_choices(raw, [], lambda *_: None)
    return replace(board, **changes) if changes else board

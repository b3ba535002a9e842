"""Helpers for the engine tests: boards from the compact text form, and outcomes as
short strings "rule kind subject" that read like the rules."""

from __future__ import annotations

from judge.engine import (
    Board,
    ChoiceNeeded,
    Finding,
    Resolution,
    check_state,
    load_board,
    next_event,
    parse_compact,
    resolve,
)


def board(text: str, **top: object) -> Board:
    data = parse_compact(text)
    data.update(top)
    return load_board(data).board


def short(f: Finding) -> str:
    return f"{f.rule} {f.kind} {f.subject}"


def applies(b: Board, ruleset: str | None = None) -> set[str]:
    """What one check finds, before replacements (notes left out)."""
    return {short(o) for o in check_state(b, ruleset) if isinstance(o, Finding) and not o.note}


def notes(b: Board, ruleset: str | None = None) -> set[str]:
    return {short(o) for o in check_state(b, ruleset) if isinstance(o, Finding) and o.note}


def choices(b: Board, ruleset: str | None = None) -> list[ChoiceNeeded]:
    return [o for o in check_state(b, ruleset) if isinstance(o, ChoiceNeeded)]


def performed(b: Board, ruleset: str | None = None) -> set[str]:
    """What the next check would actually perform (prevented actions left out)."""
    return {short(a) for a in next_event(b, ruleset)[0]}


def actions(res: Resolution) -> list[list[str]]:
    return [sorted(short(a) for a in p.actions) for p in res.passes]


def all_notes(res: Resolution) -> set[str]:
    return {short(n) for n in res.not_applied}


def battlefield(res: Resolution) -> list[str]:
    return sorted(p.id for p in res.final.permanents)


def zone_of(res: Resolution, object_id: str) -> str | None:
    for p in res.final.permanents:
        if p.id == object_id:
            return "battlefield"
    for o in res.final.other_zones:
        if o.id == object_id:
            return o.zone
    return None


def run(text: str, ruleset: str | None = None, **top: object) -> Resolution:
    return resolve(board(text, **top), ruleset)


TWO = "player Alice\nplayer Bob\n"

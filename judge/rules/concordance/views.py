"""A word diff laid out for display: one side of it, or one text to read."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from judge.rules.concordance.diff import RENUMBERED_ARROW, DiffPart, is_cosmetic, segments

DiffMark = Literal["", "delete", "insert", "renumbered"]


def side_view(diff: Iterable[DiffPart], side: Literal["old", "new"]) -> list[tuple[DiffMark, str]]:
    """One side of the diff, to show two texts side by side: pieces (mark, text) that, put end
    to end, give that side's text exactly. Mark ``""``: shown as it is (the same on both
    sides, or changed only in spacing or style); ``delete`` (old side) or ``insert`` (new
    side): a change; ``renumbered``: the number of a renumbered cross-reference."""
    out: list[tuple[DiffMark, str]] = []
    for kind, old, new in segments(diff):
        text = old if side == "old" else new
        if not text:
            continue
        if kind == "renumbered":
            out.append(("renumbered", text))
        elif kind == "change" and not is_cosmetic(old, new):
            out.append(("delete" if side == "old" else "insert", text))
        else:
            out.append(("", text))
    return out


def inline_view(diff: Iterable[DiffPart]) -> list[tuple[DiffMark, str]]:
    """The diff as one text to read: the new text, with each deletion shown where it was.
    Pieces (mark, text): ``""`` as it is, ``delete``, ``insert``, ``renumbered`` (the whole
    ``"408 → 117"``). A deletion comes without the spacing the new text already gives, and
    changes of spacing or style alone show the new text."""
    out: list[tuple[DiffMark, str]] = []
    for kind, old, new in segments(diff):
        if kind == "renumbered":
            out.append(("renumbered", f"{old}{RENUMBERED_ARROW}{new}"))
        elif kind == "equal" or is_cosmetic(old, new):
            if new:
                out.append(("", new))
        else:
            out += _change(old, new, out[-1][1][-1:] if out else "")
    return out


def _change(old: str, new: str, before: str) -> list[tuple[DiffMark, str]]:
    """A change in the inline view: the deletion (spaced from the character `before` it when
    the new text does not space it), then the insertion."""
    out: list[tuple[DiffMark, str]] = []
    core = old.strip()
    if core:
        lead = old[: len(old) - len(old.lstrip())]
        trail = old[len(old.rstrip()) :]
        if before and not before.isspace() and (lead or (before.isalnum() and core[0].isalnum())):
            out.append(("", lead or " "))
        out.append(("delete", core))
        if trail and not new[:1].isspace():
            out.append(("", trail))
    if new:
        out.append(("insert", new))
    return out

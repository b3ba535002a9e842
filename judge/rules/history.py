"""A rule across the editions of its language, and what one release changed.

Both follow renumbering through the concordance (old 420.5e → 704.5k → 704.5j) and use its
word diff, so a cross-reference that was only renumbered is not a change."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from judge.rules.concordance import Concordance, DiffOp, DiffPart, diff_rules, is_empty_diff
from judge.rules.concordance.comparison import covers, has_text
from judge.rules.errors import JudgeError
from judge.rules.model import Edition, Rule
from judge.rules.numbers import sort_key


class VersionChange(StrEnum):
    ADDED = "added"
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    RENUMBERED = "renumbered"
    REMOVED = "removed"


def diff_json(parts: Iterable[DiffPart]) -> list[list[str]]:
    """A word diff as `[[op, text], …]`, the shape of every `--json` diff."""
    return [p.to_json() for p in parts]


def reworded(diff: Iterable[DiffPart]) -> bool:
    """Whether the words changed: a cross-reference that only followed a renumbering, or a
    change of spacing or apostrophes, is no change."""
    return not is_empty_diff(p for p in diff if p.op is not DiffOp.RENUMBERED)


@dataclass(frozen=True)
class Version:
    edition: Edition
    rule: Rule | None  # None once removed
    number: str
    change: VersionChange
    diff: tuple[DiffPart, ...] = ()

    @property
    def text(self) -> str:
        return self.rule.text if self.rule is not None else ""

    @property
    def language(self) -> str:
        return self.edition.language

    def to_dict(self) -> dict[str, Any]:
        return {
            "edition": self.edition.id,
            "language": self.edition.language,
            "date": self.edition.date,
            "rule": self.number,
            "text": self.text,
            "change": str(self.change),
            "diff": diff_json(self.diff),
        }


@dataclass(frozen=True)
class History:
    rule: Rule
    versions: tuple[Version, ...]  # oldest first

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule.number,
            "edition": self.rule.edition,
            "versions": [v.to_dict() for v in self.versions],
        }


def _oldest_first(editions: Iterable[Edition]) -> list[Edition]:
    return sorted(editions, key=lambda e: (e.order, e.date, e.id))


def _version(
    conc: Concordance, ed: Edition, rule: Rule | None, previous: Version | None
) -> Version | None:
    """This edition's version against the previous one; None when there is nothing to say
    (absent before and still absent)."""
    before = previous.rule if previous is not None else None
    if not has_text(rule):
        if before is None:
            return None
        return Version(ed, None, previous.number if previous else "", VersionChange.REMOVED)
    assert rule is not None
    if before is None or previous is None:
        return Version(ed, rule, rule.number, VersionChange.ADDED)
    diff = tuple(diff_rules(before, rule, conc))
    if rule.number != before.number:
        change = VersionChange.RENUMBERED
    elif not reworded(diff):
        change = VersionChange.UNCHANGED
    else:
        change = VersionChange.CHANGED
    return Version(ed, rule, rule.number, change, diff)


def history(conc: Concordance, rule: Rule, *, all_languages: bool = False) -> History:
    """Every version of `rule` in the editions of its language, oldest first; with
    `all_languages`, also its versions in the other languages where the concordance links
    them (each diffed against the version before it in its own language)."""
    index = conc.index
    own = index.edition(rule.edition)
    languages = [own.language]
    if all_languages:
        languages += sorted({e.language for e in index.editions} - {own.language})
    versions: list[Version] = []
    for language in languages:
        versions += _timeline(conc, rule, own, language)
    if all_languages:
        order = {e.id: i for i, e in enumerate(_oldest_first(index.editions))}
        versions.sort(key=lambda v: order[v.edition.id])
    return History(rule, tuple(versions))


def _timeline(conc: Concordance, rule: Rule, own: Edition, language: str) -> list[Version]:
    versions: list[Version] = []
    previous: Version | None = None
    for ed in _oldest_first(e for e in conc.index.editions if e.language == language):
        if not covers(conc, rule, ed):
            continue
        if ed.id == own.id:
            found: Rule | None = rule
        else:
            link = conc.counterpart(own.id, rule.number, ed.id, approximate=False)
            found = ed.rules.get(link.to_rule) if link is not None else None
        version = _version(conc, ed, found, previous)
        if version is None:
            continue
        versions.append(version)
        previous = version
    return versions


# --- what a release changed ------------------------------------------------------------------


@dataclass(frozen=True)
class Moved:
    old: Rule
    new: Rule
    diff: tuple[DiffPart, ...]

    @property
    def changed(self) -> bool:
        return reworded(self.diff)

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.old.number, "to": self.new.number, "changed": self.changed}


@dataclass(frozen=True)
class Changed:
    old: Rule
    new: Rule
    diff: tuple[DiffPart, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.new.number, "diff": diff_json(self.diff)}


@dataclass(frozen=True)
class Changes:
    old: Edition
    new: Edition
    added: tuple[Rule, ...]
    removed: tuple[Rule, ...]
    changed: tuple[Changed, ...]
    moved: tuple[Moved, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": self.old.id,
            "to": self.new.id,
            "added": [r.number for r in self.added],
            "removed": [r.number for r in self.removed],
            "changed": [c.to_dict() for c in self.changed],
            "moved": [m.to_dict() for m in self.moved],
        }


class NoEditionPair(JudgeError):
    pass


def default_pair(conc: Concordance, language: str | None = None) -> tuple[str, str]:
    """The two newest editions of `language` (default: the newest edition's)."""
    editions = conc.index.editions  # newest first
    if not editions:
        raise NoEditionPair("Aucune édition chargée.")
    lang = language or editions[0].language
    same = [e.id for e in editions if e.language == lang]
    if len(same) < 2:
        raise NoEditionPair(
            f"Il faut deux éditions en « {lang} » pour voir ce qui a changé "
            f"(éditions : {', '.join(same) or 'aucune'}) ; indiquez --from et --to."
        )
    return same[1], same[0]


def neighbour(conc: Concordance, edition_id: str, *, older: bool) -> str:
    """The edition of the same language just before (or after) `edition_id`."""
    ed = conc.index.edition(edition_id)
    same = _oldest_first(e for e in conc.index.editions if e.language == ed.language)
    at = same.index(ed) + (-1 if older else 1)
    if not 0 <= at < len(same):
        where = "avant" if older else "après"
        raise NoEditionPair(
            f"Aucune édition en « {ed.language} » {where} {edition_id} : indiquez "
            f"{'--from' if older else '--to'}."
        )
    return same[at].id


def _rules_with_text(ed: Edition) -> list[Rule]:
    return [r for r in ed.rules.values() if r.kind in ("rule", "subrule") and has_text(r)]


def changes(conc: Concordance, old_id: str, new_id: str) -> Changes:
    """Rules added, removed, changed (word diffs) and moved from `old_id` to `new_id`."""
    index = conc.index
    old, new = index.edition(old_id), index.edition(new_id)
    reached: set[str] = set()
    removed: list[Rule] = []
    changed: list[Changed] = []
    moved: list[Moved] = []
    for rule in _rules_with_text(old):
        if not covers(conc, rule, new):
            continue
        link = conc.counterpart(old.id, rule.number, new.id, approximate=False)
        target = new.rules.get(link.to_rule) if link is not None else None
        if target is None or not has_text(target):
            removed.append(rule)
            continue
        reached.add(target.number)
        diff = tuple(diff_rules(rule, target, conc))
        if target.number != rule.number:
            moved.append(Moved(rule, target, diff))
        elif reworded(diff):
            changed.append(Changed(rule, target, diff))

    def is_new(rule: Rule) -> bool:
        if rule.number in reached or not covers(conc, rule, old):
            return False
        link = conc.counterpart(new.id, rule.number, old.id, approximate=False)
        return link is None or not has_text(old.rules.get(link.to_rule))

    added = [r for r in _rules_with_text(new) if is_new(r)]
    return Changes(
        old,
        new,
        tuple(sorted(added, key=lambda r: sort_key(r.number))),
        tuple(removed),
        tuple(changed),
        tuple(moved),
    )

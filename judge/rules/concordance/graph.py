"""Which pairs of editions the concordance links directly; every other pair is composed.

Linking every pair costs n² text matchings (29 editions: 406 pairs, minutes); a rule's
history only ever needs each edition against the next one. So the direct pairs are:

- in one language, each edition with the next (by date);
- and with a later one when the editions in between have no text for some of its sections
  (a shipped fragment: the French text before 2009 holds 420 and 408, the 2011 one 118 only,
  so the old 420 is linked straight to 2024's 704);
- across languages, every pair (the French texts are fragments: those pairs are small).

The graph depends only on what opening the index knows without reading rules: each
edition's language, numbering, date and the sections it has text for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from judge.rules.concordance.curated import CuratedData
from judge.rules.concordance.similarity import section_of
from judge.rules.model import Edition


def oldest_first(editions: Iterable[Edition]) -> list[Edition]:
    return sorted(editions, key=lambda e: (e.order, e.date, e.id))


def direct_pairs(
    editions: Sequence[Edition],
    data: CuratedData,
    covered: Mapping[str, frozenset[str]],
) -> frozenset[frozenset[str]]:
    """The pairs of edition ids linked directly (see the module's docstring)."""
    pairs: set[frozenset[str]] = set()
    languages = sorted({e.language for e in editions})
    for lang in languages:
        line = oldest_first(e for e in editions if e.language == lang)
        for i, ed in enumerate(line):
            pairs |= _forward(ed, line[i + 1 :], data, covered)
    for i, a in enumerate(editions):
        for b in editions[i + 1 :]:
            if a.language != b.language:
                pairs.add(frozenset((a.id, b.id)))
    return frozenset(pairs)


def _forward(
    ed: Edition,
    later: Sequence[Edition],
    data: CuratedData,
    covered: Mapping[str, frozenset[str]],
) -> set[frozenset[str]]:
    """`ed` with the next edition, then with each later one that has text for sections of
    `ed` that no edition in between has."""
    out: set[frozenset[str]] = set()
    if not later:
        return out
    out.add(frozenset((ed.id, later[0].id)))
    # What is left to link, as numbered in a later edition of either numbering.
    remaining = {n: _mapped(ed, n, data, covered[ed.id]) for n in ("modern", "pre2009")}
    for nxt in later:
        left = remaining[nxt.numbering]
        found = left & covered[nxt.id]
        if found and nxt is not later[0]:
            out.add(frozenset((ed.id, nxt.id)))
        left -= found
    return out


def _mapped(ed: Edition, numbering: str, data: CuratedData, sections: frozenset[str]) -> set[str]:
    """`sections` of `ed` as numbered in an edition of `numbering`: the same numbers, or
    through the curated tables across the 2009 renumbering."""
    if ed.numbering == numbering:
        return set(sections)
    out = set()
    for table in data.tables:
        if table.from_.numbering == ed.numbering and table.to.numbering == numbering:
            out |= {
                section_of(cl.to_rule) for cl in table.links if section_of(cl.from_rule) in sections
            }
        elif table.to.numbering == ed.numbering and table.from_.numbering == numbering:
            out |= {
                section_of(cl.from_rule) for cl in table.links if section_of(cl.to_rule) in sections
            }
    return out

"""Which rules a question asks about, when it says so: « avant 2009 », « en 2011 », « dans
les anciennes règles », "under the old rules". The copies of a rule in the editions of that
time then lead its hit, and older editions are not ranked as rules no longer in force."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

_YEAR = r"((?:19|20)\d\d)"
_E = "[eéèêë]"  # the patterns read the query as typed: accents or none, any case
_A = "['’]"
_BEFORE = re.compile(
    rf"\b(?:avant|before|pr{_E}|until|jusqu{_A}en)(?: l{_A}an| la version de)?[\s-]+{_YEAR}\b",
    re.IGNORECASE,
)
_DURING = re.compile(
    rf"\b(?:en|in|de|du|of|version|r{_E}gles de|rules of|cr de|{_E}dition de|{_E}dition)"
    rf"\s+{_YEAR}\b",
    re.IGNORECASE,
)
_OLD = re.compile(
    rf"\b(?:anciennes?|viei?lles?|vieux|ancien|pr{_E}c{_E}dentes?|old|older|previous|earlier)"
    rf"\s+(?:r{_E}gles?|rules?|versions?|num{_E}rotation|numbering|cr|{_E}ditions?)\b"
    rf"|(?:\b|^)(?:[aà] l{_A}{_E}poque|autrefois|back then|in the old days)\b",
    re.IGNORECASE,
)
_NOW = re.compile(
    rf"\b(?:r{_E}gles? actuelles?|actuellement|aujourd{_A}hui|de nos jours|maintenant"
    r"|current rules|currently|today|nowadays)\b",
    re.IGNORECASE,
)


class _EditionLike(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def order(self) -> int: ...
    @property
    def language(self) -> str: ...


@dataclass(frozen=True)
class Era:
    """The time a question asks about: before a year, a year, today's rules, or older
    rules unnamed."""

    before: int | None = None
    year: int | None = None
    now: bool = False

    @property
    def old(self) -> bool:
        """Older rules, no year said: the copy whose text fits best leads."""
        return self.before is None and self.year is None and not self.now

    def editions(self, editions: Iterable[_EditionLike]) -> frozenset[str]:
        """The editions of that time: every one before the year, or those of the year (else
        the newest before it, in force that year); today's: the newest of each language;
        older rules unnamed: every edition but those."""
        known = list(editions)
        if self.before is not None:
            return frozenset(e.id for e in known if e.order < self.before)
        if self.year is None:
            newest: dict[str, int] = {}
            for e in known:
                newest[e.language] = max(newest.get(e.language, e.order), e.order)
            return frozenset(e.id for e in known if (e.order == newest[e.language]) == self.now)
        year = self.year
        found = [e for e in known if e.order == year]
        if not found:
            earlier = [e.order for e in known if e.order < year]
            found = [e for e in known if earlier and e.order == max(earlier)]
        return frozenset(e.id for e in found)


def read_era(text: str) -> tuple[Era | None, list[tuple[int, int]]]:
    """The era `text` asks about, and where `text` says it (those words are not asked for);
    none when it names none, or compares two (« avant 2009 et aujourd'hui »). A year is
    more precise than « anciennes règles » said beside it."""
    before = [(Era(before=int(m.group(1))), m.span()) for m in _BEFORE.finditer(text)]
    during = [
        (Era(year=int(m.group(1))), m.span())
        for m in _DURING.finditer(text)
        if not any(a < m.end() and m.start() < b for _, (a, b) in before)
    ]
    old = [(Era(), m.span()) for m in _OLD.finditer(text)]
    now = [(Era(now=True), m.span()) for m in _NOW.finditer(text)]
    dated = before + during
    found = [*dated, *now] if dated else [*old, *now]
    eras = {era for era, _ in found}
    if len(eras) != 1:
        return None, []
    return eras.pop(), sorted(span for _, span in [*found, *(old if dated else [])])

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
    rf"\b(?:avant|before|pr{_E})(?: l{_A}an| la version de)?[\s-]+{_YEAR}\b", re.IGNORECASE
)
# not a bare « de 2015 », "of 2015": « une carte de 2015 » is a card, not the rules of then
_DURING = re.compile(
    rf"\b(?:en|in|version(?: de)?|r{_E}gles de|rules of|cr de|cr of|{_E}dition(?: de)?)"
    rf"\s+{_YEAR}\b",
    re.IGNORECASE,
)
# « depuis 2009 », "since the 2009 edition", « jusqu'en 2009 », "until 2009": every edition
# from or up to then (2009 itself or not?), no one time
_SPAN = re.compile(
    rf"\b(?:depuis|since|jusqu{_A}(?:en|a|à)|until|till)\b[^,;.?!]{{0,24}}?{_YEAR}\b",
    re.IGNORECASE,
)
# the rules said old, not a card or a version of an object (« anciennes éditions des
# cartes », "older versions of a card", "the previous rule")
_OLD = re.compile(
    rf"\b(?:anciennes?|viei?lles?|old|older)\s+(?:r{_E}gles|rules|num{_E}rotation|numbering)\b"
    rf"|\bancienne\s+num{_E}rotation\b"
    rf"|(?:\b|^)(?:[aà] l{_A}{_E}poque|autrefois|back then|in the old days)\b",
    re.IGNORECASE,
)
# not « maintenant », « actuellement », "currently": a question says them of the game
# (« la créature est maintenant un artefact »), not of the rules
_NOW = re.compile(
    rf"\b(?:r{_E}gles? actuelles?|(?:version|{_E}dition) actuelle|aujourd{_A}hui|de nos jours"
    r"|current rules|current version|today|nowadays)\b",
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
        """The editions of that time, in each language: every one before the year; those
        of the year, else the newest before it (in force that year); today's: the newest;
        older rules unnamed: every edition but the newest."""
        known = list(editions)
        if self.before is not None:
            return frozenset(e.id for e in known if e.order < self.before)
        out: set[str] = set()
        for language in {e.language for e in known}:
            own = [e for e in known if e.language == language]
            newest = max(e.order for e in own)
            if self.year is None:
                out.update(e.id for e in own if (e.order == newest) == self.now)
                continue
            then = [e.order for e in own if e.order <= self.year]
            if then:
                out.update(e.id for e in own if e.order == max(then))
        return frozenset(out)


def read_era(text: str) -> tuple[Era | None, list[tuple[int, int]]]:
    """The era `text` asks about, and where `text` says when, whether or not an era is
    chosen (those words are neither asked for nor corrected: "today" is no typo of
    "day"). None when it names no time, or compares two (« avant 2009 et aujourd'hui »);
    a year is more precise than « anciennes règles » beside it."""
    since = [m.span() for m in _SPAN.finditer(text)]

    def free(m: re.Match[str], taken: list[tuple[int, int]]) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    before = [
        (Era(before=int(m.group(1))), m.span()) for m in _BEFORE.finditer(text) if free(m, since)
    ]
    during = [
        (Era(year=int(m.group(1))), m.span())
        for m in _DURING.finditer(text)
        if free(m, since + [span for _, span in before])
    ]
    old = [(Era(), m.span()) for m in _OLD.finditer(text)]
    now = [(Era(now=True), m.span()) for m in _NOW.finditer(text)]
    dated = before + during
    eras = {era for era, _ in [*(dated or old), *now]}
    said = sorted(span for _, span in [*dated, *old, *now])
    if len(eras) != 1 or since:
        return None, said + since
    return eras.pop(), said

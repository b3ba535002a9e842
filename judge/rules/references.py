"""Citations in rule text (`cf. règle 117, « Timing et priorité »`, `See rule
714`, `rules 601.2 and 601.3`, `103.2a–e`, `section 6`), found and resolved
inside their own edition."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from judge.rules.model import Reference, Rule
from judge.rules.numbers import canonical, expand_range, parent

_LEAD = re.compile(
    r"(?P<prefix>(?:\b(?:cf\.|voir|voyez|see)\s+(?:la\s+|les\s+)?)?)"
    r"\b(?P<word>r[èe]gles?|rules?|sections?)\s+(?=\d)",
    re.IGNORECASE,
)
_NUM = re.compile(r"\d{3}(?:\.\d{1,3}[a-z]{0,2})?(?![\d])", re.IGNORECASE)
_CHAPTER_NUM = re.compile(r"\d(?![\d.])")
_RANGE_TAIL = re.compile(
    r"\s*[-–—]\s*(\d{3}\.\d{1,3}[a-z]{0,2}|\d{1,3}|[a-z]{1,2})(?![\w])"
    # "règles 704.5a à 704.5c", "rules 704.5a through 704.5c": a full number only.
    r"|\s+(?:à|through|to)\s+(\d{3}\.\d{1,3}[a-z]{0,2})(?![\w.]\d)",
    re.IGNORECASE,
)
_TITLE = re.compile(r"\s*,?\s*(?:[«\"“]\s*)([^»\"”]{1,90}?)\s*[»\"”]")
_SEP = re.compile(r"\s*(?:,\s*(?:and|et|or|ou)\s+|,\s*|\s+(?:and|et|or|ou)\s+)(?=\d)", re.I)


@dataclass(frozen=True)
class Citation:
    """A citation as written: the numbers it names and the titles it gives."""

    raw: str
    targets: tuple[str, ...]
    titles: tuple[tuple[str, str], ...]  # (number, title) pairs written beside numbers
    start: int
    end: int


def find_citations(text: str) -> Iterator[Citation]:
    for lead in _LEAD.finditer(text):
        pos = lead.end()
        is_section = lead.group("word").lower().startswith("section")
        targets: list[str] = []
        titles: list[tuple[str, str]] = []
        end = pos
        while True:
            m = (_CHAPTER_NUM if is_section else _NUM).match(text, pos)
            if not m:
                break
            first = canonical(m.group(0))
            if first is None:
                break
            pos = m.end()
            numbers = [first]
            rng = _RANGE_TAIL.match(text, pos)
            if rng and not is_section:
                numbers = expand_range(first, rng.group(1) or rng.group(2))
                pos = rng.end()
            targets.extend(numbers)
            end = pos
            t = _TITLE.match(text, pos)
            if t:
                titles.append((numbers[-1], t.group(1).strip().rstrip(".").strip()))
                pos = t.end()
                end = pos
            sep = _SEP.match(text, pos)
            if not sep:
                break
            pos = sep.end()
        if targets:
            yield Citation(
                text[lead.start() : end], tuple(targets), tuple(titles), lead.start(), end
            )


def nearest_title(number: str, rules: Mapping[str, Rule]) -> str | None:
    cur: str | None = number
    while cur is not None:
        rule = rules.get(cur)
        if rule is not None and rule.title:
            return rule.title
        cur = parent(cur)
    return None


def resolve(citation: Citation, edition: str, rules: Mapping[str, Rule]) -> list[Reference]:
    out: list[Reference] = []
    for target in citation.targets:
        rule = rules.get(target)
        if rule is None:
            status = "missing"
        elif rule.title_only:
            status = "title_only"
        else:
            status = "resolved"
        out.append(
            Reference(target, edition, citation.raw, status, nearest_title(target, rules))  # type: ignore[arg-type]
        )
    return out

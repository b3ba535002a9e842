"""What the matching compares: texts brought to a comparable form, French / English term
agreement, and the one-to-one choice among scored candidates."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from judge.rules.concordance.curated import CuratedData, load_curated
from judge.rules.model import Edition, Rule
from judge.rules.text import fold, unify_apostrophes

# A scored candidate pair: (sort key, best first), number in A, number in B.
Candidate = tuple[tuple[float, ...], str, str]

_RULE_NUMBER = re.compile(r"(?<![\w.])\d{3}(?:\.\d{1,3}[a-z]{0,2})?(?![\w])")
_NON_WORD = re.compile(r"[^\w#+/-]+")


def comparable(text: str, language: str, data: CuratedData) -> str:
    """The text as compared for similarity: 2009 wordings updated, rule numbers masked."""
    s = unify_apostrophes(text)
    for pattern, new in data.terminology.get(language, ()):
        s = pattern.sub(new, s)
    s = _RULE_NUMBER.sub("#", fold(s))
    # Words sorted: rapidfuzz's ratio on these is its token_sort_ratio, computed once.
    return " ".join(sorted(_NON_WORD.sub(" ", s).split()))


def bilingual_agreement(
    french: str, english: str, data: CuratedData | None = None
) -> tuple[float, int] | None:
    """How well a French text and an English text agree: (share of agreeing terms and numbers,
    number of terms and numbers observed), or None when nothing can be compared."""
    terms = (data or load_curated()).terms
    f, e = fold(french), english.lower()
    agree = disagree = 0
    for fr_pattern, en_pattern in terms:
        in_fr, in_en = fr_pattern.search(f) is not None, en_pattern.search(e) is not None
        if in_fr and in_en:
            agree += 1
        elif in_fr or in_en:
            disagree += 1
    digits_f, digits_e = Counter(re.findall(r"\d+", f)), Counter(re.findall(r"\d+", e))
    agree += sum((digits_f & digits_e).values())
    disagree += sum((digits_f - digits_e).values()) + sum((digits_e - digits_f).values())
    total = agree + disagree
    return (agree / total, total) if total else None


def language_of(rule: Rule, edition: Edition) -> str:
    return rule.language or edition.language


def section_of(number: str) -> str:
    return number.split(".")[0]


def greedy(candidates: Iterable[Candidate]) -> list[tuple[str, str]]:
    """One-to-one pairs, best key first."""
    used_a: set[str] = set()
    used_b: set[str] = set()
    out = []
    for _key, a, b in sorted(candidates, key=lambda c: c[0], reverse=True):
        if a in used_a or b in used_b:
            continue
        used_a.add(a)
        used_b.add(b)
        out.append((a, b))
    return out

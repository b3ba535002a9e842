"""Editions in two languages that share the numbering (the French rules of 2011 and
``en-2011-09-30``): same number, checked with a list of French / English game terms."""

from __future__ import annotations

from judge.rules.concordance.curated import CuratedData
from judge.rules.concordance.links import Link, make_link
from judge.rules.concordance.similarity import bilingual_agreement, language_of
from judge.rules.concordance.texts import TEXT_MIN, Comparables
from judge.rules.model import Edition, Rule, has_text


def check_translation_pair(A: Edition, B: Edition, data: CuratedData) -> bool:
    """Whether A and B (two languages, one numbering) hold the same rules number for number:
    nearly every number with a text on one side is on the other, and the terms agree."""
    text_a = {n for n, r in A.rules.items() if has_text(r)}
    text_b = {n for n, r in B.rules.items() if has_text(r)}
    small, other = (text_a, B) if len(text_a) <= len(text_b) else (text_b, A)
    if not small:
        return False
    coverage = sum(1 for n in small if n in other.rules) / len(small)
    if coverage < 0.9:
        return False
    agreements = []
    for n in small & text_a & text_b:
        ag = agreement(A, A.rules[n], B, B.rules[n], data)
        if ag is not None and ag[1] >= 3:
            agreements.append(ag[0])
    return not agreements or sum(agreements) / len(agreements) >= 0.6


def agreement(
    A: Edition, ra: Rule, B: Edition, rb: Rule, data: CuratedData
) -> tuple[float, int] | None:
    """`bilingual_agreement` of two rules, None when they are in one language."""
    la, lb = language_of(ra, A), language_of(rb, B)
    if la == lb:
        return None
    fr, en = (ra, rb) if la == "fr" else (rb, ra)
    return bilingual_agreement(fr.text or fr.title or "", en.text or en.title or "", data)


def match_translations(
    comp: Comparables,
    A: Edition,
    B: Edition,
    paired: bool,
    claimed_a: set[str],
    claimed_b: set[str],
) -> list[Link]:
    """Links between the same numbers of A and B (two languages, one numbering); `paired`:
    the two editions are a translation pair (`check_translation_pair`)."""
    out = []
    for n, ra in A.rules.items():
        rb = B.rules.get(n)
        if rb is None or n in claimed_a or n in claimed_b:
            continue
        both_text = has_text(ra) and has_text(rb)
        if both_text and language_of(ra, A) == language_of(rb, B):
            score = comp.ratio(A, ra, B, rb)
            if score >= TEXT_MIN:
                out.append(make_link(A.id, n, B.id, n, "text", score / 100))
            continue
        if both_text or (ra.title and rb.title and not paired):
            ag = agreement(A, ra, B, rb, comp.data)
        else:
            ag = None
        conf = _confidence(ag, paired, both_text)
        if conf is not None:
            out.append(make_link(A.id, n, B.id, n, "translation", conf))
    return out


def _confidence(ag: tuple[float, int] | None, paired: bool, both_text: bool) -> float | None:
    """The confidence of a translation link, None when the terms say it is another rule."""
    if paired:
        if ag is None or ag[1] < 4:
            return 0.85
        if ag[0] < 0.4:
            return None  # the same number, not the same rule
        return 0.7 + 0.3 * ag[0]
    # Different editions in two languages: only where the terms clearly agree.
    needed = 4 if both_text else 1
    if ag is None or ag[1] < needed or ag[0] < (0.75 if both_text else 1.0):
        return None
    return 0.45 + 0.35 * ag[0]

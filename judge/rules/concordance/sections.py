"""Chapters and sections matched by their titles in the tables of contents (fuzzy, accents and
case ignored: 2011's ``111. Sorts`` is 2024's ``112. Sorts``), or by their place between two
matched neighbours."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import pairwise

from judge.rules.concordance.links import Method
from judge.rules.concordance.similarity import Candidate, greedy
from judge.rules.model import Edition
from judge.rules.text import normalize_title

# (number in A, number in B, method, confidence)
SectionPair = tuple[str, str, Method, float]

# Thresholds (rapidfuzz scores, 0–100).
_CHAPTER_MIN = 65.0  # chapter titles: few and distinct
SECTION_MIN = 80.0  # section titles inside matched chapters
_SECTION_GLOBAL_MIN = 90.0  # section titles anywhere (renumbering across chapters)
_GAP_MIN = 55.0  # titles between two matched neighbours

_Similarity = Callable[[str, str], float]


def match_sections(A: Edition, B: Edition, skip_a: set[str], skip_b: set[str]) -> list[SectionPair]:
    """Chapters, then sections (inside matched chapters first), paired by their titles; the
    numbers of `skip_a` and `skip_b` are left out (a curated table renumbers them)."""
    from rapidfuzz import fuzz  # 20 ms to import: only when pairs are matched (an ingest)

    same_numbering = A.numbering == B.numbering

    def sim(x: str, y: str) -> float:
        score = fuzz.ratio(x, y)
        if same_numbering:
            score = max(score, fuzz.token_set_ratio(x, y) - 10)
        return float(score)

    ca, cb = _titled(A, "chapter", skip_a), _titled(B, "chapter", skip_b)
    chapters, scored = _chapters(ca, cb, sim)
    out = [_titled_pair(x, y, scored[(x, y)], same_numbering) for x, y in chapters.items()]
    sa, sb = _titled(A, "section", skip_a), _titled(B, "section", skip_b)
    sections, scored = _sections(sa, sb, chapters, same_numbering, sim)
    out += [_titled_pair(x, y, scored[(x, y)], same_numbering) for x, y in sections.items()]
    return out


def _titled(ed: Edition, kind: str, skip: set[str]) -> dict[str, str]:
    return {
        n: normalize_title(r.title)
        for n, r in ed.rules.items()
        if r.kind == kind and r.title and n not in skip
    }


def _chapters(
    ca: dict[str, str], cb: dict[str, str], sim: _Similarity
) -> tuple[dict[str, str], dict[tuple[str, str], float]]:
    cands: list[Candidate] = [
        ((s, float(x == y)), x, y)
        for x, tx in ca.items()
        for y, ty in cb.items()
        if (s := sim(tx, ty)) >= _CHAPTER_MIN
    ]
    chapters = dict(greedy(cands))
    scored = {(x, y): sim(ca[x], cb[y]) for x, y in chapters.items()}
    for x, y, s in gap_fill(list(ca), list(cb), chapters, lambda x, y: sim(ca[x], cb[y])):
        chapters[x] = y
        scored[(x, y)] = s
    return chapters, scored


def _sections(
    sa: dict[str, str],
    sb: dict[str, str],
    chapters: dict[str, str],
    same_numbering: bool,
    sim: _Similarity,
) -> tuple[dict[str, str], dict[tuple[str, str], float]]:
    dup_a = Counter(sa.values())
    dup_b = Counter(sb.values())
    cands: list[Candidate] = []
    for x, tx in sa.items():
        for y, ty in sb.items():
            within = chapters.get(x[0]) == y[0]
            if not within and (same_numbering or dup_a[tx] > 1 or dup_b[ty] > 1):
                continue
            s = sim(tx, ty)
            if s < (SECTION_MIN if within else _SECTION_GLOBAL_MIN):
                continue
            closeness = -abs(int(x[1:]) - int(y[1:]))
            cands.append(((s, float(within), float(closeness)), x, y))
    sections = dict(greedy(cands))
    scored = {(x, y): sim(sa[x], sb[y]) for x, y in sections.items()}
    for x, y in chapters.items():
        seq_a = [n for n in sa if n[0] == x]
        seq_b = [n for n in sb if n[0] == y]
        inside = {n: m for n, m in sections.items() if n[0] == x and m[0] == y}
        taken_b = set(sections.values())
        free_b = [n for n in seq_b if n not in taken_b or n in inside.values()]
        free_a = [n for n in seq_a if n not in sections or n in inside]
        for n, m, s in gap_fill(free_a, free_b, inside, lambda p, q: sim(sa[p], sb[q])):
            sections[n] = m
            scored[(n, m)] = s
    return sections, scored


def _titled_pair(x: str, y: str, score: float, same_numbering: bool) -> SectionPair:
    if same_numbering and x == y and score >= SECTION_MIN:
        return (x, y, "same_number", min(1.0, score / 100))
    return (x, y, "title", min(1.0, score / 100))


def gap_fill(
    seq_a: list[str],
    seq_b: list[str],
    matched: dict[str, str],
    sim: _Similarity,
) -> list[tuple[str, str, float]]:
    """Pairs found between two matched neighbours: titles that agree less, then a lone
    title left on each side (score 50)."""
    pos_a = {n: i for i, n in enumerate(seq_a)}
    pos_b = {n: i for i, n in enumerate(seq_b)}
    anchors = sorted((pos_a[x], pos_b[y]) for x, y in matched.items() if x in pos_a and y in pos_b)
    # keep the anchors that do not cross (longest increasing run of positions in b)
    kept: list[tuple[int, int]] = []
    for i, j in anchors:
        if not kept or j > kept[-1][1]:
            kept.append((i, j))
    bounds = [(-1, -1), *kept, (len(seq_a), len(seq_b))]
    used_a = set(matched)
    used_b = set(matched.values())
    out = []
    for (i0, j0), (i1, j1) in pairwise(bounds):
        gap_a = [n for n in seq_a[i0 + 1 : i1] if n not in used_a]
        gap_b = [n for n in seq_b[j0 + 1 : j1] if n not in used_b]
        if not gap_a or not gap_b:
            continue
        found = greedy(((s,), x, y) for x in gap_a for y in gap_b if (s := sim(x, y)) >= _GAP_MIN)
        for x, y in found:
            out.append((x, y, sim(x, y)))
        left_a = [n for n in gap_a if n not in {x for x, _ in found}]
        left_b = [n for n in gap_b if n not in {y for _, y in found}]
        if len(left_a) == 1 and len(left_b) == 1 and not found:
            out.append((left_a[0], left_b[0], 50.0))
    return out

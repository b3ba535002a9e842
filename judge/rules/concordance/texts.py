"""Rules matched by text similarity (rapidfuzz, rule numbers masked, the 2009 wordings brought up
to date): inside matched sections first, so that a rule that only moved is found as moved, then
anywhere in the other edition when clearly the best."""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

# rapidfuzz (20 ms to import) is imported where texts are compared: a command that only reads
# (`judge rule`) makes a Comparables and compares nothing.
from judge.rules.concordance.curated import CuratedData
from judge.rules.concordance.links import Link, make_link
from judge.rules.concordance.similarity import (
    Candidate,
    comparable,
    greedy,
    language_of,
    section_of,
)
from judge.rules.model import Edition, Rule, has_text
from judge.rules.numbers import kind_of

if TYPE_CHECKING:
    from judge.rules.concordance.sections import SectionPair

# Thresholds (rapidfuzz scores, 0–100).
TEXT_MIN = 60.0  # rule texts inside matched sections
_SAME_NUMBER_MIN = 45.0  # same number, same numbering: a lower bar
_TEXT_GLOBAL_MIN = 85.0  # rule texts anywhere in the other edition
_TEXT_GLOBAL_MARGIN = 5.0
# Same number, one text (nearly) inside the other: at least so many distinct words, so much
# token-set agreement; the score is then weighted down (a cut text is not an identical one).
_CONTAINED_MIN_WORDS = 8
_CONTAINED_MIN = 90.0
_CONTAINED_WEIGHT = 0.7
_SAME_NUMBER_BONUS = 5.0


class Comparables:
    """The comparable form of each rule's text (computed once per rule), and the scores
    computed on it. Not locked: the concordance calls it under its own lock."""

    def __init__(self, data: CuratedData) -> None:
        self.data = data
        # By language and text: neighbouring editions share most texts, each is folded once.
        self._texts: dict[tuple[str, str], str] = {}

    def text(self, ed: Edition, rule: Rule) -> str:
        key = (language_of(rule, ed), rule.text)
        text = self._texts.get(key)
        if text is None:
            text = comparable(rule.text, key[0], self.data)
            self._texts[key] = text
        return text

    def ratio(self, A: Edition, ra: Rule, B: Edition, rb: Rule) -> float:
        from rapidfuzz import fuzz  # here: see the note above the imports

        return float(fuzz.ratio(self.text(A, ra), self.text(B, rb)))

    def same_number_score(
        self, A: Edition, ra: Rule, B: Edition, rb: Rule, ratio: float | None = None
    ) -> float:
        """How well two texts of the same number agree (0–100): their similarity, or, when
        the words of one are (nearly) all in the other, 70 at most (a text cut short, a
        paragraph added: 704.3 as a web page quotes it against the full rule)."""
        from rapidfuzz import fuzz  # here: see the note above the imports

        ta, tb = self.text(A, ra), self.text(B, rb)
        score = fuzz.ratio(ta, tb) if ratio is None else ratio
        if min(len(set(ta.split())), len(set(tb.split()))) >= _CONTAINED_MIN_WORDS:
            contained = fuzz.token_set_ratio(ta, tb)
            if contained >= _CONTAINED_MIN:
                score = max(score, contained * _CONTAINED_WEIGHT)
        return float(score)

    def scores(
        self, A: Edition, rules_a: list[Rule], B: Edition, rules_b: list[Rule], cutoff: float
    ) -> list[dict[int, float]]:
        """For each rule of `rules_a`, its similarity to the rules of `rules_b` that reach
        `cutoff`, by their index. In single precision, as `process.cdist` gave them (the
        links' confidences stay the same), without its numpy (0.4 s to import)."""
        from rapidfuzz import fuzz, process  # here: see the note above the imports

        choices = [self.text(B, r) for r in rules_b]
        out = []
        for r in rules_a:
            found = process.extract(
                self.text(A, r), choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None
            )
            rounded = array("f", [score for _c, score, _j in found])
            out.append(dict(zip([j for _c, _s, j in found], rounded, strict=True)))
        return out


@dataclass
class _Scored:
    """Candidate pairs and their scores (the score without the same-number bonus)."""

    candidates: list[Candidate] = field(default_factory=list)
    scores: dict[tuple[str, str], float] = field(default_factory=dict)

    def add(self, x: str, y: str, score: float, bonus: float = 0.0) -> None:
        self.scores[(x, y)] = score
        self.candidates.append(((score + bonus,), x, y))


def match_texts(
    comp: Comparables,
    A: Edition,
    B: Edition,
    sections: Sequence[SectionPair],
    claimed_a: set[str],
    claimed_b: set[str],
) -> list[Link]:
    """Links between the rules of A and B that the texts say are the same rule; the rules
    of `claimed_a` and `claimed_b` (a curated table links them) are left out."""
    same_numbering = A.numbering == B.numbering
    by_a, by_b = _by_section(A, claimed_a), _by_section(B, claimed_b)
    targets: dict[str, set[str]] = {}
    for sa, sb, _m, _c in sections:
        if kind_of(sa) == "section" and kind_of(sb) == "section":
            targets.setdefault(sa, set()).add(sb)
    found = _Scored()
    for sa, rules_a in by_a.items():
        pool = [r for sb in sorted(targets.get(sa, ())) for r in by_b.get(sb, [])]
        _within(comp, A, rules_a, B, pool, found)
    if same_numbering:
        _same_numbers(comp, A, B, by_a, by_b, targets, found)
    out = []
    matched = greedy(found.candidates)
    for x, y in matched:
        s = found.scores[(x, y)]
        if same_numbering and x == y:
            out.append(make_link(A.id, x, B.id, y, "same_number", min(1.0, s / 100 + 0.1)))
        else:
            out.append(make_link(A.id, x, B.id, y, "text", s / 100))
    done_a = {x for x, _ in matched} | claimed_a
    done_b = {y for _, y in matched} | claimed_b
    return out + _leftovers(comp, A, B, done_a, done_b)


def _by_section(ed: Edition, claimed: set[str]) -> dict[str, list[Rule]]:
    out: dict[str, list[Rule]] = {}
    for r in ed.rules.values():
        if has_text(r) and r.number not in claimed:
            out.setdefault(section_of(r.number), []).append(r)
    return out


def _within(
    comp: Comparables, A: Edition, rules_a: list[Rule], B: Edition, pool: list[Rule], found: _Scored
) -> None:
    """Rules of one section of A against the rules of its matched sections in B (`pool`)."""
    same_numbering = A.numbering == B.numbering
    for lang in {language_of(r, A) for r in rules_a}:
        queries = [r for r in rules_a if language_of(r, A) == lang]
        choices = [r for r in pool if language_of(r, B) == lang]
        if not queries or not choices:
            continue
        twins = _twins(queries, choices) if same_numbering else {}
        # Only the other rules are scored (the candidates are added in the same order).
        taken = set(twins.values())
        rows = [ra for ra in queries if ra.number not in twins]
        cols = [(j, rb) for j, rb in enumerate(choices) if j not in taken]
        matrix = (
            comp.scores(A, rows, B, [rb for _j, rb in cols], _SAME_NUMBER_MIN)
            if rows and cols
            else None
        )
        i = -1
        for ra in queries:
            twin = twins.get(ra.number)
            if twin is not None:
                found.add(ra.number, choices[twin].number, 100.0, _SAME_NUMBER_BONUS)
                continue
            i += 1
            if matrix is None:
                continue  # every rule of the pool has its twin
            row = matrix[i]
            for c, (_j, rb) in enumerate(cols):
                score = float(row.get(c, 0.0))
                same = same_numbering and ra.number == rb.number
                if same:
                    score = comp.same_number_score(A, ra, B, rb, score)
                if score < (_SAME_NUMBER_MIN if same else TEXT_MIN):
                    continue
                found.add(ra.number, rb.number, score, _SAME_NUMBER_BONUS if same else 0.0)


def _twins(queries: list[Rule], choices: list[Rule]) -> dict[str, int]:
    """The rules of `queries` whose number has the very same text in `choices` (by number:
    the index of the twin). Such a pair scores 100 plus the same-number bonus, more than
    any other candidate of either rule, so `greedy` takes it whatever the others score: the
    other candidates of the twins need not be scored (neighbouring editions share most
    texts), and no text of theirs folded."""
    at = {rb.number: j for j, rb in enumerate(choices)}
    out: dict[str, int] = {}
    for ra in queries:
        j = at.get(ra.number)
        if j is not None and choices[j].text == ra.text:
            out[ra.number] = j
    return out


def _same_numbers(
    comp: Comparables,
    A: Edition,
    B: Edition,
    by_a: dict[str, list[Rule]],
    by_b: dict[str, list[Rule]],
    targets: dict[str, set[str]],
    found: _Scored,
) -> None:
    """Sections that no title paired (a page without its headings, a table of contents
    missing): the same number, where the texts agree, is the same rule. A section paired
    with another one has moved, and its numbers with it."""
    for sa, rules_a in by_a.items():
        if sa in targets:
            continue
        same_b = {r.number: r for r in by_b.get(sa, [])}
        for ra in rules_a:
            twin = same_b.get(ra.number)
            if twin is None or language_of(ra, A) != language_of(twin, B):
                continue
            # The same text scores 100 (`_twins`), unfolded.
            score = 100.0 if ra.text == twin.text else comp.same_number_score(A, ra, B, twin)
            if score >= TEXT_MIN:
                found.add(ra.number, twin.number, score, _SAME_NUMBER_BONUS)


def _leftovers(
    comp: Comparables, A: Edition, B: Edition, done_a: set[str], done_b: set[str]
) -> list[Link]:
    """Rules left over: matched anywhere in the other edition, only when clearly the best."""
    left_a = [r for r in A.rules.values() if has_text(r) and r.number not in done_a]
    left_b = [r for r in B.rules.values() if has_text(r) and r.number not in done_b]
    out = []
    for lang in {language_of(r, A) for r in left_a}:
        queries = [r for r in left_a if language_of(r, A) == lang]
        choices = [r for r in left_b if language_of(r, B) == lang]
        if not choices:
            continue
        found = _best_anywhere(comp, A, queries, B, choices)
        for x, y in greedy(found.candidates):
            out.append(make_link(A.id, x, B.id, y, "text", found.scores[(x, y)] / 100 * 0.9))
    return out


def _best_anywhere(
    comp: Comparables, A: Edition, queries: list[Rule], B: Edition, choices: list[Rule]
) -> _Scored:
    from rapidfuzz import fuzz, process  # here: see the note above the imports

    cutoff = _TEXT_GLOBAL_MIN - _TEXT_GLOBAL_MARGIN
    # ratio >= cutoff needs lengths within a factor `spread` of each other
    spread = 200.0 / cutoff - 1.0
    ranked = sorted(choices, key=lambda r: len(comp.text(B, r)))
    texts_b = [comp.text(B, r) for r in ranked]
    lengths = [len(t) for t in texts_b]
    found = _Scored()
    for ra in queries:
        query = comp.text(A, ra)
        lo = bisect_left(lengths, len(query) / spread)
        hi = bisect_right(lengths, len(query) * spread)
        row = process.extract(
            query, texts_b[lo:hi], scorer=fuzz.ratio, limit=2, score_cutoff=cutoff
        )
        if not row or row[0][1] < _TEXT_GLOBAL_MIN:
            continue
        if len(row) > 1 and row[0][1] - row[1][1] < _TEXT_GLOBAL_MARGIN:
            continue
        rb = ranked[lo + row[0][2]]
        found.add(ra.number, rb.number, float(row[0][1]))
    return found

"""The vectorised ranking against a plain-Python reference.

The searcher scores every document at once on arrays (postings as numpy arrays, a dense
score array, coverage masks, top-k by partition). The reference below does the same
ranking one document at a time, from whoosh's own posting lists read through its public
matcher API, in dictionaries: BM25 per field, the concepts' coverage, the kind weights, the
other-language weight, the edition and language filters, the top-k, the parent's context.
Both must give the same paragraphs with the same scores in the same order, and so the same
hits, over the shipped corpus with both English editions (copies of one text in two
editions: one physical document read as several)."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from judge.search import query as q
from judge.search.query import Searcher

# (query, editions, language): French and English, a glossary phrase, filters
QUERIES = [
    ("mis au cimetière", None, None),
    ("contact mortel", None, None),
    ("blocage multiple dégâts", None, None),
    ("state-based actions", None, None),
    ("legend rule", None, None),
    ("sacrifier une créature en réponse", None, None),
    ("jeton copie", None, "fr"),
    ("deathtouch damage", None, "en"),
    ("priorité pile", ["en-2011-09-30"], None),
    ("zone d'exil", ["en-2008-07-15", "fr-2024"], None),
    # « Rôle »: only English paragraphs have it (the other-language weight per paragraph)
    ("plusieurs rôles sur un permanent", None, None),
    ("le lien de vie fait gagner des points de vie", None, None),
    # a time said: its editions' paragraphs weigh more (era.py)
    ("avant 2009, la règle des légendes", None, None),
    ("before 2009, toughness 0 creature graveyard", None, None),
    ("dans les anciennes règles, la pile et la priorité", None, None),
    # words between quotes: a phrase of their own (slop 1)
    ("« la créature équipée » capacité", None, None),
    ("la « créature équipée »", None, None),  # in French, the whole query's phrase: one bonus
]


@dataclass
class _Seen:
    """What one search handed to the scoring steps, and what the ranking returned."""

    concepts: list[tuple[Any, dict[tuple[str, str], float]]] = field(default_factory=list)
    # (words, IDF, slop, the phrases given a bonus before)
    phrase: list[tuple[Any, dict[tuple[str, str], float], int, Any]] = field(default_factory=list)
    weigh: tuple[Any, ...] | None = None
    ranked: list[tuple[float, int]] | None = None


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Seen]:
    record = _Seen()
    score_concept = Searcher._score_concept
    phrase_bonus = Searcher._phrase_bonus
    weigh = Searcher._weigh

    def on_concept(self: Searcher, concept: Any, idf: Any, scores: Any) -> Any:
        record.concepts.append((concept, dict(idf)))
        return score_concept(self, concept, idf, scores)

    def on_phrase(
        self: Searcher, words: Any, idf: Any, scores: Any, slop: int = 3, given: Any = None
    ) -> None:
        record.phrase.append((words, dict(idf), slop, None if given is None else set(given)))
        phrase_bonus(self, words, idf, scores, slop, given)

    def on_weigh(self: Searcher, scores: Any, covered: Any, *args: Any) -> Any:
        record.weigh = (covered.importance, *args)
        record.ranked = weigh(self, scores, covered, *args)
        return record.ranked

    monkeypatch.setattr(Searcher, "_score_concept", on_concept)
    monkeypatch.setattr(Searcher, "_phrase_bonus", on_phrase)
    monkeypatch.setattr(Searcher, "_weigh", on_weigh)
    yield record


class Reference:
    """The ranking of `Searcher._weigh`, one document at a time."""

    def __init__(self, searcher: Searcher) -> None:
        self.s = searcher
        self.docs = searcher._opened.documents
        self.lengths = searcher._opened.lengths
        self.of_rule: dict[tuple[str, str], list[int]] = {}
        for d, info in enumerate(self.docs):
            if info.kind not in ("title", "glossary"):
                self.of_rule.setdefault((info.edition, info.rule), []).append(d)
        self.average = {
            name: sum(column) / max(1, sum(1 for n in column if n))
            for name, column in self.lengths.items()
        }

    def _view_docs(self, part: Any, local: int) -> list[int]:
        start = int(part.starts[local])
        return [int(v) for v in part.virtual[start : start + int(part.width[local])]]

    def postings(self, fieldname: str, term: str) -> list[tuple[int, float]]:
        out: list[tuple[int, float]] = []
        for part in self.s._opened.parts:
            if not part.reader.doc_frequency(fieldname, term):
                continue
            m = part.reader.postings(fieldname, term)
            while m.is_active():
                out.extend((d, m.weight()) for d in self._view_docs(part, m.id()))
                m.next()
        return out

    def phrase(self, fieldname: str, words: tuple[str, ...], slop: int) -> set[int]:
        from whoosh import query as wq

        found: set[int] = set()
        for part in self.s._opened.parts:
            for local in part.searcher.docs_for_query(wq.Phrase(fieldname, list(words), slop=slop)):
                found.update(self._view_docs(part, local))
        return found

    def add(
        self,
        scores: dict[int, float],
        fieldname: str,
        term: str,
        idf: float,
        boost: float,
        only: set[int] | None = None,
    ) -> set[int]:
        k1 = q.BM25_K1
        b = q.BM25_B if fieldname.startswith("body_") else 0.3
        lengths = self.lengths[fieldname]
        found = set()
        for d, tf in self.postings(fieldname, term):
            if only is not None and d not in only:
                continue
            # the searcher's operations in its order (the scores are compared exactly)
            average = self.average[fieldname] or 1.0
            bm25 = (
                boost * idf * (k1 + 1) * (tf / (tf + k1 * (1 - b) + k1 * b / average * lengths[d]))
            )
            scores[d] = scores.get(d, 0.0) + bm25
            found.add(d)
        return found

    def concept(self, scores: dict[int, float], concept: Any, idf: Any) -> set[int]:
        found: set[int] = set()
        for lang, seqs in concept.forms.items():
            for seq, weight in seqs:
                for role, role_weight in q._FIELD_WEIGHT.items():
                    fieldname = f"{role}_{lang}"
                    if not all(self.postings(fieldname, t) for t in seq):
                        continue
                    boost = weight * role_weight
                    counts = role != "title" or (lang, seq) not in concept.related
                    only = None
                    if len(seq) > 1 and role == "body":
                        only = self.phrase(fieldname, seq, 1)
                    elif len(seq) > 1:
                        only = set.intersection(
                            *({d for d, _ in self.postings(fieldname, t)} for t in seq)
                        )
                    for t in seq:
                        got = self.add(scores, fieldname, t, idf[(lang, t)], boost / len(seq), only)
                        if counts:
                            found |= got
        return found

    def parents(self, d: int) -> list[int]:
        info = self.docs[d]
        if info.kind == "glossary":
            return []
        rule = self.s.index.edition(info.edition).rules.get(info.rule)
        if rule is None or rule.parent is None:
            return []
        return self.of_rule.get((info.edition, rule.parent), [])

    def ranked(self, seen: _Seen) -> list[tuple[float, int]]:
        assert seen.weigh is not None
        importance, editions, language, query_language, absent, *more = seen.weigh
        asked = more[0] if more else frozenset()  # the editions of the time asked about
        scores: dict[int, float] = {}
        masks: dict[int, int] = {}
        for i, (concept, idf) in enumerate(seen.concepts):
            for d in self.concept(scores, concept, idf):
                masks[d] = masks.get(d, 0) | 1 << i
        for words, idf, slop, given in seen.phrase:
            for lang in ("fr", "en"):
                seq = tuple(t for w in words for t in w.terms[lang])
                if given is not None and (lang, seq) in given:
                    continue  # the whole query's phrase, quoted: one bonus
                fieldname = f"body_{lang}"
                if 2 <= len(seq) <= 8 and all(self.postings(fieldname, t) for t in seq):
                    only = self.phrase(fieldname, seq, slop)
                    for t in seq:
                        if (lang, t) in idf:
                            bonus = q.PHRASE_BONUS / len(seq)
                            self.add(scores, fieldname, t, idf[(lang, t)], bonus, only)
        total = sum(importance) or 1.0

        def share(mask: int) -> float:
            return sum(w for i, w in enumerate(importance) if mask >> i & 1) / total

        def other_language(own: int) -> float:
            # the query's language lacks the `absent` concepts: a paragraph of the other
            # language weighs more, the more so when they are most of what it matches
            lacking = share(absent) if absent else 0.0
            if own and absent:
                lacking = max(lacking, share(own & absent) / share(own))
            return q.OTHER_LANGUAGE + (1.0 - q.OTHER_LANGUAGE) * lacking

        languages = {ed.id: ed.language for ed in self.s.index.editions}

        def weight(d: int, coverage: float) -> float:
            info = self.docs[d]
            kind = q._KIND_WEIGHT.get(info.kind, 1.0)
            if info.kind == "example":
                # an example whose rule's (first) text has none of the query's concepts
                of_rule = self.of_rule.get((info.edition, info.rule), [])
                texts = [p for p in of_rule if self.docs[p].kind == "text"]
                if texts and not masks.get(texts[0], 0):
                    kind *= q.EXAMPLE_ALONE
            own = masks.get(d, 0)
            other = other_language(own) if info.language != query_language else 1.0
            if info.language != query_language and languages[info.edition] == query_language:
                # the edition's own text of the rule, printed in the other language
                other = max(other * q.OWN_EDITION_LEAD, q.OWN_EDITION_OTHER_LANGUAGE)
            value = scores[d] * kind * other * (0.15 + 0.85 * coverage**2)
            return value * q.ERA_LEAD if info.edition in asked else value

        self.other_language = other_language
        first = [
            (weight(d, share(masks.get(d, 0))), d)
            for d in scores
            if (not editions or self.docs[d].edition in editions)
            and (not language or self.docs[d].language == language)
        ]
        out = []
        for _, d in heapq.nlargest(q.TOP_K, first):
            own = masks.get(d, 0)
            context = 0
            for p in self.parents(d):
                context |= masks.get(p, 0)
            out.append((weight(d, share(own) + q.PARENT_CONTEXT * share(context & ~own)), d))
        return out


@pytest.mark.parametrize(("text", "editions", "language"), QUERIES)
def test_the_vectorised_ranking_is_the_plain_one(
    en_searcher: Searcher,
    seen: _Seen,
    text: str,
    editions: list[str] | None,
    language: str | None,
) -> None:
    result = en_searcher.search(text, editions=editions, language=language)
    assert result.hits, text
    assert seen.ranked, text
    reference = Reference(en_searcher).ranked(seen)
    # the same paragraphs, scores and order (ties: the higher document number first)
    assert seen.ranked == reference


def test_the_reference_sees_copies_and_both_languages(en_searcher: Searcher, seen: _Seen) -> None:
    """The store is one where the shortcuts could go wrong: a French query whose best
    paragraphs include English ones (the other-language weight), and texts that several
    editions share (one physical document, several documents)."""
    en_searcher.search("mis au cimetière")
    assert seen.ranked is not None and seen.weigh is not None
    docs = en_searcher._opened.documents
    reference = Reference(en_searcher)
    reference.ranked(seen)
    # the other-language weight applies (French texts say « mis au cimetière »)
    assert reference.other_language(1) == q.OTHER_LANGUAGE < 1.0
    assert {docs[d].language for _, d in seen.ranked} == {"fr", "en"}
    widths = [int(w) for part in en_searcher._opened.parts for w in part.width]
    assert max(widths) >= 2


def test_the_hits_are_those_of_the_reference(
    en_searcher: Searcher, seen: _Seen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same hits when the ranking is the reference's."""
    reference = Reference(en_searcher)
    for text, editions, language in QUERIES:
        seen.concepts.clear()
        seen.phrase.clear()
        fast = en_searcher.search(text, editions=editions, language=language)
        plain_ranked = reference.ranked(seen)
        with monkeypatch.context() as m:
            m.setattr(Searcher, "_weigh", lambda *a, ranked=plain_ranked, **k: list(ranked))
            plain = en_searcher.search(text, editions=editions, language=language)
        assert fast == plain, text


def test_copies_of_unequal_length_are_scored_one_by_one(
    en_index: Any, search_home: Any, seen: _Seen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text is scored once for all its copies only when they have the same lengths; a
    view where one copy differs is scored document by document, and still ranks as the
    reference does."""
    real = q.ensure_index

    def uneven(*args: Any, **kwargs: Any) -> Any:
        opened = real(*args, **kwargs)
        shared = next(
            d
            for d in range(len(opened.documents))
            if int(opened.text_width[opened.text_of[d]]) >= 2 and opened.lengths["body_en"][d]
        )
        opened.lengths["body_en"][shared] += 1
        return opened

    monkeypatch.setattr(q, "ensure_index", uneven)
    with Searcher(en_index, home=search_home) as searcher:
        assert not searcher._per_text
        for text, editions, language in QUERIES[:5]:
            seen.concepts.clear()
            seen.phrase.clear()
            assert searcher.search(text, editions=editions, language=language).hits
            assert seen.ranked == Reference(searcher).ranked(seen), text


def test_copies_of_one_text_are_scored_once(en_searcher: Searcher) -> None:
    assert en_searcher._per_text
    assert en_searcher._texts < len(en_searcher._opened.documents)

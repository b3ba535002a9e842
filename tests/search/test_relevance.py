"""Relevance over the relevance set (shipped corpus) and the English judge questions (English
editions ingested). The issue's targets are recall@1 ≥ 0.95 and MRR@10 ≥ 0.97 (shipped) and
MRR@10 ≥ 0.90 (English), on the queries the ranking was tuned on (round 1); the floors below
are what the ranking reaches (the benchmark prints the figures), so that no change can lower
them unnoticed. The second round of judge questions was written afterwards and never tuned
on: its floors are lower, and the gap between the rounds is what over-fitting would show.
Rounds 7 to 12 were written from the rule texts alone and measured once before any change
(the README gives each round's first figure, the honest one of what a new question meets);
their floors are what the ranking reaches since, changes made after they were measured
included (round 10's English floor: two of its three misses asked for words the glossary
then lacked)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from judge.rules.index import RuleIndex
from judge.search.query import Searcher
from tests.search.relevance import (
    KINDS,
    RELEVANCE_EN_FILE,
    Judged,
    evaluate,
    hit_keys,
    load_relevance,
    recall_at,
    reciprocal_rank,
)

ARCHIVE = Path(__file__).resolve().parents[2].parent / "shared" / "corpus-en" / "archive"

JUDGED = load_relevance()
JUDGED_EN = load_relevance(RELEVANCE_EN_FILE)


def _ranker(searcher: Searcher) -> Callable[[str], list[str]]:
    def rank(q: str) -> list[str]:
        return hit_keys(searcher.search(q, limit=10).hits)

    return rank


def _misses(judged: list[Judged], rankings: dict[str, list[str]]) -> str:
    return "\n".join(
        f"{j.q!r}: {rankings[j.q][:5]}"
        for j in judged
        if recall_at(rankings[j.q], j.relevant, k=1) < 1
        or reciprocal_rank(rankings[j.q], j.relevant) < 1
    )


def test_the_set_is_large_and_covers_every_kind() -> None:
    assert len(JUDGED) >= 40
    assert {j.kind for j in JUDGED} == set(KINDS)
    assert len({j.q for j in JUDGED}) == len(JUDGED), "duplicate queries"
    assert sum(1 for j in JUDGED if j.kind == "question") >= 40
    assert len(JUDGED_EN) >= 20 and {j.kind for j in JUDGED_EN} == {"question"}


def test_every_expected_rule_exists(en_index: RuleIndex) -> None:
    """A typo in the set (or a parser change) must fail here, not lower the scores."""
    known = {ed.id for ed in en_index.editions}
    for j in [*JUDGED, *JUDGED_EN]:
        for answer in j.relevant:
            for key in answer:
                edition, number = key.split("/")
                if edition not in known and _archived(edition, number):
                    continue  # an answer of an archive edition (bench_search --archive)
                assert en_index.get(number, edition) is not None, f"{j.q!r}: {key} n'existe pas"


def _archived(edition: str, number: str) -> bool:
    """Whether the archive's file of `edition` prints the rule `number` (at a line's start)."""
    path = ARCHIVE / f"{edition}.txt"
    if not path.is_file():
        return False
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    return re.search(rf"^{re.escape(number)}\.? ", text, flags=re.MULTILINE) is not None


# (recall@1, MRR@10) floors per round; round 1 holds the targets
SHIPPED_FLOORS = {
    1: (0.96, 0.975),
    2: (0.82, 0.86),
    4: (0.85, 0.9),
    5: (0.8, 0.85),
    6: (0.8, 0.9),
    7: (0.6, 0.75),
    8: (0.45, 0.55),
    9: (0.45, 0.6),
    10: (0.6, 0.75),
    11: (0.9, 0.9),
    # 0.424 before questions said when they ask about were read so (era.py): one of them found
    # 408.1b through « règles » of « les vieilles règles », now not asked for
    12: (0.25, 0.41),
}
ENGLISH_FLOORS = {
    1: 0.94,
    2: 0.95,
    4: 0.65,
    5: 0.75,
    6: 0.75,
    7: 0.68,
    8: 0.26,
    9: 0.25,
    10: 0.9,
    11: 0.5,
    12: 0.55,
}
# every round together (what the targets say of "the shipped corpus")
SHIPPED_WHOLE = (0.835, 0.885)
ENGLISH_WHOLE = 0.72


def test_both_rounds_are_there() -> None:
    for judged in (JUDGED, JUDGED_EN):
        # rounds 3 to 12: questions written before they were searched (7 to 12: from the
        # rule texts only, measured once before any change)
        assert {1, 2, *range(4, 13)} <= {j.round for j in judged} <= set(range(1, 13))
    assert sum(1 for j in JUDGED if j.round == 2) >= 20
    assert sum(1 for j in JUDGED_EN if j.round == 2) >= 10


@pytest.mark.parametrize("round_", sorted(SHIPPED_FLOORS))
def test_targets_on_the_shipped_corpus_per_round(searcher: Searcher, round_: int) -> None:
    judged = [j for j in JUDGED if j.round == round_]
    _, overall, rankings = evaluate(judged, _ranker(searcher))
    report = _misses(judged, rankings)
    recall1, mrr = SHIPPED_FLOORS[round_]
    assert overall.recall1 >= recall1, f"recall@1 = {overall.recall1:.3f}\n{report}"
    assert overall.mrr >= mrr, f"MRR@10 = {overall.mrr:.3f}\n{report}"


def test_targets_on_the_shipped_corpus(searcher: Searcher) -> None:
    per_kind, _, rankings = evaluate(JUDGED, _ranker(searcher))
    report = _misses(JUDGED, rankings)
    # No kind of query may be left behind, even if the average holds (without typo
    # correction, the typo queries fall to recall 0.75 and MRR 0.48).
    for kind, scores in per_kind.items():
        assert scores.recall >= 0.8, f"{kind}: recall@5 = {scores.recall:.3f}\n{report}"
        assert scores.mrr >= 0.8, f"{kind}: MRR@10 = {scores.mrr:.3f}\n{report}"


@pytest.mark.parametrize("round_", sorted(ENGLISH_FLOORS))
def test_targets_on_the_english_editions(en_searcher: Searcher, round_: int) -> None:
    judged = [j for j in JUDGED_EN if j.round == round_]
    _, overall, rankings = evaluate(judged, _ranker(en_searcher))
    report = _misses(judged, rankings)
    assert overall.mrr >= ENGLISH_FLOORS[round_], f"MRR@10 = {overall.mrr:.3f}\n{report}"


def test_every_round_together(searcher: Searcher, en_searcher: Searcher) -> None:
    """The rounds never tuned on weigh in too: the whole set keeps its floor."""
    _, shipped, rankings = evaluate(JUDGED, _ranker(searcher))
    recall1, mrr = SHIPPED_WHOLE
    report = _misses(JUDGED, rankings)
    assert shipped.recall1 >= recall1 and shipped.mrr >= mrr, (shipped, report)
    _, english, rankings = evaluate(JUDGED_EN, _ranker(en_searcher))
    assert english.mrr >= ENGLISH_WHOLE, (english, _misses(JUDGED_EN, rankings))


def test_the_seed_question_finds_that_nobody_can_respond(searcher: Searcher) -> None:
    """« mise au cimetierre et sacrifice en reponse »: state-based actions happen before
    anyone gets priority (704.3, first) and do not use the stack (704.1): nobody can
    respond to them. The Saga rule (704.5s, English text: « … sacrifices it ») shares a
    word with the question, not its answer."""
    top = hit_keys(searcher.search("mise au cimetierre et sacrifice en reponse").hits)
    assert "fr-2024/704.3" in top[0].split("|"), top[:3]
    assert any("fr-2024/704.1" in item.split("|") for item in top), top


def test_metrics_can_fail() -> None:
    """The metrics themselves: a ranking without the answer scores 0, a late one less."""
    answers = (frozenset({"fr-2024/704.5g"}), frozenset({"fr-pre2009/420.5c"}))
    assert recall_at(["x", "y"], answers) == 0.0
    assert reciprocal_rank(["x", "y"], answers) == 0.0
    assert recall_at(["x", "fr-2024/704.5g"], answers) == 0.5
    assert recall_at(["x", "fr-2024/704.5g"], answers, k=1) == 0.0
    assert recall_at(["x|fr-2024/704.5g"], answers, k=1) == 1.0  # a copy folded into a hit
    assert reciprocal_rank(["x", "y", "fr-pre2009/420.5c"], answers) == pytest.approx(1 / 3)
    assert reciprocal_rank(["x"] * 10 + ["fr-2024/704.5g"], answers) == 0.0

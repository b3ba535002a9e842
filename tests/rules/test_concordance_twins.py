"""Neighbouring editions share most texts: a rule whose number has the very same text in the
other edition is matched without scoring it against anything (`texts._twins`), and the rows
are scored without numpy. The links must be those of scoring every rule: the same pairs,
methods and confidences, in the same order."""

from __future__ import annotations

from typing import Any

import pytest

from judge.rules import store
from judge.rules.concordance import texts
from judge.rules.concordance.curated import load_curated
from judge.rules.concordance.sections import match_sections
from judge.rules.concordance.texts import Comparables, match_texts
from judge.rules.index import RuleIndex, load_index
from judge.rules.model import Edition, Rule
from tests.conftest import CORPUS_EN

# Two neighbours (most texts shared), and two editions years apart (few shared, renumbered).
PAIRS = [("en-2025-04-04", "en-2024-07-30"), ("en-2011-09-30", "en-2008-07-15")]
FILES = {
    "en-2025-04-04": CORPUS_EN / "archive" / "en-2025-04-04.txt",
    "en-2024-07-30": CORPUS_EN / "archive" / "en-2024-08-02.txt",
    "en-2011-09-30": CORPUS_EN / "en-2011-09-30.txt",
    "en-2008-07-15": CORPUS_EN / "en-2008-07-15.txt",
}


@pytest.fixture(scope="module")
def archive_index(tmp_path_factory: pytest.TempPathFactory) -> RuleIndex:
    if not all(p.is_file() for p in FILES.values()):
        pytest.skip(f"../shared/corpus-en absent ({CORPUS_EN}) : éditions introuvables")
    home = tmp_path_factory.mktemp("twins")
    for path in FILES.values():
        store.ingest(path, home=home)
    return load_index(home=home)


def _links(A: Edition, B: Edition) -> list[Any]:
    sections = match_sections(A, B, set(), set())
    found = match_texts(Comparables(load_curated()), A, B, sections, set(), set())
    return [(x.from_rule, x.to_rule, x.method, x.confidence, x.moved) for x in found]


def _scored_whole(
    self: Comparables, A: Edition, rules_a: list[Rule], B: Edition, rules_b: list[Rule], cut: float
) -> list[dict[int, float]]:
    """The whole matrix as `process.cdist` gave it (float32, 0 below the cutoff)."""
    from rapidfuzz import fuzz, process

    matrix = process.cdist(
        [self.text(A, r) for r in rules_a],
        [self.text(B, r) for r in rules_b],
        scorer=fuzz.ratio,
        score_cutoff=cut,
    )
    return [{j: float(v) for j, v in enumerate(row) if v} for row in matrix]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_twins_and_rows_give_the_links_of_scoring_everything(
    archive_index: RuleIndex, monkeypatch: pytest.MonkeyPatch, a: str, b: str
) -> None:
    A, B = archive_index.edition(a), archive_index.edition(b)
    twins: list[int] = []
    real_twins = texts._twins

    def counted(queries: list[Rule], choices: list[Rule]) -> dict[str, int]:
        found = real_twins(queries, choices)
        twins.append(len(found))
        return found

    monkeypatch.setattr(texts, "_twins", counted)
    fast = _links(A, B)
    monkeypatch.setattr(texts, "_twins", lambda queries, choices: {})
    monkeypatch.setattr(Comparables, "scores", _scored_whole)
    whole = _links(A, B)
    assert fast == whole
    assert len(fast) > 500
    if a == "en-2025-04-04":
        assert sum(twins) > 2000  # the shortcut did its work: most rules are twins

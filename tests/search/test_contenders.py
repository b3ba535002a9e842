"""The top-k of the ranking without weighing every scored document (`_contenders`).

Neighbouring editions share most paragraphs, so a query scores tens of thousands of
documents that are copies of a few thousand texts. `_weigh` bounds each text by its best
copy and weighs only the texts that can reach the top-k: the paragraphs, scores and order
must be those of weighing every document, and the bound must leave most copies out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from judge.rules.index import load_index
from judge.search.query import Searcher
from tests.conftest import archive_home

# five neighbouring editions: most paragraphs are in all five
EDITIONS = ("en-2019-07-12", "en-2020-07-03", "en-2021-07-12", "en-2022-10-07", "en-2023-11-17")
QUERIES = [
    # English, French over English text (the other-language weights), one word, filters
    ("state-based actions", None, None),
    ("deathtouch damage to a creature", None, None),
    ("legend rule two legendary permanents", None, None),
    ("mis au cimetière en réponse", None, None),
    ("contact mortel blessures", None, None),
    ("counter", None, None),
    ("the stack priority", None, None),
    ("priorité pile", ["en-2022-10-07"], None),
    ("combat damage step", None, "en"),
    ("« first strike » double strike", None, None),
    # a time said: the paragraphs of its editions weigh more, and so bound more
    ("before 2021, deathtouch damage to a creature", None, None),
    ("in 2022, the stack priority", None, None),
]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Searcher]:
    home = archive_home(tmp_path_factory.mktemp("five"), *EDITIONS)
    with Searcher(load_index(home=home), home=home / "search") as s:
        yield s


def _every_scored(self: Searcher, scores: Any, *args: Any) -> Any:
    """What `_contenders` stands for: every document of every scored text."""
    return self._docs_of(np.flatnonzero(scores.touched))


@pytest.mark.parametrize(("text", "editions", "language"), QUERIES)
def test_the_top_k_is_that_of_every_document(
    searcher: Searcher,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    editions: list[str] | None,
    language: str | None,
) -> None:
    seen: list[list[tuple[float, int]]] = []
    weigh = Searcher._weigh

    def record(self: Searcher, *args: Any) -> Any:
        seen.append(weigh(self, *args))
        return seen[-1]

    monkeypatch.setattr(Searcher, "_weigh", record)
    fast = searcher.search(text, editions=editions, language=language)
    monkeypatch.setattr(Searcher, "_contenders", _every_scored)
    plain = searcher.search(text, editions=editions, language=language)
    assert len(seen) == 2 and seen[0], text
    # the same paragraphs, scores and order, and so the same hits
    assert seen[0] == seen[1], text
    assert fast == plain, text


def test_most_copies_are_never_weighed(searcher: Searcher, monkeypatch: pytest.MonkeyPatch) -> None:
    weighed: list[tuple[int, int]] = []
    contenders = Searcher._contenders

    def count(self: Searcher, scores: Any, *args: Any) -> Any:
        found = contenders(self, scores, *args)
        weighed.append((len(found), len(_every_scored(self, scores))))
        return found

    monkeypatch.setattr(Searcher, "_contenders", count)
    for text, editions, language in QUERIES:
        if not editions and not language:  # a filter weighs what it keeps
            searcher.search(text)
    assert len(weighed) == 10
    assert sum(n for n, _ in weighed) < 0.3 * sum(every for _, every in weighed), weighed


def test_the_store_holds_copies(searcher: Searcher) -> None:
    assert len(searcher._opened.documents) > 3 * searcher._texts
    assert Path(searcher.path).exists()

"""Search fixtures: one search index per session, built into its own cache folder."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.rules.index import RuleIndex
from judge.search.query import Searcher


@pytest.fixture(scope="session")
def search_home() -> Iterator[Path]:
    """A JUDGE_HOME whose cache holds the session's search indexes."""
    with tempfile.TemporaryDirectory(prefix="judge-search-") as tmp:
        yield Path(tmp)


@pytest.fixture(scope="session")
def searcher(index: RuleIndex, search_home: Path) -> Iterator[Searcher]:
    """The shipped corpus, searchable."""
    with Searcher(index, home=search_home) as s:
        yield s


@pytest.fixture(scope="session")
def en_searcher(en_index: RuleIndex, search_home: Path) -> Iterator[Searcher]:
    """The shipped corpus plus both English editions of ../shared/corpus-en."""
    with Searcher(en_index, home=search_home) as s:
        yield s

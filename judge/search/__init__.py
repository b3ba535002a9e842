"""Full-text search over every edition: French analysis, rule numbers, typo correction,
a bilingual glossary, one hit per rule.

    from judge.search import Searcher
    with Searcher(load_index()) as searcher:
        result = searcher.search("cimetierre")   # result.corrected == "cimetière"

Whoever opens a Searcher closes it (the façade keeps one per store generation); there is
no process-wide one. The names below are loaded on first use: importing `judge.search`
(or one of its modules) costs nothing until then."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.lazy import lazy_exports

if TYPE_CHECKING:
    from judge.search.analysis import normalize
    from judge.search.errors import SearchError
    from judge.search.index import SearchIndexError
    from judge.search.query import Hit, Searcher, SearchResult, Segment, render

# public name -> the module that defines it
_WHERE = {
    "Hit": "judge.search.query",
    "SearchError": "judge.search.errors",
    "SearchIndexError": "judge.search.index",
    "SearchResult": "judge.search.query",
    "Searcher": "judge.search.query",
    "Segment": "judge.search.query",
    "normalize": "judge.search.analysis",
    "render": "judge.search.query",
}

__all__ = [
    "Hit",
    "SearchError",
    "SearchIndexError",
    "SearchResult",
    "Searcher",
    "Segment",
    "normalize",
    "render",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, __all__)

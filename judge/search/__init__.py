"""Full-text search over every edition: French analysis, rule numbers, typo correction,
a bilingual glossary, one hit per rule.

    from judge.search import Searcher
    with Searcher(load_index()) as searcher:
        result = searcher.search("cimetierre")   # result.corrected == "cimetière"
"""

from judge.search.analysis import normalize
from judge.search.index import SearchIndexError
from judge.search.query import (
    Hit,
    Searcher,
    SearchError,
    SearchResult,
    Segment,
    get_searcher,
    render,
    search,
)

__all__ = [
    "Hit",
    "SearchError",
    "SearchIndexError",
    "SearchResult",
    "Searcher",
    "Segment",
    "get_searcher",
    "normalize",
    "render",
    "search",
]

"""judge: French rules lookup and judge assistant for Magic: The Gathering."""

from judge.rules.concordance import compare
from judge.rules.errors import DocumentError, JudgeError
from judge.rules.index import RuleIndex, load_index
from judge.search import Searcher, search

__all__ = [
    "DocumentError",
    "JudgeError",
    "RuleIndex",
    "Searcher",
    "compare",
    "load_index",
    "search",
]

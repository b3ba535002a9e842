"""judge: French rules lookup and judge assistant for Magic: The Gathering."""

from judge.rules.errors import DocumentError, JudgeError
from judge.rules.index import RuleIndex, load_index

__all__ = ["DocumentError", "JudgeError", "RuleIndex", "load_index"]

"""Why a comparison cannot be made (French messages)."""

from __future__ import annotations

from judge.rules.concordance.links import Link
from judge.rules.errors import JudgeError


class ComparisonError(JudgeError):
    """A comparison that cannot be made; the message says why, in French."""


class RuleMissing(ComparisonError):
    def __init__(self, message: str, nearest: list[str]) -> None:
        super().__init__(message)
        self.nearest = nearest


class NoCounterpart(ComparisonError):
    def __init__(self, message: str, link: Link | None = None) -> None:
        super().__init__(message)
        self.link = link

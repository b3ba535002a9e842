"""The search's error: a message in French, for the CLI and the app to show as is."""

from __future__ import annotations

from judge.rules.errors import JudgeError


class SearchError(JudgeError):
    pass

"""The library's exceptions. Messages are in French: the CLI and the UI show them as they are."""

from __future__ import annotations


class JudgeError(Exception):
    """Base class of every error the library raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DocumentError(JudgeError):
    """A document that cannot be read, decoded or parsed.

    `file` names the document; `line` (1-based, in the decoded text) points at the problem
    when there is one place to blame.
    """

    def __init__(self, message: str, file: str, line: int | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.line = line

"""The engine's exceptions (French messages, shown as they are)."""

from __future__ import annotations

from judge.rules.errors import JudgeError


class BoardError(JudgeError):
    """A board file that cannot be used. `field` and `obj` name the culprit."""

    def __init__(self, message: str, field: str | None = None, obj: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.obj = obj


class UnknownRuleset(BoardError):
    """A ruleset name that is not in `RULESETS`."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        super().__init__(
            f"jeu de règles « {name} » inconnu (valeurs : {', '.join(known)})", field="ruleset"
        )
        self.name = name
        self.known = known

"""judge: French rules lookup and judge assistant for Magic: The Gathering.

The public API, and the only one the CLI and the app use:

    from judge import open_judge
    with open_judge() as j:
        print(j.rule("704.5g").rule.text)
        print(j.search("cimetierre").to_dict()["corrected"])   # "cimetière"

Names are loaded on first use, so `import judge` costs next to nothing and `judge rule`
never loads the search engine or the board engine."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from judge.engine import (
        BOOL_FIELDS,
        CARD_TYPES,
        INT_FIELDS,
        LIST_FIELDS,
        RULE_SUBTYPES,
        RULESETS,
        SECTORS,
        SUPERTYPES,
        VARIANTS,
        ZONES,
        ActionKind,
        Board,
        BoardError,
        ChoiceNeeded,
        Finding,
        LoadedBoard,
        Permanent,
        Resolution,
        Ruleset,
        RuleText,
        UnknownRuleset,
        ability_label,
        board_to_dict,
        decode_board_text,
        feminine_ids,
        find_ruleset,
        finding_label,
        load_board,
        load_board_file,
        no_rule_text,
        subject_label,
    )
    from judge.rules.concordance import (
        Comparison,
        ComparisonError,
        DiffOp,
        DiffPart,
        Link,
        inline_view,
        side_view,
    )
    from judge.rules.errors import DocumentError, JudgeError
    from judge.rules.history import Changes, History, NoEditionPair, Version
    from judge.rules.index import Citer, EditionNotFound, RuleNotFound
    from judge.rules.model import LAYOUTS, Edition, Layout, Reference, Rule
    from judge.rules.numbers import canonical
    from judge.rules.store import MAX_BYTES, StoreError
    from judge.search import Hit, SearchError, SearchResult, Segment, render
    from judge.session import (
        EditionView,
        ExportView,
        Generation,
        IngestOutcome,
        IngestView,
        Judge,
        QualityReports,
        QualityView,
        ReferenceView,
        RemoveView,
        RulesetView,
        RuleView,
        SandboxView,
        SearchView,
        collector_paused,
        gallery,
        generation,
        ingest,
        ingest_many,
        open_judge,
        remove,
        resolve_board,
    )

_MODULES = {
    "judge.session": (
        "EditionView",
        "ExportView",
        "Generation",
        "IngestOutcome",
        "IngestView",
        "Judge",
        "QualityReports",
        "QualityView",
        "ReferenceView",
        "RemoveView",
        "RuleView",
        "RulesetView",
        "SandboxView",
        "SearchView",
        "collector_paused",
        "gallery",
        "generation",
        "ingest",
        "ingest_many",
        "open_judge",
        "remove",
        "resolve_board",
    ),
    "judge.rules.errors": ("DocumentError", "JudgeError"),
    "judge.rules.history": ("Changes", "History", "NoEditionPair", "Version"),
    "judge.rules.index": ("Citer", "EditionNotFound", "RuleNotFound"),
    "judge.rules.model": ("LAYOUTS", "Edition", "Layout", "Reference", "Rule"),
    "judge.rules.numbers": ("canonical",),
    "judge.rules.store": ("MAX_BYTES", "StoreError"),
    "judge.rules.concordance": (
        "Comparison",
        "ComparisonError",
        "DiffOp",
        "DiffPart",
        "Link",
        "inline_view",
        "side_view",
    ),
    "judge.search": ("Hit", "SearchError", "SearchResult", "Segment", "render"),
    "judge.engine": (
        "BOOL_FIELDS",
        "CARD_TYPES",
        "INT_FIELDS",
        "LIST_FIELDS",
        "RULE_SUBTYPES",
        "RULESETS",
        "SECTORS",
        "SUPERTYPES",
        "VARIANTS",
        "ZONES",
        "ActionKind",
        "Board",
        "BoardError",
        "UnknownRuleset",
        "ChoiceNeeded",
        "Finding",
        "LoadedBoard",
        "Permanent",
        "Resolution",
        "RuleText",
        "Ruleset",
        "ability_label",
        "board_to_dict",
        "decode_board_text",
        "feminine_ids",
        "find_ruleset",
        "finding_label",
        "load_board",
        "load_board_file",
        "no_rule_text",
        "subject_label",
    ),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}

# Literal, so that type checkers see the re-exports (a test keeps it equal to _MODULES).
__all__ = [
    "BOOL_FIELDS",
    "CARD_TYPES",
    "INT_FIELDS",
    "LAYOUTS",
    "LIST_FIELDS",
    "MAX_BYTES",
    "RULESETS",
    "RULE_SUBTYPES",
    "SECTORS",
    "SUPERTYPES",
    "VARIANTS",
    "ZONES",
    "ActionKind",
    "Board",
    "BoardError",
    "Changes",
    "ChoiceNeeded",
    "Citer",
    "Comparison",
    "ComparisonError",
    "DiffOp",
    "DiffPart",
    "DocumentError",
    "Edition",
    "EditionNotFound",
    "EditionView",
    "ExportView",
    "Finding",
    "Generation",
    "History",
    "Hit",
    "IngestOutcome",
    "IngestView",
    "Judge",
    "JudgeError",
    "Layout",
    "Link",
    "LoadedBoard",
    "NoEditionPair",
    "Permanent",
    "QualityReports",
    "QualityView",
    "Reference",
    "ReferenceView",
    "RemoveView",
    "Resolution",
    "Rule",
    "RuleNotFound",
    "RuleText",
    "RuleView",
    "Ruleset",
    "RulesetView",
    "SandboxView",
    "SearchError",
    "SearchResult",
    "SearchView",
    "Segment",
    "StoreError",
    "UnknownRuleset",
    "Version",
    "ability_label",
    "board_to_dict",
    "canonical",
    "collector_paused",
    "decode_board_text",
    "feminine_ids",
    "find_ruleset",
    "finding_label",
    "gallery",
    "generation",
    "ingest",
    "ingest_many",
    "inline_view",
    "load_board",
    "load_board_file",
    "no_rule_text",
    "open_judge",
    "remove",
    "render",
    "resolve_board",
    "side_view",
    "subject_label",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'judge' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__

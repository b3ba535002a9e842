"""The state-based-action engine: a board sandbox under the current rules (704) and the
pre-2009 rules (420), every action explained by the rule it comes from.

This is the package's door: callers import from `judge.engine` only. Inside, the arrows
go one way: vocabulary → state → checks (current, pre2009) → rulesets → records and
compact → loading → perform → resolve → explain; editions builds a ruleset from an
edition of the rule index. French words come from `judge.fr`."""

from judge.engine.compact import parse_compact
from judge.engine.editions import has_state_based_actions, ruleset_from_edition
from judge.engine.errors import BoardError, UnknownRuleset
from judge.engine.explain import (
    RuleText,
    ability_label,
    action_label,
    feminine_ids,
    finding_label,
    index_rule_text,
    no_rule_text,
    render_text,
    resolution_to_dict,
    subject_label,
)
from judge.engine.loading import (
    LoadedBoard,
    board_to_compact,
    board_to_dict,
    decode_board_text,
    load_board,
    load_board_file,
)
from judge.engine.perform import Trigger
from judge.engine.resolve import Pass, Resolution, check_state, next_event, resolve
from judge.engine.rulesets import RULESETS, Ruleset, find_ruleset
from judge.engine.state import (
    Board,
    ChoiceNeeded,
    Finding,
    OtherObject,
    Permanent,
    Player,
    Team,
)
from judge.engine.vocabulary import (
    BOOL_FIELDS,
    CARD_TYPES,
    DEFAULT_RULESET,
    INT_FIELDS,
    LIST_FIELDS,
    RULE_SUBTYPES,
    SECTORS,
    SUPERTYPES,
    VARIANTS,
    ZONES,
    ActionKind,
    NoteKind,
    RulesetName,
    Variant,
    Zone,
)

__all__ = [
    "BOOL_FIELDS",
    "CARD_TYPES",
    "DEFAULT_RULESET",
    "INT_FIELDS",
    "LIST_FIELDS",
    "RULESETS",
    "RULE_SUBTYPES",
    "SECTORS",
    "SUPERTYPES",
    "VARIANTS",
    "ZONES",
    "ActionKind",
    "Board",
    "BoardError",
    "ChoiceNeeded",
    "Finding",
    "LoadedBoard",
    "NoteKind",
    "OtherObject",
    "Pass",
    "Permanent",
    "Player",
    "Resolution",
    "RuleText",
    "Ruleset",
    "RulesetName",
    "Team",
    "Trigger",
    "UnknownRuleset",
    "Variant",
    "Zone",
    "ability_label",
    "action_label",
    "board_to_compact",
    "board_to_dict",
    "check_state",
    "decode_board_text",
    "feminine_ids",
    "find_ruleset",
    "finding_label",
    "has_state_based_actions",
    "index_rule_text",
    "load_board",
    "load_board_file",
    "next_event",
    "no_rule_text",
    "parse_compact",
    "render_text",
    "resolution_to_dict",
    "resolve",
    "ruleset_from_edition",
    "subject_label",
]

"""The state-based-action engine: a board sandbox under the current rules (704) and the
pre-2009 rules (420), every action explained by the rule it comes from."""

from judge.engine.board import (
    Board,
    BoardError,
    ChoiceNeeded,
    Finding,
    LoadedBoard,
    OtherObject,
    Permanent,
    Player,
    Team,
    board_to_dict,
    load_board,
    load_board_file,
    parse_compact,
)
from judge.engine.explain import index_rule_text, render_text, resolution_to_dict
from judge.engine.resolve import Pass, Resolution, Trigger, check_state, resolve

__all__ = [
    "Board",
    "BoardError",
    "ChoiceNeeded",
    "Finding",
    "LoadedBoard",
    "OtherObject",
    "Pass",
    "Permanent",
    "Player",
    "Resolution",
    "Team",
    "Trigger",
    "board_to_dict",
    "check_state",
    "index_rule_text",
    "load_board",
    "load_board_file",
    "parse_compact",
    "render_text",
    "resolution_to_dict",
    "resolve",
]

"""The compact form both ways: a board with every field (the audit's board) prints to compact
text that reads back to the same board and prints again to the same text."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.engine import (
    BoardError,
    board_to_compact,
    board_to_dict,
    decode_board_text,
    load_board,
    load_board_file,
)

EVERY_FIELD = Path(__file__).resolve().parent / "data" / "every-field.json"


def test_every_field_round_trips_through_the_compact_form() -> None:
    b = load_board_file(EVERY_FIELD).board
    text = board_to_compact(b)
    again = load_board(decode_board_text(text)).board
    assert board_to_dict(again) == board_to_dict(b)
    assert board_to_compact(again) == text
    assert "printed_ability g pt trigger=dies text=imprimé" in text.splitlines()
    assert "{" not in text  # no Python repr


def test_printed_ability_line_reads_into_printed() -> None:
    data = decode_board_text(
        "player A\nperm g controller=A creature 1/1\nprinted_ability g pt trigger=dies\n"
    )
    assert data["permanents"][0]["printed"] == {
        "triggered_abilities": [{"id": "pt", "trigger": "dies"}]
    }
    assert load_board(data).board.permanents[0].printed is not None


def test_printed_ability_of_an_unknown_permanent() -> None:
    with pytest.raises(BoardError, match="« printed_ability » : permanent « x » inconnu"):
        decode_board_text("player A\nprinted_ability x pt trigger=dies\n")

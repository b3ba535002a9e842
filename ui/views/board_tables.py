"""The sandbox's editable tables: a board (the `judge sba` file format, as a dict) to three
DataFrames for `st.data_editor` and back.

Each table has the fields a judge edits most as columns; every other field of a row is kept,
as JSON, in the "Autres champs" column, so a board read from a file goes back to a file
unchanged. Errors name the table, the row and the column, in French."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd  # type: ignore[import-untyped]

# A cell is read as the file format types its field (only the columns below are looked up).
from judge import BOOL_FIELDS, INT_FIELDS, LIST_FIELDS, JudgeError, decode_board_text
from judge.fr import BOARD_FIELD_LABELS, BOARD_TABLE_LABELS

EXTRA = "extra"

# The fields a judge edits most, in the order shown.
PLAYER_COLUMNS = ("name", "life", "poison", "drew_from_empty_library", "cant_lose", "lost")
PERMANENT_COLUMNS = (
    "id",
    "name",
    "controller",
    "owner",
    "types",
    "supertypes",
    "subtypes",
    "power",
    "toughness",
    "damage",
    "deathtouch_damage",
    "counters",
    "keywords",
    "indestructible",
    "regeneration_shields",
    "token",
    "attached_to",
)
OTHER_COLUMNS = ("id", "name", "zone", "owner", "token")
# Defaults a row needs no mention of in the file.
DEFAULTS: dict[str, Any] = {
    "poison": 0,
    "damage": 0,
    "deathtouch_damage": 0,
    "regeneration_shields": 0,
}

LABELS = BOARD_FIELD_LABELS
TABLE_NAMES = BOARD_TABLE_LABELS
_COUNTER = re.compile(r"^\s*(.+?)\s*(?::|×|x|\s)\s*(-?\d+)\s*$")


class TableError(ValueError):
    """A cell that cannot go into a board; `message` is French."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- board -> tables ---------------------------------------------------------------


def counters_text(counters: Mapping[str, int]) -> str:
    return ", ".join(f"{kind}: {n}" for kind, n in counters.items())


def _row(item: Mapping[str, Any], columns: Sequence[str]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for col in columns:
        value = item.get(col)
        if col == "counters":
            value = counters_text(value) if isinstance(value, Mapping) else (value or "")
        elif col in LIST_FIELDS:
            value = list(value) if isinstance(value, list | tuple) else ([value] if value else [])
        elif col in BOOL_FIELDS:
            value = bool(value)
        elif col in INT_FIELDS and value is None:
            value = DEFAULTS.get(col)
        elif value is None:
            value = ""
        row[col] = value
    rest = {k: v for k, v in item.items() if k not in columns}
    row[EXTRA] = json.dumps(rest, ensure_ascii=False) if rest else ""
    return row


def frame(items: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> pd.DataFrame:
    rows = [_row(item, columns) for item in items]
    df = pd.DataFrame(rows, columns=[*columns, EXTRA])
    for col in columns:
        if col in INT_FIELDS:
            df[col] = df[col].astype("Int64")
        elif col in BOOL_FIELDS:
            df[col] = df[col].astype(bool)
        else:
            df[col] = df[col].astype(object)
    df[EXTRA] = df[EXTRA].astype(object)
    return df


def players_frame(board: Mapping[str, Any]) -> pd.DataFrame:
    return frame(board.get("players") or [], PLAYER_COLUMNS)


def permanents_frame(board: Mapping[str, Any]) -> pd.DataFrame:
    return frame(board.get("permanents") or [], PERMANENT_COLUMNS)


def others_frame(board: Mapping[str, Any]) -> pd.DataFrame:
    return frame(board.get("other_zones") or [], OTHER_COLUMNS)


# --- tables -> board ---------------------------------------------------------------


def _empty(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


def parse_counters(text: str, where: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in re.split(r"[,;]", text):
        if not part.strip():
            continue
        m = _COUNTER.match(part)
        if not m:
            raise TableError(
                f"{where} : « {part.strip()} » n'est pas un marqueur (attendu : "
                "« type: nombre », par exemple « +1/+1: 2, loyalty: 3 »)"
            )
        out[m.group(1)] = out.get(m.group(1), 0) + int(m.group(2))
    return out


def _integer(value: Any, where: str) -> int:
    if isinstance(value, bool):
        raise TableError(f"{where} : nombre entier attendu")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    try:
        as_float = float(value)
    except (TypeError, ValueError):
        as_float = math.nan
    if as_float.is_integer():
        return int(as_float)
    raise TableError(f"{where} : nombre entier attendu, reçu « {value} »")


def _words(value: Any) -> list[str]:
    if isinstance(value, str):
        return [w.strip() for w in value.split(",") if w.strip()]
    if hasattr(value, "tolist"):
        value = value.tolist()
    return [str(w).strip() for w in value or [] if str(w).strip()]


def rows(df: pd.DataFrame, columns: Sequence[str], table: str) -> list[dict[str, Any]]:
    """The table's rows as board items. Rows left entirely empty are skipped."""
    out: list[dict[str, Any]] = []
    name = TABLE_NAMES.get(table, table)
    for n, (_, record) in enumerate(df.iterrows(), start=1):
        item: dict[str, Any] = {}
        cells = {c: record.get(c) for c in [*columns, EXTRA]}
        if all(_empty(v) or v is False or (isinstance(v, list) and not v) for v in cells.values()):
            continue
        for col in columns:
            value = cells[col]
            where = f"{name}, ligne {n}, colonne « {LABELS.get(col, col)} »"
            if col in LIST_FIELDS:
                words = [] if _empty(value) else _words(value)
                if words:
                    item[col] = words
                continue
            if _empty(value):
                continue
            if col == "counters":
                counters = parse_counters(str(value), where)
                if counters:
                    item[col] = counters
            elif col in INT_FIELDS:
                number = _integer(value, where)
                if DEFAULTS.get(col) != number:
                    item[col] = number
            elif col in BOOL_FIELDS:
                if bool(value):
                    item[col] = True
            else:
                item[col] = str(value).strip()
        extra = cells[EXTRA]
        if not _empty(extra):
            where = f"{name}, ligne {n}, colonne « {LABELS[EXTRA]} »"
            more = json_object(str(extra), where)
            for key, value in more.items():
                item.setdefault(key, value)
        out.append(item)
    return out


def json_object(text: str, where: str) -> dict[str, Any]:
    """A JSON object typed in a cell or a box. Whatever the text (a syntax error, `[` × 5000,
    a number of 5000 digits), the only exception is TableError, in French: the engine's
    decoder (`decode_board_text`) translates json's messages and refuses deep nesting."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        raise TableError(f"{where} : un objet JSON est attendu, par exemple {{}}")
    try:
        return decode_board_text(stripped, where)
    except JudgeError as exc:
        raise TableError(exc.message) from exc
    except RecursionError as exc:  # the decoder catches it; never let it through
        raise TableError(f"{where} : plateau trop imbriqué") from exc


def board_from_tables(
    settings: Mapping[str, Any],
    players: pd.DataFrame,
    permanents: pd.DataFrame,
    others: pd.DataFrame,
    more: str,
) -> dict[str, Any]:
    """The board dict from the settings, the three tables and the JSON of the rest."""
    board: dict[str, Any] = {k: v for k, v in settings.items() if v not in (None, "")}
    board["players"] = rows(players, PLAYER_COLUMNS, "players")
    board["permanents"] = rows(permanents, PERMANENT_COLUMNS, "permanents")
    board["other_zones"] = rows(others, OTHER_COLUMNS, "other_zones")
    if more.strip():
        rest = json_object(more, "Équipes, pile et choix")
        for key in ("teams", "stack", "choices"):
            if rest.get(key):
                board[key] = rest[key]
        unknown = sorted(set(rest) - {"teams", "stack", "choices"})
        if unknown:
            raise TableError(
                f"Équipes, pile et choix : champ(s) inconnu(s) {', '.join(unknown)} "
                "(attendus : teams, stack, choices)"
            )
    return board


def more_json(board: Mapping[str, Any]) -> str:
    rest = {k: board[k] for k in ("teams", "stack", "choices") if board.get(k)}
    return json.dumps(rest, ensure_ascii=False, indent=2) if rest else ""

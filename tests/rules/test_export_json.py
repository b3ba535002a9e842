"""`judge export` writes a rule's counterparts from a template (`export._LinksJson`), not
through orjson: checked here against orjson and json.dumps of `Link.to_dict`, where
`_items` places them, on rows made to be awkward (no corpus needed)."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from judge.rules import export
from judge.rules.concordance import Link
from judge.rules.concordance.links import LinkRow

AWKWARD = ['"', "\\", "\n", "\x00", "\x1f", "\x7f", "\u2028", "é", "⚖️", "704.5a"]


def rows_for(text: str) -> list[LinkRow]:
    return [
        ("en-2025", text, "same_number", 1.0, False, (), False, True),
        (text, "704.5a", "curated", 0.1 + 0.2, True, (text,), True, False),
        ("fr-2024", "120.3", "translation", 0.0, True, ("en-2011", text), False, True),
        ("fr-2011", text, "text", 0.00049, False, ("a", "b", "c"), True, True),
        ("en-2008", "420.5e", "title", 0.0005, True, (), False, False),
    ]


def expected(edition: str, number: str, rows: list[LinkRow], indent: bool) -> bytes:
    row: dict[str, Any] = {"rule": number}
    row["counterparts"] = [Link(edition, number, *r).to_dict() for r in rows]
    if indent:
        return orjson.dumps([row], option=orjson.OPT_INDENT_2)
    return json.dumps([row], ensure_ascii=False, indent=2).encode()


@pytest.mark.parametrize("text", AWKWARD)
@pytest.mark.parametrize("indent", [True, False], ids=["orjson", "json"])
def test_the_template_writes_what_orjson_and_json_write(text: str, indent: bool) -> None:
    written = export._LinksJson(f"en-{text}")
    for rows in (rows_for(text), [], rows_for(text)[:1]):
        row = {"rule": text, "counterparts": orjson.Fragment(written(text, rows))}
        out = b"[\n" + export._items([row]) + b"\n]"
        assert out == expected(f"en-{text}", text, rows, indent)


def test_several_rules_share_what_was_written_once() -> None:
    written = export._LinksJson("en-2019")
    rules = [(n, rows_for(n)) for n in ("1", "704.5a", "1")]
    rows = [{"rule": n, "counterparts": orjson.Fragment(written(n, r))} for n, r in rules]
    parsed = json.loads(b"[\n" + export._items(rows) + b"\n]")
    assert [r["counterparts"] for r in parsed] == [
        [Link("en-2019", n, *x).to_dict() for x in r] for n, r in rules
    ]

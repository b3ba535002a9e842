"""The order of the operations of the word diff, as `judge compare --json` writes it: at each
change point the deletion comes before the insertion (one of each at most, never two of the
same operation in a row), and reading the operations in order rebuilds both texts exactly.
Pinned on real changed rules: the old French text against 2024, and en-2008 against en-2011."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from judge import Judge, Rule, open_judge
from judge.cli import main
from judge.rules.concordance.diff import RENUMBERED_ARROW
from judge.rules.index import RuleIndex

EN_OLD, EN_NEW = "en-2008-07-15", "en-2011-09-30"


def sides(diff: list[list[str]]) -> tuple[str, str]:
    """The old and the new text, rebuilt from the JSON operations in order."""
    old: list[str] = []
    new: list[str] = []
    for op, text in diff:
        if op == "equal":
            old.append(text)
            new.append(text)
        elif op == "delete":
            old.append(text)
        elif op == "insert":
            new.append(text)
        elif op == "renumbered":
            before, after = text.split(RENUMBERED_ARROW)
            old.append(before)
            new.append(after)
        else:
            raise AssertionError(f"opération inconnue : {op!r}")
    return "".join(old), "".join(new)


def check_order(diff: list[list[str]]) -> None:
    """Between two unchanged pieces: at most one deletion, then at most one insertion."""
    ops = [op for op, _ in diff]
    assert all(text for _, text in diff), diff
    run: list[str] = []
    for op in [*ops, "equal"]:
        if op in ("delete", "insert"):
            run.append(op)
            continue
        assert run in ([], ["delete"], ["insert"], ["delete", "insert"]), (run, diff)
        run = []
    for a, b in itertools.pairwise(ops):
        assert not (a == b and a != "renumbered"), (a, diff)


def check_comparison(data: dict) -> None:
    diff = data["diff"]
    check_order(diff)
    assert sides(diff) == (data["from"]["text"], data["to"]["text"])


@pytest.fixture(scope="module")
def en_judge(en_index: RuleIndex, en_home: Path) -> Iterator[Judge]:
    with Judge(en_index, en_home) as j:
        yield j


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_legend_rule_old_french_against_2024_pinned(capsys: pytest.CaptureFixture[str]) -> None:
    data = _cli_json(
        ["compare", "420.5e", "--from", "fr-pre2009", "--to", "fr-2024", "--json"], capsys
    )
    assert data["from"]["rule"] == "420.5e" and data["to"]["rule"] == "704.5j"
    check_comparison(data)
    # The first change point, exactly as the JSON writes it: deletion, insertion, then equal.
    assert data["diff"][:3] == [
        ["delete", "Si deux (ou plus) "],
        ["insert", "If two or more legendary "],
        ["equal", "permanents "],
    ]
    assert data["diff"][3][0] == "delete" and data["diff"][4][0] == "insert"


@pytest.mark.parametrize(
    "number", ["420.3", "420.5a", "420.5b", "420.5c", "420.5d", "420.5h", "420.5i"]
)
def test_old_french_against_2024(number: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", number, "--from", "fr-pre2009", "--to", "fr-2024", "--json"]
    data = _cli_json(argv, capsys)
    check_comparison(data)
    if number == "420.3":
        assert ["renumbered", "408 → 117"] in data["diff"]


def test_420_3_both_ways_and_with_2011() -> None:
    with open_judge() as j:
        for a, b in (("fr-pre2009", "fr-2024"), ("fr-2024", "fr-pre2009")):
            number = "420.3" if a == "fr-pre2009" else "704.3"
            data = j.compare(number, a, b).to_dict()
            check_comparison(data)
            assert any(op in ("delete", "insert") for op, _ in data["diff"])


def test_english_2008_against_2011(en_judge: Judge) -> None:
    changes = en_judge.changes(EN_OLD, EN_NEW).to_dict()
    changed = [c["rule"] for c in changes["changed"]]
    moved = [m["from"] for m in changes["moved"] if m["changed"]]
    assert changed and moved
    seen = 0
    both = 0
    for number in changed + moved[:150]:
        data = en_judge.compare(number, EN_OLD, EN_NEW).to_dict()
        check_comparison(data)
        ops = [op for op, _ in data["diff"]]
        seen += 1
        both += any(a == "delete" and b == "insert" for a, b in itertools.pairwise(ops))
    assert seen >= 50 and both >= 20
    # The diffs `judge changes` lists are in the same order.
    for entry in changes["changed"]:
        check_order(entry["diff"])


def test_english_205_1_pinned(en_judge: Judge) -> None:
    data = en_judge.compare("205.1", EN_OLD, EN_NEW).to_dict()
    check_comparison(data)
    assert data["diff"][:4] == [
        ["equal", "The "],
        ["delete", "card "],
        ["equal", "type "],
        ["delete", "(and subtype and supertype, if applicable) of a card "],
    ]
    assert data["diff"][4] == ["insert", "line "]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('x".', "x. »"),  # 420.5i's last words: « règle des mondes". » → « règle des mondes. »
        ('a"b', "a»c"),
        ("l'eau", "l’air"),
    ],
)
def test_a_quote_restyled_beside_a_change(old: str, new: str) -> None:
    """A quotation mark or apostrophe restyled right beside a changed word is the same change
    point: deletion first, then insertion, and both texts rebuilt."""
    with open_judge() as j:
        base = j.get("420.5i", "fr-pre2009")
        assert base is not None

        def rule(text: str) -> Rule:
            para = replace(base.paragraphs[0], text=text)
            return replace(base, paragraphs=(para,), references=())

        diff = [part.to_json() for part in j.diff(rule(old), rule(new))]
    check_order(diff)
    assert sides(diff) == (old, new)

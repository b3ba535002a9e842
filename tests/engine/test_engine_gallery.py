"""Every board of the gallery (corpus/boards) goes through `judge sba --json` and gives the
outcome written in its `expected` key, for each ruleset listed there."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from judge.cli import sba

BOARDS = Path(__file__).resolve().parents[2] / "corpus" / "boards"
FILES = sorted(BOARDS.glob("*.json"))
CASES = [
    (path, ruleset)
    for path in FILES
    for ruleset in json.loads(path.read_text(encoding="utf-8"))["expected"]
]


def _cli_json(path: Path, ruleset: str | None, capsys: pytest.CaptureFixture[str]) -> Any:
    status = sba.run(argparse.Namespace(board=str(path), ruleset=ruleset, json=True))
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def _subject(a: dict[str, Any]) -> str:
    return str(a.get("object") or a.get("player") or a.get("team"))


def _short(a: dict[str, Any]) -> str:
    return f"{a['rule']} {a['kind']} {_subject(a)}"


def test_the_gallery_covers_the_issue() -> None:
    names = {p.stem for p in FILES}
    for needed in (
        "704-4-endurance-pendant-la-resolution",
        "704-7-miroir-de-la-liche",
        "704-8-louveteau",
        "regle-des-legendes",
        "contact-mortel-indestructible-regeneration",
        "endurance-zero-et-regeneration",
        "marqueurs-plus-moins",
        "aura-et-equipement-illegaux",
        "saga-chapitre-sur-la-pile",
        "troll-a-deux-tetes",
        "commander-21-blessures",
        "zero-vie-et-bibliotheque-vide",
        "couches-seigneur-qui-meurt",
        "couches-dependance-613-8",
        "declenchements-de-mort-603-10a",
        "saga-sans-chapitre-704-5s",
        "multijoueur-800-4a",
        "remplacements-armure-d-ombre-616-1",
        "grace-702-103f",
        "choix-inutile-legendes-mortes",
        "machination-archenemy",
        "phenomene-planechase",
    ):
        assert needed in names
    legend = json.loads((BOARDS / "regle-des-legendes.json").read_text(encoding="utf-8"))
    assert set(legend["expected"]) == {"fr-2024", "fr-pre2009"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_board_states_its_own_ruleset(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data.get("description"), "une description en français"
    assert data["ruleset"] in data["expected"]
    assert set(data["expected"]) <= {"fr-2024", "fr-pre2009"}


@pytest.mark.parametrize(("path", "ruleset"), CASES, ids=lambda v: getattr(v, "stem", v))
def test_gallery_board(path: Path, ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    expected = data["expected"][ruleset]
    out = _cli_json(path, ruleset, capsys)
    assert out["ruleset"] == ruleset
    assert out["stopped"] in (None, "choice")

    got_passes = [sorted(_short(a) for a in p["actions"]) for p in out["passes"]]
    want_passes = [sorted(p) for p in expected["passes"]]
    assert [p for p in got_passes if p] == want_passes

    if "not_applied" in expected:
        got = {_short(n) for p in out["passes"] for n in p["not_applied"]}
        assert got == set(expected["not_applied"])
    for action, also in expected.get("also", {}).items():
        matches = [a for p in out["passes"] for a in p["actions"] if _short(a) == action]
        assert len(matches) == 1, action
        assert matches[0].get("also", []) == also
    assert sorted(out["losers"]) == sorted(expected["losers"])
    got_triggers = sorted(f"{t['ability']} {t['source']}" for t in out["triggers"])
    assert got_triggers == sorted(expected.get("triggers", []))
    got_choices = [
        f"{c['rule']} {c['player']} {','.join(c['options'])}" for c in out["choices_needed"]
    ]
    if "choices_needed" in expected or got_choices:
        assert got_choices == expected.get("choices_needed", [])
        assert (out["stopped"] == "choice") == bool(got_choices)
    if "pending" in expected:
        assert sorted(_short(a) for a in out["pending"]) == sorted(expected["pending"])

    board = out["board"]
    assert sorted(p["id"] for p in board["permanents"]) == expected["battlefield"]
    by_id = {p["id"]: p for p in board["permanents"]}
    for ident, fields in expected.get("final", {}).items():
        for name, value in fields.items():
            assert by_id[ident].get(name) == value, (ident, name)

    # every action is explained with the numbers of the board, and every cited rule quoted
    for p in out["passes"]:
        for a in [*p["actions"], *p["not_applied"]]:
            assert a["why"].strip()
    # (the shipped editions hold 704 and 420, not 613, 616, 702 or 800: those are cited
    # without their text)
    for number, text in out["rules"].items():
        if number.split(".")[0] in ("704", "420"):
            assert text, f"règle {number} sans texte dans l'index {ruleset}"


def test_the_gallery_boards_also_run_without_ruleset_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for path in FILES:
        out = _cli_json(path, None, capsys)
        assert out["ruleset"] == json.loads(path.read_text(encoding="utf-8"))["ruleset"]

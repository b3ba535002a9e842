from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_rule_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rule", "704.7", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["edition"] == "fr-2024" and data["rule"] == "704.7"
    assert data["title"] == "Actions basées sur un état"
    assert data["text"].startswith("Si plusieurs actions basées sur un état")
    assert len(data["examples"]) == 1 and "Miroir de la liche" in data["examples"][0]
    assert data["children"] == []
    assert {"rule": "704.5a", "edition": "fr-2024", "status": "resolved"}.items() <= data[
        "references"
    ][0].items()
    assert data["language"] == "fr"
    assert data["source"]["file"].endswith("704-actions-basees-sur-un-etat.txt")
    assert data["source"]["line"] == 193  # grep -n "Si plusieurs actions"


def test_rule_default_is_newest_edition_with_text(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rule", "118.1d", "--json")
    assert json.loads(out)["edition"] == "fr-2011"
    _, out, _ = run(capsys, "rule", "420.5E")
    assert out.startswith("[fr-pre2009]") and "règle des légendes" in out


def test_rule_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rule", "704.5")
    assert status == 0
    assert "Sous-règles :" in out and "704.5y" in out
    status, out, _ = run(capsys, "rule", "704.3")
    assert "117 « Timing et priorité » (titre seul)" in out
    assert "numéro déduit" in out


def test_unknown_rule_exits_1_with_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "rule", "704.5z", "--edition", "fr-2024")
    assert status == 1 and out == ""
    assert "introuvable" in err and "704.5y" in err


def test_unknown_edition_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "rule", "704.5g", "--edition", "fr-1999")
    assert status == 2 and "Édition inconnue" in err


def test_check_reports_each_edition(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--json")
    assert status == 0
    reports = {r["edition"]: r for r in json.loads(out)}
    assert reports["fr-2011"]["duplicates_fixed"] == ["118.1d"]
    assert reports["fr-pre2009"]["gaps"] == ["420.1"]
    assert len(reports["fr-2024"]["english_paragraphs"]) == 10
    assert reports["fr-2024"]["inferred"][:3] == ["301.1", "301.2", "301.3"]
    status, out, _ = run(capsys, "check")
    assert "lacunes : 1 (420.1)" in out


def test_editions_and_export(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "editions", "--json")
    assert status == 0
    ids = [e["id"] for e in json.loads(out)]
    assert ids == ["fr-2024", "fr-2011", "fr-pre2009"]
    status, out, _ = run(capsys, "export", "--edition", "fr-pre2009")
    assert status == 0
    rows = json.loads(out)
    assert {"408.1i", "420.5k"} <= {r.get("rule") for r in rows}
    assert all("cited_by" in r for r in rows if r["kind"] != "glossary")


def test_rule_lists_counterparts_and_old_references_today(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "rule", "420.5e", "--edition", "fr-pre2009")
    assert "Dans les autres éditions :" in out and "fr-2024 704.5j" in out
    _, out, _ = run(capsys, "rule", "420.3", "--edition", "fr-pre2009", "--json")
    data = json.loads(out)
    by_target = {r["rule"]: r for r in data["references"]}
    assert by_target["314"]["status"] == "missing"
    assert by_target["314"]["counterpart"]["to"] == {"edition": "fr-2024", "rule": "514"}
    assert by_target["408"]["counterpart"] is None  # present in its own edition
    assert {"edition": "fr-2024", "rule": "704.3"} in [c["to"] for c in data["counterparts"]]
    _, out, _ = run(capsys, "rule", "118.2", "--edition", "fr-2011")
    assert "119.3 « Blessures » (absente du corpus) → fr-2024 120.3" in out


@pytest.mark.parametrize("number", ["704.5l", "704.5o", "règle 704.5l"])
def test_impossible_letters_suggest_neighbours(
    number: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "rule", number, "--edition", "fr-2024")
    assert status == 1
    assert "lettres l et o ne sont jamais utilisées" in err
    nearest = err.split("Numéros proches : ")[1].rstrip(".\n").split(", ")
    assert "704.5k" in nearest and "704.5m" in nearest


@pytest.mark.parametrize("form", ["règle 704.5g", "r704.5G.", "Règle 704.5g", "rule 704.5g"])
def test_rule_number_forms(form: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rule", form, "--json")
    assert status == 0 and json.loads(out)["rule"] == "704.5g"


def test_untranslated_paragraphs_are_tagged(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rule", "704.5j")
    assert "[EN]" in out
    _, out, _ = run(capsys, "rule", "704.5g")
    assert "[EN]" not in out


def test_editions_and_check_count_alike(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "editions", "--json")
    counted = {e["id"]: e["rules"] for e in json.loads(out)}
    _, out, _ = run(capsys, "check", "--json")
    checked = {r["edition"]: r["rules_parsed"] for r in json.loads(out)}
    assert counted == checked
    assert counted["fr-2011"] == 14  # 118.1–118.9, 118.1a–d and 118.4a


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("judge ")


def test_counterpart_absent_from_its_edition_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rule", "704.8", "--edition", "fr-2024")
    line = next(x for x in out.splitlines() if x.strip().startswith("fr-2011"))
    assert "absente du corpus" in line
    _, out, _ = run(capsys, "rule", "420.5e", "--edition", "fr-pre2009")
    line = next(x for x in out.splitlines() if x.strip().startswith("fr-2024 704.5j"))
    assert "absente" not in line


@pytest.mark.parametrize("argv", [["rule", "704.5a"], ["export", "--edition", "fr-pre2009"]])
def test_an_output_that_is_not_utf8_is_a_french_error(tmp_path: Path, argv: list[str]) -> None:
    """A terminal or pipe in ASCII cannot write « é »: a message that says so, status 2, no
    traceback (stderr escapes what it cannot write)."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "JUDGE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "judge", *argv], env=env, capture_output=True, check=False
    )
    err = done.stderr.decode("ascii")
    assert done.returncode == 2, err
    assert "Traceback" not in err
    assert "encodage ascii" in err and "PYTHONIOENCODING=utf-8" in err

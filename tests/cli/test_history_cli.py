"""`judge history`, `judge changes` and `judge remove`: thin mirrors of the façade."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge import open_judge
from judge.cli import main
from tests.conftest import EN_FILES, require_corpus_en


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_history_json_is_the_facade_view(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "history", "704.5j", "--edition", "fr-2024", "--json")
    assert status == 0
    data = json.loads(out)
    assert data == open_judge().history("704.5j", "fr-2024").to_dict()
    assert [v["rule"] for v in data["versions"]] == ["420.5e", "704.5j"]
    keys = {"edition", "language", "date", "rule", "text", "change", "diff"}
    assert set(data["versions"][0]) == keys


def test_history_text_shows_the_renumbering(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "history", "420.5e", "--edition", "fr-pre2009")
    assert status == 0
    assert "[fr-pre2009] 420.5e — apparaît" in out
    assert "[fr-2024] 704.5j — renumérotée" in out


def test_history_of_an_unknown_rule(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "history", "999.9", "--edition", "fr-2024")
    assert status == 1
    assert "introuvable" in err


def test_changes_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "changes", "--from", "fr-pre2009", "--to", "fr-2024", "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"from", "to", "added", "removed", "changed", "moved"}
    assert {"from": "420.5e", "to": "704.5j", "changed": True} in data["moved"]
    status, out, _ = run(capsys, "changes", "--from", "fr-pre2009", "--to", "fr-2024")
    assert status == 0
    assert out.startswith("De fr-pre2009 à fr-2024 : ")
    assert "420.5e → 704.5j (texte modifié)" in out


def test_changes_without_a_neighbour_is_a_french_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "changes", "--from", "fr-2024")
    assert status == 2 and out == ""
    assert err.startswith("Erreur : Aucune édition en « fr » après fr-2024")


def test_remove(capsys: pytest.CaptureFixture[str], tmp_home: Path) -> None:
    require_corpus_en()
    assert run(capsys, "ingest", str(EN_FILES["en-2008-07-15"]))[0] == 0
    status, out, _ = run(capsys, "remove", "en-2008-07-15", "--json")
    assert status == 0
    assert json.loads(out) == {"edition": "en-2008-07-15", "removed": True}
    assert not (tmp_home / "editions" / "en-2008-07-15").exists()
    status, _, err = run(capsys, "remove", "en-2008-07-15")
    assert status == 2 and "Aucune édition importée" in err
    status, _, err = run(capsys, "remove", "fr-2024")
    assert status == 2 and "livrée" in err

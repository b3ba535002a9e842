"""`judge search`: text and JSON output, exit statuses, progress on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.cli import main
from judge.cli import search as search_cli


def test_text_output_says_what_was_searched(
    tmp_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "cimetierre", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Résultats pour « cimetière »")
    hits = [line for line in lines if line.startswith("[")]
    assert len(hits) == 3
    assert all("**" in line for line in hits), "matches are marked"


def test_one_line_per_rule_with_edition_number_and_breadcrumb(
    tmp_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "contact", "mortel"]) == 0  # words may come unquoted
    first = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("["))
    assert first.startswith("[fr-2024] 704.5h — 7. Règles supplémentaires › 704. Actions")
    assert "**contact** **mortel**" in first


def test_json_output(tmp_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "plainswalker", "--json", "--limit", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["query"] == "plainswalker"
    assert data["corrected"] == "planeswalker"
    assert set(data) >= {"query", "corrected", "message", "hits"}
    assert 1 <= len(data["hits"]) <= 2
    for hit in data["hits"]:
        assert set(hit) >= {"edition", "rule", "title", "breadcrumb", "snippet", "score"}
    scores = [h["score"] for h in data["hits"]]
    assert scores == sorted(scores, reverse=True)


def test_json_number_first_and_filters(tmp_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "règle 704", "--json", "--edition", "fr-2011"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hits"][0]["rule"] == "704"
    assert {h["edition"] for h in data["hits"]} == {"fr-2011"}
    assert main(["search", "bataille", "--json", "--language", "en"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hits"] and all(h["language"] == "en" for h in data["hits"])


def test_nothing_found_exits_1_with_a_french_message(
    tmp_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "((", "AND"]) == 1
    out = capsys.readouterr().out
    assert "Requête vide" in out or "mots vides" in out
    assert main(["search", "--json", "*"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["hits"] == [] and data["message"]


def test_unknown_edition_is_an_error(tmp_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "cimetière", "--edition", "fr-1999"]) == 2
    assert "Édition inconnue" in capsys.readouterr().err


def test_bad_limit_is_refused(tmp_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["search", "cimetière", "--limit", "0"])
    assert exc.value.code == 2
    assert "strictement positif" in capsys.readouterr().err


def test_progress_is_shown_on_stderr_while_building(
    tmp_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_cli._Progress, "__init__", _no_delay)
    assert main(["search", "jeton"]) == 0
    err = capsys.readouterr().err
    assert "Construction de l'index de recherche" in err and "100 %" in err
    # built once: the next search is silent
    assert main(["search", "jeton"]) == 0
    assert capsys.readouterr().err == ""


def _no_delay(self: search_cli._Progress, stream: object, delay: float = 0.0) -> None:
    self.stream = stream  # type: ignore[assignment]
    self.delay = 0.0
    self.started = None
    self.shown = False


def test_progress_stays_quiet_for_a_quick_build() -> None:
    class Sink:
        text = ""

        def write(self, s: str) -> None:
            self.text += s

        def flush(self) -> None:
            pass

    sink = Sink()
    progress = search_cli._Progress(sink, delay=10.0)  # type: ignore[arg-type]
    for done in range(0, 101, 10):
        progress(done, 100)
    assert sink.text == ""


def test_unusable_cache_folder_is_a_french_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "a-file"
    home.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("JUDGE_HOME", str(home))
    assert main(["search", "poison"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Erreur : ") and "n'est pas un dossier" in err
    assert "Errno" not in err and "Traceback" not in err

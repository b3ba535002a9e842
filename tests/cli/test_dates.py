"""The date is always visible: `judge rule` says its edition, its effective date, and whether
a newer text of the rule is known (in its language, and without --edition in the other)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.cli import main


def _text(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(["rule", *argv]) == 0
    return capsys.readouterr().out.splitlines()


def test_newest_text_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _text(capsys, "704.5j", "--edition", "fr-2024")
    assert lines[1] == (
        "Édition fr-2024 — en vigueur : printemps 2024 (avant « Kindred ») — "
        "texte le plus récent connu en français"
    )


def test_older_text_names_the_newer_edition(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _text(capsys, "420.5e", "--edition", "fr-pre2009")
    assert lines[1] == (
        "Édition fr-pre2009 — en vigueur : avant la renumérotation de 2009 — une édition "
        "plus récente existe : fr-2024 (printemps 2024 (avant « Kindred »)), règle 704.5j"
    )


def test_full_date_is_shown_day_first(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _text(capsys, "118.2", "--edition", "fr-2011")
    assert lines[1].startswith("Édition fr-2011 — en vigueur : 04/02/2011 — ")


def test_without_edition_names_a_newer_edition_of_the_other_language(
    capsys: pytest.CaptureFixture[str], en_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_HOME", str(en_home))
    lines = _text(capsys, "420.5e")
    assert lines[0].startswith("[en-2008-07-15]")
    assert lines[1] == (
        "Édition en-2008-07-15 — en vigueur : 15/07/2008 — une édition plus récente existe : "
        "en-2011-09-30 (30/09/2011), règle 704.5k"
    )
    assert lines[2] == (
        "En français, une édition plus récente existe : fr-2024 "
        "(printemps 2024 (avant « Kindred »)), règle 704.5j"
    )
    # With --edition, only the rule's own language.
    lines = _text(capsys, "420.5e", "--edition", "en-2008-07-15")
    assert not any(line.startswith("En français") for line in lines)

"""`judge search`: one hit per rule, the other editions that hold it said once, in French."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.cli import main


def test_copies_are_named_under_their_hit(
    en_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUDGE_HOME", str(en_home))
    assert main(["search", "contact mortel", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    with_copies = [h for h in hits if h["also"]]
    assert with_copies, "some rule of the query is in several editions"
    assert main(["search", "contact mortel"]) == 0
    text = capsys.readouterr().out
    for hit in with_copies:
        names = [
            c["edition"] if c["rule"] == hit["rule"] else f"{c['edition']} ({c['rule']})"
            for c in hit["also"]
        ]
        assert f"    aussi dans {', '.join(names)}" in text
    assert text.count("aussi dans") == len(with_copies)

"""`judge search`: one hit per rule, the other editions that hold it said once, in French."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.cli import main
from judge.fr import see_rules


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


def test_renumbered_copies_are_one_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The concordance folds the old numbering into today's: 420.5b before 2009 is 704.5f."""
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    assert main(["search", "créature endurance 0 cimetière", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    first = hits[0]
    assert (first["edition"], first["rule"]) == ("fr-2024", "704.5f")
    assert {"edition": "fr-pre2009", "rule": "420.5b"} in [
        {"edition": c["edition"], "rule": c["rule"]} for c in first["also"]
    ]
    assert not any(h["edition"] == "fr-pre2009" and h["rule"] == "420.5b" for h in hits)


def test_a_glossary_entry_sends_to_its_rules(
    en_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """2011's glossary says « Double Strike: … deal its combat damage twice. See rule 702.4 »:
    the entry's hit names that rule (`see`), in the JSON and as « voir la règle 702.4 »."""
    monkeypatch.setenv("JUDGE_HOME", str(en_home))
    query = "with double strike does my creature deal damage twice"
    assert main(["search", query, "--json", "--edition", "en-2011-09-30"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    entry = next(h for h in hits if h["kind"] == "glossary")
    assert (entry["rule"], entry["see"]) == ("Double Strike", ["702.4"])
    assert all(h["see"] == [] for h in hits if h["kind"] != "glossary")
    assert main(["search", query, "--edition", "en-2011-09-30"]) == 0
    text = capsys.readouterr().out
    glossary_line = text.index("Glossaire « Double Strike »")
    assert text.index("    voir la règle 702.4", glossary_line) > glossary_line
    assert text.count("voir la règle") + text.count("voir les règles") == sum(
        1 for h in hits if h["see"]
    )


def test_see_rules_says_where_a_glossary_entry_sends() -> None:
    assert see_rules(["702.4"]) == "voir la règle 702.4"
    assert see_rules(["208", "302.4"]) == "voir les règles 208, 302.4"

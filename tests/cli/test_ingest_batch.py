"""`judge ingest PATH...`: several documents or a folder, one edition each, atomically;
the numbering read from the rules, not the year; an ISO date on every ingested edition."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from judge import ingest_many
from judge.cli import main
from judge.rules import index as index_module
from judge.rules import store
from judge.rules.edition import EditionMeta
from judge.rules.index import load_index
from judge.rules.model import Edition, LazyRules
from tests.conftest import EN_FILES, require_corpus_en
from tests.rules.test_store import MINI, snapshot


def official(date: str, *, old: bool) -> str:
    """A small official-format document dated `date` (an English "Month D, YYYY"), with the
    pre-2009 state-based effects (420.5…) or the modern state-based actions (704.5…)."""
    body = MINI.replace("June 7, 2024", date)
    if old:
        body = body.replace("7. Additional Rules", "4. Turn Structure").replace("704", "420")
        body = body.replace("State-Based Actions", "State-Based Effects")
    return body


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Two good documents, one bad one (no rules), and a file that is not a document."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a-2009.txt").write_text(official("May 1, 2009", old=True), encoding="utf-8")
    (docs / "b-2024.txt").write_text(MINI, encoding="utf-8")
    (docs / "c-mauvais.txt").write_text("Un simple texte.\nSans aucune règle.\n", "utf-8")
    (docs / "notes.md").write_text("pas un document de règles", encoding="utf-8")
    return docs


def test_a_folder_ingests_the_good_names_the_bad(
    tmp_home: Path, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", str(folder)]) == 2
    out, err = capsys.readouterr()
    editions = sorted(p.name for p in store.editions_dir().iterdir() if p.name != ".lock")
    assert editions == ["en-2009-05-01", "en-2024-06-07"]
    assert "c-mauvais.txt" in err and "aucune règle trouvée" in err and "Traceback" not in err
    assert "Échec de l'import de 1 document(s) sur 3" in err
    assert "notes.md" not in out + err  # not a rules document: not even tried
    assert [line.split("] ")[0] for line in err.splitlines()[:3]] == ["[1/3", "[2/3", "[3/3"]
    table = out.splitlines()
    assert table[0].split() == ["Édition", "Date", "Numérotation", "Règles", "Avert.", "Fichier"]
    assert table[1].split()[:3] == ["en-2009-05-01", "2009-05-01", "avant"]
    assert table[2].split()[:3] == ["en-2024-06-07", "2024-06-07", "moderne"]
    assert table[3].startswith("ÉCHEC") and table[3].endswith("c-mauvais.txt")
    assert "2 édition(s) importée(s) sur 3 document(s)." in out


def test_a_failing_document_leaves_nothing_half_written(
    tmp_home: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 2024 document fails while being written: the store holds the 2009 one, whole,
    and no trace of the other."""
    real = store._write_edition

    def failing(target: Path, meta: Any, data: bytes) -> None:
        if meta.id == "en-2024-06-07":
            (target / "document.txt").write_bytes(data[: len(data) // 2])
            raise OSError("disque plein (simulé)")
        real(target, meta, data)

    alone = folder.parent / "alone"
    alone.mkdir()
    shutil.copy(folder / "a-2009.txt", alone)
    assert main(["ingest", str(alone)]) == 0
    expected = snapshot(tmp_home / "editions")
    store.remove("en-2009-05-01")
    monkeypatch.setattr(store, "_write_edition", failing)
    outcomes = ingest_many([folder])
    assert [(o.file.split("/")[-1], o.ok) for o in outcomes] == [
        ("a-2009.txt", True),
        ("b-2024.txt", False),
        ("c-mauvais.txt", False),
    ]
    assert outcomes[1].error is not None and "disque plein" in outcomes[1].error
    assert snapshot(tmp_home / "editions") == expected


def test_edition_is_refused_with_several_files(
    tmp_home: Path, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two = [str(folder / "a-2009.txt"), str(folder / "b-2024.txt")]
    assert main(["ingest", *two, "--edition", "en-test"]) == 2
    assert main(["ingest", str(folder), "--edition", "en-test"]) == 2
    err = capsys.readouterr().err
    assert err.count("Erreur : --edition ne vaut que pour un seul fichier") == 2
    assert snapshot(tmp_home) == {}


def test_json_is_a_list_with_several_files(
    tmp_home: Path, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", str(folder), "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, list) and len(data) == 3
    keys = ["file", "edition", "date", "numbering", "rules", "glossary", "folder"]
    assert list(data[0]) == [*keys, "replaced", "warnings", "error"]
    assert data[0]["edition"] == "en-2009-05-01" and data[0]["numbering"] == "pre2009"
    assert data[1]["date"] == "2024-06-07" and data[1]["error"] is None
    assert data[2]["edition"] is None and "aucune règle" in data[2]["error"]
    # Again with --replace: the good ones are replaced, the bad one still fails.
    assert main(["ingest", str(folder), "--json", "--replace"]) == 2
    again = json.loads(capsys.readouterr().out)
    assert [d["replaced"] for d in again] == [True, True, False]


def test_one_file_keeps_the_single_object(
    tmp_home: Path, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", str(folder / "b-2024.txt"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["edition", "rules", "glossary", "folder", "replaced"]


def test_two_documents_of_the_same_date_in_one_run(
    tmp_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("x.txt", "y.txt"):
        (tmp_path / name).write_text(MINI, encoding="utf-8")
    args = ["ingest", str(tmp_path / "x.txt"), str(tmp_path / "y.txt"), "--replace"]
    assert main(args) == 2
    assert "dans ce même lot" in capsys.readouterr().err
    rule = load_index().lookup("704.5a", "en-2024-06-07")
    assert rule.source is not None and rule.source.file == "x.txt"


def test_numbering_comes_from_the_rules_not_the_year(tmp_home: Path, tmp_path: Path) -> None:
    (tmp_path / "old-2009.txt").write_text(official("May 1, 2009", old=True), "utf-8")
    (tmp_path / "new-2008.txt").write_text(official("March 3, 2008", old=False), "utf-8")
    outcomes = {o.edition: o for o in ingest_many([tmp_path])}
    assert all(o.ok for o in outcomes.values()), [o.error for o in outcomes.values()]
    assert outcomes["en-2009-05-01"].numbering == "pre2009"
    assert outcomes["en-2008-03-03"].numbering == "modern"
    assert {e.id: e.numbering for e in load_index().editions}["en-2009-05-01"] == "pre2009"


def test_year_decides_when_the_rules_do_not(tmp_home: Path, tmp_path: Path) -> None:
    bare = official("March 3, 2008", old=False).replace("704", "600")
    (tmp_path / "bare.txt").write_text(bare, "utf-8")
    (outcome,) = ingest_many([tmp_path / "bare.txt"])
    assert outcome.ok, outcome.error
    assert (outcome.edition, outcome.numbering) == ("en-2008-03-03", "pre2009")


def test_every_ingested_edition_has_an_iso_date(
    tmp_home: Path, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    undated = folder / "b-2024.txt"
    text = undated.read_text("utf-8").replace("These rules are effective as of June 7, 2024.", "")
    undated.write_text(text, "utf-8")
    assert main(["ingest", str(undated), "--edition", "en-2020-01-02"]) == 0
    assert main(["ingest", str(undated), "--edition", "en-sans-date"]) == 0
    assert main(["ingest", str(folder / "a-2009.txt")]) == 0
    capsys.readouterr()
    assert main(["editions", "--json"]) == 0
    dates = {e["id"]: e["date"] for e in json.loads(capsys.readouterr().out) if not e["shipped"]}
    assert dates == {
        "en-2020-01-02": "2020-01-02",
        "en-sans-date": "",
        "en-2009-05-01": "2009-05-01",
    }


def test_the_english_editions_as_a_folder(
    tmp_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_corpus_en()
    docs = tmp_path / "en"
    docs.mkdir()
    for path in EN_FILES.values():
        shutil.copy(path, docs)
    assert main(["ingest", str(docs), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    got = [(d["edition"], d["date"], d["numbering"], d["error"]) for d in data]
    assert got == [
        ("en-2008-07-15", "2008-07-15", "pre2009", None),
        ("en-2011-09-30", "2011-09-30", "modern", None),
    ]
    assert all(d["rules"] > 1000 for d in data)
    assert main(["rule", "420.5e", "--edition", "en-2008-07-15"]) == 0
    assert "legendary permanents" in capsys.readouterr().out


def test_each_document_is_parsed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`judge ingest` caches the editions it parsed to check them, instead of parsing the
    stored copies again: what opening the store then reads is what a new parse gives."""
    require_corpus_en()
    archive = EN_FILES["en-2011-09-30"].parent / "archive"
    docs = [archive / n for n in ("en-2003-03-15.txt", "en-2006-07-15.pdf", "en-2013-07-11.docx")]
    docs.append(Path(__file__).resolve().parents[1] / "rules/data/regles-titres-paragraphes.html")
    home = tmp_path / "home"
    parsed_again: list[str] = []
    parse = index_module.parse_edition

    def counted(meta: EditionMeta, root: Path) -> Edition:
        parsed_again.append(meta.id)
        return parse(meta, root)

    monkeypatch.setattr(index_module, "parse_edition", counted)
    outcomes = ingest_many(docs, home=home)
    ids = [o.edition for o in outcomes if o.ok]
    assert len(ids) == len(docs), [o.error for o in outcomes]
    assert [eid for eid in parsed_again if eid in ids] == []
    cached, fresh = load_index(home=home), load_index(home=home, use_cache=False)
    assert sorted(eid for eid in parsed_again if eid in ids) == sorted(ids)  # `fresh` parsed
    for eid in ids:
        a, b = cached.edition(eid), fresh.edition(eid)
        assert isinstance(a.rules, LazyRules) and a.rules.facts() is not None  # from its cache
        assert dict(a.rules.items()) == dict(b.rules.items())
        assert (list(a.glossary), list(a.issues)) == (list(b.glossary), list(b.issues))
        assert replace(a, rules={}, glossary=(), issues=()) == replace(
            b, rules={}, glossary=(), issues=()
        )

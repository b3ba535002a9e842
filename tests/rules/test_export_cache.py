"""`judge export` keeps each edition as it writes it on disk (`export.edition_json`), named
by the edition's cache key and every direct pair's: the next export reads it back instead of
following 2,500 rules into every other edition. What is read back must be what is computed,
a change of the store must never read an old table, and a damaged one is computed again; a
change of the store computes again the tables of the editions exported last.
The same for the exact steps of each stored side of a pair, which a walk of a whole edition
reads from files of their own rather than from the pairs' database."""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

import orjson
import pytest

import judge
from judge import session
from judge.rules import cache as rules_cache
from judge.rules import export as export_module
from judge.rules import store
from judge.rules.concordance import Concordance, Link
from judge.rules.concordance.matching import _read_steps
from judge.rules.concordance.pairs import StoredSide
from tests.conftest import CORPUS_EN, archive_home

ARCHIVE = CORPUS_EN / "archive"
EDITION = "en-2009-10-01"


def tables(home: Path) -> list[Path]:
    return sorted((store.cache_dir(home) / "export").glob("*.json.z"))


def export(home: Path) -> list[dict[str, Any]]:
    with judge.open_judge(home) as j:
        return j.export([EDITION]).to_dict()


def computed(home: Path) -> list[dict[str, Any]]:
    """The export as the concordance computes it, the disk left out."""
    with judge.open_judge(home) as j:
        links = j.concordance.rows_of(EDITION)
        rows = j.export([EDITION]).to_dict()
    for row in rows:
        if row["kind"] != "glossary":
            number = row["rule"]
            row["counterparts"] = [Link(EDITION, number, *lk).to_dict() for lk in links[number]]
    return rows


class Computing:
    """Counts the walks of an edition (`Concordance.rows_of`), all in this process: the walk
    in two processes, which a machine with a core to spare does, is `test_export_split`'s."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = Concordance.rows_of

        def counted(conc: Concordance, edition: str, numbers: Any = None) -> Any:
            self.calls += 1
            return real(conc, edition, numbers)

        monkeypatch.setattr(Concordance, "rows_of", counted)
        monkeypatch.setattr(export_module, "core_to_spare", lambda: False)


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    return archive_home(tmp_path, "en-2008-10-01", EDITION)


def test_the_next_export_reads_back_what_the_first_computed(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert tables(home) == []
    walks = Computing(monkeypatch)
    first = export(home)
    assert walks.calls == 1 and len(tables(home)) == 1
    again = export(home)
    assert walks.calls == 1, "read back, not computed"
    assert again == first == computed(home)
    assert sum(len(r.get("counterparts", ())) for r in first) > 1000


def test_a_first_export_reads_the_edition_whole_not_rule_by_rule(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every rule and the glossary are written: one read of the edition's cache, not 2,500
    (and then the whole for the glossary all the same)."""
    single: list[str] = []
    real = rules_cache.EditionFile.rule

    def counted(part: rules_cache.EditionFile, number: str) -> Any:
        single.append(number)
        return real(part, number)

    monkeypatch.setattr(rules_cache.EditionFile, "rule", counted)
    Computing(monkeypatch)
    rows = export(home)
    assert len(rows) > 1000 and single == []


def test_a_new_edition_in_the_store_is_never_read_from_an_old_table(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "_EXPORTS_KEPT", 0)  # the ingest computes no table
    export(home)
    old = tables(home)
    # 2010 is linked to 2009 directly: the chains of 2009's rules change.
    outcome = judge.ingest_many([ARCHIVE / "en-2010-07-16.txt"], home=home)
    assert [o.error for o in outcome if not o.ok] == []
    walks = Computing(monkeypatch)
    after = export(home)
    assert walks.calls == 1
    assert after == computed(home)
    assert {lk["to"]["edition"] for r in after for lk in r.get("counterparts", ())} >= {
        "en-2010-07-16"
    }
    # One table per edition on disk: the old one went when the new one was written.
    assert len(tables(home)) == 1 and tables(home) != old


def _rewrite(path: Path, damage: str) -> None:
    header, _, packed = path.read_bytes().partition(b"\n")
    body = zlib.decompress(packed)
    if damage == "empty":
        path.write_bytes(b"")
    elif damage == "garbage":
        path.write_bytes(b"not zlib at all")
    elif damage == "truncated":
        path.write_bytes(header + b"\n" + packed[: len(packed) // 2])
    elif damage == "no-header":
        path.write_bytes(packed)
    elif damage == "other-edition":
        header = header.replace(EDITION.encode(), b"en-2008-10-01")
        path.write_bytes(header + b"\n" + packed)
    elif damage == "shorter":  # whole zlib, but not the length the header gives
        path.write_bytes(header + b"\n" + zlib.compress(body[:-10]))
    else:
        raise AssertionError(damage)


@pytest.mark.parametrize(
    "damage", ["empty", "garbage", "truncated", "no-header", "other-edition", "shorter"]
)
def test_a_damaged_table_is_computed_again(
    home: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    first = export(home)
    [path] = tables(home)
    _rewrite(path, damage)
    walks = Computing(monkeypatch)
    assert export(home) == first
    assert walks.calls == 1
    assert export(home) == first
    assert walks.calls == 1, "written again whole"


def test_a_change_of_the_store_computes_the_last_exported_again(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ingest computes again the tables of the editions exported last (at most
    `_EXPORTS_KEPT`, the last read or written first); the next export only reads. An
    edition never exported is not computed."""
    monkeypatch.setattr(session, "_EXPORTS_KEPT", 1)
    with judge.open_judge(home) as j:
        j.export(["en-2008-10-01"])
        j.export([EDITION])
    assert len(tables(home)) == 2
    old = {p.name for p in tables(home)}
    by_edition = {p.name.split("-", 1)[0]: p for p in tables(home)}
    os.utime(by_edition[export_module._prefix("en-2008-10-01")], (1.0, 1.0))  # used long ago
    walks = Computing(monkeypatch)
    outcome = judge.ingest_many([ARCHIVE / "en-2010-07-16.txt"], home=home)
    assert [o.error for o in outcome if not o.ok] == []
    assert walks.calls == 1, "the edition exported last, and it only"
    new = {p.name for p in tables(home)} - old
    assert [n.split("-", 1)[0] for n in new] == [export_module._prefix(EDITION)]
    after = export(home)
    assert walks.calls == 1, "read back"
    assert after == computed(home)


def test_the_export_document_joins_editions_as_json_does() -> None:
    rows = [[{"a": [1, {"b": "é"}], "c": []}, {}], [], [{"d": None}]]
    bodies = [orjson.dumps(r, option=orjson.OPT_INDENT_2)[2:-2] if r else b"" for r in rows]
    joined = [row for r in rows for row in r]
    expected = json.dumps(joined, indent=2, ensure_ascii=False)
    assert export_module.document([[body] for body in bodies]).decode() == expected
    # An edition's body comes in chunks (views of larger outputs among them), empty ones too.
    chunked = [[b"", memoryview(b"__" + body + b"__")[2:-2], b""] for body in bodies]
    assert export_module.document(chunked).decode() == expected
    assert export_module.document([[b""], [], [b"", b""]]) == b"[]" == json.dumps([]).encode()


def test_without_a_key_nothing_is_kept(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index whose editions were not read through the cache has no key to name a table."""
    monkeypatch.setattr(Concordance, "direct_pairs_key", lambda self: None)
    walks = Computing(monkeypatch)
    first = export(home)
    assert export(home) == first
    assert walks.calls == 2 and tables(home) == []


# -- the exact steps of each stored side, kept whole beside the pairs' database --


def steps_files(home: Path) -> list[Path]:
    return sorted((store.cache_dir(home) / "steps").glob("*.json.z"))


def forget_walks(home: Path) -> None:
    """Delete the walk files (`concordance.walk`), which a walk reads before any side's."""
    for path in (store.cache_dir(home) / "steps").glob("walk-*"):
        path.unlink()


class ReadingSides:
    """Counts the sides read whole from the pairs' database (`StoredSide.exact_steps`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = StoredSide.exact_steps

        def counted(side: StoredSide) -> Any:
            self.calls += 1
            return real(side)

        monkeypatch.setattr(StoredSide, "exact_steps", counted)


def test_the_steps_kept_are_those_of_the_database(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The ingest keeps them, from the pairs it matched: the first export reads no side from
    # the database.
    files = steps_files(home)
    assert len(files) > 10
    forget_walks(home)
    reads = ReadingSides(monkeypatch)
    first = export(home)
    assert reads.calls == 0 and steps_files(home) == files
    with judge.open_judge(home) as j:
        conc = j.concordance
        sides = {}  # file name -> the side (from, to) it keeps
        for ed in conc.index.editions:
            for other in conc.neighbours(ed.id):
                forward = conc._newer_first(ed.id, other)[0] == ed.id
                sides[f"{conc._key(ed.id, other)}-{0 if forward else 1}.json.z"] = (ed.id, other)
        assert {p.name for p in files} == set(sides)
        for path in files:
            a, b = sides[path.name]
            side = conc._pair_links(a, b)
            assert isinstance(side, StoredSide)
            assert _read_steps(path) == side.exact_steps(), path.name
    # Gone: the next walk reads the sides from the database, gives the same links, and
    # keeps the sides again.
    for path in [*files, *tables(home)]:
        path.unlink()
    forget_walks(home)
    reads = ReadingSides(monkeypatch)
    assert export(home) == first
    assert reads.calls == len(files) and steps_files(home) == files


def test_a_damaged_steps_file_is_read_from_the_database_again(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = export(home)
    damaged = steps_files(home)[0]
    # Columns as `_write_steps` writes them, but a confidence that is no number.
    columns = {"numbers": ["100.1"], "counts": [1], "to": ["100.1"]}
    columns |= {"confidence": ["1.0"], "method": [1], "present": [True]}
    damaged.write_bytes(zlib.compress(orjson.dumps(columns)))
    assert _read_steps(damaged) is None
    stale = damaged.with_name("0" * 64 + "-0.json.z")  # a pair no longer direct
    stale.write_bytes(damaged.read_bytes())
    for table in tables(home):
        table.unlink()
    forget_walks(home)
    reads = ReadingSides(monkeypatch)
    assert export(home) == first
    assert reads.calls == 1
    assert _read_steps(damaged) is not None, "written again"
    assert not stale.exists()


def test_a_table_that_cannot_be_touched_is_still_read(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Marking a table as used (its date) is a courtesy: a cache one may read but not write
    is read all the same."""
    first = export(home)

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError("read-only")

    monkeypatch.setattr(os, "utime", refused)
    walks = Computing(monkeypatch)
    assert export(home) == first
    assert walks.calls == 0


def test_a_table_that_cannot_be_made_again_does_not_fail_the_ingest(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export(home)
    real = export_module.edition_json

    def failing(*args: Any, **kwargs: Any) -> bytes:
        raise OSError("disk full")

    monkeypatch.setattr(export_module, "edition_json", failing)
    outcome = judge.ingest_many([ARCHIVE / "en-2010-07-16.txt"], home=home)
    assert [o.error for o in outcome if not o.ok] == []
    monkeypatch.setattr(export_module, "edition_json", real)
    walks = Computing(monkeypatch)
    after = export(home)
    assert walks.calls == 1, "the export made what the ingest could not"
    assert after == computed(home)

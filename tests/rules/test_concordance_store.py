"""The concordance's pairs on disk (judge/rules/concordance/pairs.py): read back by the next
process instead of matched again, the same whatever order the pairs are first asked in, and
a database that cannot be read is only a cache: deleted, built again."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import judge
from judge.rules import store
from judge.rules.concordance import matching
from judge.rules.concordance.pairs import FILE_NAME


def copy_home(en_home: Path, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    shutil.copytree(store.editions_dir(en_home), store.editions_dir(home))
    return home


def links_of(home: Path, edition: str, numbers: list[str]) -> list[list[dict[str, Any]]]:
    with judge.open_judge(home) as j:
        return [[lk.to_dict() for lk in j.rule(n, edition).counterparts] for n in numbers]


NUMBERS = ["102.4", "205.4b", "420.5e", "510.2"]


def test_the_next_process_reads_the_pairs_back(
    en_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = copy_home(en_home, tmp_path)
    first = links_of(home, "en-2008-07-15", NUMBERS)
    assert (store.cache_dir(home) / FILE_NAME).is_file()

    def refuse(*_args: Any) -> Any:
        raise AssertionError("a pair was matched again")

    monkeypatch.setattr(matching.Concordance, "_compute", refuse)
    assert links_of(home, "en-2008-07-15", NUMBERS) == first


def test_the_order_of_the_asking_changes_nothing(en_home: Path, tmp_path: Path) -> None:
    """Found in the golden files: `rule 102.4 --edition en-2008-07-15` had no counterpart in
    a new process, two once `export --edition en-2011-09-30` had run."""
    a = copy_home(en_home, tmp_path / "a")
    b = copy_home(en_home, tmp_path / "b")
    direct = links_of(a, "en-2008-07-15", NUMBERS)
    with judge.open_judge(b) as j:
        j.export(["en-2011-09-30"])
    assert links_of(b, "en-2008-07-15", NUMBERS) == direct
    assert direct[0], "102.4 (2008) is 104.4 in 2011"


@pytest.mark.parametrize(
    "damage", [b"", b"not a database" * 100, b"SQLite format 3\0" + b"x" * 200]
)
def test_a_damaged_database_is_built_again(en_home: Path, tmp_path: Path, damage: bytes) -> None:
    home = copy_home(en_home, tmp_path)
    expected = links_of(home, "en-2008-07-15", NUMBERS)
    db = store.cache_dir(home) / FILE_NAME
    for extra in (db.with_name(FILE_NAME + "-wal"), db.with_name(FILE_NAME + "-shm")):
        extra.unlink(missing_ok=True)
    db.write_bytes(damage)
    assert links_of(home, "en-2008-07-15", NUMBERS) == expected
    with sqlite3.connect(db) as con:  # a real database again, with the pairs in it
        assert con.execute("SELECT count(*) FROM pairs").fetchone()[0] > 0

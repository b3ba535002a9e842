"""The whole archive in one store: a rule's history from 2003 to 2025, read number by number
from the official texts themselves; what a store of many editions computes, and when.

The expected numbers and texts come from the .txt files with a reader of their own (a line
that starts with a rule number and calls itself the legend rule), not from the parser."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

import pytest

import judge
from judge.rules.concordance import matching
from tests.conftest import CORPUS_EN, require_corpus_en

ARCHIVE = CORPUS_EN / "archive"
_RULE_LINE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.? (.*)$")
_LEGEND = re.compile(r"called (the )?\W{0,2}(the )?legend rule", re.I)


def read_text(path: Path) -> str:
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252")


def legend_lines(path: Path) -> list[tuple[str, str]]:
    """(number, text) of each state-based rule (420 before 2009, 704 after) that names itself
    the legend rule (205.4 of the old editions only cites it)."""
    lines = read_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found = []
    for line in lines:
        m = _RULE_LINE.match(line.strip())
        if m and m.group(1)[:3] in ("420", "704") and _LEGEND.search(m.group(2)):
            found.append((m.group(1), m.group(2)))
    return found


@pytest.fixture(scope="module")
def archive_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 24 archive editions (.txt) in one store, as `judge ingest` leaves it."""
    require_corpus_en()
    home = tmp_path_factory.mktemp("archive-home")
    outcomes = judge.ingest_many(sorted(ARCHIVE.glob("*.txt")), home=home)
    assert [o.error for o in outcomes if not o.ok] == []
    assert len([o for o in outcomes if o.ok]) == len(list(ARCHIVE.glob("*.txt")))
    return home


def test_the_legend_rule_from_2003_to_2025(archive_home: Path) -> None:
    with judge.open_judge(archive_home) as j:
        hist = j.history("704.5j", "en-2025-11-14")
        dates = {e.id: e.date for e in j.editions() if e.language == "en"}
    by_date = {v.edition.date: v for v in hist.versions}
    texts = sorted(ARCHIVE.glob("*.txt"))
    assert len(texts) == 24
    assert len(hist.versions) == 24  # one per edition: the rule is in all of them
    for path in texts:
        lines = legend_lines(path)
        assert len(lines) == 1, (path.name, lines)
        number, text = lines[0]
        version = by_date[_nearest(dates.values(), path.stem[3:])]
        assert version.number == number, (path.name, version.number, number)
        assert _words(version.text) == _words(text), path.name
    changes = [(v.edition.date[:4], v.number, str(v.change)) for v in hist.versions]
    assert changes[0] == ("2003", "420.5e", "added")
    assert ("2009", "704.5k", "renumbered") in changes
    assert ("2017", "704.5j", "renumbered") in changes
    # 2013 (M14): the controller chooses one; before, all of them went to the graveyard.
    v2013 = next(v for v in hist.versions if v.edition.date.startswith("2013"))
    before = hist.versions[hist.versions.index(v2013) - 1]
    assert str(v2013.change) == "changed"
    assert "chooses one of them" in v2013.text and "chooses" not in before.text
    # Unchanged editions say so, and each version's diff gives back its text.
    for v in hist.versions[1:]:
        if v.diff:
            new_side = "".join(p.text for p in v.diff if p.op.value in ("equal", "insert"))
            assert _words(new_side) == _words(v.text) or str(v.change) == "renumbered"


def _nearest(stated: Iterable[str], file_date: str) -> str:
    """The archive README: an edition's own date can differ from its file name by days."""
    day = date.fromisoformat(file_date)
    return min(stated, key=lambda d: abs((date.fromisoformat(d) - day).days) if d else 10**6)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.replace("’", "'").lower())


def test_commands_that_read_compute_no_pair(archive_home: Path, monkeypatch: Any) -> None:
    """`judge ingest` left every direct pair in the cache: reading commands match nothing."""

    def refuse(*_args: Any) -> Any:
        raise AssertionError("a reading command computed a pair of editions")

    monkeypatch.setattr(matching.Concordance, "_compute", refuse)
    with judge.open_judge(archive_home) as j:
        assert j.rule("704.5a").counterparts
        assert len(j.history("704.5j").versions) == 24
        assert j.changes().new.id == "en-2025-11-14"
        assert j.compare("420.5e", "en-2003-03-15", "en-2025-11-14").new.number == "704.5j"


def test_ingesting_one_edition_links_it_to_its_neighbours_only(
    archive_home: Path, monkeypatch: Any, tmp_path: Path
) -> None:
    import shutil

    home = tmp_path / "home"
    shutil.copytree(archive_home, home)
    judge.remove("en-2019-07-12", home=home)
    computed: list[tuple[str, str]] = []
    real = matching.Concordance._compute

    def counting(self: matching.Concordance, a: Any, b: Any) -> Any:
        computed.append((a.id, b.id))
        return real(self, a, b)

    monkeypatch.setattr(matching.Concordance, "_compute", counting)
    judge.ingest(ARCHIVE / "en-2019-07-12.txt", home=home)
    pairs = {frozenset(p) for p in computed}
    assert all("en-2019-07-12" in p for p in pairs), pairs
    same_language = {p for p in pairs if all(e.startswith("en-") for e in p)}
    assert same_language == {
        frozenset(("en-2018-10-05", "en-2019-07-12")),
        frozenset(("en-2019-07-12", "en-2020-07-03")),
    }
    assert len(pairs - same_language) == 3  # with each shipped French edition

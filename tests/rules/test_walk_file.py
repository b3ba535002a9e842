"""The walk file (`concordance.walk`): the exact steps of every side of the store's direct
pairs in one file, which an ingest leaves and a walk of a whole edition (an export) reads
instead of a file per side. What it gives must be what the sides give, a damaged one is not
believed, and an ingest takes the sides that did not change from the last one."""

from __future__ import annotations

import marshal
import zlib
from pathlib import Path
from typing import Any

import pytest

import judge
from judge.rules import export as export_module
from judge.rules import store
from judge.rules.concordance import matching
from judge.rules.concordance.pairs import StoredSide
from judge.rules.concordance.walk import read_walk, write_walk
from tests.conftest import CORPUS_EN, archive_home

ARCHIVE = CORPUS_EN / "archive"
EDITION = "en-2009-10-01"


def walks(home: Path) -> list[Path]:
    return sorted((store.cache_dir(home) / "steps").glob("walk-*"))


def exported(home: Path) -> bytes:
    """The export of EDITION as computed now (its kept table forgotten), in this process."""
    for path in (store.cache_dir(home) / "export").glob("*"):
        path.unlink()
    with judge.open_judge(home) as j:
        return b"".join(export_module.edition_json(j.concordance, EDITION, None))


class Reads:
    """Counts the sides read from their own files and from the pairs' database."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.files = self.database = 0
        read_steps, exact_steps = matching._read_steps, StoredSide.exact_steps

        def from_file(path: Path) -> Any:
            self.files += 1
            return read_steps(path)

        def from_database(side: StoredSide) -> Any:
            self.database += 1
            return exact_steps(side)

        monkeypatch.setattr(matching, "_read_steps", from_file)
        monkeypatch.setattr(StoredSide, "exact_steps", from_database)


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    return archive_home(tmp_path, "en-2008-10-01", EDITION)


def test_an_ingest_leaves_the_walk_and_an_export_reads_only_it(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [walk] = walks(home)
    reads = Reads(monkeypatch)
    with_walk = exported(home)
    assert (reads.files, reads.database) == (0, 0)
    # The same bytes from the sides' own files.
    walk.unlink()
    from_sides = exported(home)
    assert reads.files > 10 and from_sides == with_walk
    assert walks(home) == [walk], "written again by the walk that had to read the sides"


def damaged(path: Path, damage: str) -> None:
    head, packed = path.read_bytes().split(b"\n", 1)
    steps, runs, sides = marshal.loads(zlib.decompress(packed))
    name = next(iter(sides))
    number = next(iter(sides[name]))

    def first_step_made(change: Any) -> None:
        """The walk with its first distinct step changed, wherever it is used."""
        nonlocal steps, runs, sides
        new = {id(s): s for s in steps} | {id(steps[0]): change(steps[0])}
        new_runs = {id(r): tuple(new[id(s)] for s in r) for r in runs}
        steps = tuple(new.values())
        runs = tuple(new_runs.values())
        sides = {n: {k: new_runs[id(r)] for k, r in side.items()} for n, side in sides.items()}

    if damage == "garbage":
        path.write_bytes(b"not a walk")
    elif damage == "truncated":
        path.write_bytes(head + b"\n" + packed[: len(packed) // 2])
    elif damage == "other-format":
        path.write_bytes(b"judge-walk-0\n" + packed)
    else:
        if damage == "confidence-not-a-number":
            first_step_made(lambda s: (s[0], str(s[1]), s[2], s[3]))
        elif damage == "unknown-method":
            first_step_made(lambda s: (s[0], s[1], "guessed", s[3]))
        elif damage == "run-of-unknown-steps":  # equal to known steps, but not them
            sides[name][number] = tuple((*s[:1], *s[1:]) for s in sides[name][number])
        elif damage == "run-of-unchecked-steps":  # a known run, made of steps never checked
            unchecked = ((number, 2.0, "same_number", True),)
            runs = (*runs, unchecked)
            sides[name][number] = unchecked
        elif damage == "confidence-out-of-range":
            first_step_made(lambda s: (s[0], 1.5, s[2], s[3]))
        elif damage == "number-not-a-string":
            sides[name][704] = sides[name][number]
        elif damage == "list-not-tuple":
            sides[name][number] = list(sides[name][number])
        elif damage == "none":  # remade as it was: believed
            first_step_made(lambda s: s)
        else:
            raise AssertionError(damage)
        data = marshal.dumps((steps, runs, sides))
        path.write_bytes(head + b"\n" + zlib.compress(data))


def test_a_walk_remade_as_it_was_is_believed(home: Path) -> None:
    """What the damages below change is all that refuses them."""
    [walk] = walks(home)
    kept = read_walk(walk)
    damaged(walk, "none")
    assert kept is not None and read_walk(walk) == kept


@pytest.mark.parametrize(
    "damage",
    [
        "garbage",
        "truncated",
        "other-format",
        "confidence-not-a-number",
        "unknown-method",
        "run-of-unknown-steps",
        "run-of-unchecked-steps",
        "confidence-out-of-range",
        "number-not-a-string",
        "list-not-tuple",
    ],
)
def test_a_damaged_walk_is_not_believed(home: Path, damage: str) -> None:
    [walk] = walks(home)
    good = exported(home)
    damaged(walk, damage)
    assert read_walk(walk) is None
    assert exported(home) == good
    assert read_walk(walk) is not None, "written again"


def test_an_ingest_takes_the_unchanged_sides_from_the_last_walk(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [before] = walks(home)
    kept = read_walk(before)
    assert kept
    reads = Reads(monkeypatch)
    [outcome] = judge.ingest_many([ARCHIVE / "en-2010-07-16.txt"], home=home)
    assert outcome.ok, outcome.error
    # The pairs just matched came from memory, the others from the last walk: no side was
    # read from its file or the database.
    assert (reads.files, reads.database) == (0, 0)
    [after] = walks(home)
    assert after != before and not before.exists()
    new = read_walk(after)
    assert new is not None
    assert {n: kept[n] for n in kept if n in new} == {n: new[n] for n in kept if n in new}
    assert len(set(new) - set(kept)) >= 2, "the new edition's sides"
    # Built from the sides' own files, it is the same.
    monkeypatch.undo()
    with_walk = exported(home)
    after.unlink()
    assert exported(home) == with_walk


def test_a_walk_keeps_each_distinct_step_once(tmp_path: Path) -> None:
    step = ("704.5a", 1.0, "same_number", True)
    other = ("704.5b", 0.9, "text", False)
    sides = {
        "a-0": {"704.5a": (step,), "704.5b": (other, step)},
        "b-1": {"704.5a": (tuple(step),), "704.5c": ()},
    }
    path = tmp_path / "walk-x.marshal.z"
    write_walk(path, sides)
    read = read_walk(path)
    assert read == sides
    assert read is not None
    assert read["a-0"]["704.5a"] is read["b-1"]["704.5a"]
    assert read["a-0"]["704.5b"][1] is read["a-0"]["704.5a"][0]
    # Written again with a new side beside those read back, taken as they are.
    sides2 = {**read, "c-0": {"704.5a": (tuple(step),), "704.5d": (other,)}}
    write_walk(path, sides2, read)
    again = read_walk(path)
    assert again == sides2
    assert again is not None and again["c-0"]["704.5a"] is again["a-0"]["704.5a"]


def test_the_copies_groups_are_the_same_from_the_steps(home: Path) -> None:
    """After `keep_steps` (an ingest), the copies' groups read each pair's exact links from
    the sides' steps rather than from the database: the same links, the same groups."""
    from judge.search.groups import ConcordanceGroups

    with judge.open_judge(home) as j:
        from_database = ConcordanceGroups(j.concordance)._build()
        rows = {
            (ed.id, other): sorted(j.concordance.exact_rows(ed.id, other))
            for ed in j.concordance.index.editions
            for other in j.concordance.neighbours(ed.id)
        }
    with judge.open_judge(home) as j:
        j.concordance.keep_steps()
        from_steps = ConcordanceGroups(j.concordance)._build()
        again = {key: sorted(j.concordance.exact_rows(*key)) for key in rows}
        assert again == rows and sum(map(len, rows.values())) > 1000
        assert all(j.concordance._step_memo.values()), "read from the steps"
    assert from_steps == from_database and len(from_steps) > 1000

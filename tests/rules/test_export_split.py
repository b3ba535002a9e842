"""The first export of an edition walks and writes one run of its rules in two in a forked
child (`export._rendered_in_two`): the bytes must be those of one process whatever the child
does, and the child must need nothing from the pairs' database (`Concordance.read_for_walk`),
which a forked process may not share with its parent."""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest

import judge
from judge import session
from judge.rules import export
from judge.rules.concordance import Concordance
from judge.rules.concordance.pairs import PairStore
from tests.conftest import CORPUS_EN, require_corpus_en

ARCHIVE = CORPUS_EN / "archive"
EDITION = "en-2009-10-01"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_corpus_en()
    home = tmp_path_factory.mktemp("split-home")
    outcomes = judge.ingest_many(
        [ARCHIVE / "en-2008-10-01.txt", ARCHIVE / f"{EDITION}.txt"], home=home
    )
    assert [o.error for o in outcomes if not o.ok] == []
    return home


def plain(rows: object) -> Any:
    """Rows as a child sends them (JSON: tuples as lists)."""
    return orjson.loads(orjson.dumps(rows))


@pytest.fixture(scope="module")
def one_walk(home: Path) -> Any:
    with judge.open_judge(home) as j:
        return plain(j.concordance.rows_of(EDITION))


@pytest.fixture(scope="module")
def one_process(home: Path) -> bytes:
    with judge.open_judge(home) as j:
        return b"".join(export.edition_json(j.concordance, EDITION, None))


def body(pieces: Sequence[Any]) -> bytes:
    """The export's bytes from the pieces `_rendered_in_two` gives."""
    return b"".join(chunk for piece in pieces for chunk in piece.raw)


def silent(work: Callable[[], None]) -> int:
    """A child that dies before sending anything."""
    pid = os.fork()
    if pid == 0:
        os._exit(1)
    return pid


@pytest.fixture()
def walks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many rules each `rows_of` of this process walks."""
    counts: list[int] = []
    real = Concordance.rows_of

    def counted(conc: Concordance, edition: str, numbers: Iterable[str] | None = None) -> Any:
        found = real(conc, edition, numbers)
        counts.append(len(found))
        return found

    monkeypatch.setattr(Concordance, "rows_of", counted)
    yield counts


@pytest.mark.parametrize(
    ("in_child", "walked_here"),
    # the fork itself (`session._in_child` without its checks of cores and threads)
    [(session._forked, "half"), (silent, "all"), (lambda work: None, "all")],
    ids=["child", "child-sends-nothing", "no-child"],
)
@pytest.mark.parametrize("pack", [False, True], ids=["raw", "packed"])
def test_two_processes_give_the_bytes_of_one(
    home: Path,
    one_process: bytes,
    walks: list[int],
    in_child: export.InChild,
    walked_here: str,
    pack: bool,
) -> None:
    with judge.open_judge(home) as j:
        pieces = export._rendered_in_two(j.concordance, EDITION, in_child, pack=pack)
        numbers = list(j.edition(EDITION).rules)
        total = len(numbers)
    assert body(pieces) == one_process
    runs = export._runs(numbers)
    # a piece per run of rules, then the glossary's
    assert len(pieces) == len(runs) + 1 == export._RUNS + 1
    # Each piece's stream, packed by whichever process wrote it, unpacks to that piece.
    streams = [p.packed for p in pieces]
    if pack:
        assert [zlib.decompress(s) for s in streams] == [b"".join(p.raw) for p in pieces]
        assert b"".join(export._unpacked(b"".join(streams)) or ()) == one_process
    else:
        assert streams == [b""] * len(pieces)
    if walked_here == "half":
        # one run in two here, the others in the child
        assert walks == [len(run) for run in runs[::2]], "the child walked the others"
        assert 0.4 < sum(walks) / total < 0.6
    else:
        assert sum(walks) == total and total > 100


def test_a_child_that_sends_part_of_its_bytes_is_not_believed(
    home: Path, one_process: bytes, walks: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = export._rendered

    def cut_short(conc: Concordance, edition: str, numbers: Any) -> bytes:
        body = real(conc, edition, numbers)
        return body[: len(body) // 2] if os.getpid() != parent else body

    parent = os.getpid()
    monkeypatch.setattr(export, "_rendered", cut_short)

    # The child's length prefix is that of its short body: it must fail some other way to
    # be refused, so it also exits with a failure.
    def failing(work: Callable[[], None]) -> int:
        def then_fail() -> None:
            work()
            raise RuntimeError("after sending")

        return session._forked(then_fail)  # type: ignore[return-value]

    with judge.open_judge(home) as j:
        pieces = export._rendered_in_two(j.concordance, EDITION, failing, pack=True)
        total = len(j.edition(EDITION).rules)
    assert body(pieces) == one_process
    assert b"".join(export._unpacked(b"".join(p.packed for p in pieces)) or ()) == one_process
    assert sum(walks) == total, "the child's half walked again here"


def test_after_read_for_walk_the_walk_opens_no_database(
    home: Path, one_walk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with judge.open_judge(home) as j:
        conc = j.concordance
        conc.read_for_walk(EDITION)
        asked: list[str] = []

        def refused(store: PairStore, sql: str, args: tuple[object, ...]) -> list[Any]:
            asked.append(sql)
            raise AssertionError("the pairs' database read after read_for_walk")

        monkeypatch.setattr(PairStore, "rows", refused)
        rows = conc.rows_of(EDITION)
    assert asked == []
    assert plain(rows) == one_walk

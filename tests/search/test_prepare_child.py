"""After an ingest, `prepare` builds the search index in a child process (a second core)
while it matches the pairs: the next search finds it built. A child that fails costs only
time: the ingesting process builds it itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge import session
from judge.rules.index import load_index
from judge.search import index as search_index
from judge.search.index import index_dir

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or len(os.sched_getaffinity(0)) < 2, reason="un seul cœur"
)


def _children(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    started: list[int | None] = []
    real = session._in_child

    def recorded(work: object) -> int | None:
        pid = real(work)  # type: ignore[arg-type]
        started.append(pid)
        return pid

    monkeypatch.setattr(session, "_in_child", recorded)
    return started


def test_the_search_index_is_built_by_a_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child that succeeded is believed: the ingesting process neither builds nor checks
    (it would import the whole search for it); the next search finds everything built."""
    started = _children(monkeypatch)
    parent = os.getpid()
    in_parent: list[int] = []
    real = session._prepare_search

    def watched(judge: session.Judge, home: Path | None) -> None:
        if os.getpid() == parent:
            in_parent.append(1)
        real(judge, home)

    monkeypatch.setattr(session, "_prepare_search", watched)
    session.prepare(tmp_path)
    [pid] = started
    assert pid is not None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped
    assert in_parent == []
    assert index_dir(load_index(home=tmp_path), tmp_path).is_file()

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("the search built a segment: the child had not")

    monkeypatch.setattr(search_index, "_build_segment", no_build)
    with session.open_judge(tmp_path) as judge:
        hit = judge.search("créature endurance 0 cimetière").result.hits[0]
    assert (hit.edition, hit.rule) == ("fr-2024", "704.5f")


def test_a_failing_child_leaves_the_build_to_the_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _children(monkeypatch)
    parent = os.getpid()
    real = session._prepare_search

    def failing_in_child(judge: session.Judge, home: Path | None) -> None:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        assert not index_dir(judge._index, home).is_file()
        real(judge, home)

    monkeypatch.setattr(session, "_prepare_search", failing_in_child)
    session.prepare(tmp_path)
    assert started and started[0] is not None
    assert index_dir(load_index(home=tmp_path), tmp_path).is_file()
    with session.open_judge(tmp_path) as judge:
        hit = judge.search("créature endurance 0 cimetière").result.hits[0]
    assert (hit.edition, hit.rule) == ("fr-2024", "704.5f")

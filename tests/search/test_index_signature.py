"""The search index on disk is opened only when this home's key signed it: whoosh unpickles
its table of contents, so a planted file must never be read; tables and views carry an HMAC."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from whoosh.fields import Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.index import TOC

from judge.rules.index import RuleIndex
from judge.search import index as search_index


class _Planted(Schema):  # type: ignore[misc]
    """A "schema" whose unpickling creates a file: what an attacker would plant."""

    def __init__(self, marker: Path) -> None:
        super().__init__()
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.marker), "w"))


def _plant(folder: Path, marker: Path) -> None:
    storage = FileStorage(str(folder))
    toc = TOC.read(storage, "MAIN")
    storage.delete_file(TOC._filename("MAIN", toc.generation))
    TOC(_Planted(marker), toc.segments, toc.generation).write(storage, "MAIN")


@pytest.fixture
def built(index: RuleIndex, tmp_path: Path) -> tuple[Path, Path]:
    """(home, the segment folder)."""
    home = tmp_path / "home"
    opened = search_index.ensure_index(index, home)
    opened.close()
    (segment,) = (home / "cache" / "search" / "segments").iterdir()
    return home, segment


def view_of(index: RuleIndex, home: Path) -> Path:
    return search_index.index_dir(index, home)


def test_a_planted_table_of_contents_is_never_unpickled(
    index: RuleIndex, built: tuple[Path, Path], tmp_path: Path
) -> None:
    home, folder = built
    marker = tmp_path / "pwned"
    _plant(folder, marker)
    opened = search_index.ensure_index(index, home)
    assert not marker.exists()
    assert opened.doc_count_all() == len(opened.documents) > 0  # rebuilt, usable
    assert len(opened.postings("body_fr", "cimetier")[0])
    opened.close()


def test_the_planted_file_would_run_without_the_signature(
    index: RuleIndex, built: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack above is real: with the check switched off, opening runs the payload."""
    home, folder = built
    marker = tmp_path / "pwned"
    _plant(folder, marker)
    monkeypatch.setattr(search_index, "_signed", lambda folder, home: True)
    with pytest.raises(search_index.SearchIndexError):
        search_index.open_index(view_of(index, home), home)
    assert marker.exists()


def test_unsigned_or_edited_indexes_are_rebuilt(index: RuleIndex, built: tuple[Path, Path]) -> None:
    home, folder = built
    view = view_of(index, home)
    with pytest.raises(search_index.SearchIndexError, match="non signé"):
        (folder / "signature").unlink()
        search_index.open_index(view, home)
    search_index.ensure_index(index, home).close()
    assert (folder / "signature").is_file(), "the segment was indexed again"
    search_index.open_index(view, home).close()
    # a view or a table changed by one byte is refused, and written again (a view is read
    # alone: a table is read when a view is made of it)
    for path in [view, *(home / "cache" / "search" / "editions").iterdir()]:
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 1
        path.write_bytes(bytes(data))
        with pytest.raises(search_index.SearchIndexError, match="non signé"):
            search_index._read_signed(path, home)
        if path != view:
            view.unlink()
        search_index.ensure_index(index, home).close()
        search_index._read_signed(path, home)


def test_the_key_is_owner_only_and_a_loose_one_is_replaced(
    index: RuleIndex, built: tuple[Path, Path]
) -> None:
    home, _ = built
    key = home / ".search-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert key.stat().st_uid == os.getuid()
    first = key.read_bytes()
    key.chmod(0o644)  # readable by others: no longer a secret
    with pytest.raises(search_index.SearchIndexError):
        search_index.open_index(view_of(index, home), home)
    assert key.read_bytes() != first
    assert stat.S_IMODE(key.stat().st_mode) == 0o600

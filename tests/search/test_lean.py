"""whoosh imported without urllib.request and asyncio (`judge.search.lean`), in a fresh
interpreter each time: a search loads neither, the stand-ins leave `sys.modules` once
whoosh is imported, and what they stand for still works."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from judge.search.query import Searcher
from tests.conftest import _SESSION_HOME, ROOT

UNUSED = ("asyncio", "urllib.request", "http.client", "ssl", "cached_property")


def python(code: str) -> str:
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_a_search_loads_neither_asyncio_nor_urllib_request(
    searcher: Searcher, search_home: Path
) -> None:
    corpus_home = _SESSION_HOME / "empty"  # the `index` fixture's: the shipped corpus
    out = python(
        "import sys\n"
        "from pathlib import Path\n"
        "from judge.rules.index import load_index\n"
        "from judge.search.query import Searcher\n"
        f"index = load_index(home=Path({str(corpus_home)!r}))\n"
        f"with Searcher(index, home=Path({str(search_home)!r})) as s:\n"
        "    hits = s.search('cimetière').hits\n"
        f"print(len(hits) > 0, 'whoosh.reading' in sys.modules,"
        f" [m for m in {UNUSED!r} if m in sys.modules])\n"
    )
    assert out == "True True []"


def test_the_stand_ins_leave_and_what_they_stand_for_works(tmp_path: Path) -> None:
    source, copy = tmp_path / "source.txt", tmp_path / "copy.txt"
    source.write_text("704.5a", encoding="utf-8")
    out = python(
        "import functools, sys\n"
        "from judge.search import lean\n"
        "reading, compat = lean.imported('whoosh.reading'), lean.imported('whoosh.compat')\n"
        f"gone = [m for m in {UNUSED!r} if m in sys.modules]\n"
        "cached = reading.SegmentReader.__dict__['deleted_docs_set']\n"
        f"compat.urlretrieve({source.as_uri()!r}, {str(copy)!r})\n"
        "import urllib.request\n"
        "print(gone, type(cached) is functools.cached_property, hasattr(urllib.request,"
        " 'Request'))\n"
    )
    assert out == "[] True True"
    assert copy.read_text(encoding="utf-8") == "704.5a"


def test_a_module_imported_before_is_not_replaced() -> None:
    out = python(
        "import cached_property, urllib.request\n"
        "from judge.search import lean\n"
        "reading, compat = lean.imported('whoosh.reading'), lean.imported('whoosh.compat')\n"
        "print(reading.cached_property is cached_property.cached_property,"
        " compat.urlretrieve is urllib.request.urlretrieve)\n"
    )
    assert out == "True True"

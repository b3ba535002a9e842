"""The on-disk search index: content key, reuse, rebuild, atomic publication, killed builds
(the segments, tables and views themselves: test_segments.py)."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from judge.rules.index import RuleIndex, load_index
from judge.search import analysis
from judge.search import index as search_index
from judge.search.index import (
    build,
    content_key,
    has_heading_paragraph,
    index_dir,
    is_complete,
    iter_documents,
)
from judge.search.query import Searcher

ROOT = Path(__file__).resolve().parents[2]


class Calls:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))


def changed(index: RuleIndex, word: str) -> RuleIndex:
    """The same corpus with one word added to 704.5g (fr-2024)."""
    ed = index.edition("fr-2024")
    rule = ed.rules["704.5g"]
    para = dataclasses.replace(rule.paragraphs[0], text=f"{rule.paragraphs[0].text} {word}.")
    rules = dict(ed.rules)
    rules["704.5g"] = dataclasses.replace(rule, paragraphs=(para, *rule.paragraphs[1:]))
    return RuleIndex([dataclasses.replace(ed, rules=rules), *index.editions[1:]])


# --- documents ---------------------------------------------------------------------------


def test_one_document_per_paragraph_example_and_title(index: RuleIndex) -> None:
    docs = list(iter_documents(index))
    kinds = {d.kind for d in docs}
    assert {"text", "example", "title"} <= kinds
    paragraphs = sum(len(r.paragraphs) for ed in index.editions for r in ed.rules.values())
    # a first paragraph that is only a name (408.1 « Chronologie, priorité et la pile ») is
    # its rule's title: indexed as a heading, not as a paragraph
    headings = [d for d in docs if d.kind == "title" and d.para == 0 and d.rule == "408.1"]
    assert [d.body for d in headings] == ["Chronologie, priorité et la pile"]
    named = sum(1 for ed in index.editions for r in ed.rules.values() if has_heading_paragraph(r))
    assert named >= 1
    assert sum(1 for d in docs if d.kind in ("text", "example")) == paragraphs - named
    titles = [d for d in docs if d.kind == "title"]
    assert any(d.edition == "fr-2011" and d.rule == "116" for d in titles)
    english = [d for d in docs if d.language == "en"]
    assert {d.rule for d in english} >= {"704.5j", "704.5s", "704.5v"}
    for d in docs:
        if d.edition == "fr-2024" and d.rule == "704.5g":
            assert d.titles == "Actions basées sur un état"


def test_glossary_entries_are_documents(en_index: RuleIndex) -> None:
    docs = [d for d in iter_documents(en_index) if d.kind == "glossary"]
    assert any(d.rule.lower() == "deathtouch" and d.language == "en" for d in docs)


# --- the content key ---------------------------------------------------------------------


def test_content_key_follows_the_text(index: RuleIndex) -> None:
    key = content_key(index)
    assert key == content_key(RuleIndex(index.editions))  # same content, same key
    assert content_key(changed(index, "zorglub")) != key


def test_content_key_is_the_documented_hash(index: RuleIndex) -> None:
    """The folder name of an index on disk: its formula never changes by accident. Editions
    read through the cache hash their cache keys (no rule is read to open the search index);
    others hash their content."""
    keys = index.keys
    assert len(keys) == len(index.editions)
    h = hashlib.sha256(search_index.code_salt())
    for ed in index.editions:
        h.update(f"\0K{ed.id}\0{keys[ed.id]}".encode())
    assert content_key(index) == h.hexdigest()[:24]
    parsed = load_index(use_cache=False)
    assert parsed.keys == {}
    h = hashlib.sha256(search_index.code_salt())
    for ed in parsed.editions:
        h.update(f"\0E{ed.id}\0{ed.language}\0".encode())
        for rule in ed.rules.values():
            h.update(f"\0R{rule.number}\0{rule.title or ''}\0{rule.parent or ''}\0".encode())
            for p in rule.paragraphs:
                h.update(f"\0P{p.kind}{p.language}{p.text}".encode())
        for g in ed.glossary:
            h.update(f"\0G{g.term}\0{g.text}".encode())
    assert content_key(parsed) == h.hexdigest()[:24]
    salt = f"judge-search {search_index.INDEX_VERSION} {analysis.ANALYSIS_VERSION}\0".encode()
    assert search_index.code_salt().startswith(salt)


def test_the_index_keeps_its_own_key(index: RuleIndex) -> None:
    """Computed once per RuleIndex and salt, under a lock: no cache beside the index."""
    fresh = RuleIndex(index.editions)
    with ThreadPoolExecutor(max_workers=8) as pool:
        keys = set(pool.map(lambda _: fresh.content_key(b"salt"), range(32)))
    assert keys == {fresh.content_key(b"salt")}
    assert fresh.content_key(b"other") not in keys
    assert fresh.content_key() == index.content_key()
    assert not hasattr(search_index, "_KEYS")


# --- reuse and rebuild -------------------------------------------------------------------


def segments_of(home: Path) -> dict[str, bytes]:
    """Every published segment file, by path: what a build must not touch."""
    root = home / "cache" / "search" / "segments"
    return {
        str(f.relative_to(root)): f.read_bytes()
        for seg in root.iterdir()
        if not seg.name.startswith(".")
        for f in seg.iterdir()
    }


def test_built_once_then_reused(index: RuleIndex, tmp_path: Path) -> None:
    first = Calls()
    with Searcher(index, home=tmp_path, progress=first) as s:
        assert s.search("704.5g").hits
        path = s.path
    assert first.calls and first.calls[-1][0] == first.calls[-1][1]  # reported to the end
    assert path.parent == tmp_path / "cache" / "search" / "views"
    before = path.read_bytes(), segments_of(tmp_path)
    again = Calls()
    with Searcher(RuleIndex(index.editions), home=tmp_path, progress=again) as s:
        assert s.path == path
        assert s.search("cimetière").hits
    assert again.calls == [], "an unchanged corpus must not be re-indexed"
    assert (path.read_bytes(), segments_of(tmp_path)) == before


def test_rebuilt_when_the_corpus_changes(index: RuleIndex, tmp_path: Path) -> None:
    with Searcher(index, home=tmp_path) as old:
        assert all("zorglub" not in h.snippet.lower() for h in old.search("zorglub").hits)
        old_path = old.path
    calls = Calls()
    with Searcher(changed(index, "zorglub"), home=tmp_path, progress=calls) as new:
        assert calls.calls, "a changed corpus is re-indexed"
        assert new.path != old_path
        hit = new.search("zorglub").hits[0]
        assert (hit.edition, hit.rule) == ("fr-2024", "704.5g")
        assert new.search("zorglub").corrected is None
    assert is_complete(old_path), "the other corpus' view is kept (most recently used)"


def test_a_damaged_index_is_rebuilt(index: RuleIndex, tmp_path: Path) -> None:
    path = build(index, home=tmp_path)
    for f in (tmp_path / "cache" / "search" / "segments").glob("*/*"):
        if f.suffix in (".toc", ".seg"):
            f.write_bytes(b"garbage")
    calls = Calls()
    with Searcher(index, home=tmp_path, progress=calls) as s:
        assert calls.calls
        assert s.search("704.5g").hits
    assert is_complete(path)


def test_an_incomplete_segment_is_never_opened(index: RuleIndex, tmp_path: Path) -> None:
    build(index, home=tmp_path)
    (segment,) = (tmp_path / "cache" / "search" / "segments").iterdir()
    (segment / "documents.bin").unlink()
    assert not is_complete(segment)
    calls = Calls()
    with Searcher(index, home=tmp_path, progress=calls) as s:
        assert calls.calls
        assert s.search("cimetière").hits
    assert is_complete(segment)


def test_sweep_removes_dead_builds_and_old_indexes(index: RuleIndex, tmp_path: Path) -> None:
    root = tmp_path / "cache" / "search"
    for sub in ("views", "segments", "editions"):
        (root / sub).mkdir(parents=True)
    dead = root / "segments" / f".build-{content_key(index)}-999999999-1"
    dead.mkdir()
    (dead / "junk").write_text("x")
    olds = []
    for n in range(search_index.KEEP_INDEXES + 2):
        old = root / "views" / f"{n:024x}.bin"
        old.write_bytes(b"x")
        os.utime(old, (n, n))
        olds.append(old)
    unused = root / "segments" / f"{0:024x}"
    unused.mkdir()
    os.utime(unused, (1, 1))  # older than any build in progress, used by no table
    path = build(index, home=tmp_path)
    assert not dead.exists()
    assert not unused.exists()
    remaining = sorted((root / "views").iterdir())
    assert path in remaining
    assert len(remaining) == search_index.KEEP_INDEXES
    assert olds[-1] in remaining and olds[0] not in remaining  # the most recent are kept
    assert len(list((root / "segments").iterdir())) == 1  # the one the tables use


def test_cold_open_is_fast(index: RuleIndex, tmp_path: Path) -> None:
    build(index, home=tmp_path)
    fresh = RuleIndex(index.editions)  # nothing cached on this object
    start = time.perf_counter()
    with Searcher(fresh, home=tmp_path) as s:
        elapsed = time.perf_counter() - start
        assert s.search("704.5g").hits
    assert elapsed < 0.5, f"ouverture à froid : {elapsed:.3f} s"


# --- atomicity: a build killed half-way ----------------------------------------------------

_CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from judge.rules.index import load_index
    from judge.search.index import build

    home, rules_home, rebuild = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "1"
    index = load_index(home=rules_home)

    def progress(done, total):
        if done >= total // 2:
            print("HALF", flush=True)
            time.sleep(120)  # killed here, half-way through the build

    build(index, home=home, progress=progress, rebuild=rebuild)
    print("DONE", flush=True)
    """
)


def _start_child(home: Path, rules_home: Path, rebuild: bool) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(home), str(rules_home), "1" if rebuild else "0"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if line != "HALF":
        _kill(proc)
        pytest.fail(f"the child build did not reach half-way ({line!r})")
    return proc


def _kill(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait(timeout=30)
    if proc.stdout:
        proc.stdout.close()


def _half_built(root: Path) -> list[Path]:
    return [p for p in root.glob("*/.build-*")]


def _published(root: Path) -> dict[str, bytes]:
    return {
        str(f.relative_to(root)): f.read_bytes() if f.is_file() else b""
        for f in root.rglob("*")
        if not any(part.startswith(".") for part in f.relative_to(root).parts)
    }


def test_a_killed_first_build_is_invisible_and_cleaned(index: RuleIndex, tmp_path: Path) -> None:
    home = tmp_path / "home"
    proc = _start_child(home, tmp_path / "rules", rebuild=False)
    try:
        root = home / "cache" / "search"
        partial = _half_built(root)
        assert partial and any(partial[0].iterdir()), "the child was writing its segment"
        assert not index_dir(index, home).exists(), "nothing published half-way"
        assert not list((root / "segments").glob("[!.]*"))
        # A reader meanwhile never opens the half-built folder: it builds its own.
        calls = Calls()
        with Searcher(index, home=home, progress=calls) as s:
            assert calls.calls
            assert s.search("contact mortel").hits[0].rule == "704.5h"
    finally:
        _kill(proc)
    # the dead child's folder is swept by the next build
    build(index, home=home, rebuild=True)
    assert _half_built(home / "cache" / "search") == []


def test_a_killed_rebuild_leaves_the_old_index_usable(index: RuleIndex, tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = build(index, home=home)
    root = home / "cache" / "search"
    before = _published(root)
    proc = _start_child(home, tmp_path / "rules", rebuild=True)
    _kill(proc)
    assert _half_built(root), "the rebuild was killed mid-way"
    assert _published(root) == before, "published data untouched"
    calls = Calls()
    with Searcher(index, home=home, progress=calls) as s:
        assert calls.calls == [], "the old index is used as it is"
        assert s.path == path
        assert s.search("704.5g").hits[0].rule == "704.5g"
        assert s.search("blessures mortelles").hits[0].rule == "704.5g"


def test_a_completed_rebuild_replaces_the_index(index: RuleIndex, tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = build(index, home=home)
    stamp = path.stat().st_mtime_ns
    calls = Calls()
    assert build(index, home=home, rebuild=True, progress=calls) == path
    assert calls.calls, "every edition indexed again"
    assert path.stat().st_mtime_ns != stamp
    assert not [p for p in (home / "cache" / "search").rglob(".*")]


@pytest.mark.parametrize("concurrent", [2])
def test_concurrent_builds_publish_one_index(
    index: RuleIndex, tmp_path: Path, concurrent: int
) -> None:
    code = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from judge.rules.index import load_index
        from judge.search.query import Searcher
        with Searcher(load_index(home=Path(sys.argv[2])), home=Path(sys.argv[1])) as s:
            print(s.search("704.5g").hits[0].rule)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path / "home"), str(tmp_path / "rules")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for _ in range(concurrent)
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert out.strip() == "704.5g"
    root = tmp_path / "home" / "cache" / "search"
    assert [p for p in (root / "views").iterdir()] == [index_dir(index, tmp_path / "home")]
    assert len([p for p in (root / "segments").iterdir() if not p.name.startswith(".")]) == 1

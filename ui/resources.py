"""What the app loads once per process: the rule index and the search index. Pages only call
the functions here.

Each resource is an `st.cache_resource` keyed on the store's *generation*: a cheap stamp of
$JUDGE_HOME and of the editions stored in it (folder names and the times their `edition.json`
were written). Cached objects are never mutated: when an edition is ingested the generation
changes and a new index is built beside the old one. Until that build is finished, sessions
keep reading the last index that was ready (`_ready`), so a reader never waits for, nor sees,
a half-built index.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from judge.rules import store
from judge.rules.index import CORPUS_DIR, RuleIndex, load_index
from judge.search.index import ensure_index
from judge.search.query import Searcher


@dataclass(frozen=True)
class Generation:
    home: str
    stamp: tuple[tuple[str, int], ...]

    @property
    def key(self) -> str:
        return repr((self.home, self.stamp))


def current_generation() -> Generation:
    home = store.home_dir()
    stamp: list[tuple[str, int]] = []
    manifest = CORPUS_DIR / "editions.toml"
    if manifest.is_file():
        stamp.append(("corpus", manifest.stat().st_mtime_ns))
    root = store.editions_dir()
    if root.is_dir():
        for folder in sorted(root.iterdir()):
            meta = folder / "edition.json"
            if folder.name.startswith(".") or not meta.is_file():
                continue
            stamp.append((folder.name, meta.stat().st_mtime_ns))
    return Generation(str(home.resolve()), tuple(stamp))


# home -> generation key of the last index fully built; generation keys being built now.
_lock = threading.Lock()
_ready: dict[str, str] = {}
_building: set[str] = set()


@st.cache_resource(show_spinner=False, max_entries=8)
def _rules(generation_key: str) -> RuleIndex:
    # load_index reads $JUDGE_HOME itself; the key only tells the cache which store it saw.
    return load_index()


def _resolve(generation: Generation) -> str:
    """The generation to read: the current one, unless it is being built by someone else."""
    with _lock:
        ready = _ready.get(generation.home)
        if ready is not None and ready != generation.key and generation.key in _building:
            return ready
        return generation.key


@st.cache_resource(show_spinner=False, max_entries=8)
def _searcher(generation_key: str) -> Searcher:
    # Opened on the very RuleIndex object the pages read for this generation. The search
    # index on disk is keyed by the content of that index (under $JUDGE_HOME/cache) and
    # built there first when missing.
    return Searcher(_rules(generation_key))


def _key() -> str:
    gen = current_generation()
    key = _resolve(gen)
    _rules(key)
    with _lock:
        if key == gen.key:
            _ready[gen.home] = key
    return key


def rule_index() -> RuleIndex:
    return _rules(_key())


def searcher() -> Searcher:
    """The search index of the same generation as `rule_index()` (its `.index`)."""
    return _searcher(_key())


def rebuild(step: Callable[[float, str], object] | None = None) -> RuleIndex:
    """Build the index of the store as it is now, then make it the one every session reads.

    `step(fraction, message)` is called between stages (for a progress bar)."""

    def report(fraction: float, message: str) -> None:
        if step is not None:
            step(fraction, message)

    gen = current_generation()
    with _lock:
        _building.add(gen.key)
    try:
        report(0.05, "Analyse des éditions…")
        index = _rules(gen.key)
        report(0.4, "Index des règles prêt ; index de recherche…")

        def searched(done: int, total: int) -> None:
            report(0.4 + 0.6 * done / max(total, 1), f"Index de recherche : {done}/{total}")

        # Built on disk outside the cached function (which must not touch any element),
        # then opened by it in a few milliseconds.
        ensure_index(index, progress=searched)
        _searcher(gen.key)
        report(1.0, "Index de recherche prêt.")
    finally:
        with _lock:
            _building.discard(gen.key)
    with _lock:
        _ready[gen.home] = gen.key
    return index


def shipped_ids() -> frozenset[str]:
    return frozenset(ed.id for ed in rule_index().editions if ed.shipped)


def home() -> Path:
    return store.home_dir()

"""What the app loads once per process: the rule index (and, when the library has them, the
search index). Pages only call the functions here.

Each resource is an `st.cache_resource` keyed on the store's *generation*: a cheap stamp of
$JUDGE_HOME and of the editions stored in it (folder names and the times their `edition.json`
were written). Cached objects are never mutated: when an edition is ingested the generation
changes and a new index is built beside the old one. Until that build is finished, sessions
keep reading the last index that was ready (`_ready`), so a reader never waits for, nor sees,
a half-built index.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from judge.rules import store
from judge.rules.index import CORPUS_DIR, RuleIndex, load_index


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


def rule_index() -> RuleIndex:
    gen = current_generation()
    key = _resolve(gen)
    index = _rules(key)
    with _lock:
        if key == gen.key:
            _ready[gen.home] = key
    return index


def rebuild(step: object = None) -> RuleIndex:
    """Build the index of the store as it is now, then make it the one every session reads.

    `step(fraction, message)` is called between stages (for a progress bar)."""

    def report(fraction: float, message: str) -> None:
        if callable(step):
            step(fraction, message)

    gen = current_generation()
    with _lock:
        _building.add(gen.key)
    try:
        report(0.1, "Analyse des éditions…")
        index = _rules(gen.key)
        report(0.6, "Index des règles prêt.")
        _build_search(gen.key, index)
        report(1.0, "Index de recherche prêt.")
    finally:
        with _lock:
            _building.discard(gen.key)
    with _lock:
        _ready[gen.home] = gen.key
    return index


def _build_search(generation_key: str, index: RuleIndex) -> None:
    """Placeholder until the search library lands (filled in below when it does)."""


def shipped_ids() -> frozenset[str]:
    return frozenset(ed.id for ed in rule_index().editions if ed.shipped)


def home() -> Path:
    return store.home_dir()

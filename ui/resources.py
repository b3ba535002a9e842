"""What the app loads once per process: one `Judge` per store generation. Pages get it here,
and only here (`judge()`).

A Judge is an `st.cache_resource` keyed on the store's *generation* (`judge.generation()`: a
cheap stamp of $JUDGE_HOME and of the editions stored in it). A cached Judge is never mutated:
when an edition is ingested or removed the generation changes and a new Judge is opened beside
the old one, which is closed when the cache lets it go. Until the new one is ready (its rule
index and its search index, `rebuild`), sessions keep reading the last Judge that was ready, so
a reader never waits for, nor sees, a half-built one. That bookkeeping lives in one `Registry`,
itself a cached resource: this module holds no mutable state of its own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from judge import Generation, Judge, generation, open_judge

MAX_GENERATIONS = 8
log = logging.getLogger("judge.ui")


@dataclass
class Registry:
    """For each store (home): the generation whose Judge was last fully built, and the
    generations being built now. Shared by every session; every access holds `lock`."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    ready: dict[str, str] = field(default_factory=dict)
    building: set[str] = field(default_factory=set)

    def choose(self, gen: Generation) -> str:
        """The generation to read: the current one, unless someone else is building it and
        an older one is ready."""
        with self.lock:
            ready = self.ready.get(gen.home)
            if ready is not None and ready != gen.key and gen.key in self.building:
                return ready
            return gen.key

    def start(self, gen: Generation) -> None:
        with self.lock:
            self.building.add(gen.key)

    def finish(self, gen: Generation, *, built: bool) -> None:
        with self.lock:
            self.building.discard(gen.key)
            if built:
                self.ready[gen.home] = gen.key

    def mark_ready(self, gen: Generation) -> None:
        with self.lock:
            if gen.key not in self.building:
                self.ready[gen.home] = gen.key


@st.cache_resource(show_spinner=False)
def _registry() -> Registry:
    return Registry()


def _release(judge: Judge) -> None:
    """A Judge evicted from the cache (an old generation): close its search index."""
    judge.close()


@st.cache_resource(show_spinner=False, max_entries=MAX_GENERATIONS, on_release=_release)
def _judge(generation_key: str, home: str) -> Judge:
    # The key tells the cache which generation of the store under `home` it saw.
    return open_judge(Path(home))


def _current() -> tuple[str, str, Judge]:
    """(generation key, home, Judge) of the Judge sessions read now."""
    gen = generation()
    registry = _registry()
    key = registry.choose(gen)
    found = _judge(key, gen.home)
    if key == gen.key:
        registry.mark_ready(gen)
    return key, gen.home, found


def judge() -> Judge:
    """The Judge of the store as it is now, or the last one ready while that is being built."""
    return _current()[2]


@st.cache_resource(show_spinner=False, max_entries=MAX_GENERATIONS)
def _edition_rulesets(generation_key: str, home: str, _judge: Judge) -> dict[str, str]:
    # Keyed like _judge: one answer per generation (the Judge itself is not hashed). The
    # board engine is imported here, by the sandbox, not by every page.
    from judge import RULESETS, BoardError

    out = {}
    for ed in _judge.editions():
        if ed.id in RULESETS:
            continue
        try:
            ruleset = _judge.ruleset(ed.id)
        except BoardError:  # neither 704 nor 420 in this edition
            continue
        out[ed.id] = ruleset.loop_rule.split(".")[0]
    return out


def _prepare_view(judge: Judge, number: str, edition: str) -> None:
    try:
        judge.view(judge.lookup(number, edition))
    except Exception:  # only a head start: the page that needs it reports its own error
        log.debug("préparation de %s (%s) abandonnée", number, edition, exc_info=True)


@st.cache_resource(show_spinner=False, max_entries=MAX_GENERATIONS)
def _prepared(generation_key: str, home: str, _judge: Judge, _rule: tuple[str, str]) -> bool:
    # Once per generation (the rule is not part of the key): the concordance a rule's page
    # reads is built on its first view, for every pair of editions at once.
    threading.Thread(
        target=_prepare_view, args=(_judge, *_rule), name="judge-prepare", daemon=True
    ).start()
    return True


def prepare_rule_page(number: str, edition: str) -> None:
    """Build, in the background, what the first rule page of this generation reads besides
    the rule's text (the concordance: counterparts, history), while the person reads the
    results that link to it. Call once the page is drawn: the thread competes with it."""
    key, home, found = _current()
    _prepared(key, home, found, (number, edition))


def edition_rulesets() -> dict[str, str]:
    """The editions of the store, newest first, whose state-based actions the sandbox can
    run (`Judge.ruleset`), besides the shipped rulesets (`RULESETS`): each with the section
    of its state-based actions (« 704 », or « 420 » before 2009)."""
    key, home, found = _current()
    return _edition_rulesets(key, home, found)


def warm() -> None:
    """What the first page of a process reads, made ready before it asks: the store's Judge
    and its search index (built if need be), and one search (the analyzers, the tables a
    search reads). `judge app` calls it in a thread of its own once the server is up, while
    the browser loads the page; the first session then finds them in the cache (a session
    that asks meanwhile waits for the same computation, not for a second one). A failure is
    left for the page that meets it to report."""
    try:
        judge().search("cimetière")
    except Exception:
        log.debug("préparation du premier affichage abandonnée", exc_info=True)


def rebuild(step: Callable[[float, str], object] | None = None) -> Judge:
    """Open the Judge of the store as it is now and build its search index, then make it the
    one every session reads. `step(fraction, message)` is called between stages (for a
    progress bar)."""

    def report(fraction: float, message: str) -> None:
        if step is not None:
            step(fraction, message)

    gen = generation()
    registry = _registry()
    registry.start(gen)
    built = False
    try:
        report(0.05, "Analyse des éditions…")
        found = _judge(gen.key, gen.home)
        report(0.4, "Index des règles prêt ; index de recherche…")

        def searched(done: int, total: int) -> None:
            report(0.4 + 0.6 * done / max(total, 1), f"Index de recherche : {done}/{total}")

        # Outside the cached function (which must not touch any element): the progress bar.
        found.searcher(progress=searched)
        report(1.0, "Index de recherche prêt.")
        built = True
    finally:
        registry.finish(gen, built=built)
    return found

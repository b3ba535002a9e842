"""The direct links of each computed pair of editions, kept in SQLite under the cache folder.

A pair is computed once (by `judge ingest`, or by the first command that needs it) and then
read link by link: a command that follows one rule through 29 editions asks each pair for one
number, an indexed lookup, instead of loading every link of every pair. A pair's key hashes
both editions' cache keys and the curated tables, so a new document or new code gives new
keys and never reads stale links. The database is a cache: one that cannot be opened or read
is deleted and built again, and if even that fails the links are computed in memory."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from judge.rules.concordance.links import METHODS, Link, Method, Step

FILE_NAME = "concordance.sqlite"
_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS pairs (
    key TEXT PRIMARY KEY, a TEXT NOT NULL, b TEXT NOT NULL, translation INTEGER
);
CREATE TABLE IF NOT EXISTS links (
    key TEXT NOT NULL, dir INTEGER NOT NULL, from_rule TEXT NOT NULL, ord INTEGER NOT NULL,
    to_rule TEXT NOT NULL, method TEXT NOT NULL, confidence REAL NOT NULL,
    approximate INTEGER NOT NULL, present INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS links_by_rule ON links (key, dir, from_rule, ord);
"""
_ERRORS = (sqlite3.Error, OSError)
_BULK = 48  # numbers asked one by one before a side is read whole


def pair_key(key_a: str, key_b: str, curated: str) -> str:
    return hashlib.sha256(f"{_VERSION}\0{key_a}\0{key_b}\0{curated}".encode()).hexdigest()


class PairStore:
    """The pairs database at `path` (None: nothing is kept). Thread-safe."""

    def __init__(self, path: Path | None) -> None:
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if path is not None:
            self._db = _open(path) or (_remove(path) and _open(path)) or None

    def stored(self, key: str) -> tuple[bool, bool | None]:
        """Whether the pair is stored, and its translation flag (None: not checked)."""
        row = self._one("SELECT translation FROM pairs WHERE key = ?", (key,))
        if row is None:
            return False, None
        return True, None if row[0] is None else bool(row[0])

    def side(self, key: str, a: str, b: str, backward: bool) -> StoredSide:
        return StoredSide(self, key, (b, a) if backward else (a, b), int(backward))

    def save(
        self,
        key: str,
        a: str,
        b: str,
        translation: bool | None,
        sides: Sequence[Mapping[str, list[Link]]],
    ) -> None:
        """Keep a computed pair (forward then backward links), all or nothing."""
        rows = [
            (key, d, num, i, lk.to_rule, lk.method, lk.confidence, lk.approximate, lk.present)
            for d, side in enumerate(sides)
            for num, links in side.items()
            for i, lk in enumerate(links)
        ]
        flag = None if translation is None else int(translation)
        with self._lock:
            if self._db is None:
                return
            with contextlib.suppress(*_ERRORS), self._db:
                self._db.execute("DELETE FROM links WHERE key = ?", (key,))
                self._db.executemany("INSERT INTO links VALUES (?,?,?,?,?,?,?,?,?)", rows)
                self._db.execute("INSERT OR REPLACE INTO pairs VALUES (?,?,?,?)", (key, a, b, flag))

    def keep_only(self, keys: set[str]) -> None:
        """Forget every pair whose key is not in `keys` (editions removed or replaced)."""
        with self._lock:
            if self._db is None:
                return
            with contextlib.suppress(*_ERRORS), self._db:
                stale = [
                    (k,) for (k,) in self._db.execute("SELECT key FROM pairs") if k not in keys
                ]
                self._db.executemany("DELETE FROM links WHERE key = ?", stale)
                self._db.executemany("DELETE FROM pairs WHERE key = ?", stale)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def rows(self, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        with self._lock:
            if self._db is None:
                return []
            try:
                return list(self._db.execute(sql, args))
            except _ERRORS:
                return []

    def _one(self, sql: str, args: tuple[object, ...]) -> tuple[object, ...] | None:
        found = self.rows(sql, args)
        return found[0] if found else None


class StoredSide(Mapping[str, list[Link]]):
    """The links of one direction of a stored pair, read number by number."""

    def __init__(self, store: PairStore, key: str, editions: tuple[str, str], d: int) -> None:
        self._store = store
        self._key = key
        self._from, self._to = editions
        self._dir = d
        self._memo: dict[str, list[Link]] = {}
        self._asked = 0
        self._complete = False

    def _load_all(self) -> None:
        """Every link of this side in one query, for callers that walk a whole edition."""
        rows = self._store.rows(
            "SELECT from_rule, to_rule, method, confidence, approximate, present FROM links "
            "WHERE key = ? AND dir = ? ORDER BY from_rule, ord",
            (self._key, self._dir),
        )
        memo: dict[str, list[Link]] = {}
        a, b, methods = self._from, self._to, _METHOD
        # `_link` inlined: an export reads some 120,000 links this way.
        for number, to_rule, method, confidence, approximate, present in rows:
            m = methods.get(method)  # type: ignore[call-overload]
            if m is None or type(confidence) is not float or type(to_rule) is not str:
                continue  # not a row this code wrote
            num = str(number)
            link = Link(
                a, num, b, to_rule, m, confidence, num != to_rule, (), bool(approximate),
                bool(present),
            )  # fmt: skip
            known = memo.get(num)
            if known is None:
                memo[num] = [link]
            else:
                known.append(link)
        self._memo, self._complete = memo, True

    def exact_steps(self) -> dict[str, tuple[Step, ...]]:
        """The exact (not approximate) links of this side as `Step`s, by number, in one
        query: what a chain walks, without a `Link` per row."""
        rows = self._store.rows(
            "SELECT from_rule, to_rule, method, confidence, present FROM links "
            "WHERE key = ? AND dir = ? AND approximate = 0 ORDER BY from_rule, ord",
            (self._key, self._dir),
        )
        grouped: dict[str, list[Step]] = {}
        methods = _METHOD
        for number, to_rule, method, confidence, present in rows:
            m = methods.get(method)  # type: ignore[call-overload]
            if m is None or type(confidence) is not float or type(to_rule) is not str:
                continue  # not a row this code wrote
            step = (to_rule, confidence, m, bool(present))
            num = str(number)
            known = grouped.get(num)
            if known is None:
                grouped[num] = [step]
            else:
                known.append(step)
        return {n: tuple(steps) for n, steps in grouped.items()}

    def approximate_links(self) -> dict[str, list[Link]]:
        """The approximate links of this side, by number, in one query (a few: the curated
        tables that name only a section)."""
        rows = self._store.rows(
            "SELECT from_rule, to_rule, method, confidence, approximate, present FROM links "
            "WHERE key = ? AND dir = ? AND approximate = 1 ORDER BY from_rule, ord",
            (self._key, self._dir),
        )
        out: dict[str, list[Link]] = {}
        for number, *row in rows:
            link = self._link(str(number), tuple(row))
            if link is not None:
                out.setdefault(link.from_rule, []).append(link)
        return out

    def exact_rows(self) -> list[tuple[str, str, float]]:
        """(from rule, to rule, confidence) of every exact link of this side, in no order,
        in one query."""
        rows = self._store.rows(
            "SELECT from_rule, to_rule, method, confidence FROM links "
            "WHERE key = ? AND dir = ? AND approximate = 0",
            (self._key, self._dir),
        )
        methods = _METHOD
        return [
            (str(number), to_rule, confidence)
            for number, to_rule, method, confidence in rows
            if method in methods and type(confidence) is float and type(to_rule) is str
        ]

    def __getitem__(self, number: str) -> list[Link]:
        known = self._memo.get(number)
        if known is None and self._complete:
            raise KeyError(number)
        if known is None and self._asked > _BULK:
            self._load_all()
            return self[number]
        if known is None:
            self._asked += 1
            rows = self._store.rows(
                "SELECT to_rule, method, confidence, approximate, present FROM links "
                "WHERE key = ? AND dir = ? AND from_rule = ? ORDER BY ord",
                (self._key, self._dir, number),
            )
            found = (self._link(number, row) for row in rows)
            known = self._memo[number] = [lk for lk in found if lk is not None]
        if not known:
            raise KeyError(number)
        return known

    def get(self, number: str, default: Any = None) -> Any:
        """Mapping.get without its try/except: the hot path of a chain walk."""
        if self._complete:
            return self._memo.get(number) or default
        try:
            return self[number]
        except KeyError:
            return default

    def __iter__(self) -> Iterator[str]:
        # Whoever iterates reads every number's links next (`values`, `items`): one query.
        if not self._complete:
            self._load_all()
        return iter(list(self._memo))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def _link(self, number: str, row: tuple[object, ...]) -> Link | None:
        to_rule, method, confidence, approximate, present = row
        m = _METHOD.get(method)  # type: ignore[call-overload]
        if m is None or type(confidence) is not float or type(to_rule) is not str:
            return None  # not a row this code wrote
        return Link(
            self._from,
            number,
            self._to,
            to_rule,
            m,
            confidence,
            number != to_rule,
            (),
            bool(approximate),
            bool(present),
        )


_METHOD: dict[str, Method] = {m: m for m in METHODS}


def _open(path: Path) -> sqlite3.Connection | None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=30.0, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(_SCHEMA)
        db.execute("SELECT count(*) FROM pairs").fetchone()
        return db
    except _ERRORS:
        return None


def _remove(path: Path) -> bool:
    """Delete a database that cannot be read (it is a cache); True when it is gone."""
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError, OSError):
            p.unlink()
    return not path.exists()

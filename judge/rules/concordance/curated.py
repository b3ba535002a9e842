"""The curated data of `corpus/renumbering.toml`: renumbering tables (with their sources),
known changes of wording (a one-line French summary each, both ways) and term lists."""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from judge.rules.errors import DocumentError
from judge.rules.index import CORPUS_DIR
from judge.rules.model import Edition
from judge.rules.numbers import canonical

CURATED_FILE = CORPUS_DIR / "renumbering.toml"
_T = TypeVar("_T")


@dataclass(frozen=True)
class Selector:
    numbering: str
    year: int | None = None

    def fits(self, edition: Edition) -> bool:
        return edition.numbering == self.numbering and (
            self.year is None or edition.order == self.year
        )


@dataclass(frozen=True)
class CuratedLink:
    from_rule: str
    to_rule: str
    confidence: float
    note: str


@dataclass(frozen=True)
class CuratedTable:
    id: str
    source: str
    from_: Selector
    to: Selector
    links: tuple[CuratedLink, ...]


@dataclass(frozen=True)
class KnownChange:
    id: str
    old: tuple[re.Pattern[str], ...]
    new: tuple[re.Pattern[str], ...]
    gone: tuple[re.Pattern[str], ...]
    summary: str
    source: str
    reverse: str = ""  # the summary read backwards, from the newer text to the older one

    def applies(self, old_text: str, new_text: str) -> bool:
        return (
            all(p.search(old_text) for p in self.old)
            and all(p.search(new_text) for p in self.new)
            and not any(p.search(new_text) for p in self.gone)
        )


@dataclass(frozen=True)
class CuratedData:
    """The tables, read with the file; the known changes and term lists, whose 160 patterns
    take 40 ms to compile, when first asked for (matching texts, a diff): a command that
    only follows links (`judge rule`, an export) never compiles them."""

    tables: tuple[CuratedTable, ...]
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)
    file: str = ""
    digest: str = ""  # SHA-256 of the file: part of every stored pair's key

    @cached_property
    def changes(self) -> tuple[KnownChange, ...]:
        return self._compiled(lambda: tuple(_change(c) for c in self.raw.get("change", [])))

    @cached_property
    def terminology(self) -> dict[str, tuple[tuple[re.Pattern[str], str], ...]]:
        def compiled() -> dict[str, tuple[tuple[re.Pattern[str], str], ...]]:
            found: dict[str, list[tuple[re.Pattern[str], str]]] = {}
            for t in self.raw.get("terminology", []):
                found.setdefault(t["language"], []).extend(
                    (re.compile(old), new)
                    for old, new in t["pairs"]  # texts are lower-cased
                )
            return {k: tuple(v) for k, v in found.items()}

        return self._compiled(compiled)

    @cached_property
    def terms(self) -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
        return self._compiled(
            lambda: tuple(
                (re.compile(fr), re.compile(en))
                for group in self.raw.get("term", [])
                for fr, en in group["pairs"]
            )
        )

    def _compiled(self, make: Callable[[], _T]) -> _T:
        try:
            return make()
        except (KeyError, TypeError, ValueError, re.error) as exc:
            raise DocumentError(f"{self.file} : entrée invalide ({exc})", self.file) from exc


def load_curated(path: Path | None = None) -> CuratedData:
    """The curated tables, known changes and term lists of `path` (by default the shipped
    `corpus/renumbering.toml`). The file is read each time; it is parsed once per content."""
    path = path or CURATED_FILE
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise DocumentError(f"Table de concordance introuvable : {path}", str(path)) from exc
    return _parse(str(path), raw)


@lru_cache(maxsize=8)
def _parse(path: str, raw: bytes) -> CuratedData:
    """The content `raw` of `path`, parsed (the cache is keyed by the content itself)."""
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DocumentError(f"Table de concordance illisible : {path} ({exc})", path) from exc
    try:
        return replace(_curated(data, path), digest=hashlib.sha256(raw).hexdigest())
    except (KeyError, TypeError, ValueError, re.error) as exc:
        raise DocumentError(f"{path} : entrée invalide ({exc})", path) from exc


def _curated(data: dict[str, Any], path: str) -> CuratedData:
    return CuratedData(tuple(_table(t) for t in data.get("table", [])), data, path)


def _change(c: dict[str, Any]) -> KnownChange:
    return KnownChange(
        id=c["id"],
        old=tuple(re.compile(p, re.I) for p in c.get("old", [])),
        new=tuple(re.compile(p, re.I) for p in c.get("new", [])),
        gone=tuple(re.compile(p, re.I) for p in c.get("gone", [])),
        summary=c["summary"],
        source=c.get("source", ""),
        reverse=c["reverse"],
    )


def _table(t: dict[str, Any]) -> CuratedTable:
    def selector(d: dict[str, Any]) -> Selector:
        year = d.get("year")
        return Selector(str(d["numbering"]), int(year) if year is not None else None)

    links = []
    for entry in t["links"]:
        a, b = canonical(entry["from"]), canonical(entry["to"])
        if a is None or b is None:
            raise ValueError(f"numéro invalide dans {t['id']} : {entry}")
        links.append(CuratedLink(a, b, float(entry.get("confidence", 1.0)), entry.get("note", "")))
    return CuratedTable(t["id"], t["source"], selector(t["from"]), selector(t["to"]), tuple(links))

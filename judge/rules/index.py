"""RuleIndex: every edition (shipped and ingested), lookups, backlinks and the
quality report. Loaded from the corpus manifest and the user's store; the parsed
result is cached on disk, keyed by a hash of the documents and of this code."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.rules import cache as rules_cache
from judge.rules import store
from judge.rules.decode import read_document
from judge.rules.edition import EditionMeta, build_edition, meta_edition
from judge.rules.errors import DocumentError, JudgeError
from judge.rules.layouts import parse_text
from judge.rules.model import (
    LAYOUTS,
    Body,
    Edition,
    GlossaryEntry,
    Layout,
    LazyRules,
    Rule,
    SourceFile,
    lazy_edition,
    text_sections,
)
from judge.rules.numbers import (
    kind_of,
    loose_key,
    parse_query_number,
    sort_key,
    uses_skipped_letter,
)


def _corpus_dir() -> Path:
    """The shipped corpus: ./corpus in a checkout (editable install included), else the
    `judge.corpus` package data of the wheel (pyproject maps it to corpus/), found with
    importlib.resources: a real folder in any normal install (venv, --user, system)."""
    checkout = Path(__file__).resolve().parents[2] / "corpus"
    if (checkout / "editions.toml").is_file():
        return checkout
    from importlib.resources import files

    installed = files("judge") / "corpus"
    if not isinstance(installed, Path) or not (installed / "editions.toml").is_file():
        raise JudgeError(
            f"corpus livré introuvable : ni {checkout} ni {installed} ne contient "
            "editions.toml (judge doit être installé dans un dossier, pas dans une archive)"
        )
    return installed


CORPUS_DIR = _corpus_dir()


class EditionNotFound(JudgeError):
    pass


class RuleNotFound(JudgeError):
    def __init__(self, message: str, nearest: list[str]) -> None:
        super().__init__(message)
        self.nearest = nearest


@dataclass(frozen=True)
class Citer:
    rule: str
    edition: str


@dataclass
class QualityReport:
    edition: str
    label: str
    rules_parsed: int
    title_only: int
    sections: int
    inferred: list[str]
    duplicates_fixed: list[str]
    gaps: list[str]
    english_paragraphs: list[str]  # rules with a paragraph not in the edition's language
    other_language: str  # the language those paragraphs are in
    references: dict[str, int]
    empty_rules: list[str]
    not_rules: list[str]
    glossary_entries: int
    sources: list[dict[str, str]] = field(default_factory=list)


class RuleIndex:
    """All editions, newest first. Read-only once built; safe to share between threads."""

    def __init__(
        self,
        editions: Iterable[Edition],
        warnings: Iterable[str] = (),
    ) -> None:
        self.warnings: list[str] = list(warnings)
        self.editions: list[Edition] = sorted(
            editions, key=lambda e: (e.order, e.date, e.id), reverse=True
        )
        self._by_id = {e.id: e for e in self.editions}
        self._lock = threading.Lock()
        self._content_keys: dict[bytes, str] = {}
        self._numbers: dict[str | None, list[str]] = {}
        self._cited_by: dict[str, dict[str, list[Citer]]] = {}

    @property
    def keys(self) -> dict[str, str]:
        """Each edition's cache key (index.edition_key), for the editions read through the
        cache: a hash of its documents and of the code."""
        return {
            ed.id: ed.rules.key
            for ed in self.editions
            if isinstance(ed.rules, LazyRules) and ed.rules.key
        }

    def content_key(self, salt: bytes = b"") -> str:
        """SHA-256 (hex) of `salt`, then of what the editions say. When every edition comes
        from the cache, of their cache keys (which hash their documents and the code: no rule
        is read); else of each edition's id and language, each rule's number, title, parent
        and paragraphs, each glossary entry. Equal for equal editions, whatever the RuleIndex
        object; computed once per salt (a reader hashes its own version and code in: the
        search index's folder is named by it)."""
        with self._lock:
            key = self._content_keys.get(salt)
            keys = self.keys
            if key is None and len(keys) == len(self.editions):
                h = hashlib.sha256(salt)
                for ed in self.editions:
                    h.update(f"\0K{ed.id}\0{keys[ed.id]}".encode())
                key = self._content_keys[salt] = h.hexdigest()
            if key is None:
                h = hashlib.sha256(salt)
                for ed in self.editions:
                    h.update(f"\0E{ed.id}\0{ed.language}\0".encode())
                    for rule in ed.rules.values():
                        h.update(
                            f"\0R{rule.number}\0{rule.title or ''}\0{rule.parent or ''}\0".encode()
                        )
                        for p in rule.paragraphs:
                            h.update(f"\0P{p.kind}{p.language}{p.text}".encode())
                    for g in ed.glossary:
                        h.update(f"\0G{g.term}\0{g.text}".encode())
                key = self._content_keys[salt] = h.hexdigest()
            return key

    def edition(self, edition_id: str) -> Edition:
        ed = self._by_id.get(edition_id)
        if ed is None:
            known = ", ".join(self._by_id)
            raise EditionNotFound(f"Édition inconnue : « {edition_id} » (connues : {known})")
        return ed

    def get(self, number: str, edition: str | None = None) -> Rule | None:
        """The rule in `edition`, or in the newest edition that has it with text."""
        num = parse_query_number(number)
        if num is None:
            return None
        if edition is not None:
            return self.edition(edition).rules.get(num)
        first: Rule | None = None
        for ed in self.editions:  # newest first; an edition is read only when reached
            rule = ed.rules.get(num)
            if rule is not None and not rule.title_only:
                return rule
            first = first or rule
        return first

    def lookup(self, number: str, edition: str | None = None) -> Rule:
        """Like `get`, but raises RuleNotFound with the nearest numbers."""
        rule = self.get(number, edition)
        if rule is not None:
            return rule
        where = f" dans l'édition {edition}" if edition else ""
        nearest = self.nearest(number, edition)
        hint = f" Numéros proches : {', '.join(nearest)}." if nearest else ""
        if uses_skipped_letter(number):
            hint = " Les lettres l et o ne sont jamais utilisées dans les numéros." + hint
        raise RuleNotFound(f"Règle {number.strip()} introuvable{where}.{hint}", nearest)

    def everywhere(self, number: str) -> list[Rule]:
        num = parse_query_number(number)
        return [ed.rules[num] for ed in self.editions if num and num in ed.rules]

    def nearest(self, number: str, edition: str | None = None, k: int = 5) -> list[str]:
        candidates = self._sorted_numbers(edition)
        num = parse_query_number(number)
        key: tuple[int, int, int, float] | None = sort_key(num) if num else loose_key(number)
        if key is None:
            digits = "".join(c for c in number if c.isdigit())[:3]
            return [n for n in candidates if n.startswith(digits)][:k] if digits else []
        before = [n for n in candidates if sort_key(n) < key]
        after = [n for n in candidates if sort_key(n) > key]
        # The closest on each side first: 704.5k and 704.5m for 704.5l.
        pool: list[str] = []
        for pair in zip(reversed(before[-k:]), after[:k], strict=False):
            pool += pair
        pool += [n for n in reversed(before[-k:]) if n not in pool]
        pool += [n for n in after[:k] if n not in pool]
        section = str(key[0])
        same_section = [n for n in pool if n.split(".")[0] == section]
        return sorted((same_section or pool)[:k], key=sort_key)

    def _sorted_numbers(self, edition: str | None) -> list[str]:
        # Computed once per edition: the index is read-only.
        if edition not in self._numbers:
            eds = [self.edition(edition)] if edition else self.editions
            self._numbers[edition] = sorted({n for ed in eds for n in ed.rules}, key=sort_key)
        return self._numbers[edition]

    def cited_by(self, rule: Rule) -> list[Citer]:
        return list(self._citers(rule.edition).get(rule.number, []))

    def _citers(self, edition: str) -> dict[str, list[Citer]]:
        # Per edition, when first asked: opening the index reads no rules.
        known = self._cited_by.get(edition)
        rules = self.edition(edition).rules
        stored = rules.citers() if known is None and isinstance(rules, LazyRules) else None
        if stored is not None:
            known = {k: [Citer(n, edition) for n in v] for k, v in stored.items()}
            self._cited_by[edition] = known
        if known is None:
            known = {}
            for rule in self.edition(edition).rules.values():
                for ref in rule.references:
                    citers = known.setdefault(ref.target, [])
                    if not citers or citers[-1].rule != rule.number:
                        citers.append(Citer(rule.number, edition))
            self._cited_by[edition] = known
        return known

    def breadcrumb(self, rule: Rule) -> list[Rule]:
        """From the chapter (when known) down to the rule itself."""
        ed = self.edition(rule.edition)
        chain = [rule]
        cur = rule.parent
        while cur is not None:
            chain.append(ed.rules[cur])
            cur = ed.rules[cur].parent
        return list(reversed(chain))

    def glossary(self, edition: str | None = None) -> list[GlossaryEntry]:
        eds = [self.edition(edition)] if edition else self.editions
        return [g for ed in eds for g in ed.glossary]

    def quality(self, edition_id: str) -> QualityReport:
        ed = self.edition(edition_id)
        refs = {"resolved": 0, "title_only": 0, "missing": 0}
        for rule in ed.rules.values():
            for ref in rule.references:
                refs[ref.status] += 1
        by_kind: dict[str, list[str]] = {}
        for issue in ed.issues:
            by_kind.setdefault(issue.kind, []).append(issue.number or issue.message)
        return QualityReport(
            edition=ed.id,
            label=ed.label,
            rules_parsed=ed.rule_count,
            title_only=sum(1 for r in ed.rules.values() if r.title_only),
            sections=sum(1 for r in ed.rules.values() if r.kind == "section" and not r.title_only),
            inferred=[r.number for r in ed.rules.values() if r.inferred],
            duplicates_fixed=by_kind.get("duplicate_fixed", []),
            gaps=by_kind.get("gap", []),
            english_paragraphs=[
                r.number
                for r in ed.rules.values()
                if any(p.language != ed.language for p in r.paragraphs)
            ],
            other_language="fr" if ed.language == "en" else "en",
            references=refs,
            empty_rules=by_kind.get("empty_rule", []),
            not_rules=[i.message for i in ed.issues if i.kind == "not_rules"],
            glossary_entries=len(ed.glossary),
            sources=[
                {"file": s.file, "original": s.original, "layout": s.layout} for s in ed.sources
            ],
        )


# --- loading ---------------------------------------------------------------


def manifest_metas(corpus_dir: Path) -> list[EditionMeta]:
    path = corpus_dir / "editions.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DocumentError(f"Manifeste introuvable : {path}", file=str(path)) from exc
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"line (\d+)", str(exc))
        line = int(where.group(1)) if where else None
        at = f", ligne {line}" if line else ""
        raise DocumentError(
            f"Manifeste illisible (TOML invalide) : {path}{at}", file=str(path), line=line
        ) from exc
    metas = []
    for n, entry in enumerate(data.get("edition", []), start=1):
        try:
            sources = tuple(
                SourceFile(s["file"], s.get("original", s["file"]), _layout(s["layout"], path))
                for s in entry["sources"]
            )
            metas.append(
                EditionMeta(
                    id=entry["id"],
                    label=entry["label"],
                    language=entry["language"],
                    date=str(entry.get("date", "")),
                    era=entry.get("era", ""),
                    numbering=entry["numbering"],
                    order=int(entry["order"]),
                    sources=sources,
                )
            )
        except KeyError as exc:
            raise DocumentError(
                f"{path} : l'édition n°{n} n'a pas le champ obligatoire {exc}", file=str(path)
            ) from exc
    return metas


def _layout(value: str, path: Path) -> Layout:
    if value not in LAYOUTS:
        raise DocumentError(f"{path} : disposition inconnue « {value} »", file=str(path))
    return value  # type: ignore[return-value]


def parse_edition(meta: EditionMeta, root: Path) -> Edition:
    docs = []
    for src in meta.sources:
        text = read_document(root / src.file)
        # Ingested documents are named by their original file name in sources.
        label = src.file if meta.shipped else src.original
        docs.append(parse_text(text, label, src.layout))
    return build_edition(meta, docs)


def code_fingerprint() -> str:
    """What the parsed form depends on besides the documents: this package's code."""
    h = hashlib.sha256(f"{rules_cache.FORMAT}-{rules_cache.VERSION}".encode())
    code = Path(__file__).resolve().parent
    for py in sorted(code.rglob("*.py")):
        h.update(py.read_bytes())
    return h.hexdigest()


def edition_key(
    code: str, meta: EditionMeta, root: Path, seen: dict[str, list[Any]] | None = None
) -> str:
    """The key of one edition's parsed form: the code, its description, its documents.
    `seen` (path → [size, mtime_ns, SHA-256]) spares re-reading a document that has not
    changed since it was last hashed, as git's index does: 29 editions are 13 MB to hash."""
    h = hashlib.sha256(code.encode())
    h.update(repr(meta).encode())
    for src in meta.sources:
        path = root / src.file
        st = path.stat()
        known = seen.get(str(path)) if seen is not None else None
        if known is not None and known[:2] == [st.st_size, st.st_mtime_ns]:
            digest = str(known[2])
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if seen is not None:
                seen[str(path)] = [st.st_size, st.st_mtime_ns, digest]
        h.update(digest.encode())
    return h.hexdigest()


def _read_seen(folder: Path) -> dict[str, list[Any]]:
    try:
        data = json.loads((folder / _SEEN).read_bytes())
    except (OSError, ValueError):
        return {}
    if type(data) is not dict:
        return {}
    return {
        k: v
        for k, v in data.items()
        if type(v) is list
        and len(v) == 3
        and all(type(x) is t for x, t in zip(v, _SEEN_TYPES, strict=True))
    }


_SEEN = "documents.json"
_SEEN_TYPES = (int, int, str)


def _parse_one(meta: EditionMeta, root: Path, warnings: list[str]) -> Edition | None:
    """Parse one edition. An ingested one that no longer parses is left out with a warning
    (it must not block the others); a shipped one that fails is a real error."""
    try:
        return parse_edition(meta, root)
    except JudgeError as exc:
        if meta.shipped:
            raise
        warnings.append(f"Édition importée ignorée : {meta.id} : {exc.message}")
        return None


def _parse_all(entries: list[tuple[EditionMeta, Path]], warnings: list[str]) -> list[Edition]:
    found = (_parse_one(meta, root, warnings) for meta, root in entries)
    return [ed for ed in found if ed is not None]


def load_index(
    corpus_dir: Path | None = None,
    home: Path | None = None,
    use_cache: bool = True,
    parsed: Mapping[str, store.Parsed] | None = None,
) -> RuleIndex:
    """The shipped corpus plus the user's ingested editions. Each edition's parsed form is
    cached on its own, keyed by its documents and this code: an edition is parsed once, and
    opening the index reads only the header of each cache file (the rules of an edition are
    read the first time something asks for them). `parsed`: editions `judge ingest` has
    just parsed, cached as they are when their description and document are the stored
    ones (rather than parsed a second time)."""
    corpus = corpus_dir or CORPUS_DIR
    entries = [(m, corpus) for m in manifest_metas(corpus)]
    warnings: list[str] = []
    entries += store.stored_editions(home, warnings)
    if not use_cache:
        return RuleIndex(_parse_all(entries, warnings), warnings)
    folder = store.cache_dir(home) / "rules"
    code = code_fingerprint()
    seen = _read_seen(folder)
    before = dict(seen)
    editions: list[Edition] = []
    keys: dict[str, str] = {}
    wrote = False
    for meta, root in entries:
        try:
            key = edition_key(code, meta, root, seen)
        except OSError as exc:
            what = "introuvable" if isinstance(exc, FileNotFoundError) else "illisible"
            raise DocumentError(
                f"Document {what} : {exc.filename}", file=str(exc.filename)
            ) from exc
        path = rules_cache.cache_file(folder, key)
        header = rules_cache.read_header(path, key)
        if header is not None and header.edition == meta.id:
            editions.append(_lazy(meta, root, path, header))
            warnings.extend(header.warnings)
        else:
            parse_warnings: list[str] = []
            ed = _just_parsed(parsed, meta, root, seen) or _parse_one(meta, root, parse_warnings)
            warnings.extend(parse_warnings)
            if ed is None:
                continue
            sections = text_sections(ed.rules)
            rules_cache.write_edition(path, key, ed, parse_warnings, sections)
            counts = (ed.rule_count, len(ed.glossary), len(ed.issues))
            body = Body(_given(ed), counts, sections, None, key, ed)
            editions.append(lazy_edition(meta_edition(meta), body))
            wrote = True
        keys[meta.id] = key
    if wrote:
        rules_cache.sweep(folder, set(keys.values()))
    if seen != before:
        rules_cache.publish(folder / _SEEN, json.dumps(seen).encode())
    return RuleIndex(editions, warnings)


def _just_parsed(
    parsed: Mapping[str, store.Parsed] | None,
    meta: EditionMeta,
    root: Path,
    seen: dict[str, list[Any]],
) -> Edition | None:
    """The edition `judge ingest` has just parsed for `meta`, when its description and its
    document's bytes (hashed by `edition_key` into `seen`) are those stored: parsing the
    stored copy again would give the same edition."""
    given = parsed.get(meta.id) if parsed else None
    if given is None or given.meta != meta or len(meta.sources) != 1:
        return None
    known = seen.get(str(root / meta.sources[0].file))
    return given.edition if known is not None and known[2] == given.digest else None


def _given(ed: Edition) -> Callable[[], Edition]:
    return lambda: ed


def _lazy(meta: EditionMeta, root: Path, path: Path, header: rules_cache.Header) -> Edition:
    part = rules_cache.EditionFile(path, header)

    def load() -> Edition:
        ed = part.edition()
        if ed is None:  # swept or damaged since it was opened: the documents are the truth
            ed = parse_edition(meta, root)
            sections = text_sections(ed.rules)
            rules_cache.write_edition(path, header.key, ed, header.warnings, sections)
        return ed

    counts = (header.rule_count, header.glossary, header.issues)
    body = Body(load, counts, header.sections, part, header.key)
    return lazy_edition(meta_edition(meta), body)


def number_kind_label(number: str) -> str:
    return {"chapter": "chapitre", "section": "section", "rule": "règle", "subrule": "sous-règle"}[
        kind_of(number)
    ]

"""The parsed-rules cache: each `Edition` (and its parse warnings) as plain JSON data.

Why JSON and not pickle. The cache lives in a folder the user (or anyone who can write
there) controls, under a predictable name; unpickling it would run whatever code a
crafted file asks for at the next `judge` command. Two ways out were weighed: pickle
authenticated with an HMAC key kept in the home, or a data format that cannot carry
code. Measured with the shipped corpus plus both English editions ingested (5 editions,
3,623 rules, 2 shared cores): reading the cache takes 22-35 ms with pickle, 63-70 ms with
this JSON (decode, type checks, dataclasses rebuilt; best of 9-15); a warm `judge rule
704.5g` takes 0.90-1.02 s before, 0.98-1.06 s after (wall, 5 runs each, idle machine):
~40 ms more on a command that spends most of its second elsewhere. Loading stays fast, so
the data format wins: nothing to keep secret, no key file whose permissions can go wrong, and
a tampered cache can at worst describe wrong rules — which whoever can write the home can
do anyway by editing the ingested editions themselves.

One file per edition, `<key>.json`, `key` being the hash of the edition's description,
its documents and the code (`index.edition_key`). Four lines: a header (format, version,
key, edition, counts, warnings, sections with text), the rule numbers with the place of
each rule in the third line and what the concordance asks of each (`model.rule_facts`),
the rules, and the rest of the edition. Opening the index reads
the headers only; `EditionFile` reads one rule, or the whole edition. The name is not the
only check: every read checks the header's format, version and key. Every value is
type-checked while the dataclasses are rebuilt (strings, ints, booleans, the literal
values of model.py, rule numbers that point inside their edition); anything unexpected —
truncated, garbage, wrong shape, wrong key — makes the cache ignored (then rebuilt and
overwritten by the caller), never trusted.

Writing goes through a temporary file `rules-*.tmp` in the same folder, renamed into place;
on any failure (a full disk…) the temporary file is removed and the cache is simply not
written (it is an optimisation only). After writing, the folder is swept: the caches of
editions no longer in the store (`<64 hex>.json`, and the `<64 hex>.pickle` of older
versions) are deleted, and so are temporary files left by a killed process (ours, or the
`tmp*.tmp` of older versions) once older than STALE_TMP_SECONDS. No other file is touched."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, TypeVar, get_args

import orjson

from judge.rules.model import (
    Edition,
    GlossaryEntry,
    IssueKind,
    Language,
    Layout,
    Paragraph,
    ParagraphKind,
    ParseIssue,
    Reference,
    RefStatus,
    Rule,
    Source,
    SourceFile,
    rule_facts,
)
from judge.rules.numbers import NumberKind

FORMAT = "judge-rules-cache"
VERSION = 5  # 1-2: pickles of (editions, warnings); 3: one JSON file; 4: one per edition;
# 5: each rule's facts (model.rule_facts) beside its number
STALE_TMP_SECONDS = 300.0
TMP_PREFIX = "rules-"

_HEX = re.compile(r"[0-9a-f]*")
_HEX_VALUES = bytes.maketrans(b"0123456789abcdef", bytes(range(16)))
_CACHE_NAME = re.compile(r"[0-9a-f]{64}\.(json|pickle)")
_TMP_NAME = re.compile(r"(rules-|tmp)[A-Za-z0-9_]+\.tmp")

_LANGUAGES: tuple[Language, ...] = get_args(Language)
_PARAGRAPH_KINDS: tuple[ParagraphKind, ...] = get_args(ParagraphKind)
_STATUSES: tuple[RefStatus, ...] = get_args(RefStatus)
_LAYOUTS: tuple[Layout, ...] = get_args(Layout)
_NUMBER_KINDS: tuple[NumberKind, ...] = get_args(NumberKind)
_ISSUE_KINDS: tuple[IssueKind, ...] = get_args(IssueKind)
_NUMBERINGS: tuple[str, ...] = ("modern", "pre2009")

# The fields each encoder writes, in order: a field added to the model without its
# encoder changing would be silently dropped, so `encode` refuses to run instead.
FIELDS: dict[type, tuple[str, ...]] = {
    Source: ("file", "line"),
    Paragraph: ("text", "language", "source", "kind"),
    Reference: ("target", "edition", "raw", "status", "title"),
    Rule: (
        "edition",
        "number",
        "kind",
        "title",
        "paragraphs",
        "parent",
        "children",
        "source",
        "inferred",
        "title_only",
        "references",
    ),
    GlossaryEntry: ("edition", "term", "paragraphs", "source", "references"),
    ParseIssue: ("kind", "message", "number", "source"),
    SourceFile: ("file", "original", "layout"),
    Edition: (
        "id",
        "label",
        "language",
        "date",
        "era",
        "numbering",
        "order",
        "rules",
        "glossary",
        "issues",
        "sources",
        "shipped",
    ),
}

T = TypeVar("T", bound=str)


class CacheInvalid(ValueError):
    """The cache file is not one this code wrote for this key."""


def cache_file(folder: Path, key: str) -> Path:
    return folder / f"{key}.json"


# --- reading -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """The first line of an edition's cache file: what opening a store needs to know of an
    edition without reading its rules."""

    key: str
    edition: str
    rule_count: int
    glossary: int
    issues: int
    warnings: tuple[str, ...]
    sections: frozenset[str]  # those with a rule that has text


def read_header(path: Path, key: str) -> Header | None:
    """The header of `path` if it is this code's cache for `key`, else None."""
    try:
        with path.open("rb") as fh:
            data = orjson.loads(fh.readline())
        if type(data) is not dict or data.get("format") != FORMAT:
            return None
        if data.get("version") != VERSION or data.get("key") != key:
            return None
        return Header(
            key,
            _str(data.get("edition")),
            _int(data.get("rules")),
            _int(data.get("glossary")),
            _int(data.get("issues")),
            tuple(_str(w) for w in _list(data.get("warnings"))),
            frozenset(_str(n) for n in _list(data.get("sections"))),
        )
    except (OSError, ValueError, TypeError, RecursionError):
        return None


class EditionFile:
    """One edition's cache file, read in parts: the ordered rule numbers (second line), one
    rule (a slice of the third line, found by its offset), or everything. Every read checks
    the file's header again; anything unexpected reads as None."""

    def __init__(self, path: Path, header: Header) -> None:
        self.path = path
        self.header = header
        self._numbers: dict[str, int] | None = None  # number -> its place
        self._spans: list[Any] = []  # offset and length of each rule, flat
        self._raw_cited: dict[str, Any] = {}
        self._raw_facts = ""
        self._facts: dict[str, int] | None = None
        self._start = 0

    def cited(self) -> dict[str, list[str]] | None:
        """For each cited number, the rules of the edition that cite it, in document order."""
        if self.numbers() is None:
            return None
        try:
            return {_str(k): _str(v).split("\n") for k, v in self._raw_cited.items()}
        except CacheInvalid:
            return None

    def facts(self) -> dict[str, int] | None:
        """Each rule's `rule_facts`, by number."""
        numbers = self.numbers()
        if numbers is None:
            return None
        if self._facts is None:
            # one hex digit a rule, turned into its value by a table, in C: an export reads
            # those of 28 editions
            values = self._raw_facts.encode("ascii").translate(_HEX_VALUES)
            self._facts = dict(zip(numbers, values, strict=True))
        return self._facts

    def numbers(self) -> dict[str, int] | None:
        """Each rule number, in document order, with its place in the rules line."""
        if self._numbers is None:
            try:
                with self.path.open("rb") as fh:
                    if not self._same_header(fh.readline()):
                        return None
                    data = orjson.loads(fh.readline())
                    self._start = fh.tell()
                numbers = _str(data.get("numbers")).split("\n")
                spans = _list(data.get("spans"))
                cited = data.get("cited")
                facts = _str(data.get("facts"))
                if len(spans) != 2 * len(numbers) or type(cited) is not dict:
                    return None
                if len(facts) != len(numbers) or not _HEX.fullmatch(facts):
                    return None
                self._spans, self._raw_cited, self._raw_facts = spans, cited, facts
                self._numbers = dict(zip(numbers, range(len(numbers)), strict=True))
            except (OSError, ValueError, TypeError, RecursionError, AttributeError):
                return None
        return self._numbers

    def rule(self, number: str) -> Rule | None:
        """Rule `number` alone, its links checked against the edition's numbers."""
        numbers = self.numbers()
        if numbers is None or number not in numbers:
            return None
        at = numbers[number]
        offset, length = self._spans[2 * at], self._spans[2 * at + 1]
        if type(offset) is not int or type(length) is not int:
            return None
        try:
            with self.path.open("rb") as fh:
                if not self._same_header(fh.readline()):
                    return None
                fh.seek(self._start + offset)
                rule = _rule(orjson.loads(fh.read(length)))
        except (OSError, ValueError, TypeError, RecursionError):
            return None
        inside = rule.parent is None or rule.parent in numbers
        if (
            rule.number != number
            or rule.edition != self.header.edition
            or not inside
            or any(c not in numbers for c in rule.children)
        ):
            return None
        return rule

    def edition(self) -> Edition | None:
        """The whole edition; None if anything does not match its header."""
        try:
            with self.path.open("rb") as fh:
                if not self._same_header(fh.readline()):
                    return None
                fh.readline()
                rules = _rules(orjson.loads(fh.readline()))
                editions, _warnings = decode(orjson.loads(fh.read()), self.header.key)
        except (OSError, ValueError, TypeError, RecursionError, AttributeError):
            return None
        if len(editions) != 1 or editions[0].id != self.header.edition:
            return None
        ed = replace(editions[0], rules=rules)
        if any(r.edition != ed.id for r in rules.values()):
            return None
        h = self.header
        counts = (ed.rule_count, len(ed.glossary), len(ed.issues))
        return ed if counts == (h.rule_count, h.glossary, h.issues) else None

    def _same_header(self, line: bytes) -> bool:
        try:
            data = orjson.loads(line)
        except ValueError:
            return False
        return type(data) is dict and data.get("key") == self.header.key


def decode(data: object, key: str) -> tuple[list[Edition], list[str]]:
    """Rebuild what `encode` wrote; CacheInvalid unless every value has its expected type."""
    if type(data) is not dict:
        raise CacheInvalid("not an object")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise CacheInvalid("format or version")
    if data.get("key") != key:
        raise CacheInvalid("key")
    warnings = [_str(w) for w in _list(data.get("warnings"))]
    editions = [_edition(e) for e in _list(data.get("editions"))]
    if len({e.id for e in editions}) != len(editions):
        raise CacheInvalid("duplicate edition")
    return editions, warnings


def _bad(what: str) -> CacheInvalid:
    return CacheInvalid(f"unexpected {what}")


def _str(v: object) -> str:
    if type(v) is not str:
        raise _bad("string")
    return v


def _opt_str(v: object) -> str | None:
    if v is None or type(v) is str:
        return v
    raise _bad("string or null")


def _int(v: object) -> int:
    if type(v) is not int:
        raise _bad("integer")
    return v


def _bool(v: object) -> bool:
    if type(v) is not bool:
        raise _bad("boolean")
    return v


def _choice(v: object, allowed: tuple[T, ...]) -> T:
    if type(v) is str and v in allowed:
        return allowed[allowed.index(v)]
    raise _bad(f"value {v!r}")


def _list(v: object, length: int | None = None) -> list[Any]:
    if type(v) is not list or (length is not None and len(v) != length):
        raise _bad("list" if length is None else f"list of {length}")
    return v


# The three most numerous objects are checked inline (a call per field would double the
# decoding time).


def _source(v: object) -> Source:
    if type(v) is list and len(v) == 2:
        file, line = v
        if type(file) is str and type(line) is int:
            return Source(file, line)
    raise _bad("source")


def _opt_source(v: object) -> Source | None:
    return None if v is None else _source(v)


def _paragraph(v: object) -> Paragraph:
    if type(v) is list and len(v) == 4:
        text, language, source, kind = v
        if type(text) is str and language in _LANGUAGES and kind in _PARAGRAPH_KINDS:
            return Paragraph(text, language, _source(source), kind)
    raise _bad("paragraph")


def _reference(v: object) -> Reference:
    if type(v) is list and len(v) == 5:
        target, edition, raw, status, title = v
        if (
            type(target) is str
            and type(edition) is str
            and type(raw) is str
            and status in _STATUSES
            and (title is None or type(title) is str)
        ):
            return Reference(target, edition, raw, status, title)
    raise _bad("reference")


def _rule(v: object) -> Rule:
    ed, number, kind, title, paras, parent, children, source, inferred, title_only, refs = _list(
        v, 11
    )
    return Rule(
        edition=_str(ed),
        number=_str(number),
        kind=_choice(kind, _NUMBER_KINDS),
        title=_opt_str(title),
        paragraphs=tuple(_paragraph(p) for p in _list(paras)),
        parent=_opt_str(parent),
        children=tuple(_str(c) for c in _list(children)),
        source=_opt_source(source),
        inferred=_bool(inferred),
        title_only=_bool(title_only),
        references=tuple(_reference(r) for r in _list(refs)),
    )


def _glossary_entry(v: object) -> GlossaryEntry:
    edition, term, paras, source, refs = _list(v, 5)
    return GlossaryEntry(
        _str(edition),
        _str(term),
        tuple(_paragraph(p) for p in _list(paras)),
        _source(source),
        tuple(_reference(r) for r in _list(refs)),
    )


def _issue(v: object) -> ParseIssue:
    kind, message, number, source = _list(v, 4)
    return ParseIssue(
        _choice(kind, _ISSUE_KINDS), _str(message), _opt_str(number), _opt_source(source)
    )


def _source_file(v: object) -> SourceFile:
    file, original, layout = _list(v, 3)
    return SourceFile(_str(file), _str(original), _choice(layout, _LAYOUTS))


def _rules(v: object) -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for item in _list(v):
        rule = _rule(item)
        if rule.number in rules:
            raise _bad(f"duplicate rule {rule.number}")
        rules[rule.number] = rule
    # Lookups follow parents and children: they must stay inside the edition.
    for rule in rules.values():
        if (rule.parent is not None and rule.parent not in rules) or any(
            c not in rules for c in rule.children
        ):
            raise _bad(f"link out of the edition from {rule.number}")
    return rules


def _edition(v: object) -> Edition:
    eid, label, language, date, era, numbering, order, rules, glossary, issues, sources, shipped = (
        _list(v, 12)
    )
    return Edition(
        id=_str(eid),
        label=_str(label),
        language=_choice(language, _LANGUAGES),
        date=_str(date),
        era=_str(era),
        numbering="pre2009" if _choice(numbering, _NUMBERINGS) == "pre2009" else "modern",
        order=_int(order),
        rules=_rules(rules),
        glossary=tuple(_glossary_entry(g) for g in _list(glossary)),
        issues=tuple(_issue(i) for i in _list(issues)),
        sources=tuple(_source_file(s) for s in _list(sources)),
        shipped=_bool(shipped),
    )


# --- writing -----------------------------------------------------------------------------


def check_fields() -> None:
    """Raise if the model's dataclasses no longer have the fields the encoder writes."""
    for cls, expected in FIELDS.items():
        actual = tuple(f.name for f in fields(cls))
        if actual != expected:
            raise TypeError(f"{cls.__name__}: fields {actual}, the cache encodes {expected}")


def encode(key: str, editions: Sequence[Edition], warnings: Sequence[str]) -> dict[str, Any]:
    check_fields()
    return {
        "format": FORMAT,
        "version": VERSION,
        "key": key,
        "warnings": list(warnings),
        "editions": [_enc_edition(e) for e in editions],
    }


def _enc_source(s: Source | None) -> list[Any] | None:
    return None if s is None else [s.file, s.line]


def _enc_paragraphs(paras: tuple[Paragraph, ...]) -> list[Any]:
    return [[p.text, p.language, _enc_source(p.source), p.kind] for p in paras]


def _enc_references(refs: tuple[Reference, ...]) -> list[Any]:
    return [[r.target, r.edition, r.raw, r.status, r.title] for r in refs]


def _enc_rule(r: Rule) -> list[Any]:
    return [
        r.edition,
        r.number,
        r.kind,
        r.title,
        _enc_paragraphs(r.paragraphs),
        r.parent,
        list(r.children),
        _enc_source(r.source),
        r.inferred,
        r.title_only,
        _enc_references(r.references),
    ]


def _enc_edition(e: Edition) -> list[Any]:
    return [
        e.id,
        e.label,
        e.language,
        e.date,
        e.era,
        e.numbering,
        e.order,
        [_enc_rule(r) for r in e.rules.values()],
        [
            [
                g.edition,
                g.term,
                _enc_paragraphs(g.paragraphs),
                _enc_source(g.source),
                _enc_references(g.references),
            ]
            for g in e.glossary
        ],
        [[i.kind, i.message, i.number, _enc_source(i.source)] for i in e.issues],
        [[s.file, s.original, s.layout] for s in e.sources],
        e.shipped,
    ]


def write_edition(
    path: Path, key: str, edition: Edition, warnings: Sequence[str], sections: Iterable[str]
) -> None:
    """Publish the cache of one edition at `path`: a header line, then the edition."""
    head = {
        "format": FORMAT,
        "version": VERSION,
        "key": key,
        "edition": edition.id,
        "rules": edition.rule_count,
        "glossary": len(edition.glossary),
        "issues": len(edition.issues),
        "warnings": list(warnings),
        "sections": sorted(sections),
    }
    # Line 2: the numbers and where each rule lies in line 3; line 4: the rest.
    pieces = [_dumps(_enc_rule(r)) for r in edition.rules.values()]
    spans: list[int] = []
    at = 1
    for piece in pieces:
        spans += [at, len(piece)]
        at += len(piece) + 1
    cited: dict[str, list[str]] = {}
    for rule in edition.rules.values():
        for ref in rule.references:
            citers = cited.setdefault(ref.target, [])
            if not citers or citers[-1] != rule.number:
                citers.append(rule.number)
    numbers = {
        "numbers": "\n".join(edition.rules),
        "spans": spans,
        "cited": {k: "\n".join(v) for k, v in cited.items()},
        # One hex digit per number: its `rule_facts`.
        "facts": "".join(f"{f:x}" for f in rule_facts(edition.rules).values()),
    }
    rest = encode(key, [replace(edition, rules={})], warnings)
    data = b"\n".join(
        [_dumps(head), _dumps(numbers), b"[" + b",".join(pieces) + b"]", _dumps(rest)]
    )
    publish(path, data)


def _dumps(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def publish(path: Path, data: bytes) -> None:
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=TMP_PREFIX, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if not isinstance(exc, OSError):
            raise


def sweep(folder: Path, keep: set[str], now: float | None = None) -> None:
    """Delete our caches whose key is not in `keep` (and the pickles of older versions), and
    our temporary files once stale; nothing else. A process still reading an edition whose
    file went parses it again (index.load_index)."""
    now = time.time() if now is None else now
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        is_cache = _CACHE_NAME.fullmatch(name) is not None and (
            name[:64] not in keep or name.endswith(".pickle")
        )
        if not is_cache and _TMP_NAME.fullmatch(name) is None:
            continue
        path = folder / name
        with contextlib.suppress(OSError):
            st = path.lstat()
            if not stat.S_ISREG(st.st_mode):
                continue
            if is_cache or now - st.st_mtime > STALE_TMP_SECONDS:
                path.unlink()

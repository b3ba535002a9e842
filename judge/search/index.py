"""The whoosh index over every edition: schema, documents, segments, atomic publication.

One document per rule paragraph (text or example), per glossary entry of an edition, and
per rule heading: a title known only from the contents (sections, chapters), or a first
paragraph that is only a name (`702.2. Deathtouch`). Citations (`see rule 704.5a`) are
blanked out of the indexed text. Fields: the paragraph (`body_fr` / `body_en`, by the
paragraph's language), the titles of the sections above it (`title_*`), the title of a
title-only rule (`heading_*`).

Each distinct indexed text is stored once: neighbouring editions share most paragraphs, so
whoosh holds *physical* documents (what is indexed), and each edition a table of its
*documents* (edition, rule, kind, paragraph) pointing to them. The searcher numbers the
documents of its editions in order (newest edition first) and reads whoosh's postings
through that table: the scores are those of one document per paragraph of every edition.

On disk, under `cache_dir(home) / "search"`::

    segments/<name>/   one whoosh index (a single segment) of distinct documents, never
                       changed once published: whoosh's files, documents.bin (each physical
                       document's digest and field lengths), signature (written last)
    editions/<key>.bin an edition's table: its documents (segment, physical document, kind,
                       language, paragraph, rule) and its vocabulary (for the typo corrector)
    views/<key>.bin    what a searcher over a set of editions opens: their tables joined,
                       the lengths of every field, the vocabulary merged
    .build-…           a build in progress, invisible to readers

Ingesting an edition adds its table and one segment holding only the texts no other edition
of the store has; removing one only drops it from the next view (its table and the texts
only it used stay until swept). `key` hashes the editions' cache keys and this code. Every
file is written under a `.build-…` name and published with one `os.rename`, so a reader
finds the whole file (or segment) or nothing; a build killed half-way leaves published data
untouched. Two processes building at once both succeed: a segment is named by its content,
the second rename fails and that process uses the first one's. Tables and views carry an
HMAC and segments a signature with this home's key: whoosh unpickles its table of contents,
so nothing this home did not write is ever opened."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
import shutil
import stat
import struct
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

import numpy as np

from judge.rules import store
from judge.rules.errors import JudgeError
from judge.rules.index import RuleIndex
from judge.rules.model import Edition, GlossaryEntry, Rule
from judge.search import analysis, lean
from judge.search.analysis import TOKEN_RE, AnalyzerLanguage, fold_token

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from whoosh import fields
    from whoosh.filedb.filestore import FileStorage

# Bump when the schema or the document shapes change (the source of this module and of
# analysis.py is hashed too, so an edit can never reuse an index built by older code).
INDEX_VERSION = "8"
KEEP_INDEXES = 4  # views kept per cache folder (one per set of editions in use)
KEEP_TABLES = 64  # edition tables kept beyond those the kept views use
MAX_SEGMENTS = 8  # beyond, a view's tables are rebuilt into one segment
STALE_BUILD_SECONDS = 3600.0

DocKind = Literal["text", "example", "title", "glossary"]
ProgressCallback = Callable[[int, int], None]

_ROOT_NAME = "search"
_SEGMENTS = "segments"
_EDITIONS = "editions"
_VIEWS = "views"
_DOCS = "documents.bin"  # in a segment: digests and field lengths of its documents
_LANGUAGE_BIT = {"fr": 1, "en": 2}
_KINDS: tuple[DocKind, ...] = ("text", "example", "title", "glossary")
_LANGS: tuple[AnalyzerLanguage, ...] = ("fr", "en")
_GLOSSARY_CODE = _KINDS.index("glossary")


class SearchIndexError(JudgeError):
    pass


def schema() -> fields.Schema:
    from whoosh import fields  # whoosh's storage is loaded by the first build or opening

    fr = analysis.analyzer("fr")
    en = analysis.analyzer("en")
    return fields.Schema(
        digest=fields.STORED,  # what the document's text hashes to (checks the numbering)
        body_fr=fields.TEXT(analyzer=fr, phrase=True),
        body_en=fields.TEXT(analyzer=en, phrase=True),
        title_fr=fields.TEXT(analyzer=fr, phrase=True),
        title_en=fields.TEXT(analyzer=en, phrase=True),
        heading_fr=fields.TEXT(analyzer=fr, phrase=True),
        heading_en=fields.TEXT(analyzer=en, phrase=True),
    )


# Text fields, by role: a paragraph (body), the section titles above it (title), the title
# of a rule known only by its title (heading). Separate fields keep each field's average
# length meaningful for BM25: one-line headings would make every paragraph look long.
TEXT_FIELDS = ("body", "title", "heading")
FIELD_NAMES = tuple(f"{role}_{lang}" for role in TEXT_FIELDS for lang in ("fr", "en"))


# --- what is indexed ---------------------------------------------------------------------


@dataclass(frozen=True)
class Document:
    edition: str
    rule: str  # canonical rule number; for a glossary entry, the term
    kind: DocKind
    language: AnalyzerLanguage
    para: int  # paragraph number in the rule, or entry number in the edition's glossary
    body: str
    titles: str  # section titles the document sits under (for ranking)
    title_language: AnalyzerLanguage


HEADING_MAX_CHARS = 48


def heading_of(rule: Rule) -> str | None:
    """A rule's title: its own (sections, chapters, contents), or the first paragraph of a
    numbered rule that is only a name, as official texts print keywords and actions
    (`702.2. Deathtouch`, then 702.2a…): a heading, not a one-word paragraph."""
    if rule.title:
        return rule.title
    if rule.kind != "rule" or not rule.children or not rule.paragraphs:
        return None
    first = rule.paragraphs[0]
    text = first.text.strip()
    if (
        first.kind != "text"
        or not text
        or len(text) > HEADING_MAX_CHARS
        or len(text.split()) > 5
        or not text[0].isupper()
        or text[-1] in ".:;,!?)"
    ):
        return None
    return text


def has_heading_paragraph(rule: Rule) -> bool:
    return not rule.title and heading_of(rule) is not None


def section_titles(index: RuleIndex, rule: Rule) -> list[str]:
    """Titles of the rule and of its ancestors, chapters excepted (too broad to rank on)."""
    out = []
    for r in index.breadcrumb(rule):
        title = heading_of(r) if r.kind != "chapter" else None
        if title:
            out.append(title)
    return out


def without_citations(text: str, rule: Rule) -> str:
    """`text` with the rule's citations blanked out (`see rule 704.5a`, « voir règle 410,
    "Gérer…" »): what a paragraph cites is not what it says. Offsets are kept."""
    for ref in rule.references:
        if ref.raw and ref.raw in text:
            text = text.replace(ref.raw, " " * len(ref.raw))
    return text


def iter_documents(index: RuleIndex) -> Iterator[Document]:
    for edition in index.editions:
        yield from _edition_documents(index, edition)


def _edition_documents(index: RuleIndex, edition: Edition) -> Iterator[Document]:
    lang: AnalyzerLanguage = edition.language
    for rule in edition.rules.values():
        titles = section_titles(index, rule)
        if has_heading_paragraph(rule):
            # `702.2. Deathtouch`: the first paragraph is the rule's title
            head = rule.paragraphs[0]
            above = "\n".join(titles[:-1])
            yield Document(
                edition.id, rule.number, "title", head.language, 0, head.text, above, lang
            )
            rest = list(enumerate(rule.paragraphs))[1:]
        elif rule.paragraphs:
            rest = list(enumerate(rule.paragraphs))
        else:
            rest = []
        if rest:
            joined = "\n".join(titles)
            for i, p in rest:
                body = without_citations(p.text, rule)
                yield Document(edition.id, rule.number, p.kind, p.language, i, body, joined, lang)
        elif rule.title and not rule.paragraphs:
            # its own title (last, unless a chapter) is the body: only the titles above it
            above = "\n".join(titles[:-1])
            yield Document(edition.id, rule.number, "title", lang, 0, rule.title, above, lang)
    for i, entry in enumerate(edition.glossary):
        entry_lang = _entry_language(entry, lang)
        body = f"{entry.term}\n{entry.text}"
        yield Document(edition.id, entry.term, "glossary", entry_lang, i, body, entry.term, lang)


def _entry_language(entry: GlossaryEntry, default: AnalyzerLanguage) -> AnalyzerLanguage:
    """The language a glossary entry is written in (its edition's, when it has no text)."""
    return entry.paragraphs[0].language if entry.paragraphs else default


def glossary_links(edition: Edition) -> str:
    """What each glossary entry of `edition` points to, one line per entry: its language,
    the index terms of its heading, the rules it cites (« See rule 706 »). An entry that
    only sends to another (« Swampwalk: See Landwalk. ») points where that one does."""
    cited: dict[str, tuple[str, ...]] = {}
    for entry in edition.glossary:
        if entry.cited:
            cited[fold_token(entry.term)] = entry.cited
    lines = []
    for entry in edition.glossary:
        key = fold_token(entry.term)
        targets = cited.get(key, ())
        if not targets:
            seen = _SEE_ENTRY.fullmatch(entry.text.strip())
            if seen:
                targets = cited.get(fold_token(seen.group(1)), ())
        lang = _entry_language(entry, edition.language)
        heading = analysis.terms(entry.term, lang)
        if targets and heading:
            lines.append(f"{lang}\t{' '.join(heading)}\t{' '.join(targets)}")
    return "\n".join(lines)


_SEE_ENTRY = re.compile(r"(?:See|Voir)\s+([^.]+)\.?", re.IGNORECASE)


@dataclass(frozen=True)
class GlossaryLink:
    """A glossary entry's heading and the rules it cites, in the editions that have it."""

    language: AnalyzerLanguage
    heading: frozenset[str]  # index terms
    targets: tuple[str, ...]
    editions: frozenset[str]


class GlossaryLinks:
    """The links of a view's editions, each distinct one once (neighbouring editions share
    most entries), found by the words of their headings."""

    def __init__(self, lines: Sequence[str], editions: Sequence[str]) -> None:
        self.links: list[GlossaryLink] = []
        self._by_term: dict[tuple[str, str], list[int]] = {}
        for line in lines:
            try:
                lang, heading, targets, numbers = line.split("\t")
                terms = frozenset(heading.split())
                link = GlossaryLink(
                    "en" if lang == "en" else "fr",
                    terms,
                    tuple(targets.split()),
                    frozenset(editions[int(n)] for n in numbers.split()),
                )
            except (ValueError, IndexError) as exc:
                raise SearchIndexError("Index de recherche illisible : liens du glossaire") from exc
            for t in terms:
                self._by_term.setdefault((link.language, t), []).append(len(self.links))
            self.links.append(link)

    def named(self, language: AnalyzerLanguage, terms: set[str]) -> list[GlossaryLink]:
        """The links of `language` whose whole heading is among `terms`."""
        found = {i for t in terms for i in self._by_term.get((language, t), ())}
        return [self.links[i] for i in sorted(found) if self.links[i].heading <= terms]


def merge_links(tables: Sequence[str]) -> list[str]:
    """The editions' `glossary_links` as a view holds them: each distinct line once, with
    the numbers of the editions that have it."""
    merged: dict[str, list[str]] = {}
    for number, text in enumerate(tables):
        for line in text.splitlines():
            merged.setdefault(line, []).append(str(number))
    return [f"{line}\t{' '.join(numbers)}" for line, numbers in merged.items()]


def code_salt() -> bytes:
    """What, besides the rules, names an index: its versions and the code that builds it."""
    parts = [f"judge-search {INDEX_VERSION} {analysis.ANALYSIS_VERSION}\0".encode()]
    here = Path(__file__).resolve().parent
    for name in ("index.py", "analysis.py"):
        with contextlib.suppress(OSError):
            parts.append((here / name).read_bytes())
    return b"".join(parts)


def content_key(index: RuleIndex) -> str:
    """A hash of everything indexed and of the code that indexes it (the RuleIndex keeps
    it: computed once per index); names the view of those editions."""
    return index.content_key(code_salt())[:24]


def edition_key(index: RuleIndex, edition: Edition, salt: bytes | None = None) -> str:
    """Names an edition's table: its id, its cache key (a hash of its documents and of the
    rules code; else a hash of what it says), and this code (`salt`: code_salt(), read
    once by a caller naming many editions)."""
    key = index.keys.get(edition.id)
    if key is None:
        key = RuleIndex([edition]).content_key()
    h = hashlib.sha256(code_salt() if salt is None else salt)
    h.update(f"\0{edition.id}\0{key}".encode())
    return h.hexdigest()[:24]


def _storage(folder: Path, readonly: bool = False) -> FileStorage:
    # whoosh.reading is imported by the first segment read (unpickled), without asyncio
    lean.imported("whoosh.reading")
    from whoosh.filedb.filestore import FileStorage

    return FileStorage(str(folder), readonly=readonly)


# --- locations ---------------------------------------------------------------------------


def _os_error(exc: OSError, action: str, where: Path) -> SearchIndexError:
    """The store's French wording of a system error (« dossier en lecture seule »…)."""
    return SearchIndexError(store.StoreError.from_os_error(exc, action, where).message)


def search_root(home: Path | None = None) -> Path:
    return store.cache_dir(home) / _ROOT_NAME


def index_dir(index: RuleIndex, home: Path | None = None) -> Path:
    """The view of `index`'s editions: what a searcher over them opens."""
    return search_root(home) / _VIEWS / f"{content_key(index)}.bin"


def is_complete(path: Path) -> bool:
    """A view file, or a segment folder, that was published whole."""
    if path.suffix == ".bin":
        return path.is_file()
    return (path / _DOCS).is_file()


def _tmp_name(final: Path) -> Path:
    return final.with_name(f".build-{final.name}-{os.getpid()}-{time.monotonic_ns() % 10**9}")


# --- binary tables -----------------------------------------------------------------------

_MAGIC = b"judge-search-table 1\n"


def _pack(parts: Sequence[bytes]) -> bytes:
    head = struct.pack(f"<I{len(parts)}Q", len(parts), *(len(p) for p in parts))
    return b"".join([_MAGIC, head, *parts])


def _unpack(data: bytes) -> list[bytes]:
    if not data.startswith(_MAGIC):
        raise ValueError("format inconnu")
    pos = len(_MAGIC)
    (count,) = struct.unpack_from("<I", data, pos)
    sizes = struct.unpack_from(f"<{count}Q", data, pos + 4)
    pos += 4 + 8 * count
    parts = []
    for size in sizes:
        parts.append(data[pos : pos + size])
        pos += size
    if pos != len(data):
        raise ValueError("taille incohérente")
    return parts


def _strings(values: Iterable[str]) -> bytes:
    items = list(values)
    return struct.pack("<I", len(items)) + "\0".join(items).encode("utf-8")


def _read_strings(data: bytes) -> list[str]:
    (count,) = struct.unpack_from("<I", data)
    items = data[4:].decode("utf-8").split("\0") if count else []
    if len(items) != count:
        raise ValueError("liste de textes incohérente")
    return items


def _ints(code: str, values: Iterable[int]) -> bytes:
    return array(code, values).tobytes()


def _read_ints(code: str, data: bytes) -> array[int]:
    out = array(code)
    out.frombytes(data)
    return out


def _file_mac(key: bytes, name: str, body: bytes) -> bytes:
    return hmac.new(key, f"judge-search-file\0{name}\0".encode() + body, hashlib.sha256).digest()


def _write_signed(path: Path, parts: Sequence[bytes], home: Path | None) -> None:
    """Write `path` whole or not at all (a temporary name, then one rename), with an HMAC."""
    body = _pack(parts)
    tmp = _tmp_name(path)
    try:
        tmp.write_bytes(body + _file_mac(_secret(home), path.name, body))
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _read_signed(path: Path, home: Path | None) -> list[bytes]:
    """The parts of a file this home wrote; SearchIndexError when absent, edited or damaged."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SearchIndexError(f"Index de recherche illisible : {path} ({exc})") from exc
    body, mac = data[:-32], data[-32:]
    if len(data) < 32 or not hmac.compare_digest(mac, _file_mac(_secret(home), path.name, body)):
        raise SearchIndexError(f"Index de recherche non signé ou modifié : {path}")
    try:
        return _unpack(body)
    except (ValueError, struct.error) as exc:
        raise SearchIndexError(f"Index de recherche illisible : {path} ({exc})") from exc


# --- what is indexed, physically ---------------------------------------------------------


def _indexed_fields(doc: Document) -> dict[str, str]:
    """The whoosh fields of a document: what decides which physical document it is."""
    out = {f"{'heading' if doc.kind == 'title' else 'body'}_{doc.language}": doc.body}
    if doc.titles:
        out[f"title_{doc.title_language}"] = doc.titles
    return out


def _fields_digest(fields_: dict[str, str]) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    for name, value in fields_.items():
        h.update(f"{name}\0{len(value)}\0{value}\0".encode())
    return h.digest()


@dataclass
class _Vocab:
    """Words of some documents, in the order they first appear (the typo corrector's).
    Plain dicts, not Counters: merging 29 editions' vocabularies is a hot loop."""

    counts: dict[str, int] = field(default_factory=dict)
    bits: dict[str, int] = field(default_factory=dict)  # the languages writing it
    surfaces: dict[str, dict[str, int]] = field(default_factory=dict)  # written forms

    def add(self, tokens: Sequence[tuple[str, str]], bit: int) -> None:
        counts, bits, surfaces = self.counts, self.bits, self.surfaces
        for folded, surface in tokens:
            counts[folded] = counts.get(folded, 0) + 1
            bits[folded] = bits.get(folded, 0) | bit
            found = surfaces.get(folded)
            if found is None:
                surfaces[folded] = {surface: 1}
            else:
                found[surface] = found.get(surface, 0) + 1

    def display(self, word: str) -> str:
        """The form most often written; of equals, the first met (Counter.most_common)."""
        return max(self.surfaces[word].items(), key=itemgetter(1))[0]


def _tokens(
    text: str,
    memo: dict[str, tuple[tuple[str, str], ...]],
    words: dict[str, tuple[str, str] | None],
) -> tuple[tuple[str, str], ...]:
    """The (folded, written) words of `text` that the typo corrector knows; `memo` by text,
    `words` by written word (None: not a word it keeps)."""
    found = memo.get(text)
    if found is None:
        out = []
        for surface in TOKEN_RE.findall(text):
            token = words.get(surface, _UNSEEN)
            if token is _UNSEEN:
                folded = fold_token(surface)
                token = None if len(folded) < 2 or folded.isdigit() else (folded, surface.lower())
                words[surface] = token
            if token is not None:
                out.append(token)
        found = memo[text] = tuple(out)
    return found


_UNSEEN = ("", "")  # not yet in `words`


@dataclass
class _Table:
    """One edition's documents (in the searcher's order) and vocabulary."""

    edition: str
    segments: list[str]  # the segments its documents are in
    segment: array[int]  # per document: index in `segments`
    local: array[int]  # per document: its number in that segment
    kinds: bytes
    langs: bytes
    paras: array[int]
    rules: list[str]  # distinct rule numbers (terms for a glossary entry)
    rule: array[int]  # per document: index in `rules`
    vocab: _Vocab
    title_only: bytes = b""  # per document: 1 when its rule is known only by its title
    links: str = ""  # its glossary's links to rules (`glossary_links`)

    def encode(self) -> list[bytes]:
        v = self.vocab
        words = list(v.counts)
        per_word = [v.surfaces[w] for w in words]
        return [
            _strings([self.edition]),
            _strings(self.segments),
            self.segment.tobytes(),
            self.local.tobytes(),
            self.kinds,
            self.langs,
            self.paras.tobytes(),
            _strings(self.rules),
            self.rule.tobytes(),
            _strings(words),
            _ints("I", (v.counts[w] for w in words)),
            bytes(v.bits[w] for w in words),
            _ints("I", (len(s) for s in per_word)),
            _strings(s for c in per_word for s in c),
            _ints("I", (n for c in per_word for n in c.values())),
            self.title_only,
            _strings([self.links]),
        ]

    @classmethod
    def decode(cls, parts: list[bytes]) -> _Table:
        if len(parts) != 17:
            raise ValueError("table incomplète")
        words = _read_strings(parts[9])
        counts = _read_ints("I", parts[10])
        widths = _read_ints("I", parts[12])
        surfaces = _read_strings(parts[13])
        surface_counts = _read_ints("I", parts[14])
        vocab = _Vocab(dict(zip(words, counts, strict=True)))
        vocab.bits = dict(zip(words, parts[11], strict=True))
        pos = 0
        for w, n in zip(words, widths, strict=True):
            if n == 1:
                vocab.surfaces[w] = {surfaces[pos]: surface_counts[pos]}
            else:
                vocab.surfaces[w] = dict(
                    zip(surfaces[pos : pos + n], surface_counts[pos : pos + n], strict=True)
                )
            pos += n
        table = cls(
            _read_strings(parts[0])[0],
            _read_strings(parts[1]),
            _read_ints("H", parts[2]),
            _read_ints("I", parts[3]),
            parts[4],
            parts[5],
            _read_ints("I", parts[6]),
            _read_strings(parts[7]),
            _read_ints("I", parts[8]),
            vocab,
            parts[15],
            _read_strings(parts[16])[0],
        )
        n = len(table.local)
        columns = (table.segment, table.kinds, table.langs, table.rule, table.title_only)
        if any(len(column) != n for column in columns):
            raise ValueError("colonnes de longueurs différentes")
        return table


# --- building ----------------------------------------------------------------------------


def build(
    index: RuleIndex,
    home: Path | None = None,
    progress: ProgressCallback | None = None,
    rebuild: bool = False,
) -> Path:
    """Make the view of `index`'s editions (unless a complete one exists): the tables of
    the editions that have none yet, one segment for the texts no kept segment holds;
    return its path. `rebuild` indexes every edition again, into one segment."""
    final = index_dir(index, home)
    if not rebuild and _view_ok(final, home):
        return final
    root = final.parent.parent
    try:
        for sub in (_SEGMENTS, _EDITIONS, _VIEWS):
            (root / sub).mkdir(parents=True, exist_ok=True)
        _sweep(root, keep=final.name)
        tables = _tables(index, root, home, progress, rebuild)
        _write_view(root, final, tables, home)
    except OSError as exc:
        raise _os_error(exc, "Index de recherche impossible à construire", root) from exc
    return final


def _view_ok(path: Path, home: Path | None) -> bool:
    """A view whose segments are all there (their signatures are checked on opening)."""
    if not path.is_file():
        return False
    try:
        names = _read_strings(_read_signed(path, home)[0])
    except (SearchIndexError, ValueError, struct.error, IndexError):
        return False
    return all(is_complete(path.parent.parent / _SEGMENTS / n) for n in names)


def _load_table(
    root: Path, key: str, home: Path | None, sound: dict[str, bool] | None = None
) -> _Table | None:
    """An edition's table, when it and its segments are sound (`sound`: the segments
    already checked, by name: a segment is hashed once per build)."""
    sound = {} if sound is None else sound
    path = root / _EDITIONS / f"{key}.bin"
    if not path.is_file():
        return None
    try:
        table = _Table.decode(_read_signed(path, home))
    except (SearchIndexError, ValueError, struct.error, IndexError, UnicodeDecodeError):
        return None
    for name in table.segments:
        if name not in sound:
            folder = root / _SEGMENTS / name
            sound[name] = is_complete(folder) and _signed(folder, home)
        if not sound[name]:
            return None  # a segment was swept or damaged: the edition is indexed again
    with contextlib.suppress(OSError):
        os.utime(path)
    return table


def _tables(
    index: RuleIndex,
    root: Path,
    home: Path | None,
    progress: ProgressCallback | None,
    rebuild: bool,
) -> list[tuple[str, _Table]]:
    """Every edition's (key, table), in the index's order; missing ones built."""
    salt = code_salt()
    keys = [edition_key(index, ed, salt) for ed in index.editions]
    found: dict[str, _Table] = {}
    if not rebuild:
        sound: dict[str, bool] = {}
        for key in keys:
            table = _load_table(root, key, home, sound)
            if table is not None:
                found[key] = table
        used = {s for t in found.values() for s in t.segments}
        if len(used) >= MAX_SEGMENTS and len(found) < len(keys):
            found = {}  # too many segments: every edition into one new segment
    missing = [(key, ed) for key, ed in zip(keys, index.editions, strict=True) if key not in found]
    if missing:
        known = _known_documents(root, found.values(), home)
        found.update(_index_editions(index, missing, known, root, home, progress, rebuild))
    return [(key, found[key]) for key in keys]


def _known_documents(
    root: Path, tables: Iterable[_Table], home: Path | None
) -> dict[bytes, tuple[str, int]]:
    """digest -> (segment, document) over the segments the kept tables use."""
    known: dict[bytes, tuple[str, int]] = {}
    for name in dict.fromkeys(s for t in tables for s in t.segments):
        digests, _ = _read_documents(root / _SEGMENTS / name)
        for i, digest in enumerate(digests):
            known.setdefault(digest, (name, i))
    return known


def _read_documents(folder: Path) -> tuple[list[bytes], dict[str, array[int]]]:
    """A segment's digests and field lengths, by document number."""
    parts = _unpack((folder / _DOCS).read_bytes())
    blob = parts[0]
    digests = [blob[i : i + 16] for i in range(0, len(blob), 16)]
    names = _read_strings(parts[1])
    lengths = {name: _read_ints("I", data) for name, data in zip(names, parts[2:], strict=True)}
    return digests, lengths


def _index_editions(
    index: RuleIndex,
    missing: list[tuple[str, Edition]],
    known: dict[bytes, tuple[str, int]],
    root: Path,
    home: Path | None,
    progress: ProgressCallback | None,
    rebuild: bool = False,
) -> dict[str, _Table]:
    """The tables of `missing` editions, their new texts written as one segment (written
    again when `rebuild`, though a segment of the same texts exists).

    Each edition is read once and kept only as its table's columns (`_Rows`) and the
    fields of its texts that no segment holds yet: over 26 new editions, their documents
    and token lists would double the memory of an ingest."""
    new: dict[bytes, dict[str, str]] = {}  # digest -> fields, of the texts to index
    words: dict[str, tuple[str, str] | None] = {}  # a written word -> its token (`_tokens`)
    pending: list[tuple[str, Edition, _Rows, _Vocab]] = []
    # progress in per mille: reading the editions, then indexing their new texts
    steps = len(missing)
    if progress:
        progress(0, 1000)
    for n, (key, ed) in enumerate(missing, start=1):
        rows = _Rows()
        vocab = _Vocab()
        memo: dict[str, tuple[tuple[str, str], ...]] = {}  # one edition's texts (titles repeat)
        rules_of = ed.rules
        for doc in _edition_documents(index, ed):
            fields_ = _indexed_fields(doc)
            digest = _fields_digest(fields_)
            if digest not in known and digest not in new:
                new[digest] = fields_
            found = rules_of.get(doc.rule) if doc.kind != "glossary" else None
            rows.add(digest, doc, found is not None and found.title_only)
            vocab.add(_tokens(doc.body, memo, words), _LANGUAGE_BIT[doc.language])
            vocab.add(_tokens(doc.titles, memo, words), _LANGUAGE_BIT[doc.title_language])
        rows.links = glossary_links(ed)
        pending.append((key, ed, rows, vocab))
        if progress:
            progress(200 * n // steps, 1000)
    del words
    if new:
        digests = list(new)
        h = hashlib.sha256(code_salt())
        for digest in digests:
            h.update(digest)
        name = h.hexdigest()[:24]
        report = None
        if progress:

            def report(done: int, total: int) -> None:
                progress(200 + 780 * done // max(1, total), 1000)

        final = root / _SEGMENTS / name
        docs = list(new.values())
        new.clear()  # the fields live on in `docs` only, until the segment is written
        _build_segment(final, docs, digests, home, report, rebuild)
        del docs
        known = {**known, **{d: (name, i) for i, d in enumerate(digests)}}
    out: dict[str, _Table] = {}
    for key, ed, rows, vocab in pending:
        table = rows.table(ed.id, vocab, known)
        _write_signed(root / _EDITIONS / f"{key}.bin", table.encode(), home)
        out[key] = table
    if progress:
        progress(1000, 1000)
    return out


class _Rows:
    """An edition's documents as its table holds them, but for where each is indexed (its
    text's digest, looked up once the new segment is written)."""

    def __init__(self) -> None:
        self.digests: list[bytes] = []
        self.kinds, self.langs, self.title_only = bytearray(), bytearray(), bytearray()
        self.paras, self.rule = array("I"), array("I")
        self.rule_names: dict[str, int] = {}
        self.links = ""

    def add(self, digest: bytes, doc: Document, title_only: bool) -> None:
        self.digests.append(digest)
        self.kinds.append(_KINDS.index(doc.kind))
        self.langs.append(_LANGS.index(doc.language))
        self.paras.append(doc.para)
        self.rule.append(self.rule_names.setdefault(doc.rule, len(self.rule_names)))
        self.title_only.append(1 if title_only else 0)

    def table(self, edition: str, vocab: _Vocab, known: dict[bytes, tuple[str, int]]) -> _Table:
        segment_names: dict[str, int] = {}
        segment, local = array("H"), array("I")
        for digest in self.digests:
            seg, number = known[digest]
            segment.append(segment_names.setdefault(seg, len(segment_names)))
            local.append(number)
        return _Table(
            edition,
            list(segment_names),
            segment,
            local,
            bytes(self.kinds),
            bytes(self.langs),
            self.paras,
            list(self.rule_names),
            self.rule,
            vocab,
            bytes(self.title_only),
            self.links,
        )


def _build_segment(
    final: Path,
    docs: list[dict[str, str]],
    digests: list[bytes],
    home: Path | None,
    progress: ProgressCallback | None,
    replace: bool = False,
) -> None:
    """Index `docs` into a new segment folder, published whole (unless another process
    published the same one first, or `replace`)."""
    if not replace and is_complete(final) and _signed(final, home):
        return
    tmp = _tmp_name(final)
    try:
        tmp.mkdir()
        _write_segment(tmp, docs, digests, progress)
        _sign(tmp, home)
        _publish(tmp, final, home, replace)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _write_segment(
    folder: Path,
    docs: list[dict[str, str]],
    digests: list[bytes],
    progress: ProgressCallback | None,
) -> None:
    total = len(docs)
    steps = total + max(1, total // 10)  # the commit counts for about a tenth of the work
    ix = _storage(folder).create_index(schema())
    writer = ix.writer(limitmb=128)
    lengths = {name: array("I", bytes(4 * total)) for name in FIELD_NAMES}
    step = max(1, total // 50)
    try:
        for n, (fields_, digest) in enumerate(zip(docs, digests, strict=True)):
            writer.add_document(digest=digest.hex(), **fields_)
            for name, value in fields_.items():
                lang: AnalyzerLanguage = "en" if name.endswith("_en") else "fr"
                lengths[name][n] = len(analysis.analyze(value, lang))
            if progress and ((n + 1) % step == 0):
                progress(n + 1, steps)
        writer.commit()
    except BaseException:
        writer.cancel()
        raise
    _check_numbering(folder, digests)
    names = [name for name in FIELD_NAMES if any(lengths[name])]
    parts = [b"".join(digests), _strings(names), *(lengths[name].tobytes() for name in names)]
    # documents.bin last: with the signature, it marks the folder complete
    (folder / _DOCS).write_bytes(_pack(parts))
    if progress:
        progress(steps, steps)


def _check_numbering(folder: Path, digests: list[bytes]) -> None:
    """whoosh numbered the documents in the order they were added (the tables rely on it)."""
    ix = _storage(folder).open_index()
    with ix.searcher() as searcher:
        if searcher.doc_count_all() != len(digests):
            raise SearchIndexError("Index de recherche incohérent : nombre de documents")
        for docnum in {0, len(digests) // 2, len(digests) - 1} if digests else set():
            if searcher.stored_fields(docnum).get("digest") != digests[docnum].hex():
                raise SearchIndexError("Index de recherche incohérent : numérotation")


def _publish(tmp: Path, final: Path, home: Path | None, replace: bool = False) -> None:
    """Rename `tmp` to `final`; when `final` exists (another process, or a damaged copy),
    a complete and signed one stays unless `replace`, a damaged one is replaced (moved
    aside, then deleted; put back if the rename fails)."""
    try:
        os.rename(tmp, final)
        return
    except OSError:
        if not final.exists():
            raise
    if not replace and is_complete(final) and _signed(final, home):
        return  # published first by another process: the same documents, in the same order
    aside = final.with_name(f".old-{final.name}-{os.getpid()}-{time.monotonic_ns() % 10**9}")
    os.rename(final, aside)
    try:
        os.rename(tmp, final)
    except OSError:
        os.rename(aside, final)
        raise
    shutil.rmtree(aside, ignore_errors=True)


def _write_view(
    root: Path, final: Path, tables: list[tuple[str, _Table]], home: Path | None
) -> None:
    """Join the tables (in the searcher's document order) into the view `final`."""
    seg_index: dict[str, int] = {}
    for _, t in tables:
        for s in t.segments:
            seg_index.setdefault(s, len(seg_index))
    offsets: list[int] = []
    seg_lengths: dict[str, list[array[int]]] = {name: [] for name in FIELD_NAMES}
    counts: list[int] = []
    total = 0
    for name in seg_index:
        digests, lengths = _read_documents(root / _SEGMENTS / name)
        offsets.append(total)
        counts.append(len(digests))
        for f in FIELD_NAMES:
            seg_lengths[f].append(lengths.get(f) or array("I", bytes(4 * len(digests))))
        total += len(digests)
    physical = array("I")
    edition_of, kinds, langs, title_only = array("H"), bytearray(), bytearray(), bytearray()
    paras, rule = array("I"), array("I")
    rules: list[str] = []
    merged = _Vocab()
    for number, (_, t) in enumerate(tables):
        base = [offsets[seg_index[s]] for s in t.segments]
        physical.extend(base[s] + n for s, n in zip(t.segment, t.local, strict=True))
        edition_of.extend([number] * len(t.local))
        kinds += t.kinds
        langs += t.langs
        title_only += t.title_only
        paras.extend(t.paras)
        first = len(rules)
        rules.extend(t.rules)
        rule.extend(first + r for r in t.rule)
        _merge_vocab(merged, t.vocab)
    # which documents each physical one is (a CSR table: starts, then document numbers)
    starts = array("I", bytes(4 * (total + 1)))
    for p in physical:
        starts[p + 1] += 1
    for i in range(total):
        starts[i + 1] += starts[i]
    fill = array("I", starts[:-1])
    virtual = array("I", bytes(4 * len(physical)))
    for d, p in enumerate(physical):
        virtual[fill[p]] = d
        fill[p] += 1
    columns = []
    names = []
    for f in FIELD_NAMES:
        whole = array("I")
        for part in seg_lengths[f]:
            whole.extend(part)
        if any(whole):
            names.append(f)
            columns.append(array("I", map(whole.__getitem__, physical)).tobytes())
    words = list(merged.counts)
    parts = [
        _strings(seg_index),
        _ints("I", counts),
        _strings(t.edition for _, t in tables),
        _strings(key for key, _ in tables),
        edition_of.tobytes(),
        _strings(rules),
        rule.tobytes(),
        bytes(kinds),
        bytes(langs),
        paras.tobytes(),
        starts.tobytes(),
        virtual.tobytes(),
        _strings(words),
        _ints("I", (merged.counts[w] for w in words)),
        _strings(merged.display(w) for w in words),
        bytes(merged.bits[w] for w in words),
        bytes(title_only),
        _strings(merge_links([t.links for _, t in tables])),
        _strings(names),
        *columns,
    ]
    _write_signed(final, parts, home)


def _merge_vocab(into: _Vocab, other: _Vocab) -> None:
    """Add `other`'s words, keeping the order they first appear in (ties of the written
    forms go to the first one met, as when counting all editions in one pass)."""
    counts, bits, surfaces = into.counts, into.bits, into.surfaces
    their_bits, their_surfaces = other.bits, other.surfaces
    for w, c in other.counts.items():
        found = surfaces.get(w)
        if found is None:
            counts[w] = c
            bits[w] = their_bits[w]
            surfaces[w] = dict(their_surfaces[w])
            continue
        counts[w] += c
        bits[w] |= their_bits[w]
        for form, n in their_surfaces[w].items():
            found[form] = found.get(form, 0) + n


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _sweep_builds(folder: Path) -> None:
    now = time.time()
    for child in folder.iterdir():
        name = child.name
        if not name.startswith((".build-", ".old-")):
            continue
        try:
            age = now - child.stat().st_mtime
        except OSError:
            continue
        # .build-<name>-<pid>-<n>: the name may hold dashes, the pid is second to last
        parts = name.rsplit("-", 2)
        pid = int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else -1
        if (
            name.startswith(".old-")
            or pid == os.getpid()
            or not _pid_alive(pid)
            or age > (STALE_BUILD_SECONDS)
        ):
            if child.is_dir():
                shutil.rmtree(child, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    child.unlink()


def _by_age(folder: Path) -> list[tuple[float, Path]]:
    """Published entries of `folder`, most recently used first."""
    out = []
    for child in folder.iterdir():
        if child.name.startswith("."):
            continue
        with contextlib.suppress(OSError):
            out.append((child.stat().st_mtime, child))
    return sorted(out, reverse=True)


def _remove(path: Path) -> None:
    trash = path.with_name(f".old-{path.name}-{os.getpid()}-{time.monotonic_ns() % 10**9}")
    try:
        os.rename(path, trash)
    except OSError:
        return
    if trash.is_dir():
        shutil.rmtree(trash, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            trash.unlink()


def _sweep(root: Path, keep: str) -> None:
    """Remove abandoned builds; keep the most recently used views, the tables they use
    (and the most recent others), the segments those tables use (and any segment younger
    than a build may take, which another process may be about to use)."""
    for sub in (root, root / _SEGMENTS, root / _EDITIONS, root / _VIEWS):
        _sweep_builds(sub)
    views = _by_age(root / _VIEWS)
    kept_tables: set[str] = set()
    kept = 0
    for _, view in views:
        if view.name != keep and kept >= KEEP_INDEXES - 1:
            _remove(view)
            continue
        kept += view.name != keep
        with contextlib.suppress(OSError, ValueError, struct.error, IndexError):
            kept_tables.update(_read_strings(_unpack(view.read_bytes()[:-32])[3]))
    used: set[str] = set()
    others = 0
    for _, table in _by_age(root / _EDITIONS):
        if table.stem not in kept_tables:
            others += 1
            if others > KEEP_TABLES:
                _remove(table)
                continue
        with contextlib.suppress(OSError, ValueError, struct.error, IndexError):
            used.update(_read_strings(_unpack(table.read_bytes()[:-32])[1]))
    now = time.time()
    for mtime, segment in _by_age(root / _SEGMENTS):
        if segment.name not in used and now - mtime > STALE_BUILD_SECONDS:
            _remove(segment)


# --- opening -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Vocabulary:
    counts: dict[str, int]  # folded word -> occurrences
    display: dict[str, str]  # folded word -> its usual written form (accents kept)
    languages: dict[str, frozenset[str]]  # folded word -> languages whose text has it

    def words_of(self, language: str) -> set[str]:
        return {w for w, langs in self.languages.items() if language in langs}


class DocInfo(NamedTuple):
    """Where a document comes from (a tuple: a view holds tens of thousands)."""

    edition: str
    rule: str
    kind: DocKind
    language: AnalyzerLanguage
    para: int


class Documents(Sequence[DocInfo]):
    """The view's documents, as the tables hold them: a `DocInfo` is made when one is read
    (a query reads a few hundred), never one object per document at opening."""

    KINDS = _KINDS  # the kind of each `kind_codes` number
    LANGUAGES = _LANGS  # the language of each `language_codes` number

    def __init__(
        self,
        editions: list[str],
        edition_of: array[int],
        rules: list[str],
        rule_of: array[int],
        kinds: bytes,
        languages: bytes,
        paras: array[int],
    ) -> None:
        count = len(edition_of)
        if not (len(rule_of) == len(kinds) == len(languages) == len(paras) == count):
            raise ValueError("table des documents incohérente")
        self._editions, self._edition_of = editions, edition_of
        self._rules, self._rule_of = rules, rule_of
        self._kinds, self._languages, self._paras = kinds, languages, paras
        self._made: list[DocInfo | None] = [None] * count
        # the same columns as arrays, for masks computed over every document at once
        self.edition_index: NDArray[np.int64] = np.asarray(edition_of, dtype=np.int64)
        self.kind_codes = np.frombuffer(kinds, dtype=np.uint8)
        self.language_codes = np.frombuffer(languages, dtype=np.uint8)
        # every code names an entry: a document is then readable whichever is asked for
        if count and (
            int(self.edition_index.max()) >= len(editions)
            or int(np.frombuffer(rule_of, dtype=np.uint32).max()) >= len(rules)
            or int(self.kind_codes.max()) >= len(_KINDS)
            or int(self.language_codes.max()) >= len(_LANGS)
        ):
            raise ValueError("table des documents incohérente")

    @property
    def editions(self) -> list[str]:
        """The edition of each `edition_index` number."""
        return self._editions

    def __len__(self) -> int:
        return len(self._edition_of)

    @overload
    def __getitem__(self, i: int) -> DocInfo: ...
    @overload
    def __getitem__(self, i: slice) -> list[DocInfo]: ...
    def __getitem__(self, i: int | slice) -> DocInfo | list[DocInfo]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        found = self._made[i]
        if found is None:  # kept: a query reads the same few hundred again and again
            found = self._made[i] = DocInfo(
                self._editions[self._edition_of[i]],
                self._rules[self._rule_of[i]],
                _KINDS[self._kinds[i]],
                _LANGS[self._languages[i]],
                self._paras[i],
            )
        return found

    def __iter__(self) -> Iterator[DocInfo]:
        return map(self.__getitem__, range(len(self)))

    def places(self, ids: Iterable[int]) -> list[tuple[str, str]]:
        """(edition, rule) of each document of `ids`, read from the columns: the copies of a
        result (« aussi dans … ») are a few hundred documents a query, none of them shown."""
        editions, edition_of = self._editions, self._edition_of
        rules, rule_of = self._rules, self._rule_of
        return [(editions[edition_of[i]], rules[rule_of[i]]) for i in ids]


@dataclass
class _Part:
    """One segment, opened: its whoosh index and reader (its searcher, for phrases only, is
    made at the first: whoosh's query package takes a tenth of a fresh process' opening)."""

    whoosh: Any  # whoosh.index.FileIndex
    reader: Any
    # per physical document of the segment, the documents (of the view) that it is:
    # `virtual[starts[i]:starts[i] + width[i]]` (none when only editions outside the view
    # hold it); arrays, so that a posting list is mapped at C speed and the loaded index is
    # a few objects, not one tuple per document for the garbage collector to walk
    virtual: NDArray[np.int64]
    starts: NDArray[np.int64]
    width: NDArray[np.int64]
    offset: int  # the number of its first physical document among the view's texts
    _searcher: Any = None

    @property
    def searcher(self) -> Any:
        if self._searcher is None:
            from whoosh.searching import Searcher

            self._searcher = Searcher(self.reader, fromindex=self.whoosh)
        return self._searcher

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()  # and its reader
        else:
            self.reader.close()
        self.whoosh.close()

    def expand(self, local: NDArray[np.int64]) -> NDArray[np.int64]:
        """The view's documents that the physical documents `local` are, in order."""
        widths = self.width[local]
        total = int(widths.sum())
        if total == 0:
            return np.empty(0, dtype=np.int64)
        # each physical document's first view document, then consecutive ones
        first = np.repeat(self.starts[local] - (np.cumsum(widths) - widths), widths)
        return self.virtual[first + np.arange(total, dtype=np.int64)]


# document numbers (int64) and term frequencies (float64), read-only
Postings = tuple["NDArray[np.int64]", "NDArray[np.float64]"]


@dataclass
class OpenedIndex:
    path: Path  # the view
    parts: list[_Part]
    vocabulary: Vocabulary
    documents: Documents  # by document number (the searcher's)
    lengths: dict[str, array[int]]  # text field -> length of that field in each document
    # per document: 1 when its rule is known only by its title (contents, citations): read
    # from the tables, so that opening never reads the rules
    title_only: bytes
    # per document, a number for its (edition, rule): the same for the paragraphs of a rule
    rule_codes: NDArray[np.int64]
    # per document, its text: the physical document (of all segments, in order) that it is;
    # per text, how many documents are it. A text is scored once for all its copies.
    text_of: NDArray[np.int64]
    text_width: NDArray[np.int64]
    pair_codes: _PairCodes
    links_text: list[str]  # the editions' glossary links (`merge_links`)
    _links: GlossaryLinks | None = None
    _cache: dict[tuple[str, str], Postings] = field(default_factory=dict)
    _text_cache: dict[tuple[str, str], Postings] = field(default_factory=dict)
    # the documents sorted by `rule_codes`, and their codes: made at the first lookup
    _by_rule: tuple[NDArray[np.int64], NDArray[np.int64]] | None = None

    def documents_of(self, edition: str, rule: str) -> NDArray[np.int64]:
        """The documents (paragraphs, title) of rule `rule` of `edition`, in order; none
        for a glossary term."""
        code = self.pair_codes.of(edition, rule)
        if code < 0:
            return np.empty(0, dtype=np.int64)
        if self._by_rule is None:
            order = np.argsort(self.rule_codes, kind="stable")
            self._by_rule = (order, self.rule_codes[order])
        order, codes = self._by_rule
        found = order[np.searchsorted(codes, code) : np.searchsorted(codes, code, "right")]
        kept: NDArray[np.int64] = found[self.documents.kind_codes[found] != _GLOSSARY_CODE]
        return kept

    def doc_count_all(self) -> int:
        return len(self.documents)

    def glossary_links(self) -> GlossaryLinks:
        """The glossary links of the view's editions (read at the first use)."""
        if self._links is None:
            self._links = GlossaryLinks(self.links_text, self.documents.editions)
        return self._links

    def postings(self, fieldname: str, term: str) -> Postings:
        """Document numbers and term frequencies of `term` in `fieldname`: whoosh's postings
        of each segment, each physical document read as the documents that are it (its
        frequency repeated for each)."""
        return self._collected(
            self._cache,
            fieldname,
            term,
            lambda part, local, weights: (
                part.expand(local),
                np.repeat(weights, part.width[local]),
            ),
        )

    def text_postings(self, fieldname: str, term: str) -> Postings:
        """Texts and term frequencies of `term` in `fieldname` (`text_of` numbers): whoosh's
        postings of each segment as they are, each physical document once."""
        return self._collected(
            self._text_cache,
            fieldname,
            term,
            lambda part, local, weights: (local + part.offset, weights),
        )

    def _collected(
        self,
        cache: dict[tuple[str, str], Postings],
        fieldname: str,
        term: str,
        read: Callable[[_Part, NDArray[np.int64], NDArray[np.float64]], Postings],
    ) -> Postings:
        """Each segment's postings of `term`, as `read` numbers them, joined (cached, and
        read-only: the index never changes)."""
        key = (fieldname, term)
        cached = cache.get(key)
        if cached is not None:
            return cached
        ids: list[NDArray[np.int64]] = []
        tfs: list[NDArray[np.float64]] = []
        for part in self.parts:
            if not part.reader.doc_frequency(fieldname, term):
                continue
            local, weights = _segment_postings(part.reader, fieldname, term)
            got, frequencies = read(
                part, np.asarray(local, dtype=np.int64), np.asarray(weights, dtype=np.float64)
            )
            ids.append(got)
            tfs.append(frequencies)
        result = (
            (np.concatenate(ids), np.concatenate(tfs))
            if ids
            else (np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64))
        )
        result[0].flags.writeable = False
        result[1].flags.writeable = False
        if len(cache) > 50_000:
            cache.clear()
        cache[key] = result
        return result

    def doc_frequency(self, fieldname: str, term: str) -> int:
        """How many documents (not texts) have `term` in `fieldname`."""
        if not any(part.reader.doc_frequency(fieldname, term) for part in self.parts):
            return 0
        return int(self.text_width[self.text_postings(fieldname, term)[0]].sum())

    def text_phrase(self, fieldname: str, words: Sequence[str], slop: int) -> NDArray[np.int64]:
        """The texts where `words` are a phrase (`slop` words apart at most), sorted."""
        from whoosh import query as wq

        query = wq.Phrase(fieldname, list(words), slop=slop)
        out = [
            np.asarray(list(part.searcher.docs_for_query(query)), dtype=np.int64) + part.offset
            for part in self.parts
        ]
        found = np.unique(np.concatenate(out)) if out else np.empty(0, dtype=np.int64)
        found.flags.writeable = False
        return found

    def phrase_docs(self, fieldname: str, words: Sequence[str], slop: int) -> NDArray[np.int64]:
        """The documents where `words` are a phrase (`slop` words apart at most), sorted."""
        from whoosh import query as wq

        query = wq.Phrase(fieldname, list(words), slop=slop)
        out = [
            part.expand(np.asarray(list(part.searcher.docs_for_query(query)), dtype=np.int64))
            for part in self.parts
        ]
        found = np.unique(np.concatenate(out)) if out else np.empty(0, dtype=np.int64)
        found.flags.writeable = False
        return found

    def close(self) -> None:
        for part in self.parts:
            part.close()


def _segment_postings(reader: Any, fieldname: str, term: str) -> tuple[list[int], list[float]]:
    """One segment's postings, whoosh's blocks read whole when the codec allows it."""
    ids: list[int] = []
    tfs: list[float] = []
    matcher = reader.postings(fieldname, term)
    try:
        while matcher.is_active():
            if matcher._ids is None:
                matcher._read_ids()
            if matcher._weights is None:
                matcher._read_weights()
            start, end = matcher._i, matcher._blocklength
            ids.extend(matcher._ids[start:end])
            tfs.extend(matcher._weights[start:end])
            matcher._next_block()
    except AttributeError:  # another codec: the public, slower way
        ids.clear()
        tfs.clear()
        matcher = reader.postings(fieldname, term)
        while matcher.is_active():
            ids.append(matcher.id())
            tfs.append(matcher.weight())
            matcher.next()
    return ids, tfs


def open_index(path: Path, home: Path | None = None) -> OpenedIndex:
    """Open a view and its segments read-only, once their signatures are checked: whoosh
    unpickles its table of contents, so a segment nobody signed with this home's key is
    never opened."""
    parts = _read_signed(path, home)
    root = path.parent.parent
    opened: list[_Part] = []
    try:
        if len(parts) < 19:
            raise ValueError("vue incomplète")
        names = _read_strings(parts[0])
        counts = _read_ints("I", parts[1])
        starts = _read_ints("I", parts[10])
        virtual = _read_ints("I", parts[11])
        if len(starts) != sum(counts) + 1 or starts[-1] != len(virtual):
            raise ValueError("table des documents incohérente")
        virtual_ids = np.asarray(virtual, dtype=np.int64)
        offset = 0
        for name, count in zip(names, counts, strict=True):
            folder = root / _SEGMENTS / name
            ix = _open_segment(folder, home)
            bounds = np.asarray(starts[offset : offset + count + 1], dtype=np.int64)
            part = _Part(ix, ix.reader(), virtual_ids, bounds[:-1], np.diff(bounds), offset)
            opened.append(part)
            if ix.doc_count_all() != count:
                raise ValueError(f"nombre de documents incohérent : {folder}")
            offset += count
        editions = _read_strings(parts[2])
        rules = _read_strings(parts[5])
        paras = _read_ints("I", parts[9])
        edition_of = _read_ints("H", parts[4])
        rule_of = _read_ints("I", parts[6])
        documents = Documents(editions, edition_of, rules, rule_of, parts[7], parts[8], paras)
        if len(virtual) != len(documents):
            raise ValueError("table des documents incohérente")
        vocab = _read_vocabulary(parts)
        title_only = parts[16]
        rule_codes, pair_codes = _pair_codes(editions, documents.edition_index, rules, rule_of)
        text_of, text_width = _texts(starts, virtual_ids, len(documents))
        links = _read_strings(parts[17])
        fields_ = _read_strings(parts[18])
        lengths = {
            name: _read_ints("I", data) for name, data in zip(fields_, parts[19:], strict=True)
        }
        if len(title_only) != len(documents) or any(
            len(column) != len(documents) for column in lengths.values()
        ):
            raise ValueError("longueurs incohérentes")
    except SearchIndexError:
        for part in opened:
            part.close()
        raise
    except Exception as exc:  # whoosh raises its own errors for damaged files
        for part in opened:
            part.close()
        raise SearchIndexError(f"Index de recherche illisible : {path} ({exc})") from exc
    with contextlib.suppress(OSError):
        os.utime(path)  # most recently used: kept by the sweep
    return OpenedIndex(
        path,
        opened,
        vocab,
        documents,
        lengths,
        title_only,
        rule_codes,
        text_of,
        text_width,
        pair_codes,
        links,
    )


def _open_segment(folder: Path, home: Path | None) -> Any:
    """A segment's whoosh index, once its signature is checked."""
    if not is_complete(folder):
        raise SearchIndexError(f"Index de recherche incomplet : {folder}")
    if not _signed(folder, home):
        raise SearchIndexError(f"Index de recherche non signé ou modifié : {folder}")
    return _storage(folder, readonly=True).open_index()


def _read_vocabulary(parts: list[bytes]) -> Vocabulary:
    words = _read_strings(parts[12])
    bits = {b: frozenset(lang for lang, bit in _LANGUAGE_BIT.items() if bit & b) for b in range(4)}
    return Vocabulary(
        dict(zip(words, _read_ints("I", parts[13]), strict=True)),
        dict(zip(words, _read_strings(parts[14]), strict=True)),
        dict(zip(words, map(bits.__getitem__, (b & 3 for b in parts[15])), strict=True)),
    )


def _texts(
    starts: array[int], virtual: NDArray[np.int64], count: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Each document's text (physical document) and each text's number of documents."""
    bounds = np.asarray(starts, dtype=np.int64)
    width: NDArray[np.int64] = bounds[1:] - bounds[:-1]
    text_of = np.full(count, -1, dtype=np.int64)
    text_of[virtual] = np.repeat(np.arange(len(width), dtype=np.int64), width)
    if count and int(text_of.min()) < 0:
        raise ValueError("table des documents incohérente")
    return text_of, width


@dataclass(frozen=True)
class _PairCodes:
    """A number per (edition, rule): `rule * len(editions) + edition`, each string read as
    its first place in its table (a table may write a string twice)."""

    editions: dict[str, int]
    rules: dict[str, int]
    width: int

    def of(self, edition: str, rule: str) -> int:
        """The code of (edition, rule), or -1 when no document has it."""
        e, r = self.editions.get(edition), self.rules.get(rule)
        return -1 if e is None or r is None else r * self.width + e


def _pair_codes(
    editions: list[str], edition_of: NDArray[np.int64], rules: list[str], rule_of: array[int]
) -> tuple[NDArray[np.int64], _PairCodes]:
    """The code (`_PairCodes`) of each document's (edition, rule)."""

    def first_numbers(strings: list[str]) -> tuple[NDArray[np.int64], dict[str, int]]:
        # built from the end: a string's first place is the one written last
        first = dict(zip(reversed(strings), range(len(strings) - 1, -1, -1), strict=True))
        places = np.fromiter(map(first.__getitem__, strings), dtype=np.int64, count=len(strings))
        return places, first

    eds, edition_numbers = first_numbers(editions)
    numbers, rule_numbers = first_numbers(rules)
    codes = _PairCodes(edition_numbers, rule_numbers, max(1, len(editions)))
    if not len(edition_of):
        return np.empty(0, dtype=np.int64), codes
    eds = eds[edition_of]
    numbers = numbers[np.asarray(rule_of, dtype=np.int64)]
    return numbers * codes.width + eds, codes


def ensure_index(
    index: RuleIndex,
    home: Path | None = None,
    progress: ProgressCallback | None = None,
    rebuild: bool = False,
) -> OpenedIndex:
    """Open the view of `index`'s editions, building what is missing first; anything
    unreadable is rebuilt."""
    path = index_dir(index, home)
    if not rebuild and path.is_file():
        try:
            return open_index(path, home)
        except SearchIndexError:
            # damaged (disk full, manual edit): never trusted; the view is made again from
            # the tables and segments that are sound, the rest indexed again
            _remove(path)
    if not rebuild:
        try:
            return open_index(build(index, home, progress), home)
        except SearchIndexError:
            pass
    return open_index(build(index, home, progress, rebuild=True), home)


def prepare(index: RuleIndex, home: Path | None = None) -> None:
    """Build what a search over `index` opens (after an ingest: one table and one segment,
    the new edition's). A failure is left to the next search, which builds again or says
    what is wrong: the ingest itself succeeded."""
    with contextlib.suppress(SearchIndexError):
        build(index, home)


# --- signing: whoosh's files hold pickles ----------------------------------------------------

_SIGNATURE = "signature"
_KEY_FILE = ".search-key"


def _secret(home: Path | None) -> bytes:
    """This home's signing key: random, owner-only, kept beside the editions (not in the
    cache folder, which may be shared or writable by others). A key others could read or
    that another user owns is replaced."""
    path = store.home_dir(home) / _KEY_FILE
    try:
        info = path.lstat()
        if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077:
            key = path.read_bytes()
            if len(key) == 32:
                return key
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise _os_error(exc, "Clé de l'index de recherche illisible", path) from exc
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(key)
    except FileExistsError:
        return _secret(home)  # another process created it first
    except OSError as exc:
        raise _os_error(exc, "Clé de l'index de recherche impossible à créer", path) from exc
    return key


def _digest(folder: Path, key: bytes) -> str:
    mac = hmac.new(key, b"judge-search-index\0", hashlib.sha256)
    for entry in sorted(folder.iterdir()):
        if entry.name == _SIGNATURE:
            continue
        data = entry.read_bytes() if entry.is_file() else b""
        mac.update(f"{entry.name}\0{len(data)}\0".encode())
        mac.update(data)
    return mac.hexdigest()


def _sign(folder: Path, home: Path | None) -> None:
    (folder / _SIGNATURE).write_text(_digest(folder, _secret(home)), encoding="ascii")


def _signed(folder: Path, home: Path | None) -> bool:
    try:
        expected = (folder / _SIGNATURE).read_text(encoding="ascii").strip()
        return hmac.compare_digest(expected, _digest(folder, _secret(home)))
    except (OSError, UnicodeDecodeError):
        return False

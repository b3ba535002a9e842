"""The whoosh index over every edition: schema, build, atomic publication, read-only open.

One document per rule paragraph (text or example), per glossary entry of an edition, and
per rule heading: a title known only from the contents (sections, chapters), or a first
paragraph that is only a name (`702.2. Deathtouch`). Citations (`see rule 704.5a`) are
blanked out of the indexed text. Fields: the
paragraph (`body_fr` / `body_en`, by the paragraph's language), the titles of the sections
above it (`title_*`), the title of a title-only rule (`heading_*`). Documents store only
where they come from (edition, rule, paragraph number): texts, titles and breadcrumbs are
read back from the `RuleIndex`, so the index stays small and quick to open.

On disk, under `cache_dir(home) / "search"`::

    <key>/                 a complete index: whoosh's files; documents.json (each
                           document's origin and field lengths, by document number);
                           vocab.json (the words, for the typo corrector); meta.json,
                           written last
    .build-<key>-<pid>-…/  a build in progress, invisible to readers

`key` is a hash of every indexed text and of this code. A build writes into its
`.build-…` folder and publishes it with one `os.rename`, so a reader either finds the
whole index or nothing; a build killed half-way leaves its `.build-…` folder behind (swept
by the next build) and any published index untouched. Two processes building at once
both succeed: the second rename fails and that process uses the first one's index. A
forced rebuild (`rebuild=True`) moves the old folder aside, renames the new one in, then
deletes the old one (or puts it back if the rename fails)."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import shutil
import stat
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from judge.rules import store
from judge.rules.errors import JudgeError
from judge.rules.index import RuleIndex
from judge.rules.model import Edition, Rule
from judge.search import analysis
from judge.search.analysis import TOKEN_RE, AnalyzerLanguage, fold_token

if TYPE_CHECKING:
    from whoosh import fields
    from whoosh.filedb.filestore import FileStorage

# Bump when the schema or the document shapes change (the source of this module and of
# analysis.py is hashed too, so an edit can never reuse an index built by older code).
INDEX_VERSION = "6"
KEEP_INDEXES = 4  # published indexes kept per cache folder (one per corpus in use)
STALE_BUILD_SECONDS = 3600.0

DocKind = Literal["text", "example", "title", "glossary"]
ProgressCallback = Callable[[int, int], None]

_ROOT_NAME = "search"
_VOCAB = "vocab.json"
_TABLE = "documents.json"
_META = "meta.json"
_LANGUAGE_BIT = {"fr": 1, "en": 2}


class SearchIndexError(JudgeError):
    pass


def schema() -> fields.Schema:
    from whoosh import fields  # whoosh's storage is loaded by the first build or opening

    fr = analysis.analyzer("fr")
    en = analysis.analyzer("en")
    return fields.Schema(
        edition=fields.ID(stored=True),
        rule=fields.ID(stored=True),
        kind=fields.ID(stored=True),
        language=fields.ID(stored=True),
        para=fields.STORED,
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
        entry_lang = entry.paragraphs[0].language if entry.paragraphs else lang
        body = f"{entry.term}\n{entry.text}"
        yield Document(edition.id, entry.term, "glossary", entry_lang, i, body, entry.term, lang)


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
    it: computed once per index)."""
    return index.content_key(code_salt())[:24]


def _storage(folder: Path, readonly: bool = False) -> FileStorage:
    from whoosh.filedb.filestore import FileStorage

    return FileStorage(str(folder), readonly=readonly)


# --- locations ---------------------------------------------------------------------------


def _os_error(exc: OSError, action: str, where: Path) -> SearchIndexError:
    """The store's French wording of a system error (« dossier en lecture seule »…)."""
    return SearchIndexError(store.StoreError.from_os_error(exc, action, where).message)


def search_root(home: Path | None = None) -> Path:
    return store.cache_dir(home) / _ROOT_NAME


def index_dir(index: RuleIndex, home: Path | None = None) -> Path:
    return search_root(home) / content_key(index)


def is_complete(path: Path) -> bool:
    return all((path / name).is_file() for name in (_META, _VOCAB, _TABLE))


# --- building ----------------------------------------------------------------------------


def build(
    index: RuleIndex,
    home: Path | None = None,
    progress: ProgressCallback | None = None,
    rebuild: bool = False,
) -> Path:
    """Build the index for `index` unless a complete one exists; return its folder."""
    final = index_dir(index, home)
    if is_complete(final) and not rebuild:
        return final
    root = final.parent
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _os_error(exc, "Dossier de cache de la recherche inutilisable", root) from exc
    _sweep(root, keep=final.name)
    tmp = root / f".build-{final.name}-{os.getpid()}-{time.monotonic_ns() % 10**9}"
    try:
        tmp.mkdir()
        _write_index(index, tmp, progress)
        _sign(tmp, home)
        _publish(tmp, final, replace=rebuild)
    except OSError as exc:
        raise _os_error(exc, "Index de recherche impossible à construire", root) from exc
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def _write_index(index: RuleIndex, folder: Path, progress: ProgressCallback | None) -> None:
    docs = list(iter_documents(index))
    total = len(docs)
    steps = total + max(1, total // 10)  # the commit counts for about a tenth of the work
    if progress:
        progress(0, steps)
    storage = _storage(folder)
    ix = storage.create_index(schema())
    writer = ix.writer(limitmb=128)
    vocab: Counter[str] = Counter()
    langs: dict[str, int] = {}  # folded word -> the languages it is written in (bits)
    display: dict[str, Counter[str]] = {}
    # Per document, in whoosh's document-number order (a fresh single-segment index
    # numbers documents as they are added): where it comes from, and the length of each
    # text field, so that searching never reads whoosh's stored fields.
    table: list[list[Any]] = []
    lengths: dict[str, list[int]] = {}
    step = max(1, total // 50)
    try:
        for n, doc in enumerate(docs, start=1):
            fields_: dict[str, Any] = {
                "edition": doc.edition,
                "rule": doc.rule,
                "kind": doc.kind,
                "language": doc.language,
                "para": doc.para,
                f"{'heading' if doc.kind == 'title' else 'body'}_{doc.language}": doc.body,
            }
            if doc.titles:
                fields_[f"title_{doc.title_language}"] = doc.titles
            writer.add_document(**fields_)
            table.append([doc.edition, doc.rule, doc.kind, doc.language, doc.para])
            for name, value in fields_.items():
                if name.startswith(TEXT_FIELDS):
                    column = lengths.setdefault(name, [0] * total)
                    column[n - 1] = len(
                        analysis.analyze(value, "en" if name.endswith("_en") else "fr")
                    )
            for text, text_lang in ((doc.body, doc.language), (doc.titles, doc.title_language)):
                for match in TOKEN_RE.finditer(text):
                    surface = match.group(0)
                    folded = fold_token(surface)
                    if len(folded) < 2 or folded.isdigit():
                        continue
                    vocab[folded] += 1
                    langs[folded] = langs.get(folded, 0) | _LANGUAGE_BIT[text_lang]
                    display.setdefault(folded, Counter())[surface.lower()] += 1
            if progress and (n % step == 0 or n == total):
                progress(n, steps)
        writer.commit()
    except BaseException:
        writer.cancel()
        raise
    _check_numbering(folder, table)
    words = {w: [c, display[w].most_common(1)[0][0], langs[w]] for w, c in vocab.items()}
    (folder / _VOCAB).write_text(json.dumps(words, ensure_ascii=False), encoding="utf-8")
    (folder / _TABLE).write_text(
        json.dumps({"documents": table, "lengths": lengths}, ensure_ascii=False), encoding="utf-8"
    )
    meta = {
        "version": INDEX_VERSION,
        "key": folder.name,
        "documents": total,
        "editions": [ed.id for ed in index.editions],
        "built": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    # meta.json is written last: its presence marks the folder complete.
    (folder / _META).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    if progress:
        progress(steps, steps)


def _check_numbering(folder: Path, table: list[list[Any]]) -> None:
    """whoosh numbered the documents in the order they were added (the table relies on it)."""
    ix = _storage(folder).open_index()
    with ix.searcher() as searcher:
        if searcher.doc_count_all() != len(table):
            raise SearchIndexError("Index de recherche incohérent : nombre de documents")
        for docnum in {0, len(table) // 2, len(table) - 1} if table else set():
            stored = searcher.stored_fields(docnum)
            if [stored["edition"], stored["rule"], stored["para"]] != [
                table[docnum][0],
                table[docnum][1],
                table[docnum][4],
            ]:
                raise SearchIndexError("Index de recherche incohérent : numérotation")


def _publish(tmp: Path, final: Path, replace: bool) -> None:
    try:
        os.rename(tmp, final)
        return
    except OSError:
        if not final.exists():
            raise
    if not replace and is_complete(final):
        return  # another process published the same index first: use theirs
    aside = final.with_name(f".old-{final.name}-{os.getpid()}-{time.monotonic_ns() % 10**9}")
    os.rename(final, aside)
    try:
        os.rename(tmp, final)
    except OSError:
        os.rename(aside, final)
        raise
    shutil.rmtree(aside, ignore_errors=True)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _sweep(root: Path, keep: str) -> None:
    """Remove abandoned builds and all but the most recently used indexes."""
    now = time.time()
    published: list[tuple[float, Path]] = []
    for child in root.iterdir():
        name = child.name
        try:
            mtime = child.stat().st_mtime
        except OSError:
            continue
        age = now - mtime
        if name.startswith(".build-"):
            parts = name.split("-")
            pid = int(parts[2]) if len(parts) > 3 and parts[2].isdigit() else -1
            if pid == os.getpid() or not _pid_alive(pid) or age > STALE_BUILD_SECONDS:
                shutil.rmtree(child, ignore_errors=True)
        elif name.startswith(".old-"):
            shutil.rmtree(child, ignore_errors=True)
        elif child.is_dir() and name != keep:
            published.append((mtime, child))
    published.sort(reverse=True)
    for _, old in published[KEEP_INDEXES - 1 :]:
        trash = old.with_name(f".old-{old.name}-{os.getpid()}")
        try:
            os.rename(old, trash)
        except OSError:
            continue
        shutil.rmtree(trash, ignore_errors=True)


# --- opening -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Vocabulary:
    counts: dict[str, int]  # folded word -> occurrences
    display: dict[str, str]  # folded word -> its usual written form (accents kept)
    languages: dict[str, frozenset[str]]  # folded word -> languages whose text has it

    def words_of(self, language: str) -> set[str]:
        return {w for w, langs in self.languages.items() if language in langs}


@dataclass(frozen=True)
class DocInfo:
    edition: str
    rule: str
    kind: DocKind
    language: AnalyzerLanguage
    para: int


@dataclass
class OpenedIndex:
    path: Path
    whoosh: Any  # whoosh.index.FileIndex
    vocabulary: Vocabulary
    documents: list[DocInfo]  # by whoosh document number
    lengths: dict[str, list[int]]  # text field -> length of that field in each document


def open_index(path: Path, home: Path | None = None) -> OpenedIndex:
    """Open a published index read-only, once its signature is checked: whoosh unpickles
    its table of contents, so an index nobody signed with this home's key is never opened."""
    if not is_complete(path):
        raise SearchIndexError(f"Index de recherche incomplet : {path}")
    if not _signed(path, home):
        raise SearchIndexError(f"Index de recherche non signé ou modifié : {path}")
    try:
        storage = _storage(path, readonly=True)
        ix = storage.open_index()
        raw = json.loads((path / _VOCAB).read_text(encoding="utf-8"))
        table = json.loads((path / _TABLE).read_text(encoding="utf-8"))
        documents = [DocInfo(*row) for row in table["documents"]]
        lengths = {str(k): list(v) for k, v in table["lengths"].items()}
        if ix.doc_count_all() != len(documents):
            raise SearchIndexError("nombre de documents incohérent")
    except Exception as exc:  # whoosh raises its own errors for damaged files
        raise SearchIndexError(f"Index de recherche illisible : {path} ({exc})") from exc
    with contextlib.suppress(OSError):
        os.utime(path)  # most recently used: kept by the sweep
    bits = {
        bit: frozenset(lang for lang, b in _LANGUAGE_BIT.items() if b & bit) for bit in range(4)
    }
    vocab = Vocabulary(
        {w: int(v[0]) for w, v in raw.items()},
        {w: str(v[1]) for w, v in raw.items()},
        {w: bits[int(v[2]) & 3] for w, v in raw.items()},
    )
    return OpenedIndex(path, ix, vocab, documents, lengths)


def ensure_index(
    index: RuleIndex,
    home: Path | None = None,
    progress: ProgressCallback | None = None,
    rebuild: bool = False,
) -> OpenedIndex:
    """Open the index for `index`, building it first when it is missing or unreadable."""
    path = index_dir(index, home)
    if not rebuild and is_complete(path):
        try:
            return open_index(path, home)
        except SearchIndexError:
            rebuild = True  # damaged (disk full, manual edit): rebuilt, never trusted
    path = build(index, home, progress, rebuild=rebuild)
    return open_index(path, home)


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

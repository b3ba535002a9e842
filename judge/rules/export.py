"""Plain-data views of rules and glossary entries (the `--json` shape), and whole editions
with their links as `judge export` writes them (kept on disk)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import orjson

from judge.rules.cache import publish
from judge.rules.index import Citer, RuleIndex
from judge.rules.model import Edition, GlossaryEntry, Rule, read_whole
from judge.rules.references import nearest_title

if TYPE_CHECKING:
    from judge.rules.concordance import Concordance
    from judge.rules.concordance.links import LinkRow


def rule_to_dict(index: RuleIndex, rule: Rule) -> dict[str, Any]:
    # A sub-rule has no title of its own: it takes its section's.
    title = nearest_title(rule.number, index.edition(rule.edition).rules)
    return rule_dict(rule, title, index.breadcrumb(rule)[:-1], index.cited_by(rule))


def rule_dict(
    rule: Rule, title: str | None, ancestors: Iterable[Rule], cited_by: Iterable[Citer]
) -> dict[str, Any]:
    """The `--json` shape of a rule; `ancestors` from the chapter down to its parent."""
    return {
        "kind": rule.kind,
        "edition": rule.edition,
        "rule": rule.number,
        "title": title,
        "breadcrumb": [{"rule": r.number, "title": r.title} for r in ancestors],
        "text": rule.text,
        "examples": rule.examples,
        "children": list(rule.children),
        "parent": rule.parent,
        "references": [
            {"rule": ref.target, "edition": ref.edition, "status": ref.status, "title": ref.title}
            for ref in rule.references
        ],
        "cited_by": [{"rule": c.rule, "edition": c.edition} for c in cited_by],
        "language": rule.language,
        "paragraphs": [
            {"text": p.text, "kind": p.kind, "language": p.language} for p in rule.paragraphs
        ],
        "source": {"file": rule.source.file, "line": rule.source.line} if rule.source else None,
        "inferred": rule.inferred,
        "title_only": rule.title_only,
    }


def glossary_to_dict(entry: GlossaryEntry) -> dict[str, Any]:
    return {
        "kind": "glossary",
        "edition": entry.edition,
        "term": entry.term,
        "text": entry.text,
        "paragraphs": [
            {"text": p.text, "kind": p.kind, "language": p.language} for p in entry.paragraphs
        ],
        "references": [
            {"rule": ref.target, "edition": ref.edition, "status": ref.status, "title": ref.title}
            for ref in entry.references
        ],
        "source": {"file": entry.source.file, "line": entry.source.line},
    }


# -- a whole edition as `judge export` writes it, kept on disk --

_EXPORT_FORMAT = b"judge-export-5"
_EXPORT_KEEP_SECONDS = 7 * 24 * 3600.0  # other editions' older files (removed, older code) go
_EXPORT_SUFFIX = ".json.z"
# Runs its work in a forked process and gives its pid; None: nothing run (`session._in_child`).
InChild = Callable[[Callable[[], None]], "int | None"]


# A piece of an export's bytes: a slice of a larger output is not copied out of it.
Chunk = bytes | memoryview


def document(bodies: Iterable[Sequence[Chunk]]) -> bytes:
    """The JSON list of the rows of every body (`edition_json`: its chunks end to end) as
    json.dumps(indent=2) writes it, without a final newline."""
    # joined once, not added: one copy of an edition's 36 MB rather than one per `+`
    return b"".join(document_chunks(bodies))


def document_chunks(bodies: Iterable[Sequence[Chunk]]) -> list[Chunk]:
    """`document` in chunks, to be written one after the other without joining them."""
    out: list[Chunk] = [b"[\n"]
    for body in bodies:
        if any(len(chunk) for chunk in body):
            out += [b",\n", *body] if len(out) > 1 else body
    return [*out, b"\n]"] if len(out) > 1 else [b"[]"]


def edition_json(
    conc: Concordance, edition_id: str, folder: Path | None, in_child: InChild | None = None
) -> list[Chunk]:
    """Every rule of `edition_id` (`rule_to_dict`, with its counterparts: the links of
    `Concordance.rows_of` as `Link.to_dict` writes them) then every glossary entry, as the
    items of a list that json.dumps(indent=2) writes, joined by ",\n", without the brackets:
    in chunks, to be put end to end (`document` copies them once; `document_chunks` not at
    all).

    Kept under `folder`, named by the edition's cache key (its documents and this code) and
    every direct pair's (`direct_pairs_key`): a new edition, a new document or new code
    gives a new name, so a file on disk is never stale, and reading it back is all the
    next export does. The first export after such a change computes it again (over 29
    editions, 2,500 rules each followed into 28 others), one run of rules in two walked in
    a process of its own when `in_child` runs one (`_rendered_in_two`)."""
    index = conc.index
    edition = index.edition(edition_id)  # an unknown edition is refused before anything is read
    path = _export_file(conc, edition_id, folder)
    if path is not None:
        kept = _read_export(path, edition_id)
        if kept is not None:
            return kept
    # Every rule and the glossary will be read: in one read of the edition's cache, before
    # the child is forked; and every side of every pair (the walk file kept if it was not).
    read_whole(edition)
    conc.read_for_walk(edition_id)
    pack = path is not None
    if in_child:
        pieces = _rendered_in_two(conc, edition_id, in_child, pack=pack)
    else:
        rules, glossary = _rendered(conc, edition_id, edition.rules), _glossary(edition)
        pieces = [_piece(_separated([rules, glossary]), pack)]
    body = [chunk for piece in pieces for chunk in piece.raw]
    if path is not None:
        size = sum(len(chunk) for chunk in body)
        _write_export(path, edition_id, size, [p.packed or _pack(p.raw) for p in pieces])
    return body


@dataclass(frozen=True, slots=True)
class _Piece:
    """A piece of an export's body (its chunks end to end), and its zlib stream when made
    already (b"": not yet): the file keeps one stream per piece, so that each process packs
    the piece it wrote."""

    raw: tuple[Chunk, ...]
    packed: bytes = b""


def _piece(raw: Sequence[Chunk], pack: bool) -> _Piece:
    return _Piece(tuple(raw), _pack(raw) if pack else b"")


def _pack(raw: Sequence[Chunk]) -> bytes:
    """One zlib stream of the chunks `raw` end to end."""
    stream = zlib.compressobj(1)
    return b"".join([*map(stream.compress, raw), stream.flush()])


def _separated(parts: Iterable[Chunk], more: bool = False) -> list[Chunk]:
    """The non-empty `parts` with the items' separator between them, and after the last
    one when `more` items follow."""
    out: list[Chunk] = []
    for part in parts:
        if len(part):
            out += [_SEPARATOR, part] if out else [part]
    return [*out, _SEPARATOR] if out and more else out


def _rendered(conc: Concordance, edition_id: str, numbers: Iterable[str]) -> Chunk:
    """The items of the export's list for the rules `numbers` of `edition_id`, with their
    links (`Concordance.rows_of`), as `edition_json` joins them."""
    index = conc.index
    links = conc.rows_of(edition_id, numbers)
    rules = index.edition(edition_id).rules
    written = _LinksJson(edition_id)
    rows = []
    for number, found in links.items():
        row = rule_to_dict(index, rules[number])
        row["counterparts"] = orjson.Fragment(written(number, found))
        rows.append(row)
    return _items(rows)


def _glossary(edition: Edition) -> Chunk:
    return _items([glossary_to_dict(g) for g in edition.glossary])


def _items(rows: list[dict[str, Any]]) -> Chunk:
    """`rows` as the items of a list json.dumps(indent=2) writes, without the brackets (a
    view of orjson's output: 18 MB not copied). The only floats are the links'
    confidences, rounded to 3 decimals in 0-1: json and orjson write those alike
    (tests/rules/test_export_bulk.py checks it)."""
    return memoryview(orjson.dumps(rows, option=orjson.OPT_INDENT_2))[2:-2] if rows else b""


def recently_exported(conc: Concordance, folder: Path, most: int) -> list[str]:
    """The editions of `conc.index` with a file under `folder`, current or not, the `most`
    last read or written first: those a change of the store computes again, so that their
    next export only reads."""
    prefixes = {_prefix(ed.id): ed.id for ed in conc.index.editions}
    used: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for path in folder.glob("*" + _EXPORT_SUFFIX):
            edition = prefixes.get(path.name.split("-", 1)[0])
            if edition is not None:
                with contextlib.suppress(OSError):
                    used[edition] = max(used.get(edition, 0.0), path.stat().st_mtime)
    return sorted(used, key=lambda e: -used[e])[:most]


def core_to_spare() -> bool:
    """Whether a second process would find a core of its own: more than one core, and a
    load over the last minute (this process's included) under one less than the cores. On
    a busy machine a child only takes time from its parent (both then copy the pages they
    share as they touch them)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    return cores > 1 and hasattr(os, "getloadavg") and os.getloadavg()[0] < cores - 0.5


def _rendered_in_two(
    conc: Concordance, edition_id: str, in_child: InChild, *, pack: bool = False
) -> list[_Piece]:
    """`edition_json`'s body in pieces: runs of rules (`_runs`), every other one walked,
    written (and packed, with `pack`) by a child process (`in_child`: forked, on the other
    core) that sends its bytes back through a pipe, all of them done here when no child
    runs or it sends nothing whole; then the glossary."""
    edition = conc.index.edition(edition_id)
    numbers = list(edition.rules)
    runs = _runs(numbers)
    # Read once, before the fork, rather than once in each process: the pairs' sides (done
    # already when `edition_json` calls), the edition's rules and who cites them.
    conc.read_for_walk(edition_id)
    if numbers:
        conc.index.cited_by(edition.rules[numbers[0]])

    def piece(place: int) -> _Piece:
        # ends with the items' separator when an item follows: rules always give one, the
        # glossary one per entry
        more = place < len(runs) - 1 or bool(edition.glossary)
        return _piece(_separated([_rendered(conc, edition_id, runs[place])], more), pack)

    theirs = range(1, len(runs), 2)
    read, write = os.pipe()
    _widen(write)

    def child() -> None:
        os.close(read)
        # All packed before any is sent, while the parent packs its own: the parent reads
        # nothing before then.
        made = [piece(place) for place in theirs]
        with open(write, "wb") as out:
            for each in made:
                out.write(sum(len(chunk) for chunk in each.raw).to_bytes(8, "big"))
                for chunk in each.raw:
                    out.write(chunk)
                out.write(len(each.packed).to_bytes(8, "big"))
                out.write(each.packed)

    pid = in_child(child)
    os.close(write)
    status = 1
    sent: dict[int, _Piece] = {}
    try:
        with open(read, "rb") as received:
            pieces = {place: piece(place) for place in range(0, len(runs), 2)}
            glossary = _piece(_separated([_glossary(edition)]), pack)
            for place in theirs if pid is not None else ():
                raw = _sized(received)
                packed = _sized(received) if raw is not None else None
                if raw is None or packed is None:
                    break
                sent[place] = _Piece((raw,), packed)
            whole = len(sent) == len(theirs) and received.read(1) == b""
    finally:
        if pid is not None:
            with contextlib.suppress(ChildProcessError):
                status = os.waitpid(pid, 0)[1]
    if status == 0 and whole:
        pieces |= sent
    else:
        pieces |= {place: piece(place) for place in theirs}
    return [pieces[place] for place in range(len(runs))] + [glossary]


# Runs of rules, one in two walked by each process: a rule's cost grows along an edition
# (the 700s reach the French editions, each a neighbour of 26 English ones), so that
# halves would leave the first process waiting for the second.
_RUNS = 8


def _runs(numbers: list[str]) -> list[list[str]]:
    size = max(1, -(-len(numbers) // _RUNS))
    return [numbers[i : i + size] for i in range(0, len(numbers), size)]


_SEPARATOR = b",\n"


def _sized(received: BinaryIO) -> bytes | None:
    """The next bytes the child sent, after their length (8 bytes); None if cut short."""
    head = received.read(8)
    size = int.from_bytes(head, "big")
    data = received.read(size) if len(head) == 8 else b""
    return data if len(head) == 8 and len(data) == size else None


def _widen(pipe: int) -> None:
    """A pipe of 1 MB rather than 64 KB where Linux allows it: the child's 18 MB then take
    half the time to come through."""
    with contextlib.suppress(ImportError, AttributeError, OSError):
        import fcntl

        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, 1 << 20)


def _prefix(edition_id: str) -> str:
    return hashlib.sha256(edition_id.encode()).hexdigest()[:12]


def _export_file(conc: Concordance, edition_id: str, folder: Path | None) -> Path | None:
    key = conc.index.keys.get(edition_id)
    pairs = conc.direct_pairs_key() if folder is not None and key is not None else None
    if folder is None or key is None or pairs is None:
        return None
    name = hashlib.sha256(_EXPORT_FORMAT + b"\0" + key.encode() + b"\0" + pairs.encode())
    # The edition's own prefix: writing its new file deletes its old ones.
    return folder / f"{_prefix(edition_id)}-{name.hexdigest()[:24]}{_EXPORT_SUFFIX}"


def _header(edition_id: str, size: int) -> bytes:
    return b"%s %s %d\n" % (_EXPORT_FORMAT, edition_id.encode(), size)


def _read_export(path: Path, edition_id: str) -> list[Chunk] | None:
    """The body kept at `path`, or None (absent, unreadable, not this edition's, or not
    whole). Not parsed again: zlib's checksums and the length in the header catch a damaged
    file, its name a stale one, and parsing 36 MB would cost a third of the export."""
    try:
        data = path.read_bytes()
        header, _, packed = data.partition(b"\n")
        body = _unpacked(packed)
        size = sum(map(len, body)) if body is not None else -1
        if body is None or header + b"\n" != _header(edition_id, size):
            return None
    except (OSError, zlib.error):
        return None
    with contextlib.suppress(OSError):  # a cache one may read but not write is still read
        os.utime(path)  # read: among the last used (`recently_exported`)
    return body


def _unpacked(packed: bytes) -> list[Chunk] | None:
    """The zlib streams of `packed` unpacked, in order; None when one is cut short."""
    parts: list[Chunk] = []
    rest = packed
    while rest:
        stream = zlib.decompressobj()
        parts.append(stream.decompress(rest))
        if not stream.eof:
            return None
        rest = stream.unused_data
    return parts


# A link's JSON (`Link.to_dict`) where `_items` places a rule's counterparts: each link at
# the 4th level of indentation. Written here rather than by orjson from a dict per link,
# which costs a quarter more (60,000 links).
_LINK_JSON = (
    b"      {\n"
    b'        "from": %s,\n'
    b'        "to": {\n          "edition": %s,\n          "rule": %s\n        },\n'
    b'        "method": %s,\n'
    b'        "confidence": %s,\n'
    b'        "moved": %s,\n'
    b'        "via": %s,\n'
    b'        "approximate": %s,\n'
    b'        "present": %s\n'
    b"      }"
)
_BOOL_JSON = (b"false", b"true")


class _LinksJson:
    """The links of a rule as `orjson.dumps(OPT_INDENT_2)` writes the list of their
    `Link.to_dict` at the place of `rule_dict`'s counterparts (tests/rules/
    test_export_json.py compares them, test_export_bulk.py a whole export to json.dumps).
    The strings, confidences and `via`s met are written once: a walk meets a few thousand
    of them, 60,000 times. The rows are as the concordance makes them: each confidence a
    float in 0-1 (`clamped`: never -0.0), each flag a bool."""

    def __init__(self, edition_id: str) -> None:
        self._quoted: dict[str, bytes] = {}
        self._confidences: dict[float, bytes] = {}
        self._vias: dict[tuple[str, ...], bytes] = {}
        self._edition = self.quoted(edition_id)

    def quoted(self, text: str) -> bytes:
        known = self._quoted.get(text)
        if known is None:
            known = self._quoted[text] = orjson.dumps(text)
        return known

    def confidence(self, confidence: float) -> bytes:
        known = self._confidences.get(confidence)
        if known is None:
            known = self._confidences[confidence] = orjson.dumps(round(confidence, 3))
        return known

    def via(self, via: tuple[str, ...]) -> bytes:
        known = self._vias.get(via)
        if known is None:
            items = b",\n".join(b"          " + self.quoted(e) for e in via)
            known = self._vias[via] = b"[\n" + items + b"\n        ]" if via else b"[]"
        return known

    def __call__(self, number: str, rows: Iterable[LinkRow]) -> bytes:
        quoted, boolean = self.quoted, _BOOL_JSON
        # each value met before found by the dictionary alone, without a call of ours
        known, confidences, vias = self._quoted.get, self._confidences.get, self._vias.get
        source = b'{\n          "edition": %s,\n          "rule": %s\n        }' % (
            self._edition,
            quoted(number),
        )
        links = [
            _LINK_JSON
            % (
                source,
                known(to_edition) or quoted(to_edition),
                known(to_rule) or quoted(to_rule),
                known(method) or quoted(method),
                confidences(confidence) or self.confidence(confidence),
                boolean[moved],
                vias(via) or self.via(via),
                boolean[approximate],
                boolean[present],
            )
            for to_edition, to_rule, method, confidence, moved, via, approximate, present in rows
        ]
        return b"[\n" + b",\n".join(links) + b"\n    ]" if links else b"[]"


def _write_export(path: Path, edition_id: str, size: int, streams: Iterable[bytes]) -> None:
    """Keep the body of `size` bytes at `path` as the zlib `streams` of its pieces, in
    order (`publish`: a reader sees all or nothing), then forget the edition's other files;
    a cache that cannot be written only costs the next export."""
    publish(path, b"".join([_header(edition_id, size), *streams]))
    prefix = path.name.split("-", 1)[0]
    now = time.time()
    with contextlib.suppress(OSError):
        for old in path.parent.glob("*" + _EXPORT_SUFFIX):
            if old == path:
                continue
            if (
                old.name.startswith(prefix + "-")
                or now - old.stat().st_mtime > _EXPORT_KEEP_SECONDS
            ):
                old.unlink(missing_ok=True)

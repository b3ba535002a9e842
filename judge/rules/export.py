"""Plain-data views of rules and glossary entries (the `--json` shape), and the links of a
whole edition as `judge export` writes them (kept on disk)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from judge.rules.cache import publish
from judge.rules.index import Citer, RuleIndex
from judge.rules.model import GlossaryEntry, Rule
from judge.rules.references import nearest_title

if TYPE_CHECKING:
    from judge.rules.concordance import Concordance


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


def export_edition(index: RuleIndex, edition_id: str) -> list[dict[str, Any]]:
    ed = index.edition(edition_id)
    out = [rule_to_dict(index, r) for r in ed.rules.values()]
    out += [glossary_to_dict(g) for g in ed.glossary]
    return out


# -- the counterparts of a whole edition, kept on disk --

_LINKS_FORMAT = b"judge-export-links-3"
_LINKS_KEEP_SECONDS = 7 * 24 * 3600.0  # other editions' older tables (removed, older code) go
LinkDicts = dict[str, list[dict[str, Any]]]
# A kept link: `LinkRow`, as computed or as read back (its via then a list).
_Kept = tuple[str, str, str, float, bool, Sequence[str], bool, bool]
# Runs its work in a forked process and gives its pid; None: nothing run (`session._in_child`).
InChild = Callable[[Callable[[], None]], "int | None"]


def edition_links(
    conc: Concordance, edition_id: str, folder: Path | None, in_child: InChild | None = None
) -> LinkDicts:
    """`Link.to_dict` of the links of every rule of `edition_id` (`Concordance.rows_of`),
    by number. Kept under `folder`, named by the edition's cache key and every direct pair's
    (`direct_pairs_key`): a new edition, a new document or new code gives a new name, so a
    table on disk is never stale; the first export after such a change computes it again
    (over 29 editions, 2,500 rules each followed into 28 others), half of it in a process of
    its own when `in_child` runs one (`_rows_in_two`)."""
    path = _links_file(conc, edition_id, folder)
    numbers = conc.index.edition(edition_id).rules
    if path is not None:
        kept = _read_links(path, edition_id, numbers)
        if kept is not None:
            return kept
    rows = _rows_in_two(conc, edition_id, in_child) if in_child else conc.rows_of(edition_id)
    if path is not None:
        _write_links(path, rows)
    return _dicts(edition_id, rows)


def core_to_spare() -> bool:
    """Whether a second process would find a core of its own: more than one core, and a
    load over the last minute (this process's included) under one less than the cores. On
    a busy machine a child only takes time from its parent (both then copy the pages they
    share as they touch them)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    return cores > 1 and hasattr(os, "getloadavg") and os.getloadavg()[0] < cores - 0.5


def _rows_in_two(
    conc: Concordance, edition_id: str, in_child: InChild
) -> Mapping[str, Sequence[_Kept]]:
    """`conc.rows_of(edition_id)`, the second half of the rules walked by a child process
    (`in_child`: forked, on the other core) that sends its rows back through a pipe; all
    of them walked here when no child runs or it sends nothing whole."""
    numbers = list(conc.index.edition(edition_id).rules)
    mine, theirs = numbers[: len(numbers) // 2], numbers[len(numbers) // 2 :]
    conc.read_for_walk(edition_id)  # once, before the fork, rather than once in each
    read, write = os.pipe()

    def child() -> None:
        os.close(read)
        with open(write, "wb") as out:
            out.write(orjson.dumps(conc.rows_of(edition_id, theirs)))

    pid = in_child(child)
    os.close(write)
    try:
        with open(read, "rb") as received:
            rows: dict[str, Sequence[_Kept]] = dict(conc.rows_of(edition_id, mine))
            sent = received.read() if pid is not None else b""
    finally:
        if pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    try:
        found = orjson.loads(sent) if sent else None
    except orjson.JSONDecodeError:
        found = None
    if not isinstance(found, dict) or list(found) != theirs:
        found = conc.rows_of(edition_id, theirs)
    rows.update(found)
    return rows


def _links_file(conc: Concordance, edition_id: str, folder: Path | None) -> Path | None:
    key = conc.index.keys.get(edition_id)
    pairs = conc.direct_pairs_key() if folder is not None and key is not None else None
    if folder is None or key is None or pairs is None:
        return None
    name = hashlib.sha256(_LINKS_FORMAT + b"\0" + key.encode() + b"\0" + pairs.encode())
    # The edition's own prefix: writing its new table deletes its old ones.
    prefix = hashlib.sha256(edition_id.encode()).hexdigest()[:12]
    return folder / f"{prefix}-{name.hexdigest()[:24]}.json.z"


def _read_links(path: Path, edition_id: str, numbers: Iterable[str]) -> LinkDicts | None:
    """The table kept at `path` as `Link.to_dict` writes each link, or None (absent,
    unreadable, or not one for every rule)."""
    try:
        data = orjson.loads(zlib.decompress(path.read_bytes()))
        return _dicts(edition_id, {number: data[number] for number in numbers})
    except (OSError, ValueError, TypeError, KeyError, zlib.error):
        return None


def _dicts(edition_id: str, rows: Mapping[str, Iterable[_Kept]]) -> LinkDicts:
    """`Link.to_dict` of each kept row, from the rule it is kept for."""
    return {
        number: [
            {
                "from": {"edition": edition_id, "rule": number},
                "to": {"edition": to_edition, "rule": to_rule},
                "method": method,
                "confidence": round(confidence, 3),
                "moved": moved,
                "via": list(via),
                "approximate": approximate,
                "present": present,
            }
            for to_edition, to_rule, method, confidence, moved, via, approximate, present in found
        ]
        for number, found in rows.items()
    }


def _write_links(path: Path, rows: Mapping[str, Sequence[_Kept]]) -> None:
    """Keep `rows` at `path` (`publish`: a reader sees all or nothing), then forget the
    edition's other tables; a cache that cannot be written only costs the next export."""
    publish(path, zlib.compress(orjson.dumps(rows), 1))
    prefix = path.name.split("-", 1)[0]
    now = time.time()
    with contextlib.suppress(OSError):
        for old in path.parent.glob("*.json.z"):
            if old == path:
                continue
            if old.name.startswith(prefix + "-") or now - old.stat().st_mtime > _LINKS_KEEP_SECONDS:
                old.unlink(missing_ok=True)

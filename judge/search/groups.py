"""Copies of a rule across editions as one search hit: groups made from the concordance's
direct links (`ConcordanceGroups`), kept on disk for the searches after an ingest."""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
import orjson

from judge.rules.cache import publish
from judge.rules.index import RuleIndex

if TYPE_CHECKING:
    from numpy.typing import NDArray


class _LinkLike(Protocol):
    # Read-only members: the concordance's links are frozen dataclasses.
    @property
    def from_edition(self) -> str: ...
    @property
    def from_rule(self) -> str: ...
    @property
    def to_edition(self) -> str: ...
    @property
    def to_rule(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def approximate(self) -> bool: ...


class ConcordanceLike(Protocol):
    """What `ConcordanceGroups` reads of a `Concordance` (the search never imports it)."""

    index: RuleIndex

    def neighbours(self, edition: str) -> tuple[str, ...]: ...

    def pair_links(self, edition: str, target: str) -> Sequence[_LinkLike]: ...

    def direct_pairs_key(self) -> str | None: ...


_GROUPS_KEEP_SECONDS = 7 * 24 * 3600.0  # older group files (other stores, older code) go


def _groups_salt() -> str:
    """This module's code, in the name of the groups' file: a change rebuilds them."""
    try:
        return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]
    except OSError:
        return "-"


class _StoredRoots:
    """The groups as kept on disk (`_write`), read as they are: one edition's rules become a
    dict when a search first asks for one of them (a search looks up a few hundred rules of
    some editions, never all 55,000)."""

    def __init__(
        self, editions: list[str], rules: list[str], spans: list[int], rows: NDArray[np.int32]
    ) -> None:
        self._editions = editions
        self._rules = rules
        self._at = {ed: i for i, ed in enumerate(editions)}
        self._spans = spans
        self._rows = rows
        self._read: dict[str, dict[str, tuple[str, str]]] = {}

    def get(self, key: tuple[str, str]) -> tuple[str, str] | None:
        found = self._read.get(key[0])
        if found is None:
            found = self._read[key[0]] = self._edition(key[0])
        return found.get(key[1])

    def _edition(self, edition: str) -> dict[str, tuple[str, str]]:
        i = self._at.get(edition)
        if i is None:
            return {}
        rows = self._rows[self._spans[i] : self._spans[i + 1]].reshape(-1, 3).T.tolist()
        name, edition_of = self._rules.__getitem__, self._editions.__getitem__
        roots = zip(map(edition_of, rows[1]), map(name, rows[2]), strict=True)
        return dict(zip(map(name, rows[0]), roots, strict=True))


_Roots = dict[tuple[str, str], tuple[str, str]] | _StoredRoots


# (-confidence, from edition, from rule, to edition, to rule), a list each.
_Columns = tuple[list[float], list[str], list[str], list[str], list[str]]


class ConcordanceGroups:
    """A group key backed by the concordance (`judge.rules.concordance.Concordance`): two
    rules are copies when a chain of direct links joins them (fr-pre2009 420.5e, en-2008
    420.5e, en-2011 704.5k, fr-2024 704.5j: the legend rule), renumbered or not. Built once,
    from the direct pairs only (no chain is walked per search): links best first, each
    joining two groups unless they share an edition (a group holds one rule per edition, so
    that a doubtful link never folds two rules of one edition). A rule no link reaches keeps
    the default key (same number, same numbering)."""

    def __init__(self, concordance: ConcordanceLike, folder: Path | None = None) -> None:
        self._concordance = concordance
        self._root: _Roots | None = None
        self._numbering = {ed.id: ed.numbering for ed in concordance.index.editions}
        self._lock = threading.Lock()
        # Kept on disk, named by the direct pairs and this code: over 29 editions the build
        # reads 60,000 links (~0.6 s), which a search process should not pay.
        self._file: Path | None = None
        key = concordance.direct_pairs_key() if folder is not None else None
        if folder is not None and key is not None:
            self._file = folder / f"{key}-{_groups_salt()}.bin"

    def prepare(self) -> None:
        """Build the groups now and keep them on disk (after an ingest)."""
        self._roots()

    def __call__(self, edition: str, rule: str) -> Hashable:
        root = self._roots().get((edition, rule))
        if root is None:
            return (self._numbering.get(edition), rule)
        return root

    def _roots(self) -> _Roots:
        roots = self._root
        if roots is None:
            with self._lock:
                if self._root is None:
                    self._root = self._read() or self._write(self._build())
                roots = self._root
        return roots

    def _read(self) -> _StoredRoots | None:
        """The groups kept on disk, or None (absent, unreadable or not of this shape)."""
        if self._file is None:
            return None
        try:
            data = self._file.read_bytes()
            end = data.index(b"\n")
            head = orjson.loads(data[:end])
            editions, rules, spans = head["editions"], head["rules"], head["spans"]
            rows = np.frombuffer(data, dtype="<i4", offset=end + 1)
        except (OSError, ValueError, TypeError, KeyError):
            return None
        # one look at the whole table, without building it (a damaged file is built again)
        if not (
            type(editions) is list
            and type(rules) is list
            and all(type(x) is str for x in editions)
            and all(type(x) is str for x in rules)
            and type(spans) is list
            and len(spans) == len(editions) + 1
            and all(type(x) is int for x in spans)
            and spans == sorted(spans)
            and spans[0] == 0
            and spans[-1] == len(rows)
            and all(x % 3 == 0 for x in spans)
        ):
            return None
        table = rows.reshape(-1, 3)
        if len(table) and (
            int(table.min()) < 0
            or int(table[:, [0, 2]].max()) >= len(rules)
            or int(table[:, 1].max()) >= len(editions)
        ):
            return None
        return _StoredRoots(editions, rules, spans, rows)

    def _write(
        self, roots: dict[tuple[str, str], tuple[str, str]]
    ) -> dict[tuple[str, str], tuple[str, str]]:
        """Keep `roots` on disk (`publish`: a reader sees all or nothing): a line of JSON
        (the editions, the rule numbers, where each edition's rows start), then the rows
        (rule, root edition, root rule) as numbers, edition by edition. A cache that cannot
        be written only costs the next process the build."""
        if self._file is None:
            return roots
        editions: dict[str, int] = {}
        rules: dict[str, int] = {}
        by_edition: dict[str, list[int]] = {}
        for (ed, rule), (root_ed, root_rule) in roots.items():
            editions.setdefault(root_ed, len(editions))
            row = [
                rules.setdefault(rule, len(rules)),
                editions[root_ed],
                rules.setdefault(root_rule, len(rules)),
            ]
            by_edition.setdefault(ed, []).extend(row)
        for ed in by_edition:
            editions.setdefault(ed, len(editions))
        spans = [0]
        for ed in editions:
            spans.append(spans[-1] + len(by_edition.get(ed, ())))
        flat = [x for ed in editions for x in by_edition.get(ed, ())]
        head = orjson.dumps({"editions": list(editions), "rules": list(rules), "spans": spans})
        publish(self._file, head + b"\n" + np.asarray(flat, dtype="<i4").tobytes())
        with contextlib.suppress(OSError):
            for old in self._file.parent.iterdir():
                if old != self._file and time.time() - old.stat().st_mtime > _GROUPS_KEEP_SECONDS:
                    old.unlink()
        return roots

    def _build(self) -> dict[tuple[str, str], tuple[str, str]]:
        conc = self._concordance
        index = conc.index
        # A concordance that gives plain rows (`Concordance.exact_rows`) is read without a
        # link object per row.
        rows_of: Callable[[str, str], list[tuple[str, str, float]]] | None = getattr(
            conc, "exact_rows", None
        )
        # (-confidence, from edition, from rule, to edition, to rule) of each exact link, as
        # columns: joined best first, ties in a fixed order, whether the pairs were just
        # matched or read back (`_union`).
        links: _Columns = ([], [], [], [], [])
        conf, from_ed, from_rule, to_ed, to_rule = links
        done: set[frozenset[str]] = set()
        for ed in index.editions:
            for other in conc.neighbours(ed.id):
                pair = frozenset((ed.id, other))
                if pair in done:
                    continue
                done.add(pair)
                if rows_of is not None:
                    rows = rows_of(ed.id, other)
                else:
                    rows = [
                        (x.from_rule, x.to_rule, x.confidence)
                        for x in conc.pair_links(ed.id, other)
                        if not x.approximate
                    ]
                conf.extend([-c for _x, _y, c in rows])
                from_rule.extend([x for x, _y, _c in rows])
                to_rule.extend([y for _x, y, _c in rows])
                from_ed.extend([ed.id] * len(rows))
                to_ed.extend([other] * len(rows))
        return _union(links)


def _union(links: _Columns) -> dict[tuple[str, str], tuple[str, str]]:
    """Each rule (edition, number) linked to another, with the root of its group: the links
    (`links`: columns -confidence, from edition, from rule, to edition, to rule) joined in
    the order of their tuples (best first, ties in the order of their fields), two groups
    never joined when they would hold two rules of one edition, the larger group's root
    kept.

    Over integers: each field becomes its rank among the sorted values of its kind (the
    order of the links is that of their tuples), a rule the number edition × rules + rule,
    a group's editions a bit mask. The same groups and the same roots as over the tuples,
    in less time (60,000 links after each ingest)."""
    conf_list, from_ed, from_rule, to_ed, to_rule = links
    count = len(conf_list)
    if not count:
        return {}
    ed_names, ed_codes = np.unique(np.array(from_ed + to_ed), return_inverse=True)
    rule_names, rule_codes = np.unique(np.array(from_rule + to_rule), return_inverse=True)
    editions: list[str] = ed_names.tolist()
    rules: list[str] = rule_names.tolist()
    conf = np.asarray(conf_list, dtype=np.float64)
    fe, te = ed_codes[:count].astype(np.int64), ed_codes[count:].astype(np.int64)
    fr, tr = rule_codes[:count].astype(np.int64), rule_codes[count:].astype(np.int64)
    order = np.lexsort((tr, te, fr, fe, conf))  # stable, as the tuples' sort
    width = len(rules)
    sources = (fe * width + fr)[order].tolist()
    targets = (te * width + tr)[order].tolist()
    parent: dict[int, int] = {}
    masks: dict[int, int] = {}

    def find(node: int) -> int:
        up = parent.get(node)
        if up is None:
            parent[node] = node
            return node
        while up != node:  # path halving
            parent[node] = above = parent[up]
            node, up = above, parent[above]
        return node

    get = parent.get
    for a, b in zip(sources, targets, strict=True):
        # most rules are met once, or are their group's root: `find` for the others only
        up = get(a)
        if up is None:
            parent[a] = a
        elif up != a:
            a = find(a)
        up = get(b)
        if up is None:
            parent[b] = b
        elif up != b:
            b = find(b)
        if a == b:
            continue
        mask_a = masks.get(a, 1 << (a // width))
        mask_b = masks.get(b, 1 << (b // width))
        if mask_a & mask_b:
            continue
        if mask_a.bit_count() < mask_b.bit_count():
            a, b, mask_a, mask_b = b, a, mask_b, mask_a
        parent[b] = a
        masks[a] = mask_a | mask_b
        masks.pop(b, None)
    nodes = list(parent)
    roots = [find(node) for node in nodes]
    node_ed, node_rule = np.divmod(np.asarray(nodes, dtype=np.int64), width)
    root_ed, root_rule = np.divmod(np.asarray(roots, dtype=np.int64), width)
    ed_of, rule_of = editions.__getitem__, rules.__getitem__
    named = zip(map(ed_of, node_ed.tolist()), map(rule_of, node_rule.tolist()), strict=True)
    of_root = zip(map(ed_of, root_ed.tolist()), map(rule_of, root_rule.tolist()), strict=True)
    return dict(zip(named, of_root, strict=True))

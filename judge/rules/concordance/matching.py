"""The `Concordance`: links between every pair of editions of an index, found by the methods of
the package's docstring, composed through other editions, approximate where nothing closer is
known."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import heapq
import itertools
import threading
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

import orjson

from judge.rules.cache import publish
from judge.rules.concordance.curated import CuratedData, CuratedLink, load_curated
from judge.rules.concordance.graph import direct_pairs
from judge.rules.concordance.links import (
    METHOD_RANK,
    METHODS,
    Link,
    LinkRow,
    Method,
    Step,
    clamped,
    link_order,
    make_link,
    path_method,
    row_of,
    step_of,
)
from judge.rules.concordance.pairs import FILE_NAME, PairStore, StoredSide, pair_key
from judge.rules.concordance.texts import Comparables, match_texts
from judge.rules.concordance.translations import check_translation_pair, match_translations
from judge.rules.concordance.walk import Sides, latest_walk, walk_file, write_walk
from judge.rules.index import RuleIndex
from judge.rules.model import (
    HAS_TEXT,
    IN_ENGLISH,
    IN_FRENCH,
    PRESENT,
    Edition,
    LazyRules,
    covered_sections,
    rule_facts,
)
from judge.rules.numbers import canonical, kind_of, parent, sort_key

_STEPS_DIR = "steps"  # under the cache folder: each stored side's exact links, whole
_HOP_DECAY = 0.95  # per step of a chain, except along the editions of one language
_RULE_KINDS = ("rule", "subrule")
_SECTION_KINDS = ("section", "chapter")

Path_ = tuple[Link, ...]
# A rule reached by a chain: (score, last link, the rule it came from, steps).
Node = tuple[str, str]  # (edition, rule number)
# A rule reached by a chain: (score, its last step, the rule that step came from, steps).
_Reached = tuple[float, Step, Node, int]
# What a chain's link is made of: the editions passed through, the strongest method, the
# strongest but translation (`path_method`).
_Facts = tuple[tuple[str, ...], "Method", "Method | None"]
_Steps: TypeAlias = "Mapping[str, tuple[Step, ...]] | _ExactSteps"
_NOTHING: _Reached = (0.0, ("", 0.0, "same_number", False), ("", ""), 0)  # a chain scores > 0


@dataclass
class _PairResult:
    forward: Mapping[str, list[Link]] = field(default_factory=dict)
    backward: Mapping[str, list[Link]] = field(default_factory=dict)


_NO_LINKS = _PairResult()


class Concordance:
    """Links between every pair of editions of `index`: the pairs of `graph.direct_pairs`
    are matched (when first needed, newer edition first whatever the order of the asking,
    and kept in `folder`'s database when given), every other pair is composed through them.
    `build` computes every direct pair.

    Safe for concurrent readers: the computation of a pair (and of anything it fills) holds
    a lock, so that two threads asking for the same pair compute it once. The other memos
    (paths, presence) hold values that depend only on the pairs: a race computes one twice
    and stores equal values."""

    def __init__(
        self,
        index: RuleIndex,
        data: CuratedData | None = None,
        *,
        curated: bool = True,
        folder: Path | None = None,
    ) -> None:
        self.index = index
        self.data = data or load_curated()
        self.curated = curated
        self._lock = threading.RLock()
        self._store = PairStore(folder / FILE_NAME if folder is not None else None)
        self._steps_folder = folder / _STEPS_DIR if folder is not None else None
        self._steps_swept = False
        self._graph: dict[str, tuple[str, ...]] | None = None
        self._languages: dict[str, str] = {}
        self._rank: dict[str, int] = {}
        self._partners: dict[str, list[Edition]] = {}
        self._pairs: dict[tuple[str, str], _PairResult] = {}
        self._comparables = Comparables(self.data)
        self._paths: dict[tuple[str, str], dict[str, list[LinkRow]]] = {}
        self._translation: dict[tuple[str, str], bool] = {}
        self._present: dict[tuple[str, str], int] = {}  # rule_facts
        self._step_memo: dict[str, list[tuple[int, str, str, _Steps]]] = {}
        self._walk_sides: Sides | None = None
        self._walk_current = False  # whether `_walk_sides` are this state's
        self._whole = False
        self._number_keys: dict[str, tuple[int, int, int, int]] = {}
        self._coarse_links: dict[tuple[str, str], Mapping[str, list[Link]]] = {}
        self._edition_keys: dict[str, str] | None = None
        self._pair_keys: dict[tuple[str, str], str | None] = {}

    @classmethod
    def build(
        cls,
        index: RuleIndex,
        data: CuratedData | None = None,
        *,
        curated: bool = True,
        folder: Path | None = None,
    ) -> Concordance:
        conc = cls(index, data, curated=curated, folder=folder)
        conc.warm()
        return conc

    def warm(self) -> None:
        """Compute (or read) every direct pair, and forget the stored pairs of editions that
        are gone: what `judge ingest` leaves for the commands after it."""
        keys = set()
        for a in self.index.editions:
            for b in self.neighbours(a.id):
                self._pair(a.id, b)
                key = self._key(a.id, b)
                if key is not None:
                    keys.add(key)
        if len(self.index.keys) == len(self.index.editions):
            self._store.keep_only(keys)

    def close(self) -> None:
        self._store.close()

    def neighbours(self, edition: str) -> tuple[str, ...]:
        """The editions linked directly to `edition`, newest first."""
        graph = self._graph
        if graph is None:
            with self._lock:
                graph = self._graph
                if graph is None:
                    eds = self.index.editions
                    covered = {e.id: covered_sections(e) for e in eds}
                    pairs = direct_pairs(eds, self.data, covered)
                    graph = {
                        e.id: tuple(o.id for o in eds if frozenset((e.id, o.id)) in pairs)
                        for e in eds
                    }
                    self._graph = graph
        return graph.get(edition, ())

    # -- public queries --

    def direct(self, edition: str, number: str, target: str) -> list[Link]:
        """Links found by one method, without composition."""
        num = canonical(number) or number
        if edition == target:
            return []
        return list(self._pair_links(edition, target).get(num, []))

    def links(self, edition: str, number: str, *, approximate: bool = True) -> list[Link]:
        """Counterparts of `number` of `edition` in every other edition, best first per edition
        (editions newest first)."""
        self.index.edition(edition)
        num = canonical(number)
        if num is None:
            return []
        return [Link(edition, num, *row) for row in self._rows(edition, num, approximate)]

    def rows_of(
        self, edition: str, numbers: Iterable[str] | None = None
    ) -> dict[str, list[LinkRow]]:
        """`links` of every rule of `edition` (or of `numbers`, some of them) as rows, by
        number in the edition's order: what `judge export` writes. The same links as `links`
        asked rule by rule (a test checks it); only faster, each side of every pair being
        read whole once (`walk_all`)."""
        self.walk_all()
        if numbers is None:
            numbers = self.index.edition(edition).rules
        return {number: self._rows(edition, number) for number in numbers}

    def read_for_walk(self, edition: str) -> None:
        """Read now all that `rows_of(edition)` reads from the pairs' database (each side a
        chain may follow, from the walk file when there is one; the approximate links of the
        edition's own pairs; which editions translate which) and from the editions' caches:
        a process forked after it walks the edition without opening any of them again. The
        walk file of this state of the store is written if it was not there."""
        self.walk_all()
        for ed in self.index.editions:
            self._steps(ed.id)
            self._translations_of(ed)
            rules = ed.rules
            if isinstance(rules, LazyRules):
                rules.facts()
        for other in self.neighbours(edition):
            self._coarse(edition, other)
        self._keep_walk()

    def _rows(self, edition: str, number: str, approximate: bool = True) -> list[LinkRow]:
        found = self._exact(edition, number)
        others = [ed.id for ed in self.index.editions if ed.id != edition]
        missing = [ed_id for ed_id in others if ed_id not in found]
        approx = self._approximate(edition, number, missing) if approximate and missing else {}
        out: list[LinkRow] = []
        for ed_id in others:
            rows = found.get(ed_id)
            if rows:
                out.extend(rows)
            elif ed_id in approx:
                out.append(approx[ed_id])
        return out

    def walk_all(self) -> None:
        """From now on, read each side of a pair whole when a chain first reaches it,
        rather than number by number: for callers that follow every rule of an edition."""
        with self._lock:
            if not self._whole:
                self._whole = True
                self._step_memo.clear()

    def counterpart(
        self, edition: str, number: str, target: str, *, approximate: bool = True
    ) -> Link | None:
        """The best counterpart of `number` of `edition` in `target`, or None."""
        self.index.edition(target)
        num = canonical(number)
        if num is None:
            return None
        if edition == target:
            if num in self.index.edition(edition).rules:
                return self._checked(make_link(edition, num, target, num, "same_number", 1.0))
            return None
        # A direct link wins over any chain: no need to walk the graph for it.
        direct = [x for x in self._pair_links(edition, target).get(num, []) if not x.approximate]
        if direct:
            return min(direct, key=link_order)
        rows = self._exact(edition, num).get(target)
        if not rows and approximate:
            rows = list(self._approximate(edition, num, (target,)).values())
        return Link(edition, num, *rows[0]) if rows else None

    def pair_links(self, edition: str, target: str) -> list[Link]:
        """Every direct link from `edition` to `target` (for reports and benchmarks)."""
        return [link for links in self._pair_links(edition, target).values() for link in links]

    def exact_rows(self, edition: str, target: str) -> list[tuple[str, str, float]]:
        """(from rule, to rule, confidence) of every exact direct link from `edition` to
        `target`: what `pair_links` holds, without a `Link` per row (the copies' groups
        read 60,000 of them after each ingest), from the side's steps once they are read
        whole (`keep_steps` reads them all)."""
        for _bit, other, _language, steps in self._step_memo.get(edition, ()):
            if other == target and isinstance(steps, dict):
                return [(num, step[0], step[1]) for num, found in steps.items() for step in found]
        side = self._pair_links(edition, target)
        if isinstance(side, StoredSide):
            return side.exact_rows()
        return [
            (lk.from_rule, lk.to_rule, lk.confidence)
            for links in side.values()
            for lk in links
            if not lk.approximate
        ]

    def is_present(self, edition: str, number: str) -> bool:
        """Whether rule `number` is in the corpus of `edition` with a text: its own, or one of
        its sub-rules' (a section). A number known only by its title (a table of contents, a
        citation) is not."""
        return bool(self._facts(edition, number) & PRESENT)

    def _facts(self, edition: str, number: str) -> int:
        """`rule_facts` of `number` in `edition` (0: not in it), from the cache when the
        edition's rules are not read: an export asks this of 5,000 rules of other editions."""
        key = (edition, number)
        known = self._present.get(key)
        if known is None:
            rules = self.index.edition(edition).rules
            stored = rules.facts() if isinstance(rules, LazyRules) else None
            if stored is not None:
                known = stored.get(number, 0)
            else:
                rule = rules.get(number)
                known = 0 if rule is None else rule_facts({number: rule})[number] & ~PRESENT
                if rule is not None and (
                    (not rule.title_only and bool(rule.text.strip()))
                    or any(self.is_present(edition, child) for child in rule.children)
                ):
                    known |= PRESENT
            self._present[key] = known
        return known

    def is_translation_pair(self, a: str, b: str) -> bool:
        """Two editions in two languages that share the numbering, number for number."""
        A, B = self.index.edition(a), self.index.edition(b)
        return self._translation_pair(A, B)

    def _checked(self, link: Link) -> Link:
        present = self.is_present(link.to_edition, link.to_rule)
        return link if link.present == present else link.with_present(present)

    # -- paths --

    def _exact(self, edition: str, number: str) -> dict[str, list[LinkRow]]:
        """Exact links of `number` in every other edition: direct ones, else the best chain."""
        key = (edition, number)
        cached = self._paths.get(key)
        if cached is not None:
            return cached
        result: dict[str, list[LinkRow]] = {}
        # Only neighbours have direct links: the exact ones are the steps of a chain.
        order = self._step_order
        for _bit, other, _language, side in self._steps(edition):
            found = side.get(number)
            if found:
                result[other] = [
                    (other, to, method, confidence, number != to, (), False, present)
                    for to, confidence, method, present in sorted(found, key=order)
                ]
        # The best chain per edition, in `link_order`, composed once it is chosen. Most
        # editions are reached at one rule only: ranks are made only between rivals.
        chosen: dict[str, Node] = {}
        chains = self._chains(edition, number)
        rank = self._chain_rank
        for node, reached in chains.items():
            ed_id = node[0]
            if reached[3] < 2 or ed_id in result:
                continue
            current = chosen.get(ed_id)
            if current is None or rank(node, reached) < rank(current, chains[current]):
                chosen[ed_id] = node
        facts: dict[Node, _Facts] = {}
        language = self._language(edition)
        for ed_id, node in chosen.items():
            same = self._language(ed_id) == language
            result[ed_id] = [_composed(key, node, chains, same, facts)]
        self._paths[key] = result
        return result

    def _chains(self, edition: str, number: str) -> dict[Node, _Reached]:
        """The best chain of exact links to every rule it reaches, through direct pairs, best
        first (each rule is expanded once). A chain along the editions of one language loses
        nothing per step (2003 → 2025 is 24 steps); any other chain loses `_HOP_DECAY` per
        step after the first. Each rule (edition, number) reached is (score, its last step,
        the rule that step came from, steps); the source itself is not in the result.

        The hot loop of `judge export` (2,500 rules, 50,000 rules reached): editions are
        bits of a mask (those a chain has passed through), a pair's exact links are read
        once per side as plain rows (`_steps`), and a chain is kept as its last step and
        the rule before it, not as a tuple of links."""
        rank = self._rank_of()
        language = self._language(edition)
        steps = self._steps
        best: dict[Node, _Reached] = {}
        order = itertools.count()
        start = (edition, number)
        heap: list[tuple[float, int, int, Node, int, bool]] = [
            (-1.0, 0, next(order), start, 1 << rank[edition], True)
        ]
        done: set[Node] = set()
        pop, push = heapq.heappop, heapq.heappush
        get = best.get
        while heap:
            neg, hops, _n, node, seen, one_language = pop(heap)
            if node in done:
                continue
            done.add(node)
            num, reached, after = node[1], -neg, hops + 1
            for bit, other, other_language, side in steps(node[0]):
                if seen & bit:
                    continue
                found = side.get(num)
                if not found:
                    continue
                along = one_language and other_language == language
                decay = _HOP_DECAY if hops and not along else 1.0
                for step in found:
                    score = reached * step[1] * decay
                    target = (other, step[0])
                    # No step gains: a rule already expanded was reached at least as well.
                    if get(target, _NOTHING)[0] >= score:
                        continue
                    best[target] = (score, step, node, after)
                    push(heap, (-score, after, next(order), target, seen | bit, along))
        return best

    def _steps(self, edition: str) -> list[tuple[int, str, str, _Steps]]:
        """For each neighbour of `edition` (newest first): its bit, its id, its language and
        the exact links towards it as `Step`s, by number (each side read whole once
        `walk_all` was called, else number by number)."""
        known = self._step_memo.get(edition)
        if known is None:
            rank = self._rank_of()
            known = [
                (1 << rank[o], o, self._language(o), self._exact_side(edition, o))
                for o in self.neighbours(edition)
            ]
            self._step_memo[edition] = known
        return known

    def _exact_side(self, a: str, b: str) -> _Steps:
        side = self._pair_links(a, b)
        if not self._whole:
            return _ExactSteps(side)
        name = self._side_name(a, b)
        walked = self._walk().get(name) if name is not None else None
        if walked is not None:
            return walked
        if isinstance(side, StoredSide):
            return self._stored_steps(a, b, side)
        return _steps_of(side)

    def _walk(self) -> Sides:
        """The sides kept in the walk file (`walk.latest_walk`), read once: this state's,
        else the last one written (its sides whose pair did not change)."""
        with self._lock:
            if self._walk_sides is None:
                key = self.direct_pairs_key()
                folder = self._steps_folder
                found: tuple[Sides, bool] = ({}, False)
                if folder is not None and key is not None:
                    found = latest_walk(folder, key)
                self._walk_sides, self._walk_current = found
            return self._walk_sides

    def _keep_walk(self) -> None:
        """Write this state's walk file from the sides read whole, unless it was read (the
        last walk's sides taken as they are: `write_walk`)."""
        folder, key = self._steps_folder, self.direct_pairs_key()
        last = self._walk()
        if folder is None or key is None or self._walk_current:
            return
        sides: Sides = {}
        for ed in self.index.editions:
            for _bit, other, _language, side in self._steps(ed.id):
                name = self._side_name(ed.id, other)
                if name is not None and isinstance(side, dict):
                    sides[name] = side
        write_walk(walk_file(folder, key), sides, last)
        self._walk_current = True

    def _stored_steps(self, a: str, b: str, side: StoredSide) -> dict[str, tuple[Step, ...]]:
        """`side.exact_steps()`, kept in a file of its own named by the pair's key: SQLite
        gives the 120,000 rows of a whole walk in 0.7 s, the files in 0.1 s. A pair's key
        outlives the ingest of another edition, so the first export after one reads the
        pairs that did not change from their files."""
        path = self._steps_file(a, b)
        if path is None:
            return side.exact_steps()
        kept = _read_steps(path)
        if kept is None:
            kept = side.exact_steps()
            self._sweep_steps()
            _write_steps(path, kept)
        return kept

    def keep_steps(self) -> None:
        """Write the steps file (`_stored_steps`) of each side of a direct pair that has none
        (for the pairs just matched, from their links in memory), then the walk file of the
        store as it now is (`walk`), from the last one's sides where their pairs did not
        change: what `judge ingest` leaves, so that the first export after it reads 30,000
        objects rather than 226 files and SQLite."""
        self.walk_all()
        for ed in self.index.editions:
            # each side whole: from the last walk, memory, its file or the database
            for _bit, other, _language, steps in self._steps(ed.id):
                path = self._steps_file(ed.id, other)
                if path is None or path.exists() or not isinstance(steps, dict):
                    continue
                self._sweep_steps()
                _write_steps(path, steps)
        self._keep_walk()

    def _side_name(self, a: str, b: str) -> str | None:
        """The name of the side `a` → `b`: its pair's key and direction (None: no key)."""
        key = self._key(a, b)
        if key is None:
            return None
        first, _second = self._newer_first(a, b)
        return f"{key}-{0 if a == first else 1}"

    def _steps_file(self, a: str, b: str) -> Path | None:
        name = self._side_name(a, b)
        if self._steps_folder is None or name is None:
            return None
        return self._steps_folder / f"{name}.json.z"

    def _sweep_steps(self) -> None:
        """Forget the files of pairs that are no longer direct (editions removed or
        replaced, older code), once per process."""
        if self._steps_swept or self._steps_folder is None:
            return
        self._steps_swept = True
        keys = {
            self._key(ed.id, other)
            for ed in self.index.editions
            for other in self.neighbours(ed.id)
        }
        with contextlib.suppress(OSError):
            for path in self._steps_folder.glob("*.json.z"):
                if path.name.split("-", 1)[0] not in keys:
                    path.unlink(missing_ok=True)

    def _step_order(self, step: Step) -> tuple[float, int, tuple[int, int, int, int]]:
        """`link_order` of the direct link a step is."""
        return (-step[1], 0, self._number_key(step[0]))

    def _coarse(self, edition: str, target: str) -> Mapping[str, list[Link]]:
        """The approximate direct links from `edition` to `target` (a curated table that
        names only a section), by number, read once."""
        key = (edition, target)
        known = self._coarse_links.get(key)
        if known is None:
            side = self._pair_links(edition, target)
            if isinstance(side, StoredSide):
                known = side.approximate_links()
            else:
                known = {}
                for number, links in side.items():
                    found = [lk for lk in links if lk.approximate]
                    if found:
                        known[number] = found
            self._coarse_links[key] = known
        return known

    def _chain_rank(
        self, node: Node, reached: _Reached
    ) -> tuple[float, int, tuple[int, int, int, int]]:
        """`link_order` of the link a chain would compose into (`_composed`)."""
        return (-round(min(reached[0], 1.0), 4), reached[3] - 1, self._number_key(node[1]))

    def _number_key(self, number: str) -> tuple[int, int, int, int]:
        known = self._number_keys.get(number)
        if known is None:
            known = sort_key(number) if canonical(number) else (0, 0, 0, 0)
            self._number_keys[number] = known
        return known

    def _language(self, edition: str) -> str:
        languages = self._languages
        if not languages:
            languages.update((e.id, e.language) for e in self.index.editions)
        return languages[edition]

    def _approximate(self, edition: str, number: str, targets: Iterable[str]) -> dict[str, LinkRow]:
        """For each of `targets` (editions with no exact link of `number`): the counterpart of
        the nearest ancestor that has one, or the number its move implies when the rule itself
        is not in the target's corpus (`present` says so). All the targets of a rule at once:
        what they share (the rule's exact links, its sections') is looked up once."""
        src = self.index.edition(edition)
        exact = self._exact(edition, number)
        neighbours = self.neighbours(edition)
        sections: list[tuple[str, dict[str, list[LinkRow]]]] | None = None
        out: dict[str, LinkRow] = {}
        for target in targets:
            row = None
            if target in neighbours:
                # A table that names only the section (408.1i → 116, the special actions)
                if self._whole:
                    coarse = self._coarse(edition, target).get(number)
                else:  # a rule alone: its links are read already
                    side = self._pair_links(edition, target)
                    coarse = [x for x in side.get(number, ()) if x.approximate]
                if coarse:
                    row = row_of(min(coarse, key=link_order))
            tgt = self.index.edition(target)
            if row is None:
                row = self._through_translation(src, number, tgt, exact)
            if row is None:
                if sections is None:
                    sections = self._sections_exact(edition, number)
                row = self._through_ancestor(src, number, tgt, sections)
            if row is not None:
                present = self.is_present(target, row[1])
                out[target] = row if row[7] == present else (*row[:7], present)
        return out

    def _sections_exact(
        self, edition: str, number: str
    ) -> list[tuple[str, dict[str, list[LinkRow]]]]:
        """The exact links of each section above `number`, nearest first (a chapter says too
        little)."""
        out = []
        for anc in _ancestors(number):
            if kind_of(anc) == "chapter":
                break
            out.append((anc, self._exact(edition, anc)))
        return out

    def _through_translation(
        self, src: Edition, number: str, tgt: Edition, exact: Mapping[str, list[LinkRow]]
    ) -> LinkRow | None:
        """A translation of the target (same numbering, number for number) that has the rule
        (`exact`, its exact links): the target's number is the same, though its text is not
        in the corpus."""
        for partner in self._translations_of(tgt):
            if partner.id == src.id or not exact.get(partner.id):
                continue
            _ed, to_rule, method, confidence, _moved, via, _approx, _present = exact[partner.id][0]
            return (
                tgt.id,
                to_rule,
                path_method([method, "translation"], src.language == tgt.language),
                clamped(confidence * 0.9),
                number != to_rule,
                (*via, partner.id),
                True,
                True,  # checked by `_approximate`
            )
        return None

    def _translations_of(self, tgt: Edition) -> list[Edition]:
        """The editions that translate `tgt` number for number, newest first (memoised: the
        answer depends only on the pairs)."""
        known = self._partners.get(tgt.id)
        if known is None:
            known = [
                p for p in self.index.editions if p.id != tgt.id and self._translation_pair(p, tgt)
            ]
            self._partners[tgt.id] = known
        return known

    def _through_ancestor(
        self,
        src: Edition,
        number: str,
        tgt: Edition,
        sections: list[tuple[str, dict[str, list[LinkRow]]]],
    ) -> LinkRow | None:
        """The counterpart of the nearest section that has one (`sections`: theirs, nearest
        first): the number its move implies (2011's 119.3 → 2024's 120.3), else the section
        itself."""
        for anc, exact in sections:
            rows = exact.get(tgt.id)
            if not rows:
                continue
            _ed, best_rule, method, best_confidence, moved, via, _approx, _present = rows[0]
            shifted = self._shift(src, tgt, number, anc, best_rule, method)
            if shifted is not None:
                factor = 0.9 if method == "translation" and not moved else 0.6
                to_rule, confidence = shifted, best_confidence * factor
            else:
                to_rule, confidence = best_rule, best_confidence * 0.5
            # `present` is checked by `_approximate`
            return (
                tgt.id,
                to_rule,
                method,
                clamped(confidence),
                number != to_rule,
                via,
                True,
                True,
            )
        return None

    def _shift(
        self, src: Edition, tgt: Edition, number: str, anc: str, to_rule: str, method: Method
    ) -> str | None:
        """The number `number` takes when its section `anc` moves to `to_rule` (by
        `method`), or None."""
        if src.numbering != tgt.numbering or kind_of(anc) != "section" or method == "curated":
            return None
        if kind_of(to_rule) != "section":
            return None
        shifted = canonical(to_rule + number[len(anc) :])
        if shifted is None:
            return None
        here, there = self._facts(src.id, number), self._facts(tgt.id, shifted)
        if here & HAS_TEXT and there & HAS_TEXT and _language(here, src) == _language(there, tgt):
            return None  # both texts were there to compare, and they did not match
        return shifted

    # -- pairs --

    def _pair_links(self, a: str, b: str) -> Mapping[str, list[Link]]:
        return self._pair(a, b).forward

    def _pair(self, a: str, b: str) -> _PairResult:
        known = self._pairs.get((a, b))
        if known is not None:
            return known
        if b not in self.neighbours(a):
            return _NO_LINKS
        with self._lock:
            known = self._pairs.get((a, b))  # computed while this thread waited
            if known is not None:
                return known
            first, second = self._newer_first(a, b)
            result = self._stored_pair(first, second) or self._compute_pair(first, second)
            # Published whole, the reverse first: a reader never sees half a pair.
            self._pairs[(second, first)] = _PairResult(result.backward, result.forward)
            self._pairs[(first, second)] = result
            return self._pairs[(a, b)]

    def _newer_first(self, a: str, b: str) -> tuple[str, str]:
        """The direction every pair is matched and stored in, whatever the asking."""
        rank = self._rank_of()
        return (a, b) if rank[a] < rank[b] else (b, a)

    def direct_pairs_key(self) -> str | None:
        """A name for the links of every direct pair (their editions' cache keys and the
        curated data, as each pair is stored): None when an edition has no cache key."""
        parts: list[str] = []
        for ed in self.index.editions:
            for other in self.neighbours(ed.id):
                if ed.id < other:
                    key = self._key(ed.id, other)
                    if key is None:
                        return None
                    parts.append(key)
        return hashlib.sha256("\0".join(sorted(parts)).encode()).hexdigest()[:24]

    def _rank_of(self) -> dict[str, int]:
        """Each edition's place in the index, newest first."""
        rank = self._rank
        if not rank:
            rank.update((e.id, i) for i, e in enumerate(self.index.editions))
        return rank

    def _key(self, a: str, b: str) -> str | None:
        """The key the pair `a`, `b` is stored under (None: an edition has no cache key),
        memoised: an export names its 226 sides' files twice."""
        known = self._pair_keys.get((a, b), "")
        if known != "":
            return known
        keys = self._edition_keys
        if keys is None:
            keys = self._edition_keys = self.index.keys
        found = None
        if a in keys and b in keys:
            first, second = self._newer_first(a, b)
            curated = self.data.digest if self.curated else "-"
            found = pair_key(keys[first], keys[second], curated)
        self._pair_keys[(a, b)] = found
        return found

    def _stored_pair(self, a: str, b: str) -> _PairResult | None:
        key = self._key(a, b)
        if key is None:
            return None
        found, translation = self._store.stored(key)
        if not found:
            return None
        if translation is not None:
            ids = (a, b) if a < b else (b, a)
            self._translation[ids] = translation
        return _PairResult(
            self._store.side(key, a, b, backward=False), self._store.side(key, a, b, backward=True)
        )

    def _compute_pair(self, a: str, b: str) -> _PairResult:
        A, B = self.index.edition(a), self.index.edition(b)
        forward: dict[str, list[Link]] = {}
        backward: dict[str, list[Link]] = {}
        for link in self._compute(A, B):
            # A link never lands outside the corpus; it may start outside it (a curated
            # number that an old text cites, such as 314).
            if link.to_rule in B.rules:
                forward.setdefault(link.from_rule, []).append(self._checked(link))
            if link.from_rule in A.rules:
                back = self._checked(link.reversed())
                backward.setdefault(back.from_rule, []).append(back)
        for d in (forward, backward):
            for k in d:
                d[k].sort(key=link_order)
        key = self._key(a, b)
        if key is not None:
            ids = (a, b) if a < b else (b, a)
            translation = self._translation.get(ids)
            self._store.save(key, a, b, translation, (forward, backward))
        return _PairResult(forward, backward)

    def _compute(self, A: Edition, B: Edition) -> list[Link]:
        links: list[Link] = []
        curated, sources = self._curated(A, B) if self.curated else ([], set())
        links += curated
        # Sections that a table renumbers (its "from" side) are left to the table; their
        # targets may still match other sections by title (405 and 412 both went to 604).
        skip_a = {n for e, n in sources if e == A.id and kind_of(n) in _SECTION_KINDS}
        skip_b = {n for e, n in sources if e == B.id and kind_of(n) in _SECTION_KINDS}
        claimed_a = {link.from_rule for link in curated if kind_of(link.from_rule) in _RULE_KINDS}
        claimed_b = {link.to_rule for link in curated if kind_of(link.to_rule) in _RULE_KINDS}
        if A.language == B.language:
            from judge.rules.concordance.sections import match_sections  # an ingest's

            sections = match_sections(A, B, skip_a, skip_b)
            links += [make_link(A.id, sa, B.id, sb, m, c) for sa, sb, m, c in sections]
            pairs = sections + [
                (link.from_rule, link.to_rule, link.method, link.confidence)
                for link in curated
                if kind_of(link.from_rule) == "section" and kind_of(link.to_rule) == "section"
            ]
            links += match_texts(self._comparables, A, B, pairs, claimed_a, claimed_b)
        elif A.numbering == B.numbering:
            paired = self._translation_pair(A, B)
            links += match_translations(self._comparables, A, B, paired, claimed_a, claimed_b)
        return links

    def _curated(self, A: Edition, B: Edition) -> tuple[list[Link], set[tuple[str, str]]]:
        """Links from the tables that fit, all from A to B, and the numbers the tables
        renumber, as (edition, number)."""
        out = []
        sources: set[tuple[str, str]] = set()
        for table in self.data.tables:
            for src, dst, flip in ((A, B, False), (B, A, True)):
                if not (table.from_.fits(src) and table.to.fits(dst)):
                    continue
                for cl in table.links:
                    if cl.to_rule not in dst.rules:
                        continue  # the target is not in this edition's corpus
                    link = make_link(
                        src.id,
                        cl.from_rule,
                        dst.id,
                        cl.to_rule,
                        "curated",
                        cl.confidence,
                        approximate=_coarser(cl),
                    )
                    out.append(link.reversed() if flip else link)
                    sources.add((src.id, cl.from_rule))
        return out, sources

    # -- translations --

    def _translation_pair(self, A: Edition, B: Edition) -> bool:
        if A.language == B.language or A.numbering != B.numbering:
            return False
        key = (A.id, B.id) if A.id < B.id else (B.id, A.id)
        known = self._translation.get(key)
        if known is None:
            with self._lock:
                known = self._translation.get(key)
                stored = self._key(A.id, B.id)
                if known is None and stored is not None:
                    known = self._store.stored(stored)[1]  # kept with the pair
                if known is None:
                    known = check_translation_pair(A, B, self.data)
                self._translation[key] = known
        return known


def _language(facts: int, edition: Edition) -> str:
    """`language_of` the rule whose `rule_facts` are `facts`."""
    if facts & IN_FRENCH:
        return "fr"
    return "en" if facts & IN_ENGLISH else edition.language


@functools.cache
def _ancestors(number: str) -> tuple[str, ...]:
    out = []
    cur = parent(number)
    while cur is not None:
        out.append(cur)
        cur = parent(cur)
    return tuple(out)


def _coarser(cl: CuratedLink) -> bool:
    rank = {"chapter": 0, "section": 1, "rule": 2, "subrule": 3}
    return rank[kind_of(cl.to_rule)] < rank[kind_of(cl.from_rule)] and kind_of(cl.to_rule) in (
        "chapter",
        "section",
    )


def _steps_of(side: Mapping[str, list[Link]]) -> dict[str, tuple[Step, ...]]:
    """The exact links of a side in memory as `Step`s, by number (`StoredSide.exact_steps`
    for one in the database)."""
    table: dict[str, tuple[Step, ...]] = {}
    for number, links in side.items():
        found = tuple(step_of(lk) for lk in links if not lk.approximate)
        if found:
            table[number] = found
    return table


def _write_steps(path: Path, steps: Mapping[str, tuple[Step, ...]]) -> None:
    """Keep `steps` at `path` as columns (the numbers, how many steps each has, then each
    field of the steps in turn), which `_read_steps` checks and turns back into steps
    without a Python loop per step: a walk reads 120,000 of them."""
    numbers = list(steps)
    flat = [step for number in numbers for step in steps[number]]
    columns = {
        "numbers": numbers,
        "counts": [len(steps[number]) for number in numbers],
        "to": [step[0] for step in flat],
        "confidence": [step[1] for step in flat],
        "method": [_METHOD_CODE[step[2]] for step in flat],
        "present": [step[3] for step in flat],
    }
    publish(path, zlib.compress(orjson.dumps(columns), 1))


def _read_steps(path: Path) -> dict[str, tuple[Step, ...]] | None:
    """The steps `_write_steps` kept at `path`, or None (absent, unreadable, or not columns
    this code wrote: every value's type is checked, column by column)."""
    try:
        data = orjson.loads(zlib.decompress(path.read_bytes()))
        numbers, counts = data["numbers"], data["counts"]
        to, confidence, method, present = (
            data["to"],
            data["confidence"],
            data["method"],
            data["present"],
        )
        columns = (numbers, counts, to, confidence, method, present)
        if not all(type(column) is list for column in columns):
            return None
        if not (
            len(numbers) == len(counts)
            and sum(counts) == len(to) == len(confidence) == len(method) == len(present)
            and set(map(type, numbers)) <= {str}
            and set(map(type, counts)) <= {int}
            and min(counts, default=0) >= 0
            and set(map(type, to)) <= {str}
            and set(map(type, confidence)) <= {float}
            and set(map(type, method)) <= {int}
            and set(method) <= set(range(len(METHODS)))
            and set(map(type, present)) <= {bool}
        ):
            return None
        steps: tuple[Step, ...] = tuple(
            zip(to, confidence, map(METHODS.__getitem__, method), present, strict=True)
        )
        out: dict[str, tuple[Step, ...]] = {}
        start = 0
        for number, count in zip(numbers, counts, strict=True):
            out[number] = steps[start : start + count]
            start += count
    except (OSError, ValueError, TypeError, KeyError, zlib.error):
        return None
    return out


_METHOD_CODE: dict[Method, int] = {m: i for i, m in enumerate(METHODS)}


class _ExactSteps:
    """The exact (not approximate) links of one side of a pair as `Step`s, by number, each
    number read once."""

    __slots__ = ("_memo", "_side")

    def __init__(self, side: Mapping[str, list[Link]]) -> None:
        self._side = side
        self._memo: dict[str, tuple[Step, ...]] = {}

    def get(self, number: str, default: tuple[Step, ...] = ()) -> tuple[Step, ...]:
        known = self._memo.get(number)
        if known is None:
            links = self._side.get(number, ())
            known = self._memo[number] = tuple(step_of(lk) for lk in links if not lk.approximate)
        return known or default


def _composed(
    start: Node,
    end: Node,
    chains: Mapping[Node, _Reached],
    same: bool,
    memo: dict[Node, _Facts],
) -> LinkRow:
    """The link of the chain from `start` to `end` (see `_chains`): what `compose` makes of
    its links (`path_method` for its method)."""
    score, last, _before, _hops = chains[end]
    via, strongest, not_translation = _chain_facts(start, end, chains, memo)
    return (
        end[0],
        end[1],
        (not_translation or "same_number") if same else strongest,
        clamped(score),
        start[1] != end[1],
        via,
        False,  # a chain holds exact links only
        last[3],  # the last step's target was checked when its pair was made
    )


def _chain_facts(
    start: Node, end: Node, chains: Mapping[Node, _Reached], memo: dict[Node, _Facts]
) -> _Facts:
    """For the chain from `start` to `end`: the editions it passes through, its strongest
    method, and its strongest method other than translation (None: translations only).
    The rule each step came from had been expanded before the step was made, its own chain
    final by then: following the rules back gives the chain as it was found, and what two
    chains share is followed once (`memo`)."""
    pending: list[Node] = []
    node = end
    while node != start and node not in memo:
        pending.append(node)
        node = chains[node][2]
    facts = memo.get(node)
    for node in reversed(pending):
        _score, step, before, _hops = chains[node]
        method = step[2]
        if facts is None:  # the first step
            facts = ((), method, None if method == "translation" else method)
        else:
            via, strongest, other = facts
            if METHOD_RANK[method] > METHOD_RANK[strongest]:
                strongest = method
            if method != "translation" and (
                other is None or METHOD_RANK[method] > METHOD_RANK[other]
            ):
                other = method
            facts = ((*via, before[0]), strongest, other)
        memo[node] = facts
    assert facts is not None  # `end` is not `start`
    return facts

"""The façade: one `Judge` per store generation, the only door the CLI and the app use.

A Judge owns the rule index of the store as it was when it was opened, and builds on first
use (once, under a lock, for every thread) the concordance and the search index of that
same rule index. Every query returns a frozen view with one `to_dict()`: the `--json`
shape. Writing to the store (`ingest`, `remove`) starts a new generation: open a new Judge
to read it."""

from __future__ import annotations

import contextlib
import gc
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from judge.rules import export, store
from judge.rules.decode import display_name
from judge.rules.errors import JudgeError
from judge.rules.export import Chunk
from judge.rules.index import CORPUS_DIR, Citer, RuleIndex, load_index, parse_edition
from judge.rules.model import Edition, Layout, Reference, Rule
from judge.rules.references import nearest_title

if TYPE_CHECKING:
    from judge.engine import Board, LoadedBoard, Resolution, Ruleset, RuleText
    from judge.rules.concordance import Comparison, Concordance, DiffPart, Link
    from judge.rules.history import Changes, History
    from judge.search import Searcher, SearchResult
    from judge.search.groups import ConcordanceGroups

ProgressCallback = Callable[[int, int], None]


# --- the store's generation ------------------------------------------------------------------


@dataclass(frozen=True)
class Generation:
    """A cheap stamp of a store: its home and, for the shipped manifest and each stored
    edition, the time its description was written. It changes with every ingest or removal."""

    home: str
    stamp: tuple[tuple[str, int], ...]

    @property
    def key(self) -> str:
        return repr((self.home, self.stamp))


def generation(home: Path | None = None) -> Generation:
    root = store.home_dir(home)
    stamp: list[tuple[str, int]] = []
    manifest = CORPUS_DIR / "editions.toml"
    if manifest.is_file():
        stamp.append(("corpus", manifest.stat().st_mtime_ns))
    editions = store.editions_dir(home)
    if editions.is_dir():
        for folder in sorted(editions.iterdir()):
            meta = folder / "edition.json"
            if folder.name.startswith(".") or not meta.is_file():
                continue
            stamp.append((folder.name, meta.stat().st_mtime_ns))
    return Generation(str(root.resolve()), tuple(stamp))


# --- views -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SourceView:
    file: str
    original: str
    layout: str

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "original": self.original, "layout": self.layout}


@dataclass(frozen=True)
class EditionView:
    id: str
    label: str
    language: str
    date: str
    era: str
    numbering: str
    rules: int
    shipped: bool
    sources: tuple[SourceView, ...]

    @classmethod
    def of(cls, ed: Edition) -> EditionView:
        return cls(
            id=ed.id,
            label=ed.label,
            language=ed.language,
            date=ed.date,
            era=ed.era,
            numbering=ed.numbering,
            rules=ed.rule_count,
            shipped=ed.shipped,
            sources=tuple(SourceView(s.file, s.original, s.layout) for s in ed.sources),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "language": self.language,
            "date": self.date,
            "era": self.era,
            "numbering": self.numbering,
            "rules": self.rules,
            "shipped": self.shipped,
            "sources": [s.to_dict() for s in self.sources],
        }


@dataclass(frozen=True)
class ReferenceView:
    """A citation, and where it lands today when its own edition lacks it."""

    reference: Reference
    counterpart: Link | None

    def to_dict(self) -> dict[str, Any]:
        ref = self.reference
        return {
            "rule": ref.target,
            "edition": ref.edition,
            "status": ref.status,
            "title": ref.title,
            "counterpart": self.counterpart.to_dict() if self.counterpart else None,
        }


@dataclass(frozen=True)
class RuleView:
    """A rule in its context: section, sub-rules, citations both ways, other editions."""

    rule: Rule
    edition: Edition
    title: str | None  # its own, else its section's
    breadcrumb: tuple[Rule, ...]  # from the chapter down to the rule itself
    children: tuple[Rule, ...]
    references: tuple[ReferenceView, ...]
    cited_by: tuple[Citer, ...]
    counterparts: tuple[Link, ...]
    counterpart_rules: tuple[Rule | None, ...]  # each counterpart's rule, None when absent

    def to_dict(self) -> dict[str, Any]:
        data = export.rule_dict(self.rule, self.title, self.breadcrumb[:-1], self.cited_by)
        data["references"] = [r.to_dict() for r in self.references]
        data["counterparts"] = [link.to_dict() for link in self.counterparts]
        return data


@dataclass(frozen=True)
class SearchView:
    result: SearchResult

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {
            "query": r.query,
            "corrected": r.corrected,
            "message": r.message,
            "expansions": list(r.expansions),
            "hits": [
                {
                    "edition": h.edition,
                    "rule": h.rule,
                    "kind": h.kind,
                    "title": h.title,
                    "breadcrumb": h.breadcrumb,
                    "snippet": h.snippet,
                    "score": h.score,
                    "language": h.language,
                    "also": [{"edition": e, "rule": n} for e, n in h.also],
                    "see": list(h.see),
                }
                for h in r.hits
            ],
        }


@dataclass(frozen=True)
class QualityView:
    """The quality report of one edition, or why it could not be read."""

    edition: str
    report: dict[str, Any] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.report is None:
            return {"edition": self.edition, "error": self.error}
        return dict(self.report)


@dataclass(frozen=True)
class QualityReports:
    reports: tuple[QualityView, ...]

    @property
    def failed(self) -> int:
        return sum(1 for r in self.reports if r.error is not None)

    def to_dict(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.reports]


@dataclass(frozen=True)
class ExportView:
    rows: tuple[dict[str, Any], ...]

    def to_dict(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self.rows]


@dataclass(frozen=True)
class IngestView:
    edition: str
    rules: int
    glossary: int
    folder: Path
    replaced: bool
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "rules": self.rules,
            "glossary": self.glossary,
            "folder": str(self.folder),
            "replaced": self.replaced,
        }


@dataclass(frozen=True)
class IngestOutcome:
    """One document of `ingest_many`: the edition it became, or why it did not (`error`,
    in French; then nothing of it was written)."""

    file: str
    edition: str | None = None
    date: str = ""
    numbering: str = ""
    rules: int = 0
    glossary: int = 0
    folder: Path | None = None
    replaced: bool = False
    warnings: tuple[str, ...] = ()
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "edition": self.edition,
            "date": self.date,
            "numbering": self.numbering,
            "rules": self.rules,
            "glossary": self.glossary,
            "folder": None if self.folder is None else str(self.folder),
            "replaced": self.replaced,
            "warnings": list(self.warnings),
            "error": self.error,
        }


@dataclass(frozen=True)
class RemoveView:
    edition: str

    def to_dict(self) -> dict[str, Any]:
        return {"edition": self.edition, "removed": True}


@dataclass(frozen=True)
class SandboxView:
    """A board's state-based actions, and the rule texts that explain them."""

    resolution: Resolution
    rule_text: RuleText = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        from judge.engine import resolution_to_dict

        return resolution_to_dict(self.resolution, self.rule_text)

    def text(self) -> str:
        from judge.engine import render_text

        return render_text(self.resolution, self.rule_text)

    def warn(self, message: str) -> SandboxView:
        res = self.resolution
        return replace(self, resolution=replace(res, warnings=(*res.warnings, message)))


@dataclass(frozen=True)
class RulesetView:
    """A ruleset the sandbox can run: its name (what `Judge.ruleset`, `--ruleset` and a board's
    `ruleset` field accept), its French label, the edition whose rules it follows and quotes,
    that edition's language, and whether it is one of the shipped rulesets."""

    name: str
    label: str
    edition: str
    language: str
    shipped: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "edition": self.edition,
            "language": self.language,
            "shipped": self.shipped,
        }


# --- the façade ------------------------------------------------------------------------------


class Judge:
    """Everything one store generation knows. Read-only once opened; thread-safe."""

    def __init__(self, index: RuleIndex, home: Path | None = None) -> None:
        self._index = index
        self._home = home
        self._lock = threading.RLock()
        self._concordance: Concordance | None = None
        self._searcher: Searcher | None = None
        self._rulesets: dict[str, Ruleset] = {}  # edition id -> its ruleset, built once
        self._ruleset_views: tuple[RulesetView, ...] | None = None

    # -- the store --

    @property
    def warnings(self) -> tuple[str, ...]:
        """Damaged stored editions left out of this generation, in French."""
        return tuple(self._index.warnings)

    @property
    def store_dir(self) -> Path:
        return store.editions_dir(self._home)

    @property
    def shipped_ids(self) -> frozenset[str]:
        return frozenset(ed.id for ed in self._index.editions if ed.shipped)

    def editions(self) -> tuple[EditionView, ...]:
        """Every edition, newest first."""
        return tuple(EditionView.of(ed) for ed in self._index.editions)

    def edition(self, edition_id: str) -> Edition:
        return self._index.edition(edition_id)

    def has_edition(self, edition_id: str) -> bool:
        return any(ed.id == edition_id for ed in self._index.editions)

    def gallery(self) -> dict[str, Path]:
        """The example boards shipped with the corpus (corpus/boards/*.json), by name."""
        return gallery()

    # -- rules --

    def title(self, number: str, edition: str) -> str | None:
        """The title of `number` in `edition`, else of its nearest titled ancestor, whether or
        not the corpus has the number itself (a counterpart deduced from a section's move)."""
        return nearest_title(number, self._index.edition(edition).rules)

    def get(self, number: str, edition: str | None = None) -> Rule | None:
        return self._index.get(number, edition)

    def lookup(self, number: str, edition: str | None = None) -> Rule:
        """The rule, or RuleNotFound naming the nearest numbers."""
        return self._index.lookup(number, edition)

    def nearest(self, number: str, edition: str | None = None, k: int = 5) -> list[str]:
        return self._index.nearest(number, edition, k)

    def breadcrumb(self, rule: Rule) -> list[Rule]:
        return self._index.breadcrumb(rule)

    def cited_by(self, rule: Rule) -> list[Citer]:
        return self._index.cited_by(rule)

    def rule(self, number: str, edition: str | None = None) -> RuleView:
        rule = self.lookup(number, edition)
        return self.view(rule)

    def view(self, rule: Rule) -> RuleView:
        from judge.rules.concordance import counterparts_for, reference_counterpart

        conc = self.concordance
        ed = self._index.edition(rule.edition)
        refs = tuple(
            ReferenceView(
                ref, reference_counterpart(conc, ref) if ref.status != "resolved" else None
            )
            for ref in rule.references
        )
        links = tuple(counterparts_for(conc, rule))
        return RuleView(
            rule=rule,
            edition=ed,
            title=nearest_title(rule.number, ed.rules),
            breadcrumb=tuple(self._index.breadcrumb(rule)),
            children=tuple(ed.rules[c] for c in rule.children),
            references=refs,
            cited_by=tuple(self._index.cited_by(rule)),
            counterparts=links,
            counterpart_rules=tuple(
                self._index.edition(lk.to_edition).rules.get(lk.to_rule) for lk in links
            ),
        )

    def export(self, editions: Sequence[str] | None = None) -> ExportView:
        """Every rule and glossary entry of `editions` (default: all), with counterparts:
        for each rule, the links `rule(...).counterparts` gives; `export_json` read back."""
        import orjson

        rows: list[dict[str, Any]] = orjson.loads(self.export_json(editions))
        return ExportView(tuple(rows))

    def export_json(self, editions: Sequence[str] | None = None) -> bytes:
        """`export(editions).to_dict()` as json.dumps(indent=2, ensure_ascii=False) writes
        it (`judge export`), each edition's part kept on disk for the next export of the
        same store (`export.edition_json`)."""
        return b"".join(self.export_chunks(editions))

    def export_chunks(self, editions: Sequence[str] | None = None) -> list[Chunk]:
        """`export_json` in chunks, to be written one after the other (`judge export`): an
        export of 36 MB an edition is not copied into one piece first."""
        ids = list(editions) if editions else [ed.id for ed in self._index.editions]
        return export.document_chunks([self._edition_json(eid) for eid in ids])

    def _edition_json(self, edition_id: str) -> list[Chunk]:
        folder = store.cache_dir(self._home) / "export"
        in_child = _in_child if export.core_to_spare() else None
        # Some 300,000 objects an edition and no cycle among them: the collector's passes
        # over them would cost the export a third of its time.
        with collector_paused():
            return export.edition_json(self.concordance, edition_id, folder, in_child)

    def _refresh_exports(self) -> None:
        """After a change of the store: the editions exported last (`_EXPORTS_KEPT`) made
        again, so that their next export reads its file (an edition never exported computes
        its own the first time)."""
        folder = store.cache_dir(self._home) / "export"
        for eid in export.recently_exported(self.concordance, folder, _EXPORTS_KEPT):
            # Only a cache, made after the store changed: whatever goes wrong here must not
            # make a done ingest look failed; the next export makes it (and says why).
            with contextlib.suppress(Exception):
                self._edition_json(eid)

    def quality(self) -> QualityReports:
        """Each edition parsed on its own, as `judge check` reports it: a damaged stored
        edition is a failed report, not a missing one."""
        from judge.rules.index import manifest_metas

        entries = [(m, CORPUS_DIR) for m in manifest_metas(CORPUS_DIR)]
        warnings: list[str] = []
        entries += store.stored_editions(self._home, warnings=warnings)
        # What recovery could not fix: leftovers, journals, folders without a description.
        warnings += store.check_store(self._home)
        reports = [QualityView("?", error=w) for w in warnings]
        for meta, root in entries:
            try:
                edition = parse_edition(meta, root)
            except JudgeError as exc:
                reports.append(QualityView(meta.id, error=exc.message))
                continue
            q = RuleIndex([edition]).quality(edition.id)
            reports.append(QualityView(edition.id, report=dict(q.__dict__)))
        return QualityReports(tuple(reports))

    def quality_of(self, edition_id: str) -> dict[str, Any]:
        """The quality report of one edition of this generation."""
        return dict(self._index.quality(edition_id).__dict__)

    # -- concordance --

    @property
    def concordance(self) -> Concordance:
        with self._lock:
            if self._concordance is None:
                from judge.rules.concordance import Concordance

                self._concordance = Concordance(self._index, folder=store.cache_dir(self._home))
            return self._concordance

    def counterparts(self, rule: Rule) -> tuple[Link, ...]:
        from judge.rules.concordance import counterparts_for

        return tuple(counterparts_for(self.concordance, rule))

    def counterpart(
        self, edition: str, number: str, target: str, *, approximate: bool = True
    ) -> Link | None:
        return self.concordance.counterpart(edition, number, target, approximate=approximate)

    def covers(self, rule: Rule, edition_id: str) -> bool:
        """Whether `edition_id`'s corpus holds the section of `rule` at all (2011's corpus
        holds section 118 only: it says nothing of 704's rules)."""
        from judge.rules.concordance.comparison import covers

        return covers(self.concordance, rule, self.edition(edition_id))

    def dating(self, view: RuleView, other_language: bool = True) -> tuple[str, ...]:
        """In French: the rule's edition and effective date, and whether a newer text of it
        is known in its language (and, with `other_language`, in the other one) — the lines
        `judge rule` and the Règle page show under the rule's heading."""
        from judge import fr

        rule, ed = view.rule, view.edition

        def newer_note(template: str, newer: Edition, there: Rule | None, **words: str) -> str:
            note = template.format(edition=newer.id, when=fr.when(newer.date, newer.era), **words)
            return note + (
                fr.NEWER_GONE if there is None else fr.NEWER_AS.format(rule=there.number)
            )

        head = fr.EDITION_DATED.format(edition=ed.id, when=fr.when(ed.date, ed.era))
        newest = self.newest(rule)
        if newest is None or newest[0].id == ed.id:
            language = fr.LANGUAGE_NAMES.get(ed.language, ed.language)
            lines = [f"{head} — {fr.NEWEST_KNOWN.format(language=language)}"]
        else:
            lines = [f"{head} — {newer_note(fr.NEWER_EXISTS, *newest)}"]
        other = fr.OTHER_LANGUAGE.get(ed.language)
        if other_language and other is not None:
            found = self.newest(rule, other)
            order = [e.id for e in self._index.editions]  # newest first
            if found is not None and order.index(found[0].id) < order.index(ed.id):
                name = fr.LANGUAGE_NAMES.get(other, other)
                lines.append(newer_note(fr.OTHER_NEWER, *found, language=name))
        return tuple(lines)

    def newest(self, rule: Rule, language: str | None = None) -> tuple[Edition, Rule | None] | None:
        """The newest edition of `language` (default: the rule's own) whose corpus holds the
        rule's section, with the rule's text there (`rule` itself in its own edition; None
        when that edition no longer has it); None when no edition of `language` holds it."""
        from judge.rules.concordance.comparison import covers, has_text

        conc = self.concordance
        lang = language or self._index.edition(rule.edition).language
        for ed in self._index.editions:  # newest first
            if ed.language != lang or not covers(conc, rule, ed):
                continue
            if ed.id == rule.edition:
                return ed, rule
            link = conc.counterpart(rule.edition, rule.number, ed.id, approximate=False)
            found = ed.rules.get(link.to_rule) if link is not None else None
            return ed, found if has_text(found) else None
        return None

    def compare(self, number: str, from_edition: str, to_edition: str) -> Comparison:
        from judge.rules.concordance import compare

        return compare(self.concordance, number, from_edition, to_edition)

    def history(
        self, number: str, edition: str | None = None, *, all_languages: bool = False
    ) -> History:
        """Every version of the rule (numbered as in `edition`, default the newest edition
        that has it) in the editions of its language, oldest first; with `all_languages`,
        its versions in the other languages too, each marked with its language."""
        from judge.rules.history import history

        rule = self.lookup(number, edition)
        return history(self.concordance, rule, all_languages=all_languages)

    def changes(self, from_edition: str | None = None, to_edition: str | None = None) -> Changes:
        """What changed from one edition to another (default: the two newest of a language)."""
        from judge.rules.history import changes, default_pair, neighbour

        if from_edition is None and to_edition is None:
            from_edition, to_edition = default_pair(self.concordance)
        elif from_edition is None:
            assert to_edition is not None
            from_edition = neighbour(self.concordance, to_edition, older=True)
        elif to_edition is None:
            to_edition = neighbour(self.concordance, from_edition, older=False)
        return changes(self.concordance, from_edition, to_edition)

    def diff(self, old: Rule, new: Rule) -> list[DiffPart]:
        from judge.rules.concordance import diff_rules

        return diff_rules(old, new, self.concordance)

    # -- search --

    def searcher(self, progress: ProgressCallback | None = None) -> Searcher:
        """The search index of this generation, built on disk first when missing."""
        with self._lock:
            if self._searcher is None:
                from judge.search import Searcher

                # Renumbered copies (420.5e, 704.5k, 704.5j) are one hit: groups from the
                # concordance's direct pairs, built at the first search that needs them.
                groups = self._groups()
                self._searcher = Searcher(
                    self._index, self._home, progress=progress, group_key=groups
                )
            return self._searcher

    def _groups(self) -> ConcordanceGroups:
        from judge.search.groups import ConcordanceGroups

        folder = store.cache_dir(self._home) / "search" / "groups"
        return ConcordanceGroups(self.concordance, folder=folder)

    def search(
        self,
        query: str,
        editions: Sequence[str] | None = None,
        language: str | None = None,
        limit: int = 10,
        progress: ProgressCallback | None = None,
    ) -> SearchView:
        result = self.searcher(progress).search(
            query, editions=editions, language=language, limit=limit
        )
        return SearchView(result)

    # -- the sandbox --

    def rule_text(self, ruleset: str) -> RuleText:
        """Quotes from the edition a ruleset follows (nothing for an edition not loaded); a
        name that is not a shipped ruleset is an edition's id."""
        from judge.engine import RULESETS, index_rule_text, no_rule_text

        edition = RULESETS[ruleset].edition if ruleset in RULESETS else ruleset
        if not self.has_edition(edition):
            return no_rule_text
        return index_rule_text(self._index, edition)

    def ruleset(self, name: str) -> Ruleset:
        """A shipped ruleset by its name, or the ruleset of an edition of this store that holds
        rule 704 or 420 (`ruleset_from_edition`, built once); UnknownRuleset (a BoardError,
        `field="ruleset"`) for a name that is neither, whose `known` lists `ruleset_names()`;
        a BoardError for an edition without rule 704 or 420."""
        from judge.engine import RULESETS, UnknownRuleset, ruleset_from_edition

        if name in RULESETS:
            return RULESETS[name]
        if not self.has_edition(name):
            raise UnknownRuleset(name, self.ruleset_names())
        with self._lock:
            built = self._rulesets.get(name)
            if built is None:
                built = self._rulesets[name] = ruleset_from_edition(self.edition(name))
            return built

    def rulesets(self) -> tuple[RulesetView, ...]:
        """Every ruleset this store can run, for a choice in the app: the shipped ones, then
        each edition holding rule 704 or 420 (English included), in the index's order."""
        from judge.engine import RULESETS, has_state_based_actions
        from judge.fr import EDITION_RULESET_LABEL, RULESET_LABELS

        with self._lock:
            if self._ruleset_views is None:
                views = [
                    RulesetView(r.name, RULESET_LABELS[r.name], r.edition, "fr", True)
                    for r in RULESETS.values()
                ]
                views += [
                    RulesetView(
                        e.id, EDITION_RULESET_LABEL.format(edition=e.id), e.id, e.language, False
                    )
                    for e in self._index.editions
                    if e.id not in RULESETS and has_state_based_actions(e)
                ]
                self._ruleset_views = tuple(views)
            return self._ruleset_views

    def ruleset_names(self) -> tuple[str, ...]:
        """The names `ruleset()` accepts (`rulesets()`, by name)."""
        return tuple(v.name for v in self.rulesets())

    def resolve(self, board: Board | LoadedBoard, ruleset: str | None = None) -> SandboxView:
        """The state-based actions of `board` under `ruleset`, default the board's own `ruleset`
        field (a shipped ruleset or an edition of this store), quoted from its edition."""
        from judge.engine import LoadedBoard

        plain = board.board if isinstance(board, LoadedBoard) else board
        return self.quote(resolve_board(board, self.ruleset(ruleset or plain.ruleset)))

    def quote(self, view: SandboxView) -> SandboxView:
        """The same resolution, explained with the texts of this generation's editions."""
        res = view.resolution
        return replace(view, rule_text=self.rule_text(res.edition or res.ruleset))

    # -- writing to the store --

    def ingest(
        self,
        path: Path,
        edition: str | None = None,
        layout: Layout | None = None,
        replace: bool = False,
    ) -> IngestView:
        return ingest(path, edition, layout, replace=replace, home=self._home)

    def remove(self, edition_id: str) -> RemoveView:
        return remove(edition_id, self._home)

    # -- lifetime --

    def close(self) -> None:
        with self._lock:
            if self._searcher is not None:
                self._searcher.close()
                self._searcher = None
            if self._concordance is not None:
                self._concordance.close()
                self._concordance = None

    def __enter__(self) -> Judge:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


# How many of the editions exported last a change of the store computes again (about 1 s
# each).
_EXPORTS_KEPT = 2


@contextlib.contextmanager
def collector_paused(*, freeze: bool = False) -> Iterator[None]:
    """Python's cyclic collector off for a block that builds many objects with no cycle
    among them (an export), back as it was after. With `freeze`, for a process that ends
    after the block (`judge export`): what the block leaves alive (the concordance's memos,
    some 300,000 objects) is put out of the collector's sight for good (`gc.freeze`), since
    its first collection after the block would walk them all (60 ms). Not in a process that
    goes on (the app), where a cycle frozen would never be freed."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if collecting:
            gc.enable()


def open_judge(home: Path | None = None) -> Judge:
    """The Judge of the store under `home` (default: $JUDGE_HOME, else the user's folder)."""
    return Judge(load_index(home=home), home)


def prepare(home: Path | None = None, parsed: Sequence[store.Parsed] = ()) -> None:
    """Build what the next command reads after a change of the store: each edition's parsed
    cache (from `parsed`, the editions just ingested, when they are still those stored), the
    concordance of the pairs the new editions take part in, and the search index's table and
    segment of each new edition (the next search builds nothing)."""
    given = {p.meta.id: p for p in parsed}
    with Judge(load_index(home=home, parsed=given), home) as judge:
        # The search index needs only the rules: a second core builds it while this one
        # matches the pairs. When the child fails (or there was none), this process builds
        # it and reports what went wrong as usual; when it succeeded, its work is on disk
        # (published whole) and this process need not even import the search (0.2 s).
        child = _in_child(lambda: _prepare_search(judge, home))
        built = False
        try:
            judge.concordance.warm()
            judge.concordance.keep_steps()  # the first export reads no side from SQLite
            judge._groups().prepare()  # the copies' groups, so that no search builds them
        finally:
            built = _wait(child)
        if not built:
            _prepare_search(judge, home)
        judge._refresh_exports()


def _prepare_search(judge: Judge, home: Path | None) -> None:
    from judge.search import lexicon
    from judge.search.index import prepare as prepare_search

    prepare_search(judge._index, home)
    lexicon.prepare(home)


def _in_child(work: Callable[[], None]) -> int | None:
    """Run `work` in a forked process and return its pid; None (nothing run) with a single
    core, without fork, or when another thread runs (the app: a fork copies no thread and
    may copy a lock held by one)."""
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return None
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(1)
    if len(cores) < 2:
        return None
    return _forked(work)


def _forked(work: Callable[[], None]) -> int | None:
    """Run `work` in a forked process and return its pid (None: the fork failed)."""
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:  # the child: no return, no exit handlers, no buffers of the parent's
        code = 1
        try:
            work()
            code = 0
        finally:
            os._exit(code)
    return pid


def _wait(pid: int | None) -> bool:
    """Wait for the child `pid` (None: there was none); whether it did its work whole (its
    exit status 0: `_forked` exits 1 when the work raised)."""
    if pid is None:
        return False
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return False
    return os.waitstatus_to_exitcode(status) == 0


def gallery() -> dict[str, Path]:
    """The example boards shipped with the corpus (corpus/boards/*.json), by name (the file
    name without `.json`); no index needed."""
    return {p.stem: p for p in sorted((CORPUS_DIR / "boards").glob("*.json"))}


def resolve_board(board: Board | LoadedBoard, ruleset: str | Ruleset | None = None) -> SandboxView:
    """The state-based actions of `board` under `ruleset` (a shipped ruleset's name, a Ruleset
    from `Judge.ruleset`, default: the board's own), without quotes (`Judge.quote` adds
    them). A loaded board's warnings come first. A board whose `ruleset` names an edition
    needs the store: `Judge.resolve` (or pass `Judge.ruleset(board.ruleset)`)."""
    from judge.engine import LoadedBoard, find_ruleset, no_rule_text, resolve

    warnings: tuple[str, ...] = ()
    if isinstance(board, LoadedBoard):
        warnings = tuple(board.warnings)
        board = board.board
    if ruleset is None or isinstance(ruleset, str):
        ruleset = find_ruleset(ruleset or board.ruleset)
    res = resolve(board, ruleset)
    return SandboxView(replace(res, warnings=(*warnings, *res.warnings)), no_rule_text)


# --- writing to the store (no need to read it first) ------------------------------------------


def _shipped_ids() -> frozenset[str]:
    from judge.rules.index import manifest_metas

    return frozenset(m.id for m in manifest_metas(CORPUS_DIR))


def ingest(
    path: Path,
    edition: str | None = None,
    layout: Layout | None = None,
    *,
    replace: bool = False,
    home: Path | None = None,
) -> IngestView:
    """Parse `path` and add it to the store under `home`: a new generation."""
    result = store.ingest(
        path, edition, layout, replace=replace, home=home, reserved=_shipped_ids()
    )
    prepare(home, [result.parsed] if result.parsed else [])
    ed = result.edition
    return IngestView(
        ed.id, ed.rule_count, len(ed.glossary), result.folder, result.replaced, result.warnings
    )


IngestProgress = Callable[[int, int, str], None]


def ingest_many(
    paths: Sequence[Path],
    replace: bool = False,
    home: Path | None = None,
    progress: IngestProgress | None = None,
    layout: Layout | None = None,
) -> tuple[IngestOutcome, ...]:
    """Each document of `paths` (files, or folders: their `.txt`, `.pdf`, `.docx`, `.html`,
    `.htm` files, sorted) becomes one edition named by its date, atomically; one that fails
    is reported in its outcome and does not stop the others. `progress(i, n, file)` is
    called before the i-th of n documents is read."""
    found = store.document_paths(paths)
    reserved = _shipped_ids()
    done: dict[str, str] = {}  # edition id -> the file of this batch it came from
    parsed: list[store.Parsed] = []
    out: list[IngestOutcome] = []
    for i, (path, problem) in enumerate(found, 1):
        shown = display_name(path)
        if progress is not None:
            progress(i, len(found), shown)
        if problem is not None:
            out.append(IngestOutcome(shown, error=problem))
            continue
        try:
            result = store.ingest(
                path, None, layout, replace=replace, home=home, reserved=reserved, batch=done
            )
        except JudgeError as exc:
            out.append(IngestOutcome(shown, error=exc.message))
            continue
        ed = result.edition
        done[ed.id] = shown
        if result.parsed is not None:
            parsed.append(result.parsed)
        out.append(
            IngestOutcome(
                shown,
                ed.id,
                ed.date,
                ed.numbering,
                rules=ed.rule_count,
                glossary=len(ed.glossary),
                folder=result.folder,
                replaced=result.replaced,
                warnings=result.warnings,
            )
        )
    if done:
        prepare(home, parsed)
    return tuple(out)


def remove(edition_id: str, home: Path | None = None) -> RemoveView:
    """Take an ingested edition out of the store under `home` (shipped ones stay)."""
    if edition_id in _shipped_ids():
        raise store.StoreError(
            f"L'édition {edition_id} est livrée avec le corpus : elle ne peut pas être retirée"
        )
    store.remove(edition_id, home)
    prepare(home)
    return RemoveView(edition_id)

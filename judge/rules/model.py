"""The rule model. Parsers produce `ParsedDocument`s; `build_edition` turns them
into an immutable `Edition` of `Rule`s with references and backlinks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar, overload

from judge.rules.numbers import NumberKind

Language = Literal["fr", "en"]
ParagraphKind = Literal["text", "example"]
RefStatus = Literal["resolved", "title_only", "missing"]
Layout = Literal["official", "html", "scraped", "glued_2011", "inline_pre2009"]
LAYOUTS: tuple[Layout, ...] = ("official", "html", "scraped", "glued_2011", "inline_pre2009")


@dataclass(frozen=True)
class Source:
    file: str
    line: int


@dataclass(frozen=True)
class Paragraph:
    text: str
    language: Language
    source: Source
    kind: ParagraphKind = "text"


@dataclass(frozen=True)
class Reference:
    """A citation found in a paragraph, resolved inside the citing edition."""

    target: str  # canonical rule number cited
    edition: str
    raw: str  # the text as written, e.g. "cf. règle 117"
    status: RefStatus
    title: str | None  # title of the target, or of its nearest titled ancestor


@dataclass(frozen=True)
class Rule:
    edition: str
    number: str
    kind: NumberKind
    title: str | None  # section or chapter title (from headings or the contents)
    paragraphs: tuple[Paragraph, ...]
    parent: str | None
    children: tuple[str, ...]
    source: Source | None
    inferred: bool = False  # number deduced from position (scraped layout)
    title_only: bool = False  # known only from a table of contents or a citation
    references: tuple[Reference, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.paragraphs if p.kind == "text")

    @property
    def examples(self) -> list[str]:
        return [p.text for p in self.paragraphs if p.kind == "example"]

    @property
    def language(self) -> Language | None:
        langs = [p.language for p in self.paragraphs if p.kind == "text"]
        if not langs:
            return None
        return "en" if langs.count("en") > langs.count("fr") else "fr"


@dataclass(frozen=True)
class GlossaryEntry:
    edition: str
    term: str
    paragraphs: tuple[Paragraph, ...]
    source: Source
    references: tuple[Reference, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.paragraphs)

    @property
    def cited(self) -> tuple[str, ...]:
        """The rules of its edition it sends to (« See rule 702.4 »), once each."""
        return tuple(dict.fromkeys(r.target for r in self.references if r.status == "resolved"))


IssueKind = Literal[
    "inferred",  # number deduced from position
    "duplicate_fixed",  # a number printed twice, renumbered
    "gap",  # a number missing from a sequence
    "not_rules",  # text kept out of the rules (a question, a credit line…)
    "empty_rule",  # a number with no text (truncated document)
    "unparsed",  # a line the parser could not place
]


@dataclass(frozen=True)
class ParseIssue:
    kind: IssueKind
    message: str  # French, for the quality report
    number: str | None = None
    source: Source | None = None


@dataclass
class RawRule:
    """A rule as a parser found it, before the edition is assembled."""

    number: str
    paragraphs: list[Paragraph] = field(default_factory=list)
    title: str | None = None
    source: Source | None = None
    inferred: bool = False


@dataclass
class ParsedDocument:
    file: str
    layout: Layout
    rules: list[RawRule] = field(default_factory=list)
    contents: dict[str, str] = field(default_factory=dict)  # number -> title
    glossary: list[GlossaryEntry] = field(default_factory=list)
    issues: list[ParseIssue] = field(default_factory=list)
    date: str | None = None  # ISO date found in the document, if any
    language: Language | None = None
    cited_titles: dict[str, str] = field(default_factory=dict)  # titles seen in citations


@dataclass(frozen=True)
class SourceFile:
    file: str
    original: str
    layout: Layout


@dataclass(frozen=True)
class Edition:
    id: str
    label: str
    language: Language
    date: str
    era: str
    numbering: Literal["modern", "pre2009"]
    order: int
    rules: Mapping[str, Rule]  # in document order
    glossary: Sequence[GlossaryEntry]
    issues: Sequence[ParseIssue]
    sources: tuple[SourceFile, ...]
    shipped: bool = True

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def rule_count(self) -> int:
        """Rules and sub-rules with a text: the one count every report shows."""
        if isinstance(self.rules, LazyRules):
            return self.rules.rule_count
        return count_rules(self.rules)


def text_sections(rules: Mapping[str, Rule]) -> frozenset[str]:
    """The sections that have a rule or sub-rule with text."""
    return frozenset(
        r.number.split(".")[0]
        for r in rules.values()
        if r.kind in ("rule", "subrule") and not r.title_only and r.text.strip()
    )


def covered_sections(ed: Edition) -> frozenset[str]:
    """The sections of `ed` that have a rule with text (read from the cache header when the
    edition is not loaded)."""
    if isinstance(ed.rules, LazyRules) and ed.rules.sections is not None:
        return ed.rules.sections
    return text_sections(ed.rules)


# What the concordance asks of a rule of another edition, kept in the cache beside each rule
# number (`rule_facts`) so that it reads no rule for it: bits of an int.
HAS_TEXT = 1  # a rule or sub-rule with a text of its own (not a title, not a section)
PRESENT = 2  # a text of its own, or a sub-rule that is present (a section)
IN_FRENCH = 4  # rule.language == "fr"
IN_ENGLISH = 8  # rule.language == "en"


def has_text(rule: Rule) -> bool:
    """A rule or sub-rule with a text of its own (not a title, not a section)."""
    return not rule.title_only and rule.kind in ("rule", "subrule") and bool(rule.text.strip())


def rule_facts(rules: Mapping[str, Rule]) -> dict[str, int]:
    """The bits above for every rule of `rules`."""
    present: dict[str, bool] = {}

    def is_present(number: str) -> bool:
        known = present.get(number)
        if known is None:
            rule = rules.get(number)
            known = rule is not None and (
                (not rule.title_only and bool(rule.text.strip()))
                or any(is_present(child) for child in rule.children)
            )
            present[number] = known
        return known

    out = {}
    for number, rule in rules.items():
        language = {"fr": IN_FRENCH, "en": IN_ENGLISH}.get(rule.language or "", 0)
        out[number] = (
            (HAS_TEXT if has_text(rule) else 0) | (PRESENT if is_present(number) else 0) | language
        )
    return out


def count_rules(rules: Mapping[str, Rule]) -> int:
    return sum(1 for r in rules.values() if r.kind in ("rule", "subrule") and r.paragraphs)


# --- an edition read on first use ---------------------------------------------------------

T = TypeVar("T")


class Part(Protocol):
    """Reads parts of an edition's cache file (judge.rules.cache.EditionFile)."""

    def numbers(self) -> Mapping[str, int] | None: ...  # number -> its place

    def rule(self, number: str) -> Rule | None: ...

    def cited(self) -> dict[str, list[str]] | None: ...

    def facts(self) -> Mapping[str, int] | None: ...


class Body:
    """The rules, glossary and issues of an edition, read the first time they are needed:
    one rule at a time through `part` while only single rules are asked for, all of them
    through `load` as soon as anything walks them. A command over a store of 29 editions
    reads only what it touches."""

    def __init__(
        self,
        load: Callable[[], Edition],
        counts: tuple[int, int, int],
        sections: frozenset[str] | None = None,
        part: Part | None = None,
        key: str = "",
        edition: Edition | None = None,
    ) -> None:
        self._load = load
        self._edition: Edition | None = edition  # given when just parsed
        self.key = key  # the edition's cache key (index.edition_key): what its content hashes to
        self._lock = threading.Lock()
        self.counts = counts  # rules with text, glossary entries, issues
        self.sections = sections  # the sections that have a rule with text
        self.part = part
        self.single: dict[str, Rule] = {}  # rules read one at a time

    def get(self) -> Edition:
        ed = self._edition
        if ed is None:
            with self._lock:
                ed = self._edition
                if ed is None:
                    ed = self._edition = self._load()
                    self.single.clear()
        return ed

    @property
    def loaded(self) -> bool:
        return self._edition is not None


class LazyRules(Mapping[str, Rule]):
    """`Edition.rules` of an edition not yet read; a dict's speed once it is."""

    def __init__(self, body: Body) -> None:
        self.body = body

    @property
    def rule_count(self) -> int:
        return self.body.counts[0]

    @property
    def sections(self) -> frozenset[str] | None:
        return self.body.sections

    @property
    def key(self) -> str:
        return self.body.key

    def _rules(self) -> Mapping[str, Rule]:
        return self.body.get().rules

    def _numbers(self) -> Mapping[str, int] | None:
        body = self.body
        if body.loaded or body.part is None:
            return None
        return body.part.numbers()

    def places(self) -> Mapping[str, int]:
        """Each rule's place in the edition's order (its cache's table while the rules are
        not read)."""
        found = self._numbers()
        return found if found is not None else {n: i for i, n in enumerate(self._rules())}

    def facts(self) -> Mapping[str, int] | None:
        """`rule_facts` of the edition as its cache keeps them, without reading its rules
        (None once they are read: then ask the rules)."""
        body = self.body
        if body.loaded or body.part is None:
            return None
        return body.part.facts()

    def citers(self) -> dict[str, list[str]] | None:
        """Who cites what inside the edition, without reading its rules (None once read)."""
        body = self.body
        if body.loaded or body.part is None:
            return None
        return body.part.cited()

    def __getitem__(self, number: str) -> Rule:
        numbers = self._numbers()
        if numbers is None:
            return self._rules()[number]
        if number not in numbers:
            raise KeyError(number)
        known = self.body.single.get(number)
        if known is None:
            assert self.body.part is not None
            known = self.body.part.rule(number)
            if known is None:  # the file changed under us: read it all (or parse again)
                return self._rules()[number]
            self.body.single[number] = known
        return known

    def __iter__(self) -> Iterator[str]:
        numbers = self._numbers()
        return iter(numbers if numbers is not None else self._rules())

    def __len__(self) -> int:
        numbers = self._numbers()
        return len(numbers if numbers is not None else self._rules())

    def __contains__(self, number: object) -> bool:
        numbers = self._numbers()
        return number in (numbers if numbers is not None else self._rules())

    def keys(self):  # type: ignore[no-untyped-def]  # the dict's own views: no per-key call
        numbers = self._numbers()
        return (numbers if numbers is not None else self._rules()).keys()

    def values(self):  # type: ignore[no-untyped-def]
        return self._rules().values()

    def items(self):  # type: ignore[no-untyped-def]
        return self._rules().items()

    def get(self, number: str, default: Rule | None = None) -> Rule | None:  # type: ignore[override]
        try:
            return self[number]
        except KeyError:
            return default

    def __eq__(self, other: object) -> bool:
        return self._rules() == other

    __hash__ = None  # type: ignore[assignment]


class LazyEntries(Sequence[T]):
    """`Edition.glossary` or `.issues` not yet read; its length is known without reading."""

    def __init__(self, body: Body, which: int) -> None:
        self.body = body
        self.which = which  # 1: glossary, 2: issues

    def _items(self) -> Sequence[T]:
        ed = self.body.get()
        return ed.glossary if self.which == 1 else ed.issues  # type: ignore[return-value]

    def __len__(self) -> int:
        return self.body.counts[self.which]

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...
    def __getitem__(self, i: int | slice) -> T | Sequence[T]:
        return self._items()[i]

    def __iter__(self) -> Iterator[T]:
        return iter(self._items())

    def __eq__(self, other: object) -> bool:
        return tuple(self._items()) == (tuple(other) if isinstance(other, Sequence) else other)

    __hash__ = None  # type: ignore[assignment]


def read_whole(edition: Edition) -> None:
    """Read now all of an edition not yet read (`lazy_edition`): one read of its cache
    rather than one per rule, for a caller that will ask for every rule."""
    rules = edition.rules
    if isinstance(rules, LazyRules):
        rules.body.get()


def lazy_edition(meta: Edition, body: Body) -> Edition:
    """`meta` (an edition whose rules, glossary and issues are empty) reading them from
    `body` on first use."""
    from dataclasses import replace

    return replace(
        meta, rules=LazyRules(body), glossary=LazyEntries(body, 1), issues=LazyEntries(body, 2)
    )

"""The rule model. Parsers produce `ParsedDocument`s; `build_edition` turns them
into an immutable `Edition` of `Rule`s with references and backlinks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

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
    rules: dict[str, Rule]  # in document order
    glossary: tuple[GlossaryEntry, ...]
    issues: tuple[ParseIssue, ...]
    sources: tuple[SourceFile, ...]
    shipped: bool = True

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def rule_count(self) -> int:
        """Rules and sub-rules with a text: the one count every report shows."""
        return sum(1 for r in self.rules.values() if r.kind in ("rule", "subrule") and r.paragraphs)

"""The official text layout, as Wizards publishes it (English) and as translated (French).

Shape of the document::

    Magic: The Gathering Comprehensive Rules
    These rules are effective as of September 30, 2011.
    Introduction …                       (not rules)
    Contents                             1. Game Concepts / 100. General / … Glossary, Credits
    1. Game Concepts                     chapter heading
    100. General                         section heading
    100.1. These Magic rules apply…      rule (trailing dot; a few 2008 rules lack it)
    100.1a A two-player game is…         subrule (704.5aa in newer texts)
    Example: …                           attached to the rule above
              Of that list, …            indented continuation of the rule above
    Glossary                             term line, definition lines, blank line
    Credits / Customer Service …         not rules

The contents repeat "Glossary" and "Credits"; the real sections come after the rules.
"""

from __future__ import annotations

import re

from judge.rules import numbers
from judge.rules.errors import DocumentError
from judge.rules.language import Lang, detect_language
from judge.rules.model import (
    GlossaryEntry,
    Paragraph,
    ParagraphKind,
    ParsedDocument,
    ParseIssue,
    RawRule,
    Source,
)

# --- line shapes -------------------------------------------------------------------------

# `100.1. text`, `100.1a text`, `704.5aa text`, `216.4 text` (2008, no dot), `100.1.` (empty),
# `901.4.All plane…` (2022-2024: no space after the dot).
RULE_RE = re.compile(r"(\d{3})\.(\d{1,3})([a-z]{1,2})?(?:(?:\.?\s+|\.(?=[A-Z\"“]))(\S.*)|\.?)$")
# `606. 8b Players win…` (2005, 2006): a rule number with a stray space after the section's
# dot, read as that rule when it is the next number in sequence (else a section heading).
SPLIT_RULE_RE = re.compile(r"(\d{3})\.\s+(\d{1,3}[a-z]{0,2})\.?\s+(\S.*)$")
SECTION_RE = re.compile(r"(\d{3})\.\s+(\S.*)$")
CHAPTER_RE = re.compile(r"(\d)\.\s+(\S.*)$")
# Contents lines, optionally bulleted (`- 100. Généralités`).
CONTENTS_RE = re.compile(r"(?:[-•*]\s*)?(\d{3}|\d)\.\s+(\S.*)$")
EXAMPLE_RE = re.compile(r"(?:examples?|exemples?)\s*:", re.I)

_CONTENTS_MARKERS = frozenset({"contents", "sommaire", "table des matières", "table des matieres"})
_GLOSSARY_MARKERS = frozenset({"glossary", "glossaire"})
_END_MARKERS = frozenset(
    {
        "credits",
        "crédits",
        "credit",
        "crédit",
        "customer service information",
        "service clientèle",
        "service client",
        "questions?",
        "questions ?",
    }
)

# An indented line (the 2011 and 2008 texts indent by ten or five spaces) continues the
# paragraph structure above it: it never starts a rule or a glossary term.
_INDENT = ("    ", "\t")


def _marker(line: str) -> str:
    return line.strip().lower()


# --- dates -------------------------------------------------------------------------------

_EN_MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}
_FR_MONTHS = {
    "janvier": 1,
    "février": 2,
    "fevrier": 2,
    "mars": 3,
    "avril": 4,
    "mai": 5,
    "juin": 6,
    "juillet": 7,
    "août": 8,
    "aout": 8,
    "septembre": 9,
    "octobre": 10,
    "novembre": 11,
    "décembre": 12,
    "decembre": 12,
}
_EN_DATE_RE = re.compile(
    r"\b(?:effective|current|valid|updated)\s+(?:as\s+of|on|from)\s+"
    r"([A-Za-z]+)\s+(\d{1,2}),?\s+(\d{4})",
    re.I,
)
_FR_LEAD = (
    r"\b(?:en\s+vigueur|à\s+jour|valables?|applicables?|effectives?)\s+"
    r"(?:au|le|du|à\s+partir\s+du|depuis\s+le|à\s+compter\s+du)\s+"
)
_FR_DATE_RE = re.compile(_FR_LEAD + r"(\d{1,2})(?:er)?\s+([a-zéû]+)\s+(\d{4})", re.I)
_FR_NUMERIC_DATE_RE = re.compile(_FR_LEAD + r"(\d{1,2})/(\d{1,2})/(\d{4})", re.I)


def _iso(year: int, month: int | None, day: int) -> str | None:
    if month is None or not (1 <= month <= 12 and 1 <= day <= 31 and 1990 <= year <= 2100):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def find_effective_date(text: str) -> str | None:
    """The first "effective as of …" / "en vigueur au …" date in `text`, as YYYY-MM-DD."""
    found: list[tuple[int, str]] = []
    for m in _EN_DATE_RE.finditer(text):
        iso = _iso(int(m.group(3)), _EN_MONTHS.get(m.group(1).lower()), int(m.group(2)))
        if iso:
            found.append((m.start(), iso))
            break
    for m in _FR_DATE_RE.finditer(text):
        iso = _iso(int(m.group(3)), _FR_MONTHS.get(m.group(2).lower()), int(m.group(1)))
        if iso:
            found.append((m.start(), iso))
            break
    for m in _FR_NUMERIC_DATE_RE.finditer(text):
        iso = _iso(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        if iso:
            found.append((m.start(), iso))
            break
    return min(found)[1] if found else None


# --- helpers shared with the other layouts -----------------------------------------------


def majority_language(paragraphs: list[Paragraph], default: Lang) -> Lang:
    fr = sum(1 for p in paragraphs if p.language == "fr")
    en = len(paragraphs) - fr
    if fr == en:
        return default
    return "fr" if fr > en else "en"


def sequence_issues(rules: list[RawRule], file: str) -> list[ParseIssue]:
    """`gap` issues where a number is missing from the document's sequence."""
    issues: list[ParseIssue] = []
    prev: str | None = None
    chapter: str | None = None
    for rule in rules:
        number = rule.number
        kind = numbers.kind_of(number)
        if kind == "chapter":
            chapter = number
            continue
        if prev is not None and number not in numbers.successors(prev):
            # A new chapter starts its sections at N00.
            new_chapter = (
                kind == "section"
                and chapter is not None
                and number == f"{chapter}00"
                and numbers.kind_of(prev) != "chapter"
            )
            if not new_chapter:
                issues.append(
                    ParseIssue(
                        kind="gap",
                        message=f"numérotation interrompue : {number} suit {prev} "
                        f"(règle(s) manquante(s) entre les deux)",
                        number=number,
                        source=rule.source,
                    )
                )
        prev = number
    return issues


def empty_rule_issues(rules: list[RawRule]) -> list[ParseIssue]:
    """`empty_rule` issues for numbered rules without text (a cut or damaged document)."""
    return [
        ParseIssue(
            kind="empty_rule",
            message=f"la règle {rule.number} n'a pas de texte",
            number=rule.number,
            source=rule.source,
        )
        for rule in rules
        if numbers.kind_of(rule.number) in ("rule", "subrule") and not rule.paragraphs
    ]


class RuleBuilder:
    """Accumulates rules in document order, with duplicate numbers renumbered when the
    sequence makes the intended number obvious."""

    def __init__(self, file: str, default: Lang) -> None:
        self.file = file
        self.default = default
        self.rules: list[RawRule] = []
        self.by_number: dict[str, RawRule] = {}
        self.issues: list[ParseIssue] = []
        self.all_paragraphs: list[Paragraph] = []

    @property
    def current(self) -> RawRule | None:
        return self.rules[-1] if self.rules else None

    def paragraph(self, text: str, line: int, kind: ParagraphKind = "text") -> Paragraph:
        p = Paragraph(
            text=text,
            language=detect_language(text, self.default),
            source=Source(self.file, line),
            kind=kind,
        )
        self.all_paragraphs.append(p)
        return p

    def start(self, number: str, line: int, title: str | None = None) -> RawRule | None:
        """Open a new rule; None when the number is a duplicate that could not be fixed."""
        if number in self.by_number:
            fixed = self._renumber(number)
            if fixed is None:
                self.issues.append(
                    ParseIssue(
                        kind="unparsed",
                        message=f"le numéro {number} apparaît deux fois (ligne {line}) ; "
                        f"le texte est rattaché à la règle précédente",
                        number=number,
                        source=Source(self.file, line),
                    )
                )
                return None
            self.issues.append(
                ParseIssue(
                    kind="duplicate_fixed",
                    message=f"le numéro {number} apparaît deux fois ; la seconde occurrence "
                    f"(ligne {line}) est renumérotée {fixed}",
                    number=fixed,
                    source=Source(self.file, line),
                )
            )
            number = fixed
        rule = RawRule(number=number, title=title, source=Source(self.file, line))
        self.rules.append(rule)
        self.by_number[number] = rule
        return rule

    def _renumber(self, number: str) -> str | None:
        prev = self.current
        if prev is None:
            return None
        kind = numbers.kind_of(number)
        candidates = [
            n
            for n in numbers.successors(prev.number)
            if numbers.kind_of(n) == kind
            and n not in self.by_number
            and numbers.parent(n) == numbers.parent(number)
        ]
        return candidates[0] if len(candidates) == 1 else None


# --- the parser --------------------------------------------------------------------------


def _is_rule_line(raw: str) -> re.Match[str] | None:
    if raw.startswith(_INDENT):
        return None
    return RULE_RE.match(raw.strip())


def _find_rules_start(lines: list[str], first_rule: int) -> int:
    """Index where the rules part begins: the first rule, plus the section heading and
    chapter heading right above it (blank lines between them allowed)."""
    m = RULE_RE.match(lines[first_rule].strip())
    if m is None:
        return first_rule
    wanted = [m.group(1), m.group(1)[0]]  # its section, then its chapter
    start = first_rule
    i = first_rule - 1
    while i >= 0 and wanted:
        s = lines[i].strip()
        if not s:
            i -= 1
            continue
        h = SECTION_RE.match(s) or CHAPTER_RE.match(s)
        if h is None or h.group(1) != wanted[0]:
            break
        wanted.pop(0)
        start = i
        i -= 1
    return start


def parse(text: str, file: str) -> ParsedDocument:
    """Parse an official-layout document (English or French) into a ParsedDocument."""
    lines = text.split("\n")
    doc = ParsedDocument(file=file, layout="official")
    doc.date = find_effective_date(text[:20000]) or find_effective_date(text)

    first_rule = next((i for i, raw in enumerate(lines) if _is_rule_line(raw)), None)
    if first_rule is None:
        raise DocumentError(
            f"Le fichier « {file} » ne contient aucune règle numérotée "
            f"(aucune ligne du type « 100.1. … » sur ses {len(lines)} lignes).",
            file,
            len(lines),
        )
    rules_start = _find_rules_start(lines, first_rule)

    # The contents: numbered lines between "Contents" (or the top) and the rules.
    contents_from = next(
        (i for i in range(rules_start) if _marker(lines[i]) in _CONTENTS_MARKERS), None
    )
    if contents_from is not None:
        for raw in lines[contents_from + 1 : rules_start]:
            c = CONTENTS_RE.match(raw.strip())
            if c and c.group(1) not in doc.contents:
                doc.contents[c.group(1)] = c.group(2).strip()

    glossary_at = None
    rules_end = len(lines)
    for i in range(rules_start, len(lines)):
        mark = _marker(lines[i])
        if mark in _GLOSSARY_MARKERS:
            glossary_at = rules_end = i
            break
        if mark in _END_MARKERS:
            rules_end = i
            break
    announced = contents_from is not None and any(
        _marker(lines[i]) in _GLOSSARY_MARKERS for i in range(contents_from, rules_start)
    )
    if announced and glossary_at is None:
        # The contents promise a glossary: its absence means the file was cut short.
        raise DocumentError(
            f"Le fichier « {file} » semble tronqué : le sommaire annonce un glossaire, "
            f"absent après les règles (le texte s'arrête ligne {len(lines)}).",
            file,
            len(lines),
        )
    glossary_end = len(lines)
    if glossary_at is not None:
        glossary_end = next(
            (j for j in range(glossary_at + 1, len(lines)) if _marker(lines[j]) in _END_MARKERS),
            len(lines),
        )

    default = detect_language(text[:50000])
    b = RuleBuilder(file, default)
    _parse_rules(lines, rules_start, rules_end, b)
    doc.rules = b.rules
    if glossary_at is not None:
        doc.glossary = _parse_glossary(lines, glossary_at + 1, glossary_end, b)

    doc.issues = b.issues + sequence_issues(b.rules, file) + empty_rule_issues(b.rules)
    doc.language = majority_language(b.all_paragraphs, default)
    return doc


def _join_split_number(s: str, previous: str) -> str:
    """`606. 8b text` as `606.8b text` when 606.8b may follow `previous`; else `s` as is."""
    split = SPLIT_RULE_RE.match(s)
    if split is None:
        return s
    joined = numbers.canonical(f"{split.group(1)}.{split.group(2)}")
    if joined is None or joined not in numbers.successors(previous):
        return s
    return f"{joined} {split.group(3)}"


def _parse_rules(lines: list[str], start: int, end: int, b: RuleBuilder) -> None:
    current: RawRule | None = None
    for i in range(start, end):
        raw = lines[i]
        s = raw.strip()
        if not s:
            continue
        line = i + 1
        indented = raw.startswith(_INDENT)

        if not indented and current is not None:
            s = _join_split_number(s, current.number)
        m = None if indented else RULE_RE.match(s)
        if m is not None:
            number = numbers.canonical(f"{m.group(1)}.{m.group(2)}{m.group(3) or ''}")
            if number is None:
                b.issues.append(
                    ParseIssue(
                        kind="unparsed",
                        message=f"numéro de règle invalide « {s.split()[0]} » (ligne {line}) : "
                        f"les sous-règles sautent les lettres l et o",
                        source=Source(b.file, line),
                    )
                )
            else:
                rule = b.start(number, line)
                if rule is not None:
                    current = rule
                    if m.group(4):
                        current.paragraphs.append(b.paragraph(m.group(4).strip(), line))
                    continue
        elif not indented:
            h = SECTION_RE.match(s) or CHAPTER_RE.match(s)
            if h is not None:
                rule = b.start(h.group(1), line, title=h.group(2).strip())
                if rule is not None:
                    current = rule
                    continue

        if current is None:
            b.issues.append(
                ParseIssue(
                    kind="unparsed",
                    message=f"ligne {line} hors de toute règle : « {s[:60]} »",
                    source=Source(b.file, line),
                )
            )
            continue
        kind: ParagraphKind = "example" if EXAMPLE_RE.match(s) else "text"
        current.paragraphs.append(b.paragraph(s, line, kind))


def _indented_next(lines: list[str], i: int, end: int) -> bool:
    """Whether the next non-blank line after `i` (before `end`) is indented."""
    j = next((j for j in range(i + 1, end) if lines[j].strip()), None)
    return j is not None and lines[j].startswith(_INDENT)


def _parse_glossary(lines: list[str], start: int, end: int, b: RuleBuilder) -> list[GlossaryEntry]:
    """Entries are blocks: the term, then definition lines, then a blank line. An indented
    line after a blank line still belongs to the entry above (2008 continuation style), and
    so does a lone line between blank lines followed by indented ones: a heading inside the
    entry (2003's "Expansion Symbol" lists its sets under "Expansions and Editions"…)."""
    blocks: list[list[int]] = []
    block: list[int] = []
    for i in range(start, end):
        raw = lines[i]
        if not raw.strip():
            if len(block) == 1 and blocks and _indented_next(lines, i, end):
                block = blocks.pop() + block
            if block:
                blocks.append(block)
                block = []
            continue
        if not block and raw.startswith(_INDENT) and blocks:
            block = blocks.pop()
        block.append(i)
    if block:
        blocks.append(block)

    entries: list[GlossaryEntry] = []
    for block in blocks:
        term_at = block[0]
        term = lines[term_at].strip()
        paragraphs = []
        for i in block[1:]:
            s = lines[i].strip()
            kind: ParagraphKind = "example" if EXAMPLE_RE.match(s) else "text"
            paragraphs.append(b.paragraph(s, i + 1, kind))
        if not paragraphs:
            b.issues.append(
                ParseIssue(
                    kind="unparsed",
                    message=f"entrée de glossaire « {term} » sans définition (ligne {term_at + 1})",
                    source=Source(b.file, term_at + 1),
                )
            )
        entries.append(
            GlossaryEntry(
                edition="",
                term=term,
                paragraphs=tuple(paragraphs),
                source=Source(b.file, term_at + 1),
            )
        )
    return entries

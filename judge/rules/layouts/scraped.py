"""The scraped current layout (seeds 000, 003, 004): a table of contents, then
one section whose main rule numbers were lost. `704.` is followed by 704.1; a
lettered sub-rule keeps its number; each bare paragraph starts the next rule."""

from __future__ import annotations

import re

from judge.rules.errors import DocumentError
from judge.rules.language import detect_language
from judge.rules.model import Paragraph, ParsedDocument, ParseIssue, RawRule, Source
from judge.rules.numbers import split

_CHAPTER = re.compile(r"^(\d)\.\s+(\S.*)$")
_SECTION = re.compile(r"^(\d{3})\.\s+(\S.*)$")
_NUMBERED = re.compile(r"^(\d{3}\.\d{1,3}(?:[a-z]{1,2})?)\.?\s+(\S.*)$")
EXAMPLE = re.compile(r"^(?:Exemple|Example)\s*:\s*", re.IGNORECASE)


def _heading(line: str) -> tuple[str, str] | None:
    m = _SECTION.match(line) or _CHAPTER.match(line)
    return (m.group(1), m.group(2).strip()) if m else None


def parse(text: str, file: str) -> ParsedDocument:
    doc = ParsedDocument(file=file, layout="scraped")
    lines = text.split("\n")
    i = _page_titles(doc, lines, file)
    i = _contents(doc, lines, i)
    body = _Body(doc, file)
    for j in range(i, len(lines)):
        line = lines[j].strip()
        if line:
            body.line(line, j + 1)
    if not any(r.paragraphs for r in doc.rules):
        raise DocumentError(f"{file} : aucune règle trouvée dans le document", file=file)
    doc.language = "fr"
    return doc


def _page_titles(doc: ParsedDocument, lines: list[str], file: str) -> int:
    """Skip the page title(s) before the contents; the index of the first heading."""
    i = 0
    while i < len(lines) and _heading(lines[i].strip()) is None:
        if lines[i].strip():
            doc.issues.append(
                ParseIssue(
                    "not_rules",
                    f"{file}, ligne {i + 1} hors règles (titre de page) : "
                    f"« {lines[i].strip()[:60]} »",
                    source=Source(file, i + 1),
                )
            )
        i += 1
    return i


def _contents(doc: ParsedDocument, lines: list[str], i: int) -> int:
    """The contents from line `i`: headings in increasing order. The body starts at the first
    heading that goes back (e.g. "704." after "905.") or the first non-heading; its index."""
    last_key = -1
    while i < len(lines):
        line = lines[i].strip()
        if not line:
            i += 1
            continue
        h = _heading(line)
        if h is None:
            break
        key = int(h[0]) * 100 - 1 if len(h[0]) == 1 else int(h[0])
        if key <= last_key:
            break
        doc.contents[h[0]] = h[1]
        last_key = key
        i += 1
    return i


class _Body:
    """The body, line by line: section headings, numbered rules, examples, and bare
    paragraphs numbered by their position."""

    def __init__(self, doc: ParsedDocument, file: str) -> None:
        self.doc = doc
        self.file = file
        self.section: str | None = None
        self.current: RawRule | None = None
        self.rule_counter = 0

    def line(self, line: str, lineno: int) -> None:
        src = Source(self.file, lineno)
        sec = _SECTION.match(line)
        if sec and (sec.group(1) in self.doc.contents or self.section is None):
            self.section = sec.group(1)
            self.rule_counter = 0
            self._add(RawRule(self.section, title=sec.group(2).strip(), source=src))
            return
        if self.section is None:
            raise DocumentError(
                f"{self.file}, ligne {lineno} : texte de règle avant tout titre de section",
                file=self.file,
                line=lineno,
            )
        if EXAMPLE.match(line) and self.current is not None:
            self.current.paragraphs.append(
                Paragraph(line, detect_language(line), src, kind="example")
            )
            return
        num = _NUMBERED.match(line)
        if num and num.group(1).startswith(self.section + "."):
            self._numbered(num.group(1), num.group(2), src)
            return
        # A bare paragraph: the next main rule of the section, numbered by position.
        self.rule_counter += 1
        number = f"{self.section}.{self.rule_counter}"
        self._add(RawRule(number, source=src, inferred=True), line, src)
        self.doc.issues.append(
            ParseIssue("inferred", f"{number} : numéro déduit de la position", number, src)
        )

    def _numbered(self, number: str, body: str, src: Source) -> None:
        _sec, rule, letters = split(number)
        if letters and rule != self.rule_counter:
            self.doc.issues.append(
                ParseIssue(
                    "inferred",
                    f"{number} ne suit pas la règle {self.section}.{self.rule_counter} déduite ; "
                    f"numérotation recalée sur {self.section}.{rule}",
                    number=number,
                    source=src,
                )
            )
        self.rule_counter = rule
        self._add(RawRule(number, source=src), body, src)

    def _add(self, rule: RawRule, text: str | None = None, src: Source | None = None) -> None:
        if text is not None and src is not None:
            rule.paragraphs.append(Paragraph(text, detect_language(text), src))
        self.current = rule
        self.doc.rules.append(rule)

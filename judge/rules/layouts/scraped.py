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
    i = 0
    # Skip the page title(s) before the contents.
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
    # The contents: headings in increasing order. The body starts at the first
    # heading that goes back (e.g. "704." after "905.") or the first non-heading.
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

    section: str | None = None
    current: RawRule | None = None
    rule_counter = 0
    for j in range(i, len(lines)):
        line = lines[j].strip()
        if not line:
            continue
        src = Source(file, j + 1)
        sec = _SECTION.match(line)
        if sec and (sec.group(1) in doc.contents or section is None):
            section = sec.group(1)
            rule_counter = 0
            current = RawRule(section, title=sec.group(2).strip(), source=src)
            doc.rules.append(current)
            continue
        if section is None:
            raise DocumentError(
                f"{file}, ligne {j + 1} : texte de règle avant tout titre de section",
                file=file,
                line=j + 1,
            )
        ex = EXAMPLE.match(line)
        if ex and current is not None:
            current.paragraphs.append(Paragraph(line, detect_language(line), src, kind="example"))
            continue
        num = _NUMBERED.match(line)
        if num and num.group(1).startswith(section + "."):
            number = num.group(1)
            _sec, rule, letters = split(number)
            if letters and rule != rule_counter:
                doc.issues.append(
                    ParseIssue(
                        "inferred",
                        f"{number} ne suit pas la règle {section}.{rule_counter} déduite ; "
                        f"numérotation recalée sur {section}.{rule}",
                        number=number,
                        source=src,
                    )
                )
            rule_counter = rule
            body = num.group(2)
            current = RawRule(number, source=src)
            current.paragraphs.append(Paragraph(body, detect_language(body), src))
            doc.rules.append(current)
            continue
        # A bare paragraph: the next main rule of the section, numbered by position.
        rule_counter += 1
        number = f"{section}.{rule_counter}"
        current = RawRule(number, source=src, inferred=True)
        current.paragraphs.append(Paragraph(line, detect_language(line), src))
        doc.rules.append(current)
        doc.issues.append(
            ParseIssue("inferred", f"{number} : numéro déduit de la position", number, src)
        )
    if not any(r.paragraphs for r in doc.rules):
        raise DocumentError(f"{file} : aucune règle trouvée dans le document", file=file)
    doc.language = "fr"
    return doc

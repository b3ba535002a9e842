"""The 2011 French layout (seed 002): a contents list (`1. Concepts du Jeu`,
`- 100. Généralités`), then a section headed `118. Concepts du Jeu : Points de
Vie` whose rule numbers are glued to the end of the previous sentence."""

from __future__ import annotations

import re

from judge.rules.errors import DocumentError
from judge.rules.layouts.runon import split_rules
from judge.rules.model import ParsedDocument, ParseIssue, Source

_CHAPTER = re.compile(r"^(\d)\.\s+(\S.*)$")
_SECTION = re.compile(r"^-\s*(\d{3})\.\s+(\S.*)$")
_BODY_HEAD = re.compile(r"^(\d{3})\.\s+(\S.*)$")
_DATES = re.compile(r"R[èe]gles\s+FR\s*\[(\d{2})/(\d{2})/(\d{4})\]")
# An example glued to the end of the sentence before it (`… »Exemple : Un joueur…`, 118.9):
# given the space the rule splitter expects before `Exemple :`. No newline is added, so
# every line number stays.
_GLUED_EXAMPLE = re.compile(r"(?<=[.!?»\"”)\]])(?=(?:Exemple|Example)\s*:)")


def parse(text: str, file: str) -> ParsedDocument:
    doc = ParsedDocument(file=file, layout="glued_2011", language="fr")
    lines = text.split("\n")
    m = _DATES.search(text[:2000])
    if m:
        doc.date = f"{m.group(3)}-{m.group(2)}-{m.group(1)}"
    body_start: int | None = None
    seen_contents = False
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            continue
        ch, sec = _CHAPTER.match(line), _SECTION.match(line)
        if sec:
            doc.contents[sec.group(1)] = sec.group(2).strip()
            seen_contents = True
        elif ch:
            doc.contents[ch.group(1)] = ch.group(2).strip()
            seen_contents = True
        elif _BODY_HEAD.match(line) and seen_contents:
            body_start = i
            break
        else:
            doc.issues.append(
                ParseIssue(
                    "not_rules",
                    f"{file}, ligne {i + 1} hors règles (en-tête) : « {line[:60]} »",
                    source=Source(file, i + 1),
                )
            )
    if body_start is None:
        raise DocumentError(f"{file} : aucune règle trouvée après le sommaire", file=file)
    body = _GLUED_EXAMPLE.sub(" ", "\n".join(lines[body_start:]))
    split_rules(body, file, body_start + 1, doc)
    chapters = {v.casefold() for k, v in doc.contents.items() if len(k) == 1}
    for rule in doc.rules:
        # "Concepts du Jeu : Points de Vie": the chapter name prefixes the title.
        if rule.title and " : " in rule.title:
            prefix, rest = rule.title.split(" : ", 1)
            if prefix.casefold() in chapters:
                rule.title = rest.strip()
    if not any(r.paragraphs for r in doc.rules):
        raise DocumentError(f"{file} : aucune règle trouvée dans le document", file=file)
    return doc

"""The pre-2009 inline layout (seed 001): rules 420.2–420.5k and 408.1–408.1i
run together on a few lines, after a judge's question that is not rule text."""

from __future__ import annotations

import re

from judge.rules.errors import DocumentError
from judge.rules.layouts.runon import split_rules
from judge.rules.model import ParsedDocument, ParseIssue, Source

_RULE_START = re.compile(r"^\s*\d{3}\.(?:\d{1,2}[a-z]{0,2}\.?)?\s")


def parse(text: str, file: str) -> ParsedDocument:
    doc = ParsedDocument(file=file, layout="inline_pre2009", language="fr")
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if _RULE_START.match(line)), None)
    if first is None:
        raise DocumentError(f"{file} : aucune règle trouvée dans le document", file=file)
    for i in range(first):
        if lines[i].strip():
            doc.issues.append(
                ParseIssue(
                    "not_rules",
                    f"{file}, ligne {i + 1} hors règles (question ou note) : "
                    f"« {lines[i].strip()[:60]} »",
                    source=Source(file, i + 1),
                )
            )
    split_rules("\n".join(lines[first:]), file, first + 1, doc)
    if not any(r.paragraphs for r in doc.rules):
        raise DocumentError(f"{file} : aucune règle trouvée dans le document", file=file)
    return doc

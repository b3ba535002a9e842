"""Rule text whose numbers are run together with the prose: glued to the end of
the previous sentence (`…à la place.118.1a`), alone on a line (`118.1.`), or
inline (`… en jeu. 420.5g Un joueur…`). Shared by the 2011 and pre-2009 layouts.

A number is taken as a rule start only when it is not part of a citation
(`voir règle 408.2d`, `Cf. règle 119.3.`) and it can follow the previous rule."""

from __future__ import annotations

import bisect
import re

from judge.rules.language import detect_language
from judge.rules.model import (
    Paragraph,
    ParagraphKind,
    ParsedDocument,
    ParseIssue,
    RawRule,
    Source,
)
from judge.rules.numbers import kind_of, next_letter, sort_key, split, successors

_MARKER = re.compile(
    r"(?:(?<=^)|(?<=\s)|(?<=[.»\"”)\]]))(\d{3}\.\d{1,2}[a-z]{0,2})\.?(?=\s|$)", re.MULTILINE
)
_SECTION_HEAD = re.compile(r"^(\d{3})\.[ \t]+(?=\S)", re.MULTILINE)
# Words that make the following number a citation, not a rule start.
_CITING = re.compile(
    r"(?:r[èe]gles?|rules?|voir|cf\.?|see|section|et|and|ou|or|,|à|to|-|–)\s*$",
    re.IGNORECASE,
)
_EXAMPLE_SPLIT = re.compile(r"\s(?=(?:Exemple|Example)\s*:)")
_SPACES = re.compile(r"\s+")


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


class _Lines:
    def __init__(self, text: str, first_line: int) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.first = first_line

    def line_of(self, offset: int) -> int:
        return self.first + bisect.bisect_right(self.starts, offset) - 1


def split_rules(body: str, file: str, first_line: int, doc: ParsedDocument) -> None:
    """Append the rules of `body` (which starts at line `first_line`) to `doc`."""
    lines = _Lines(body, first_line)
    events: list[tuple[int, int, str, str]] = []  # (start, end, kind, number)
    for m in _SECTION_HEAD.finditer(body):
        events.append((m.start(), m.end(), "section", m.group(1)))
    section_spans = {e[0] for e in events}
    for m in _MARKER.finditer(body):
        if m.start() not in section_spans:
            events.append((m.start(), m.end(), "rule", m.group(1)))
    events.sort()

    accepted: list[tuple[int, int, str, str]] = []
    current: str | None = None
    section: str | None = None
    for start, end, kind, number in events:
        if kind == "section":
            accepted.append((start, end, kind, number))
            section, current = number, None
            continue
        before = body[max(0, start - 30) : start]
        if _CITING.search(before):
            continue
        if current is None:
            if section is not None and not number.startswith(section + "."):
                continue
        elif number == current and kind_of(number) == "subrule":
            sec, rule, letters = split(number)
            fixed = f"{sec}.{rule}{next_letter(letters)}"
            doc.issues.append(
                ParseIssue(
                    "duplicate_fixed",
                    f"{number} imprimé deux fois : le second est renuméroté {fixed}",
                    number=fixed,
                    source=Source(file, lines.line_of(start)),
                )
            )
            number = fixed
        elif number not in successors(current):
            # A forward jump is kept only after the end of a sentence.
            forward = sort_key(number) > sort_key(current)
            if not (forward and re.search(r"[.!?»\")]\s*$", before)):
                continue
        accepted.append((start, end, kind, number))
        current = number

    for idx, (start, end, kind, number) in enumerate(accepted):
        stop = accepted[idx + 1][0] if idx + 1 < len(accepted) else len(body)
        chunk = body[end:stop]
        lead = len(chunk) - len(chunk.lstrip())
        src = Source(file, lines.line_of(end + lead if chunk.strip() else start))
        if kind == "section":
            doc.rules.append(RawRule(number, title=_clean(chunk).rstrip(" :"), source=src))
            continue
        raw = RawRule(number, source=src)
        parts = _EXAMPLE_SPLIT.split(" " + chunk)
        for n, part in enumerate(parts):
            text = _clean(part)
            if text:
                kind_p: ParagraphKind = "example" if n > 0 else "text"
                raw.paragraphs.append(Paragraph(text, detect_language(text), src, kind_p))
        if not raw.paragraphs:
            doc.issues.append(
                ParseIssue(
                    "empty_rule",
                    f"{number} : numéro sans texte (document tronqué ?)",
                    number=number,
                    source=src,
                )
            )
        doc.rules.append(raw)

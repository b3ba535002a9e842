"""A rules PDF to the text the `official` layout reads: one paragraph per line.

The text layer (pypdfium2) gives lines; their geometry says how they join. A line wraps into
the next one when the next line's first word would not have fitted in the space left at the
right margin (or, in PDFs printed from Word, when the line ends with a space), unless the
next line is indented past a continuation line, further down than the usual line pitch, in
another font weight, or starts a rule or an example after a finished sentence. Lines
repeated at the top or bottom of many pages (running headers, footers) and bare page numbers
are dropped. A hyphen pdfium marks at a line break (U+FFFE) is kept when the document writes
the word with a hyphen elsewhere, dropped when it writes it joined. Paragraphs are separated
by a blank line, except inside a glossary entry (its term and definition paragraphs stay
together, the way the official text lays them out).
"""

from __future__ import annotations

import ctypes
import itertools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from judge.rules.errors import DocumentError

PDF_MAGIC = b"%PDF-"

_LINE_PITCH = 1.45  # a gap above this many usual pitches separates paragraphs
_TERM_SPACE = 1.75  # line pitches above a glossary term when terms are not bold
_INDENT_MIN = 3.0  # points: a first line indented this much starts a paragraph
_REPEAT_SHARE = 0.3  # a top/bottom line on this share of pages is a running header/footer
_PAGE_NUMBER_RE = re.compile(r"(?i)(?:page\s*)?\d{1,4}(?:\s*(?:/|of|sur)\s*\d{1,4})?")
_SOFT_HYPHEN = "\ufffe"  # pdfium's mark for a hyphen at a line break it joined
_HYPHENATED_RE = re.compile(r"(\w+)\ufffe(\w+)")
# A line that starts a rule, a section or a numbered definition after a finished sentence
# starts a paragraph; so does every `Example:` line.
_STARTS_RE = re.compile(r"(?:\d{3}\.\d+[a-z]{0,2}\.?|\d{1,3}\.) ")
_EXAMPLE_RE = re.compile(r"Examples?: ")
_SENTENCE_ENDS = (".", "”", '"', ")", ":", "?", "!", "’")


@dataclass
class _Line:
    text: str
    page: int
    left: float
    right: float
    baseline: float  # of the first character
    last_baseline: float  # of the last character
    first_word: float  # width of the first word
    bold: bool  # the whole line (first and last characters) in a bold font
    soft: bool  # the text layer ends the line with a space: Word's mark of a wrapped line


def _q(file: str) -> str:
    return f"« {file} »"


def _open(data: bytes, file: str) -> Any:
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        reason = str(exc).lower()
        if "password" in reason:
            raise DocumentError(
                f"Le fichier {_q(file)} est un PDF chiffré (protégé par mot de passe) : "
                "enregistrez-en une copie sans protection, ou importez la version texte.",
                file,
            ) from None
        raise DocumentError(
            f"Le fichier {_q(file)} n'est pas un PDF lisible (fichier tronqué ou "
            f"endommagé : {exc}).",
            file,
        ) from None


def _is_bold(raw: Any, textpage: Any, index: int) -> bool:
    buf = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    raw.FPDFText_GetFontInfo(textpage, index, buf, len(buf), ctypes.byref(flags))
    name = buf.value.decode("latin-1").lower()
    return "bold" in name or raw.FPDFText_GetFontWeight(textpage, index) >= 600


def _page_lines(page: Any, number: int) -> list[_Line]:
    import pypdfium2.raw as raw

    textpage = page.get_textpage()
    text = textpage.get_text_range()
    out: list[_Line] = []
    x = ctypes.c_double()
    y = ctypes.c_double()
    pos = 0
    for line in text.split("\r\n"):
        body = line.rstrip()
        lead = len(body) - len(body.lstrip())
        body = body.strip()
        if body:
            first = pos + lead
            last = first + len(body) - 1
            word_end = first + len(body.split()[0]) - 1
            # The pen position, not the glyph's box: an opening quote's box starts right of
            # the margin and looked indented (2024's 701.19f).
            raw.FPDFText_GetCharOrigin(textpage.raw, first, ctypes.byref(x), ctypes.byref(y))
            left, baseline = x.value, y.value
            # pdfium joins a line ending in a hyphen with the next: its last character
            # can sit one physical line lower than its first.
            raw.FPDFText_GetCharOrigin(textpage.raw, last, ctypes.byref(x), ctypes.byref(y))
            out.append(
                _Line(
                    text=body,
                    page=number,
                    left=left,
                    right=textpage.get_charbox(last)[2],
                    baseline=baseline,
                    last_baseline=y.value,
                    first_word=textpage.get_charbox(word_end)[2] - left,
                    bold=_is_bold(raw, textpage.raw, first) and _is_bold(raw, textpage.raw, last),
                    soft=line.endswith(" "),
                )
            )
        pos += len(line) + 2
    # Top to bottom, then left to right: the content stream may draw lines out of order.
    out.sort(key=lambda ln: (-round(ln.baseline), ln.left))
    return out


def _running_lines(pages: list[list[_Line]]) -> set[str]:
    """Texts (digits folded) found among the first or last two lines of many pages."""
    seen: Counter[str] = Counter()
    for lines in pages:
        edge = {re.sub(r"\d+", "#", ln.text) for ln in lines[:2] + lines[-2:]}
        seen.update(edge)
    limit = max(3, int(_REPEAT_SHARE * len(pages)))
    return {text for text, count in seen.items() if count >= limit}


def _body_lines(pages: list[list[_Line]]) -> list[_Line]:
    running = _running_lines(pages)
    out: list[_Line] = []
    for lines in pages:
        for i, line in enumerate(lines):
            at_edge = i < 2 or i >= len(lines) - 2
            if at_edge and (
                _PAGE_NUMBER_RE.fullmatch(line.text) or re.sub(r"\d+", "#", line.text) in running
            ):
                continue
            out.append(line)
    return out


def _usual(values: list[float], default: float) -> float:
    rounded = Counter(round(v) for v in values)
    return float(rounded.most_common(1)[0][0]) if rounded else default


# text, bold, first line indented, space above it in line pitches (None at a page top)
_Para = tuple[str, bool, bool, float | None]


@dataclass
class _Page:
    """What a document's lines have in common: margins, line pitch, wrap marks."""

    margin_left: float
    margin_right: float
    pitch: float
    soft_marks: bool

    @classmethod
    def of(cls, lines: list[_Line]) -> _Page:
        pitches = [
            a.last_baseline - b.baseline
            for a, b in itertools.pairwise(lines)
            if a.page == b.page and a.last_baseline > b.baseline
        ]
        rights = sorted(ln.right for ln in lines)
        return cls(
            margin_left=_usual([ln.left for ln in lines], 0.0),
            # Not the maximum: a few lines (URLs, tables) run past the text block.
            margin_right=rights[int(0.98 * (len(rights) - 1))],
            pitch=_usual(pitches, 12.0),
            # PDFs printed from Word end most wrapped lines with a space.
            soft_marks=sum(ln.soft for ln in lines) > 0.3 * len(lines),
        )

    def wraps(self, prev: _Line, line: _Line, head: _Line, after: _Line | None) -> bool:
        """Whether `line` continues the paragraph `prev` belongs to (`head` its first line,
        `after` the line after `line`)."""
        if line.bold != prev.bold:
            return False
        gap = prev.last_baseline - line.baseline
        if prev.page == line.page and gap >= self.pitch * _LINE_PITCH:
            return False
        # A hanging indent (the rule number's line, then indented lines) is one paragraph;
        # a line indented past a continuation line starts a new one, and so does one
        # indented past a finished sentence that is not a rule's (2006's glossary:
        # "Legendary is a supertype … and so on)." then an indented paragraph).
        if line.left >= prev.left + _INDENT_MIN and (
            prev is not head
            or (prev.text.endswith(_SENTENCE_ENDS) and not _STARTS_RE.match(head.text))
        ):
            return False
        if _EXAMPLE_RE.match(line.text) or (
            _STARTS_RE.match(line.text) and prev.text.endswith(_SENTENCE_ENDS)
        ):
            return False
        # At a page top, after a finished sentence, a short line without an end of its own
        # is a heading or a glossary term (2006: "Distribute"), not the end of a paragraph.
        # So is one after an unfinished list when the line after it starts at the same place
        # and is no rule (2006: "…, Urza’s", then the term "Landcycling" and its definition).
        if (
            prev.page != line.page
            and not line.text.endswith(_SENTENCE_ENDS)
            and line.right - self.margin_left < (self.margin_right - self.margin_left) / 2
            and (
                prev.text.endswith(_SENTENCE_ENDS)
                or (
                    after is not None
                    and after.page == line.page
                    and abs(after.left - line.left) < 1.0
                    and not _STARTS_RE.match(after.text)
                )
            )
        ):
            return False
        if self.soft_marks and prev.soft:
            return True
        # The next word would not have fitted at the end of `prev`.
        return self.margin_right - prev.right < line.first_word + self.pitch * 0.3


def _paragraphs(lines: list[_Line]) -> list[_Para]:
    """(text, bold, indented, space above) of each paragraph, wrapped lines joined."""
    if not lines:
        return []
    page = _Page.of(lines)
    indent = page.margin_left + _INDENT_MIN
    out: list[_Para] = []
    current = [lines[0].text]
    head = lines[0]
    above: float | None = None
    for i, (prev, line) in enumerate(itertools.pairwise(lines)):
        after = lines[i + 2] if i + 2 < len(lines) else None
        if page.wraps(prev, line, head, after):
            current.append(line.text)
            continue
        out.append((_join(current), prev.bold, head.left >= indent, above))
        current = [line.text]
        head = line
        same_page = prev.page == line.page
        above = (prev.last_baseline - line.baseline) / page.pitch if same_page else None
    out.append((_join(current), lines[-1].bold, head.left >= indent, above))
    return out


def _join(parts: list[str]) -> str:
    text = parts[0]
    for part in parts[1:]:
        glued = text.endswith(("-", _SOFT_HYPHEN)) or (
            text.endswith(("—", "–")) and not text[:-1].endswith(" ")
        )
        text = text + part if glued else f"{text} {part}"
    return text


def _unhyphenate(text: str) -> str:
    """Keep a line-break hyphen when the word is written with one elsewhere in the document,
    drop it when the word is written joined (and as many or more times)."""
    words = Counter(re.findall(r"[\w-]+", text.lower()))

    def fix(m: re.Match[str]) -> str:
        a, b = m.group(1), m.group(2)
        joined, dashed = f"{a}{b}".lower(), f"{a}-{b}".lower()
        return f"{a}{b}" if words[joined] > words[dashed] else f"{a}-{b}"

    return _HYPHENATED_RE.sub(fix, text).replace(_SOFT_HYPHEN, "-")


def _layout(paragraphs: list[_Para]) -> str:
    """One paragraph per line, blank lines between them; in the glossary (after the last
    `Glossary` heading), a blank line only before a term."""
    starts = [i for i, p in enumerate(paragraphs) if p[0].strip().lower() == "glossary"]
    glossary = starts[-1] if starts else len(paragraphs)
    tail = paragraphs[glossary + 1 :]
    bold_terms = sum(p[1] for p in tail) > 0.2 * len(tail)
    out: list[str] = []
    previous_term = False
    for i, (text, bold, indented, above) in enumerate(paragraphs):
        if i <= glossary or text.strip().lower() == "credits":
            out.extend((text, ""))
            glossary = len(paragraphs) if i > glossary else glossary
            continue
        # Without bold terms (2006), a term has more space above it than a paragraph; at
        # the top of a page, it is a paragraph at the margin that does not follow a term
        # (indented paragraphs continue a definition).
        if bold_terms:
            term = bold
        elif above is not None:
            term = above >= _TERM_SPACE
        else:
            term = not (indented or previous_term)
        if term and out and out[-1] != "":
            out.append("")
        out.append(text)
        previous_term = term
    return "\n".join(out).strip() + "\n"


def extract_text(data: bytes, file: str) -> str:
    """The text of a rules PDF. Raises DocumentError (French, naming the file) for a PDF
    that is encrypted, damaged, or has no text layer (scanned pages)."""
    import pypdfium2 as pdfium

    document = _open(data, file)
    try:
        pages = [_page_lines(page, n) for n, page in enumerate(document)]
    except pdfium.PdfiumError as exc:
        raise DocumentError(
            f"Le fichier {_q(file)} est un PDF endommagé : une page ne se lit pas ({exc}).",
            file,
        ) from None
    finally:
        document.close()
    lines = _body_lines(pages)
    if not lines:
        raise DocumentError(
            f"Le fichier {_q(file)} est un PDF sans texte (pages numérisées en images ?) : "
            "importez la version texte ou Word des règles.",
            file,
        )
    return _unhyphenate(_layout(_paragraphs(lines)))

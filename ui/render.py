"""Turning text that comes from documents or users into something safe to show.

Every string that did not come from this code base (a rule's text, a title, a file name, a
search query, a board's object names, an error message that quotes any of those) goes through
`md()` before it reaches `st.markdown` or any other element that reads Markdown (labels,
help tooltips, captions). `md()` backslash-escapes every ASCII punctuation character, so
Markdown, raw HTML (`<script>`), LaTeX (`$`) and Streamlit's `:color[...]` directives all show
as the characters they are. Nothing in the app calls `unsafe_allow_html`.

`dot()` does the same job for Graphviz DOT strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from judge import inline_view, side_view

if TYPE_CHECKING:
    from judge import DiffPart

# CommonMark lets a backslash escape any ASCII punctuation character.
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")
# Streamlit expands `:name:` emoji and `:material/icon:` shortcodes from the text itself, after
# escapes are resolved: a word joiner after the first colon breaks the shortcode.
_SHORTCODE = re.compile(r":(?=[A-Za-z0-9_+/-]+:)")
_WORD_JOINER = "\u2060"
_EDGE_BLANKS = re.compile(r"^[ \t\u00a0]+|[ \t\u00a0]+$")


def md(text: object) -> str:
    """`text` as inert Markdown: it displays exactly as written, on one line per line."""
    s = str(text)
    s = _SHORTCODE.sub(":" + _WORD_JOINER, s)
    s = _PUNCT.sub(r"\\\1", s)
    # Indentation would make a code block and two trailing spaces a line break: any run of
    # blanks at either end of a line becomes one space (which keeps inline fragments apart).
    lines = s.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = [_EDGE_BLANKS.sub(" ", line) for line in lines]
    return "  \n".join(lines)


def plain(markdown: str) -> str:
    """The inverse of `md()` (tests and the browser compare what a person reads)."""
    s = markdown.replace("  \n", "\n").replace(_WORD_JOINER, "")
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", s)


def highlight(segments: Iterable[tuple[str, bool]]) -> str:
    """Escaped Markdown where the matching segments are shown in bold."""
    out: list[str] = []
    for text, is_match in segments:
        if not is_match or not text.strip():
            out.append(md(text))
            continue
        # `**` must touch the words it wraps: keep the surrounding spaces outside.
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        out.append(f"{md(lead)}**{md(text.strip())}**{md(trail)}")
    return "".join(out)


def shorten(text: str, limit: int = 90) -> str:
    """The first line of `text`, cut at a word boundary."""
    first = text.strip().split("\n", 1)[0]
    if len(first) <= limit:
        return first
    cut = first[:limit].rsplit(" ", 1)[0]
    return cut + "…"


def dot(text: object) -> str:
    """A quoted DOT string (Graphviz) whose content is `text`, verbatim."""
    s = str(text).replace("\\", "\\\\").replace('"', '\\"')
    s = s.replace("\r", "").replace("\n", "\\n")
    return f'"{s}"'


def _mark(text: str, directive: str) -> str:
    """`text` escaped and wrapped in a Streamlit directive, blanks kept outside."""
    if not text.strip():
        return md(text)
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{md(lead)}:{directive}[{md(text.strip())}]{md(trail)}"


def diff_sides(ops: Iterable[DiffPart]) -> tuple[str, str]:
    """Old and new text of a word diff (`Judge.diff`, `Comparison.diff`) as escaped
    Markdown, each side with its own words and spacing: deletions in red on the old side,
    insertions in green on the new side, and a cross-reference renumbered with the rules
    (`408` on one side, `117` on the other) in blue on both. Changes of spacing or of the
    style of apostrophes and quotation marks alone are not marked."""
    ops = list(ops)
    return _side(side_view(ops, "old")), _side(side_view(ops, "new"))


def _side(pieces: Iterable[tuple[str, str]]) -> str:
    out: list[str] = []
    for mark, text in pieces:
        if mark in _SIDE_COLOURS:
            out.append(_mark(text, _SIDE_COLOURS[mark]))
        else:
            out.append(md(text))
    return "".join(out)


_SIDE_COLOURS = {
    "delete": "red-background",
    "insert": "green-background",
    "renumbered": "blue-background",
}


def diff_inline(ops: Iterable[DiffPart]) -> str:
    """One text (the new one, each deletion where it was): deletions struck through in red,
    insertions in green, renumbered cross-references (`408 → 117`) in blue."""
    out: list[str] = []
    for mark, text in inline_view(ops):
        if mark == "delete":
            out.append(_strike(text))
        elif mark in _SIDE_COLOURS:
            out.append(_mark(text, _SIDE_COLOURS[mark]))
        else:
            out.append(md(text))
    return "".join(out)


def _strike(text: str) -> str:
    if not text.strip():
        return md(text)
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{md(lead)}:red-background[~~{md(text.strip())}~~]{md(trail)}"

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

# CommonMark lets a backslash escape any ASCII punctuation character.
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")
# Streamlit expands `:name:` emoji and `:material/icon:` shortcodes from the text itself, after
# escapes are resolved: a word joiner after the first colon breaks the shortcode.
_SHORTCODE = re.compile(r":(?=[A-Za-z0-9_+/-]+:)")
_WORD_JOINER = "\u2060"


def md(text: object) -> str:
    """`text` as inert Markdown: it displays exactly as written, on one line per line."""
    s = str(text)
    s = _SHORTCODE.sub(":" + _WORD_JOINER, s)
    s = _PUNCT.sub(r"\\\1", s)
    # Leading spaces would make an indented code block; hard line breaks keep the lines.
    lines = [line.strip() for line in s.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
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

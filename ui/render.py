"""Turning text that comes from documents or users into something safe to show.

Every string that did not come from this code base (a rule's text, a title, a file name, a
search query, a board's object names, an error message that quotes any of those) goes through
`md()` before it reaches `st.markdown` or any other element that reads Markdown (labels,
help tooltips, captions). `md()` backslash-escapes every ASCII punctuation character, so
Markdown, raw HTML (`<script>`), LaTeX (`$`) and Streamlit's `:color[...]` directives all show
as the characters they are. Nothing in the app calls `unsafe_allow_html`.

No server path reaches the page either: every message built from library text (an error, a
warning, a caption quoting a file or a folder) goes through `redact()` (plain text) or `say()`
(`redact()` then `md()`), which show a path in the store or the project relative to it, any
other absolute path as its last component, and a server folder as « (dossier du serveur) ».
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from judge import generation

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


SERVER_FOLDER = "(dossier du serveur)"
# A POSIX absolute path: a `/` that does not continue a word, a number, a URL or another path
# (`+1/+1`, `et/ou`, `https://…`), then path characters, with at least one after the slash.
_ABSOLUTE = re.compile(r"(?<![\w/:.~\\])/(?:[\w.\-~+@%]+/?)+")
_PROJECT = Path(__file__).resolve().parents[1]


def _server_roots() -> tuple[list[str], list[str]]:
    """The server's own folders, longest first: those whose paths are shown relative to
    them (the store, JUDGE_HOME; the project, which holds the shipped corpus: `editions/x`,
    `corpus/boards/y.json`), and those whose paths are cut to their last component (the
    temporary folder, the user's home). Spaces allowed."""
    relative = {str(_PROJECT)}
    try:
        home = generation().home
        relative |= {home, str(Path(home).resolve())}
    except Exception:  # an unreadable store must not stop an error message from showing
        pass
    cut = {tempfile.gettempdir(), os.path.expanduser("~")}
    cut |= {str(Path(r).resolve()) for r in cut}

    def ordered(roots: set[str]) -> list[str]:
        bare = (r.rstrip("/") for r in roots)
        return sorted((r for r in bare if len(r) > 1), key=len, reverse=True)

    return ordered(relative), ordered(cut)


def _last_component(path: str, roots: list[str]) -> str:
    bare = path.rstrip("/")
    name = bare.rsplit("/", 1)[-1]
    if bare in roots or not name:  # `/tmp`, JUDGE_HOME: a folder of the server itself
        return SERVER_FOLDER
    return name


# The rest of a path after a server folder: components may hold single spaces.
_REST = r"((?:/[^\s/()«»\"',;:]+(?: [^\s/()«»\"',;:]+)*)*)/?"


def redact(text: object) -> str:
    """`text` (plain, not yet escaped) without any absolute path of the server: a path in the
    store or the project becomes relative to it (`editions/fr-x/edition.json`), any other
    `/a/b/c` its last component (`c`), and a folder of the server itself « (dossier du
    serveur) »."""
    s = str(text)
    relative, cut = _server_roots()
    roots = relative + cut
    for root in sorted(roots, key=len, reverse=True):  # the innermost folder first
        if root in relative:
            s = re.sub(
                re.escape(root) + _REST,
                lambda m: m.group(1).strip("/") or SERVER_FOLDER,
                s,
            )
        else:
            s = re.sub(re.escape(root) + _REST, lambda m: _last_component(m.group(0), roots), s)
    return _ABSOLUTE.sub(lambda m: _last_component(m.group(0), roots), s)


def say(text: object) -> str:
    """A message built from library or user text, ready for any Markdown element:
    `md(redact(text))`."""
    return md(redact(text))


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


def _mark(text: str, directive: str, style: str = "") -> str:
    """`text` escaped, wrapped in `style` (`~~`, `**`, `*`) and in a Streamlit directive,
    blanks kept outside."""
    if not text.strip():
        return md(text)
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{md(lead)}:{directive}[{style}{md(text.strip())}{style}]{md(trail)}"


# How each mark of a diff shows: a background colour (its text keeps the theme's text colour;
# .streamlit/config.toml sets every background per theme, light and dark, for a contrast of
# at least 4.5:1, tests/ui/test_contrast.py) and a style that says the same without colour:
# deletions struck through, insertions in bold, renumbered references in italics.
DIFF_MARKS = {
    "delete": ("red-background", "~~"),
    "insert": ("green-background", "**"),
    "renumbered": ("blue-background", "*"),
}
DIFF_LEGEND = (
    ":red-background[~~supprimé~~] · :green-background[**ajouté**] · :blue-background[*renuméroté*]"
)


def diff_sides(ops: Iterable[DiffPart]) -> tuple[str, str]:
    """Old and new text of a word diff (`Judge.diff`, `Comparison.diff`) as escaped
    Markdown, each side with its own words and spacing: deletions struck through in red on
    the old side, insertions in bold green on the new side, and a cross-reference renumbered
    with the rules (`408` on one side, `117` on the other) in blue italics on both. Changes of
    spacing or of the style of apostrophes and quotation marks alone are not marked."""
    # Here, not at the top: the diff's modules (the concordance's) are not on the way to a
    # search's first results.
    from judge import side_view

    ops = list(ops)
    return _side(side_view(ops, "old")), _side(side_view(ops, "new"))


def _side(pieces: Iterable[tuple[str, str]]) -> str:
    out: list[str] = []
    for mark, text in pieces:
        if mark in DIFF_MARKS:
            out.append(_mark(text, *DIFF_MARKS[mark]))
        else:
            out.append(md(text))
    return "".join(out)


def diff_inline(ops: Iterable[DiffPart]) -> str:
    """One text (the new one, each deletion where it was): deletions struck through in red,
    insertions in bold green, renumbered cross-references (`408 → 117`) in blue italics."""
    from judge import inline_view  # as in diff_sides

    return _side(inline_view(ops))

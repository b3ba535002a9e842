"""One parser per document layout; `parse_text` picks one (or takes the forced one)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from judge.rules.model import LAYOUTS, Layout, ParsedDocument

Parser = Callable[[str, str], ParsedDocument]


def parser_for(layout: Layout) -> Parser:
    if layout not in LAYOUTS:
        raise ValueError(layout)
    module = import_module(f"judge.rules.layouts.{layout}")
    parse: Parser = module.parse
    return parse


def parse_text(text: str, file: str, layout: Layout | None = None) -> ParsedDocument:
    """Parse `text` with the given layout, or the detected one."""
    if layout is None:
        from judge.rules.layouts.detect import detect_layout

        layout = detect_layout(text)
    return parser_for(layout)(text, file)

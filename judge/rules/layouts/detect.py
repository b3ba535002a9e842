"""Guess which layout parser fits a decoded document."""

from __future__ import annotations

import re

from judge.rules.model import Layout

_HTML_START_RE = re.compile(r"\s*<(?:!doctype|html|head|body|meta|div|p|h\d|ol|ul|section)\b", re.I)
_HTML_TAG_RE = re.compile(r"<(?:html|body)\b", re.I)
_HTML_P_RE = re.compile(r"<p[\s>]", re.I)
_TITLE_RE = re.compile(r"(?mi)^.{0,80}(?:comprehensive rules|règles complètes)")
# The official text: numbered rules at line starts with the trailing dot (`100.1. `).
_OFFICIAL_RULE_RE = re.compile(r"(?m)^\d{3}\.\d+\. \S")
# glued_2011: the next rule number glued to the end of the previous sentence (`de 20.118.1a`).
_GLUED_RE = re.compile(r"[.»”\")!?;:]\d{3}\.\d+[a-z]{0,2}\.?\n")
# inline_pre2009: several rules on one line, each starting a sentence with a capital letter;
# a lower-case word after the number means a citation ("voyez la règle 704.6b à la place").
_INLINE_START_RE = re.compile(
    r"(?:^|(?<=[.:;!?»\"”)] ))\d{3}\.\d+[a-z]{0,2}\.? (?=[A-ZÀÂÇÉÈÊÎÔÛ])", re.M
)

_OFFICIAL_MIN_RULES = 1  # with a title line
_OFFICIAL_MIN_RULES_UNTITLED = 100


def detect_layout(text: str) -> Layout:
    """The layout of a decoded document: official, html, glued_2011, inline_pre2009, scraped."""
    head = text[:4096]
    if _HTML_START_RE.match(head) or _HTML_TAG_RE.search(text):
        return "html"
    official_rules = len(_OFFICIAL_RULE_RE.findall(text))
    if official_rules >= _OFFICIAL_MIN_RULES_UNTITLED or (
        official_rules >= _OFFICIAL_MIN_RULES and _TITLE_RE.search(text)
    ):
        return "official"
    if _GLUED_RE.search(text):
        return "glued_2011"
    for line in text.split("\n"):
        if len(_INLINE_START_RE.findall(line)) >= 2:
            return "inline_pre2009"
    if len(_HTML_P_RE.findall(text)) >= 3:
        return "html"
    return "scraped"

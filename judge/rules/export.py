"""Plain-data views of rules and glossary entries (the `--json` shape)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from judge.rules.index import Citer, RuleIndex
from judge.rules.model import GlossaryEntry, Rule
from judge.rules.references import nearest_title


def rule_to_dict(index: RuleIndex, rule: Rule) -> dict[str, Any]:
    # A sub-rule has no title of its own: it takes its section's.
    title = nearest_title(rule.number, index.edition(rule.edition).rules)
    return rule_dict(rule, title, index.breadcrumb(rule)[:-1], index.cited_by(rule))


def rule_dict(
    rule: Rule, title: str | None, ancestors: Iterable[Rule], cited_by: Iterable[Citer]
) -> dict[str, Any]:
    """The `--json` shape of a rule; `ancestors` from the chapter down to its parent."""
    return {
        "kind": rule.kind,
        "edition": rule.edition,
        "rule": rule.number,
        "title": title,
        "breadcrumb": [{"rule": r.number, "title": r.title} for r in ancestors],
        "text": rule.text,
        "examples": rule.examples,
        "children": list(rule.children),
        "parent": rule.parent,
        "references": [
            {"rule": ref.target, "edition": ref.edition, "status": ref.status, "title": ref.title}
            for ref in rule.references
        ],
        "cited_by": [{"rule": c.rule, "edition": c.edition} for c in cited_by],
        "language": rule.language,
        "paragraphs": [
            {"text": p.text, "kind": p.kind, "language": p.language} for p in rule.paragraphs
        ],
        "source": {"file": rule.source.file, "line": rule.source.line} if rule.source else None,
        "inferred": rule.inferred,
        "title_only": rule.title_only,
    }


def glossary_to_dict(entry: GlossaryEntry) -> dict[str, Any]:
    return {
        "kind": "glossary",
        "edition": entry.edition,
        "term": entry.term,
        "text": entry.text,
        "paragraphs": [
            {"text": p.text, "kind": p.kind, "language": p.language} for p in entry.paragraphs
        ],
        "references": [
            {"rule": ref.target, "edition": ref.edition, "status": ref.status, "title": ref.title}
            for ref in entry.references
        ],
        "source": {"file": entry.source.file, "line": entry.source.line},
    }


def export_edition(index: RuleIndex, edition_id: str) -> list[dict[str, Any]]:
    ed = index.edition(edition_id)
    out = [rule_to_dict(index, r) for r in ed.rules.values()]
    out += [glossary_to_dict(g) for g in ed.glossary]
    return out

"""Plain-data views of rules and glossary entries (the `--json` shape)."""

from __future__ import annotations

from typing import Any

from judge.rules.index import RuleIndex
from judge.rules.model import GlossaryEntry, Rule
from judge.rules.references import nearest_title


def rule_to_dict(index: RuleIndex, rule: Rule) -> dict[str, Any]:
    return {
        "kind": rule.kind,
        "edition": rule.edition,
        "rule": rule.number,
        # A sub-rule has no title of its own: it takes its section's.
        "title": nearest_title(rule.number, index.edition(rule.edition).rules),
        "breadcrumb": [{"rule": r.number, "title": r.title} for r in index.breadcrumb(rule)[:-1]],
        "text": rule.text,
        "examples": rule.examples,
        "children": list(rule.children),
        "parent": rule.parent,
        "references": [
            {"rule": ref.target, "edition": ref.edition, "status": ref.status, "title": ref.title}
            for ref in rule.references
        ],
        "cited_by": [{"rule": c.rule, "edition": c.edition} for c in index.cited_by(rule)],
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

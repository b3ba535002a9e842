"""Assemble parsed documents into one immutable `Edition`: merge the documents
(contents once), add title-only rules, link parents and children, resolve
references, and note gaps."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from judge.rules.model import (
    Edition,
    GlossaryEntry,
    Language,
    Paragraph,
    ParsedDocument,
    ParseIssue,
    RawRule,
    Reference,
    Rule,
    SourceFile,
)
from judge.rules.numbers import (
    kind_of,
    letters_from_value,
    letters_value,
    nearest_parent,
    parent,
    sort_key,
    split,
)
from judge.rules.references import find_citations, resolve


@dataclass(frozen=True)
class EditionMeta:
    id: str
    label: str
    language: Language
    date: str
    era: str
    numbering: Literal["modern", "pre2009"]
    order: int
    sources: tuple[SourceFile, ...]
    shipped: bool = True


def _merge(
    docs: list[ParsedDocument],
) -> tuple[dict[str, RawRule], dict[str, str], list[ParseIssue]]:
    contents: dict[str, str] = {}
    raw: dict[str, RawRule] = {}
    issues: list[ParseIssue] = []
    for doc in docs:
        for number, title in doc.contents.items():
            contents.setdefault(number, title)
        # Gaps are computed once for the whole edition (below), not per document.
        issues.extend(i for i in doc.issues if i.kind != "gap")
        for rule in doc.rules:
            known = raw.get(rule.number)
            if known is None:
                raw[rule.number] = rule
            elif not known.paragraphs and rule.paragraphs:
                rule.title = rule.title or known.title
                raw[rule.number] = rule
            elif rule.paragraphs:
                issues.append(
                    ParseIssue(
                        "unparsed",
                        f"{rule.number} apparaît deux fois ({rule.source}) ; seule la première "
                        "occurrence est gardée",
                        rule.number,
                        rule.source,
                    )
                )
    return raw, contents, issues


def _cited_titles(raw: dict[str, RawRule]) -> dict[str, str]:
    titles: dict[str, str] = {}
    for rule in raw.values():
        for para in rule.paragraphs:
            for cit in find_citations(para.text):
                for number, title in cit.titles:
                    if kind_of(number) in ("section", "chapter"):
                        titles.setdefault(number, title)
    return titles


def _gaps(numbers: list[str]) -> list[str]:
    """Numbers missing from the sequences present (420.1 when 420.2 is the first)."""
    present = set(numbers)
    missing: list[str] = []
    by_section: dict[int, set[int]] = {}
    by_rule: dict[str, set[int]] = {}
    for n in numbers:
        kind = kind_of(n)
        if kind == "rule":
            sec, rule, _ = split(n)
            by_section.setdefault(sec, set()).add(rule)
        elif kind == "subrule":
            sec, rule, letters = split(n)
            by_rule.setdefault(f"{sec}.{rule}", set()).add(letters_value(letters))
            by_section.setdefault(sec, set()).add(rule)
    for sec, rules in by_section.items():
        missing += [f"{sec}.{r}" for r in range(1, max(rules)) if f"{sec}.{r}" not in present]
    for base, values in by_rule.items():
        missing += [
            f"{base}{letters_from_value(v)}"
            for v in range(1, max(values))
            if f"{base}{letters_from_value(v)}" not in present
        ]
    return sorted(missing, key=sort_key)


def build_edition(meta: EditionMeta, docs: list[ParsedDocument]) -> Edition:
    raw, contents, issues = _merge(docs)
    cited = _cited_titles(raw)
    # Title-only rules: contents entries without text, and missing section parents.
    # Sections named in a citation (`voir règle 410, "Gérer les capacités
    # déclenchées"`) are known by title even when the contents list is absent.
    wanted = set(contents) | set(cited)
    for number in list(raw):
        p = parent(number)
        while p is not None and kind_of(p) != "chapter":
            wanted.add(p)
            p = parent(p)
    for number in wanted:
        if number not in raw:
            raw[number] = RawRule(number, title=contents.get(number) or cited.get(number))
    for number, rule in raw.items():
        if rule.title is None and kind_of(number) in ("section", "chapter"):
            rule.title = contents.get(number) or cited.get(number)

    ordered = sorted(raw, key=sort_key)
    children: dict[str, list[str]] = {n: [] for n in ordered}
    parents: dict[str, str | None] = {}
    for number in ordered:
        p = parents[number] = nearest_parent(number, raw)
        if p is not None:
            children[p].append(number)

    rules: dict[str, Rule] = {}
    for number in ordered:
        r = raw[number]
        rules[number] = Rule(
            edition=meta.id,
            number=number,
            kind=kind_of(number),
            title=r.title,
            paragraphs=tuple(r.paragraphs),
            parent=parents[number],
            children=tuple(children[number]),
            source=r.source,
            inferred=r.inferred,
            title_only=not r.paragraphs and r.source is None,
        )
    # References need the finished rule table to know each target's status.
    for number, built in rules.items():
        refs = _references(built.paragraphs, meta.id, rules)
        if refs:
            rules[number] = replace(built, references=refs)
    glossary = tuple(
        replace(g, edition=meta.id, references=_references(g.paragraphs, meta.id, rules))
        for doc in docs
        for g in doc.glossary
    )
    for gap in _gaps([n for n, r in rules.items() if not r.title_only]):
        issues.append(ParseIssue("gap", f"{gap} absent du document", number=gap))
    return replace(meta_edition(meta), rules=rules, glossary=glossary, issues=tuple(issues))


def meta_edition(meta: EditionMeta) -> Edition:
    """The edition `meta` describes, with no rules yet."""
    return Edition(
        id=meta.id,
        label=meta.label,
        language=meta.language,
        date=meta.date,
        era=meta.era,
        numbering=meta.numbering,
        order=meta.order,
        rules={},
        glossary=(),
        issues=(),
        sources=meta.sources,
        shipped=meta.shipped,
    )


def _references(
    paragraphs: tuple[Paragraph, ...], edition: str, rules: dict[str, Rule]
) -> tuple[Reference, ...]:
    out: list[Reference] = []
    seen: set[tuple[str, str]] = set()
    for para in paragraphs:
        for cit in find_citations(para.text):
            for ref in resolve(cit, edition, rules):
                if (ref.target, ref.raw) not in seen:
                    seen.add((ref.target, ref.raw))
                    out.append(ref)
    return tuple(out)


__all__ = ["EditionMeta", "GlossaryEntry", "build_edition"]

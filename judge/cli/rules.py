"""Rule-index commands: editions, rule, check, export, ingest."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from judge.rules import store
from judge.rules.concordance import counterparts_for, method_label, reference_counterpart
from judge.rules.errors import JudgeError
from judge.rules.export import export_edition, rule_to_dict
from judge.rules.index import (
    CORPUS_DIR,
    RuleIndex,
    RuleNotFound,
    _manifest_metas,
    load_index,
    parse_edition,
)
from judge.rules.model import LAYOUTS, Edition, Rule

STATUS_FR = {"resolved": "présente", "title_only": "titre seul", "missing": "absente du corpus"}


def load_cli_index() -> RuleIndex:
    """The index, with a warning on stderr for each damaged stored edition left out."""
    index = load_index()
    for warning in index.warnings:
        print(f"Attention : {warning}", file=sys.stderr)
    return index


def rule_count(edition: Edition) -> int:
    """Rules and sub-rules with text: the count `editions` and `check` both show."""
    return sum(1 for r in edition.rules.values() if r.kind in ("rule", "subrule") and r.paragraphs)


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("editions", help="lister les éditions (livrées et importées)")
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=cmd_editions)

    p = sub.add_parser("rule", help="afficher une règle par son numéro")
    p.add_argument("number", metavar="NUMERO", help="numéro de règle, ex. 704.5g")
    p.add_argument("--edition", metavar="ID", help="édition (par défaut : la plus récente)")
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=cmd_rule)

    p = sub.add_parser("check", help="rapport de qualité de chaque édition")
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("export", help="tout l'index en JSON")
    p.add_argument("--edition", metavar="ID", action="append", help="édition(s) à exporter")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("ingest", help="importer un document de règles")
    p.add_argument("file", metavar="FICHIER", type=Path)
    p.add_argument("--edition", metavar="ID", help="identifiant, ex. en-2011-09-30")
    p.add_argument(
        "--format",
        choices=("auto", *LAYOUTS),
        default="auto",
        help="disposition du document (auto par défaut)",
    )
    p.add_argument("--replace", action="store_true", help="remplacer une édition existante")
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=cmd_ingest)


def cmd_editions(args: argparse.Namespace) -> int:
    index = load_cli_index()
    rows: list[dict[str, Any]] = [
        {
            "id": ed.id,
            "label": ed.label,
            "language": ed.language,
            "date": ed.date,
            "era": ed.era,
            "numbering": ed.numbering,
            "rules": rule_count(ed),
            "shipped": ed.shipped,
            "sources": [
                {"file": s.file, "original": s.original, "layout": s.layout} for s in ed.sources
            ],
        }
        for ed in index.editions
    ]
    if args.json:
        _print_json(rows)
        return 0
    for row in rows:
        where = "livrée" if row["shipped"] else "importée"
        print(f"{row['id']:<16} {row['label']}")
        print(
            f"{'':<16} langue {row['language']}, {row['era'] or row['date']}, numérotation "
            f"{row['numbering']}, {row['rules']} règles, {where}"
        )
        for s in row["sources"]:
            print(f"{'':<16}   {s['file']} (original : {s['original']}, {s['layout']})")
    print(f"\nÉditions importées : {store.editions_dir()}")
    return 0


def format_rule(index: RuleIndex, rule: Rule) -> str:
    lines: list[str] = []
    crumbs = " › ".join(
        f"{r.number}. {r.title}" if r.title else r.number for r in index.breadcrumb(rule)
    )
    lines.append(f"[{rule.edition}] {crumbs}")
    lines.append("")
    if rule.title_only:
        lines.append(f"{rule.number}. {rule.title or ''} — texte absent du corpus (titre seul)")
    ed = index.edition(rule.edition)
    for p in rule.paragraphs:
        # Marked only where it differs from the edition (untranslated text).
        tag = f" [{p.language.upper()}]" if p.language != ed.language else ""
        prefix = "    " if p.kind == "example" else ""
        head = rule.number + " " if p is rule.paragraphs[0] else ""
        lines.append(f"{prefix}{head}{p.text}{tag}")
    if rule.children:
        lines.append("")
        lines.append("Sous-règles :")
        for child in rule.children:
            c = ed.rules[child]
            text = c.title or c.text.split("\n")[0]
            lines.append(f"  {child}  {text[:90]}{'…' if len(text) > 90 else ''}")
    if rule.references:
        lines.append("")
        lines.append("Références :")
        for ref in rule.references:
            title = f" « {ref.title} »" if ref.title else ""
            today = ""
            if ref.status != "resolved":
                link = reference_counterpart(index, ref)
                if link is not None:
                    today = f" → {link.to_edition} {link.to_rule}"
            lines.append(f"  {ref.target}{title} ({STATUS_FR[ref.status]}){today}")
    links = counterparts_for(index, rule)
    if links:
        lines.append("")
        lines.append("Dans les autres éditions :")
        for link in links:
            other = index.edition(link.to_edition).rules.get(link.to_rule)
            title = f" « {other.title} »" if other is not None and other.title else ""
            flags = " (approché)" if link.approximate else ""
            if not link.present:
                flags += ", absente du corpus"
            moved = " (renuméroté)" if link.moved else ""
            lines.append(
                f"  {link.to_edition} {link.to_rule}{title}{moved} — "
                f"{method_label(link.method)}, confiance {link.confidence:.2f}{flags}"
            )
    citers = index.cited_by(rule)
    if citers:
        lines.append("")
        lines.append("Cité par : " + ", ".join(c.rule for c in citers))
    if rule.source:
        note = " (numéro déduit de la position)" if rule.inferred else ""
        lines.append("")
        lines.append(f"Source : {rule.source.file}, ligne {rule.source.line}{note}")
    return "\n".join(lines)


def cmd_rule(args: argparse.Namespace) -> int:
    index = load_cli_index()
    try:
        rule = index.lookup(args.number, args.edition)
    except RuleNotFound as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.json:
        data = rule_to_dict(index, rule)
        data["counterparts"] = [link.to_dict() for link in counterparts_for(index, rule)]
        # Where a citation missing from this edition lands in the current one.
        for ref, item in zip(rule.references, data["references"], strict=True):
            link = reference_counterpart(index, ref) if ref.status != "resolved" else None
            item["counterpart"] = link.to_dict() if link else None
        _print_json(data)
    else:
        print(format_rule(index, rule))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    entries = [(m, CORPUS_DIR) for m in _manifest_metas(CORPUS_DIR)]
    warnings: list[str] = []
    entries += store.stored_editions(warnings=warnings)
    reports: list[dict[str, Any]] = [{"edition": "?", "error": w} for w in warnings]
    failed = len(warnings)
    for meta, root in entries:
        try:
            edition = parse_edition(meta, root)
        except JudgeError as exc:
            failed += 1
            reports.append({"edition": meta.id, "error": exc.message})
            continue
        q = RuleIndex([edition]).quality(edition.id)
        reports.append(q.__dict__)
    if args.json:
        _print_json(reports)
        return 1 if failed else 0
    for rep in reports:
        print(f"== {rep['edition']}")
        if "error" in rep:
            print(f"  ÉCHEC : {rep['error']}")
            continue
        print(f"  {rep['label']}")
        print(
            f"  règles analysées : {rep['rules_parsed']} (sections : {rep['sections']}, "
            f"titres seuls : {rep['title_only']})"
        )
        print(f"  numéros déduits : {len(rep['inferred'])} {_short(rep['inferred'])}")
        fixed = rep["duplicates_fixed"]
        print(f"  doublons corrigés : {len(fixed)} {_short(fixed)}")
        print(f"  lacunes : {len(rep['gaps'])} {_short(rep['gaps'])}")
        lang = "en anglais" if rep["other_language"] == "en" else "en français"
        print(
            f"  paragraphes {lang} : {len(rep['english_paragraphs'])} "
            f"{_short(rep['english_paragraphs'])}"
        )
        refs = rep["references"]
        print(
            f"  références : {refs['resolved']} présentes, {refs['title_only']} titre seul, "
            f"{refs['missing']} absentes du corpus"
        )
        if rep["empty_rules"]:
            print(f"  numéros sans texte : {_short(rep['empty_rules'])}")
        for line in rep["not_rules"]:
            print(f"  écarté : {line}")
        if rep["glossary_entries"]:
            print(f"  entrées de glossaire : {rep['glossary_entries']}")
    return 1 if failed else 0


def _short(items: list[str], n: int = 12) -> str:
    if not items:
        return ""
    more = f" … (+{len(items) - n})" if len(items) > n else ""
    return "(" + ", ".join(items[:n]) + more + ")"


def cmd_export(args: argparse.Namespace) -> int:
    index = load_cli_index()
    ids = args.edition or [ed.id for ed in index.editions]
    out: list[dict[str, Any]] = []
    for eid in ids:
        rows = export_edition(index, eid)
        for row in rows:
            if row["kind"] != "glossary":
                rule = index.edition(eid).rules[row["rule"]]
                row["counterparts"] = [link.to_dict() for link in counterparts_for(index, rule)]
        out += rows
    _print_json(out)
    return 0


def cmd_ingest(args: argparse.Namespace) -> int:
    reserved = frozenset(m.id for m in _manifest_metas(CORPUS_DIR))
    layout = None if args.format == "auto" else args.format
    result = store.ingest(args.file, args.edition, layout, replace=args.replace, reserved=reserved)
    ed = result.edition
    count = rule_count(ed)
    for warning in result.warnings:
        print(f"Attention : {warning}", file=sys.stderr)
    if args.json:
        _print_json(
            {
                "edition": ed.id,
                "rules": count,
                "glossary": len(ed.glossary),
                "folder": str(result.folder),
                "replaced": result.replaced,
            }
        )
        return 0
    verb = "remplacée" if result.replaced else "importée"
    print(f"Édition {ed.id} {verb} : {count} règles, {len(ed.glossary)} entrées de glossaire.")
    print(f"Stockée dans : {result.folder}")
    return 0

"""Rule-index commands: editions, rule, check, export, ingest, remove."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from judge import (
    LAYOUTS,
    IngestOutcome,
    Judge,
    RuleNotFound,
    RuleView,
    collector_paused,
    ingest,
    ingest_many,
    open_judge,
    remove,
)
from judge.fr import (
    METHOD,
    NUMBERING,
    REFERENCE_STATUS,
    SHIPPED,
)


def load_cli_judge() -> Judge:
    """The Judge of the store, with a warning on stderr for each damaged stored edition."""
    judge = open_judge()
    for warning in judge.warnings:
        print(f"Attention : {warning}", file=sys.stderr)
    return judge


def print_json(data: Any) -> None:
    """`data` as json.dumps(data, ensure_ascii=False, indent=2) writes it, byte for byte
    (tests/cli check it), through orjson when it writes `data` alike."""
    out = None
    if _same_as_json(data):
        try:
            out = orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)
        except TypeError:  # a value orjson does not take (an integer beyond 64 bits…)
            out = None
    if out is None:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return
    print_bytes(out)


def print_bytes(*chunks: bytes | memoryview) -> None:
    """UTF-8 JSON (its `chunks` end to end) on stdout, then a newline."""
    raw = getattr(sys.stdout, "buffer", None)
    if raw is not None and (sys.stdout.encoding or "").lower().replace("-", "") == "utf8":
        # The bytes as they are: no decoded copy of a 36 MB export beside them.
        sys.stdout.flush()
        for chunk in chunks:
            raw.write(chunk)
        raw.write(b"\n")
        raw.flush()
    else:
        sys.stdout.write(b"".join(chunks).decode("utf-8") + "\n")


def _same_as_json(data: Any) -> bool:
    """Whether orjson writes `data` as json does: it writes floats below 1e-4 without an
    exponent (0.00001, not 1e-05), and NaN as null."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, float) and (
            item != item or (item != 0.0 and not 1e-4 <= abs(item) < 1e16)
        ):
            return False
    return True


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

    p = sub.add_parser("ingest", help="importer des documents de règles (fichiers ou dossiers)")
    p.add_argument(
        "paths",
        metavar="CHEMIN",
        type=Path,
        nargs="+",
        help="fichier, ou dossier (ses .txt, .pdf, .docx, .html, .htm)",
    )
    p.add_argument(
        "--edition", metavar="ID", help="identifiant, ex. en-2011-09-30 (un seul fichier)"
    )
    p.add_argument(
        "--format",
        choices=("auto", *LAYOUTS),
        default="auto",
        help="disposition du document (auto par défaut)",
    )
    p.add_argument("--replace", action="store_true", help="remplacer une édition existante")
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("remove", help="retirer une édition importée")
    p.add_argument("edition", metavar="ID", help="identifiant de l'édition importée")
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=cmd_remove)


def cmd_editions(args: argparse.Namespace) -> int:
    judge = load_cli_judge()
    editions = judge.editions()
    if args.json:
        print_json([ed.to_dict() for ed in editions])
        return 0
    for ed in editions:
        print(f"{ed.id:<16} {ed.label}")
        print(
            f"{'':<16} langue {ed.language}, {ed.era or ed.date}, numérotation "
            f"{NUMBERING.get(ed.numbering, ed.numbering)}, {ed.rules} règles, "
            f"{SHIPPED[ed.shipped]}"
        )
        for s in ed.sources:
            print(f"{'':<16}   {s.file} (original : {s.original}, {s.layout})")
    print(f"\nÉditions importées : {judge.store_dir}")
    return 0


def format_rule(view: RuleView, dated: Sequence[str] = ()) -> str:
    rule, ed = view.rule, view.edition
    crumbs = " › ".join(f"{r.number}. {r.title}" if r.title else r.number for r in view.breadcrumb)
    lines = [f"[{rule.edition}] {crumbs}", *dated, ""]
    if rule.title_only:
        lines.append(f"{rule.number}. {rule.title or ''} — texte absent du corpus (titre seul)")
    for p in rule.paragraphs:
        # Marked only where it differs from the edition (untranslated text).
        tag = f" [{p.language.upper()}]" if p.language != ed.language else ""
        prefix = "    " if p.kind == "example" else ""
        head = rule.number + " " if p is rule.paragraphs[0] else ""
        lines.append(f"{prefix}{head}{p.text}{tag}")
    if view.children:
        lines += ["", "Sous-règles :"]
        for child in view.children:
            text = child.title or child.text.split("\n")[0]
            lines.append(f"  {child.number}  {text[:90]}{'…' if len(text) > 90 else ''}")
    if view.references:
        lines += ["", "Références :"]
        for rv in view.references:
            ref = rv.reference
            title = f" « {ref.title} »" if ref.title else ""
            link = rv.counterpart
            today = f" → {link.to_edition} {link.to_rule}" if link is not None else ""
            lines.append(f"  {ref.target}{title} ({REFERENCE_STATUS[ref.status]}){today}")
    if view.counterparts:
        lines += ["", "Dans les autres éditions :"]
        for link, other in zip(view.counterparts, view.counterpart_rules, strict=True):
            title = f" « {other.title} »" if other is not None and other.title else ""
            flags = " (approché)" if link.approximate else ""
            if not link.present:
                flags += ", absente du corpus"
            moved = " (renuméroté)" if link.moved else ""
            lines.append(
                f"  {link.to_edition} {link.to_rule}{title}{moved} — "
                f"{METHOD.get(link.method, link.method)}, confiance {link.confidence:.2f}{flags}"
            )
    if view.cited_by:
        lines += ["", "Cité par : " + ", ".join(c.rule for c in view.cited_by)]
    if rule.source:
        note = " (numéro déduit de la position)" if rule.inferred else ""
        lines += ["", f"Source : {rule.source.file}, ligne {rule.source.line}{note}"]
    return "\n".join(lines)


def cmd_rule(args: argparse.Namespace) -> int:
    judge = load_cli_judge()
    try:
        view = judge.rule(args.number, args.edition)
    except RuleNotFound as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.json:
        print_json(view.to_dict())
    else:
        print(format_rule(view, judge.dating(view, other_language=args.edition is None)))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    reports = load_cli_judge().quality()
    status = 1 if reports.failed else 0
    if args.json:
        print_json(reports.to_dict())
        return status
    for view in reports.reports:
        print(f"== {view.edition}")
        if view.report is None:
            print(f"  ÉCHEC : {view.error}")
            continue
        _print_quality(view.report)
    return status


def _print_quality(rep: dict[str, Any]) -> None:
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


def _short(items: list[str], n: int = 12) -> str:
    if not items:
        return ""
    more = f" … (+{len(items) - n})" if len(items) > n else ""
    return "(" + ", ".join(items[:n]) + more + ")"


def cmd_export(args: argparse.Namespace) -> int:
    # Some 300,000 objects an edition, no cycle among them, the process ends after: the
    # collector would only walk them again and again (`Judge.export` spares its own part).
    with collector_paused(freeze=True):
        print_bytes(*load_cli_judge().export_chunks(args.edition))
    return 0


def cmd_ingest(args: argparse.Namespace) -> int:
    layout = None if args.format == "auto" else args.format
    paths: list[Path] = args.paths
    if len(paths) > 1 or paths[0].is_dir():
        return _ingest_batch(args, paths, layout)
    result = ingest(paths[0], args.edition, layout, replace=args.replace)
    for warning in result.warnings:
        print(f"Attention : {warning}", file=sys.stderr)
    if args.json:
        print_json(result.to_dict())
        return 0
    verb = "remplacée" if result.replaced else "importée"
    print(
        f"Édition {result.edition} {verb} : {result.rules} règles, "
        f"{result.glossary} entrées de glossaire."
    )
    print(f"Stockée dans : {result.folder}")
    return 0


def _ingest_batch(args: argparse.Namespace, paths: list[Path], layout: Any) -> int:
    """Several documents, or a folder: one edition each, a line per document on stderr as it
    goes, a table (or a JSON list) at the end; status 2 when any failed."""
    if args.edition:
        print(
            "Erreur : --edition ne vaut que pour un seul fichier ; pour plusieurs documents "
            "ou un dossier, chaque édition est nommée d'après la date de son document",
            file=sys.stderr,
        )
        return 2

    def progress(i: int, n: int, file: str) -> None:
        print(f"[{i}/{n}] {file}", file=sys.stderr, flush=True)

    outcomes = ingest_many(paths, replace=args.replace, progress=progress, layout=layout)
    for o in outcomes:
        for warning in o.warnings:
            print(f"Attention : {o.file} : {warning}", file=sys.stderr)
    if args.json:
        print_json([o.to_dict() for o in outcomes])
    else:
        _print_ingest_table(outcomes)
    failed = [o for o in outcomes if not o.ok]
    if failed:
        print(
            f"Échec de l'import de {len(failed)} document(s) sur {len(outcomes)} :", file=sys.stderr
        )
        for o in failed:
            reason = o.error or ""
            named = Path(o.file).name in reason  # store errors name the file already
            print(f"  {reason if named else f'{o.file} : {reason}'}", file=sys.stderr)
    return 2 if failed else 0


def _print_ingest_table(outcomes: Sequence[IngestOutcome]) -> None:
    rows = [("Édition", "Date", "Numérotation", "Règles", "Avert.", "Fichier")]
    for o in outcomes:
        if o.ok:
            verb = " (remplacée)" if o.replaced else ""
            numbering = NUMBERING.get(o.numbering, o.numbering)
            head = (o.edition or "", o.date or "sans date", numbering)
            rows.append((*head, str(o.rules), str(len(o.warnings)), o.file + verb))
        else:
            rows.append(("ÉCHEC", "—", "—", "—", "—", o.file))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for row in rows:
        cells = [c.ljust(w) for c, w in zip(row[:3], widths[:3], strict=True)]
        cells += [c.rjust(w) for c, w in zip(row[3:5], widths[3:5], strict=True)]
        print("  ".join([*cells, row[5]]).rstrip())
    done = sum(1 for o in outcomes if o.ok)
    print(f"\n{done} édition(s) importée(s) sur {len(outcomes)} document(s).")


def cmd_remove(args: argparse.Namespace) -> int:
    result = remove(args.edition)
    if args.json:
        print_json(result.to_dict())
    else:
        print(f"Édition {result.edition} retirée.")
    return 0

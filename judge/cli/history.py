"""`judge history RULE` (a rule across editions) and `judge changes` (what a release
changed), both following renumbering through the concordance."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from judge.cli.compare import render_diff
from judge.cli.rules import load_cli_judge, print_json
from judge.fr import VERSION_CHANGE

if TYPE_CHECKING:
    from judge import Changes, History, Version


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "history",
        help="l'histoire d'une règle d'édition en édition",
        description="Chaque version d'une règle dans les éditions de sa langue, de la plus "
        "ancienne à la plus récente, renumérotations suivies, avec les différences mot à mot.",
    )
    p.add_argument("number", metavar="REGLE", help="numéro de la règle, ex. 704.5j")
    p.add_argument(
        "--edition",
        metavar="ID",
        help="édition où la règle porte ce numéro (par défaut : la plus récente qui l'a)",
    )
    p.add_argument(
        "--all-languages",
        action="store_true",
        help="ajouter les versions des autres langues que la concordance relie (marquées)",
    )
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=cmd_history)

    p = sub.add_parser(
        "changes",
        help="ce qu'une édition a changé",
        description="Règles ajoutées, retirées, modifiées et déplacées d'une édition à une "
        "autre (par défaut : les deux plus récentes d'une langue).",
    )
    p.add_argument("--from", dest="from_edition", metavar="EDITION", help="édition de départ")
    p.add_argument("--to", dest="to_edition", metavar="EDITION", help="édition d'arrivée")
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=cmd_changes)


def _when(v: Version) -> str:
    return v.edition.date or v.edition.era or v.edition.id


def format_history(h: History) -> str:
    lines = [f"Histoire de {h.rule.number} ({h.rule.edition})", ""]
    versions = list(h.versions)
    h_language = next((v.language for v in versions if v.edition.id == h.rule.edition), "")
    i = 0
    while i < len(versions):
        v = versions[i]
        run_end = i
        while (
            run_end + 1 < len(versions)
            and versions[run_end + 1].change == "unchanged"
            and versions[run_end + 1].language == v.language
        ):
            run_end += 1
        tag = f" [{v.language.upper()}]" if v.language != h_language else ""
        head = f"{_when(v)}  [{v.edition.id}]{tag} {v.number or ''} — {VERSION_CHANGE[v.change]}"
        lines.append(head.rstrip())
        if v.change in ("changed", "renumbered") and v.diff:
            lines.append("  " + render_diff(v.diff).replace("\n", "\n  "))
        elif v.change == "added":
            lines.append("  " + v.text.replace("\n", "\n  "))
        if run_end > i:
            last = versions[run_end]
            lines.append(f"  inchangée du {_when(versions[i + 1])} au {_when(last)}")
        i = run_end + 1
    return "\n".join(lines)


def cmd_history(args: argparse.Namespace) -> int:
    from judge import RuleNotFound

    judge = load_cli_judge()
    try:
        h = judge.history(args.number, args.edition, all_languages=args.all_languages)
    except RuleNotFound as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.json:
        print_json(h.to_dict())
    else:
        print(format_history(h))
    return 0


def format_changes(c: Changes) -> str:
    lines = [
        f"De {c.old.id} à {c.new.id} : {len(c.added)} ajoutées, {len(c.removed)} retirées, "
        f"{len(c.changed)} modifiées, {len(c.moved)} déplacées ou renumérotées."
    ]
    if c.added:
        lines += ["", "Ajoutées : " + ", ".join(r.number for r in c.added)]
    if c.removed:
        lines += ["", "Retirées : " + ", ".join(r.number for r in c.removed)]
    if c.moved:
        lines += ["", "Déplacées ou renumérotées :"]
        lines += [
            f"  {m.old.number} → {m.new.number}{' (texte modifié)' if m.changed else ''}"
            for m in c.moved
        ]
    if c.changed:
        lines += ["", "Modifiées :"]
        for ch in c.changed:
            lines.append(f"  {ch.new.number} : {render_diff(ch.diff)}")
    return "\n".join(lines)


def cmd_changes(args: argparse.Namespace) -> int:
    judge = load_cli_judge()
    c = judge.changes(args.from_edition, args.to_edition)
    if args.json:
        print_json(c.to_dict())
    else:
        print(format_changes(c))
    return 0

"""`judge compare RULE --from EDITION --to EDITION [--json]`: a rule against its counterpart.

Prints both texts, the word diff marked for a terminal ([-supprimé-] {+ajouté+}
[~408 → 117~] for a renvoi renuméroté), the summary of a known change, the method and the
confidence of the concordance. A rule missing from an edition, or without a counterpart,
gives a French message on stderr and exit status 1.

`--json`: ``diff`` is a list of ``[op, text]`` (equal, insert, delete, renumbered; see
`judge.rules.concordance`): equal + insert + the new side of renumbered (after the arrow) give
the new text exactly, equal + delete + the old side (before the arrow) the old text exactly."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from judge.cli.rules import load_cli_judge, print_json
from judge.fr import METHOD

if TYPE_CHECKING:
    from judge import Comparison, DiffPart

MARKERS: dict[str, tuple[str, str]] = {
    "delete": ("[-", "-]"),
    "insert": ("{+", "+}"),
    "renumbered": ("[~", "~]"),
}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "compare",
        help="comparer une règle d'une édition à l'autre",
        description="Compare une règle avec son équivalent dans une autre édition : les deux "
        "textes, les différences mot à mot ([-supprimé-] {+ajouté+}, [~ancien → nouveau~] pour "
        "un renvoi renuméroté), le résumé d'un changement connu, la méthode et la confiance de "
        "la concordance.",
    )
    p.add_argument("number", metavar="REGLE", help="numéro de la règle, ex. 420.5e")
    p.add_argument(
        "--from", dest="from_edition", required=True, metavar="EDITION", help="édition de départ"
    )
    p.add_argument(
        "--to", dest="to_edition", required=True, metavar="EDITION", help="édition d'arrivée"
    )
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judge import ComparisonError  # the concordance's package: for this command only

    judge = load_cli_judge()
    try:
        comparison = judge.compare(args.number, args.from_edition, args.to_edition)
    except ComparisonError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.json:
        print_json(comparison.to_dict())
    else:
        print(format_comparison(comparison))
    return 0


def render_diff(diff: Iterable[DiffPart]) -> str:
    """The diff as one text (the new text with each deletion where it was), changes marked;
    spaces stay outside the markers."""
    from judge import inline_view

    out = []
    for mark, text in inline_view(diff):
        core = text.strip()
        if not mark or not core:
            out.append(text)
            continue
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        start, end = MARKERS[mark]
        out.append(f"{lead}{start}{core}{end}{trail}")
    return "".join(out).rstrip()


def format_comparison(c: Comparison) -> str:
    link = c.link
    moved = "numéro changé" if link.moved else "même numéro"
    via = f", par {', '.join(link.via)}" if link.via else ""
    lines = [
        f"{c.old.edition} {c.old.number}  →  {c.new.edition} {c.new.number}",
        f"Concordance : {METHOD.get(link.method, link.method)} ({link.method}), confiance "
        f"{link.confidence:.2f}, {moved}{via}",
        "",
        f"[{c.old.edition}] {c.old.number}",
        _text(c.old.text, c.old.title),
        "",
        f"[{c.new.edition}] {c.new.number}",
        _text(c.new.text, c.new.title),
        "",
    ]
    if c.languages[0] != c.languages[1]:
        lines.append(
            f"Textes en deux langues ({c.languages[0]} / {c.languages[1]}) : les différences "
            "ci-dessous montrent surtout la traduction."
        )
    if c.changed:
        lines.append("Différences mot à mot ([-supprimé-] {+ajouté+} [~renvoi renuméroté~]) :")
        lines.append(render_diff(c.diff))
    elif any(op in ("delete", "insert") for op, _ in c.diff):
        lines.append(
            "Différences : aucune dans les mots (espacement, apostrophes ou guillemets seulement)."
        )
    else:
        lines.append("Différences : aucune (textes identiques).")
    lines.append("")
    lines.append(f"Résumé : {c.summary}" if c.summary else "Résumé : aucun changement répertorié.")
    return "\n".join(lines)


def _text(text: str, title: str | None) -> str:
    if text.strip():
        return text
    return f"{title or ''} (titre seul : texte absent du corpus)"

"""`judge search`: full-text search over every edition, rule numbers included."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING, TextIO

from judge.cli.rules import load_cli_judge, print_json
from judge.fr import also_in_copies, see_rules

if TYPE_CHECKING:
    from judge import SearchResult

_BOLD, _RESET = "\033[1m", "\033[0m"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "search",
        help="rechercher dans les règles (mots, numéro de règle, terme anglais)",
        description="Recherche plein texte dans toutes les éditions : un numéro de règle "
        "(704.5g, règle 704) mène à la règle dans chaque édition ; des mots cherchent le texte "
        "et les titres de section, fautes de frappe et accents manquants compris ; les termes "
        "de jeu sont aussi cherchés dans l'autre langue (contact mortel ↔ deathtouch).",
    )
    p.add_argument("query", metavar="REQUÊTE", nargs="+", help="mots ou numéro de règle")
    p.add_argument(
        "--edition",
        metavar="ID",
        action="append",
        help="limiter à cette édition (option répétable)",
    )
    p.add_argument(
        "--language",
        choices=("fr", "en"),
        help="limiter aux paragraphes de cette langue",
    )
    p.add_argument("--limit", metavar="N", type=_positive, default=10, help="nombre de résultats")
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"nombre entier attendu : « {text} »") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"nombre strictement positif attendu : « {text} »")
    return value


class _Progress:
    """Build progress on stderr, shown only when the build takes more than a moment."""

    def __init__(self, stream: TextIO, delay: float = 0.4) -> None:
        self.stream = stream
        self.delay = delay
        self.started: float | None = None
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.started is None:
            self.started = now
        if not self.shown and now - self.started < self.delay:
            return
        self.shown = True
        pct = 100 * done // max(total, 1)
        self.stream.write(f"\rConstruction de l'index de recherche… {pct:3d} %")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    query = " ".join(args.query)
    with load_cli_judge() as judge:
        view = judge.search(
            query,
            editions=args.edition,
            language=args.language,
            limit=args.limit,
            progress=_Progress(sys.stderr),
        )
    result = view.result
    if args.json:
        print_json(view.to_dict())
    else:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        sys.stdout.write(format_result(result, color=color))
    return 0 if result.hits else 1


def format_result(result: SearchResult, color: bool = False) -> str:
    from judge import render

    lines: list[str] = []
    if result.corrected:
        lines.append(f"Résultats pour « {result.corrected} » (saisi : « {result.query.strip()} »)")
    if result.expansions:
        lines.append("Cherché aussi : " + " ; ".join(result.expansions))
    if result.message:
        lines.append(result.message)
    if lines and result.hits:
        lines.append("")
    before, after = (_BOLD, _RESET) if color else ("**", "**")
    for hit in result.hits:
        snippet = render(hit.segments, before, after).replace("\n", " ")
        if hit.kind == "glossary":
            head = f"[{hit.edition}] Glossaire « {hit.rule} »"
        else:
            where = f" — {hit.breadcrumb}" if hit.breadcrumb else ""
            head = f"[{hit.edition}] {hit.rule}{where}"
        lines.append(f"{head} — {snippet}")
        if hit.see:
            lines.append(f"    {see_rules(hit.see)}")
        if hit.also:
            lines.append(f"    {also_in_copies(hit.rule, hit.also)}")
    if not result.hits and not result.message:
        lines.append("Aucun résultat.")
    return "\n".join(lines) + "\n"

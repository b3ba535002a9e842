"""`judge sba BOARD [--ruleset fr-2024|fr-pre2009] [--json]`: perform the state-based
actions on a board file and explain each one by quoting its rule."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.cli.rules import print_json
from judge.fr import RULESET_LABELS


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "sba",
        help="effectuer les actions basées sur un état d'un plateau",
        description="Effectue les actions basées sur un état d'un plateau (règles 704 ou, avec "
        "--ruleset fr-pre2009, 420), passe par passe, en citant chaque règle.",
    )
    p.add_argument("board", metavar="PLATEAU", help="fichier du plateau (JSON ou forme compacte)")
    p.add_argument(
        "--ruleset",
        metavar="RÈGLES",
        default=None,
        help=f"jeu de règles ({' ou '.join(RULESET_LABELS)}) ; par défaut celui du plateau",
    )
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # The board engine loads only for this command.
    from judge import RULESETS, BoardError, JudgeError, load_board_file, open_judge, resolve_board

    ruleset = args.ruleset
    if ruleset is not None and ruleset not in RULESETS:
        print(
            f"Erreur : --ruleset « {ruleset} » inconnu (valeurs : {', '.join(RULESETS)})",
            file=sys.stderr,
        )
        return 2
    try:
        view = resolve_board(load_board_file(args.board), ruleset)
    except BoardError as exc:
        # Messages about the file itself start with its name.
        named = exc.message.startswith(f"{Path(args.board)} : ")
        where = "" if named else f" dans le plateau {args.board}"
        print(f"Erreur{where} : {exc.message}", file=sys.stderr)
        return 2
    try:
        view = open_judge().quote(view)
    except JudgeError as exc:
        view = view.warn(f"index des règles indisponible, textes non cités ({exc.message})")
    if args.json:
        print_json(view.to_dict())
    else:
        print(view.text())
    return 0

"""`judge sba BOARD [--ruleset fr-2024|fr-pre2009|EDITION] [--json]`: perform the state-based
actions on a board file and explain each one by quoting its rule. The ruleset is the option's,
else the board's own `ruleset` field; either may name an edition of the store."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from judge.cli.rules import print_json
from judge.fr import RULESET_LABELS

if TYPE_CHECKING:
    from judge import BoardError, Ruleset


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "sba",
        help="effectuer les actions basées sur un état d'un plateau",
        description="Effectue les actions basées sur un état d'un plateau (règles 704 ou, avec "
        "--ruleset fr-pre2009, 420), passe par passe, en citant chaque règle.",
    )
    p.add_argument(
        "board",
        metavar="PLATEAU",
        help="fichier du plateau (JSON ou forme compacte), ou nom d'un plateau de la galerie "
        "(corpus/boards/, par exemple 704-8-louveteau)",
    )
    p.add_argument(
        "--ruleset",
        metavar="RÈGLES",
        default=None,
        help=f"jeu de règles ({' ou '.join(RULESET_LABELS)}, ou l'identifiant d'une édition "
        "qui contient la règle 704 ou 420, par exemple en-2025-11-14) ; par défaut celui du "
        "plateau",
    )
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # The board engine loads only for this command.
    from judge import (
        RULESETS,
        BoardError,
        JudgeError,
        UnknownRuleset,
        load_board_file,
        open_judge,
        resolve_board,
    )

    ruleset = args.ruleset
    board = board_path(args.board)
    if board is None:
        print(f"Erreur : {unknown_board_message(args.board)}", file=sys.stderr)
        return 2
    judge = None
    rs: str | Ruleset | None = ruleset
    try:
        if ruleset is not None and ruleset not in RULESETS:
            # An edition's ruleset: the rule index is needed to build it.
            judge = open_judge()
            rs = judge.ruleset(ruleset)
        loaded = load_board_file(board)
    except UnknownRuleset as exc:
        known = ", ".join(exc.known)
        print(f"Erreur : --ruleset « {exc.name} » inconnu (valeurs : {known})", file=sys.stderr)
        return 2
    except BoardError as exc:
        print(f"Erreur{_where(exc, board)} : {exc.message}", file=sys.stderr)
        return 2
    except JudgeError as exc:
        print(f"Erreur : --ruleset « {ruleset} » : {exc.message}", file=sys.stderr)
        return 2
    own = loaded.board.ruleset
    if ruleset is None and own not in RULESETS:
        # The board's own `ruleset` names an edition: looked up in the store.
        try:
            judge = open_judge()
            rs = judge.ruleset(own)
        except UnknownRuleset as exc:
            known = ", ".join(exc.known)
            print(
                f"Erreur dans le plateau {board} : champ « ruleset » : jeu de règles « {own} » "
                f"inconnu : ni un jeu de règles livré ni une édition de l'index qui contient la "
                f"règle 704 ou 420 (valeurs : {known})",
                file=sys.stderr,
            )
            return 2
        except JudgeError as exc:
            print(
                f"Erreur dans le plateau {board} : champ « ruleset » : {exc.message}",
                file=sys.stderr,
            )
            return 2
    try:
        view = resolve_board(loaded, rs)
    except BoardError as exc:  # a stated choice that contradicts the rules
        print(f"Erreur{_where(exc, board)} : {exc.message}", file=sys.stderr)
        return 2
    try:
        view = (judge or open_judge()).quote(view)
    except JudgeError as exc:
        view = view.warn(f"index des règles indisponible, textes non cités ({exc.message})")
    if args.json:
        print_json(view.to_dict())
    else:
        print(view.text())
    return 0


def _where(exc: BoardError, board: Path) -> str:
    """` dans le plateau B` unless the message is about the file itself (it starts with its
    name) or about --ruleset."""
    if exc.message.startswith(f"{board} : "):
        return ""
    if exc.field == "ruleset" and not exc.message.startswith("plateau"):
        return " : --ruleset"
    return f" dans le plateau {board}"


def board_path(board: str) -> Path | None:
    """The file `board` names: an existing file, else a board of the gallery by its name
    (`704-8-louveteau`, with or without `.json`). A path (with a folder) is taken as it is, so
    that its own error (file not found…) names it; None for an unknown bare name."""
    from judge import gallery

    path = Path(board)
    if path.exists() or len(path.parts) != 1:
        return path
    boards = gallery()
    name = board.removesuffix(".json")
    return boards.get(name)


def unknown_board_message(board: str) -> str:
    """An unknown board name, with the gallery's closest names (else all of them)."""
    from judge import gallery

    names = list(gallery())
    close = difflib.get_close_matches(board.removesuffix(".json"), names, n=5, cutoff=0.4)
    if close:
        listed = f"plateaux proches : {', '.join(close)}"
    else:
        listed = f"aucun nom proche ; plateaux de la galerie : {', '.join(names)}"
    return (
        f"« {board} » n'est ni un fichier ni un plateau de la galerie (corpus/boards/) ; {listed}"
    )

"""`judge sba BOARD [--ruleset fr-2024|fr-pre2009] [--json]`: perform the state-based
actions on a board file and explain each one by quoting its rule."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from judge.engine.board import RULESETS, BoardError, Ruleset, load_board_file
from judge.engine.explain import (
    RuleText,
    index_rule_text,
    no_rule_text,
    render_text,
    resolution_to_dict,
)
from judge.engine.resolve import resolve
from judge.rules.errors import JudgeError


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
        help=f"jeu de règles ({' ou '.join(RULESETS)}) ; par défaut celui du plateau",
    )
    p.add_argument("--json", action="store_true", help="sortie JSON")
    p.set_defaults(func=run)


def _rule_text(ruleset: Ruleset) -> tuple[RuleText, str | None]:
    try:
        from judge.rules.index import load_index

        return index_rule_text(load_index(), ruleset), None
    except JudgeError as exc:
        return no_rule_text, f"index des règles indisponible, textes non cités ({exc.message})"


def run(args: argparse.Namespace) -> int:
    ruleset_arg = args.ruleset
    if ruleset_arg is not None and ruleset_arg not in RULESETS:
        print(
            f"Erreur : --ruleset « {ruleset_arg} » inconnu (valeurs : {', '.join(RULESETS)})",
            file=sys.stderr,
        )
        return 2
    try:
        loaded = load_board_file(args.board)
        ruleset: Ruleset = ruleset_arg or loaded.board.ruleset
        res = resolve(loaded.board, ruleset)
    except BoardError as exc:
        # Messages about the file itself start with its name.
        named = exc.message.startswith(f"{Path(args.board)} : ")
        where = "" if named else f" dans le plateau {args.board}"
        print(f"Erreur{where} : {exc.message}", file=sys.stderr)
        return 2
    rule_text, problem = _rule_text(ruleset)
    warnings = (*loaded.warnings, *res.warnings, *([problem] if problem else []))
    res = replace(res, warnings=warnings)
    if args.json:
        json.dump(resolution_to_dict(res, rule_text), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print(render_text(res, rule_text))
    return 0

"""The `judge` command: a thin mirror of the library, one subcommand per function.

Each command module adds its parser with `add_parser(subparsers)` and sets
`func`, which returns the exit status; a command builds its own module's parser only
(`COMMANDS`).
Library errors (JudgeError) become a French message on stderr and exit status 2, never a
traceback."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from judge import JudgeError

# The modules that add the commands, in the order `judge --help` lists them, and the commands
# each one adds: a command imports its own module and what that module needs, not the others
# (`judge app` starts its server without the rule index's code, some 90 ms; tests/cli/
# test_docs.py keeps this table true).
COMMAND_MODULES = ("rules", "sba", "search", "compare", "history", "app")
COMMANDS = {
    "editions": "rules",
    "rule": "rules",
    "check": "rules",
    "export": "rules",
    "ingest": "rules",
    "remove": "rules",
    "sba": "sba",
    "search": "search",
    "compare": "compare",
    "history": "history",
    "changes": "history",
    "app": "app",
}


# argparse's own messages, in French.
_ARGPARSE_FR = (
    ("the following arguments are required", "arguments obligatoires manquants"),
    ("unrecognized arguments", "arguments inconnus"),
    ("invalid choice", "choix invalide"),
    ("choose from", "choisir parmi"),
    ("expected one argument", "une valeur est attendue"),
    ("invalid int value", "nombre entier invalide"),
)


class _FrenchFormatter(argparse.HelpFormatter):
    def add_usage(
        self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None
    ) -> None:
        super().add_usage(usage, actions, groups, "utilisation : " if prefix is None else prefix)


class _FrenchParser(argparse.ArgumentParser):
    """argparse with its own words in French (usage, help, section titles)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _FrenchFormatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = "arguments"
        self._optionals.title = "options"
        self.add_argument("-h", "--help", action="help", help="afficher cette aide et quitter")

    def error(self, message: str) -> None:  # type: ignore[override]
        for english, french in _ARGPARSE_FR:
            message = message.replace(english, french)
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog} : erreur : {message}\n")
        raise SystemExit(2)


class _Version(argparse.Action):
    """--version, reading the installed version only when asked (importlib.metadata costs
    some 50 ms at every command's start)."""

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any) -> None:
        from importlib.metadata import version

        sys.stdout.write(f"judge {version('judge')}\n")  # stdout, as argparse's own action
        parser.exit()


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"judge.cli.{name}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the commands of the module `only` (of
    COMMAND_MODULES) and nothing else imported."""
    parser = _FrenchParser(
        prog="judge",
        description="Assistant d'arbitrage Magic: The Gathering : règles en français, "
        "recherche, comparaison d'éditions, actions basées sur un état.",
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="afficher la version",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMANDE", parser_class=_FrenchParser)
    sub.required = True
    for name in COMMAND_MODULES if only is None else (only,):
        command_module(name).add_parser(sub)
    return parser


def _module_of(argv: Sequence[str]) -> str | None:
    """The module of the command `argv` starts with; None (every command) when it starts
    with an option of the top level (`--help`, `--version`) or an unknown word."""
    return COMMANDS.get(argv[0]) if argv else None


def entry() -> int:
    """The `judge` command (its console script, `python -m judge`): `main`, then the exit,
    without the interpreter's teardown."""
    return main(exit_now=True)


def main(argv: Sequence[str] | None = None, *, exit_now: bool = False) -> int:
    """Run the command `argv` (default: the process's arguments) and return its status.
    `exit_now`: end the process once the output is flushed, every file being closed and no
    thread running by then. The teardown would collect and free every object one by one
    for a process that ends anyway: 20 to 70 ms of a command, 0.2 s after an export (300,000
    objects, 36 MB). Not `judge app` (`quick_exit=False`), whose server stops on its own."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(_module_of(arguments)).parse_args(arguments)
    status = _run(args)
    if exit_now and getattr(args, "quick_exit", True):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (BrokenPipeError, ValueError):  # a reader gone, a stream closed: as `_run`
            pass
        _end_process(status)
    return status


def _end_process(status: int) -> None:
    os._exit(status)  # no teardown, no exit handlers (`main`)


def _run(args: argparse.Namespace) -> int:
    try:
        status: int = args.func(args)
    except JudgeError as exc:
        print(f"Erreur : {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("Interrompu.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except UnicodeEncodeError as exc:  # a terminal or pipe that is not UTF-8 (stderr escapes)
        print(
            f"Erreur : la sortie (encodage {exc.encoding}) ne peut pas écrire le caractère "
            f"{exc.object[exc.start : exc.end]!r} ; relancez avec PYTHONIOENCODING=utf-8",
            file=sys.stderr,
        )
        return 2
    # The last line of defence: the library words what it expects; anything else the
    # system throws still becomes a French message, never a traceback.
    except OSError as exc:
        from judge import StoreError  # the store's wording of system errors (its module: here)

        print(f"Erreur : {StoreError.from_os_error(exc).message}", file=sys.stderr)
        return 2
    except RecursionError:
        print("Erreur : document trop complexe (imbrication trop profonde).", file=sys.stderr)
        return 2
    except MemoryError:
        print("Erreur : document trop gros (mémoire insuffisante).", file=sys.stderr)
        return 2
    return status

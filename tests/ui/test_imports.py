"""One door into the library: the app (ui/) and the command line (judge/cli/) import from
`judge` only its root (the façade: `from judge import Judge, open_judge, …`) and its French
vocabulary `judge.fr` (the CLI also its own modules, judge.cli.*). A static scan of every
import, at any depth (in a function, under `if TYPE_CHECKING:`), relative ones resolved, and
of `importlib.import_module("judge.…")` with a literal name. Each test lists every offender."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "judge"
FACADE = ("judge", "judge.fr")

Allowed = Callable[[str], bool]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _submodule(dotted: str) -> bool:
    """True when `dotted` (judge.rules) names a module or package of the library (a folder
    without `__init__.py` is a namespace package)."""
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or any(base.glob("*.py"))


def _absolute(node: ast.ImportFrom, here: str, package: bool) -> str:
    """The module an `from … import` reads, relative imports resolved from module `here`."""
    if not node.level:
        return node.module or ""
    parts = here.split(".") if package else here.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def imported(tree: ast.AST, here: str = "", package: bool = False) -> Iterator[tuple[int, str]]:
    """(line, dotted module) for every module the code imports from the library."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, here, package)
            yield node.lineno, module
            # `from judge import rules` reaches past the root as surely as `import judge.rules`.
            for alias in node.names:
                if module.split(".")[0] == "judge" and _submodule(f"{module}.{alias.name}"):
                    yield node.lineno, f"{module}.{alias.name}"
        elif _is_import_call(node):
            yield node.lineno, str(node.args[0].value)  # type: ignore[attr-defined]


def _is_import_call(node: ast.AST) -> bool:
    """`importlib.import_module("…")`, `import_module("…")` or `__import__("…")`."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    if not isinstance(node.args[0], ast.Constant) or not isinstance(node.args[0].value, str):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr == "import_module"
    return isinstance(func, ast.Name) and func.id in ("import_module", "__import__")


def offenders(files: list[Path], allowed: Allowed) -> list[str]:
    """`path:line module` for every import of a library module that `allowed` refuses."""
    out = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        here = _module_name(path)
        for line, module in imported(tree, here, _is_package(path)):
            if module.split(".")[0] == "judge" and not allowed(module):
                out.append(f"{path.relative_to(ROOT)}:{line} {module}")
    return out


def app_may_import(module: str) -> bool:
    return module in FACADE


def cli_may_import(module: str) -> bool:
    return module in FACADE or module == "judge.cli" or module.startswith("judge.cli.")


def test_the_app_imports_only_the_facade() -> None:
    files = sorted((ROOT / "ui").rglob("*.py"))
    assert files
    found = offenders(files, app_may_import)
    assert not found, "ui/ importe derrière la façade :\n" + "\n".join(found)


def test_the_cli_imports_only_the_facade() -> None:
    files = sorted((PACKAGE / "cli").rglob("*.py"))
    assert files
    found = offenders(files, cli_may_import)
    assert not found, "judge/cli/ importe derrière la façade :\n" + "\n".join(found)


def test_the_scan_sees_every_way_past_the_facade() -> None:
    source = """
from __future__ import annotations
import importlib
from typing import TYPE_CHECKING
import streamlit as st
from judge import Judge, open_judge
from judge.fr import METHOD
from ui import links
import judge.rules.store
from judge.engine.board import load_board
from judge import rules
if TYPE_CHECKING:
    from judge.search import Searcher

def page():
    from judge.rules.concordance import compare
    return importlib.import_module("judge.rules.index")
"""
    page = ROOT / "ui" / "views" / "fake.py"
    tree = ast.parse(source)
    found = sorted(
        (line, module)
        for line, module in imported(tree, _module_name(page))
        if module.split(".")[0] == "judge" and not app_may_import(module)
    )
    assert found == [
        (9, "judge.rules.store"),
        (10, "judge.engine.board"),
        (11, "judge.rules"),
        (13, "judge.search"),
        (16, "judge.rules.concordance"),
        (17, "judge.rules.index"),
    ]


def test_relative_imports_are_resolved() -> None:
    tree = ast.parse("from . import rules\nfrom ..rules import store\nfrom .. import fr\n")
    here = "judge.cli.compare"
    assert [m for _, m in imported(tree, here)] == [
        "judge.cli",
        "judge.cli.rules",
        "judge.rules",
        "judge.rules.store",
        "judge",
        "judge.fr",
    ]
    assert [m for _, m in imported(tree, here) if not cli_may_import(m)] == [
        "judge.rules",
        "judge.rules.store",
    ]

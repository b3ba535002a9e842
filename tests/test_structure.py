"""The house's rules, as tests: short functions, arrows that point one way, imports that
stay light, no hidden module-level caches. Each test lists every offender it finds.

(McCabe complexity ≤ 20 is ruff's job: `C90` in pyproject.toml, `ruff check`.)"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "judge"
MAX_FUNCTION_LINES = 80


@dataclass(frozen=True)
class Module:
    name: str  # dotted: judge.rules.index
    path: Path
    tree: ast.Module

    @property
    def where(self) -> str:
        return str(self.path.relative_to(ROOT))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def library_modules() -> list[Module]:
    return [
        Module(_module_name(p), p, ast.parse(p.read_text(encoding="utf-8"), str(p)))
        for p in sorted(PACKAGE.rglob("*.py"))
    ]


MODULES = library_modules()


# --- a. short functions ------------------------------------------------------------------


def long_functions(modules: list[Module], limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """`path:line name (n lines)` for every function or method longer than `limit` lines
    (from `def` to its last line; a nested function counts in its parent too)."""
    out = []
    for m in modules:
        for node in ast.walk(m.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    out.append(f"{m.where}:{node.lineno} {node.name} ({length} lignes)")
    return out


def test_no_function_is_longer_than_80_lines() -> None:
    offenders = long_functions(MODULES)
    assert not offenders, "Fonctions trop longues :\n" + "\n".join(offenders)


def test_the_length_check_sees_a_long_function() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    tree = ast.parse(f"def long():\n{body}\n\ndef short():\n    return 1\n")
    found = long_functions([Module("judge.fake", PACKAGE / "fake.py", tree)])
    assert found == [f"judge/fake.py:1 long ({MAX_FUNCTION_LINES + 1} lignes)"]


# --- c. light imports (in a fresh interpreter) -------------------------------------------

LIGHT_IMPORTS = [
    ("judge.rules.index", ("whoosh", "judge.engine", "judge.search", "rapidfuzz")),
    ("judge.engine", ("whoosh", "judge.search")),
    ("judge.rules.concordance", ("whoosh", "judge.search")),
]


def loaded_by(module: str) -> list[str]:
    """Every module loaded by `import module` in a fresh interpreter."""
    code = f"import json, sys; import {module}; print(json.dumps(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert run.returncode == 0, run.stderr
    loaded: list[str] = json.loads(run.stdout)
    return loaded


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


@pytest.mark.parametrize(("module", "forbidden"), LIGHT_IMPORTS, ids=[m for m, _ in LIGHT_IMPORTS])
def test_light_modules_stay_light(module: str, forbidden: tuple[str, ...]) -> None:
    heavy = [name for name in loaded_by(module) if _within(name, forbidden)]
    assert not heavy, f"import {module} charge : " + ", ".join(heavy)


def test_the_import_check_sees_a_heavy_import() -> None:
    assert _within("whoosh.query", ("whoosh",))
    assert not _within("whooshy", ("whoosh",))
    # the search's analysis subclasses whoosh's filters: it must load whoosh
    assert any(_within(name, ("whoosh",)) for name in loaded_by("judge.search.analysis"))


# --- d. arrows: rules ← engine, search ← cli, ui ------------------------------------------


def imports_of(module: Module) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every import anywhere in the module: top level, inside
    functions, under TYPE_CHECKING, relative ones resolved, `import_module("…")` literals."""
    package = module.name if module.path.name == "__init__.py" else module.name.rpartition(".")[0]
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            yield node.lineno, base
            for alias in node.names:  # `from judge import search` imports judge.search
                yield node.lineno, f"{base}.{alias.name}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name | ast.Attribute)
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


# (the modules checked, the packages they must never import)
ARROWS = [
    ("judge.rules", ("judge.search", "judge.engine", "judge.cli", "ui")),
    ("judge.engine", ("judge.search", "judge.cli", "ui")),
    ("judge", ("judge.cli", "ui")),  # the library, the CLI and its entry point excepted
]
_NOT_LIBRARY = ("judge.cli", "judge.__main__")


def wrong_arrows(modules: list[Module], where: str, forbidden: tuple[str, ...]) -> list[str]:
    """`path:line importe name`, one per offending import statement."""
    out = []
    for m in modules:
        if not _within(m.name, (where,)) or _within(m.name, _NOT_LIBRARY):
            continue
        seen: set[int] = set()
        for line, name in sorted(imports_of(m)):
            if line not in seen and _within(name, forbidden):
                seen.add(line)
                out.append(f"{m.where}:{line} importe {name}")
    return out


@pytest.mark.parametrize(("where", "forbidden"), ARROWS, ids=[w for w, _ in ARROWS])
def test_imports_point_one_way(where: str, forbidden: tuple[str, ...]) -> None:
    offenders = wrong_arrows(MODULES, where, forbidden)
    assert not offenders, "Importations à contresens :\n" + "\n".join(offenders)


def test_the_arrow_check_sees_every_kind_of_import() -> None:
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from judge.engine import Board\n"
        "def f():\n    from ..search import query\n    import judge.cli\n"
        "def g():\n    from .. import search\n"
        "importlib.import_module('ui.app')\n"
        "from judge.rules import numbers\n"
    )
    fake = Module("judge.rules.fake", PACKAGE / "rules" / "fake.py", ast.parse(source))
    found = wrong_arrows([fake], "judge.rules", ("judge.search", "judge.engine", "judge.cli", "ui"))
    assert found == [
        "judge/rules/fake.py:4 importe judge.engine",
        "judge/rules/fake.py:6 importe judge.search",
        "judge/rules/fake.py:7 importe judge.cli",
        "judge/rules/fake.py:9 importe judge.search",
        "judge/rules/fake.py:10 importe ui.app",
    ]


# --- e. no module-level mutable cache ----------------------------------------------------

_MUTABLE_CALLS = {
    "dict",
    "set",
    "list",
    "OrderedDict",
    "defaultdict",
    "Counter",
    "deque",
    "WeakKeyDictionary",
    "WeakValueDictionary",
    "WeakSet",
}
_MUTATORS = {
    "add",
    "append",
    "clear",
    "discard",
    "extend",
    "insert",
    "move_to_end",
    "pop",
    "popitem",
    "remove",
    "setdefault",
    "update",
}


def _is_mutable(value: ast.expr | None) -> bool:
    if isinstance(value, ast.Dict | ast.Set | ast.List | ast.DictComp | ast.SetComp | ast.ListComp):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        return name in _MUTABLE_CALLS
    return False


def _module_containers(tree: ast.Module) -> dict[str, int]:
    """Module-level names bound to a mutable container -> line."""
    found: dict[str, int] = {}
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign) and _is_mutable(node.value):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign) and _is_mutable(node.value):
            targets = [node.target]
        for t in targets:
            if isinstance(t, ast.Name):
                found[t.id] = node.lineno
    return found


def _locals(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = func.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    declared = {n for node in ast.walk(func) if isinstance(node, ast.Global) for n in node.names}
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names - declared


def _mutated_names(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[str, int]]:
    """Names whose contents the function changes: `n[k] = v`, `n[k] += v`, `del n[k]`,
    `n.add(…)`, `n.setdefault(…)`, … ; and names it rebinds through `global`."""
    for node in ast.walk(func):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            if isinstance(node.value, ast.Name):
                yield node.value.id, node.lineno
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
            and isinstance(node.func.value, ast.Name)
        ):
            yield node.func.value.id, node.lineno
        elif isinstance(node, ast.Global):
            for name in node.names:
                yield name, node.lineno


def module_caches(modules: list[Module]) -> list[str]:
    out = []
    for m in modules:
        containers = _module_containers(m.tree)
        for func in ast.walk(m.tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            local = _locals(func)
            for name, line in _mutated_names(func):
                is_global = any(
                    isinstance(n, ast.Global) and name in n.names for n in ast.walk(func)
                )
                if (name in containers and name not in local) or is_global:
                    out.append(f"{m.where}:{line} {func.name} modifie {name} (état global)")
    return sorted(set(out))


def test_no_module_level_mutable_cache() -> None:
    offenders = module_caches(MODULES)
    assert not offenders, "Caches au niveau du module :\n" + "\n".join(offenders)


def test_the_cache_check_sees_a_cache() -> None:
    source = (
        "import weakref\n"
        "from collections import OrderedDict\n"
        "from types import MappingProxyType\n"
        "_A = weakref.WeakKeyDictionary()\n"
        "_B: OrderedDict[str, int] = OrderedDict()\n"
        "_C = {}\n"
        "_D = set()\n"
        "_TABLE = {'x': 1}\n"  # read only: fine
        "_FROZEN = frozenset({'a'})\n"
        "_PROXY = MappingProxyType({})\n"
        "_E = None\n"
        "def f(k):\n"
        "    _A[k] = 1\n"
        "    _B.move_to_end(k)\n"
        "    _C.setdefault(k, 2)\n"
        "    _D.add(k)\n"
        "    return _TABLE[k], _FROZEN, _PROXY\n"
        "def g():\n"
        "    global _E\n"
        "    _E = 1\n"
        "def h():\n"
        "    _C = {}\n"  # a local of the same name
        "    _C['x'] = 1\n"
    )
    fake = Module("judge.fake", PACKAGE / "fake.py", ast.parse(source))
    assert [f.split(" modifie ")[1].split()[0] for f in module_caches([fake])] == [
        "_A",
        "_B",
        "_C",
        "_D",
        "_E",
    ]

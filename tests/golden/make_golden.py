"""Run every case of cases.py in-process and write the golden files (also the harness that
test_golden.py uses, so generation and test run the very same code).

Generate from the pristine baseline, never from the code being refactored:

    cd /work/main && PYTHONPATH=/work/baseline python tests/golden/make_golden.py

It prints which `judge` it imported and refuses to run on another checkout than the baseline
(`--baseline`, default ../baseline) unless `--any-code` is given.

Golden file: `data/<group>.json.gz`, gzip with mtime 0, a JSON object mapping each case key
(`shlex.join(argv)`) to {"status", "stdout", "stderr"}, in case order.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import judge  # first: from PYTHONPATH (the baseline) when given, before REPO joins sys.path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    # This checkout's `tests` package (the baseline on PYTHONPATH has one too); `judge` is
    # already imported, so it stays the one PYTHONPATH gave.
    sys.path.insert(0, str(REPO))

from tests.golden import cases as C  # noqa: E402

DATA_DIR = Path(__file__).resolve().with_name("data")

# The search index build reports its progress on stderr only when the build takes more than
# 0.4 s (judge.cli.search._Progress): present or not, and how many steps, depends on the speed
# of the machine. The only non-deterministic output found; removed from stderr.
_PROGRESS = re.compile(r"(?:\rConstruction de l'index de recherche… *\d+ %)+\n?")


def golden_path(group: str, data_dir: Path = DATA_DIR) -> Path:
    return data_dir / f"{group}.json.gz"


def judge_root() -> Path:
    """Root of the checkout the imported `judge` package comes from."""
    return Path(judge.__file__).resolve().parents[1]


@contextlib.contextmanager
def _environment(base: Path) -> Iterator[Path]:
    """A fresh JUDGE_HOME (and XDG folders) for one group; the old environment afterwards."""
    home = base / "home"
    names = {
        "JUDGE_HOME": home,
        "XDG_CACHE_HOME": base / "xdg-cache",
        "XDG_DATA_HOME": base / "xdg-data",
        "XDG_CONFIG_HOME": base / "xdg-config",
    }
    saved = {name: os.environ.get(name) for name in names}
    try:
        for name, path in names.items():
            os.environ[name] = str(path)
        yield home
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


# The functions that load an index (and the caches built on it, such as the concordance), as
# (module, name). Those that exist are shared by `_SharedIndex`; the others are ignored. Only
# the speed depends on this list: if a refactor moves the loading elsewhere, add it here.
INDEX_FACTORIES = (("judge.rules.index", "load_index"), ("judge.session", "open_judge"))


class _SharedIndex:
    """While `shared` is true, each function of INDEX_FACTORIES returns the same object for
    the same arguments and JUDGE_HOME (see cases.SHARED_INDEX for why and when); otherwise
    it is the original. Every module attribute bound to an original function is patched,
    whatever the import style, and restored afterwards."""

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}
        self.shared = False
        self.wrappers: dict[Any, Any] = {}  # original -> wrapper
        for module_name, name in INDEX_FACTORIES:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError:
                continue
            original = getattr(module, name, None)
            if callable(original):
                self.wrappers[original] = self._wrap(original)

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not self.shared:
                return original(*args, **kwargs)
            k = (original, args, tuple(sorted(kwargs.items())), os.environ.get("JUDGE_HOME"))
            if k not in self.memo:
                self.memo[k] = original(*args, **kwargs)
            return self.memo[k]

        return wrapper

    @staticmethod
    def _bound(values: Mapping[Any, Any]) -> list[tuple[Any, str, Any]]:
        return [
            (module, name, attr)
            for mod_name, module in list(sys.modules.items())
            if mod_name == "judge" or mod_name.startswith("judge.")
            for name, attr in list(vars(module).items())
            if any(attr is v for v in values)
        ]

    def __enter__(self) -> _SharedIndex:
        for module, name, original in self._bound(self.wrappers):
            setattr(module, name, self.wrappers[original])
        return self

    def __exit__(self, *exc: object) -> None:
        self.memo.clear()
        # Also in the modules first imported meanwhile, which took a wrapper.
        originals = {id(w): o for o, w in self.wrappers.items()}
        for module, name, wrapper in self._bound(list(self.wrappers.values())):
            setattr(module, name, originals[id(wrapper)])


def run_case(argv: list[str], subst: Mapping[str, str]) -> dict[str, Any]:
    """One in-process `judge.cli.main(argv)`: its exit status, stdout and stderr, with the
    placeholders of `subst` expanded in argv and put back in the outputs."""
    from judge.cli import main

    def expand(arg: str) -> str:
        for placeholder, value in subst.items():
            arg = arg.replace(placeholder, value)
        return arg

    out, err = io.StringIO(), io.StringIO()
    status: Any
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([expand(a) for a in argv])
        except SystemExit as exc:  # argparse errors, --help
            status = exc.code
        except Exception as exc:  # a crash is frozen too (without its traceback)
            status = "exception"
            err.write(f"{type(exc).__name__}: {exc}\n")
    return {
        "status": status,
        "stdout": _normalise(out.getvalue(), subst),
        "stderr": _PROGRESS.sub("", _normalise(err.getvalue(), subst)),
    }


def _normalise(text: str, subst: Mapping[str, str]) -> str:
    # Longest path first, so that a path inside another is replaced as a whole.
    for placeholder, value in sorted(subst.items(), key=lambda kv: -len(kv[1])):
        text = text.replace(value, placeholder)
    return text


def run_group(group: str, reference: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """Run every case of `group` in a fresh home. The derived cases are computed from
    `reference` (the golden data) when given, else from this run's own base results."""
    base_dir = Path(tempfile.mkdtemp(prefix=f"judge-golden-{group}-"))
    results: dict[str, dict[str, Any]] = {}
    try:
        with _environment(base_dir) as home, _SharedIndex() as shared:
            subst = {
                "$JUDGE_HOME": str(home),
                "$ROOT": str(judge_root()),
                "$SHARED": str(C.SHARED),
            }

            def run(argv: list[str]) -> None:
                k = C.key(argv)
                assert k not in results, f"duplicate case: {k}"
                results[k] = run_case(argv[1:] if argv[0] == C.FRESH else argv, subst)

            base = C.base_cases(group)
            for argv in base:
                if not C.shares_index(argv):
                    run(argv)
            derived = C.derived_cases(group, results if reference is None else reference)
            for argv in derived:
                if not C.shares_index(argv):
                    run(argv)
            shared.shared = True
            run_case(C.WARM_UP, subst)  # output unused: it only computes every pair
            for argv in base + derived:
                if C.shares_index(argv):
                    run(argv)
    finally:
        shutil.rmtree(base_dir, ignore_errors=True)
    return results


def write_golden(path: Path, results: Mapping[str, Any]) -> None:
    data = json.dumps(results, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def read_golden(path: Path) -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(gzip.decompress(path.read_bytes()))
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="output folder")
    parser.add_argument("--group", action="append", choices=C.GROUPS, help="default: all")
    parser.add_argument("--baseline", type=Path, default=REPO.parent / "baseline")
    parser.add_argument("--any-code", action="store_true", help="allow another checkout")
    args = parser.parse_args(argv)

    root = judge_root()
    print(f"judge imported from: {judge.__file__}")
    if root != args.baseline.resolve() and not args.any_code:
        print(f"refused: not the baseline ({args.baseline}); set PYTHONPATH or --any-code")
        return 2
    for group in args.group or C.GROUPS:
        if group == "english" and not all(p.is_file() for p in C.EN_FILES.values()):
            print(f"refused: {C.CORPUS_EN} is missing")
            return 2
        started = time.perf_counter()
        results = run_group(group)
        path = golden_path(group, args.out)
        write_golden(path, results)
        crashed = [k for k, r in results.items() if r["status"] == "exception"]
        print(
            f"{group}: {len(results)} cases in {time.perf_counter() - started:.1f} s -> "
            f"{path} ({path.stat().st_size} bytes)" + (f"; CRASHED: {crashed}" if crashed else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every `--json` output of the CLI, byte for byte against the golden files of data/ (made
from the pre-refactor code by make_golden.py, which also holds the harness used here).

After an intended change of an output, regenerate from the code that is right:
`python tests/golden/make_golden.py --any-code` (see its docstring)."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.golden import cases as C
from tests.golden.make_golden import golden_path, read_golden, run_group

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
assert SHARED == C.SHARED

MAX_SHOWN = 3  # mismatching cases shown with a diff
MAX_DIFF_LINES = 30  # lines of each diff
MAX_KEYS = 20  # mismatching keys listed


Results = dict[str, dict[str, Any]]


def _require_english() -> None:
    if all(p.is_file() for p in C.EN_FILES.values()):
        return
    reason = f"éditions anglaises introuvables : {C.CORPUS_EN} absent ou incomplet"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def golden_runs() -> Callable[[str], tuple[Results, Results]]:
    """group -> (golden, current), each group run once per session, on first use."""
    done: dict[str, tuple[Results, Results] | BaseException] = {}

    def get(group: str) -> tuple[Results, Results]:
        if group not in done:
            path = golden_path(group)
            if not path.is_file():
                pytest.fail(f"{path} missing: run tests/golden/make_golden.py")
            golden = read_golden(path)
            try:
                done[group] = (golden, run_group(group, reference=golden))
            except Exception as exc:  # once per group, not once per command
                done[group] = exc
        result = done[group]
        if isinstance(result, BaseException):
            raise result
        return result

    return get


def _diff(name: str, expected: str, actual: str) -> list[str]:
    lines = list(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            f"golden {name}",
            f"current {name}",
            n=2,
        )
    )
    if not lines and expected != actual:  # only line endings differ
        lines = [f"{name}: {expected[-40:]!r} != {actual[-40:]!r}\n"]
    shown = [line if line.endswith("\n") else line + "\n" for line in lines[:MAX_DIFF_LINES]]
    if len(lines) > MAX_DIFF_LINES:
        shown.append(f"... ({len(lines) - MAX_DIFF_LINES} more diff lines)\n")
    return shown


def _report(expected: dict[str, Any], actual: dict[str, Any] | None) -> str:
    if actual is None:
        return "  not run by the current case list\n"
    out = []
    if expected["status"] != actual["status"]:
        out.append(f"  status: golden {expected['status']!r}, current {actual['status']!r}\n")
    for stream in ("stdout", "stderr"):
        if expected[stream] != actual[stream]:
            out += _diff(stream, expected[stream], actual[stream])
    return "".join(out)


@pytest.mark.parametrize(("group", "command"), [(g, c) for g in C.GROUPS for c in C.COMMANDS[g]])
def test_golden(
    group: str, command: str, golden_runs: Callable[[str], tuple[Results, Results]]
) -> None:
    if group == "english":
        _require_english()
    golden, current = golden_runs(group)
    keys = [k for k in golden if C.command_of_key(k) == command]
    extra = [k for k in current if C.command_of_key(k) == command and k not in golden]
    assert keys, f"no golden case for {group}/{command}"
    bad = [k for k in keys if current.get(k) != golden[k]]
    if not bad and not extra:
        return
    msg = [f"{group}/{command}: {len(bad)} of {len(keys)} cases differ from the golden files"]
    if extra:
        msg.append(f"{len(extra)} cases not in the golden files: {extra[:MAX_KEYS]}")
    if bad:
        msg.append(
            "differing: " + ", ".join(bad[:MAX_KEYS]) + (" ..." if len(bad) > MAX_KEYS else "")
        )
    for k in bad[:MAX_SHOWN]:
        msg.append(f"--- case: judge {k}\n{_report(golden[k], current.get(k))}")
    pytest.fail("\n".join(msg), pytrace=False)

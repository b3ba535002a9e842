"""Shared fixtures. Every test run gets its own JUDGE_HOME so that nothing is read
from, or written to, the user's real store and caches."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge.rules.index import RuleIndex, load_index

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS_EN = SHARED / "corpus-en"
EN_FILES = {
    "en-2011-09-30": CORPUS_EN / "en-2011-09-30.txt",
    "en-2008-07-15": CORPUS_EN / "en-2008-07-15.txt",
}

_SESSION_HOME = Path(tempfile.mkdtemp(prefix="judge-test-home-"))


def pytest_configure(config: pytest.Config) -> None:
    os.environ["JUDGE_HOME"] = str(_SESSION_HOME / "default")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)


# --- under CI, a skipped test is a failure ------------------------------------------------


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _skipped(reporter: Any) -> list[str]:
    """`id — reason` of every skipped test or module (xfails are not skips), from the
    terminal reporter's statistics."""
    out = []
    for report in getattr(reporter, "stats", {}).get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        out.append(f"{report.nodeid or report.fspath} — {reason}")
    return out


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if _in_ci() and exitstatus == 0 and _skipped(reporter):
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    skipped = _skipped(terminalreporter) if _in_ci() else []
    if skipped:
        terminalreporter.section("CI : un test ignoré est un échec", sep="=", red=True)
        terminalreporter.line(
            "La CI fournit ../shared (corpus-en) et Chromium : aucun test ne doit y être "
            "ignoré (CI=true). Tests ignorés :"
        )
        for line in skipped:
            terminalreporter.line(f"  {line}")


def require_corpus_en() -> None:
    if not all(p.is_file() for p in EN_FILES.values()):
        pytest.skip(f"../shared/corpus-en absent ({CORPUS_EN}) : éditions anglaises introuvables")


def archive_home(home: Path, *names: str) -> Path:
    """`home` with the editions `names` of ../shared/corpus-en/archive ingested together, as
    `judge ingest` does (everything the next command reads prepared)."""
    require_corpus_en()
    import judge

    outcomes = judge.ingest_many([CORPUS_EN / "archive" / f"{n}.txt" for n in names], home=home)
    assert [o.error for o in outcomes if not o.ok] == []
    return home


@pytest.fixture(scope="session")
def index() -> RuleIndex:
    """The shipped corpus only."""
    return load_index(home=_SESSION_HOME / "empty")


@pytest.fixture(scope="session")
def en_home() -> Path:
    """A JUDGE_HOME with both English editions of ../shared/corpus-en ingested."""
    require_corpus_en()
    from judge.rules import store

    home = _SESSION_HOME / "with-en"
    for eid, path in EN_FILES.items():
        if not (store.editions_dir(home) / eid).exists():
            store.ingest(path, home=home)
    return home


@pytest.fixture(scope="session")
def en_index(en_home: Path) -> RuleIndex:
    """The shipped corpus plus both English editions."""
    return load_index(home=en_home)


@pytest.fixture
def tmp_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty JUDGE_HOME for tests that write to the store."""
    home = tmp_path / "home"
    monkeypatch.setenv("JUDGE_HOME", str(home))
    yield home

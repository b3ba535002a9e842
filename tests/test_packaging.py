"""Packaging and CI.

The wheel carries the library, the app (`ui`, its views) and the shipped corpus (package data
of `judge.corpus`, the corpus/ folder): built from a copy of this tree, installed in a fresh
venv (dependencies from the package index), it works from a folder outside the checkout —
`judge rule`, `judge sba` by gallery name, `judge app` (health check, then the Recherche page
through AppTest) — and so does a `pip install --user` of the same wheel. Then: under CI=true a
skipped test fails the run.

The wheel tests (marker `wheel`) take about a minute, most of it pip installing streamlit;
`python -m pytest -m "not wheel"` leaves them out locally. The CI runs them."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PROJECT["tool"]["setuptools"]
BIN = "Scripts" if os.name == "nt" else "bin"
_NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "test-output",
)


# --- the package list of pyproject.toml (no build) ------------------------------------------


def _package_folders() -> set[str]:
    """Dotted names of every folder of judge/ and ui/ that holds Python code."""
    return {
        ".".join(folder.relative_to(ROOT).parts)
        for top in ("judge", "ui")
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]
        if folder.is_dir() and folder.name != "__pycache__" and any(folder.glob("*.py"))
    }


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(SETUPTOOLS["packages"])
    missing = _package_folders() - listed
    assert not missing, f"paquets absents de [tool.setuptools] packages : {sorted(missing)}"
    assert SETUPTOOLS["package-dir"] == {"judge.corpus": "corpus"}
    assert listed - _package_folders() == {"judge.corpus"}


# --- the wheel, and a fresh venv with it ------------------------------------------------------


@dataclass(frozen=True)
class Install:
    wheel: Path
    venv: Path
    outside: Path  # a working folder outside the checkout
    env: dict[str, str]  # JUDGE_HOME of its own, no PYTHONPATH

    def bin(self, name: str) -> Path:
        return self.venv / BIN / name

    def run(self, *argv: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(a) for a in argv],
            capture_output=True,
            text=True,
            cwd=self.outside,
            env=self.env,
            timeout=timeout,
            check=False,
        )


def _clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["JUDGE_HOME"] = str(home)
    return env


def _checked(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, f"{done.args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Install:
    """Build the wheel from a copy of the tree (pip builds in the source folder: the checkout
    stays untouched), then install it in a fresh venv."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    shutil.copytree(ROOT, src, ignore=_NOT_SOURCE)
    outside = base / "ailleurs"
    outside.mkdir()
    env = _clean_env(base / "judge-home")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    build = [*pip, "wheel", "-q", "--no-deps", "-w", str(base / "dist"), str(src)]
    _checked(subprocess.run(build, capture_output=True, text=True, env=env, check=False))
    (wheel,) = (base / "dist").glob("judge-*.whl")
    venv = base / "venv"
    _checked(
        subprocess.run(
            [sys.executable, "-m", "venv", str(venv)],
            env=env,
            check=False,
            capture_output=True,
            text=True,
        )
    )
    inst = Install(wheel, venv, outside, env)
    _checked(
        inst.run(
            inst.bin("python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            wheel,
            timeout=600,
        )
    )
    return inst


@pytest.mark.wheel
def test_the_wheel_holds_the_app_and_every_corpus_file(install: Install) -> None:
    names = set(zipfile.ZipFile(install.wheel).namelist())
    corpus = {
        "judge/corpus/" + p.relative_to(ROOT / "corpus").as_posix()
        for p in (ROOT / "corpus").rglob("*")
        if p.is_file()
    }
    for needed in ("editions.toml", "glossary-fr-en.toml", "renumbering.toml"):
        assert f"judge/corpus/{needed}" in corpus
    assert {"fr-2024", "fr-2011", "fr-pre2009", "boards"} <= {
        n.split("/")[2] for n in corpus if n.count("/") == 3
    }
    assert corpus <= names, sorted(corpus - names)
    app = {"ui/app.py", *(f"ui/views/{p.name}" for p in (ROOT / "ui" / "views").glob("*.py"))}
    assert app <= names, sorted(app - names)
    assert not [n for n in names if n.startswith("tests/") or "__pycache__" in n]


@pytest.mark.wheel
def test_installed_judge_reads_its_own_corpus(install: Install) -> None:
    done = _checked(
        install.run(
            install.bin("python"),
            "-c",
            "from judge.rules.index import CORPUS_DIR; import ui; print(CORPUS_DIR); "
            "print(ui.__file__)",
        )
    )
    site = install.venv.resolve()
    corpus, ui = (Path(line).resolve() for line in done.stdout.split())
    assert corpus.is_relative_to(site) and corpus.name == "corpus", corpus
    assert ui.is_relative_to(site), ui
    assert not corpus.is_relative_to(ROOT.resolve())


@pytest.mark.wheel
def test_installed_rule_and_sba_by_name(install: Install) -> None:
    rule = _checked(install.run(install.bin("judge"), "rule", "704.5g"))
    assert "blessures mortelles" in rule.stdout
    sba = _checked(install.run(install.bin("judge"), "sba", "704-8-louveteau"))
    assert "Louveteau" in sba.stdout and "704.5f" in sba.stdout
    unknown = install.run(install.bin("judge"), "sba", "louvetea")
    assert unknown.returncode == 2
    assert "704-8-louveteau" in unknown.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def served(install: Install) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`judge app` on a free port of 127.0.0.1, in its own process group, stopped after."""
    port = _free_port()
    log = install.outside / f"app-{port}.log"
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            [str(install.bin("judge")), "app", "--port", str(port), "--address", "127.0.0.1"],
            cwd=install.outside,
            env=install.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def _health(url: str, proc: subprocess.Popen[str], log: Path, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"judge app s'est arrêté :\n{log.read_text()}"
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                body: str = resp.read().decode()
                return body
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"pas de réponse de {url} en {timeout} s :\n{log.read_text()}")


_SEARCH_IN_APPTEST = """
from pathlib import Path
import ui
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(str(Path(ui.__file__).parent / "app.py"), default_timeout=60).run()
at.text_input(key="recherche-q").set_value("contact mortel").run()
assert not at.exception, at.exception
print("\\n".join(link.proto.query_string for link in at.page_link))
"""


@pytest.mark.wheel
@pytest.mark.skipif(os.name != "posix", reason="process groups (os.killpg) : POSIX seulement")
def test_installed_app_answers(install: Install, served: tuple[str, subprocess.Popen[str]]) -> None:
    url, proc = served
    log = install.outside / f"app-{url.rsplit(':', 1)[1]}.log"
    assert _health(url, proc, log) == "ok"
    with urllib.request.urlopen(url, timeout=10) as resp:
        assert resp.status == 200
    # The installed pages themselves run: the Recherche page, with a query, in AppTest.
    page = _checked(install.run(install.bin("python"), "-c", _SEARCH_IN_APPTEST))
    assert "regle=704.5h" in page.stdout, page.stdout


@pytest.mark.wheel
def test_user_install_reads_its_own_corpus(install: Install, tmp_path: Path) -> None:
    """`pip install --user` (refused inside a venv: the base interpreter, with a temporary
    HOME and PYTHONUSERBASE). --no-deps: the dependencies are those of the test venv, reached
    through a .pth file of the user site, which comes after the user site itself."""
    base = Path(sys.base_prefix) / BIN / ("python.exe" if os.name == "nt" else "python3")
    assert base.is_file(), f"interpréteur de base introuvable : {base}"
    env = {
        **install.env,
        "HOME": str(tmp_path / "home"),
        "PYTHONUSERBASE": str(tmp_path / "userbase"),
    }
    env.pop("PYTHONNOUSERSITE", None)

    def run(*argv: str | Path) -> subprocess.CompletedProcess[str]:
        return _checked(
            subprocess.run(
                [str(a) for a in argv],
                capture_output=True,
                text=True,
                cwd=install.outside,
                env=env,
                timeout=300,
                check=False,
            )
        )

    run(
        base,
        "-m",
        "pip",
        "install",
        "-q",
        "--user",
        "--no-deps",
        "--no-warn-script-location",
        "--disable-pip-version-check",
        install.wheel,
    )
    site_dirs = run(base, "-c", "import site; print(site.getusersitepackages())").stdout.strip()
    user_site = Path(site_dirs)
    venv_site = run(
        install.bin("python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"
    ).stdout.strip()
    (user_site / "judge-test-deps.pth").write_text(venv_site + "\n", encoding="utf-8")
    where = run(
        base, "-c", "import judge.rules.index as i, judge; print(judge.__file__, i.CORPUS_DIR)"
    ).stdout.split()
    assert all(Path(p).is_relative_to(user_site) for p in where), where
    rule = run(Path(env["PYTHONUSERBASE"]) / BIN / "judge", "rule", "704.5g")
    assert "blessures mortelles" in rule.stdout


# --- CI: a skipped test is a failure --------------------------------------------------------

_SKIPPING = """
import pytest

def test_passes():
    pass

@pytest.mark.skip(reason="pour voir")
def test_skipped():
    pass

@pytest.mark.xfail(reason="attendu")
def test_expected_failure():
    assert False
"""


def _pytest_on(folder: Path, ci: bool, *options: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options, str(folder)],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=120,
        check=False,
    )


# The suite runs on workers (pytest-xdist, pyproject's addopts): the skip reaches the
# controller's report, where the hooks read it.
@pytest.mark.parametrize("options", [(), ("-n", "2")], ids=["one-process", "two-workers"])
def test_a_skip_fails_under_ci_only(tmp_path: Path, options: tuple[str, ...]) -> None:
    # The hooks of tests/conftest.py, in a folder of their own.
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import (  # noqa: F401\n"
        "    pytest_sessionfinish, pytest_terminal_summary, pytest_unconfigure\n)\n",
        encoding="utf-8",
    )
    (tmp_path / "test_skipping.py").write_text(_SKIPPING, encoding="utf-8")
    ci = _pytest_on(tmp_path, True, *options)
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "CI : un test ignoré est un échec" in ci.stdout
    assert "test_skipping.py::test_skipped — Skipped: pour voir" in ci.stdout
    assert "test_expected_failure" not in ci.stdout.split("échec")[-1]
    local = _pytest_on(tmp_path, False, *options)
    assert local.returncode == 0, local.stdout + local.stderr
    assert "échec" not in local.stdout
    (tmp_path / "test_skipping.py").write_text("def test_passes():\n    pass\n", encoding="utf-8")
    assert _pytest_on(tmp_path, True, *options).returncode == 0

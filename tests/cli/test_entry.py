"""The `judge` command's way out (`judge.cli.entry`): a command ends the process once its
output is flushed, without the interpreter's teardown (0.2 s after an export); `judge app`
and `main` called alone (tests, the library) return their status."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from judge import cli
from judge.cli import app, main
from tests.conftest import ROOT


class Exited(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


@pytest.fixture()
def exits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    seen: list[int] = []

    def exit_now(status: int) -> None:
        seen.append(status)
        raise Exited(status)

    # judge.cli's own way out, not os._exit: a forked child (the export's second half)
    # ends with os._exit, and must still end.
    monkeypatch.setattr(cli, "_end_process", exit_now)
    return seen


def test_export_ends_the_process_after_its_output(
    exits: list[int], capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    with pytest.raises(Exited):
        main(["export", "--edition", "fr-2011"], exit_now=True)
    rows = json.loads(capsysbinary.readouterr().out)
    assert exits == [0] and len(rows) > 100


def test_main_alone_and_the_app_return(
    exits: list[int], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["rule", "704.5g", "--edition", "fr-2024"]) == 0  # tests and the library
    assert "blessures mortelles" in capsys.readouterr().out
    monkeypatch.setattr(app, "launch", lambda argv: 0)
    assert main(["app"], exit_now=True) == 0
    assert exits == []
    with pytest.raises(Exited):
        main(["rule", "704.5g", "--edition", "fr-2024"], exit_now=True)
    assert exits == [0]


def test_a_failed_export_ends_with_its_status(
    exits: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(Exited):
        main(["export", "--edition", "inconnue"], exit_now=True)
    assert exits == [2] and "Édition inconnue" in capsys.readouterr().err


def test_an_export_read_by_a_pipe_that_closes_early_ends_quietly() -> None:
    # `judge export … | head -c 100`: no traceback, no "Exception ignored" at exit.
    proc = subprocess.Popen(
        [sys.executable, "-m", "judge", "export", "--edition", "fr-2011"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(100)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    status = proc.wait(60)
    assert first.startswith(b"[\n  {") and err == "" and status == 0

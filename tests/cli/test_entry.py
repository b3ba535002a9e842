"""The `judge` command's way out (`judge.cli.entry`): `judge export`, whose heap is large,
ends the process once its output is flushed, without the interpreter's teardown; every
other command returns its status as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from judge.cli import main
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

    monkeypatch.setattr(os, "_exit", exit_now)
    return seen


def test_export_ends_the_process_after_its_output(
    exits: list[int], capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    with pytest.raises(Exited):
        main(["export", "--edition", "fr-2011"], exit_now=True)
    rows = json.loads(capsysbinary.readouterr().out)
    assert exits == [0] and len(rows) > 100


def test_other_commands_and_main_alone_return(
    exits: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rule", "704.5g", "--edition", "fr-2024"], exit_now=True) == 0
    assert "blessures mortelles" in capsys.readouterr().out
    assert main(["export", "--edition", "fr-2011"]) == 0  # what tests and the library call
    assert exits == []


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

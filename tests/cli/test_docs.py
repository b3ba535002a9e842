"""The README documents every command and every option of the CLI, and starts
with the two commands a newcomer runs."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

from judge.cli import build_parser
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("pas de sous-commandes")


def test_every_command_and_option_is_documented() -> None:
    commands = _subcommands()
    assert {"editions", "rule", "check", "export", "ingest"} <= set(commands)
    missing = []
    for name, sub in commands.items():
        section = re.search(rf"^### `judge {name}\b.*?(?=^### |\Z)", README, re.M | re.S)
        if section is None:
            missing.append(f"judge {name}")
            continue
        for action in sub._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag != "--help" and flag not in section.group(0):
                    missing.append(f"judge {name} {flag}")
    assert not missing, f"non documenté dans le README : {missing}"


def test_readme_opens_with_two_commands() -> None:
    blocks = re.findall(r"```(?:sh|bash)\n(.*?)```", README, re.S)
    first = [line for line in blocks[0].splitlines() if line.strip()]
    assert len(first) == 2
    assert first[0].endswith("pip install -e . && judge app")
    assert "pytest" in first[1]
    assert README.index("```") < README.index("\n## ")


def test_python_dash_m_judge_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "judge", "rule", "704.5g", "--edition", "fr-2024"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "blessures mortelles" in out.stdout

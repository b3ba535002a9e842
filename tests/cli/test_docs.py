"""The README documents every command and every option of the CLI, and starts
with the two commands a newcomer runs."""

from __future__ import annotations

import argparse
import json
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


def test_each_command_imports_only_its_module() -> None:
    """`judge.cli.COMMANDS` says which module adds each command (a command builds only
    its module's parser): it names every command once, with the module that adds it."""
    from judge import cli

    for name in cli.COMMAND_MODULES:
        added = set(_subcommands_of(cli.build_parser(only=name)))
        assert added == {c for c, m in cli.COMMANDS.items() if m == name}, name
    assert set(cli.COMMANDS) == set(_subcommands())
    code = (
        "import json, sys; from judge import cli; cli.build_parser(cli._module_of(['app'])); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('judge.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert "judge.cli.app" in loaded and "judge.cli.rules" not in loaded, loaded
    assert not any(m.startswith(("judge.rules.index", "judge.search")) for m in loaded), loaded


def _subcommands_of(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []

"""A non-editable install carries the shipped corpus (pyproject's data-files)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from judge.rules.index import CORPUS_DIR

ROOT = Path(__file__).resolve().parents[1]


def test_every_corpus_file_is_installed_as_data() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data_files = project["tool"]["setuptools"]["data-files"]
    installed = {
        (Path(target) / Path(match).name).as_posix()
        for target, patterns in data_files.items()
        for pattern in patterns
        for match in (str(p.relative_to(ROOT)) for p in ROOT.glob(pattern))
    }
    shipped = {
        "share/judge/" + p.relative_to(ROOT).as_posix()
        for p in CORPUS_DIR.rglob("*")
        if p.is_file()
    }
    assert shipped and shipped <= installed, sorted(shipped - installed)

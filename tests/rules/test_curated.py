"""The curated data (`corpus/renumbering.toml`): its tables read with the file, its
patterns compiled when first asked for, and a bad one a French error naming the file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import judge
from judge.rules.concordance import curated
from judge.rules.concordance.curated import load_curated
from judge.rules.errors import DocumentError


def test_the_shipped_patterns_all_compile() -> None:
    data = load_curated()
    assert data.tables and data.changes and data.terms
    assert set(data.terminology) == {"en", "fr"}
    assert all(isinstance(p, re.Pattern) for fr, en in data.terms for p in (fr, en))


def test_a_command_that_follows_links_compiles_no_pattern(tmp_path: Path) -> None:
    """What `judge rule` and an export do with the concordance leaves the patterns alone
    (a `cached_property` keeps its value in the instance's __dict__ once computed)."""
    with judge.open_judge(tmp_path) as j:  # the shipped editions, their pairs matched
        j.concordance.warm()  # and kept, as an ingest leaves them (matching reads patterns)
    curated._parse.cache_clear()
    with judge.open_judge(tmp_path) as j:
        conc = j.concordance
        assert conc.links("fr-2024", "704.5j") and conc.rows_of("fr-2011")
        assert not {"changes", "terms", "terminology"} & set(vars(conc.data))
        assert conc.data.terms and "terms" in vars(conc.data)


@pytest.mark.parametrize("kind", ["change", "term"])
def test_a_bad_pattern_is_named_with_its_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "renumbering.toml"
    entry = (
        '[[change]]\nid = "x"\nold = ["(unclosed"]\nsummary = "s"\nreverse = "r"\n'
        if kind == "change"
        else '[[term]]\npairs = [["(unclosed", "x"]]\n'
    )
    path.write_text(entry, encoding="utf-8")
    data = load_curated(path)  # the tables alone are read here
    with pytest.raises(DocumentError, match="entrée invalide") as err:
        _ = data.changes if kind == "change" else data.terms
    assert str(path) in err.value.message

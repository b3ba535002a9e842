"""Fuzz: any text typed in the search box, over the shipped corpus and over the shipped corpus
plus both English editions. `Judge.search` (and `judge search` on the command line) never
raises: an odd query gets few hits, or a French message."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from judge import Judge
from judge.cli import main
from tests.fuzz.conftest import FUZZ, ends_within

TRICKY = [
    "zone d exil",
    "zone d'exil",
    "l'",
    "d'",
    "l",
    "d",
    "c",
    "c 4.5",
    "r 704",
    "règle",
    "règle 704.5g",
    "704.5",
    "704.5l",
    "704.5zz",
    "100.1zz",
    "420.5aa",
    "1",
    "999.999",
    "0.0",
    ".",
    "-",
    "*",
    "?",
    '"',
    "''",
    "l' d' qu' jusqu'",
    "AND OR NOT",
    "title:foo",
    "contact mortel~2",
    "deathtouch^3",
    "(",
    ")",
    "[a TO z]",
    "\\",
    "\x00",
    "\u200b",
    "\ufeff704.5g",
    " \t\n ",
    "a" * 1000,
    "704.5g " * 150,
    "é" * 1000,
]

queries = st.one_of(
    st.sampled_from(TRICKY),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=900, max_size=1000),
    st.text(alphabet=st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp"]), max_size=20),
    st.builds(
        lambda a, b, c, d: f"{a}{b}.{c}{d}",
        st.sampled_from(["", "règle ", "r", "cf. ", "voir "]),
        st.integers(0, 1000),
        st.integers(0, 99),
        st.sampled_from(["", "a", "l", "o", "zz", "aa", "k-m", "/"]),
    ),
    st.lists(
        st.sampled_from(["l'", "d'", "qu'", "zone", "d", "exil", "c", "4.5", "de", "mort", "la"]),
        max_size=8,
    ).map(" ".join),
)
languages = st.sampled_from([None, None, "fr", "en"])
SHIPPED = ["fr-2024", "fr-2011", "fr-pre2009"]
ENGLISH = ["en-2011-09-30", "en-2008-07-15"]


def filters(ids: list[str]) -> st.SearchStrategy[list[str] | None]:
    return st.one_of(st.none(), st.lists(st.sampled_from(ids), min_size=1, unique=True))


limits = st.sampled_from([1, 10, 30])


def _search(
    j: Judge, query: str, language: str | None, limit: int, editions: list[str] | None
) -> None:
    with ends_within(60):
        view = j.search(query, editions=editions, language=language, limit=limit)
    data = view.to_dict()
    json.dumps(data)
    assert len(data["hits"]) <= limit
    for hit in data["hits"]:
        if editions:
            assert hit["edition"] in editions
        if language:
            assert hit["language"] == language


@FUZZ
@given(queries, languages, limits, filters(SHIPPED))
@example("zone d exil", None, 10, None)
@example("c 4.5", None, 10, None)
def test_search_shipped(
    shipped_judge: Judge, query: str, language: str | None, limit: int, editions: list[str] | None
) -> None:
    _search(shipped_judge, query, language, limit, editions)


@FUZZ
@given(queries, languages, limits, filters(SHIPPED + ENGLISH))
@example("zone d exil", None, 10, None)
@example("zone d'exil", "en", 10, None)
@example("zone d exil", None, 10, ["en-2011-09-30"])
@example("c 4.5", None, 10, None)
@example("d", None, 10, None)
def test_search_with_english_editions(
    en_judge: Judge, query: str, language: str | None, limit: int, editions: list[str] | None
) -> None:
    _search(en_judge, query, language, limit, editions)


# Each `judge search` opens the store and its search index again: a fifth of the budget.
@settings(FUZZ, max_examples=max(5, FUZZ.max_examples // 5))
@given(st.one_of(st.sampled_from(TRICKY), st.text(max_size=30)).filter(lambda q: "\x00" not in q))
@example("zone d exil")
def test_search_cli_with_english_editions(en_judge: Judge, en_home: Path, query: str) -> None:
    """`judge search` over the English home: its JSON (exit 0, or 1 when nothing is found),
    or an error message (exit 2)."""
    out, err = io.StringIO(), io.StringIO()
    saved = os.environ.get("JUDGE_HOME")
    os.environ["JUDGE_HOME"] = str(en_home)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), ends_within(60):
            try:
                rc = main(["search", "--json", "--", query])
            except SystemExit as exc:  # argparse: an empty query
                rc = exc.code
    finally:
        if saved is None:
            os.environ.pop("JUDGE_HOME", None)
        else:
            os.environ["JUDGE_HOME"] = saved
    assert rc in (0, 1, 2), (rc, err.getvalue())
    if rc == 2:
        assert err.getvalue().strip(), rc
    else:  # hits, or none (exit 1): the JSON answer either way
        json.loads(out.getvalue())

"""Whatever a person types into the app's text inputs, the page renders and shows no exception.

A small fixed budget (EXAMPLES per input, derandomized under CI=true) over one AppTest per
input: the examples follow one another in the same session, as a person's attempts would."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from tests.ui.conftest import APP, open_page
from ui import links

EXAMPLES = 25
CI = os.environ.get("CI") == "true"
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=CI,  # the same examples on every CI run; no example database either
    **({"database": None} if CI else {}),  # type: ignore[arg-type]
    # One app for all the examples of a test (and its JUDGE_HOME): that is the point.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# What the boxes parse: JSON, the compact form (`perm x power=2 2/2`), rule numbers.
SYNTAX = "[]{}\":,.=/\\-+0123456789 \n\tabcxyz'éÉ«»"
TRICKY = [
    "[" * 5000,
    "{" * 3000,
    '{"teams": ' + "[" * 2000,
    '{"a": ' + "9" * 5000 + "}",
    "\x00",
    "NaN",
    '{"stack": [{"x": Infinity}]}',
    "player Alice life=99999999999999999999999999",
    'perm "a',
    "choice 704.5j keep=",
    "704.5g" * 60,
    "/etc/passwd",
    "<script>alert(1)</script> **gras** $x$ :red[x]",
    "\u202e\u200b\ufeff",
    "1" * 400,
    "704.",
    ".",
    "",
]


def texts(max_size: int) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(TRICKY),
        st.text(alphabet=SYNTAX, max_size=max_size),
        st.text(max_size=max_size),
    )


def _renders(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    # ui/app.py turns an exception into a message: that is a failure here all the same.
    unexpected = [e.value for e in at.error if "erreur inattendue" in str(e.value)]
    assert not unexpected, unexpected
    assert at.main.children, "la page ne s'est pas affichée"


def _field(at: AppTest, kind: str, label: str) -> object:
    widgets = [(str(getattr(w, "label", "")), w) for w in at.get(kind)]
    found = [w for name, w in widgets if name.startswith(label)]
    assert found, (label, [name for name, _ in widgets])
    return found[0]


@pytest.fixture
def fresh(tmp_home: Path) -> Callable[[], AppTest]:
    return lambda: AppTest.from_file(str(APP), default_timeout=60)


def test_search_box(fresh: Callable[[], AppTest]) -> None:
    at = open_page(fresh(), links.RECHERCHE)

    @FUZZ
    @given(texts(300))
    def typed(text: str) -> None:
        _field(at, "text_input", "Rechercher").set_value(text[:300])  # type: ignore[attr-defined]
        at.run()
        _renders(at)

    typed()


def test_rule_number_field(fresh: Callable[[], AppTest]) -> None:
    at = open_page(fresh(), links.REGLE)

    @FUZZ
    @given(texts(80))
    def typed(text: str) -> None:
        _field(at, "text_input", "Numéro de règle").set_value(text)  # type: ignore[attr-defined]
        at.run()
        _renders(at)

    typed()


EDITIONS = ["fr-2024", "fr-2011", "fr-pre2009"]


def test_compare_fields(fresh: Callable[[], AppTest]) -> None:
    at = open_page(fresh(), links.COMPARER, regle="704", de="fr-2011", vers="fr-2024")

    @FUZZ
    @given(texts(80), st.sampled_from(EDITIONS), st.sampled_from(EDITIONS))
    def typed(text: str, old: str, new: str) -> None:
        _field(at, "selectbox", "De").set_value(old)  # type: ignore[attr-defined]
        _field(at, "selectbox", "Vers").set_value(new)  # type: ignore[attr-defined]
        _field(at, "text_input", "Règle ou section").set_value(text)  # type: ignore[attr-defined]
        at.run()
        _renders(at)

    typed()


def test_sandbox_json_box(fresh: Callable[[], AppTest]) -> None:
    at = open_page(fresh(), links.BAC_A_SABLE)

    @FUZZ
    @given(texts(400))
    def typed(text: str) -> None:
        _field(at, "text_area", "teams, stack, choices").set_value(text)  # type: ignore[attr-defined]
        at.run()
        _renders(at)
        if not at.error:  # a board the tables accept: run it too
            _field(at, "button", "Lancer").click()  # type: ignore[attr-defined]
            at.run()
            _renders(at)

    typed()


def test_sandbox_paste_box(fresh: Callable[[], AppTest]) -> None:
    at = open_page(fresh(), links.BAC_A_SABLE)

    @FUZZ
    @given(texts(400))
    def typed(text: str) -> None:
        _field(at, "text_area", "Plateau en JSON").set_value(text)  # type: ignore[attr-defined]
        _field(at, "button", "Charger ce plateau").click()  # type: ignore[attr-defined]
        at.run()
        _renders(at)
        if not at.error:
            _field(at, "button", "Lancer").click()  # type: ignore[attr-defined]
            at.run()
            _renders(at)

    typed()

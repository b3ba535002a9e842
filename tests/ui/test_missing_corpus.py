"""Say what is missing: the shipped texts hold a few sections only (704, 301, 715 in 2024,
118 in 2011, 420 and 408 before 2009). On the first visit, and when a search finds no rule
(no hit, or glossary entries only), the Recherche page says what the corpus covers and how to
add the complete official rules, instead of an empty page."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from judge.fr import CORPUS_COVERAGE_EMPTY, CORPUS_COVERAGE_TITLE, RULES_PAGE_URL
from judge.rules import store
from tests.ui.conftest import no_exception, open_page, shown
from ui import links


def _search(at: AppTest, query: str) -> str:
    open_page(at, links.RECHERCHE)
    at.text_input(key="recherche-q").set_value(query).run()
    no_exception(at)
    return shown(at)


def _says_the_coverage(at: AppTest) -> None:
    text = shown(at)
    assert CORPUS_COVERAGE_TITLE in text
    assert "fr-2024" in text and "sections 301, 704, 715" in text
    assert "fr-2011" in text and "section 118" in text
    assert "fr-pre2009" in text and "sections 408, 420" in text
    assert "Comprehensive Rules" in text and "Wizards of the Coast" in text
    assert "judge ingest FICHIER" in text and "page Corpus" in text
    assert any(b.proto.url == RULES_PAGE_URL for b in at.get("link_button"))
    assert any(p.proto.page == links.CORPUS.url_path for p in at.page_link)


def test_first_visit_says_what_the_corpus_covers(app: AppTest) -> None:
    app.run()
    no_exception(app)
    _says_the_coverage(app)
    assert CORPUS_COVERAGE_EMPTY not in shown(app)


def test_no_hit_says_what_is_missing(app: AppTest) -> None:
    text = _search(app, "xyzzyq")
    assert "Aucune règle ne correspond" in text
    assert CORPUS_COVERAGE_EMPTY in text
    _says_the_coverage(app)


GLOSSARY_DOC = """Règles complètes de Magic: The Gathering
Ces règles sont en vigueur à compter du 30 septembre 2011.

1. Concepts du jeu

100. Généralités

100.1. Ces règles s'appliquent à toutes les parties.

Glossaire

Mulligan
Action de remélanger sa main de départ dans sa bibliothèque et d'en piocher une nouvelle.
"""


def test_glossary_hits_only_say_what_is_missing(app: AppTest, tmp_home: Path) -> None:
    # The glossary knows the term; no rule of the corpus says what to do with it.
    doc = tmp_home.parent / "glossaire.txt"
    doc.write_text(GLOSSARY_DOC, encoding="utf-8")
    store.ingest(doc, edition_id="fr-2011-glossaire", home=tmp_home)
    text = _search(app, "mulligan")
    assert "Glossaire" in text and "Mulligan" in text
    assert CORPUS_COVERAGE_EMPTY in text
    _says_the_coverage(app)
    assert "fr-2011-glossaire" in text and "section 100" in text


def test_a_rule_found_shows_no_notice(app: AppTest) -> None:
    text = _search(app, "contact mortel")
    assert CORPUS_COVERAGE_TITLE not in text

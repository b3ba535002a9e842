"""Recherche page: numbers, phrases, typos, English terms, filters, escaping."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui.conftest import follow, heading, link_to, no_exception, open_page, shown
from ui import links
from ui.render import plain


def _search(at: AppTest, query: str) -> AppTest:
    if not at._tree.children:
        open_page(at, links.RECHERCHE)
    at.text_input(key="recherche-q").set_value(query).run()
    no_exception(at)
    return at


def _first_result(at: AppTest) -> tuple[str, str]:
    from urllib.parse import parse_qsl

    for link in at.page_link:
        q = dict(parse_qsl(link.proto.query_string))
        if link.proto.page == links.REGLE.url_path:
            return q["regle"], q.get("edition", "")
    raise AssertionError("aucun résultat")


def test_search_returns_the_expected_rule(app: AppTest) -> None:
    _search(app, "contact mortel")
    assert _first_result(app) == ("704.5h", "fr-2024")
    text = shown(app)
    assert "Actions basées sur un état" in text
    # The matched words are highlighted (bold), the rest is escaped text.
    assert any("**contact**" in m.value and "**mortel**" in m.value for m in app.markdown)
    assert app.query_params == {"q": "contact mortel"}


def test_a_click_opens_the_rule(app: AppTest) -> None:
    _search(app, "contact mortel")
    follow(app, link_to(app, regle="704.5h", edition="fr-2024"))
    assert "704.5h" in heading(app)
    assert "contact mortel" in shown(app)


def test_typo_is_corrected_and_said(app: AppTest) -> None:
    _search(app, "contcat mortl")
    assert _first_result(app) == ("704.5h", "fr-2024")
    assert "Résultats pour « **contact mortel** »" in shown(app)


def test_english_keyword_and_rule_number(app: AppTest) -> None:
    _search(app, "deathtouch")
    assert _first_result(app)[0] == "704.5h"
    assert "deathtouch → contact mortel" in shown(app)
    _search(app, "704.5g")
    assert _first_result(app) == ("704.5g", "fr-2024")


def test_results_are_grouped_by_rule(app: AppTest) -> None:
    _search(app, "légendaire")
    rules = [
        lk.proto.query_string
        for lk in app.page_link
        if lk.proto.page == "regle" and "Ouvrir" not in lk.proto.label
    ]
    assert len(rules) == len(set(rules))


def test_edition_filter(app: AppTest) -> None:
    open_page(app, links.RECHERCHE, q="points de vie", editions="fr-2011")
    no_exception(app)
    assert app.multiselect(key="recherche-editions").value == ["fr-2011"]
    editions = {
        q.split("edition=")[1]
        for q in (lk.proto.query_string for lk in app.page_link)
        if "edition=" in q
    }
    assert editions == {"fr-2011"}


def test_nothing_found_says_so_in_french(app: AppTest) -> None:
    _search(app, "<script>alert(1)</script> **gras**")
    no_exception(app)
    info = plain(app.info[0].value)
    assert "Absent des règles" in info or "Aucune règle" in info
    for m in app.markdown:
        assert "<script>" not in m.value


def test_empty_page_offers_examples(app: AppTest) -> None:
    open_page(app, links.RECHERCHE)
    link_to(app, q="contact mortel")


def test_each_expansion_is_shown_once(app: AppTest) -> None:
    _search(app, "contact mortel et contact mortel puis contact mortel")
    captions = [plain(c.value) for c in app.caption if "Recherche aussi" in plain(c.value)]
    shown_once = [p for c in captions for p in c.split(" · ") if p.startswith("Recherche aussi")]
    assert shown_once
    assert len(shown_once) == len(set(shown_once)), shown_once


def test_a_long_question_is_kept_truncated_with_a_notice(app: AppTest) -> None:
    long = ("contact mortel " * 40).strip()  # 599 characters
    _search(app, long)
    box = app.text_input(key="recherche-q")
    assert box.value == long[:300]
    assert any("Question tronquée à 300 caractères" in plain(w.value) for w in app.warning)
    assert _first_result(app)[0] == "704.5h"
    # ... and so is one that comes in a link
    open_page(app, links.RECHERCHE, q=long)
    no_exception(app)
    assert app.text_input(key="recherche-q").value == long[:300]
    assert any("Question tronquée à 300 caractères" in plain(w.value) for w in app.warning)


def test_a_glossary_entry_links_to_the_rules_it_sends_to(
    app: AppTest, en_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An imported edition's glossary entry (« Double Strike … See rule 702.4 ») is shown
    with a link to that rule in its edition."""
    monkeypatch.setenv("JUDGE_HOME", str(en_home))
    _search(app, "with double strike does my creature deal damage twice")
    assert "Glossaire" in shown(app)
    link = link_to(app, regle="702.4", edition="en-2011-09-30")
    assert plain(link.proto.label) == "Voir la règle 702.4"
    follow(app, link)
    assert "702.4" in heading(app)

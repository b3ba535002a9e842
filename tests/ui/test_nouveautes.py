"""Nouveautés page: what changed between two editions, from the URL."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from judge.rules import store
from tests.conftest import EN_FILES, require_corpus_en
from tests.ui.conftest import link_to, no_exception, open_page, shown
from ui import links


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_default_is_a_release_with_something_to_read(app: AppTest) -> None:
    # fr-2011 (118) and fr-2024 (704, 301, 715) share no section: everything would read 0;
    # fr-pre2009's 420 became 704 in fr-2024.
    open_page(app, links.NOUVEAUTES)
    no_exception(app)
    assert app.query_params["de"] == "fr-pre2009"
    assert app.query_params["vers"] == "fr-2024"
    metrics = _metrics(app)
    assert set(metrics) == {"Ajoutées", "Retirées", "Modifiées", "Déplacées"}
    assert metrics["Déplacées"] == "15"
    assert "Déplacées (15)" in shown(app)


def test_default_with_english_editions_is_the_two_newest_english(
    app: AppTest, en_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two editions of the complete rules share every section: they come before the French
    # extracts, although fr-2024 is the newest edition.
    monkeypatch.setenv("JUDGE_HOME", str(en_home))
    open_page(app, links.NOUVEAUTES)
    no_exception(app)
    assert (app.query_params["de"], app.query_params["vers"]) == (
        "en-2008-07-15",
        "en-2011-09-30",
    )
    metrics = _metrics(app)
    assert int(metrics["Modifiées"]) > 0, metrics
    assert "Aucun changement" not in shown(app)


def test_moved_rules_between_pre2009_and_2024(app: AppTest) -> None:
    open_page(app, links.NOUVEAUTES, de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    assert _metrics(app)["Déplacées"] == "15"
    text = shown(app)
    assert "Déplacées (15)" in text
    link_to(app, regle="420.5e", edition="fr-pre2009")
    link_to(app, regle="704.5j", edition="fr-2024")


def test_section_filter_comes_from_the_url(app: AppTest) -> None:
    open_page(app, links.NOUVEAUTES, de="fr-pre2009", vers="fr-2024", section="704")
    no_exception(app)
    assert app.query_params["section"] == "704"
    link_to(app, regle="420.5e", edition="fr-pre2009")
    added = _metrics(app)["Ajoutées"]
    open_page(app, links.NOUVEAUTES, de="fr-pre2009", vers="fr-2024", section="613")
    no_exception(app)
    assert _metrics(app)["Déplacées"] == "0"
    assert not any("420.5e" in lk.proto.query_string for lk in app.page_link)
    assert _metrics(app)["Ajoutées"] != added or added == "0"


def test_unknown_edition_falls_back_to_the_latest_release(app: AppTest) -> None:
    open_page(app, links.NOUVEAUTES, de="fr-pre2009", vers="xx-1999")
    no_exception(app)
    assert "Édition « xx-1999 » inconnue" in shown(app)
    assert app.query_params["vers"] == "fr-2024"


def test_a_single_edition_of_a_language_says_so(app: AppTest, tmp_home: Path) -> None:
    require_corpus_en()
    store.ingest(EN_FILES["en-2011-09-30"], home=tmp_home)
    open_page(app, links.NOUVEAUTES, de="en-2011-09-30")
    no_exception(app)
    assert "Une seule édition en anglais (en-2011-09-30) : rien à comparer." in shown(app)
    assert not app.metric

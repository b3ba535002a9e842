"""Comparer page and the other editions of a rule on the Règle page."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.ui.conftest import follow, heading, link_to, no_exception, open_page, shown
from ui import links
from ui.render import plain


def test_moved_rule_is_shown_as_moved_with_its_diff(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="420.5e", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    text = shown(app)
    assert ":orange-badge[Déplacée] **420.5e → 704.5j**" in text
    assert ":red-badge[Modifiée]" in text
    assert "Règle des légendes" in text  # the curated summary of the change
    # Deleted words in red on the old side, inserted words in green on the new side.
    bodies = [m.value for m in app.markdown]
    assert any(":red-background[" in b and "tous mis dans les cimeti" in b for b in bodies)
    assert any(":green-background[" in b and "that player chooses one of them" in b for b in bodies)
    link_to(app, regle="420.5e", edition="fr-pre2009")
    link_to(app, regle="704.5j", edition="fr-2024")


def test_a_section_compares_every_rule(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="420.5", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    metrics = {m.label: m.value for m in app.metric}
    assert int(metrics["Règles comparées"]) >= 10
    assert int(metrics["Déplacées"]) >= 10
    text = shown(app)
    assert "420.5c → 704.5g" in text
    assert "Sans équivalent dans fr-pre2009" in text  # 704.5h, deathtouch, is new
    link_to(app, regle="704.5h", edition="fr-2024")


def test_unknown_rule_and_swap(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="704.5j", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    assert "n'existe pas dans l'édition fr-pre2009" in plain(app.error[0].value)
    follow(app, link_to(app, regle="704.5j", de="fr-2024", vers="fr-pre2009"))
    assert ":orange-badge[Déplacée] **704.5j → 420.5e**" in shown(app)


def test_rule_page_shows_other_editions_with_diff_toggle(app: AppTest) -> None:
    app.query_params.update({"regle": "704.5j", "edition": "fr-2024"})
    app.run()
    text = shown(app)
    assert "Dans les autres éditions" in text
    assert any("numérotée 420.5e" in plain(e.label) for e in app.expander)
    assert "ils sont tous mis dans les cimetières" in text  # the old text, as it is
    toggle = app.toggle(key="diff-fr-2024-704.5j")
    toggle.set_value(True).run()
    no_exception(app)
    assert any(":red-background[~~" in m.value for m in app.markdown)
    follow(app, link_to(app, regle="420.5e", de="fr-pre2009", vers="fr-2024"))
    assert "Comparer deux éditions" in shown(app)
    follow(app, link_to(app, regle="420.5e", edition="fr-pre2009"))
    assert "420.5e" in heading(app)

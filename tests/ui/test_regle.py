"""Règle page: deep links, references, escaping."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from judge.rules import store
from tests.ui.conftest import (
    EVIL_DOC,
    EVIL_TEXT,
    follow,
    heading,
    link_to,
    no_exception,
    open_page,
    shown,
)
from ui import links
from ui.render import plain


def test_deep_link_opens_704_5g(app: AppTest) -> None:
    app.query_params.update({"regle": "704.5g", "edition": "fr-2024"})
    app.run()
    no_exception(app)
    assert "Sous-règle 704.5g" in heading(app)
    text = shown(app)
    assert "a subi des blessures mortelles et est détruite" in text
    # The breadcrumb links up to the section, and the link to copy is the deep link.
    link_to(app, regle="704.5", edition="fr-2024")
    link_to(app, regle="704", edition="fr-2024")
    assert any("regle=704.5g&edition=fr-2024" in c.value for c in app.code)


def test_deep_link_without_edition_picks_newest_and_completes_the_url(app: AppTest) -> None:
    app.query_params["regle"] = "704.5G"
    app.run()
    no_exception(app)
    assert "704.5g" in heading(app)
    assert app.query_params == {"regle": "704.5g", "edition": "fr-2024"}


def test_reference_link_leads_to_its_rule(app: AppTest) -> None:
    app.query_params.update({"regle": "704.5c", "edition": "fr-2024"})
    app.run()
    ref = link_to(app, regle="704.6b", edition="fr-2024")
    assert "Actions basées sur un état" in plain(ref.proto.help)  # title on hover
    follow(app, ref)
    no_exception(app)
    assert "704.6b" in heading(app)
    assert "Troll à deux têtes" in shown(app)
    # ... and 704.6b says who cites it: back to 704.5c.
    back = link_to(app, regle="704.5c", edition="fr-2024")
    follow(app, back)
    assert "704.5c" in heading(app)


def test_missing_reference_shows_its_status(app: AppTest) -> None:
    app.query_params.update({"regle": "301.3", "edition": "fr-2024"})
    app.run()
    ref = link_to(app, regle="205.3g")
    assert "absente du corpus" in plain(ref.proto.label)
    assert "absente du corpus" in plain(ref.proto.help)
    follow(app, ref)
    assert "Règle 205.3g introuvable" in shown(app)


def test_unknown_rule_offers_nearest(app: AppTest) -> None:
    app.query_params.update({"regle": "704.5z", "edition": "fr-2024"})
    app.run()
    no_exception(app)
    assert app.error and "introuvable" in plain(app.error[0].value)
    link_to(app, regle="704.5y")


def _neighbourhood(at: AppTest) -> dict[str, list[str]]:
    """The neighbourhood diagram: each kind of neighbour (its caption) and the rules linked."""
    from urllib.parse import parse_qsl

    box = next(c for c in at.get("flex_container") if getattr(c, "key", None) == "voisinage")
    out: dict[str, list[str]] = {}
    current = ""
    for child in box.children.values():
        if child.type == "caption":
            current = plain(child.value)
        for link in getattr(child, "children", {}).values():
            if link.type == "page_link":
                query = dict(parse_qsl(link.proto.query_string))
                out.setdefault(current, []).append(query["regle"])
    return out


def test_graph_of_the_neighbourhood(app: AppTest) -> None:
    app.query_params.update({"regle": "704.7", "edition": "fr-2024"})
    app.run()
    no_exception(app)
    found = _neighbourhood(app)
    # 704.7 cites 704.5a and 704.5b; its parent is 704; each node is a link to its rule.
    assert {"704.5a", "704.5b"} <= set(found["Cite"]), found
    assert found["Règle parente"] == ["704"], found
    follow(app, link_to(app, regle="704.5a", edition="fr-2024"))
    assert "704.5a" in heading(app)


def test_number_box_opens_another_rule(app: AppTest) -> None:
    app.query_params.update({"regle": "704.5g", "edition": "fr-2024"})
    app.run()
    app.text_input[0].set_value("118.2").run()
    app.selectbox[0].select("fr-2011").run()
    no_exception(app)
    assert "118.2" in heading(app)
    assert app.query_params == {"regle": "118.2", "edition": "fr-2011"}


def test_document_text_is_shown_as_text(app: AppTest, tmp_home: Path) -> None:
    evil = tmp_home.parent / "evil.txt"
    evil.write_text(EVIL_DOC, encoding="utf-8")
    store.ingest(evil, edition_id="fr-2011-evil")
    app.query_params.update({"regle": "100.1", "edition": "fr-2011-evil"})
    app.run()
    no_exception(app)
    bodies = [m for m in app.markdown if "script" in m.value]
    assert bodies, shown(app)
    body = bodies[0]
    assert not body.proto.allow_html
    assert "<script>" not in body.value and "**toujours**" not in body.value
    assert EVIL_TEXT in shown(app)
    app.query_params.update({"regle": "100.1a", "edition": "fr-2011-evil"})
    app.run()
    assert not app.markdown or all(not m.value.startswith("#") for m in app.markdown)
    assert "# Pas un titre" in shown(app)


def test_page_without_rule_lists_sections(app: AppTest) -> None:
    open_page(app, links.REGLE)
    no_exception(app)
    link_to(app, regle="704", edition="fr-2024")


def test_counterpart_absent_from_the_corpus_says_so(app: AppTest) -> None:
    app.query_params.update({"regle": "704.8", "edition": "fr-2024"})
    app.run()
    no_exception(app)
    labels = [plain(e.label) for e in app.expander]
    absent = [label for label in labels if label.startswith("fr-2011")]
    assert absent and "absente du corpus" in absent[0]
    # No link to open a rule the 2011 corpus does not have.
    assert not [b for b in app.get("page_link") if "regle=704.8&edition=fr-2011" in str(b.proto)]


def test_example_label_is_shown_once(app: AppTest) -> None:
    app.query_params.update({"regle": "704.4", "edition": "fr-2024"})
    app.run()
    no_exception(app)
    examples = [plain(m.value) for m in app.markdown if "gray-badge[Exemple]" in m.value]
    assert examples
    for text in examples:
        assert "Exemple] Exemple" not in text and "Exemple :" not in text, text


def test_unknown_edition_in_a_link_says_so(app: AppTest) -> None:
    app.query_params.update({"regle": "704.5g", "edition": "xx"})
    app.run()
    no_exception(app)
    warnings = [plain(w.value) for w in app.warning]
    assert any(
        "Édition « xx » inconnue" in w and "affichée dans l'édition fr-2024" in w for w in warnings
    ), warnings
    assert "Sous-règle 704.5g" in heading(app)


def _folded(at: AppTest) -> bool:
    """Whether the number and edition pickers are in the fold above the rule."""
    return any(t.label == "Numéro de règle" for e in at.expander for t in e.text_input)


def test_pickers_fold_under_a_rule_and_stay_open_otherwise(app: AppTest) -> None:
    # A rule shown: on a phone its text comes first, the pickers fold away.
    open_page(app, links.REGLE, regle="704.5g", edition="fr-2024")
    assert _folded(app)
    # Nothing to show (not found, or none asked for): the pickers stay open.
    open_page(app, links.REGLE, regle="704.5z", edition="fr-2024")
    no_exception(app)
    assert "introuvable" in plain(app.error[0].value)
    assert not _folded(app) and app.text_input[0].label == "Numéro de règle"
    open_page(app, links.REGLE)
    assert not _folded(app) and app.text_input[0].label == "Numéro de règle"

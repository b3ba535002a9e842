"""Bac à sable page: gallery boards, tables, choices, both rulesets, uploads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui.conftest import follow, link_to, no_exception, open_page, shown
from ui import links
from ui.render import plain


def _button(at: AppTest, label: str) -> object:
    found = [b for b in at.button if b.label == label]
    assert found, [b.label for b in at.button]
    return found[0]


def _run(at: AppTest) -> AppTest:
    _button(at, "Lancer").click().run()  # type: ignore[attr-defined]
    no_exception(at)
    return at


def _final(at: AppTest) -> str:
    """The final board's cards (no table: a phone reads them without swiping)."""
    box = next(c for c in at.get("flex_container") if str(c.key).startswith("bac-plateau-final-"))
    return "\n".join(plain(m.value) for m in box.markdown)


def _gallery(at: AppTest, name: str) -> AppTest:
    open_page(at, links.BAC_A_SABLE, plateau=name)
    no_exception(at)
    return at


def test_704_8_gallery_board_runs(app: AppTest) -> None:
    _gallery(app, "704-8-louveteau")
    assert "Louveteau" in shown(app)  # the description of the board
    _run(app)
    text = shown(app)
    assert "Passe 1" in text
    # 704.5f: the first Louveteau (toughness -1) is put into the graveyard, its rule linked
    # and quoted; 704.5g destroys the second one.
    link_to(app, regle="704.5f", edition="fr-2024")
    link_to(app, regle="704.5g", edition="fr-2024")
    # Two objects named alike are numbered, not shown by their ids (« louveteau-2 »).
    assert "mis au cimetière" in text and "Louveteau n° 1" in text
    assert "(louveteau" not in text
    assert "« 704.5f Si une créature a une endurance inférieure ou égale à 0" in text
    # The persist/undying outcome: no undying for the one with a +1/+1 counter (704.8, last
    # known information), undying for the other.
    assert "ne se déclenche pas" in text
    assert "immortalité (undying) ne se déclenche pas : 1 marqueur +1/+1" in text
    assert "Capacités déclenchées mises sur la pile" in text
    assert "undying" in text and "Louveteau n° 2" in text
    assert "Aucun joueur ne perd la partie." in text
    # The final board: both in the graveyard, the trigger on the stack.
    final = _final(app)
    assert ":gray-badge[cimetière] **Louveteau n° 2**" in final, final
    # ... the ids are in the referees' details
    details = next(e for e in app.expander if e.label == "Détails pour les arbitres")
    assert "Louveteau n° 2 : louveteau-2" in [plain(m.value) for m in details.markdown]


def test_both_rulesets_side_by_side(app: AppTest) -> None:
    _gallery(app, "704-8-louveteau")
    app.toggle[0].set_value(True)
    _run(app)
    text = shown(app)
    assert "Règles complètes 2024 (704)" in text
    assert "Anciennes règles, avant 2009 (420)" in text
    link_to(app, regle="704.5f", edition="fr-2024")
    link_to(app, regle="420.5b", edition="fr-pre2009")
    assert "« 420.5b Une créature avec une endurance de 0 ou moins" in text


def test_choice_awaited_then_made(app: AppTest) -> None:
    _gallery(app, "regle-des-legendes-choix-attendu")
    _run(app)
    text = shown(app)
    assert "Choix attendus" in text
    assert "Alice doit choisir le permanent légendaire « Jace » à garder" in text
    assert "Actions qui seront effectuées en même temps" in text
    choice = next(s for s in app.selectbox if s.label == "Choix")
    choice.set_value("jace-2")
    _button(app, "Faire ce choix et relancer").click().run()  # type: ignore[attr-defined]
    no_exception(app)
    text = shown(app)
    assert "Choix attendus" not in text
    assert "garde Jace (jace-2)" in text or "garde jace-2" in text, text
    link_to(app, regle="704.5j", edition="fr-2024")
    # The choice is now part of the board: in the JSON of the choices made.
    area = next(t for t in app.text_area if "choices" in t.value)
    assert json.loads(area.value)["choices"] == [{"rule": "704.5j", "keep": "jace-2"}]


def test_rule_link_from_an_action_opens_the_rule(app: AppTest) -> None:
    _gallery(app, "704-8-louveteau")
    _run(app)
    follow(app, link_to(app, regle="704.8", edition="fr-2024"))
    assert "704.8" in plain(app.header[0].value)


def test_table_edit_changes_the_outcome(app: AppTest) -> None:
    _gallery(app, "704-8-louveteau")
    # The second Louveteau has no damage any more: only the first one dies.
    _edit(app, "permanents", {1: {"damage": 0}})
    _run(app)
    text = shown(app)
    assert "704.5g" not in [lk.proto.query_string.split("&")[0][6:] for lk in app.page_link]
    assert "Louveteau n° 2" not in text.split("Plateau final")[0]


def _edit(at: AppTest, table: str, edited_rows: dict[int, dict[str, object]]) -> AppTest:
    """What a person typing in the cells of a table does (AppTest sets the edit state)."""
    editor = next(e for e in at.data_editor if str(e.key).startswith(f"bac-{table}-"))
    at.session_state[editor.key] = {
        "edited_rows": edited_rows,
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    no_exception(at)
    return at


def test_bad_board_upload_shows_french_error(app: AppTest) -> None:
    _gallery(app, "704-8-louveteau")
    uploader = app.file_uploader[0]
    uploader.set_value(("plateau.json", b'{"players": []}', "application/json")).run()
    no_exception(app)
    assert app.error
    assert "au moins un joueur" in plain(app.error[0].value)
    # The board being edited did not change.
    assert "Louveteau" in shown(app)


def test_good_board_upload_replaces_the_board(app: AppTest) -> None:
    _gallery(app, "704-8-louveteau")
    board = {
        "players": [{"name": "Chloé", "life": 0}, {"name": "Denis", "life": 3}],
        "permanents": [],
    }
    uploader = app.file_uploader[0]
    uploader.set_value(("mon-plateau.json", json.dumps(board).encode(), "application/json"))
    app.run()
    no_exception(app)
    _run(app)
    text = shown(app)
    assert "Ont perdu la partie : Chloé." in text
    link_to(app, regle="704.5a", edition="fr-2024")


def test_bad_cell_is_reported_with_its_place(app: AppTest) -> None:
    _gallery(app, "704-8-louveteau")
    _edit(app, "permanents", {0: {"counters": "beaucoup"}})
    message = plain(app.error[0].value)
    assert "Permanents, ligne 1, colonne « Marqueurs »" in message
    assert _button(app, "Lancer").disabled  # type: ignore[attr-defined]


def test_sector_choice_skips_creatures_already_given_a_sector() -> None:
    from judge import decode_board_text, load_board, resolve_board
    from ui.views.bac_a_sable import _choice_entries

    text = (
        "player Alice\nplayer Bob\n"
        'perm sculptor controller=Alice artifact keywords="space sculptor"\n'
        "perm a controller=Alice creature 1/1\n"
        "perm b controller=Alice creature 1/1\n"
        "choice 704.5u creature=a sector=alpha\n"
    )
    res = resolve_board(load_board(decode_board_text(text))).resolution
    (needed,) = [c for c in res.choices_needed if c.rule == "704.5u"]
    entries = _choice_entries(needed, "beta", res.final)
    assert [e["creature"] for e in entries] == ["b"]


def test_final_board_reads_in_french(app: AppTest) -> None:
    board = {
        "players": [{"name": "Alice"}, {"name": "Bob"}],
        "permanents": [
            {
                "id": "jace",
                "name": "Jace",
                "controller": "Alice",
                "types": ["planeswalker"],
                "supertypes": ["legendary"],
                "counters": {"loyalty": 3},
            },
            {"id": "mur", "name": "Mur", "owner": "Bob", "types": ["artifact"]},
        ],
    }
    open_page(app, links.BAC_A_SABLE)
    app.file_uploader[0].set_value(("pw.json", json.dumps(board).encode(), "application/json"))
    app.run()
    _run(app)
    cells = _final(app)
    assert "None" not in cells and "nan" not in cells, cells
    assert "marqueurs : loyauté : 3" in cells
    assert "loyalty" not in cells
    # Cards, not tables to swipe on a phone: the only tables left are the board's editors.
    assert all(str(d.key).startswith("bac-") for d in app.dataframe)
    # The editable table shows card types and supertypes in French.
    editor = next(e for e in app.data_editor if str(e.key).startswith("bac-permanents-"))
    config = json.loads(editor.proto.columns)
    options = {o["value"]: o["label"] for o in config["types"]["type_config"]["options"]}
    assert options["planeswalker"] == "planeswalker" and options["sorcery"] == "rituel"
    assert options["creature"] == "créature" and options["land"] == "terrain"
    supers = {o["value"]: o["label"] for o in config["supertypes"]["type_config"]["options"]}
    assert supers["legendary"] == "légendaire"


@pytest.fixture
def en_app(app: AppTest, en_home: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The app on a store with both English editions (en-2011-09-30 holds 704, en-2008-07-15
    still 420)."""
    monkeypatch.setenv("JUDGE_HOME", str(en_home))
    return app


def _ruleset_box(at: AppTest) -> object:
    return next(s for s in at.selectbox if s.label == "Jeu de règles")


def test_edition_rulesets_are_offered_in_french(en_app: AppTest) -> None:
    _gallery(en_app, "704-8-louveteau")
    box = _ruleset_box(en_app)
    labels = [box.format_func(o) for o in box.options]  # type: ignore[attr-defined]
    assert labels == [
        "Règles complètes 2024 (704)",
        "Anciennes règles, avant 2009 (420)",
        "Règles anglaises du 2011-09-30",
        "Règles anglaises du 2008-07-15",
    ], labels


def test_edition_ruleset_from_the_url_quotes_that_edition(en_app: AppTest) -> None:
    open_page(en_app, links.BAC_A_SABLE, plateau="704-8-louveteau", regles="en-2011-09-30")
    no_exception(en_app)
    assert _ruleset_box(en_app).value == "en-2011-09-30"  # type: ignore[attr-defined]
    text = shown(en_app)
    assert "Règles anglaises du 2011-09-30" in [plain(h.value) for h in en_app.subheader]
    link_to(en_app, regle="704.5f", edition="en-2011-09-30")
    assert "« 704.5f If a creature has toughness 0 or less" in text
    assert "704.5f Si une créature" not in text
    assert "Aucun joueur ne perd la partie." in text
    # Side by side: that edition's ruleset beside the old numbering's.
    en_app.toggle[0].set_value(True).run()
    no_exception(en_app)
    assert [plain(h.value) for h in en_app.subheader] == [
        "Règles anglaises du 2011-09-30",
        "Anciennes règles, avant 2009 (420)",
    ]
    link_to(en_app, regle="420.5b", edition="fr-pre2009")


def test_edition_ruleset_chosen_goes_into_the_url_and_the_verdict(en_app: AppTest) -> None:
    _gallery(en_app, "704-8-louveteau")
    _ruleset_box(en_app).set_value("en-2008-07-15").run()  # type: ignore[attr-defined]
    no_exception(en_app)
    assert en_app.query_params["regles"] == "en-2008-07-15"
    assert en_app.query_params["plateau"] == "704-8-louveteau"
    # The board the tables describe (the one downloaded) names that edition too.
    assert en_app.session_state["bac-tables"]["ruleset"] == "en-2008-07-15"
    text = shown(en_app)
    # The old numbering of that edition: 420.5b, quoted in English.
    link_to(en_app, regle="420.5b", edition="en-2008-07-15")
    assert "« 420.5b A creature with toughness 0 or less" in text
    # ... and back to the board's own ruleset: out of the address, quoted from fr-2024.
    _ruleset_box(en_app).set_value("fr-2024").run()  # type: ignore[attr-defined]
    no_exception(en_app)
    assert "regles" not in en_app.query_params
    link_to(en_app, regle="704.5f", edition="fr-2024")


def test_unknown_ruleset_in_the_url_is_refused_with_a_notice(app: AppTest) -> None:
    open_page(app, links.BAC_A_SABLE, plateau="704-8-louveteau", regles="en-2099-01-01")
    no_exception(app)
    assert "Jeu de règles « en-2099-01-01 » inconnu" in shown(app)
    link_to(app, regle="704.5f", edition="fr-2024")


def test_edits_survive_a_change_of_columns(app: AppTest) -> None:
    _gallery(app, "704-8-louveteau")
    _edit(app, "permanents", {1: {"damage": 0}})
    # Another group of the permanents' columns: a new editor, from the board as edited.
    pills = next(p for p in app.button_group if p.key == "bac-colonnes-permanents")
    pills.set_value("Blessures").run()
    no_exception(app)
    editor = next(e for e in app.data_editor if str(e.key).startswith("bac-permanents-"))
    assert list(editor.value["damage"]) == [0, 0], editor.value
    _run(app)
    assert "Louveteau n° 2" not in shown(app).split("Plateau final")[0]

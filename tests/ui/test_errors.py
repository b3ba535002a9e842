"""No traceback reaches the page: an unexpected exception becomes a French message (ui/app.py),
and the sandbox's text boxes answer anything with a French message."""

from __future__ import annotations

import tomllib

import pytest
from streamlit.testing.v1 import AppTest

from judge import Judge
from tests.ui.conftest import ROOT, no_exception, open_page, rendered, shown
from ui import links
from ui.render import plain
from ui.views import board_tables as bt

UNEXPECTED = "Une erreur inattendue est survenue"


def _boom(*args: object, **kwargs: object) -> object:
    raise ValueError("/secret/path boom")


@pytest.mark.parametrize(
    ("method", "page", "params"),
    [
        ("search", links.RECHERCHE, {"q": "contact mortel"}),
        ("quality_of", links.CORPUS, {}),
        # The Règle page reads the rule (its text first), then its view (the concordance).
        ("lookup", links.REGLE, {"regle": "704.5g", "edition": "fr-2024"}),
        ("view", links.REGLE, {"regle": "704.5g", "edition": "fr-2024"}),
    ],
)
def test_unexpected_exception_is_a_french_message(
    app: AppTest,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    page: links.PageSpec,
    params: dict[str, str],
) -> None:
    app.run()
    monkeypatch.setattr(Judge, method, _boom)
    open_page(app, page, **params)
    no_exception(app)
    errors = [plain(e.value) for e in app.error]
    assert any(UNEXPECTED in e and "référence" in e for e in errors), shown(app)
    everything = rendered(app)
    assert "/secret" not in everything and "boom" not in everything
    assert "ValueError" not in everything and "Traceback" not in everything


def test_control_flow_still_passes_through(app: AppTest) -> None:
    """st.switch_page (a deep link from the root) and st.rerun are not caught as errors."""
    open_page(app, links.RECHERCHE, regle="704.5g", edition="fr-2024")
    no_exception(app)
    assert not app.error
    assert "704.5g" in shown(app)


def test_streamlit_shows_no_error_details() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showErrorDetails"] == "none"


def _bac(at: AppTest) -> AppTest:
    open_page(at, links.BAC_A_SABLE)
    no_exception(at)
    return at


def _json_box(at: AppTest, text: str) -> AppTest:
    box = next(t for t in at.text_area if t.label == "teams, stack, choices")
    return box.input(text).run()


def _paste(at: AppTest, text: str) -> AppTest:
    box = next(t for t in at.text_area if t.label.startswith("Plateau en JSON"))
    box.input(text)
    return next(b for b in at.button if b.label == "Charger ce plateau").click().run()


def _errors(at: AppTest) -> str:
    return "\n".join(plain(str(e.value)) for e in at.error)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" * 5000, "plateau trop imbriqué"),
        ('{"stack": ' + "[" * 5000, "plateau trop imbriqué"),
        ('{"teams": }', "valeur attendue"),
        ("{'teams': []}", "nom de champ entre guillemets attendu"),
        ("pile", "un objet JSON est attendu"),
        ('{"a": ' + "1" * 5000 + "}", "champ(s) inconnu(s) a"),
    ],
)
def test_json_box_answers_in_french(app: AppTest, text: str, expected: str) -> None:
    _json_box(_bac(app), text)
    no_exception(app)
    errors = _errors(app)
    assert expected in errors, shown(app)
    assert "Expecting" not in errors and "RecursionError" not in errors


def test_paste_box_loads_the_compact_form(app: AppTest) -> None:
    _paste(_bac(app), "ruleset fr-2024\nplayer Alice life=0\nplayer Bob\n")
    no_exception(app)
    assert not app.error, _errors(app)
    next(b for b in app.button if b.label == "Lancer").click().run()
    no_exception(app)
    assert "Ont perdu la partie : Alice." in shown(app)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" * 5000, "plateau trop imbriqué"),
        ('{"players": }', "valeur attendue"),
        ('player "Alice', "guillemets non fermés"),
        ("", "Collez d'abord un plateau"),
    ],
)
def test_paste_box_answers_in_french(app: AppTest, text: str, expected: str) -> None:
    _paste(_bac(app), text)
    no_exception(app)
    assert expected in _errors(app), shown(app)


@pytest.mark.parametrize("cell", ["[" * 5000, "{'a': 1}", "{" + '"a": ' * 3000])
def test_table_cell_json_answers_in_french(cell: str) -> None:
    """The "Autres champs" cell of a table is JSON too: a TableError, never another one."""
    frame = bt.frame([{"name": "Alice", "life": 20}], bt.PLAYER_COLUMNS)
    frame.loc[0, bt.EXTRA] = cell
    with pytest.raises(bt.TableError) as raised:
        bt.rows(frame, bt.PLAYER_COLUMNS, "players")
    assert "Autres champs" in raised.value.message or "ligne 1" in raised.value.message
    assert "Expecting" not in raised.value.message


def test_no_streamlit_english_placeholder(app: AppTest) -> None:
    # Every selectbox and multiselect has a French placeholder (not « Choose an option »),
    # and the editions filter offers no untranslatable « Select all ».
    for page, params in [
        (links.RECHERCHE, {}),
        (links.REGLE, {"regle": "704.5g"}),
        (links.COMPARER, {"regle": "420.5e", "de": "fr-pre2009", "vers": "fr-2024"}),
        (links.BAC_A_SABLE, {"plateau": "704-8-louveteau"}),
        (links.CORPUS, {}),
    ]:
        open_page(app, page, **params)
        no_exception(app)
        for box in [*app.selectbox, *app.multiselect]:
            assert box.proto.placeholder and "Choose" not in box.proto.placeholder, (
                page.title,
                box.label,
            )
        for box in app.multiselect:
            assert not box.proto.select_all, box.label

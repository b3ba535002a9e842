"""Every view's state lives in its URL: the Recherche page writes its query and its filters
there as they change, and reads them back, so Back, Forward, a reload and a shared link give
the same screen (tests/ui/test_browser_history.py drives the same in a real browser)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.ui.conftest import follow, heading, link_to, no_exception, open_page, shown
from ui import links


def _results(at: AppTest) -> list[str]:
    from urllib.parse import parse_qsl

    return [
        dict(parse_qsl(lk.proto.query_string))["regle"]
        for lk in at.page_link
        if lk.proto.page == links.REGLE.url_path
    ]


def test_the_query_and_its_filters_go_to_the_url(app: AppTest) -> None:
    open_page(app, links.RECHERCHE)
    app.text_input(key="recherche-q").set_value("contact mortel").run()
    assert app.query_params == {"q": "contact mortel"}
    app.multiselect(key="recherche-editions").set_value(["fr-2024"]).run()
    no_exception(app)
    assert app.query_params == {"q": "contact mortel", "editions": "fr-2024"}
    app.text_input(key="recherche-q").set_value("poison").run()
    assert app.query_params == {"q": "poison", "editions": "fr-2024"}
    app.text_input(key="recherche-q").set_value("").run()
    assert not app.query_params


def test_a_shared_link_gives_the_same_screen(app: AppTest) -> None:
    open_page(app, links.RECHERCHE, q="contact mortel", editions="fr-2024")
    no_exception(app)
    assert app.text_input(key="recherche-q").value == "contact mortel"
    assert app.multiselect(key="recherche-editions").value == ["fr-2024"]
    assert "704.5h" in _results(app)


def test_back_from_a_rule_gives_the_search_again(app: AppTest) -> None:
    open_page(app, links.RECHERCHE)
    app.text_input(key="recherche-q").set_value("contact mortel").run()
    app.multiselect(key="recherche-editions").set_value(["fr-2024"]).run()
    found = _results(app)
    follow(app, link_to(app, regle="704.5h", edition="fr-2024"))
    assert "704.5h" in heading(app)
    # Back: the browser gives the page the URL it had; Streamlit dropped the widgets' state.
    open_page(app, links.RECHERCHE, q="contact mortel", editions="fr-2024")
    no_exception(app)
    assert app.text_input(key="recherche-q").value == "contact mortel"
    assert app.multiselect(key="recherche-editions").value == ["fr-2024"]
    assert _results(app) == found
    assert "1 règle trouvée" in shown(app)


def test_every_view_writes_its_state_to_the_url(app: AppTest) -> None:
    # Règle: the number typed.
    open_page(app, links.REGLE, regle="704.5g", edition="fr-2024")
    app.text_input[0].set_value("704.5c").run()
    assert app.query_params == {"regle": "704.5c", "edition": "fr-2024"}
    # Comparer: the editions chosen.
    open_page(app, links.COMPARER, regle="420.5", de="fr-pre2009", vers="fr-2024")
    app.selectbox[1].select("fr-2011").run()
    no_exception(app)
    assert app.query_params == {"regle": "420.5", "de": "fr-pre2009", "vers": "fr-2011"}
    # Nouveautés: the section typed.
    open_page(app, links.NOUVEAUTES, de="fr-pre2009", vers="fr-2024")
    app.text_input[0].set_value("704").run()
    assert app.query_params == {"de": "fr-pre2009", "vers": "fr-2024", "section": "704"}
    # Bac à sable: the board chosen in the gallery, run at once.
    open_page(app, links.BAC_A_SABLE)
    app.selectbox(key="bac-galerie").select("704-8-louveteau").run()
    no_exception(app)
    assert app.query_params == {"plateau": "704-8-louveteau"}
    assert "Aucun joueur ne perd la partie." in shown(app)

"""Corpus page: several documents at once, each its own edition named by its date."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.ui.conftest import EVIL_DOC, no_exception, open_page, shown, unlock
from ui import links
from ui.render import plain

DOC_2012 = EVIL_DOC.replace("30 septembre 2011", "1er octobre 2012")


def _editions(at: AppTest) -> list[str]:
    return list(at.dataframe[0].value["Identifiant"])


def test_several_documents_at_once(app: AppTest, tmp_home: Path, admin_token: str) -> None:
    open_page(app, links.CORPUS)
    unlock(app, admin_token)
    app.file_uploader[0].set_value(
        [
            ("a.txt", EVIL_DOC.encode(), "text/plain"),
            ("b.txt", DOC_2012.encode(), "text/plain"),
            ("vide.txt", b"  \n", "text/plain"),
        ]
    )
    next(b for b in app.button if b.label == "Importer").click().run()
    no_exception(app)
    success = plain(app.success[0].value)
    assert success.startswith("2 édition(s) importée(s) sur 3 document(s)"), shown(app)
    assert "« vide.txt » est vide" in plain(app.error[0].value)
    new = [e for e in _editions(app) if e not in ("fr-2024", "fr-2011", "fr-pre2009")]
    assert len(new) == 2, new
    assert sorted((tmp_home / "editions").iterdir()) != []


def test_a_remove_button_per_imported_edition(
    app: AppTest, tmp_home: Path, admin_token: str
) -> None:
    test_several_documents_at_once(app, tmp_home, admin_token)
    new = [e for e in _editions(app) if e not in ("fr-2024", "fr-2011", "fr-pre2009")]
    buttons = [b for b in app.button if str(b.label).startswith("Retirer ")]
    assert [b.label for b in buttons] == [f"Retirer {e}" for e in new]
    gone = new[-1]
    box = next(c for c in app.checkbox if c.label == f"Je confirme : retirer {gone} du corpus")
    box.check()
    buttons[-1].click().run()
    no_exception(app)
    assert f"Édition {gone} retirée." in plain(app.success[0].value)
    assert gone not in _editions(app)
    assert new[0] in _editions(app)

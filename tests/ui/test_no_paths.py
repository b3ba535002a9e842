"""No server path reaches the page: every page, with an imported edition and with errors
provoked, and everything it sends (every element's label, value, help and table), names no
folder of the server (JUDGE_HOME, the temporary folder, the project)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from judge import open_judge
from judge.rules import store
from tests.ui.conftest import EVIL_DOC, ROOT, no_exception, open_page, rendered, shown, unlock
from ui import links
from ui.render import plain, redact

EDITION = "fr-2011-chemins"


def _forbidden(home: Path) -> list[str]:
    return [str(home), str(home.resolve()), "/tmp", "/work", str(ROOT)]


def _check(at: AppTest, home: Path, where: str) -> None:
    no_exception(at)
    everything = rendered(at)
    assert everything.strip(), where
    for path in _forbidden(home):
        assert path not in everything, (where, path, _around(everything, path))


def _around(text: str, needle: str) -> str:
    i = text.find(needle)
    return text[max(0, i - 200) : i + 200]


@pytest.fixture
def stocked(tmp_home: Path) -> Path:
    """An imported edition, and a damaged one (whose warning names its folder)."""
    doc = tmp_home.parent / "regles.txt"
    doc.write_text(EVIL_DOC, encoding="utf-8")
    with open_judge(tmp_home) as judge:
        judge.ingest(doc, EDITION)
    broken = store.editions_dir(tmp_home) / "fr-casse"
    broken.mkdir(parents=True)
    (broken / "edition.json").write_text("{pas du json", encoding="utf-8")
    return tmp_home


def test_no_page_shows_a_server_path(app: AppTest, stocked: Path, admin_token: str) -> None:
    home = stocked
    open_page(app, links.CORPUS)
    assert EDITION in list(app.dataframe[0].value["Identifiant"])
    assert any("fr-casse" in plain(w.value) for w in app.warning)  # named, not its folder
    _check(app, home, "corpus")
    unlock(app, admin_token)
    _check(app, home, "corpus déverrouillé")
    # Import the same edition again without "Remplacer": the library names the folder.
    app.file_uploader[0].set_value(("regles.txt", EVIL_DOC.encode(), "text/plain"))
    next(t for t in app.text_input if "Identifiant" in t.label).set_value(EDITION)
    next(b for b in app.button if b.label == "Importer").click().run()
    error = plain(app.error[0].value)
    assert "existe déjà" in error and "cochez « Remplacer" in error, error
    assert "--replace" not in error
    _check(app, home, "import refusé")

    for page, params in [
        (links.RECHERCHE, {}),
        (links.RECHERCHE, {"q": "règles toujours", "editions": EDITION}),
        (links.REGLE, {}),
        (links.REGLE, {"regle": "100.1", "edition": EDITION}),
        (links.REGLE, {"regle": "999.9z", "edition": EDITION}),
        (links.REGLE, {"regle": "100.1", "edition": "fr-inconnue"}),
        (links.COMPARER, {"regle": "100.1", "de": EDITION, "vers": "fr-2024"}),
        (links.COMPARER, {"regle": "999.9", "de": EDITION, "vers": "fr-2024"}),
        (links.BAC_A_SABLE, {}),
        (links.BAC_A_SABLE, {"plateau": "704-8-louveteau"}),
        (links.BAC_A_SABLE, {"plateau": "introuvable"}),
    ]:
        open_page(app, page, **params)
        _check(app, home, f"{page.url_path or 'recherche'} {params}")

    # The sandbox: a board refused, then one run.
    open_page(app, links.BAC_A_SABLE)
    bad = json.dumps({"players": [{"name": "Alice"}], "permanents": [{"id": 3}]})
    app.file_uploader[0].set_value(("/tmp/plateau.json", bad.encode(), "application/json"))
    app.run()
    assert app.error, shown(app)
    _check(app, home, "plateau refusé")
    open_page(app, links.BAC_A_SABLE, plateau="704-8-louveteau")
    next(b for b in app.button if b.label == "Lancer").click().run()
    assert "Passe 1" in shown(app)
    _check(app, home, "plateau lancé")


def test_redact_keeps_what_is_not_a_server_path(tmp_home: Path) -> None:
    assert redact("+1/+1 et/ou 2/2, https://magic.wizards.com/fr/rules") == (
        "+1/+1 et/ou 2/2, https://magic.wizards.com/fr/rules"
    )
    assert redact(f"{tmp_home}/editions/fr-x/edition.json : illisible") == (
        "editions/fr-x/edition.json : illisible"
    )
    assert redact(f"L'édition X existe déjà ({tmp_home}/editions/X) : ajoutez") == (
        "L'édition X existe déjà (editions/X) : ajoutez"
    )
    assert redact("/tmp/judge-upload-abc/regles.txt est vide") == "regles.txt est vide"
    assert redact("/var/lib/x/doc.txt : illisible") == "doc.txt : illisible"
    assert redact(f"Éditions : {tmp_home}") == "Éditions : (dossier du serveur)"
    assert redact("dans /tmp") == "dans (dossier du serveur)"

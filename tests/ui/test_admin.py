"""The app is read-only unless an admin secret is configured and typed (ui.admin)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from judge import open_judge
from judge.rules import store
from tests.ui.conftest import EVIL_DOC, TOKEN, no_exception, open_page, shown, unlock
from ui import links
from ui.render import plain


def _stored(home: Path) -> list[str]:
    root = store.editions_dir(home)
    return (
        sorted(p.name for p in root.iterdir() if not p.name.startswith("."))
        if root.exists()
        else []
    )


def _labels(at: AppTest) -> list[str]:
    return [str(b.label) for b in at.button]


def _import(at: AppTest, edition: str) -> AppTest:
    at.file_uploader[0].set_value(("regles.txt", EVIL_DOC.encode(), "text/plain"))
    next(t for t in at.text_input if "Identifiant" in t.label).set_value(edition)
    return next(b for b in at.button if b.label == "Importer").click().run()


def test_without_a_secret_the_corpus_is_read_only(app: AppTest, tmp_home: Path) -> None:
    with open_judge(tmp_home) as judge:  # something the page could offer to remove
        judge.ingest(_doc(tmp_home), "fr-2011-deja")
    open_page(app, links.CORPUS)
    no_exception(app)
    assert not app.file_uploader
    assert "Importer" not in _labels(app) and "Retirer" not in _labels(app)
    assert not [t for t in app.text_input if t.label == "Jeton d'administration"]
    text = shown(app)
    assert "Application en lecture seule" in text
    assert "JUDGE_ADMIN_TOKEN" in text and "judge_admin_token" in text
    assert "fr-2011-deja" in list(app.dataframe[0].value["Identifiant"])  # still listed


def test_right_token_unlocks_import_and_remove(
    app: AppTest, tmp_home: Path, admin_token: str
) -> None:
    open_page(app, links.CORPUS)
    assert not app.file_uploader  # locked until the token is typed
    unlock(app, admin_token)
    no_exception(app)
    assert not app.error, shown(app)
    assert app.file_uploader
    _import(app, "fr-2011-admin")
    no_exception(app)
    assert "Édition fr-2011-admin importée" in plain(app.success[0].value)
    assert _stored(tmp_home) == ["fr-2011-admin"]
    # The unlocked state is the session's, never the address's.
    assert TOKEN not in str(dict(app.query_params))
    # Locking again hides the controls.
    next(b for b in app.button if "Verrouiller" in str(b.label)).click().run()
    assert not app.file_uploader


def test_wrong_token_is_refused_and_nothing_is_imported(
    app: AppTest, tmp_home: Path, admin_token: str
) -> None:
    open_page(app, links.CORPUS)
    unlock(app, admin_token + "x")
    no_exception(app)
    assert "Jeton d'administration incorrect" in plain(app.error[0].value)
    assert not app.file_uploader
    assert "Importer" not in _labels(app)
    assert _stored(tmp_home) == []
    unlock(app, "")
    assert "Jeton d'administration incorrect" in plain(app.error[0].value)
    assert not app.file_uploader


def test_secret_from_streamlit_secrets(app: AppTest, tmp_home: Path) -> None:
    app.secrets["judge_admin_token"] = "depuis-secrets"
    open_page(app, links.CORPUS)
    assert "Application en lecture seule" not in shown(app)
    unlock(app, "depuis-secrets")
    no_exception(app)
    assert app.file_uploader


def test_a_changed_secret_locks_the_session_again(
    app: AppTest, tmp_home: Path, admin_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_page(app, links.CORPUS)
    unlock(app, admin_token)
    assert app.file_uploader
    monkeypatch.setenv("JUDGE_ADMIN_TOKEN", "un-autre-jeton")
    app.run()
    assert not app.file_uploader


def _doc(home: Path) -> Path:
    doc = home.parent / "doc.txt"
    doc.write_text(EVIL_DOC, encoding="utf-8")
    return doc

"""Corpus page: editions, quality report, importing a document."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from judge import open_judge
from judge.rules import store
from tests.ui.conftest import EVIL_DOC, link_to, no_exception, open_page, shown, unlock
from ui import links, resources
from ui.render import plain


def _editions(at: AppTest) -> list[str]:
    return list(at.dataframe[0].value["Identifiant"])


def _upload(at: AppTest, name: str, data: bytes, edition: str = "") -> AppTest:
    at.file_uploader[0].set_value((name, data, "text/plain"))
    if edition:
        next(t for t in at.text_input if "Identifiant" in t.label).set_value(edition)
    return next(b for b in at.button if b.label == "Importer").click().run()


def _open_unlocked(at: AppTest, token: str) -> AppTest:
    open_page(at, links.CORPUS)
    return unlock(at, token)


def _store_listing(home: Path) -> list[str]:
    root = store.editions_dir(home)
    # The store's own files (its lock, a journal) start with a dot.
    names = (p.name for p in root.iterdir()) if root.exists() else ()
    return sorted(n for n in names if not n.startswith("."))


def test_lists_editions_and_quality(app: AppTest) -> None:
    open_page(app, links.CORPUS)
    no_exception(app)
    assert _editions(app) == ["fr-2024", "fr-2011", "fr-pre2009"]
    # The same count as `judge editions`: rules and sub-rules with a text.
    counts = list(app.dataframe[0].value["Règles"])
    with open_judge() as judge:
        assert counts == [ed.rules for ed in judge.editions()]
    assert counts[0] == 65
    text = shown(app)
    assert "Rapport de qualité" in text
    assert "11 présentes" in text  # fr-2024's resolved references
    assert [m.value for m in app.metric][:1] == ["65"]  # rules parsed in fr-2024
    link_to(app, regle="301.5e", edition="fr-2024")  # an English paragraph, one click away


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("notes.txt", b"bonjour\nrien ici\n", "aucune règle trouvée"),
        ("image.txt", bytes(range(256)) * 8, "n'est pas un document texte"),
        ("vide.txt", b"   \n", "est vide"),
        ("enorme.txt", b"1" * (store.MAX_BYTES + 1), "trop gros"),
    ],
)
def test_bad_upload_shows_french_error_and_changes_nothing(
    app: AppTest, tmp_home: Path, admin_token: str, name: str, data: bytes, expected: str
) -> None:
    _open_unlocked(app, admin_token)
    before = _editions(app)
    _upload(app, name, data)
    no_exception(app)
    assert app.error, shown(app)
    message = plain(app.error[0].value)
    assert expected in message
    assert "/tmp" not in message  # the temporary copy is never named
    assert _editions(app) == before
    assert _store_listing(tmp_home) == []
    assert not app.success


def test_upload_reserved_id_is_refused(app: AppTest, tmp_home: Path, admin_token: str) -> None:
    _open_unlocked(app, admin_token)
    _upload(app, "regles.txt", EVIL_DOC.encode(), edition="fr-2024")
    assert "livrée avec le corpus" in plain(app.error[0].value)
    assert _store_listing(tmp_home) == []


def test_good_upload_adds_an_edition(app: AppTest, tmp_home: Path, admin_token: str) -> None:
    _open_unlocked(app, admin_token)
    _upload(app, "regles-2011.txt", EVIL_DOC.encode("cp1252", "replace"), edition="fr-2011-test")
    no_exception(app)
    assert not app.error, shown(app)
    assert "Édition fr-2011-test importée" in plain(app.success[0].value)
    assert "fr-2011-test" in _editions(app)
    assert _store_listing(tmp_home) == ["fr-2011-test"]
    # The other pages read the new index at once.
    open_page(app, links.REGLE, regle="100.1", edition="fr-2011-test")
    assert "Ces règles" in shown(app)
    # ... and the edition can be removed again.
    open_page(app, links.CORPUS)
    remove = next(b for b in app.button if "Retirer" in str(b.label))
    app.checkbox[-1].check()
    remove.click().run()
    assert "fr-2011-test" not in _editions(app)
    assert _store_listing(tmp_home) == []


def test_old_judge_is_served_while_the_new_one_is_built(
    tmp_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = resources.judge()
    assert [e.id for e in old.editions()] == ["fr-2024", "fr-2011", "fr-pre2009"]
    doc = tmp_home.parent / "doc.txt"
    doc.write_text(EVIL_DOC, encoding="utf-8")
    old.ingest(doc, "fr-2011-lent")

    release = threading.Event()
    started = threading.Event()
    real_open = resources.open_judge

    def slow_open(home: Path | None = None) -> object:
        started.set()
        assert release.wait(10)
        return real_open(home)

    monkeypatch.setattr(resources, "open_judge", slow_open)
    builder = threading.Thread(target=resources.rebuild)
    builder.start()
    try:
        assert started.wait(10)
        # A reader during the build gets the previous Judge, without waiting.
        assert resources.judge() is old
    finally:
        release.set()
        builder.join(30)
    new = resources.judge()
    assert new is not old
    assert "fr-2011-lent" in [e.id for e in new.editions()]
    assert "fr-2011-lent" not in [e.id for e in old.editions()]  # never mutated


def test_damaged_imported_edition_is_reported(app: AppTest, tmp_home: Path) -> None:
    folder = store.editions_dir(tmp_home) / "fr-casse"
    folder.mkdir(parents=True)
    (folder / "edition.json").write_text("{pas du json", encoding="utf-8")
    open_page(app, links.CORPUS)
    no_exception(app)
    warnings = [plain(w.value) for w in app.warning]
    assert any("Édition importée ignorée" in w and "fr-casse" in w for w in warnings)
    assert _editions(app) == ["fr-2024", "fr-2011", "fr-pre2009"]

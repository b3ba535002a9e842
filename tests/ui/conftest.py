"""AppTest helpers: every test starts the whole app from ui/app.py, in its own JUDGE_HOME."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from streamlit.testing.v1 import AppTest

from ui import links
from ui.render import plain

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "ui" / "app.py"
EVIL_DOC = """Règles complètes de Magic: The Gathering
Ces règles sont en vigueur à compter du 30 septembre 2011.

1. Concepts du jeu

100. Généralités

100.1. Ces règles <script>alert("xss")</script> s'appliquent **toujours** à \
[un lien](javascript:alert(1)) et $x^2$ :red[rouge] <b>gras</b>.

100.1a # Pas un titre
"""
EVIL_TEXT = (
    'Ces règles <script>alert("xss")</script> s\'appliquent **toujours** à '
    "[un lien](javascript:alert(1)) et $x^2$ :red[rouge] <b>gras</b>."
)


TOKEN = "jeton-de-test-é"


@pytest.fixture(autouse=True)
def read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """No admin secret unless a test sets one (the developer's shell may hold one)."""
    monkeypatch.delenv("JUDGE_ADMIN_TOKEN", raising=False)


@pytest.fixture
def admin_token(monkeypatch: pytest.MonkeyPatch) -> str:
    """An admin secret configured in the environment."""
    monkeypatch.setenv("JUDGE_ADMIN_TOKEN", TOKEN)
    return TOKEN


@pytest.fixture
def app(tmp_home: Path) -> Iterator[AppTest]:
    """The app, not yet run, with a fresh empty JUDGE_HOME."""
    yield AppTest.from_file(str(APP), default_timeout=60)


def open_page(at: AppTest, page: links.PageSpec, **params: str) -> AppTest:
    """What a click on a link to `page` with `params` does."""
    if not at._tree.children:  # switch_page needs one run to know the pages
        at.run()
    at.query_params.clear()
    at.query_params.update(params)
    at.switch_page(page.script)
    return at.run()


def follow(at: AppTest, link: object) -> AppTest:
    """Click an st.page_link found in the app (AppTest cannot click them itself)."""
    proto = link.proto  # type: ignore[attr-defined]
    page = next(p for p in links.PAGES if p.url_path == proto.page)
    return open_page(at, page, **dict(parse_qsl(proto.query_string)))


def link_to(at: AppTest, **params: str) -> object:
    """The first page link whose query string holds all of `params`."""
    for link in at.page_link:
        query = dict(parse_qsl(link.proto.query_string))
        if all(query.get(k) == v for k, v in params.items()):
            return link
    found = [(lk.proto.page, lk.proto.query_string) for lk in at.page_link]
    raise AssertionError(f"aucun lien vers {params} parmi {found}")


def shown(at: AppTest) -> str:
    """Everything a person reads in markdown, headers, captions, alerts, as plain text."""
    parts: list[str] = []
    for kind in (
        "title",
        "header",
        "subheader",
        "markdown",
        "caption",
        "error",
        "warning",
        "info",
        "success",
        "code",
    ):
        parts += [plain(str(getattr(e, "value", ""))) for e in at.get(kind)]
    return "\n".join(parts)


def unlock(at: AppTest, token: str) -> AppTest:
    """Type the admin token on the Corpus page (which must be open)."""
    field = next(t for t in at.text_input if t.label == "Jeton d'administration")
    field.input(token)
    button = next(b for b in at.button if b.label == "Déverrouiller")
    return button.click().run()


def rendered(at: AppTest) -> str:
    """Every element's whole content (labels, values, help, placeholders, tables), as one text
    without Markdown escapes: what the browser receives, to look for what must not be there."""
    parts: list[str] = []

    def walk(node: object) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            parts.append(str(proto))
        value = getattr(node, "value", None) if type(node).__name__ == "Dataframe" else None
        if value is not None:
            parts.append(value.to_csv())
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(parts).replace("\\", "")


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def heading(at: AppTest) -> str:
    return plain(str(at.header[0].value)) if at.header else ""

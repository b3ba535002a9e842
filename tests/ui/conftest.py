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
        parts += [plain(str(e.value)) for e in at.get(kind)]
    return "\n".join(parts)


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def heading(at: AppTest) -> str:
    return plain(str(at.header[0].value)) if at.header else ""

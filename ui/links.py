"""Every link between pages, and every deep link, is built here.

Pages are addressed by their script (relative to ui/app.py) and carry their state in the query
string, so any view can be shared: `?regle=704.5g&edition=fr-2024` opens a rule (on any page,
including the root), `?q=contact+mortel`, `comparer?regle=704&de=fr-2011&vers=fr-2024`,
`bac-a-sable?plateau=704.8-persistance`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit, urlunsplit

import streamlit as st

from ui.render import md


@dataclass(frozen=True)
class PageSpec:
    script: str  # relative to ui/app.py
    url_path: str
    title: str
    icon: str


# The default page lives at the root: its url_path is "".
RECHERCHE = PageSpec("views/recherche.py", "", "Recherche", ":material/search:")
REGLE = PageSpec("views/regle.py", "regle", "Règle", ":material/gavel:")
COMPARER = PageSpec("views/comparer.py", "comparer", "Comparer", ":material/compare_arrows:")
BAC_A_SABLE = PageSpec("views/bac_a_sable.py", "bac-a-sable", "Bac à sable", ":material/casino:")
CORPUS = PageSpec("views/corpus.py", "corpus", "Corpus", ":material/library_books:")
NOUVEAUTES = PageSpec("views/nouveautes.py", "nouveautes", "Nouveautés", ":material/new_releases:")
PAGES = (RECHERCHE, REGLE, COMPARER, NOUVEAUTES, BAC_A_SABLE, CORPUS)

# Query-string keys.
RULE = "regle"
EDITION = "edition"
QUERY = "q"
EDITIONS = "editions"
FROM = "de"
TO = "vers"
BOARD = "plateau"
RULESET = "regles"  # the sandbox's ruleset: a shipped one's name or an edition's id


# Session-state keys: the page of this run and of the run before (ui/app.py sets them).
PAGE_NOW = "page-courante"
PAGE_BEFORE = "page-precedente"


def mark_page(url_path: str) -> None:
    """Record the page this run shows (ui/app.py, once per run)."""
    st.session_state[PAGE_BEFORE] = st.session_state.get(PAGE_NOW)
    st.session_state[PAGE_NOW] = url_path


def keep_address(page: PageSpec, params: dict[str, str]) -> None:
    """Write the view's canonical address (`704.5G` → `704.5g`, the edition added) into the
    URL bar, once. Arrived from another page, the browser's URL is the link's: it is written
    only if it differs (written again, it raced the link's own step in the browser's history,
    and Back stayed on the view). From the same page (a link to another rule of the Règle
    page), Streamlit does not update the URL bar by itself: a new address is written."""
    key = f"adresse-{page.url_path}"
    again = (
        st.session_state.get(PAGE_BEFORE) == page.url_path and st.session_state.get(key) != params
    )
    if again or st.query_params.to_dict() != params:
        st.query_params.from_dict(params)
    st.session_state[key] = params


def rule_params(number: str, edition: str | None = None) -> dict[str, str]:
    params = {RULE: number}
    if edition:
        params[EDITION] = edition
    return params


def search_params(query: str, editions: list[str] | None = None) -> dict[str, str]:
    params = {QUERY: query}
    if editions:
        params[EDITIONS] = ",".join(editions)
    return params


def compare_params(number: str, from_edition: str, to_edition: str) -> dict[str, str]:
    return {RULE: number, FROM: from_edition, TO: to_edition}


def board_params(name: str) -> dict[str, str]:
    return {BOARD: name}


def app_root(current_url: str | None) -> str:
    """The app's root URL (scheme, host and base path) from the URL of the current page."""
    if not current_url:
        return ""
    parts = urlsplit(current_url)
    path = parts.path.rstrip("/")
    for page in PAGES:
        if page.url_path and path.endswith(f"/{page.url_path}"):
            path = path[: -len(page.url_path) - 1]
            break
    return urlunsplit((parts.scheme, parts.netloc, path + "/", "", ""))


def share_url(params: Mapping[str, str], page: PageSpec | None = None) -> str:
    """An absolute link to share; relative (`?regle=…`) when the app's URL is unknown."""
    root = app_root(st.context.url)
    where = page.url_path if page else ""
    return f"{root}{where}?{urlencode(params)}"


def rule_url(number: str, edition: str | None = None) -> str:
    """The deep link to a rule: the app's root with `?regle=…&edition=…`."""
    return share_url(rule_params(number, edition))


def page_link(
    page: PageSpec,
    label: str,
    params: Mapping[str, str] | None = None,
    help: str | None = None,
    icon: str | None = None,
) -> None:
    """A link to `page`; `label` and `help` are shown as text (escaped)."""
    st.page_link(
        page.script,
        label=md(label),
        help=md(help) if help else "",
        icon=icon if icon is not None else "",
        query_params=dict(params) if params else {},
    )


def rule_link(
    number: str,
    edition: str | None,
    label: str | None = None,
    help: str | None = None,
    icon: str | None = None,
) -> None:
    """A link that opens the rule page on `number` in `edition`."""
    page_link(REGLE, label or number, rule_params(number, edition), help=help, icon=icon)

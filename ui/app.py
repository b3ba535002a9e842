"""The judge app: `streamlit run ui/app.py`. Routing only; each page lives in ui/views/."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run ui/app.py` puts ui/ on sys.path, not the project root that holds the `ui`
# package the pages import from.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import streamlit as st  # noqa: E402

from ui import links  # noqa: E402

st.set_page_config(page_title="Juge MTG", page_icon=":material/gavel:", layout="wide")

pages = {
    spec: st.Page(
        spec.script,
        title=spec.title,
        icon=spec.icon,
        url_path=spec.url_path or None,
        default=spec is links.RECHERCHE,
    )
    for spec in links.PAGES
}
current = st.navigation(list(pages.values()), position="sidebar")

# A deep link to a rule works from any page: `/?regle=704.5g&edition=fr-2024`.
if links.RULE in st.query_params and current.url_path not in (
    links.REGLE.url_path,
    links.COMPARER.url_path,
):
    st.switch_page(pages[links.REGLE], query_params=st.query_params.to_dict())
# ... and so does a link to a board of the gallery: `/?plateau=704-8-louveteau`.
if links.BOARD in st.query_params and current.url_path != links.BAC_A_SABLE.url_path:
    st.switch_page(pages[links.BAC_A_SABLE], query_params=st.query_params.to_dict())

current.run()

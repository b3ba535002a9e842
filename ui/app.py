"""The judge app: `streamlit run ui/app.py`. Routing only; each page lives in ui/views/.

A page that fails unexpectedly shows a French message and a reference; the traceback goes to
the server's log only (with `client.showErrorDetails = "none"` in .streamlit/config.toml for
whatever escapes, such as a widget callback)."""

from __future__ import annotations

import logging
import secrets
import sys
from pathlib import Path

# `streamlit run ui/app.py` puts ui/ on sys.path, not the project root that holds the `ui`
# package the pages import from.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import streamlit as st  # noqa: E402
from streamlit import delta_generator, runtime  # noqa: E402

# st.rerun, st.switch_page and st.stop raise these (BaseException: `except Exception` lets them
# through, and they are re-raised explicitly below all the same); a fragment that handled its
# own error raises FragmentHandledException (an Exception) for Streamlit to see.
from streamlit.errors import FragmentHandledException  # noqa: E402
from streamlit.navigation.page import StreamlitPage  # noqa: E402
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException  # noqa: E402

from ui import links  # noqa: E402

log = logging.getLogger("judge.ui")
UNEXPECTED = (
    "Une erreur inattendue est survenue : cette page n'a pas pu s'afficher entièrement. "
    "Le détail a été consigné sur le serveur (référence {ref}). Rechargez la page ou "
    "réessayez ; si l'erreur persiste, transmettez cette référence à l'administrateur."
)

# Streamlit's first element of a process calls inspect.stack() to tell a REPL from a script,
# for a warning it gives only outside `streamlit run`: 0.05 to 0.1 s of CPU on the first page
# a judge waits for, for nothing under the runtime. The check is marked as done.
if runtime.exists() and hasattr(delta_generator, "_use_warning_has_been_displayed"):
    delta_generator._use_warning_has_been_displayed = True
# The favicon is the emoji ⚖️ drawn by the browser from an SVG (Streamlit sends it as a data:
# URL); a `:material/…:` one is fetched from fonts.gstatic.com on every page, which a phone on
# the floor may not reach. Written in ASCII (the emoji as character references): an emoji
# string makes Streamlit load and compile its catalogue of every emoji to check it, 0.05 to
# 0.1 s of the first page.
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
    '<text y=".9em" font-size="90">&#x2696;&#xFE0F;</text></svg>'
)
st.set_page_config(page_title="Juge MTG", page_icon=FAVICON, layout="wide")
# Streamlit's page says <html lang="en"> and has no setting for it: a screen reader, a
# spelling checker or a translation prompt would take the French for English. This one fixed
# script (no user text) sets it once the page is loaded.
st.html(
    '<script>window.parent.document.documentElement.lang = "fr";'
    'document.documentElement.lang = "fr";</script>',
    unsafe_allow_javascript=True,
)

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
links.mark_page(current.url_path)


def run_page(page: StreamlitPage) -> None:
    """Run the page; an unexpected exception becomes a French message, logged server-side."""
    try:
        page.run()
    except (ScriptControlException, FragmentHandledException):
        raise
    except Exception:
        ref = secrets.token_hex(4)
        log.exception("Page « %s » : erreur inattendue (référence %s)", page.title, ref)
        st.error(UNEXPECTED.format(ref=ref), icon=":material/error:")


# A deep link to a rule works from any page: `/?regle=704.5g&edition=fr-2024`.
if links.RULE in st.query_params and current.url_path not in (
    links.REGLE.url_path,
    links.COMPARER.url_path,
):
    st.switch_page(pages[links.REGLE], query_params=st.query_params.to_dict())
# ... and so does a link to a board of the gallery: `/?plateau=704-8-louveteau`.
if links.BOARD in st.query_params and current.url_path != links.BAC_A_SABLE.url_path:
    st.switch_page(pages[links.BAC_A_SABLE], query_params=st.query_params.to_dict())

run_page(current)

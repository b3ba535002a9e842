"""Règle page: the date line and the history timeline under the rule."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.ui.conftest import link_to, no_exception, open_page, shown
from ui import links
from ui.render import plain


def _in_order(at: AppTest) -> list[str]:
    """Every text element of the page, in the order a person reads them."""
    out: list[str] = []

    def walk(node: object) -> None:
        value = getattr(node, "value", None)
        if type(node).__name__ in ("Markdown", "Caption", "Header", "Subheader"):
            out.append(plain(str(value)))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    return out


def test_timeline_follows_the_renumbering(app: AppTest) -> None:
    open_page(app, links.REGLE, regle="704.5j", edition="fr-2024")
    no_exception(app)
    texts = _in_order(app)
    assert "Historique" in texts
    after = texts[texts.index("Historique") :]
    old = next(i for i, t in enumerate(after) if "avant la renumérotation de 2009 — apparaît" in t)
    new = next(i for i, t in enumerate(after) if "renumérotée (cette page)" in t)
    assert old < new
    # Each version links to the rule in its edition; the rule's text comes before the history.
    link_to(app, regle="420.5e", edition="fr-pre2009")
    link_to(app, regle="704.5j", edition="fr-2024")
    text_at = next(i for i, t in enumerate(texts) if "legend rule" in t)
    assert text_at < texts.index("Historique")


def test_the_date_line_says_which_text_is_the_newest(app: AppTest) -> None:
    open_page(app, links.REGLE, regle="704.5j", edition="fr-2024")
    assert (
        "Édition fr-2024 — en vigueur : printemps 2024 (avant « Kindred ») — "
        "texte le plus récent connu en français"
    ) in shown(app)
    open_page(app, links.REGLE, regle="420.5e", edition="fr-pre2009")
    no_exception(app)
    assert (
        "Édition fr-pre2009 — en vigueur : avant la renumérotation de 2009 — une édition plus "
        "récente existe : fr-2024 (printemps 2024 (avant « Kindred »)), règle 704.5j"
    ) in shown(app)

"""Recherche: the snippet of a *reference* hit (a rule that cites the number searched for) is
document text like any other: Markdown, HTML, LaTeX and Streamlit directives in it show as
the characters they are; only the citation itself is in bold."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

import judge
from tests.ui.conftest import no_exception, open_page
from ui import links
from ui.render import md, plain

EDITION = "fr-2011-reference-piege"
TAIL = (
    " : [link](http://example.com) <b>x</b> **gras** et $x^2$ :red[rouge] `code` "
    "<script>alert(1)</script> # titre."
)
DOC = f"""Règles complètes de Magic: The Gathering
Ces règles sont en vigueur à compter du 30 septembre 2011.

1. Concepts du jeu

100. Généralités

100.1. Ces règles s'appliquent à toutes les parties.

100.2. Voir règle 100.1{TAIL}
"""


def _ingest(home: Path) -> None:
    doc = home.parent / "reference-piege.txt"
    doc.write_text(DOC, encoding="utf-8")
    judge.ingest(doc, EDITION, home=home)


def test_the_library_gives_a_reference_hit(tmp_home: Path) -> None:
    _ingest(tmp_home)
    with judge.open_judge(tmp_home) as j:
        hits = j.search("100.1", editions=[EDITION]).result.hits
    refs = [h for h in hits if h.kind == "reference"]
    assert [(h.rule, h.edition) for h in refs] == [("100.2", EDITION)]
    assert "".join(s.text for s in refs[0].segments) == f"Voir règle 100.1{TAIL}"


def test_reference_snippet_is_shown_as_text(app: AppTest, tmp_home: Path) -> None:
    _ingest(tmp_home)
    open_page(app, links.RECHERCHE, q="100.1", editions=EDITION)
    no_exception(app)
    bodies = [m for m in app.markdown if "example" in m.value]
    assert len(bodies) == 1, [m.value for m in app.markdown]
    body = bodies[0]
    assert not body.proto.allow_html
    value = body.value
    # The document's text, escaped as a whole; the citation alone in bold.
    assert md(TAIL) in value
    assert f"**{md('Voir règle 100.1')}**" in value
    for raw in ("[link](", "<b>", "</b>", "**gras**", "$x^2$", ":red[", "`code`", "<script>"):
        assert raw not in value, (raw, value)
    # What a person reads is the document's text, character for character.
    assert f"Voir règle 100.1{TAIL}" in plain(value).replace("**", "", 2)


def test_reference_snippet_in_every_edition_filter(app: AppTest, tmp_home: Path) -> None:
    """Without the filter, the same reference hit among the shipped ones is escaped too."""
    _ingest(tmp_home)
    open_page(app, links.RECHERCHE, q="100.1")
    no_exception(app)
    bodies = [m.value for m in app.markdown if "example" in m.value]
    assert bodies, [m.value for m in app.markdown]
    for value in bodies:
        assert md(TAIL) in value and "<b>" not in value and "[link](" not in value

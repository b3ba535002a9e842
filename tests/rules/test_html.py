"""Saved HTML pages of rules sites: headings, paragraphs, numbered lists, chrome, scripts."""

from __future__ import annotations

import pathlib
import re

import pytest

from judge.rules import numbers
from judge.rules.errors import DocumentError
from judge.rules.layouts.detect import detect_layout
from judge.rules.layouts.html import parse
from judge.rules.model import ParsedDocument, RawRule

DATA = pathlib.Path(__file__).resolve().parent / "data"
PARAGRAPHS = "regles-titres-paragraphes.html"
LISTS = "regles-listes-imbriquees.html"
SCRIPT = "regles-script-markdown.html"


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _doc(name: str) -> ParsedDocument:
    return parse(_text(name), name)


def _by_number(doc: ParsedDocument) -> dict[str, RawRule]:
    return {r.number: r for r in doc.rules}


def _all_text(doc: ParsedDocument) -> list[str]:
    texts = [p.text for r in doc.rules for p in r.paragraphs]
    texts += [r.title for r in doc.rules if r.title]
    texts += [g.term for g in doc.glossary] + [p.text for g in doc.glossary for p in g.paragraphs]
    return texts


@pytest.mark.parametrize("name", [PARAGRAPHS, LISTS, SCRIPT])
def test_detected_as_html(name: str) -> None:
    assert detect_layout(_text(name)) == "html"


@pytest.mark.parametrize("name", [PARAGRAPHS, LISTS, SCRIPT])
def test_plain_text_only(name: str) -> None:
    doc = _doc(name)
    assert doc.layout == "html"
    for text in _all_text(doc):
        assert not re.search(r"</?[a-z][^>]*>", text), text
        assert text == " ".join(text.split()), "whitespace must be collapsed"


# --- headings and paragraphs --------------------------------------------------------------


def test_headings_and_paragraphs_numbers() -> None:
    doc = _doc(PARAGRAPHS)
    assert [r.number for r in doc.rules] == [
        "7",
        "704",
        "704.1",
        "704.2",
        "704.3",
        "704.5",
        *(f"704.5{c}" for c in "abcdefg"),
    ]
    by = _by_number(doc)
    assert by["7"].title == "Règles supplémentaires"
    assert by["704"].title == "Actions basées sur un état"


def test_number_in_span_strong_link_and_anchor() -> None:
    by = _by_number(_doc(PARAGRAPHS))
    # <span class="rule-number">, <strong>, <a href>: the number is not repeated in the text.
    assert by["704.1"].paragraphs[0].text.startswith("Les actions basées sur un état sont des")
    assert by["704.2"].paragraphs[0].text.startswith("Les actions basées sur un état sont vér")
    assert by["704.3"].paragraphs[0].text.startswith("Chaque fois qu'un joueur")
    # <strong>704.5c</strong>Si… (no space in the source)
    assert by["704.5c"].paragraphs[0].text == (
        "Si un joueur a dix marqueurs poison ou plus, il perd la partie."
    )
    # <p id="704.5d">, an empty <a id="704.5e"> before the paragraph, <a id="704.5g"> inside.
    assert by["704.5d"].paragraphs[0].text.startswith("Si un jeton est dans une zone")
    assert by["704.5e"].paragraphs[0].text.startswith("Si la copie d'un sort")
    assert "cette créature a reçu des blessures mortelles" in by["704.5g"].paragraphs[0].text


def test_br_separated_rules_in_one_paragraph() -> None:
    by = _by_number(_doc(PARAGRAPHS))
    assert (
        by["704.5a"].paragraphs[0].text
        == "Si un joueur a 0 point de vie ou moins, il perd la partie."
    )
    assert by["704.5b"].paragraphs[0].text.startswith("Si un joueur a tenté de piocher")
    assert by["704.5b"].source is not None and by["704.5a"].source is not None
    assert by["704.5b"].source.line == by["704.5a"].source.line + 1


def test_continuation_and_example() -> None:
    by = _by_number(_doc(PARAGRAPHS))
    assert [p.text for p in by["704.1"].paragraphs][1] == (
        "Les actions basées sur un état ne font pas partie de la pile."
    )
    example = by["704.3"].paragraphs[1]
    assert example.kind == "example"
    assert example.text.startswith("Exemple : Un joueur contrôle une créature")  # &nbsp; -> space
    assert example.language == "fr"


def test_sources_are_tag_lines() -> None:
    name = PARAGRAPHS
    lines = _text(name).split("\n")
    by = _by_number(_doc(name))
    checks = {
        "704": '<h3 id="s704">',
        "704.1": "704.1.",
        "704.5c": "<strong>704.5c</strong>",
        "704.5d": 'id="704.5d"',
        "704.5g": 'id="704.5g"',
    }
    for number, marker in checks.items():
        source = by[number].source
        assert source is not None and source.file == name
        assert marker in lines[source.line - 1], number
    example = by["704.3"].paragraphs[1]
    assert "Exemple" in lines[example.source.line - 1]


def test_chrome_credits_and_footer_are_ignored() -> None:
    doc = _doc(PARAGRAPHS)
    numbers_found = {r.number for r in doc.rules}
    assert not numbers_found & {"704.8", "704.9", "704.9z", "704.10"}
    joined = " ".join(_all_text(doc))
    for chrome in ("Accueil", "Connexion", "Partager", "©", "Bonne lecture"):
        assert chrome not in joined


def test_table_of_contents() -> None:
    assert _doc(PARAGRAPHS).contents == {
        "1": "Concepts du jeu",
        "100": "Généralités",
        "7": "Règles supplémentaires",
        "703": "Actions obligatoires du tour",
        "704": "Actions basées sur un état",
        "705": "Jouer à pile ou face",
    }


def test_glossary_date_language_issues() -> None:
    doc = _doc(PARAGRAPHS)
    assert [g.term for g in doc.glossary] == ["Action basée sur un état", "Mort-vivant"]
    assert [p.kind for p in doc.glossary[1].paragraphs] == ["text", "example"]
    assert doc.date == "2024-04-19"
    assert doc.language == "fr"
    # 704.4 is really missing from the page.
    assert [(i.kind, i.number) for i in doc.issues] == [("gap", "704.5")]


# --- nested ordered lists -----------------------------------------------------------------


def test_ordered_lists_give_the_numbers() -> None:
    doc = _doc(LISTS)
    letters = [numbers.letters_from_value(v) for v in range(1, 14)]
    assert letters[-3:] == ["k", "m", "n"]
    assert [r.number for r in doc.rules] == [
        "704",
        "704.1",
        "704.2",
        "704.2a",
        "704.5",  # <ol start="5">
        *(f"704.5{c}" for c in letters),  # skips l
        "704.6",
        "704.6b",  # <ol type="a" start="2">
        "704.6d",  # <li value="4">
        "705",
        "705.1",
        "705.2",  # the example <li> does not take a number
    ]
    assert all(not r.inferred for r in doc.rules)


def test_ordered_list_texts() -> None:
    by = _by_number(_doc(LISTS))
    assert by["704.5"].paragraphs[0].text == "Les actions basées sur un état sont les suivantes :"
    assert "strictement supérieure à 0" in by["704.5g"].paragraphs[0].text
    assert by["704.5m"].paragraphs[0].text.startswith("Si une aura est attachée")
    assert [p.kind for p in by["704.5n"].paragraphs] == ["text", "example"]
    assert [p.kind for p in by["705.1"].paragraphs] == ["text", "example"]
    assert by["705.2"].paragraphs[0].text.startswith("Le joueur qui a annoncé le bon côté")
    # A nested list's text does not leak into its parent item.
    assert len(by["704.2"].paragraphs) == 1
    assert "capacités déclenchées" not in by["704.2"].paragraphs[0].text


def test_toc_list_is_not_rules() -> None:
    doc = _doc(LISTS)
    assert doc.contents == {"704": "Actions basées sur un état", "705": "Jouer à pile ou face"}
    assert doc.rules[0].number == "704"
    assert doc.rules[0].source is not None and doc.rules[0].source.line == 12


def test_list_gaps_are_reported() -> None:
    issues = [(i.kind, i.number) for i in _doc(LISTS).issues]
    assert issues == [("gap", "704.5"), ("gap", "704.6b"), ("gap", "704.6d")]


# --- scripts and Markdown-looking text ----------------------------------------------------


def test_scripts_styles_and_comments_are_ignored() -> None:
    doc = _doc(SCRIPT)
    assert [r.number for r in doc.rules] == ["118", "118.1", "118.1a", "118.3"]
    joined = " ".join(_all_text(doc))
    for hidden in ("injectée", "caché", "feuille de style", "JavaScript", "console", "Super"):
        assert hidden not in joined


def test_markdown_looking_text_stays_literal_plain_text() -> None:
    by = _by_number(_doc(SCRIPT))
    text = by["118.1"].paragraphs[0].text
    # Tags are dropped (no Markdown is invented for <em>), Markdown-like characters written in
    # the page are kept as they are, not interpreted.
    assert "de points de vie de **20**." in text
    assert "total de points de vie" in text
    assert "*points de vie*" not in text
    assert "_Variantes_" in text
    assert "[tableau](https://example.org/tableau)" in text
    assert "Troll à deux têtes, chaque équipe" in by["118.1a"].paragraphs[0].text
    assert "/troll" not in by["118.1a"].paragraphs[0].text
    # "# 118.2 …" is not a rule (no leading number), it continues 118.1a.
    assert by["118.1a"].paragraphs[1].text.startswith("# 118.2 n'est pas un titre")
    assert "`backticks`" in by["118.3"].paragraphs[0].text


def test_english_example_in_french_page() -> None:
    doc = _doc(SCRIPT)
    example = _by_number(doc)["118.3"].paragraphs[1]
    assert example.kind == "example"
    assert example.language == "en"
    assert doc.language == "fr"


# --- small inline pages -------------------------------------------------------------------


def test_page_without_rules_is_an_error() -> None:
    page = "<html><body><h1>Bienvenue</h1><p>Rien à voir ici.</p></body></html>"
    with pytest.raises(DocumentError) as info:
        parse(page, "accueil.html")
    assert "accueil.html" in str(info.value)
    assert info.value.file == "accueil.html"


def test_table_rows_entities_and_header_headings() -> None:
    page = """<html><body>
<section><header><h2>120. Piocher une carte</h2></header>
<table>
<tr><td>120.1.</td><td>Un joueur pioche une carte en mettant la carte du dessus de sa
biblioth&egrave;que dans sa main.</td></tr>
<tr><td>120.2</td><td>Les cartes peuvent &ecirc;tre pioch&eacute;es.</td></tr>
</table></section>
</body></html>"""
    doc = parse(page, "t.html")
    assert [r.number for r in doc.rules] == ["120", "120.1", "120.2"]
    assert doc.rules[0].title == "Piocher une carte"
    assert doc.rules[1].paragraphs[0].text.endswith("de sa bibliothèque dans sa main.")
    assert doc.rules[2].paragraphs[0].text == "Les cartes peuvent être piochées."


def test_lower_alpha_style_list_after_a_rule() -> None:
    page = """<body><h2>704. Actions basées sur un état</h2>
<p>704.1. Première règle.</p>
<p>704.2. Deuxième règle :</p>
<ol style="list-style-type: lower-alpha"><li>Sous-règle a.</li><li>Sous-règle b.</li></ol>
</body>"""
    doc = parse(page, "t.html")
    assert [r.number for r in doc.rules] == ["704", "704.1", "704.2", "704.2a", "704.2b"]
    assert doc.issues == []


def test_ul_with_explicit_numbers() -> None:
    page = """<body><h3>702. Capacités mot-clé</h3><ul>
<li>702.1. Première règle.</li><li>702.2. Vol.</li><li>702.2a Le vol est une capacité.</li>
</ul></body>"""
    doc = parse(page, "t.html")
    assert [r.number for r in doc.rules] == ["702", "702.1", "702.2", "702.2a"]
    assert doc.rules[-1].paragraphs[0].text == "Le vol est une capacité."


def test_numbered_paragraph_that_is_not_a_chapter() -> None:
    page = """<body><h2>100. Généralités</h2><p>100.1. Une règle.</p>
<p>3. Tapez la carte pour payer.</p></body>"""
    doc = parse(page, "t.html")
    assert [r.number for r in doc.rules] == ["100", "100.1"]
    assert doc.rules[-1].paragraphs[-1].text == "3. Tapez la carte pour payer."


def test_link_list_after_a_section_is_contents_not_rules() -> None:
    page = """<body><h2>704. Actions basées sur un état</h2><p>704.1. Une règle.</p>
<p>Voir aussi :</p>
<ol><li><a href="705.html">705. Jouer à pile ou face</a></li>
<li><a href="706.html">706. Lancer un dé</a></li></ol></body>"""
    doc = parse(page, "t.html")
    assert [r.number for r in doc.rules] == ["704", "704.1"]
    assert doc.contents == {"705": "Jouer à pile ou face", "706": "Lancer un dé"}


def test_official_text_saved_inside_pre() -> None:
    # The official .txt opened in a browser and saved: one <pre> holding the whole text.
    body = (
        "Magic: The Gathering Comprehensive Rules\n\n"
        "These rules are effective as of September 30, 2011.\n\n"
        "Contents\n\n1. Game Concepts\n100. General\n\nGlossary\n\nCredits\n\n"
        "1. Game Concepts\n\n100. General\n\n"
        "100.1. These Magic rules apply to any Magic game.\n\n"
        "100.1a A two-player game is a game that begins with only two players.\n"
        "Example: Two players &amp; no more.\n\n"
        "Glossary\n\nAbandon\nTo turn a face-up ongoing scheme card face down.\n\n"
        "Credits\n\nRichard Garfield\n"
    )
    page = f"<html><head><title>CR</title></head><body>\n<pre>{body}</pre>\n</body></html>"
    doc = parse(page, "cr.html")
    assert [r.number for r in doc.rules] == ["1", "100", "100.1", "100.1a"]
    assert doc.rules[1].title == "General"
    assert [p.kind for p in doc.rules[3].paragraphs] == ["text", "example"]
    assert doc.rules[3].paragraphs[1].text == "Example: Two players & no more."
    assert [g.term for g in doc.glossary] == ["Abandon"]
    assert doc.contents == {"1": "Game Concepts", "100": "General"}
    assert doc.date == "2011-09-30"
    assert doc.language == "en"
    lines = page.split("\n")
    for rule in doc.rules:
        assert rule.source is not None
        assert lines[rule.source.line - 1].startswith(rule.number), rule.number
    assert doc.issues == []


def test_paragraph_counter_ids_are_not_sections() -> None:
    page = """<body><h2>100. Généralités</h2><p>100.1. Une règle.</p>
<p id="p123">Suite de la règle 100.1.</p></body>"""
    doc = parse(page, "t.html")
    assert [r.number for r in doc.rules] == ["100", "100.1"]
    assert doc.rules[-1].paragraphs[-1].text == "Suite de la règle 100.1."


def test_glossary_and_credits_titles_in_paragraphs() -> None:
    page = """<body><h2>100. Généralités</h2><p>100.1. Une règle.</p>
<p><b>Glossaire</b></p>
<p><b>Abandonner</b></p><p>Retourner face cachée une machination.</p>
<p><strong>Crédits</strong></p><p>Conception : Richard Garfield</p></body>"""
    doc = parse(page, "t.html")
    assert [p.text for p in doc.rules[-1].paragraphs] == ["Une règle."]
    assert [(g.term, g.text) for g in doc.glossary] == [
        ("Abandonner", "Retourner face cachée une machination.")
    ]

"""The official text layout, pinned against two complete English editions (2011, 2008) and a
small French document written here."""

from __future__ import annotations

import pathlib
import re
import time
from functools import cache

import pytest

from judge.rules import numbers
from judge.rules.decode import decode_bytes
from judge.rules.errors import DocumentError
from judge.rules.layouts.detect import detect_layout
from judge.rules.layouts.official import find_effective_date, parse
from judge.rules.model import ParsedDocument

CORPUS_EN = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "corpus-en"
EN_2011 = "en-2011-09-30.txt"
EN_2008 = "en-2008-07-15.txt"
EDITIONS = [EN_2011, EN_2008]


def _raw(name: str) -> str:
    path = CORPUS_EN / name
    if not path.is_file():
        pytest.skip(f"../shared/corpus-en absent : {path} introuvable")
    # Independent of decode_bytes: the files are ASCII with CRLF.
    return path.read_bytes().decode("ascii").replace("\r\n", "\n")


@cache
def _parsed(name: str) -> ParsedDocument:
    return parse(_raw(name), name)


def _lines(name: str) -> list[str]:
    return _raw(name).split("\n")


def _nth(lines: list[str], marker: str, n: int) -> int:
    return [i for i, line in enumerate(lines) if line.strip() == marker][n - 1]


def _rules(doc: ParsedDocument, *kinds: str) -> list[str]:
    return [r.number for r in doc.rules if numbers.kind_of(r.number) in kinds]


# --- counts computed independently from the raw files ------------------------------------


@pytest.mark.parametrize("name", EDITIONS)
def test_rule_count_equals_regex_count(name: str) -> None:
    expected = len(re.findall(r"(?m)^\d{3}\.\d+[a-z]{0,2}\.? ", _raw(name)))
    assert expected > 1000
    assert len(_rules(_parsed(name), "rule", "subrule")) == expected


@pytest.mark.parametrize("name", EDITIONS)
def test_section_count(name: str) -> None:
    lines = _lines(name)
    # The contents list ends with its own "Credits" line; the rules end at the real Glossary.
    start, end = _nth(lines, "Credits", 1), _nth(lines, "Glossary", 2)
    expected = sum(1 for line in lines[start:end] if re.match(r"\d{3}\. ", line))
    assert expected > 80
    assert len(_rules(_parsed(name), "section")) == expected


@pytest.mark.parametrize("name,chapters", [(EN_2011, 9), (EN_2008, 6)])
def test_chapters(name: str, chapters: int) -> None:
    assert _rules(_parsed(name), "chapter") == [str(i) for i in range(1, chapters + 1)]


@pytest.mark.parametrize("name", EDITIONS)
def test_every_example_is_attached(name: str) -> None:
    expected = len(re.findall(r"(?m)^Example:", _raw(name)))
    doc = _parsed(name)
    in_rules = sum(1 for r in doc.rules for p in r.paragraphs if p.kind == "example")
    in_glossary = sum(1 for g in doc.glossary for p in g.paragraphs if p.kind == "example")
    assert in_rules + in_glossary == expected
    # Examples follow a rule, never a bare heading.
    for r in doc.rules:
        if any(p.kind == "example" for p in r.paragraphs):
            assert numbers.kind_of(r.number) in ("rule", "subrule"), r.number


def _glossary_blocks(name: str) -> list[list[str]]:
    lines = _lines(name)
    start, end = _nth(lines, "Glossary", 2), _nth(lines, "Credits", 2)
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in lines[start + 1 : end]:
        if line.strip():
            current.append(line)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


@pytest.mark.parametrize("name", EDITIONS)
def test_glossary_entries_are_whole(name: str) -> None:
    blocks = _glossary_blocks(name)
    doc = _parsed(name)
    assert len(blocks) > 300
    assert len(doc.glossary) == len(blocks)
    for entry, block in zip(doc.glossary, blocks, strict=True):
        assert entry.term == block[0].strip()
        assert [p.text for p in entry.paragraphs] == [line.strip() for line in block[1:]]
        assert entry.edition == ""
        assert _lines(name)[entry.source.line - 1] == block[0]


def test_2008_multi_paragraph_glossary_entry() -> None:
    entry = next(g for g in _parsed(EN_2008).glossary if g.term == "Ability")
    assert len(entry.paragraphs) == 3
    assert entry.paragraphs[0].text.startswith('"Ability" and "effect" are often confused')
    assert entry.paragraphs[1].text.startswith("When an activated ability is played")
    assert entry.paragraphs[2].text.startswith("When an effect states that an object")
    # The glossary's own "Example:" lines stay with their entry.
    cost = next(g for g in _parsed(EN_2008).glossary if g.term == "Activation Cost")
    assert [p.kind for p in cost.paragraphs] == ["text", "example"]


def test_2011_glossary_numbered_senses_stay_in_the_entry() -> None:
    entry = next(g for g in _parsed(EN_2011).glossary if g.term == "Ability")
    assert [p.text[:3] for p in entry.paragraphs] == ["1. ", "2. ", "See"]
    # The "1." / "2." senses are not read as chapters.
    assert _rules(_parsed(EN_2011), "chapter")[-1] == "9"


# --- particular rules ---------------------------------------------------------------------


def _rule(name: str, number: str) -> list[str]:
    rule = next(r for r in _parsed(name).rules if r.number == number)
    return [p.text for p in rule.paragraphs]


def test_2011_704_5g() -> None:
    (text,) = _rule(EN_2011, "704.5g")
    assert text.startswith("If a creature has toughness greater than 0")
    assert "has been dealt lethal damage and is destroyed" in text


def test_2008_420_5e() -> None:
    (text,) = _rule(EN_2008, "420.5e")
    assert "legendary permanents with the same name are in play" in text
    assert 'This is called the "legend rule."' in text


@pytest.mark.parametrize("number", ["216.4", "600.5", "609.6"])
def test_2008_rules_without_trailing_dot(number: str) -> None:
    texts = _rule(EN_2008, number)
    assert texts and texts[0][0].isupper()
    assert not texts[0].startswith(number)


def test_indented_continuations_join_their_rule() -> None:
    assert _rule(EN_2011, "205.3i")[1].startswith("Of that list, Forest, Island")
    assert _rule(EN_2008, "203.1b")[1].startswith("If an unpayable cost is increased")


def test_example_attached_to_the_rule_above() -> None:
    rule = next(r for r in _parsed(EN_2008).rules if r.number == "609.3")
    assert [p.kind for p in rule.paragraphs] == ["text", "example"]
    assert rule.paragraphs[1].text.startswith("Example: In a Teams game with three teams")


def test_section_and_chapter_titles() -> None:
    by_number = {r.number: r for r in _parsed(EN_2011).rules}
    assert by_number["704"].title == "State-Based Actions"
    assert by_number["7"].title == "Additional Rules"
    assert by_number["704"].paragraphs == []
    assert by_number["704.5g"].title is None
    assert {r.number: r.title for r in _parsed(EN_2008).rules}["420"] == "State-Based Effects"


@pytest.mark.parametrize("name", EDITIONS)
def test_numbers_in_document_order_and_sources(name: str) -> None:
    doc = _parsed(name)
    lines = _lines(name)
    keys = [numbers.sort_key(r.number) for r in doc.rules]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    for rule in doc.rules:
        assert rule.source is not None and rule.source.file == name
        assert lines[rule.source.line - 1].startswith(rule.number)
        for p in rule.paragraphs:
            assert p.text in lines[p.source.line - 1]


@pytest.mark.parametrize("name", EDITIONS)
def test_clean_editions_have_no_issues(name: str) -> None:
    assert _parsed(name).issues == []


@pytest.mark.parametrize("name,date", [(EN_2011, "2011-09-30"), (EN_2008, "2008-07-15")])
def test_date_and_language(name: str, date: str) -> None:
    doc = _parsed(name)
    assert doc.date == date
    assert doc.language == "en"
    assert doc.layout == "official"
    paragraphs = [p for r in doc.rules for p in r.paragraphs]
    english = sum(1 for p in paragraphs if p.language == "en")
    assert english / len(paragraphs) > 0.99


@pytest.mark.parametrize("name", EDITIONS)
def test_contents(name: str) -> None:
    lines = _lines(name)
    start, end = _nth(lines, "Contents", 1), _nth(lines, "Glossary", 1)
    expected = [line for line in lines[start:end] if re.match(r"\d{1,3}\. ", line)]
    doc = _parsed(name)
    assert len(doc.contents) == len(expected)
    assert "Glossary" not in doc.contents.values()
    first = expected[0].split(". ", 1)
    assert doc.contents[first[0]] == first[1]


def test_contents_titles() -> None:
    assert _parsed(EN_2011).contents["704"] == "State-Based Actions"
    assert _parsed(EN_2011).contents["101"] == "The _Magic_ Golden Rules"
    # 211 is absent from the 2008 contents but present (blank) in its rules.
    assert "211" not in _parsed(EN_2008).contents
    assert "211" in _rules(_parsed(EN_2008), "section")


def test_credits_and_customer_service_are_not_rules() -> None:
    for name in EDITIONS:
        doc = _parsed(name)
        texts = [p.text for r in doc.rules for p in r.paragraphs]
        texts += [p.text for g in doc.glossary for p in g.paragraphs]
        assert not any("Richard Garfield" in t for t in texts)
        assert not any("Renton WA" in t for t in texts)
        assert not any("This document is designed for people" in t for t in texts)


def test_detect_layout_official() -> None:
    for name in EDITIONS:
        assert detect_layout(_raw(name)) == "official"


def test_parse_speed() -> None:
    text = _raw(EN_2011)
    best = min(_timed(text) for _ in range(3))
    assert best < 0.5, f"{best:.3f} s"


def _timed(text: str) -> float:
    start = time.perf_counter()
    parse(text, EN_2011)
    return time.perf_counter() - start


# --- re-encodings of the 2011 text give the same rules -----------------------------------


def _signature(doc: ParsedDocument) -> list[tuple[object, ...]]:
    return [
        (r.number, r.title, tuple((p.kind, p.text, p.source.line) for p in r.paragraphs))
        for r in doc.rules
    ] + [(g.term, tuple(p.text for p in g.paragraphs)) for g in doc.glossary]


@pytest.mark.parametrize(
    "encode",
    [
        pytest.param(lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r").encode(), id="utf8-bom-cr"),
        pytest.param(lambda t: t.replace("\n", "\r\n").encode("utf-16"), id="utf16"),
        pytest.param(lambda t: t.encode("utf-16-le"), id="utf16-le-no-bom"),
        pytest.param(lambda t: t.replace("\n", "\r\n").encode("cp1252"), id="cp1252"),
    ],
)
def test_reencoded_2011_parses_the_same(encode: object) -> None:
    # Curly apostrophes and en dashes, as in Wizards' current files: they make the cp1252
    # bytes invalid UTF-8, so the fallback is really exercised.
    text = _raw(EN_2011).replace("'", "’").replace("-e ", "–e ")
    reference = parse(text, EN_2011)
    assert callable(encode)
    data: bytes = encode(text)
    decoded = decode_bytes(data, EN_2011)
    assert decoded == text
    assert _signature(parse(decoded, EN_2011)) == _signature(reference)
    assert len(reference.rules) == len(_parsed(EN_2011).rules)


# --- a French document in the official layout --------------------------------------------

FRENCH = """Règles complètes de Magic: The Gathering

Ces règles sont en vigueur au 30 septembre 2011.

Introduction

Ce document s'adresse aux joueurs qui connaissent déjà les bases du jeu.

Sommaire

1. Concepts du jeu
100. Généralités
118. Points de vie

Glossaire

Crédits

1. Concepts du jeu

100. Généralités

100.1. Ces règles de Magic s'appliquent à toute partie de Magic à deux joueurs ou plus.

100.1a Une partie à deux joueurs est une partie qui commence avec seulement deux joueurs.

118. Points de vie

118.1. Chaque joueur commence la partie avec un total de points de vie de 20.

118.1a Dans une partie en Troll à deux têtes, chaque équipe commence avec 30 points de vie.

118.1b Dans une partie en Vanguard, chaque joueur fixe son total selon sa carte Vanguard.

118.1b Dans une partie de Commander, chaque joueur fixe son total de points de vie à 40.
Exemple : Un joueur a 40 points de vie au début d'une partie de Commander.

118.3. Si un effet fait gagner ou perdre des points de vie à un joueur, le total est ajusté.

Glossaire

Abandonner
Retourner face cachée une carte de machination en cours.
Exemple : une machination abandonnée retourne au fond de son paquet.

Blessures
Voir règle 119.

Crédits

Conception originale : Richard Garfield
"""


def test_french_official_document() -> None:
    doc = parse(FRENCH, "fr.txt")
    assert detect_layout(FRENCH) == "official"
    assert doc.date == "2011-09-30"
    assert doc.language == "fr"
    assert doc.contents == {"1": "Concepts du jeu", "100": "Généralités", "118": "Points de vie"}
    assert [r.number for r in doc.rules] == [
        "1",
        "100",
        "100.1",
        "100.1a",
        "118",
        "118.1",
        "118.1a",
        "118.1b",
        "118.1c",
        "118.3",
    ]
    by_number = {r.number: r for r in doc.rules}
    assert by_number["118"].title == "Points de vie"
    assert [p.kind for p in by_number["118.1c"].paragraphs] == ["text", "example"]
    assert by_number["118.1c"].paragraphs[0].text.startswith("Dans une partie de Commander")
    assert all(p.language == "fr" for r in doc.rules for p in r.paragraphs)
    kinds = {(i.kind, i.number) for i in doc.issues}
    # The second 118.1b is renumbered 118.1c; sections 101-117 and rule 118.2 are missing.
    assert kinds == {("duplicate_fixed", "118.1c"), ("gap", "118"), ("gap", "118.3")}
    assert [g.term for g in doc.glossary] == ["Abandonner", "Blessures"]
    assert [p.kind for p in doc.glossary[0].paragraphs] == ["text", "example"]
    assert not any("Garfield" in p.text for r in doc.rules for p in r.paragraphs)


def test_document_without_rules_is_an_error() -> None:
    text = "Règles complètes\n\nSommaire\n\n1. Concepts du jeu\n100. Généralités\n\nRien d'autre.\n"
    with pytest.raises(DocumentError) as info:
        parse(text, "vide.txt")
    assert "vide.txt" in str(info.value)
    assert info.value.file == "vide.txt"
    assert info.value.line is not None
    assert f"{info.value.line} lignes" in str(info.value)


def test_empty_rule_is_reported() -> None:
    text = "100. Généralités\n\n100.1.\n\n100.2. Une règle avec du texte ici.\n"
    doc = parse(text, "t.txt")
    assert [r.number for r in doc.rules] == ["100", "100.1", "100.2"]
    assert [(i.kind, i.number) for i in doc.issues] == [("empty_rule", "100.1")]


def test_letters_l_and_o_are_not_subrules() -> None:
    subrules = "".join(f"100.1{c} Subrule {c}.\n\n" for c in "abcdefghijk")
    text = "100. General\n\n100.1. The rule.\n\n" + subrules + "100.1l Not a subrule.\n"
    doc = parse(text, "t.txt")
    assert [r.number for r in doc.rules][-2:] == ["100.1j", "100.1k"]
    assert doc.rules[-1].paragraphs[-1].text == "100.1l Not a subrule."
    assert [i.kind for i in doc.issues] == ["unparsed"]


def test_two_letter_subrules() -> None:
    body = "\n\n".join(
        f"704.5{numbers.letters_from_value(v)} Rule text number {v}." for v in range(1, 27)
    )
    head = "704. State-Based Actions\n\n" + "".join(f"704.{n}. Rule {n}.\n\n" for n in range(1, 6))
    doc = parse(head + body + "\n", "t.txt")
    assert [r.number for r in doc.rules][-3:] == ["704.5z", "704.5aa", "704.5ab"]
    assert doc.issues == []


@pytest.mark.parametrize(
    "text,iso",
    [
        ("These rules are effective as of September 30, 2011.", "2011-09-30"),
        ("These rules are current as of July 15, 2008.", "2008-07-15"),
        ("Ces règles sont en vigueur au 1er février 2024.", "2024-02-01"),
        ("Règles à jour au 04/02/2011.", "2011-02-04"),
        ("Aucune date ici, seulement 2011.", None),
    ],
)
def test_effective_dates(text: str, iso: str | None) -> None:
    assert find_effective_date(text) == iso

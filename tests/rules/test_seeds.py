"""The five shipped seeds: every paragraph's number, pinned from a reading of the
documents (not from the parser's output)."""

from __future__ import annotations

import pytest

from judge.rules.index import CORPUS_DIR, RuleIndex
from judge.rules.layouts import parse_text


def _letters(base: str, last: str) -> list[str]:
    out = []
    for c in "abcdefghijkmnpqrstuvwxyz":
        out.append(f"{base}{c}")
        if c == last:
            return out
    raise AssertionError(last)


# (file, layout, expected numbers of the rule paragraphs in reading order, with
# the sections first as headings; examples belong to the rule above them).
SEEDS_2024_704 = (
    ["704", "704.1", "704.1a", "704.2", "704.3", "704.4", "704.5"]
    + _letters("704.5", "y")
    + ["704.6"]
    + _letters("704.6", "f")
    + ["704.7", "704.8"]
)
SEEDS_2024_301 = (
    ["301", "301.1", "301.2", "301.3", "301.4", "301.5"]
    + _letters("301.5", "f")
    + ["301.6", "301.7", "301.7a", "301.7b"]
)
SEEDS_2024_715 = (
    ["715", "715.1", "715.2"]
    + _letters("715.2", "c")
    + ["715.3"]
    + _letters("715.3", "d")
    + ["715.4", "715.5"]
)
SEED_2011 = ["118", "118.1", *_letters("118.1", "d"), "118.2", "118.3", "118.4", "118.4a"] + [
    f"118.{n}" for n in range(5, 10)
]
SEED_PRE2009 = (
    ["420.2", "420.3", "420.4", "420.5"]
    + _letters("420.5", "k")
    + ["408", "408.1"]
    + _letters("408.1", "i")
)

CASES = [
    ("fr-2024/704-actions-basees-sur-un-etat.txt", "scraped", SEEDS_2024_704),
    ("fr-2024/301-artefacts.txt", "scraped", SEEDS_2024_301),
    ("fr-2024/715-cartes-d-aventurier.txt", "scraped", SEEDS_2024_715),
    ("fr-2011/118-points-de-vie.txt", "glued_2011", SEED_2011),
    ("fr-pre2009/420-408-effets-et-chronologie.txt", "inline_pre2009", SEED_PRE2009),
]


@pytest.mark.parametrize(("file", "layout", "expected"), CASES, ids=[c[0] for c in CASES])
def test_every_paragraph_number_is_pinned(file: str, layout: str, expected: list[str]) -> None:
    text = (CORPUS_DIR / file).read_text(encoding="utf-8")
    doc = parse_text(text, file)
    assert doc.layout == layout  # detected, not forced
    assert [r.number for r in doc.rules] == expected


def test_detected_layout_can_be_forced() -> None:
    text = (CORPUS_DIR / CASES[0][0]).read_text(encoding="utf-8")
    forced = parse_text(text, CASES[0][0], "scraped")
    assert [r.number for r in forced.rules] == SEEDS_2024_704


def test_examples_attach_to_the_rule_above(index: RuleIndex) -> None:
    ed = index.edition("fr-2024")
    with_examples = {n for n, r in ed.rules.items() if r.examples}
    assert with_examples == {"704.4", "704.7", "704.8"}
    assert "Miroir de la liche" in ed.rules["704.7"].examples[0]
    assert "Louveteau" in ed.rules["704.8"].examples[0]
    assert ed.rules["704.8"].text.startswith("Si une action basée sur un état")
    old = index.edition("fr-pre2009").rules["420.4"]
    assert old.examples and old.examples[0].startswith("Exemple : un joueur contrôle")
    assert "Exemple" not in old.text


def test_three_scraped_files_are_one_edition_with_contents_once(index: RuleIndex) -> None:
    ed = index.edition("fr-2024")
    assert len(ed.sources) == 3
    sections_with_text = [n for n, r in ed.rules.items() if r.kind == "section" and r.source]
    assert sections_with_text == ["301", "704", "715"]
    # Every contents entry once, as a title-only rule when its text is absent.
    assert ed.rules["117"].title == "Timing et priorité" and ed.rules["117"].title_only
    assert ed.rules["7"].title == "Règles supplémentaires"
    assert (
        sum(1 for r in ed.rules.values() if r.kind == "section") == 144
    )  # lines `NNN. …` of the contents


def test_inferred_numbers_are_marked(index: RuleIndex) -> None:
    ed = index.edition("fr-2024")
    assert ed.rules["704.3"].inferred and not ed.rules["704.5g"].inferred
    assert ed.rules["704.3"].text.startswith("Chaque fois qu'un joueur devrait recevoir")
    assert ed.rules["301.6"].text.startswith("Some artifacts have the subtype")


def test_2011_duplicate_number_fixed_and_reported(index: RuleIndex) -> None:
    ed = index.edition("fr-2011")
    assert "Archenemy" in ed.rules["118.1d"].text
    assert "Commander" in ed.rules["118.1c"].text
    fixed = [i for i in ed.issues if i.kind == "duplicate_fixed"]
    assert [i.number for i in fixed] == ["118.1d"]
    assert "118.1c" in fixed[0].message
    assert ed.rules["118"].title == "Points de Vie"
    assert ed.rules["118.1"].text.endswith("de 20.")


def test_2011_glued_numbers_do_not_leak_into_text(index: RuleIndex) -> None:
    for rule in index.edition("fr-2011").rules.values():
        for para in rule.paragraphs:
            assert "118." not in para.text, (rule.number, para.text)


def test_pre2009_question_kept_out_and_gap_reported(index: RuleIndex) -> None:
    ed = index.edition("fr-pre2009")
    everything = " ".join(p.text for r in ed.rules.values() for p in r.paragraphs)
    assert "cimetierre" not in everything
    assert any("cimetierre" in i.message for i in ed.issues if i.kind == "not_rules")
    assert [i.number for i in ed.issues if i.kind == "gap"] == ["420.1"]
    assert ed.rules["408"].title == "Chronologie des sorts et des capacités"
    # A citation inside 408.1i (`voir règle 408.2d`) is not a rule start.
    assert "408.2d" not in ed.rules
    assert "jouer une terrain (voir règle 408.2d)" in ed.rules["408.1i"].text
    # `règles. 408.1b` ends a sentence: 408.1b is a rule start.
    assert ed.rules["408.1a"].text.endswith("par les règles.")


def test_english_paragraphs_are_marked(index: RuleIndex) -> None:
    ed = index.edition("fr-2024")
    english = {n for n, r in ed.rules.items() if any(p.language == "en" for p in r.paragraphs)}
    assert english == {"301.5e", "301.6", "704.5j", "704.5p", "704.5s"} | {
        f"704.5{c}" for c in "uvwxy"
    }
    assert ed.rules["704.5j"].language == "en"
    assert ed.rules["704.5g"].language == "fr"

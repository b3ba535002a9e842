"""The concordance between editions (judge.rules.concordance) and `judge compare`.

The labelled table (concordance_labels.toml) measures the automatic matching; its curated pairs
are pinned separately. Tests naming an English edition use `en_index` (skipped, with a reason,
when ../shared/corpus-en is absent)."""

from __future__ import annotations

import ast
import html
import json
import re
import shutil
import subprocess
import sys
import threading
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from judge import fr
from judge.cli import main
from judge.cli.compare import format_comparison, render_diff
from judge.rules import store
from judge.rules.concordance import (
    METHODS,
    RENUMBERED_ARROW,
    Comparison,
    Concordance,
    DiffOp,
    DiffPart,
    Link,
    NoCounterpart,
    RuleMissing,
    compare,
    counterparts_for,
    diff_rules,
    inline_view,
    is_cosmetic,
    is_empty_diff,
    load_curated,
    method_label,
    normalize_title,
    reference_counterpart,
    side_view,
    summary,
    tokenize,
)
from judge.rules.edition import EditionMeta, build_edition
from judge.rules.index import RuleIndex, load_index
from judge.rules.model import Edition, Paragraph, ParsedDocument, RawRule, Rule, Source, SourceFile
from judge.rules.numbers import kind_of
from judge.rules.text import normalize

LABELS = Path(__file__).with_name("concordance_labels.toml")
EN_2008, EN_2011 = "en-2008-07-15", "en-2011-09-30"
TARGET = 0.95


@pytest.fixture(scope="module")
def conc(index: RuleIndex) -> Concordance:
    """One concordance of the shipped corpus, shared by the tests of this module (as the
    app's sessions share one)."""
    return Concordance(index)


@pytest.fixture(scope="module")
def en_conc(en_index: RuleIndex) -> Concordance:
    return Concordance(en_index)


# --- the labelled table ----------------------------------------------------------------------


@dataclass(frozen=True)
class Label:
    group: str
    from_edition: str
    from_rule: str
    to_edition: str
    to_rule: str | None
    curated: bool

    @property
    def editions(self) -> set[str]:
        return {self.from_edition, self.to_edition}


def _labels() -> list[Label]:
    out = []
    for p in tomllib.loads(LABELS.read_text(encoding="utf-8"))["pair"]:
        fe, fr = p["from"].split()
        te, tr = p["to"].split()
        out.append(
            Label(p["group"], fe, fr, te, None if tr == "none" else tr, p.get("curated", False))
        )
    return out


def _usable(labels: list[Label], index: RuleIndex) -> list[Label]:
    known = {e.id for e in index.editions}
    return [lab for lab in labels if lab.editions <= known]


def _measure(conc: Concordance, labels: list[Label]) -> tuple[float, float, list[str]]:
    """Precision and recall of the automatic matching (exact links, curated ones left out)."""
    tp = fp = fn = 0
    errors = []
    for lab in labels:
        link = conc.counterpart(lab.from_edition, lab.from_rule, lab.to_edition, approximate=False)
        got = link.to_rule if link is not None and link.method != "curated" else None
        if got is not None and got == lab.to_rule:
            tp += 1
            continue
        if got is not None:
            fp += 1
        if lab.to_rule is not None:
            fn += 1
        if got != lab.to_rule:
            errors.append(f"{lab.from_edition} {lab.from_rule} → {lab.to_edition}: {got}")
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, errors


def test_label_table_covers_the_three_kinds_of_pairs() -> None:
    labels = _labels()
    assert len(labels) >= 40
    groups = {lab.group for lab in labels}
    assert {"2011-2024-sections", "pre2009-2024-rules", "fr2011-en2011-rules"} <= groups
    assert sum(1 for lab in labels if lab.to_rule is None) >= 5  # pairs that must stay apart
    assert sum(1 for lab in labels if lab.curated) >= 10


def test_automatic_matching_precision_recall(index: RuleIndex) -> None:
    labels = [lab for lab in _usable(_labels(), index) if not lab.curated]
    assert len(labels) >= 40
    precision, recall, errors = _measure(Concordance.build(index), labels)
    print(
        f"\nconcordance (éditions livrées, {len(labels)} paires) : "
        f"précision {precision:.3f}, rappel {recall:.3f}"
    )
    assert precision >= TARGET, errors
    assert recall >= TARGET, errors


def test_automatic_matching_precision_recall_with_english(en_index: RuleIndex) -> None:
    labels = [lab for lab in _usable(_labels(), en_index) if not lab.curated]
    assert any(EN_2011 in lab.editions for lab in labels)
    precision, recall, errors = _measure(Concordance.build(en_index), labels)
    print(
        f"\nconcordance (avec les éditions anglaises, {len(labels)} paires) : "
        f"précision {precision:.3f}, rappel {recall:.3f} ; écarts : {errors}"
    )
    assert precision >= TARGET, errors
    assert recall >= TARGET, errors


def test_the_measure_can_fail(index: RuleIndex) -> None:
    # Without its tables and titles, nothing matches: the measure says so.
    labels = [lab for lab in _usable(_labels(), index) if not lab.curated]
    wrong = [
        Label(lab.group, lab.from_edition, lab.from_rule, lab.to_edition, "999", False)
        for lab in labels
        if lab.to_rule is not None
    ]
    precision, recall, _ = _measure(Concordance.build(index), wrong)
    assert precision < 0.5 and recall < 0.5


@pytest.mark.parametrize("fixture", ["index", "en_index"])
def test_curated_pairs_are_pinned(fixture: str, request: pytest.FixtureRequest) -> None:
    idx: RuleIndex = request.getfixturevalue(fixture)
    conc = Concordance.build(idx)
    curated = [lab for lab in _usable(_labels(), idx) if lab.curated]
    assert curated
    for lab in curated:
        link = conc.counterpart(lab.from_edition, lab.from_rule, lab.to_edition)
        assert link is not None, lab
        assert (link.to_rule, link.method) == (lab.to_rule, "curated"), lab
        assert not link.approximate and link.confidence == 1.0


def test_the_table_states_its_sources() -> None:
    data = load_curated()
    assert len(data.tables) >= 3
    for table in data.tables:
        assert table.source.strip(), table.id
    pre = {(cl.from_rule, cl.to_rule) for t in data.tables for cl in t.links if t.to.year == 2024}
    spec = {
        "420.5a": "704.5a",
        "420.5b": "704.5f",
        "420.5c": "704.5g",
        "420.5d": "704.5m",
        "420.5e": "704.5j",
        "420.5f": "704.5d",
        "420.5g": "704.5b",
        "420.5h": "704.5c",
        "420.5i": "704.5k",
        "420.5j": "704.5e",
        "420.5k": "704.5n",
    }
    assert set(spec.items()) <= pre
    assert {
        ("420", "704"),
        ("408", "117"),
        ("314", "514"),
        ("310", "510"),
        ("405", "604"),
        ("410", "603"),
        ("418", "611"),
        ("419", "614"),
        ("419", "615"),
    } <= pre


def test_without_tables_no_link_is_curated(index: RuleIndex) -> None:
    conc = Concordance.build(index, curated=False)
    methods = {
        link.method
        for a in index.editions
        for b in index.editions
        if a != b
        for link in conc.pair_links(a.id, b.id)
    }
    assert "curated" not in methods
    assert {"same_number", "title"} <= methods


# --- links -----------------------------------------------------------------------------------


def test_links_are_well_formed(index: RuleIndex) -> None:
    conc = Concordance.build(index)
    seen = 0
    for a in index.editions:
        for b in index.editions:
            if a.id == b.id:
                continue
            back = {(x.from_rule, x.to_rule) for x in conc.pair_links(b.id, a.id)}
            for link in conc.pair_links(a.id, b.id):
                seen += 1
                assert link.method in METHODS
                assert 0.0 <= link.confidence <= 1.0
                assert link.moved == (link.from_rule != link.to_rule)
                assert link.to_rule in b.rules  # never outside the corpus
                if link.from_rule in a.rules:
                    assert (link.to_rule, link.from_rule) in back
    assert seen > 100


def test_sections_matched_by_titles_ignore_accents_and_case(
    index: RuleIndex, conc: Concordance
) -> None:
    assert normalize_title("Points de Vie") == normalize_title("points de vie")
    assert normalize_title("Symbole de l'extension") != normalize_title("Symbole d’extension")
    link = conc.counterpart("fr-2011", "118", "fr-2024")
    assert link is not None and (link.to_rule, link.method, link.moved) == ("119", "title", True)
    same = conc.counterpart("fr-2011", "510", "fr-2024")
    assert same is not None and (same.to_rule, same.method) == ("510", "same_number")
    # 2024's 118 is « Coûts »: the same number, another rule
    assert all(x.to_rule != "118" for x in conc.links("fr-2011", "118"))


def _meta(eid: str, year: int) -> EditionMeta:
    return EditionMeta(
        eid,
        eid,
        "fr",
        str(year),
        "",
        "modern",
        year,
        (SourceFile("x.txt", "x.txt", "official"),),
        shipped=False,
    )


def _raw(number: str, text: str) -> RawRule:
    return RawRule(number, [Paragraph(text, "fr", Source("x.txt", 1))], None, Source("x.txt", 1))


LIFE = [
    "Chaque joueur commence la partie avec un total de points de vie de 20.",
    "Des blessures infligées à un joueur lui font perdre autant de points de vie.",
    "Si un effet fait gagner ou perdre des points de vie à un joueur, son total est ajusté.",
    "Un joueur qui a 0 point de vie ou moins perd la partie.",
]


def _two_editions() -> RuleIndex:
    old = ParsedDocument(
        "x.txt",
        "official",
        contents={
            "1": "Concepts du jeu",
            "100": "Généralités",
            "101": "Points de Vie",
            "102": "Coûts",
        },
    )
    old.rules = [_raw(f"101.{i + 1}", t) for i, t in enumerate(LIFE)]
    new = ParsedDocument(
        "x.txt",
        "official",
        contents={
            "1": "Concepts du jeu",
            "100": "Généralités",
            "101": "Jetons",
            "102": "Points de vie",
            "103": "Coûts",
        },
    )
    # the same rules, one moved down and another reworded a little
    order = [LIFE[0], LIFE[2], LIFE[1], LIFE[3].replace("Un joueur qui a", "Si un joueur a")]
    new.rules = [_raw(f"102.{i + 1}", t) for i, t in enumerate(order)]
    return RuleIndex(
        [build_edition(_meta("x-old", 2011), [old]), build_edition(_meta("x-new", 2024), [new])]
    )


def test_a_rule_that_only_moved_is_found_as_moved() -> None:
    idx = _two_editions()
    conc = Concordance.build(idx)
    section = conc.counterpart("x-old", "101", "x-new")
    assert section is not None and (section.to_rule, section.method) == ("102", "title")
    expected = {"101.1": "102.1", "101.2": "102.3", "101.3": "102.2", "101.4": "102.4"}
    for old, new in expected.items():
        link = conc.counterpart("x-old", old, "x-new")
        assert link is not None and link.to_rule == new, (old, link)
        assert link.method == "text" and link.moved and not link.approximate
    assert conc.counterpart("x-new", "101", "x-old") is None  # « Jetons » is new
    assert conc.counterpart("x-old", "102", "x-new").to_rule == "103"  # type: ignore[union-attr]


def test_composed_and_approximate_links(index: RuleIndex, conc: Concordance) -> None:
    # fr-pre2009 → fr-2011 has only the curated sections: 420.5e goes through 2024
    # (2011's 704.5k is not in the French corpus: no exact link may land there)
    assert conc.counterpart("fr-pre2009", "420.5e", "fr-2011", approximate=False) is None
    # a rule whose section moved, its text absent from the 2024 corpus
    shifted = conc.counterpart("fr-2011", "118.3", "fr-2024")
    assert shifted is not None and shifted.approximate and shifted.to_rule == "119.3"
    assert shifted.confidence < 1.0
    # a timing rule of the old text: only its section is known today
    coarse = conc.counterpart("fr-pre2009", "408.1c", "fr-2024")
    assert coarse is not None and coarse.approximate and coarse.to_rule == "117"


def test_links_say_when_their_target_is_absent(index: RuleIndex, conc: Concordance) -> None:
    # 2011's corpus has 118 only: 2024's 704.8 and 704.5g land on numbers deduced from the
    # move of 704 (the same number), which 2011's corpus does not hold.
    for number in ("704.8", "704.5g"):
        rule = index.get(number, "fr-2024")
        assert rule is not None
        by_edition = {x.to_edition: x for x in counterparts_for(conc, rule)}
        shifted = by_edition["fr-2011"]
        assert (shifted.to_rule, shifted.approximate, shifted.present) == (number, True, False)
        assert shifted.to_dict()["present"] is False
        assert shifted.to_rule not in index.edition("fr-2011").rules
    # a section known only by its title, whose rules are in the corpus, is present
    rule = index.get("704.8", "fr-2024")
    assert rule is not None
    section = {x.to_edition: x for x in counterparts_for(conc, rule)}["fr-pre2009"]
    assert (section.to_rule, section.approximate, section.present) == ("420", True, True)
    assert index.edition("fr-pre2009").rules["420"].title_only
    # 2024's 119 « Points de vie » is a title of the table of contents, nothing more
    life = conc.counterpart("fr-2011", "118", "fr-2024")
    assert life is not None and (life.to_rule, life.approximate, life.present) == (
        "119",
        False,
        False,
    )
    # every exact link of a rule with a text lands on a rule with a text
    for number in ("704.5g", "704.5j", "704.3"):
        for link in conc.links("fr-2024", number, approximate=False):
            assert link.present, link


def test_present_on_every_link(index: RuleIndex) -> None:
    conc = Concordance.build(index)
    for a in index.editions:
        for number in a.rules:
            for link in conc.links(a.id, number):
                rules = index.edition(link.to_edition).rules
                todo, texts = [link.to_rule], []
                while todo:  # the target and everything under it
                    rule = rules.get(todo.pop())
                    if rule is not None:
                        todo += rule.children
                        texts += [rule.text] if rule.text.strip() and not rule.title_only else []
                assert link.present == bool(texts), link


def test_absent_target_with_the_english_editions(en_index: RuleIndex, en_conc: Concordance) -> None:
    rule = en_index.get("420.5e", "fr-pre2009")
    assert rule is not None
    by_edition = {x.to_edition: x for x in counterparts_for(en_conc, rule)}
    assert (by_edition["fr-2011"].to_rule, by_edition["fr-2011"].present) == ("704.5k", False)
    assert (by_edition[EN_2011].to_rule, by_edition[EN_2011].present) == ("704.5k", True)
    assert by_edition["fr-2024"].present and by_edition[EN_2008].present


# --- two French editions of one numbering ------------------------------------------------------

PAGE_DATE = "2024-04-12"
PAGE_ID = f"fr-{PAGE_DATE}"


def _page_of_704(index: RuleIndex, path: Path) -> None:
    """A saved web page of 704 as a French site quotes it, without headings nor contents:
    704.5a and 704.5g word for word, 704.3 cut short, 704.5b reworded."""
    ed = index.edition("fr-2024")
    texts = {n: ed.rules[n].paragraphs[0].text for n in ("704.3", "704.5a", "704.5g")}
    texts["704.3"] = texts["704.3"].split(", puis")[0] + "."
    texts["704.5b"] = (
        "Si un joueur a tenté de piocher dans une bibliothèque vide depuis la dernière "
        "vérification des actions basées sur un état, il perd la partie."
    )
    body = "\n".join(f"<p>{n} {html.escape(t)}</p>" for n, t in sorted(texts.items()))
    path.write_text(
        '<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Règles</title>'
        "</head><body><main>\n<p>Ces règles sont en vigueur au 12 avril 2024.</p>\n"
        f"{body}\n</main></body></html>",
        encoding="utf-8",
    )


@pytest.fixture(params=["livrées", "avec les éditions anglaises"])
def page_index(request: pytest.FixtureRequest, index: RuleIndex, tmp_path: Path) -> RuleIndex:
    """The shipped corpus (and the English editions) plus the page of 704, ingested."""
    home = tmp_path / "home"
    if request.param != "livrées":
        en_home: Path = request.getfixturevalue("en_home")
        shutil.copytree(store.editions_dir(en_home), store.editions_dir(home))
    page = tmp_path / "regles-704.html"
    _page_of_704(index, page)
    assert store.ingest(page, home=home).edition.id == PAGE_ID
    return load_index(home=home)


def test_same_language_same_numbering_links_rule_to_rule(page_index: RuleIndex) -> None:
    conc = Concordance(page_index)
    assert page_index.edition(PAGE_ID).numbering == "modern"
    for number in ("704.3", "704.5a", "704.5b", "704.5g"):
        for a, b in ((PAGE_ID, "fr-2024"), ("fr-2024", PAGE_ID)):
            link = conc.counterpart(a, number, b)
            assert link is not None, (a, number, b)
            assert (link.to_rule, link.method, link.via) == (number, "same_number", ()), link
            assert not link.approximate and link.present, link
    for number in ("704.5a", "704.5g"):  # word for word
        link = conc.counterpart(PAGE_ID, number, "fr-2024")
        assert link is not None and link.confidence == 1.0, link
    cut = conc.counterpart(PAGE_ID, "704.3", "fr-2024")
    assert cut is not None and 0.7 <= cut.confidence < 1.0
    comparison = compare(conc, "704.3", PAGE_ID, "fr-2024")
    assert comparison.new.number == "704.3" and comparison.changed
    assert compare(conc, "704.5g", PAGE_ID, "fr-2024").changed is False


def test_no_translation_between_two_french_editions(page_index: RuleIndex) -> None:
    conc = Concordance(page_index)
    french = [e.id for e in page_index.editions if e.language == "fr"]
    english = [e.id for e in page_index.editions if e.language == "en"]
    for number in page_index.edition(PAGE_ID).rules:
        for link in conc.links(PAGE_ID, number):
            if link.to_edition in french:
                assert link.method != "translation", link
    if english:  # the French text of 2011 is reached through the English one, number for number
        chain = conc.counterpart(PAGE_ID, "704.5g", "fr-2011")
        assert chain is not None and chain.via == (EN_2011,) and chain.method == "same_number"
        assert chain.approximate and not chain.present
        across = conc.counterpart(PAGE_ID, "704.5g", EN_2011)
        assert across is not None and across.method == "translation"


# --- with the English editions -----------------------------------------------------------------


def test_old_french_and_2008_english_match_where_the_text_matches(
    en_index: RuleIndex, en_conc: Concordance
) -> None:
    assert en_conc.is_translation_pair("fr-pre2009", EN_2008)
    assert en_conc.is_translation_pair("fr-2011", EN_2011)
    assert not en_conc.is_translation_pair("fr-2024", EN_2011)
    old_fr = en_index.edition("fr-pre2009")
    letters = [
        n
        for n in en_index.edition(EN_2008).rules
        if n.startswith("420.5") and kind_of(n) == "subrule"
    ]
    assert len(letters) > 11  # the 2008 list is longer (planeswalkers, counters)
    for number in letters:
        link = en_conc.counterpart(EN_2008, number, "fr-pre2009", approximate=False)
        if number in old_fr.rules:
            assert link is not None and (link.to_rule, link.method) == (number, "translation")
            assert link.confidence >= 0.8
        else:
            assert link is None, number


def test_the_2011_table_agrees_with_the_english_texts(en_index: RuleIndex) -> None:
    """Check the curated table against the two English editions: each rule pair reads alike,
    each section pair has rules that the text matching puts there, or titles that agree."""
    data = load_curated()
    table = next(t for t in data.tables if t.to.year == 2011)
    old, new = en_index.edition(EN_2008), en_index.edition(EN_2011)
    texts = {n: r.text for n, r in new.rules.items() if r.text.strip()}
    numbers, choices = list(texts), list(texts.values())

    def best_home(text: str) -> str:
        _, _, i = process.extractOne(text, choices, scorer=fuzz.token_sort_ratio)
        return numbers[i].split(".")[0]

    for cl in table.links:
        if kind_of(cl.from_rule) == "subrule" and kind_of(cl.to_rule) == "subrule":
            score = fuzz.token_set_ratio(old.rules[cl.from_rule].text, new.rules[cl.to_rule].text)
            assert score >= 60, (cl, score)
        elif kind_of(cl.from_rule) == "section" and kind_of(cl.to_rule) == "section":
            # where the old section's rules read best in the new edition, anywhere in it
            landed = {
                best_home(r.text)
                for n, r in old.rules.items()
                if n.startswith(cl.from_rule + ".") and r.text.strip()
            }
            words = set(normalize_title(old.rules[cl.from_rule].title or "").split())
            shared = words & set(normalize_title(new.rules[cl.to_rule].title or "").split())
            assert cl.to_rule in landed or shared, cl


def test_2008_to_2011_across_the_renumbering(en_index: RuleIndex, en_conc: Concordance) -> None:
    link = en_conc.counterpart(EN_2008, "420.4", EN_2011)
    assert link is not None and (link.to_rule, link.method, link.moved) == ("704.4", "text", True)
    link = en_conc.counterpart(EN_2008, "408.2d", EN_2011)
    assert link is not None and link.to_rule == "115.2a"
    comparison = compare(en_conc, "408.1g", EN_2008, EN_2011)
    assert comparison.new.number == "510.2"
    assert comparison.summary is not None and "pile" in comparison.summary


def test_the_benchmark_reads_its_precision_as_a_lower_bound(
    en_index: RuleIndex, en_conc: Concordance, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.bench.bench_concordance import evaluate

    evaluate(en_index, en_conc, None)
    out = capsys.readouterr().out
    assert "(borne inférieure)" in out
    found = re.search(r"écarts avec la référence, (\d+) sur (\d+)", out)
    assert found is not None and found.group(1) == found.group(2)  # every one is listed
    listed = re.findall(r"^    \S+ → \S+ \(text, \d+ ; référence : ", out, re.M)
    assert len(listed) == int(found.group(2)) > 0


# --- diff -------------------------------------------------------------------------------------


def test_tokenizer_handles_elision_and_punctuation() -> None:
    tokens = [t for t, _ in tokenize("L'équipement qu'il contrôle, jusqu'à « 704.5j » +1/+1.")]
    assert tokens == [
        "L'",
        "équipement",
        "qu'",
        "il",
        "contrôle",
        ",",
        "jusqu'",
        "à",
        "«",
        "704.5j",
        "»",
        "+1/+1",
        ".",
    ]


def _rule(text: str, edition: str = "t", number: str = "100.1") -> Rule:
    return Rule(
        edition, number, "rule", None, (Paragraph(text, "fr", Source("t", 1)),), "100", (), None
    )


def test_diff_of_identical_rules_is_empty(index: RuleIndex, conc: Concordance) -> None:
    rule = index.get("704.5j", "fr-2024")
    assert rule is not None
    diff = diff_rules(rule, rule, conc)
    assert diff == [DiffPart(DiffOp.EQUAL, rule.text)]
    assert is_empty_diff(diff)
    assert summary(rule, rule) is None


def _sides(diff: list[DiffPart] | tuple[DiffPart, ...]) -> tuple[str, str]:
    """The old and the new text rebuilt from the operations, as the JSON contract says:
    equal + delete + old side of renumbered, equal + insert + new side of renumbered."""
    old = new = ""
    for part in diff:
        if part.op == "renumbered":
            assert part.text == f"{part.old}{RENUMBERED_ARROW}{part.new}", part
            old, new = old + part.old, new + part.new
        elif part.op == "equal":
            old, new = old + part.text, new + part.text
        elif part.op == "delete":
            old += part.text
        else:
            assert part.op == "insert", part
            new += part.text
        assert (part.old_text, part.new_text) == _part_sides(part), part
    return old, new


def _part_sides(part: DiffPart) -> tuple[str, str]:
    if part.op == "renumbered":
        return part.old, part.new
    return ("" if part.op == "insert" else part.text), ("" if part.op == "delete" else part.text)


def test_diff_marks_words_and_ignores_apostrophe_style() -> None:
    a = _rule("Si un joueur a 0 point de vie, il perd la partie. L'équipe gagne.")
    b = _rule("Si un joueur a 0 point de vie ou moins, il perd la partie. L’équipe gagne.")
    diff = diff_rules(a, b)
    assert _sides(diff) == (a.text, b.text)
    # what a reader sees marked: the two inserted words, nothing on the old side
    assert [(m, t.strip()) for m, t in side_view(diff, "new") if m] == [("insert", "ou moins")]
    assert [m for m, _ in side_view(diff, "old") if m] == []
    assert not is_empty_diff(diff)
    assert render_diff(diff) == (
        "Si un joueur a 0 point de vie {+ou moins+}, il perd la partie. L’équipe gagne."
    )
    assert is_cosmetic("L'équipe  « gagne »", 'L’équipe\n"gagne"')
    assert not is_cosmetic("vie ,", "vie ou moins,")
    assert not is_cosmetic("ou moins perd", "ou moinsperd")


def test_apostrophe_styles_are_the_ones_the_search_folds() -> None:
    # One table of apostrophes for the diff and the search: the full-width apostrophe
    # (U+FF07) of a copied page is the same word in both.
    assert normalize("l'aura") == normalize("l\uff07aura")
    a, b = _rule("Détruisez l'aura ciblée."), _rule("Détruisez l\uff07aura ciblée.")
    diff = diff_rules(a, b)
    assert is_empty_diff(diff)
    assert _sides(diff) == (a.text, b.text)
    assert is_cosmetic("l'aura", "l\uff07aura") and is_cosmetic("qu`il", "qu'il")
    assert [t for t, _ in tokenize("l\uff07aura")] == ["l\uff07", "aura"]
    assert not is_cosmetic("l'aura", "la aura")


def test_each_side_keeps_its_own_spacing(index: RuleIndex, conc: Concordance) -> None:
    # 420.5a « ou moins perd » / 704.5a « ou moins, il perd »: the old side once read
    # « moinsperd », its words spaced as the new text spaces them.
    comparison = compare(conc, "420.5a", "fr-pre2009", "fr-2024")
    old, new = comparison.old.text, comparison.new.text
    assert "ou moins perd" in old and "ou moins, il perd" in new
    assert _sides(comparison.diff) == (old, new)
    assert "".join(t for _, t in side_view(comparison.diff, "old")) == old
    assert "".join(t for _, t in side_view(comparison.diff, "new")) == new
    assert "ou moins{+, il+} perd" in render_diff(comparison.diff)
    # quotation marks: the old text's "…" stay on the old side, « … » on the new one
    comparison = compare(conc, "420.3", "fr-pre2009", "fr-2024")
    assert _sides(comparison.diff) == (comparison.old.text, comparison.new.text)
    old_side = "".join(t for _, t in side_view(comparison.diff, "old"))
    assert '"Chronologie des sorts et des capacités"' in old_side and "«" not in old_side


_WORDS = [
    "le",
    "joueur",
    "l'",
    "L’",
    "équipe",
    "qu'",
    "qu’",
    "il",
    "perd",
    "moins",
    ",",
    ".",
    "«",
    "»",
    '"',
    "(",
    ")",
    "20",
    "704.5j",
    "règle 408",
    "règle 117",
    "règle 314",
    "règle 514",
]
_SPACES = ["", " ", "  ", "\n", "\u00a0", " \n "]


def _text(pieces: list[tuple[str, str]], lead: str) -> str:
    return lead + "".join(word + space for word, space in pieces)


_pieces = st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_SPACES)), max_size=25)


@settings(max_examples=200, deadline=None)
@given(_pieces, _pieces, st.sampled_from(_SPACES), st.sampled_from(_SPACES))
def test_diff_rebuilds_both_texts_exactly(
    index: RuleIndex,
    conc: Concordance,
    pieces_a: list[tuple[str, str]],
    pieces_b: list[tuple[str, str]],
    lead_a: str,
    lead_b: str,
) -> None:
    # An old text of fr-pre2009 against a text of fr-2024: its « règle 408 » is 2024's 117
    # (a renumbered operation when the new text says « règle 117 » there).
    text_a, text_b = _text(pieces_a, lead_a), _text(pieces_b, lead_b)
    a, b = _rule(text_a, "fr-pre2009"), _rule(text_b, "fr-2024")
    diff = diff_rules(a, b, conc)
    # (a text of blanks only is compared as an empty text)
    text_a, text_b = (t if t.strip() else "" for t in (text_a, text_b))
    assert _sides(diff) == (text_a, text_b)
    assert all(part.text for part in diff)
    for side, text in (("old", text_a), ("new", text_b)):
        assert "".join(t for _, t in side_view(diff, side)) == text  # type: ignore[arg-type]
    # the inline view reads as the new text, with the deletions and the old numbers added
    inline = "".join(
        t.partition(RENUMBERED_ARROW)[2] if m == "renumbered" else t
        for m, t in inline_view(diff)
        if m != "delete"
    )
    assert re.sub(r"\s", "", inline) == re.sub(r"\s", "", text_b)


_STYLE = {"l'": "l’", "qu'": "qu’", '"': "«", "«": '"', "»": '"'}


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(_WORDS),
            st.sampled_from(_SPACES[1:]),
            st.sampled_from(_SPACES[1:]),
            st.booleans(),
        ),
        max_size=25,
    )
)
def test_spacing_and_quotation_styles_alone_are_no_change(
    pieces: list[tuple[str, str, str, bool]],
) -> None:
    text_a = "".join(w + sa for w, sa, _, _ in pieces)
    text_b = "".join((_STYLE.get(w, w) if restyle else w) + sb for w, _, sb, restyle in pieces)
    diff = diff_rules(_rule(text_a), _rule(text_b))
    assert _sides(diff) == (text_a, text_b)
    assert is_empty_diff(diff)
    assert [m for side in ("old", "new") for m, _ in side_view(diff, side) if m] == []  # type: ignore[arg-type]
    assert not is_empty_diff(diff_rules(_rule(text_a), _rule(text_b + " perd")))


def test_renumbered_reference_is_not_a_text_change(index: RuleIndex, conc: Concordance) -> None:
    comparison = compare(conc, "420.3", "fr-pre2009", "fr-2024")
    assert comparison.new.number == "704.3"
    renumbered = [p for p in comparison.diff if p.op is DiffOp.RENUMBERED]
    assert [p.text.strip() for p in renumbered] == ["408 → 117", "314 → 514"]
    assert [(p.old, p.new) for p in renumbered] == [("408", "117"), ("314", "514")]
    assert ["renumbered", "408 → 117"] in comparison.to_dict()["diff"]
    changed = " ".join(p.text for p in comparison.diff if p.op in ("insert", "delete"))
    assert not re.search(r"\b(408|117|314|514)\b", changed)
    assert "".join(p.new_text for p in comparison.diff) == comparison.new.text
    assert "".join(p.old_text for p in comparison.diff) == comparison.old.text


def test_summaries_of_known_changes(index: RuleIndex, conc: Concordance) -> None:
    legend = compare(conc, "420.5e", "fr-pre2009", "fr-2024")
    assert legend.new.number == "704.5j"
    assert legend.summary is not None and "choisit un" in legend.summary
    assert "\n" not in legend.summary
    sba = compare(conc, "420.3", "fr-pre2009", "fr-2024").summary
    assert sba is not None and "actions basées sur un état" in sba
    # an old text against itself: nothing changed, nothing to say
    old = index.get("420.5e", "fr-pre2009")
    assert old is not None and summary(old, old) is None


def test_summaries_read_backwards(
    index: RuleIndex, conc: Concordance, capsys: pytest.CaptureFixture[str]
) -> None:
    # From 2024 back to the old text: the legend rule's change, read the other way.
    legend = compare(conc, "704.5j", "fr-2024", "fr-pre2009")
    assert legend.new.number == "420.5e"
    assert legend.summary is not None and "\n" not in legend.summary
    assert "« le contrôleur en choisit un » → « tous »" in legend.summary
    sba = compare(conc, "704.3", "fr-2024", "fr-pre2009").summary
    assert sba is not None and "s'appelaient « effets basés sur un état »" in sba
    # the direction is the editions' order: forwards, the backward reading is never given
    new, old = legend.old, legend.new
    assert summary(new, old, backwards=False) is None
    assert summary(old, new, backwards=True) is None
    assert summary(old, new) == compare(conc, "420.5e", "fr-pre2009", "fr-2024").summary
    assert main(["compare", "704.5j", "--from", "fr-2024", "--to", "fr-pre2009"]) == 0
    out = capsys.readouterr().out
    assert "Résumé : Règle des légendes, en remontant le temps" in out
    assert "aucun changement répertorié" not in out


def test_every_known_change_reads_both_ways() -> None:
    for change in load_curated().changes:
        assert change.summary.strip() and change.reverse.strip(), change.id


# --- compare and its errors ----------------------------------------------------------------


def test_compare_errors_are_french(index: RuleIndex, conc: Concordance) -> None:
    with pytest.raises(RuleMissing, match="n'existe pas dans l'édition fr-2024"):
        compare(conc, "420.5e", "fr-2024", "fr-pre2009")
    with pytest.raises(NoCounterpart, match="pas d'équivalent connu") as exc:
        compare(conc, "111", "fr-2024", "fr-2011")
    assert "« Sorts »" in exc.value.message
    with pytest.raises(NoCounterpart, match="absente du corpus"):
        compare(conc, "118.3", "fr-2011", "fr-2024")


def test_cli_compare_json_self_is_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "704.5j", "--from", "fr-2024", "--to", "fr-2024", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["from"] == data["to"]
    assert {"from", "to", "method", "confidence", "diff", "summary"} <= set(data)
    assert data["diff"] and all(op == "equal" for op, _ in data["diff"])
    assert data["changed"] is False and data["summary"] is None


def test_cli_compare_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "420.5a", "--from", "fr-pre2009", "--to", "fr-2024"]) == 0
    out = capsys.readouterr().out
    assert "fr-pre2009 420.5a" in out and "fr-2024 704.5a" in out
    assert "(curated), confiance 1.00, numéro changé" in out
    assert "[-Un-] {+Si un+} joueur [-avec-] {+a+} 0 [-points-] {+point+} de vie" in out
    # 2024's legend rule is an English paragraph of the French edition: side by side
    assert main(["compare", "420.5e", "--from", "fr-pre2009", "--to", "fr-2024"]) == 0
    out = capsys.readouterr().out
    assert "fr-2024 704.5j" in out and "deux langues (fr / en)" in out
    assert "[-ils sont tous mis dans les cimetières de leurs propriétaires-]" in out
    assert "Résumé : Règle des légendes" in out


def test_cli_compare_says_when_only_spacing_or_quotes_differ() -> None:
    a = _rule('Il perd la partie ("règle des légendes").', "fr-pre2009")
    b = _rule("Il  perd la partie (« règle des légendes »).", "fr-2024")
    diff = tuple(diff_rules(a, b))
    link = Link("fr-pre2009", "100.1", "fr-2024", "100.1", "same_number", 1.0, False)
    text = format_comparison(Comparison(a, b, link, diff, None))
    assert "Différences : aucune dans les mots (espacement, apostrophes ou guillemets" in text
    assert _sides(diff) == (a.text, b.text)


def test_cli_compare_json_renumbered(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "420.3", "--from", "fr-pre2009", "--to", "fr-2024", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["to"]["rule"] == "704.3" and data["method"] == "text"
    assert ["renumbered", "408 → 117"] in data["diff"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["420.5e", "--from", "fr-2024", "--to", "fr-pre2009"], "n'existe pas"),
        (["111", "--from", "fr-2024", "--to", "fr-2011"], "pas d'équivalent connu"),
        (["999.9", "--from", "fr-2011", "--to", "fr-2024"], "n'existe pas"),
    ],
)
def test_cli_compare_missing_exits_1(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", *argv]) == 1
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


# --- for `judge rule` -------------------------------------------------------------------------


def test_counterparts_for_and_references(index: RuleIndex, conc: Concordance) -> None:
    rule = index.get("420.5e", "fr-pre2009")
    assert rule is not None
    links = counterparts_for(conc, rule)
    assert ("fr-2024", "704.5j") in {(x.to_edition, x.to_rule) for x in links}
    old = index.get("420.3", "fr-pre2009")
    assert old is not None
    by_target = {ref.target: ref for ref in old.references}
    assert by_target["314"].status == "missing"
    landed = reference_counterpart(conc, by_target["314"])
    assert landed is not None and (landed.to_edition, landed.to_rule) == ("fr-2024", "514")
    landed = reference_counterpart(conc, by_target["408"])
    assert landed is not None and landed.to_rule == "117"
    life = index.get("118.2", "fr-2011")
    assert life is not None
    ref = next(r for r in life.references if r.target == "119.3")
    landed = reference_counterpart(conc, ref)
    assert landed is not None and landed.to_rule == "120.3" and landed.approximate
    # a reference of the current edition has nothing to add
    today = index.get("704.3", "fr-2024")
    assert today is not None and today.references
    assert reference_counterpart(conc, today.references[0]) is None
    with pytest.raises(NoCounterpart):
        compare(conc, "420.3", "fr-pre2009", "fr-2011")


# --- layering and shared use ------------------------------------------------------------------


def test_the_rules_never_import_the_search() -> None:
    rules = Path(__file__).resolve().parents[2] / "judge" / "rules"
    offenders = []
    for path in sorted(rules.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            offenders += [f"{path.name}: {n}" for n in names if n.startswith("judge.search")]
    assert offenders == []


def test_the_concordance_loads_without_whoosh() -> None:
    code = "import sys, judge.rules.concordance; assert 'whoosh' not in sys.modules, 'whoosh'"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_no_module_level_concordance() -> None:
    assert not hasattr(Concordance, "for_index")


def test_concurrent_readers_compute_a_pair_once(index: RuleIndex) -> None:
    conc = Concordance(index)
    calls: list[tuple[str, str]] = []
    compute = conc._compute

    def counted(a: Edition, b: Edition) -> list[Link]:
        calls.append((a.id, b.id))
        return compute(a, b)

    conc._compute = counted  # type: ignore[method-assign]
    start = threading.Barrier(8)

    def read() -> Link | None:
        start.wait()
        return conc.counterpart("fr-pre2009", "420.5e", "fr-2024")

    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(lambda _: read(), range(8)))
    assert len(set(found)) == 1 and found[0] is not None and found[0].to_rule == "704.5j"
    assert len(calls) == len(set(calls))  # each pair computed once, whoever asked first


def test_method_labels_are_french_and_in_fr() -> None:
    assert set(fr.METHOD) == set(METHODS)
    assert method_label("title") == fr.METHOD["title"] == "titres des sommaires"
    assert method_label("inconnue") == "inconnue"

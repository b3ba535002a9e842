"""The concordance between editions (judge.rules.concordance) and `judge compare`.

The labelled table (concordance_labels.toml) measures the automatic matching; its curated pairs
are pinned separately. Tests naming an English edition use `en_index` (skipped, with a reason,
when ../shared/corpus-en is absent)."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from judge.cli import main
from judge.rules.concordance import (
    CHANGE_OPS,
    METHODS,
    Concordance,
    NoCounterpart,
    RuleMissing,
    compare,
    counterparts_for,
    diff_rules,
    is_empty_diff,
    load_curated,
    normalize_title,
    reference_counterpart,
    summary,
    tokenize,
)
from judge.rules.edition import EditionMeta, build_edition
from judge.rules.index import RuleIndex
from judge.rules.model import Paragraph, ParsedDocument, RawRule, Rule, Source, SourceFile
from judge.rules.numbers import kind_of

LABELS = Path(__file__).with_name("concordance_labels.toml")
EN_2008, EN_2011 = "en-2008-07-15", "en-2011-09-30"
TARGET = 0.95


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


def test_sections_matched_by_titles_ignore_accents_and_case(index: RuleIndex) -> None:
    assert normalize_title("Points de Vie") == normalize_title("points de vie")
    assert normalize_title("Symbole de l'extension") != normalize_title("Symbole d’extension")
    conc = Concordance.for_index(index)
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


def test_composed_and_approximate_links(index: RuleIndex) -> None:
    conc = Concordance.for_index(index)
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


# --- with the English editions -----------------------------------------------------------------


def test_old_french_and_2008_english_match_where_the_text_matches(en_index: RuleIndex) -> None:
    conc = Concordance.for_index(en_index)
    assert conc.is_translation_pair("fr-pre2009", EN_2008)
    assert conc.is_translation_pair("fr-2011", EN_2011)
    assert not conc.is_translation_pair("fr-2024", EN_2011)
    old_fr = en_index.edition("fr-pre2009")
    letters = [
        n
        for n in en_index.edition(EN_2008).rules
        if n.startswith("420.5") and kind_of(n) == "subrule"
    ]
    assert len(letters) > 11  # the 2008 list is longer (planeswalkers, counters)
    for number in letters:
        link = conc.counterpart(EN_2008, number, "fr-pre2009", approximate=False)
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


def test_2008_to_2011_across_the_renumbering(en_index: RuleIndex) -> None:
    conc = Concordance.for_index(en_index)
    link = conc.counterpart(EN_2008, "420.4", EN_2011)
    assert link is not None and (link.to_rule, link.method, link.moved) == ("704.4", "text", True)
    link = conc.counterpart(EN_2008, "408.2d", EN_2011)
    assert link is not None and link.to_rule == "115.2a"
    comparison = compare(en_index, "408.1g", EN_2008, EN_2011)
    assert comparison.new.number == "510.2"
    assert comparison.summary is not None and "pile" in comparison.summary


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


def test_diff_of_identical_rules_is_empty(index: RuleIndex) -> None:
    rule = index.get("704.5j", "fr-2024")
    assert rule is not None
    diff = diff_rules(rule, rule, Concordance.for_index(index))
    assert diff == [("equal", rule.text)]
    assert is_empty_diff(diff)
    assert summary(rule, rule) is None


def test_diff_marks_words_and_ignores_apostrophe_style() -> None:
    a = _rule("Si un joueur a 0 point de vie, il perd la partie. L'équipe gagne.")
    b = _rule("Si un joueur a 0 point de vie ou moins, il perd la partie. L’équipe gagne.")
    diff = diff_rules(a, b)
    assert [d for d in diff if d[0] in CHANGE_OPS] == [("insert", "ou moins")]
    assert "".join(t for op, t in diff if op != "delete") == b.text


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "le",
                "joueur",
                "l'",
                "aura",
                ",",
                ".",
                "«",
                "»",
                "qu'",
                "il",
                "perd",
                "20",
                "règle",
                "704.5j",
            ]
        ),
        max_size=25,
    ),
    st.lists(
        st.sampled_from(
            ["la", "créature", "d'", "une", ";", "(", ")", "il", "perd", "20", "règle", "117"]
        ),
        max_size=25,
    ),
)
def test_diff_rebuilds_both_texts(words_a: list[str], words_b: list[str]) -> None:
    text_a, text_b = " ".join(words_a), " ".join(words_b)
    diff = diff_rules(_rule(text_a), _rule(text_b))
    assert "".join(t for op, t in diff if op in ("equal", "insert")) == text_b
    old = "".join(t for op, t in diff if op in ("equal", "delete"))
    assert old.split() == text_a.split() or re.sub(r"\s", "", old) == re.sub(r"\s", "", text_a)


def test_renumbered_reference_is_not_a_text_change(index: RuleIndex) -> None:
    comparison = compare(index, "420.3", "fr-pre2009", "fr-2024")
    assert comparison.new.number == "704.3"
    renumbered = [t.strip() for op, t in comparison.diff if op == "renumbered"]
    assert renumbered == ["408 → 117", "314 → 514"]
    changed = " ".join(t for op, t in comparison.diff if op in ("insert", "delete"))
    assert not re.search(r"\b(408|117|314|514)\b", changed)
    assert (
        "".join(
            t.split(" → ")[1] if op == "renumbered" else t
            for op, t in comparison.diff
            if op != "delete"
        )
        == comparison.new.text
    )


def test_summaries_of_known_changes(index: RuleIndex) -> None:
    legend = compare(index, "420.5e", "fr-pre2009", "fr-2024")
    assert legend.new.number == "704.5j"
    assert legend.summary is not None and "choisit un" in legend.summary
    assert "\n" not in legend.summary
    sba = compare(index, "420.3", "fr-pre2009", "fr-2024").summary
    assert sba is not None and "actions basées sur un état" in sba
    # an old text against itself: nothing changed, nothing to say
    old = index.get("420.5e", "fr-pre2009")
    assert old is not None and summary(old, old) is None


# --- compare and its errors ----------------------------------------------------------------


def test_compare_errors_are_french(index: RuleIndex) -> None:
    with pytest.raises(RuleMissing, match="n'existe pas dans l'édition fr-2024"):
        compare(index, "420.5e", "fr-2024", "fr-pre2009")
    with pytest.raises(NoCounterpart, match="pas d'équivalent connu") as exc:
        compare(index, "111", "fr-2024", "fr-2011")
    assert "« Sorts »" in exc.value.message
    with pytest.raises(NoCounterpart, match="absente du corpus"):
        compare(index, "118.3", "fr-2011", "fr-2024")


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


def test_counterparts_for_and_references(index: RuleIndex) -> None:
    rule = index.get("420.5e", "fr-pre2009")
    assert rule is not None
    links = counterparts_for(index, rule)
    assert ("fr-2024", "704.5j") in {(x.to_edition, x.to_rule) for x in links}
    old = index.get("420.3", "fr-pre2009")
    assert old is not None
    by_target = {ref.target: ref for ref in old.references}
    assert by_target["314"].status == "missing"
    landed = reference_counterpart(index, by_target["314"])
    assert landed is not None and (landed.to_edition, landed.to_rule) == ("fr-2024", "514")
    landed = reference_counterpart(index, by_target["408"])
    assert landed is not None and landed.to_rule == "117"
    life = index.get("118.2", "fr-2011")
    assert life is not None
    ref = next(r for r in life.references if r.target == "119.3")
    landed = reference_counterpart(index, ref)
    assert landed is not None and landed.to_rule == "120.3" and landed.approximate
    # a reference of the current edition has nothing to add
    today = index.get("704.3", "fr-2024")
    assert today is not None and today.references
    assert reference_counterpart(index, today.references[0]) is None
    with pytest.raises(NoCounterpart):
        compare(index, "420.3", "fr-pre2009", "fr-2011")

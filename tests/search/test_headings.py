"""Headings are first-class (issue 14, item 1): `702.2. Deathtouch` is the title of 702.2;
an exact title match, directly or through the glossary, puts that rule first with its
sub-rules folded into it; rules known only by their title never outrank a rule with text."""

from __future__ import annotations

from judge.rules.index import RuleIndex
from judge.rules.model import Paragraph, Rule, Source
from judge.search.index import has_heading_paragraph, heading_of, iter_documents, section_titles
from judge.search.query import Searcher


def _rule(number: str, text: str, children: tuple[str, ...] = ("x",), title: str | None = None):
    para = Paragraph(text, "en", Source("f", 1))
    return Rule("e", number, "rule", title, (para,), None, children, None)


def test_a_name_only_first_paragraph_is_the_title() -> None:
    assert heading_of(_rule("702.2", "Deathtouch")) == "Deathtouch"
    assert heading_of(_rule("701.17", "Tap and Untap")) == "Tap and Untap"
    # a sentence, a rule without sub-rules, a lower-case start: paragraphs, not headings
    assert heading_of(_rule("702.1", "Most abilities describe exactly what they do.")) is None
    assert heading_of(_rule("702.2", "Deathtouch", children=())) is None
    assert heading_of(_rule("702.2", "deathtouch")) is None
    assert heading_of(_rule("704", "x", title="State-Based Actions")) == "State-Based Actions"


def test_headings_are_indexed_as_titles(en_index: RuleIndex) -> None:
    rule = en_index.get("702.2", "en-2011-09-30")
    assert rule is not None and has_heading_paragraph(rule)
    docs = [d for d in iter_documents(en_index) if d.edition == "en-2011-09-30"]
    own = [d for d in docs if d.rule == "702.2"]
    assert [(d.kind, d.body) for d in own] == [("title", "Deathtouch")]
    child = en_index.get("702.2b", "en-2011-09-30")
    assert child is not None and section_titles(en_index, child)[-1] == "Deathtouch"


def test_an_exact_title_puts_its_rule_first_with_its_sub_rules(en_searcher: Searcher) -> None:
    for query in ("deathtouch", "Deathtouch", "contact mortel"):  # directly and translated
        hits = en_searcher.search(query, limit=20).hits
        assert (hits[0].edition, hits[0].rule) == ("en-2011-09-30", "702.2"), query
        assert hits[0].title == "Deathtouch"
        # 702.2a … 702.2f are folded into 702.2, not listed beside it
        assert not [
            h
            for h in hits
            if h.edition == "en-2011-09-30"
            and h.rule.startswith("702.2")
            and h.rule != "702.2"
            and h.rule[5:6].isalpha()
        ], query
    first = en_searcher.search("state-based actions").hits[0]
    assert (first.edition, first.rule) == ("en-2011-09-30", "704")


def test_a_zone_named_as_the_rules_name_it_is_its_section(en_searcher: Searcher) -> None:
    # « zone d'exil » / "exile zone" (406.1 in both languages) name the section 406, Exile
    for query in ("zone d exil", "zone d'exil", "la zone d'exil", "exile zone"):
        first = en_searcher.search(query).hits[0]
        assert (first.rule, first.title) == ("406", "Exile"), query


def test_title_only_rules_come_after_rules_with_text(en_searcher: Searcher) -> None:
    for query in ("timing et priorité", "zone de commandement", "étape de nettoyage", "pile"):
        hits = en_searcher.search(query, limit=30).hits
        text = [
            not getattr(en_searcher.index.get(h.rule, h.edition), "title_only", False)
            or any(not getattr(en_searcher.index.get(r, e), "title_only", True) for e, r in h.also)
            for h in hits
            if h.kind == "text"
        ]
        assert text == sorted(text, reverse=True), query


def test_a_title_only_copy_points_to_the_edition_with_the_text(en_searcher: Searcher) -> None:
    first = en_searcher.search("timing et priorité").hits[0]
    assert (first.edition, first.rule) == ("en-2011-09-30", "116")
    assert ("fr-2011", "116") in first.also
    rule = en_searcher.index.get("116", "fr-2011")
    assert rule is not None and rule.title_only

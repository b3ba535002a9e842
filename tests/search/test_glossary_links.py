"""A glossary entry the query names points to where the answer is (« Copy: See rule 706 »)."""

from __future__ import annotations

import pytest

from judge.rules.index import RuleIndex
from judge.search import analysis
from judge.search import query as query_module
from judge.search.index import glossary_links
from judge.search.query import Searcher
from tests.search.relevance import hit_keys


def _links(index: RuleIndex, edition: str) -> set[tuple[str, frozenset[str], tuple[str, ...]]]:
    """An edition's links, as (language, heading terms, targets)."""
    out = set()
    for line in glossary_links(index.edition(edition)).splitlines():
        lang, heading, targets = line.split("\t")
        out.add((lang, frozenset(heading.split()), tuple(targets.split())))
    return out


def _by_heading(index: RuleIndex, edition: str) -> dict[frozenset[str], tuple[str, ...]]:
    return {h: t for _, h, t in _links(index, edition)}


def _heading(term: str) -> frozenset[str]:
    return frozenset(analysis.terms(term, "en"))


def test_an_entry_that_cites_rules_links_to_them(en_index: RuleIndex) -> None:
    links = _by_heading(en_index, "en-2011-09-30")
    assert links[_heading("Copy")] == ("706",)
    assert links[_heading("Loyalty Ability")] == ("606",)
    assert links[_heading("Draw")] == ("120", "104.4")
    old = _by_heading(en_index, "en-2008-07-15")
    assert old[_heading("Copy")] == ("503",)


def test_an_entry_that_sends_to_another_points_where_that_one_does(en_index: RuleIndex) -> None:
    # « Swampwalk: See Landwalk. » cites no rule itself
    links = _by_heading(en_index, "en-2011-09-30")
    assert links[_heading("Swampwalk")] == links[_heading("Landwalk")]
    assert links[_heading("Landwalk")]


def test_the_view_keeps_each_editions_links(en_index: RuleIndex, en_searcher: Searcher) -> None:
    links = en_searcher._opened.glossary_links()
    for edition in ("en-2011-09-30", "en-2008-07-15"):
        expected = _links(en_index, edition)
        held = {(k.language, k.heading, k.targets) for k in links.links if edition in k.editions}
        assert held == expected
        assert len(expected) > 250
    # a link both editions have is held once
    both = _links(en_index, "en-2011-09-30") | _links(en_index, "en-2008-07-15")
    assert len(links.links) == len(both)
    assert not any("fr-2024" in k.editions for k in links.links)  # no French glossary


def test_a_link_is_found_by_its_whole_heading(en_searcher: Searcher) -> None:
    links = en_searcher._opened.glossary_links()
    loyalty = _heading("Loyalty Ability")
    found = links.named("en", set(loyalty) | {"twice"})
    assert any(k.heading == loyalty and k.targets == ("606",) for k in found)
    assert all(k.heading <= set(loyalty) | {"twice"} for k in found)
    assert not any(k.heading == loyalty for k in links.named("en", {next(iter(loyalty))}))
    assert not links.named("fr", set(loyalty))


def _top(searcher: Searcher, text: str, n: int = 3) -> list[str]:
    return hit_keys(searcher.search(text, limit=10).hits)[:n]


def test_a_question_naming_an_entry_is_asked_where_it_points(
    en_searcher: Searcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "Block" : See rule 509 ; the declare-blockers rule says a tapped creature can't block
    question = "can a tapped creature block"
    assert _top(en_searcher, question, 1) == ["en-2011-09-30/509.1a"]
    monkeypatch.setattr(query_module, "LINK", 0.0)
    assert _top(en_searcher, question, 1) != ["en-2011-09-30/509.1a"]


def test_an_english_entry_does_not_reorder_a_french_question(
    en_searcher: Searcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    # read across languages, « main » (Hand: See rule 402) lifted the English rules over
    # the French text of the shipped editions (French queries lost 0.011 MRR over 26
    # editions): a French question is ranked as without links
    questions = [
        "je peux compter combien de cartes mon adversaire a en main ?",
        "les blessures sur ma creature restent jusqu'au tour suivant ?",
    ]
    linked = [_top(en_searcher, q, 10) for q in questions]
    monkeypatch.setattr(query_module, "LINK", 0.0)
    assert linked == [_top(en_searcher, q, 10) for q in questions]

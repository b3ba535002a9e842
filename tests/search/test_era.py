"""A question that says which rules it asks about (« avant 2009 », « en 2011 », « les
anciennes règles », "today"): the copies of those editions lead, and its words are not
searched for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from judge import session
from judge.rules.index import RuleIndex
from judge.search import query as q
from judge.search.era import Era, read_era
from judge.search.query import Searcher

CASES = [
    # (question, the era read, the words that say it)
    ("avant 2009, la règle des légendes", Era(before=2009), ["avant 2009"]),
    ("pré-2009 la pile", Era(before=2009), ["pré-2009"]),
    ("before 2009, toughness 0", Era(before=2009), ["before 2009"]),
    ("en 2011 les points de vie", Era(year=2011), ["en 2011"]),
    ("selon les règles de 2011, la pile", Era(year=2011), ["règles de 2011"]),
    ("in 2008, could I respond", Era(year=2008), ["in 2008"]),
    # a year beside « anciennes règles » is the more precise
    ("les anciennes règles de 2008", Era(year=2008), ["anciennes règles", "règles de 2008"]),
    ("dans les anciennes Règles, la pile", Era(), ["anciennes Règles"]),
    ("dans les vielles regles je pouvais", Era(), ["vielles regles"]),
    ("à l'époque on pouvait", Era(), ["à l'époque"]),
    ("under the old rules, mana burn", Era(), ["old rules"]),
    ("avec les règles actuelles, la légende", Era(now=True), ["règles actuelles"]),
    ("today, what does the legend rule do", Era(now=True), ["today"]),
]


@pytest.mark.parametrize(("text", "era", "said"), CASES)
def test_the_time_a_question_asks_about(text: str, era: Era, said: list[str]) -> None:
    found, spans = read_era(text)
    assert found == era
    assert [text[a:b] for a, b in spans] == said


@pytest.mark.parametrize(
    "text",
    [
        "la règle des légendes",
        "avant 2009 et aujourd'hui, la règle des légendes",  # two times compared: neither
        "en 2011 et avant 2009",
        "blessures de combat en premier",
        "avant de bloquer",
        # said of the game, not of the rules
        "la créature est maintenant un artefact, reste-t-elle attachée ?",
        "an object that is currently face down",
        "une carte de 2015 avec le vol",
        "qu'est-ce qui a changé de 2009 à 2010",
        "depuis l'édition de 2009, la règle des légendes",  # since: every edition after
        "jusqu'en 2009, la règle des légendes",  # 2009 itself, or not?
        # old, but not the rules
        "the previous rule about legends",
        "older versions of a card",
        "earlier rules in the layer system",
        "les anciennes éditions des cartes",
        "a total of 2000 life",
    ],
)
def test_no_time_or_two(text: str) -> None:
    assert read_era(text)[0] is None


def test_the_editions_of_each_time(index: RuleIndex, en_index: RuleIndex) -> None:
    def of(era: Era, idx: RuleIndex) -> set[str]:
        return set(era.editions(idx.editions))

    assert of(Era(before=2009), index) == {"fr-pre2009"}
    assert of(Era(before=2009), en_index) == {"fr-pre2009", "en-2008-07-15"}
    assert of(Era(year=2011), en_index) == {"fr-2011", "en-2011-09-30"}
    # a year no edition is from: in each language, the newest before it (in force then)
    assert of(Era(year=2010), en_index) == {"en-2008-07-15", "fr-pre2009"}
    assert of(Era(year=2012), en_index) == {"en-2011-09-30", "fr-2011"}
    assert of(Era(year=2001), en_index) == set()
    assert of(Era(now=True), en_index) == {"fr-2024", "en-2011-09-30"}
    assert of(Era(), en_index) == {"fr-2011", "fr-pre2009", "en-2008-07-15"}


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Searcher]:
    """The shipped corpus as `judge search` reads it (copies grouped by the concordance)."""
    with session.open_judge(tmp_path_factory.mktemp("era")) as judge:
        yield judge.searcher()


def test_the_old_copy_leads_when_old_rules_are_asked(shipped: Searcher) -> None:
    plain = shipped.search("si deux légendes du même nom sont en jeu, la règle des légendes")
    first = plain.hits[0]
    assert (first.edition, first.rule) == ("fr-2024", "704.5j")
    assert ("fr-pre2009", "420.5e") in first.also
    for cue in ("avant 2009", "dans les anciennes règles", "à l'époque"):
        old = shipped.search(f"{cue}, si deux légendes du même nom sont en jeu")
        lead = old.hits[0]
        assert (lead.edition, lead.rule) == ("fr-pre2009", "420.5e"), cue
        assert ("fr-2024", "704.5j") in lead.also, cue
        assert old.message is not None and "fr-pre2009" in old.message, cue
    # « 2009 » is when, not what: it is not reported missing from the rules
    said = shipped.search("avant 2009, si deux légendes du même nom sont en jeu").message
    assert said == "Règles d'avant 2009 demandées : fr-pre2009 en premier."


def test_two_times_are_neither_searched_nor_corrected(en_home: Path) -> None:
    """Compared, two times choose no era; their words are still no typos."""
    with session.open_judge(en_home) as judge:
        result = judge.searcher().search("before 2009 and today, the legend rule")
    assert result.corrected is None
    assert result.message is None or "demandées" not in result.message


def test_today_leads_and_is_no_typo(en_home: Path) -> None:
    with session.open_judge(en_home) as judge:
        searcher = judge.searcher()
        result = searcher.search("today, what does the legend rule do")
        assert result.corrected is None  # not "day"
        first = result.hits[0]
        assert (first.edition, first.rule) == ("en-2011-09-30", "704.5k")
        old = searcher.search("in 2008, what does the legend rule do").hits[0]
        assert (old.edition, old.rule) == ("en-2008-07-15", "420.5e")
        assert ("en-2011-09-30", "704.5k") in old.also


def test_the_paragraphs_of_that_time_weigh_more(searcher: Searcher) -> None:
    """Without copies grouped, the paragraphs of the editions asked for rise
    (`ERA_LEAD`): 420.5c (pre-2009) passes 704.5f."""

    def firsts(text: str) -> list[tuple[str, str]]:
        return [(h.edition, h.rule) for h in searcher.search(text, limit=3).hits]

    assert firsts("toughness 0 creature graveyard")[1] == ("fr-2024", "704.5f")
    assert firsts("before 2009, toughness 0 creature graveyard")[:2] == [
        ("fr-pre2009", "420.5b"),
        ("fr-pre2009", "420.5c"),
    ]
    assert q.ERA_LEAD > 1.0

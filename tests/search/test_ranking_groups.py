"""Grouping on arrays against grouping in Python.

Without an exact heading, the best paragraphs are grouped into rules, and the rules into
copies, on numpy arrays (`Searcher._rule_table`, `Searcher._merge_table`). The plain
grouping below, one paragraph at a time in dictionaries, hands its rules to the Python
merge (the one exact headings take): the hits must be the same, leads, `also` and scores
included, over the shipped corpus with both English editions (copies in two numberings,
two languages), with filters and with old wording (the best-matching copy leads)."""

from __future__ import annotations

import pytest

from judge.search import query as q
from judge.search.query import Searcher

QUERIES = [
    ("mis au cimetière", None, None),
    ("dégâts de combat infligés par une créature", None, None),
    ("blocage multiple dégâts", None, None),
    ("the stack resolves", None, None),
    ("player loses the game", None, None),
    ("legend rule", None, None),
    ("sacrifier une créature en réponse", None, None),
    ("jeton copie", None, "fr"),
    ("deathtouch damage", None, "en"),
    ("priorité pile", ["en-2011-09-30"], None),
    ("mana burn", None, None),  # old wording
    ("phase de combat attaquant", ["en-2008-07-15", "fr-2024"], None),
]


def plain_rules(self: Searcher, weighted: list[tuple[float, int]]) -> list[q._Ranked]:
    """One rule per (edition, rule): its best paragraph plus a tenth of the next two."""
    groups: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for score, d in weighted:
        info = self._docs[d]
        groups.setdefault((info.edition, info.rule), []).append((score, d))
    rules = []
    for (edition, rule), group in groups.items():
        best, best_doc = group[0]
        score = best + 0.1 * sum(sc for sc, _ in group[1:3])
        has_text = not all(self._title_only[d] for _, d in group)
        rules.append(q._Ranked(score, edition, rule, self._docs[best_doc], False, has_text))
    return rules


@pytest.mark.parametrize(("text", "editions", "language"), QUERIES)
def test_grouping_on_arrays_is_the_plain_grouping(
    en_searcher: Searcher,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    editions: list[str] | None,
    language: str | None,
) -> None:
    tables = []
    rule_table = Searcher._rule_table

    def counted(self: Searcher, weighted: list[tuple[float, int]]) -> q._RuleTable:
        tables.append(len(weighted))
        return rule_table(self, weighted)

    monkeypatch.setattr(Searcher, "_rule_table", counted)
    fast = en_searcher.search(text, editions=editions, language=language, limit=20)
    monkeypatch.setattr(Searcher, "_rule_table", plain_rules)
    plain = en_searcher.search(text, editions=editions, language=language, limit=20)
    assert fast.hits, text
    assert tables, f"{text}: the arrays were not used"
    assert fast == plain, text


def test_the_queries_meet_copies_and_old_wording(en_searcher: Searcher) -> None:
    """What the comparison above goes through: hits with copies folded in, and a query
    in old wording."""
    folded = [h for t, e, lang in QUERIES for h in en_searcher.search(t, e, lang).hits if h.also]
    assert len(folded) >= 5
    assert any(c.old for c in en_searcher._concepts("mana burn", q._words("mana burn"))[0])

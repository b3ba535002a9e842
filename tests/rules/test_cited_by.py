"""« Cité par »: the rules that cite a rule are rules of the same edition, each of which really
cites it, each named once; none is missing. Checked over the shipped corpus (exact counts) and
over the shipped corpus plus both English editions, where the same numbers exist in several
editions (704 is in fr-2024, fr-2011 and en-2011-09-30)."""

from __future__ import annotations

from judge import Judge
from judge.rules.index import Citer, RuleIndex

# Every (edition, cited rule) -> its citers in the shipped corpus, in document order.
SHIPPED_CITED_BY = {
    ("fr-2024", "117"): ["704.3"],
    ("fr-2024", "301.5a"): ["301.6"],
    ("fr-2024", "301.5b"): ["301.6"],
    ("fr-2024", "301.5c"): ["301.6"],
    ("fr-2024", "301.5d"): ["301.6"],
    ("fr-2024", "301.5e"): ["301.6"],
    ("fr-2024", "301.5f"): ["301.6"],
    ("fr-2024", "309"): ["704.5t"],
    ("fr-2024", "310"): ["704.5w", "704.5x"],
    ("fr-2024", "514"): ["704.3"],
    ("fr-2024", "601"): ["301.1"],
    ("fr-2024", "603"): ["704.1a"],
    ("fr-2024", "704"): ["301.5c"],
    ("fr-2024", "704.5a"): ["704.7"],
    ("fr-2024", "704.5b"): ["704.7"],
    ("fr-2024", "704.6b"): ["704.5c"],
    ("fr-2024", "714"): ["704.5s"],
    ("fr-2024", "810"): ["704.6a", "704.6b"],
    ("fr-2024", "901"): ["704.6f"],
    ("fr-2024", "903"): ["704.6c", "704.6d"],
    ("fr-2024", "904"): ["704.6e"],
    ("fr-2011", "704"): ["118.6"],
    ("fr-2011", "810"): ["118.1a"],
    ("fr-2011", "902"): ["118.1b"],
    ("fr-2011", "903"): ["118.1c"],
    ("fr-2011", "904"): ["118.1d"],
    ("fr-pre2009", "310"): ["408.1g"],
    ("fr-pre2009", "405"): ["408.1h"],
    ("fr-pre2009", "408"): ["420.3"],
    ("fr-pre2009", "410"): ["408.1b", "408.1f"],
    ("fr-pre2009", "418"): ["408.1h"],
    ("fr-pre2009", "419"): ["408.1h"],
    ("fr-pre2009", "420"): ["408.1b"],
}


def _all_cited_by(index: RuleIndex) -> dict[tuple[str, str], list[Citer]]:
    out: dict[tuple[str, str], list[Citer]] = {}
    for ed in index.editions:
        for rule in ed.rules.values():
            citers = index.cited_by(rule)
            if citers:
                out[(ed.id, rule.number)] = citers
    return out


def _expected_citers(index: RuleIndex) -> dict[tuple[str, str], set[str]]:
    """Computed from the references themselves, one edition at a time."""
    out: dict[tuple[str, str], set[str]] = {}
    for ed in index.editions:
        for rule in ed.rules.values():
            for ref in rule.references:
                if ref.target in ed.rules:
                    out.setdefault((ed.id, ref.target), set()).add(rule.number)
    return out


def _check_every_citer(index: RuleIndex) -> int:
    """Each citer is of the rule's edition, exists there and cites the rule; none twice."""
    total = 0
    for ed in index.editions:
        for rule in ed.rules.values():
            citers = index.cited_by(rule)
            total += len(citers)
            assert len(set(citers)) == len(citers), (ed.id, rule.number, citers)
            for citer in citers:
                assert citer.edition == ed.id, (ed.id, rule.number, citer)
                source = ed.rules.get(citer.rule)
                assert source is not None, (ed.id, rule.number, citer)
                targets = {ref.target for ref in source.references}
                assert rule.number in targets, (ed.id, rule.number, citer, sorted(targets))
    return total


def test_shipped_corpus_exact_citers(index: RuleIndex) -> None:
    got = {
        key: [c.rule for c in citers if c.edition == key[0]]
        for key, citers in _all_cited_by(index).items()
    }
    assert got == SHIPPED_CITED_BY
    assert all(c.edition == key[0] for key, cs in _all_cited_by(index).items() for c in cs)
    assert _check_every_citer(index) == 37


def test_shipped_number_in_several_editions_keeps_its_own_citers(index: RuleIndex) -> None:
    # 704 is cited in fr-2024 (by 301.5c) and in fr-2011 (by 118.6): never mixed.
    j = Judge(index)
    assert j.rule("704", "fr-2024").to_dict()["cited_by"] == [
        {"rule": "301.5c", "edition": "fr-2024"}
    ]
    assert j.rule("704", "fr-2011").to_dict()["cited_by"] == [
        {"rule": "118.6", "edition": "fr-2011"}
    ]
    assert list(j.rule("810", "fr-2011").cited_by) == [Citer("118.1a", "fr-2011")]


def test_english_editions_every_citer_is_in_the_rules_edition(en_index: RuleIndex) -> None:
    total = _check_every_citer(en_index)
    expected = _expected_citers(en_index)
    got = {key: {c.rule for c in citers} for key, citers in _all_cited_by(en_index).items()}
    assert got == expected
    assert total == sum(len(v) for v in expected.values())
    # The English editions add their own citers; the French ones keep theirs exactly.
    french = {k: v for k, v in got.items() if k[0].startswith("fr-")}
    assert french == {k: set(v) for k, v in SHIPPED_CITED_BY.items()}
    assert {ed.id for ed in en_index.editions} >= {"en-2011-09-30", "en-2008-07-15"}


def test_english_editions_a_shared_number(en_index: RuleIndex) -> None:
    # 704 exists in fr-2024, fr-2011 and en-2011-09-30: each has its own citers.
    for edition in ("fr-2024", "fr-2011", "en-2011-09-30"):
        rule = en_index.edition(edition).rules["704"]
        citers = en_index.cited_by(rule)
        assert citers, edition
        assert {c.edition for c in citers} == {edition}

from __future__ import annotations

import pytest

from judge.rules.index import RuleIndex
from judge.rules.references import find_citations


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("(Il s'agit d'une action basée sur un état. cf. règle 704.)", ["704"]),
        (
            '(Voir règles 405, "Capacités statiques", 418, "Effets continus" et 419, "x")',
            ["405", "418", "419"],
        ),
        ("(cf. règle 117, « Timing et priorité »)", ["117"]),
        ("jouer une terrain (voir règle 408.2d), retourner", ["408.2d"]),
        ("perd autant de points de vie. Cf. règle 119.3. 118.3 Si un effet", ["119.3"]),
        ('See rule 714, "Saga Cards."', ["714"]),
        ('See rule 702.158, "Space Sculptor."', ["702.158"]),
        ("as described in rules 601.2 and 601.3.", ["601.2", "601.3"]),
        ("See rules 103.2a–e.", ["103.2a", "103.2b", "103.2c", "103.2d", "103.2e"]),
        ("(see rules 119.7–8)", ["119.7", "119.8"]),
        ("Rules 301.5a-f apply", [f"301.5{c}" for c in "abcdef"]),
        ('See section 6, "Spells, Abilities, and Effects."', ["6"]),
        ("les règles 704.5a et 704.5b.", ["704.5a", "704.5b"]),
        ("subrule 704.5k is followed by 704.5m", []),
        ("indiqué par les règles. 408.1b Les sorts", []),
        ("Voyez la règle 704.6b à la place.", ["704.6b"]),
        ("les règles 704.5a à 704.5c", ["704.5a", "704.5b", "704.5c"]),
        ("rules 500.1 through 500.3 apply", ["500.1", "500.2", "500.3"]),
        (
            "(see rule 104.3a), rules 104.3b, 104.3c, and 104.3d",
            ["104.3a", "104.3b", "104.3c", "104.3d"],
        ),
    ],
)
def test_citation_forms(text: str, targets: list[str]) -> None:
    found = [t for c in find_citations(text) for t in c.targets]
    assert found == targets


def test_citation_keeps_written_titles() -> None:
    (cit,) = find_citations('voir règle 420, "Effets basés sur un état")')
    assert cit.titles == (("420", "Effets basés sur un état"),)
    assert cit.raw == 'voir règle 420, "Effets basés sur un état"'


def _ref(index: RuleIndex, edition: str, rule: str, target: str) -> tuple[str, str | None]:
    refs = [r for r in index.lookup(rule, edition).references if r.target == target]
    assert refs, f"{rule} ne cite pas {target}"
    return refs[0].status, refs[0].title


def test_resolution_statuses_inside_their_edition(index: RuleIndex) -> None:
    # Resolved: the cited text is in the corpus.
    assert _ref(index, "fr-2024", "704.5c", "704.6b") == ("resolved", "Actions basées sur un état")
    # Title only: 117 has no text but a title from the contents.
    assert _ref(index, "fr-2024", "704.3", "117") == ("title_only", "Timing et priorité")
    # Missing: 702.158 is in no document; its section title is still given.
    assert _ref(index, "fr-2024", "704.5u", "702.158") == ("missing", "Capacités mot-clé")
    # 119.3 in 2011 is damage (section 119 "Blessures"), not life as today.
    assert _ref(index, "fr-2011", "118.2", "119.3") == ("missing", "Blessures")
    # The old text names sections only in citations: their titles come from there.
    assert _ref(index, "fr-pre2009", "408.1b", "410") == (
        "title_only",
        "Gérer les capacités déclenchées",
    )
    assert _ref(index, "fr-pre2009", "420.3", "314") == ("missing", None)
    assert index.lookup("420", "fr-pre2009").title == "Effets basés sur un état"


def test_backlinks(index: RuleIndex) -> None:
    cited = [c.rule for c in index.cited_by(index.lookup("704.5a", "fr-2024"))]
    assert cited == ["704.7"]
    assert [c.rule for c in index.cited_by(index.lookup("117", "fr-2024"))] == ["704.3"]
    assert [c.rule for c in index.cited_by(index.lookup("408", "fr-pre2009"))] == ["420.3"]

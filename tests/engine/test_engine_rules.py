"""Every rule number the engine cites exists in its edition of the rule index, with text:
an edition's wording and its engine cannot drift apart."""

from __future__ import annotations

import pytest

from judge.engine import RULESETS, current, pre2009
from judge.engine.explain import index_rule_text
from judge.rules.index import RuleIndex


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_cited_rule_exists_with_text(index: RuleIndex, ruleset: str) -> None:
    rs = RULESETS[ruleset]
    for number in rs.cited_rules:
        rule = index.get(number, rs.edition)
        assert rule is not None, f"{number} absente de l'édition {rs.edition}"
        assert rule.text.strip(), f"{number} sans texte dans l'édition {rs.edition}"


def test_the_loop_rules_are_cited(index: RuleIndex) -> None:
    for rs in RULESETS.values():
        for number in (rs.loop_rule, rs.same_result_rule, rs.lki_rule):
            assert number in rs.cited_rules
    assert index.get("704.7", "fr-2024").examples  # type: ignore[union-attr]
    assert "Miroir de la liche" in index.get("704.7", "fr-2024").examples[0]  # type: ignore[union-attr]
    assert "Louveteau" in index.get("704.8", "fr-2024").examples[0]  # type: ignore[union-attr]


def test_the_quotes_are_the_editions_own_words(index: RuleIndex) -> None:
    now = index_rule_text(index, "fr-2024")
    old = index_rule_text(index, "fr-pre2009")
    assert "contact mortel" in (now("704.5h") or "")
    assert "légendaire" in (old("420.5e") or "")
    assert "enchantement local" in (old("420.5d") or "")
    assert now("420.5e") is None  # no such number in the current edition
    assert old("704.5j") is None


def test_registry_rules_match_their_text(index: RuleIndex) -> None:
    # a few anchors tying each function to the wording of its rule
    anchors = {
        ("fr-2024", "704.5f"): "endurance inférieure ou égale à 0",
        ("fr-2024", "704.5g"): "blessures mortelles",
        ("fr-2024", "704.5q"): "+1/+1",
        ("fr-2024", "704.6c"): "21 blessures de combat",
        ("fr-pre2009", "420.5b"): "endurance de 0 ou moins",
        ("fr-pre2009", "420.5k"): "équipement",
    }
    for (edition, number), words in anchors.items():
        rule = index.get(number, edition)
        assert rule is not None and words in rule.text
    assert {c.rule for c in current.REGISTRY} <= set(RULESETS["fr-2024"].cited_rules)
    assert {c.rule for c in pre2009.REGISTRY} <= set(RULESETS["fr-pre2009"].cited_rules)

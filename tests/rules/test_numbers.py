"""Rule numbers: the parent an edition files a rule under is found from its numbers alone
(`nearest_parent`), as the search reads it without loading the rules."""

from __future__ import annotations

from judge.rules.index import RuleIndex
from judge.rules.numbers import nearest_parent


def test_nearest_parent_is_the_rules_parent(en_index: RuleIndex) -> None:
    checked = 0
    for ed in en_index.editions:
        numbers = set(ed.rules)
        for number, rule in ed.rules.items():
            assert nearest_parent(number, numbers) == rule.parent, (ed.id, number)
            checked += 1
    assert checked > 3000


def test_a_missing_rule_files_its_subrules_under_the_section() -> None:
    assert nearest_parent("704.5a", {"7", "704", "704.5"}) == "704.5"
    assert nearest_parent("704.5a", {"7", "704"}) == "704"
    assert nearest_parent("704.5a", {"7"}) == "7"
    assert nearest_parent("704", {"7"}) == "7"
    assert nearest_parent("7", {"7"}) is None

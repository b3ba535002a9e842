"""The rulesets, looked up by name: each is the set of checks whose rules exist in one
edition, with the rules its loop and its replacements cite.

::

    >>> find_ruleset("fr-pre2009").loop_rule
    '420.3'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from judge.engine import current, pre2009
from judge.engine.errors import UnknownRuleset
from judge.engine.state import Check
from judge.engine.vocabulary import RulesetName, Variant
from judge.fr import EDITION_RULESET_LABEL, RULESET_LABELS


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: its checks, in the order the rules list them, and the rules it cites."""

    name: RulesetName
    edition: str  # the edition of the rule index it quotes
    checks: tuple[Check, ...]  # the state-based actions
    notes: tuple[Check, ...]  # "why not" producers: they perform nothing
    loop_rule: str  # check, perform, repeat (704.3, 420.3)
    same_result_rule: str  # one replacement for several simultaneous reasons to lose (704.7)
    lki_rule: str  # last known information, for dies triggers (704.8)
    cited_rules: tuple[str, ...]  # every rule the engine may cite under this ruleset
    variant_actions: bool  # whether the variants have state-based actions of their own
    asks_choices: bool  # whether a check can wait for a player's choice
    unmodelled: tuple[str, ...] = ()  # rules of the edition that no check models

    @property
    def label(self) -> str:
        """French, for the user (`judge.fr.RULESET_LABELS`)."""
        known = RULESET_LABELS.get(self.name)
        return known if known is not None else EDITION_RULESET_LABEL.format(edition=self.edition)

    def checks_for(self, variant: Variant) -> tuple[Check, ...]:
        """The checks that apply in this variant, in registry order."""
        return tuple(c for c in self.checks if c.variants is None or variant in c.variants)


CURRENT = Ruleset(
    name="fr-2024",
    edition="fr-2024",
    checks=current.REGISTRY,
    notes=(),
    loop_rule=current.LOOP_RULE,
    same_result_rule=current.SAME_RESULT_RULE,
    lki_rule=current.LAST_KNOWN_INFORMATION_RULE,
    cited_rules=current.CITED_RULES,
    variant_actions=True,
    asks_choices=True,
)
# The old text only says "one event" and knows no last known information: its loop rule
# stands for both.
PRE2009 = Ruleset(
    name="fr-pre2009",
    edition="fr-pre2009",
    checks=pre2009.REGISTRY,
    notes=pre2009.NOTES,
    loop_rule=pre2009.LOOP_RULE,
    same_result_rule=pre2009.LOOP_RULE,
    lki_rule=pre2009.LOOP_RULE,
    cited_rules=pre2009.CITED_RULES,
    variant_actions=False,
    asks_choices=False,
)

RULESETS: Mapping[RulesetName, Ruleset] = MappingProxyType({r.name: r for r in (CURRENT, PRE2009)})


def find_ruleset(name: str) -> Ruleset:
    """The ruleset of this name; UnknownRuleset (a BoardError) if there is none."""
    found = RULESETS.get(name)
    if found is None:
        raise UnknownRuleset(name, tuple(RULESETS))
    return found

"""Rulesets that follow an edition of the rule index: the checks whose rule exists in that
edition, found by the wording of its rules (letters moved over the years: the legend rule
was 704.5k in 2011 and is 704.5j today), each citing the edition's own number.

A check whose rule has changed is chosen by the wording: the legend rule that puts *all*
copies into the graveyard (before 2013) or that lets the controller choose one; 704.5s
with or without "one or more chapter abilities" (2025). A rule of the edition that no check
models is listed in `Ruleset.unmodelled`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from judge.engine import current, pre2009
from judge.engine.errors import BoardError
from judge.engine.rulesets import Ruleset
from judge.engine.state import Check, CheckFunction, Outcome, Snapshot
from judge.engine.vocabulary import Variant
from judge.rules.model import Edition
from judge.rules.text import fold_chars

_2HG: frozenset[Variant] = frozenset({"two-headed-giant"})
_CMD: frozenset[Variant] = frozenset({"commander"})
_NOT_2HG: frozenset[Variant] = frozenset({"normal", "commander", "archenemy", "planechase"})
_ARCH: frozenset[Variant] = frozenset({"archenemy"})
_PLANES: frozenset[Variant] = frozenset({"planechase"})


@dataclass(frozen=True)
class Candidate:
    """A check the engine can run, the rule number it is written for, and the wording (folded:
    lower case, no accents) by which an edition's rule is recognised as this one."""

    rule: str
    func: CheckFunction
    wording: re.Pattern[str]
    variants: frozenset[Variant] | None = None
    asks_choices: bool = False


def _w(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# Order matters: the first candidate whose wording matches takes the rule (deathtouch before
# lethal damage, the 2025 Saga wording before the older one, teams before players).
MODERN: tuple[Candidate, ...] = (
    Candidate(
        "704.6a",
        current.team_zero_or_less_life,
        _w(r"team has 0 or less life|equipe a 0 point"),
        _2HG,
    ),
    Candidate(
        "704.6b",
        current.team_fifteen_or_more_poison,
        _w(r"team has fifteen or more poison|equipe a 15 marqueurs"),
        _2HG,
    ),
    Candidate(
        "704.5a",
        current.player_zero_or_less_life,
        _w(r"player has 0 or less life|joueur a 0 point de vie"),
    ),
    Candidate(
        "704.5b",
        current.player_drew_from_empty_library,
        _w(r"attempted to draw a card|tente de piocher"),
    ),
    Candidate(
        "704.5c",
        current.player_ten_or_more_poison,
        _w(r"ten or more poison counters|dix marqueurs poison"),
        _NOT_2HG,
    ),
    Candidate("704.5d", current.token_outside_battlefield, _w(r"if a token is|si un jeton est")),
    Candidate(
        "704.5e",
        current.copy_outside_allowed_zone,
        _w(r"copy of a spell is in a zone|copie d'un sort est"),
    ),
    Candidate(
        "704.5f",
        current.creature_zero_or_less_toughness,
        _w(r"toughness 0 or less|endurance inferieure ou egale a 0"),
    ),
    Candidate("704.5h", current.creature_deathtouch_damage, _w(r"deathtouch|contact mortel")),
    Candidate(
        "704.5g", current.creature_lethal_damage, _w(r"lethal damage|blessures marquees sur elle")
    ),
    Candidate(
        "704.5i",
        current.planeswalker_zero_loyalty,
        _w(r"planeswalker has loyalty 0|loyaute egale a 0"),
    ),
    Candidate(
        "704.5j",
        current.legend_rule,
        _w(r"legendary permanents with the same name.*chooses one"),
        asks_choices=True,
    ),
    Candidate(
        "420.5e",
        pre2009.legend_rule_all_copies,
        _w(r"legendary permanents with the same name.*all are put"),
    ),
    Candidate("704.5k", current.world_rule, _w(r"supertype world|sur-type . du monde")),
    Candidate(
        "704.5m",
        current.aura_illegally_attached,
        _w(r"aura is attached to an illegal|aura est attachee"),
    ),
    Candidate(
        "704.5n",
        current.equipment_illegally_attached,
        _w(r"equipment or fortification is attached|equipement ou une fortification est attache"),
    ),
    Candidate(
        "704.5p",
        current.creature_or_other_attached,
        _w(r"creature is attached to an object or player"),
    ),
    Candidate(
        "704.5q",
        current.plus_minus_counters_cancel,
        _w(r"\+1/\+1 counter and a -1/-1 counter|marqueurs \+1/\+1 et -1/-1"),
    ),
    Candidate(
        "704.5r", current.counters_over_maximum, _w(r"more than n counters|plus de n marqueurs")
    ),
    Candidate(
        "704.5s",
        current.saga_with_chapter_abilities,
        _w(r"saga permanent with one or more chapter abilities"),
    ),
    Candidate("704.5s", current.saga_past_final_chapter, _w(r"lore counters on a saga")),
    Candidate("704.5t", current.dungeon_completed, _w(r"venture marker|marqueur d'exploration")),
    Candidate("704.5u", current.creatures_without_sector, _w(r"space sculptor"), asks_choices=True),
    Candidate("704.5v", current.battle_zero_defense, _w(r"battle has defense 0")),
    Candidate(
        "704.5w",
        current.battle_without_protector,
        _w(r"battle has no player in the game"),
        asks_choices=True,
    ),
    Candidate(
        "704.5x",
        current.siege_protected_by_controller,
        _w(r"siege's controller"),
        asks_choices=True,
    ),
    Candidate("704.5y", current.several_roles_same_player, _w(r"more than one role")),
    Candidate("704.5z", current.player_gets_speed, _w(r"start your engines")),
    Candidate(
        "704.6c",
        current.commander_damage_21,
        _w(r"21 or more combat damage|21 blessures de combat"),
        _CMD,
    ),
    Candidate(
        "704.6d",
        current.commander_to_command_zone,
        _w(r"commander is in a graveyard or in exile|commandant est dans un cimetiere"),
        _CMD,
        True,
    ),
)
MODERN += (
    Candidate(
        "704.6e", current.scheme_face_up, _w(r"scheme card is face up|carte de machination"), _ARCH
    ),
    Candidate(
        "704.6f",
        current.phenomenon_face_up,
        _w(r"phenomenon card is face up|carte de phenomene"),
        _PLANES,
    ),
)
PRE2009: tuple[Candidate, ...] = (
    Candidate(
        "420.5a",
        pre2009.player_zero_or_less_life,
        _w(r"player with 0 or less life|joueur avec 0 points? de vie"),
    ),
    Candidate(
        "420.5b",
        pre2009.creature_zero_or_less_toughness,
        _w(r"toughness 0 or less|endurance de 0 ou moins"),
    ),
    Candidate("420.5c", pre2009.creature_lethal_damage, _w(r"lethal damage|blessures fatales")),
    Candidate(
        "420.5d",
        pre2009.local_enchantment_illegal,
        _w(r"aura attached to an illegal|local enchantment|enchantement local"),
    ),
    Candidate(
        "420.5e",
        pre2009.legend_rule_all_copies,
        _w(r"legendary permanents with the same name|sur-type legendaire"),
    ),
    Candidate(
        "420.5f", pre2009.token_outside_play, _w(r"a token in a zone other|jeton dans une zone")
    ),
    Candidate(
        "420.5g",
        pre2009.player_drew_from_empty_library,
        _w(r"draw a card from an empty library|draw more cards|piocher plus de cartes"),
    ),
    Candidate(
        "420.5h", pre2009.player_ten_or_more_poison, _w(r"ten or more poison|dix marqueurs poison")
    ),
    Candidate("420.5i", pre2009.world_rule, _w(r"supertype world|du monde")),
    Candidate("420.5j", pre2009.copy_outside_allowed_zone, _w(r"copy of a spell|copie d'un sort")),
    Candidate(
        "420.5k",
        pre2009.equipment_illegal,
        _w(r"equipment (or fortification )?attached to an illegal|equipement qui equipe"),
    ),
    Candidate(
        "704.5p",
        current.creature_or_other_attached,
        _w(r"neither an aura, an equipment, nor a fortification"),
    ),
    Candidate(
        "704.5q", current.plus_minus_counters_cancel, _w(r"\+1/\+1 counter and a -1/-1 counter")
    ),
    Candidate("704.5i", current.planeswalker_zero_loyalty, _w(r"planeswalker with loyalty 0")),
)


def _renumbered(func: CheckFunction, written: str, number: str) -> CheckFunction:
    """`func`, its outcomes citing the edition's `number` instead of `written`."""
    if written == number:
        return func

    def check(s: Snapshot) -> Iterator[Outcome]:
        for o in func(s):
            yield replace(o, rule=number) if o.rule == written else o

    check.__name__ = func.__name__
    check.__doc__ = func.__doc__
    return check


def _state_rules(edition: Edition, section: str) -> list[tuple[str, str]]:
    """The edition's state-based actions: (number, folded text) of the sub-rules of
    `section`.5 and `section`.6, in the edition's order."""
    out = []
    for parent in (f"{section}.5", f"{section}.6"):
        rule = edition.rules.get(parent)
        for child in rule.children if rule is not None else ():
            sub = edition.rules.get(child)
            if sub is not None and sub.text:
                out.append((child, fold_chars(sub.text)))
    return out


def _has(edition: Edition, number: str, wording: str) -> bool:
    rule = edition.rules.get(number)
    return rule is not None and re.search(wording, fold_chars(rule.text)) is not None


def has_state_based_actions(edition: Edition) -> bool:
    """Whether the edition holds rule 704 or 420 with its list of state-based actions."""
    return bool(_state_rules(edition, "704") or _state_rules(edition, "420"))


def ruleset_from_edition(edition: Edition) -> Ruleset:
    """The ruleset of `edition`: each of its state-based actions that a check models, in the
    edition's order, citing the edition's numbers and quoting its wording."""
    section = "704" if _state_rules(edition, "704") else "420"
    rules = _state_rules(edition, section)
    if not rules:
        raise BoardError(
            f"l'édition « {edition.id} » ne contient ni la règle 704 ni la règle 420 : pas de "
            f"jeu de règles",
            field="ruleset",
        )
    pool = list(MODERN if section == "704" else PRE2009)
    checks: list[Check] = []
    unmodelled: list[str] = []
    asks = False
    for number, text in rules:
        found = next((c for c in pool if c.wording.search(text)), None)
        if found is None:
            unmodelled.append(number)
            continue
        # One rule per candidate (two wordings of 704.5s are two candidates for one rule).
        pool = [c for c in pool if c.func is not found.func and c.rule != found.rule]
        checks.append(Check(number, _renumbered(found.func, found.rule, number), found.variants))
        asks = asks or found.asks_choices
    loop = f"{section}.3"
    same = "704.7" if _has(edition, "704.7", "same result|meme resultat") else loop
    lki = (
        "704.8"
        if _has(edition, "704.8", "last known information|dernieres informations connues")
        else loop
    )
    return Ruleset(
        name=edition.id,
        edition=edition.id,
        checks=tuple(checks),
        notes=(),
        loop_rule=loop,
        same_result_rule=same,
        lki_rule=lki,
        cited_rules=(*(c.rule for c in checks), loop, same, lki),
        variant_actions=any(c.variants is not None for c in checks),
        asks_choices=asks,
        unmodelled=tuple(unmodelled),
    )

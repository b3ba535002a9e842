"""The engine's vocabulary: the words a board file may use (card types, zones, variants,
sectors …), how each of its fields is typed, what a state-based action can do (`ActionKind`)
and what a "why not" note can say (`NoteKind`), and the bounds of its integers.

Only names and values: the French words for them are in `judge.fr`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Literal, TypeAlias, get_args

Variant: TypeAlias = Literal["normal", "two-headed-giant", "commander", "archenemy", "planechase"]
Zone: TypeAlias = Literal["library", "hand", "graveyard", "exile", "stack", "command"]
ObjectId: TypeAlias = str
PlayerName: TypeAlias = str
SubjectKind: TypeAlias = Literal["object", "player", "team"]
RulesetName: TypeAlias = str  # a key of `judge.engine.rulesets.RULESETS`
# Continuous effects (613) and triggered abilities (603.6c, 603.10a).
Layer: TypeAlias = Literal["2", "6", "7a", "7b", "7c", "7d"]
EffectKind: TypeAlias = Literal["static", "resolved", "cda"]
AffectedController: TypeAlias = Literal["you", "opponents", "any"]
TriggerEvent: TypeAlias = Literal[
    "dies", "creature_dies", "another_creature_dies", "damaged_creature_dies", "leaves"
]
LAYERS: tuple[Layer, ...] = get_args(Layer)
EFFECT_KINDS: tuple[EffectKind, ...] = get_args(EffectKind)
AFFECTED_CONTROLLERS: tuple[AffectedController, ...] = get_args(AffectedController)
TRIGGER_EVENTS: tuple[TriggerEvent, ...] = get_args(TriggerEvent)
CDAS = ("creatures_you_control", "cards_in_hand")
ALL_ABILITIES = "all"

DEFAULT_RULESET: RulesetName = "fr-2024"
VARIANTS: tuple[Variant, ...] = get_args(Variant)
ZONES: tuple[Zone, ...] = get_args(Zone)


class ActionKind(StrEnum):
    """What a state-based action does to its subject (the `kind` of a performed `Finding`)."""

    LOSE_GAME = "lose_game"
    PUT_INTO_GRAVEYARD = "put_into_graveyard"
    DESTROY = "destroy"
    REGENERATE = "regenerate"
    CEASE_TO_EXIST = "cease_to_exist"
    UNATTACH = "unattach"
    REMOVE_COUNTERS = "remove_counters"
    SACRIFICE = "sacrifice"
    MOVE_TO_COMMAND_ZONE = "move_to_command_zone"
    CHOOSE_PROTECTOR = "choose_protector"
    EXILE = "exile"
    # added by this engine
    CHOOSE_SECTOR = "choose_sector"
    REMOVE_FROM_GAME = "remove_from_game"
    REPLACE_LOSS = "replace_loss"
    SET_SPEED = "set_speed"
    LEAVE_GAME = "leave_game"  # 800.4a: an object leaves the game with its owner
    REVERT_CONTROL = "revert_control"  # 800.4a: an effect giving control ends
    END_BESTOW = "end_bestow"  # 702.103f: a bestowed Aura unattached becomes a creature
    SCHEME_TO_BOTTOM = "scheme_to_bottom"  # 704.6e: turned face down, bottom of the deck
    PLANESWALK = "planeswalk"  # 704.6f: the planar controller planeswalks


class NoteKind(StrEnum):
    """Why an action was not performed (the `kind` of a `Finding` with `note=True`)."""

    PREVENTED = "prevented"
    REPLACED = "replaced"
    NOT_APPLICABLE = "not_applicable"
    NOT_REPLACEABLE = "not_replaceable"
    NOT_PREVENTED = "not_prevented"
    NOT_TRIGGERED = "not_triggered"
    DECLINED = "declined"
    NOT_REPLACED = "not_replaced"  # a replacement effect that does not apply to this event


FindingKind: TypeAlias = ActionKind | NoteKind
# The actions by which a permanent leaves the battlefield for its owner's graveyard.
LEAVING_KINDS = frozenset({ActionKind.PUT_INTO_GRAVEYARD, ActionKind.SACRIFICE})

CARD_TYPES = frozenset(
    {
        "artifact",
        "battle",
        "creature",
        "enchantment",
        "land",
        "planeswalker",
        "kindred",
        "tribal",
        "instant",
        "sorcery",
    }
)
SUPERTYPES = frozenset({"legendary", "world", "basic", "snow", "ongoing"})
# Subtypes the rules name; matched case-insensitively and stored in this spelling.
RULE_SUBTYPES: Mapping[str, str] = MappingProxyType(
    {s.casefold(): s for s in ("Aura", "Equipment", "Fortification", "Saga", "Siege", "Role")}
)
COLORS = frozenset({"white", "blue", "black", "red", "green"})
ENCHANT_WORDS = frozenset(
    {"creature", "artifact", "enchantment", "land", "planeswalker", "battle", "permanent", "player"}
)
SECTORS = ("alpha", "beta", "gamma")
KEYWORD_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "survivance": "persist",
        "immortalité": "undying",
        "immortalite": "undying",
        "indestructible": "indestructible",
    }
)
# Choices a board file may state, by rule, with the fields each needs.
CHOICE_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "704.5j": ("keep",),
        "704.5u": ("creature", "sector"),
        "704.5w": ("battle", "protector"),
        "704.5x": ("battle", "protector"),
        "704.6d": ("commander", "to_command_zone"),
        "616.1": ("object", "apply"),
    }
)


def choice_key(rule: str, subject: str) -> str:
    """Identifies a stated choice: its rule and the object it is about (the first field of
    CHOICE_FIELDS). Findings that apply it carry the same key (`Finding.choice`)."""
    return f"{rule} {subject}"


# --- the fields of a board file -------------------------------------------------------

TOP_LEVEL_FIELDS = frozenset(
    {
        "ruleset",
        "variant",
        "players",
        "teams",
        "permanents",
        "other_zones",
        "choices",
        "stack",
        "active_player",
        "description",
        "expected",
        "continuous_effects",
        "archenemy",
        "planar_controller",
    }
)
PLAYER_FIELDS = (
    "name",
    "life",
    "poison",
    "drew_from_empty_library",
    "commander_damage",
    "cant_lose",
    "loss_replacement",
    "lost",
    "speed",
)
LOSS_REPLACEMENT_FIELDS = ("name", "source", "life", "permanents_to_library")
TEAM_FIELDS = ("name", "members", "life", "poison")
STACK_FIELDS = ("source", "ability", "controller", "source_gone")
PERMANENT_FIELDS = (
    "id",
    "name",
    "controller",
    "owner",
    "types",
    "supertypes",
    "subtypes",
    "power",
    "toughness",
    "damage",
    "deathtouch_damage",
    "counters",
    "max_counters",
    "indestructible",
    "regeneration_shields",
    "token",
    "attached_to",
    "enchant",
    "colors",
    "protection_from",
    "keywords",
    "timestamp",
    "final_chapter",
    "trigger_on_stack",
    "protector",
    "commander",
    "face_down",
    "tapped",
    "attacking",
    "blocking",
    "sector",
    "printed",
    "entered_under",
    "triggered_abilities",
    "dealt_damage_this_turn_by",
    "bestowed",
    "feminine",
)
PRINTED_FIELDS = (
    "types",
    "subtypes",
    "colors",
    "power",
    "toughness",
    "keywords",
    "triggered_abilities",
)
TRIGGER_FIELDS = ("id", "trigger", "text", "affects")
EFFECT_FIELDS = (
    "id",
    "source",
    "kind",
    "controller",
    "layer",
    "affects",
    "effect",
    "timestamp",
    "text",
)
AFFECTS_FIELDS = ("ids", "self", "other", "attached", "types", "colors", "controller")
# What each layer's effect states (613.1): the keys of `effect`.
LAYER_EFFECT_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "2": ("control",),
        "6": ("add_abilities", "remove_abilities"),
        "7a": ("cda",),
        "7b": ("set_power", "set_toughness"),
        "7c": ("power", "toughness"),
        "7d": ("switch",),
    }
)
OTHER_FIELDS = (
    "id",
    "name",
    "zone",
    "owner",
    "token",
    "spell_copy",
    "card_copy",
    "commander",
    "moved_since_last_check",
    "dungeon",
    "bottommost_room",
    "trigger_on_stack",
    "feminine",
    "scheme",
    "ongoing",
    "face_up",
    "phenomenon",
)

# How the fields of a board file are typed, by name: the compact form reads its words, and the
# sandbox's tables (ui/views/board_tables.py) their cells, by these.
INT_FIELDS = frozenset(
    {
        "life",
        "poison",
        "power",
        "toughness",
        "damage",
        "deathtouch_damage",
        "regeneration_shields",
        "timestamp",
        "final_chapter",
        "speed",
        "set_power",
        "set_toughness",
    }
)
BOOL_FIELDS = frozenset(
    {
        "drew_from_empty_library",
        "cant_lose",
        "lost",
        "indestructible",
        "token",
        "trigger_on_stack",
        "commander",
        "face_down",
        "tapped",
        "blocking",
        "spell_copy",
        "card_copy",
        "moved_since_last_check",
        "dungeon",
        "bottommost_room",
        "to_command_zone",
        "permanents_to_library",
        "bestowed",
        "feminine",
        "scheme",
        "ongoing",
        "face_up",
        "phenomenon",
        "self",
        "other",
        "attached",
        "switch",
        "source_gone",
    }
)
LIST_FIELDS = frozenset(
    {
        "types",
        "supertypes",
        "subtypes",
        "keywords",
        "colors",
        "protection_from",
        "enchant",
        "members",
        "ids",
        "add_abilities",
        "remove_abilities",
        "dealt_damage_this_turn_by",
    }
)
MAP_FIELDS = frozenset({"counters", "max_counters", "commander_damage"})

# --- integers ------------------------------------------------------------------------

# Integers are bounded: a board never needs more, and Python refuses to convert integers of
# more than 4,300 digits to and from text.
MAX_INT_DIGITS = 18
MAX_INT = 10**MAX_INT_DIGITS - 1
# A board needs about six levels of nesting (`expected` included); more is refused before
# anything recursive (the JSON encoder of the output) meets it.
MAX_DEPTH = 32
INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")
_PT_COUNTER = re.compile(r"^([+-]\d+)/([+-]\d+)$")


class TooLongInteger(int):
    """Stands for an integer written with too many digits to be converted (the decoders
    return it instead of failing, so that the validation names the field and the object).
    Its value is beyond MAX_INT, so every bound check refuses it."""

    digits: int

    def __new__(cls, text: str) -> TooLongInteger:
        negative = text.startswith("-")
        self = super().__new__(cls, -(MAX_INT + 1) if negative else MAX_INT + 1)
        self.digits = len(text.lstrip("+-"))
        return self


def parse_integer(text: str) -> int:
    """An integer written in decimal (ASCII digits), or TooLongInteger past 40 digits."""
    if len(text) > 40:
        return TooLongInteger(text)
    return int(text)


def pt_counter(kind: str) -> tuple[int, int] | None:
    """(+p, +t) for a counter that changes power and toughness (`+1/+1`, `-1/-1`, `+1/+0`)."""
    m = _PT_COUNTER.match(kind)
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2))

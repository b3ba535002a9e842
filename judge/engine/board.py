"""The board: frozen dataclasses describing a game state, loaded from JSON (or the
compact text form) and validated with French messages that name the field and the
object. Also the per-check view (`Snapshot`) and what a check returns (`Finding`,
`ChoiceNeeded`), shared by the rulesets and the loop.

Values are the *current* ones: `power` and `toughness` already include counters and
continuous effects. Mappings inside the dataclasses are never mutated: a new state is
a new object (`dataclasses.replace`)."""

from __future__ import annotations

import errno
import gc
import json
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeAlias, get_args

from judge.rules.errors import JudgeError

# --- vocabulary -----------------------------------------------------------------

Ruleset: TypeAlias = Literal["fr-2024", "fr-pre2009"]
Variant: TypeAlias = Literal["normal", "two-headed-giant", "commander"]
Zone: TypeAlias = Literal["library", "hand", "graveyard", "exile", "stack", "command"]
ObjectId: TypeAlias = str
PlayerName: TypeAlias = str
SubjectKind: TypeAlias = Literal["object", "player", "team"]

RULESETS: tuple[Ruleset, ...] = get_args(Ruleset)
VARIANTS: tuple[Variant, ...] = get_args(Variant)
ZONES: tuple[Zone, ...] = get_args(Zone)

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
RULE_SUBTYPES = {
    s.casefold(): s for s in ("Aura", "Equipment", "Fortification", "Saga", "Siege", "Role")
}
COLORS = frozenset({"white", "blue", "black", "red", "green"})
ENCHANT_WORDS = frozenset(
    {"creature", "artifact", "enchantment", "land", "planeswalker", "battle", "permanent", "player"}
)
SECTORS = ("alpha", "beta", "gamma")
KEYWORD_ALIASES = {
    "survivance": "persist",
    "immortalité": "undying",
    "immortalite": "undying",
    "indestructible": "indestructible",
}
# Choices a board file may state, by rule, with the fields each needs.
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "704.5j": ("keep",),
    "704.5u": ("creature", "sector"),
    "704.5w": ("battle", "protector"),
    "704.5x": ("battle", "protector"),
    "704.6d": ("commander", "to_command_zone"),
}


def choice_key(rule: str, subject: str) -> str:
    """Identifies a stated choice: its rule and the object it is about (the first field of
    CHOICE_FIELDS). Findings that apply it carry the same key (`Finding.choice`)."""
    return f"{rule} {subject}"


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
    }
)
_PT_COUNTER = re.compile(r"^([+-]\d+)/([+-]\d+)$")
# Integers are bounded: a board never needs more, and Python refuses to convert integers of
# more than 4,300 digits to and from text.
MAX_INT_DIGITS = 18
MAX_INT = 10**MAX_INT_DIGITS - 1
# A board needs about six levels of nesting (`expected` included); more is refused before
# anything recursive (the JSON encoder of the output) meets it.
MAX_DEPTH = 32


class BoardError(JudgeError):
    """A board file that cannot be used. `field` and `obj` name the culprit."""

    def __init__(self, message: str, field: str | None = None, obj: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.obj = obj


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


_INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")


def parse_integer(text: str) -> int:
    """An integer written in decimal (ASCII digits), or TooLongInteger past 40 digits."""
    if len(text) > 40:
        return TooLongInteger(text)
    return int(text)


# --- the state ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LossReplacement:
    """A "if you would lose the game, instead …" effect (Lich's Mirror)."""

    name: str
    source: ObjectId | None = None  # exists only while this permanent is on the battlefield
    life: int | None = None  # the life total becomes this
    permanents_to_library: bool = False  # the player's permanents are shuffled into the library


@dataclass(frozen=True, slots=True)
class Player:
    name: PlayerName
    life: int = 20
    poison: int = 0
    drew_from_empty_library: bool = False
    commander_damage: Mapping[ObjectId, int] = field(default_factory=dict)
    cant_lose: bool = False
    loss_replacement: LossReplacement | None = None
    lost: bool = False


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    members: tuple[PlayerName, ...]
    life: int = 30
    poison: int = 0


@dataclass(frozen=True, slots=True)
class Permanent:
    id: ObjectId
    name: str
    controller: PlayerName
    owner: PlayerName
    types: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    subtypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    damage: int = 0
    deathtouch_damage: int = 0
    counters: Mapping[str, int] = field(default_factory=dict)
    max_counters: Mapping[str, int] = field(default_factory=dict)
    indestructible: bool = False
    regeneration_shields: int = 0
    token: bool = False
    attached_to: str | None = None
    enchant: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    protection_from: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    timestamp: int | None = None
    final_chapter: int | None = None
    trigger_on_stack: bool = False
    protector: PlayerName | None = None
    commander: bool = False
    face_down: bool = False
    tapped: bool = False
    attacking: str | None = None
    blocking: bool = False
    sector: str | None = None

    @property
    def is_creature(self) -> bool:
        return "creature" in self.types

    @property
    def is_legendary(self) -> bool:
        return "legendary" in self.supertypes

    @property
    def is_indestructible(self) -> bool:
        return self.indestructible or "indestructible" in self.keywords

    def counter(self, kind: str) -> int:
        return self.counters.get(kind, 0)


@dataclass(frozen=True, slots=True)
class OtherObject:
    """An object outside the battlefield (a card, a token, a copy, a dungeon)."""

    id: ObjectId
    zone: Zone
    owner: PlayerName
    name: str = ""
    token: bool = False
    spell_copy: bool = False
    card_copy: bool = False
    commander: bool = False
    moved_since_last_check: bool = False
    dungeon: bool = False
    bottommost_room: bool = False
    trigger_on_stack: bool = False


@dataclass(frozen=True, slots=True)
class StackItem:
    source: ObjectId
    ability: str
    controller: PlayerName


@dataclass(frozen=True)
class Choices:
    """The decisions the board file states in advance, indexed for the checks."""

    legend_keep: frozenset[ObjectId] = frozenset()
    sectors: Mapping[ObjectId, str] = field(default_factory=dict)
    protectors: Mapping[tuple[str, ObjectId], PlayerName] = field(default_factory=dict)
    commander_moves: Mapping[ObjectId, bool] = field(default_factory=dict)
    raw: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Board:
    ruleset: Ruleset = "fr-2024"
    variant: Variant = "normal"
    players: tuple[Player, ...] = ()
    teams: tuple[Team, ...] = ()
    permanents: tuple[Permanent, ...] = ()
    other_zones: tuple[OtherObject, ...] = ()
    stack: tuple[StackItem, ...] = ()
    choices: Choices = field(default_factory=Choices)
    active_player: PlayerName | None = None
    description: str | None = None


@dataclass(frozen=True)
class LoadedBoard:
    board: Board
    warnings: tuple[str, ...]


# --- what checks return -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """One state-based action found to apply (`note=False`) or a "why not" (`note=True`).

    `kind` is an action kind (`destroy`, `lose_game` …) or, for notes, a not-applied kind
    (`prevented`, `replaced`, `not_applicable` …). `why` is French and carries the numbers
    that made the rule apply; `also` lists further rules merged into the same event."""

    rule: str
    kind: str
    subject: str
    subject_kind: SubjectKind = "object"
    why: str = ""
    note: bool = False
    also: tuple[str, ...] = ()
    counters: Mapping[str, int] | None = None  # remove_counters: how many of each kind
    value: str | None = None  # choose_protector / choose_sector: the chosen value
    choice: str | None = None  # the stated choice this finding applies (`choice_key`)


@dataclass(frozen=True, slots=True)
class ChoiceNeeded:
    """A decision the board does not state: the engine stops and reports it."""

    rule: str
    player: PlayerName
    choose: str  # French: what is to be chosen
    options: tuple[str, ...]
    subject: str | None = None
    why: str = ""
    order: int = 0  # 704.5u: players who choose first have the lower number


Outcome: TypeAlias = Finding | ChoiceNeeded
CheckFunction: TypeAlias = Callable[["Snapshot"], Iterable[Outcome]]


@dataclass(frozen=True)
class Check:
    """A registry entry: the rule, the function that checks it, the variants it is for."""

    rule: str
    func: CheckFunction
    label: str  # French, short
    variants: frozenset[Variant] | None = None  # None: every variant

    @property
    def name(self) -> str:
        return self.func.__name__


class Snapshot:
    """The state a check looks at, with the indexes the checks need, built in one sweep.

    Every check of a pass sees the same snapshot (704.3: all checked against one state)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.players: dict[str, Player] = {p.name: p for p in board.players}
        self.teams: dict[str, Team] = {t.name: t for t in board.teams}
        self.team_of: dict[str, Team] = {m: t for t in board.teams for m in t.members}
        self.permanents: dict[str, Permanent] = {}
        self.creatures: list[Permanent] = []
        self.planeswalkers: list[Permanent] = []
        self.battles: list[Permanent] = []
        self.legendary: list[Permanent] = []
        self.world: list[Permanent] = []
        self.attached: list[Permanent] = []  # attached to something, or an Aura
        self.sagas: list[Permanent] = []
        self.roles: list[Permanent] = []
        self.low_toughness: list[Permanent] = []  # creatures with toughness 0 or less
        self.damaged: list[Permanent] = []  # creatures with damage or deathtouch damage
        self.with_counters: list[Permanent] = []
        self.with_max_counters: list[Permanent] = []
        self.space_sculptors: list[Permanent] = []
        self.attacked: dict[str, list[str]] = {}  # battle or player -> attacking creatures
        for p in board.permanents:
            self.permanents[p.id] = p
            types = p.types
            if "creature" in types:
                self.creatures.append(p)
                if p.attacking is not None:
                    self.attacked.setdefault(p.attacking, []).append(p.id)
                if p.toughness is not None and p.toughness <= 0:
                    self.low_toughness.append(p)
                if p.damage or p.deathtouch_damage:
                    self.damaged.append(p)
            if "planeswalker" in types:
                self.planeswalkers.append(p)
            if "battle" in types:
                self.battles.append(p)
            if p.supertypes:
                if "legendary" in p.supertypes:
                    self.legendary.append(p)
                if "world" in p.supertypes:
                    self.world.append(p)
            if p.attached_to is not None or "Aura" in p.subtypes:
                self.attached.append(p)
            if p.subtypes:
                if "Saga" in p.subtypes:
                    self.sagas.append(p)
                if "Role" in p.subtypes and p.attached_to is not None:
                    self.roles.append(p)
            if p.counters:
                self.with_counters.append(p)
            if p.max_counters:
                self.with_max_counters.append(p)
            if p.keywords and "space sculptor" in p.keywords:
                self.space_sculptors.append(p)

    @property
    def variant(self) -> Variant:
        return self.board.variant

    @cached_property
    def others(self) -> dict[str, OtherObject]:
        """Objects outside the battlefield by id (built when first asked for)."""
        return {o.id: o for o in self.board.other_zones}

    def in_game(self, player: str) -> bool:
        p = self.players.get(player)
        return p is not None and not p.lost

    def opponents(self, player: str) -> list[str]:
        """Players still in the game who are opponents (the other team in 2HG)."""
        team = self.team_of.get(player) if self.variant == "two-headed-giant" else None
        out = []
        for p in self.board.players:
            if p.lost or p.name == player:
                continue
            if team is not None and p.name in team.members:
                continue
            out.append(p.name)
        return out

    def label(self, object_id: str) -> str:
        p = self.permanents.get(object_id)
        if p is not None and p.name and p.name != object_id:
            return f"{p.name} ({object_id})"
        return object_id

    def to_what(self, target: str) -> str:
        """`à Ours (ours)`, `au joueur Bob`: what something is attached to, with `à`."""
        if target in self.players and target not in self.permanents:
            return f"au joueur {target}"
        return f"à {self.label(target)}"


# --- loading --------------------------------------------------------------------


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """The loader and the engine create no reference cycles (frozen dataclasses, tuples,
    dicts and lists of them), so reference counting frees everything; pausing the cyclic
    collector keeps the time linear on large boards (its full collections scan the whole
    heap). Restored afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_FROZEN: dict[tuple[str, ...], frozenset[str]] = {}
_EMPTY_COUNTS: Mapping[str, int] = MappingProxyType({})


_EMPTY_WORDS: frozenset[str] = frozenset()


def _frozen(words: tuple[str, ...]) -> frozenset[str]:
    """One shared frozenset per distinct list of words (boards repeat the same few lists)."""
    if not words:
        return _EMPTY_WORDS
    found = _FROZEN.get(words)
    if found is None:
        found = frozenset(words)
        if len(_FROZEN) < 4096:
            _FROZEN[words] = found
    return found


def _json_repr(value: object) -> str:
    if isinstance(value, TooLongInteger):
        return f"{value.digits} chiffres"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = "…"
    return text if len(text) <= 60 else text[:57] + "…"


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "un booléen"
    if isinstance(value, TooLongInteger):
        return "un entier trop long"
    if isinstance(value, int):
        return "un entier"
    if isinstance(value, float):
        return "un nombre décimal"
    if isinstance(value, str):
        return "une chaîne"
    if isinstance(value, list):
        return "une liste"
    if isinstance(value, dict):
        return "un objet"
    return type(value).__name__


def wrong_type(expected: str, value: object) -> str:
    """`une chaîne attendue, reçu un entier (3)`: the participle agrees with `expected`."""
    agreed = "attendue" if expected.startswith("une ") else "attendu"
    return f"{expected} {agreed}, reçu {_type_name(value)} ({_json_repr(value)})"


def too_large(value: int) -> str:
    if isinstance(value, TooLongInteger):
        digits = value.digits
    else:  # no str(): it fails past 4,300 digits
        digits = len(str(abs(value))) if abs(value) < 10**100 else value.bit_length() * 3 // 10
    return f"nombre trop grand ({digits} chiffres ; au plus {MAX_INT_DIGITS})"


class _Reader:
    """Reads one JSON object's fields, raising BoardError with the object's name."""

    def __init__(self, data: Mapping[str, Any], where: str, warnings: list[str]) -> None:
        self.data = data
        self.where = where
        self.warnings = warnings

    def fail(self, name: str, problem: str) -> BoardError:
        return BoardError(
            f"{self.where} : champ « {name} » : {problem}", field=name, obj=self.where
        )

    def unknown(self, known: Iterable[str]) -> None:
        known_set = set(known)
        for key in self.data:
            if key not in known_set:
                self.warnings.append(f"{self.where} : champ inconnu « {key} » ignoré")

    def _wrong(self, name: str, value: object, expected: str) -> BoardError:
        return self.fail(name, wrong_type(expected, value))

    def string(self, name: str, default: str | None = None, required: bool = False) -> str:
        value = self.data.get(name)
        if value is None:
            if required or default is None:
                raise self.fail(name, "champ obligatoire manquant")
            return default
        if not isinstance(value, str):
            raise self._wrong(name, value, "une chaîne")
        if not value.strip():
            raise self.fail(name, "chaîne vide")
        return value

    def opt_string(self, name: str) -> str | None:
        if self.data.get(name) is None:
            return None
        return self.string(name)

    def integer(self, name: str, default: int | None = None, minimum: int | None = None) -> int:
        value = self.data.get(name)
        if value is None:
            if default is None:
                raise self.fail(name, "champ obligatoire manquant")
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._wrong(name, value, "un entier")
        if not -MAX_INT <= value <= MAX_INT:
            raise self.fail(name, too_large(value))
        if minimum is not None and value < minimum:
            raise self.fail(name, f"valeur négative interdite ({value})")
        return value

    def opt_integer(self, name: str, minimum: int | None = None) -> int | None:
        if self.data.get(name) is None:
            return None
        return self.integer(name, minimum=minimum)

    def boolean(self, name: str, default: bool = False) -> bool:
        value = self.data.get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self._wrong(name, value, "un booléen (true ou false)")
        return value

    def words(self, name: str, lower: bool = True, single: bool = False) -> tuple[str, ...]:
        """A list of strings (with `single`, a lone string is accepted as a list of one)."""
        value = self.data.get(name)
        if value is None:
            return ()
        if single and isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            expected = "une chaîne ou une liste de chaînes" if single else "une liste de chaînes"
            raise self._wrong(name, value, expected)
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                raise self.fail(
                    name, f"l'élément n°{i + 1} doit être une chaîne non vide ({_json_repr(item)})"
                )
            out.append(item.strip().lower() if lower else item.strip())
        return tuple(out)

    def counts(self, name: str, keep_zero: bool = False) -> Mapping[str, int]:
        value = self.data.get(name)
        if value is None or value == {}:
            return _EMPTY_COUNTS
        if not isinstance(value, dict):
            raise self._wrong(name, value, "un objet {nom : nombre}")
        out: dict[str, int] = {}
        for key, n in value.items():
            if not str(key).strip():
                raise self.fail(name, "nom vide")
            if isinstance(n, bool) or not isinstance(n, int):
                raise self.fail(name, f"« {key} » : {wrong_type('un entier', n)}")
            if n > MAX_INT:
                raise self.fail(name, f"« {key} » : {too_large(n)}")
            if n < 0:
                raise self.fail(name, f"« {key} » : nombre négatif interdit ({n})")
            if n or keep_zero:
                out[str(key)] = n
        return out if out else _EMPTY_COUNTS


def _object_list(data: Mapping[str, Any], name: str) -> list[Any]:
    value = data.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise BoardError(
            f"champ « {name} » : une liste attendue, reçu {_type_name(value)}", field=name
        )
    return value


def _as_object(item: object, where: str) -> Mapping[str, Any]:
    if not isinstance(item, dict):
        raise BoardError(f"{where} : un objet JSON attendu, reçu {_type_name(item)}", obj=where)
    return item


def _id_label(item: Mapping[str, Any], key: str, index: int, section: str) -> str:
    ident = item.get(key)
    if isinstance(ident, str) and ident:
        return f"{section}[{index}] « {ident} »"
    return f"{section}[{index}]"


def _read_player(item: Mapping[str, Any], where: str, warnings: list[str], variant: str) -> Player:
    r = _Reader(item, where, warnings)
    r.unknown(
        (
            "name",
            "life",
            "poison",
            "drew_from_empty_library",
            "commander_damage",
            "cant_lose",
            "loss_replacement",
            "lost",
        )
    )
    repl: LossReplacement | None = None
    raw = item.get("loss_replacement")
    if isinstance(raw, str):
        repl = LossReplacement(name=r.string("loss_replacement"))
    elif isinstance(raw, dict):
        rr = _Reader(raw, f"{where}, loss_replacement", warnings)
        rr.unknown(("name", "source", "life", "permanents_to_library"))
        repl = LossReplacement(
            name=rr.string("name", default="remplacement de défaite"),
            source=rr.opt_string("source"),
            life=rr.opt_integer("life"),
            permanents_to_library=rr.boolean("permanents_to_library"),
        )
    elif raw is not None and raw is not False:
        raise r.fail("loss_replacement", f"une chaîne ou un objet attendu, reçu {_type_name(raw)}")
    return Player(
        name=r.string("name", required=True),
        life=r.integer("life", default=40 if variant == "commander" else 20),
        poison=r.integer("poison", default=0, minimum=0),
        drew_from_empty_library=r.boolean("drew_from_empty_library"),
        commander_damage=r.counts("commander_damage"),
        cant_lose=r.boolean("cant_lose"),
        loss_replacement=repl,
        lost=r.boolean("lost"),
    )


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
)


_DEFAULT_PERM = Permanent(id="", name="", controller="", owner="")


def _perm_words(r: _Reader, name: str) -> frozenset[str]:
    return _frozen(r.words(name))


def _perm_subtypes(r: _Reader, name: str) -> tuple[str, ...]:
    return tuple(RULE_SUBTYPES.get(s.casefold(), s) for s in r.words(name, lower=False))


def _perm_keywords(r: _Reader, name: str) -> frozenset[str]:
    return _frozen(tuple(KEYWORD_ALIASES.get(k, k) for k in r.words(name)))


def _perm_sector(r: _Reader, name: str) -> str | None:
    sector = r.opt_string(name)
    if sector is None:
        return None
    sector = sector.lower()
    if sector not in SECTORS:
        raise r.fail(name, f"« {sector} » inconnu (alpha, beta ou gamma)")
    return sector


# How each field of a permanent is read (a null value gives the default). Only the fields
# present in the object are read: most permanents have a handful of the thirty.
_PERMANENT_READERS: dict[str, Callable[[_Reader, str], object]] = {
    "id": lambda r, n: r.string(n, required=True),
    "name": lambda r, n: r.opt_string(n),
    "controller": lambda r, n: r.opt_string(n),
    "owner": lambda r, n: r.opt_string(n),
    "types": _perm_words,
    "supertypes": _perm_words,
    "subtypes": _perm_subtypes,
    "power": lambda r, n: r.opt_integer(n),
    "toughness": lambda r, n: r.opt_integer(n),
    "damage": lambda r, n: r.integer(n, default=0, minimum=0),
    "deathtouch_damage": lambda r, n: r.integer(n, default=0, minimum=0),
    "counters": lambda r, n: r.counts(n),
    "max_counters": lambda r, n: r.counts(n, keep_zero=True),
    "indestructible": lambda r, n: r.boolean(n),
    "regeneration_shields": lambda r, n: r.integer(n, default=0, minimum=0),
    "token": lambda r, n: r.boolean(n),
    "attached_to": lambda r, n: r.opt_string(n),
    "enchant": lambda r, n: _frozen(r.words(n, single=True)),
    "colors": _perm_words,
    "protection_from": _perm_words,
    "keywords": _perm_keywords,
    "timestamp": lambda r, n: r.opt_integer(n),
    "final_chapter": lambda r, n: r.opt_integer(n, minimum=0),
    "trigger_on_stack": lambda r, n: r.boolean(n),
    "protector": lambda r, n: r.opt_string(n),
    "commander": lambda r, n: r.boolean(n),
    "face_down": lambda r, n: r.boolean(n),
    "tapped": lambda r, n: r.boolean(n),
    "attacking": lambda r, n: r.opt_string(n),
    "blocking": lambda r, n: r.boolean(n),
    "sector": _perm_sector,
}


# Fast paths for the commonest fields when their value is plainly valid (anything else goes
# through the reader, which gives the error).
_PERM_BOOLS = frozenset(k for k in PERMANENT_FIELDS if isinstance(getattr(_DEFAULT_PERM, k), bool))
_PERM_STRINGS = frozenset({"name", "controller", "owner", "attached_to", "protector", "attacking"})
_PERM_INTS = frozenset({"power", "toughness", "timestamp"})
_PERM_COUNTS = frozenset({"damage", "deathtouch_damage", "regeneration_shields"})


def _read_permanent(item: Mapping[str, Any], where: str, warnings: list[str]) -> Permanent:
    r = _Reader(item, where, warnings)
    ident = r.string("id", required=True)
    fields: dict[str, Any] = {}
    readers = _PERMANENT_READERS
    for key, value in item.items():
        if key in _PERM_BOOLS:
            if value is True or value is False:
                fields[key] = value
                continue
        elif key in _PERM_STRINGS:
            if type(value) is str and value.strip():
                fields[key] = value
                continue
        elif key in _PERM_INTS:
            if type(value) is int and -MAX_INT <= value <= MAX_INT:
                fields[key] = value
                continue
        elif key in _PERM_COUNTS and type(value) is int and 0 <= value <= MAX_INT:
            fields[key] = value
            continue
        reader = readers.get(key)
        if reader is None:
            warnings.append(f"{where} : champ inconnu « {key} » ignoré")
        elif key != "id":
            fields[key] = reader(r, key)
    fields["id"] = ident
    controller = fields.get("controller")
    owner = fields.get("owner")
    if controller is None and owner is None:
        raise r.fail("controller", "il faut au moins « controller » ou « owner »")
    fields["controller"] = controller or owner
    fields["owner"] = owner or controller
    if fields.get("name") is None:
        fields["name"] = ident
    types: frozenset[str] = fields.get("types", _EMPTY_WORDS)
    for t in types:
        if t not in CARD_TYPES:
            warnings.append(
                f"{where} : type « {t} » inconnu (types : {', '.join(sorted(CARD_TYPES))})"
            )
    for st in fields.get("supertypes", ()):
        if st not in SUPERTYPES:
            warnings.append(f"{where} : sur-type « {st} » inconnu")
    subtypes: tuple[str, ...] = fields.get("subtypes", ())
    if "creature" in types and fields.get("toughness") is None:
        raise r.fail("toughness", "obligatoire pour une créature (valeur actuelle)")
    enchant: frozenset[str] = fields.get("enchant", _EMPTY_WORDS)
    for e in enchant:
        if e not in ENCHANT_WORDS:
            raise r.fail(
                "enchant", f"« {e} » inconnu (valeurs : {', '.join(sorted(ENCHANT_WORDS))})"
            )
    if "Aura" in subtypes and not enchant:
        raise r.fail("enchant", "obligatoire pour une Aura (ce qu'elle peut enchanter)")
    for c in fields.get("colors", ()):
        if c not in COLORS:
            warnings.append(f"{where} : couleur « {c} » inconnue")
    if "Saga" in subtypes and fields.get("final_chapter") is None:
        raise r.fail("final_chapter", "obligatoire pour une Saga (numéro du dernier chapitre)")
    return Permanent(**fields)


def _read_other(item: Mapping[str, Any], where: str, warnings: list[str]) -> OtherObject:
    r = _Reader(item, where, warnings)
    r.unknown(OTHER_FIELDS)
    ident = r.string("id", required=True)
    zone = r.string("zone", required=True)
    if zone == "battlefield":
        raise r.fail("zone", "un objet sur le champ de bataille va dans « permanents »")
    if zone not in ZONES:
        raise r.fail("zone", f"« {zone} » inconnue (zones : {', '.join(ZONES)})")
    return OtherObject(
        id=ident,
        zone=zone,  # type: ignore[arg-type]
        owner=r.string("owner", required=True),
        name=r.string("name", default=ident),
        token=r.boolean("token"),
        spell_copy=r.boolean("spell_copy"),
        card_copy=r.boolean("card_copy"),
        commander=r.boolean("commander"),
        moved_since_last_check=r.boolean("moved_since_last_check"),
        dungeon=r.boolean("dungeon"),
        bottommost_room=r.boolean("bottommost_room"),
        trigger_on_stack=r.boolean("trigger_on_stack"),
    )


def _read_choices(
    items: list[Any], warnings: list[str], check: Callable[[str, str, str, str], None]
) -> Choices:
    keep: set[str] = set()
    sectors: dict[str, str] = {}
    protectors: dict[tuple[str, str], str] = {}
    moves: dict[str, bool] = {}
    raw: list[Mapping[str, Any]] = []
    seen: dict[str, str] = {}
    for i, item in enumerate(items):
        where = f"choices[{i}]"
        data = _as_object(item, where)
        r = _Reader(data, where, warnings)
        rule = r.string("rule", required=True)
        if rule not in CHOICE_FIELDS:
            raise r.fail(
                "rule",
                f"« {rule} » : pas de choix pour cette règle (règles : {', '.join(CHOICE_FIELDS)})",
            )
        r.unknown(("rule", "player", *CHOICE_FIELDS[rule]))
        subject_field = CHOICE_FIELDS[rule][0]
        key = choice_key(rule, r.string(subject_field, required=True))
        if key in seen:
            raise r.fail(
                subject_field,
                f"choix en double pour la règle {rule} et « {data[subject_field]} » "
                f"(déjà dans {seen[key]})",
            )
        seen[key] = where
        player = r.opt_string("player")
        if player is not None:
            check(where, "player", player, "player")
        if rule == "704.5j":
            ident = r.string("keep", required=True)
            check(where, "keep", ident, "permanent")
            keep.add(ident)
        elif rule == "704.5u":
            ident = r.string("creature", required=True)
            check(where, "creature", ident, "permanent")
            sector = r.string("sector", required=True).lower()
            if sector not in SECTORS:
                raise r.fail("sector", f"« {sector} » inconnu (alpha, beta ou gamma)")
            sectors[ident] = sector
        elif rule in ("704.5w", "704.5x"):
            ident = r.string("battle", required=True)
            check(where, "battle", ident, "permanent")
            who = r.string("protector", required=True)
            check(where, "protector", who, "player")
            protectors[(rule, ident)] = who
        else:
            ident = r.string("commander", required=True)
            check(where, "commander", ident, "object")
            value = data.get("to_command_zone")
            if not isinstance(value, bool):
                raise r.fail("to_command_zone", "true ou false attendu")
            moves[ident] = value
        # Only the known fields: the others were reported as ignored.
        kept = ("rule", "player", *CHOICE_FIELDS[rule])
        raw.append({k: v for k, v in data.items() if k in kept})
    return Choices(frozenset(keep), sectors, protectors, moves, tuple(raw))


def load_board(data: object) -> LoadedBoard:
    """Validate a decoded JSON document (or a compact-form dict) into a Board."""
    with cyclic_gc_paused():
        return _load_board(data)


def _load_board(data: object) -> LoadedBoard:
    if not isinstance(data, dict):
        raise BoardError(f"le plateau doit être un objet JSON, reçu {_type_name(data)}")
    warnings: list[str] = []
    top = _Reader(data, "plateau", warnings)
    top.unknown(TOP_LEVEL_FIELDS)
    ruleset = top.string("ruleset", default="fr-2024")
    if ruleset not in RULESETS:
        raise top.fail("ruleset", f"« {ruleset} » inconnu (valeurs : {', '.join(RULESETS)})")
    variant = top.string("variant", default="normal")
    if variant not in VARIANTS:
        raise top.fail("variant", f"« {variant} » inconnue (valeurs : {', '.join(VARIANTS)})")

    players: list[Player] = []
    for i, item in enumerate(_object_list(data, "players")):
        where = _id_label(item if isinstance(item, dict) else {}, "name", i, "players")
        players.append(_read_player(_as_object(item, where), where, warnings, variant))
    if not players:
        raise BoardError("champ « players » : au moins un joueur est nécessaire", field="players")
    names: set[str] = set()
    for p in players:
        if p.name in names:
            raise BoardError(f"players : nom de joueur en double « {p.name} »", field="name")
        names.add(p.name)

    teams: list[Team] = []
    team_of: dict[str, str] = {}
    for i, item in enumerate(_object_list(data, "teams")):
        where = _id_label(item if isinstance(item, dict) else {}, "name", i, "teams")
        r = _Reader(_as_object(item, where), where, warnings)
        r.unknown(("name", "members", "life", "poison"))
        members = r.words("members", lower=False)
        if not members:
            raise r.fail("members", "au moins un membre attendu")
        team = Team(
            name=r.string("name", required=True),
            members=members,
            life=r.integer("life", default=30),
            poison=r.integer("poison", default=0, minimum=0),
        )
        for m in members:
            if m not in names:
                raise r.fail("members", f"joueur « {m} » inconnu")
            if m in team_of:
                raise r.fail("members", f"« {m} » est déjà dans l'équipe « {team_of[m]} »")
            team_of[m] = team.name
        teams.append(team)
    if variant == "two-headed-giant":
        alone = [p.name for p in players if p.name not in team_of]
        if alone:
            raise BoardError(
                f"teams : en Troll à deux têtes chaque joueur doit être dans une équipe "
                f"(sans équipe : {', '.join(alone)})",
                field="teams",
            )
    elif teams:
        warnings.append("teams : ignorées hors de la variante two-headed-giant")

    ids: dict[str, str] = {}

    def claim(ident: str, where: str) -> None:
        if ident in ids:
            raise BoardError(
                f"{where} : identifiant en double « {ident} » (déjà utilisé par {ids[ident]})",
                field="id",
                obj=where,
            )
        if ident in names:
            raise BoardError(
                f"{where} : l'identifiant « {ident} » est aussi le nom d'un joueur "
                f"(attached_to serait ambigu)",
                field="id",
                obj=where,
            )
        ids[ident] = where

    permanents: list[Permanent] = []
    wheres: dict[str, str] = {}
    for i, item in enumerate(_object_list(data, "permanents")):
        where = _id_label(item if isinstance(item, dict) else {}, "id", i, "permanents")
        perm = _read_permanent(_as_object(item, where), where, warnings)
        claim(perm.id, where)
        wheres[perm.id] = where
        for fname, who in (("controller", perm.controller), ("owner", perm.owner)):
            if who not in names:
                raise BoardError(
                    f"{where} : champ « {fname} » : joueur « {who} » inconnu",
                    field=fname,
                    obj=where,
                )
        if perm.protector is not None and perm.protector not in names:
            raise BoardError(
                f"{where} : champ « protector » : joueur « {perm.protector} » inconnu",
                field="protector",
                obj=where,
            )
        permanents.append(perm)
    others: list[OtherObject] = []
    for i, item in enumerate(_object_list(data, "other_zones")):
        where = _id_label(item if isinstance(item, dict) else {}, "id", i, "other_zones")
        obj = _read_other(_as_object(item, where), where, warnings)
        claim(obj.id, where)
        if obj.owner not in names:
            raise BoardError(
                f"{where} : champ « owner » : joueur « {obj.owner} » inconnu",
                field="owner",
                obj=where,
            )
        others.append(obj)

    perm_ids = {p.id: p for p in permanents}
    for perm in permanents:
        where = wheres[perm.id]
        if (
            perm.attached_to is not None
            and perm.attached_to not in ids
            and perm.attached_to not in names
        ):
            raise BoardError(
                f"{where} : champ « attached_to » : « {perm.attached_to} » n'existe pas "
                f"(ni permanent, ni objet, ni joueur)",
                field="attached_to",
                obj=where,
            )
        if (
            perm.attacking is not None
            and perm.attacking not in names
            and perm.attacking not in perm_ids
        ):
            raise BoardError(
                f"{where} : champ « attacking » : « {perm.attacking} » n'est ni un joueur ni un "
                f"permanent",
                field="attacking",
                obj=where,
            )
    _check_cycles(permanents, wheres)
    _check_timestamps(permanents, wheres)
    for p in players:
        for cmd in p.commander_damage:
            if cmd not in ids:
                warnings.append(
                    f"joueur « {p.name} » : commander_damage : commandant « {cmd} » absent du "
                    f"plateau"
                )
    if variant != "commander" and any(p.commander_damage for p in players):
        warnings.append("commander_damage : ignoré hors de la variante commander")

    def check_ref(where: str, fname: str, value: str, what: str) -> None:
        ok = {
            "permanent": value in perm_ids,
            "player": value in names,
            "object": value in ids,
        }[what]
        if not ok:
            label = {"permanent": "permanent", "player": "joueur", "object": "objet"}[what]
            raise BoardError(
                f"{where} : champ « {fname} » : {label} « {value} » inconnu", field=fname, obj=where
            )

    choices = _read_choices(_object_list(data, "choices"), warnings, check_ref)

    stack: list[StackItem] = []
    for i, item in enumerate(_object_list(data, "stack")):
        where = f"stack[{i}]"
        r = _Reader(_as_object(item, where), where, warnings)
        r.unknown(("source", "ability", "controller"))
        stack.append(
            StackItem(
                source=r.string("source", required=True),
                ability=r.string("ability", required=True),
                controller=r.string("controller", required=True),
            )
        )
    active = top.opt_string("active_player")
    if active is not None and active not in names:
        raise top.fail("active_player", f"joueur « {active} » inconnu")
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        raise top.fail("description", "une chaîne attendue")
    board = Board(
        ruleset=ruleset,  # type: ignore[arg-type]
        variant=variant,  # type: ignore[arg-type]
        players=tuple(players),
        teams=tuple(teams),
        permanents=tuple(permanents),
        other_zones=tuple(others),
        stack=tuple(stack),
        choices=choices,
        active_player=active,
        description=description,
    )
    return LoadedBoard(board, tuple(warnings))


def _check_cycles(permanents: Sequence[Permanent], wheres: Mapping[str, str]) -> None:
    parent = {p.id: p.attached_to for p in permanents if p.attached_to is not None}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in parent:
        path: list[str] = []
        node: str | None = start
        while node is not None and node in parent and state.get(node) != 2:
            if state.get(node) == 1:
                cycle = path[path.index(node) :]
                chain = " → ".join([*cycle, node])
                raise BoardError(
                    f"{wheres[node]} : champ « attached_to » : cycle d'attachements ({chain})",
                    field="attached_to",
                    obj=wheres[node],
                )
            state[node] = 1
            path.append(node)
            node = parent[node]
        for n in path:
            state[n] = 2


def _check_timestamps(permanents: Sequence[Permanent], wheres: Mapping[str, str]) -> None:
    """The world rule and the Role rule compare timestamps: they must be there."""
    world = [p for p in permanents if "world" in p.supertypes]
    if len(world) > 1:
        for p in world:
            if p.timestamp is None:
                raise BoardError(
                    f"{wheres[p.id]} : champ « timestamp » : obligatoire quand plusieurs "
                    f"permanents sont « du monde » (règle des mondes)",
                    field="timestamp",
                    obj=wheres[p.id],
                )
    groups: dict[tuple[str, str], list[Permanent]] = {}
    for p in permanents:
        if "Role" in p.subtypes and p.attached_to is not None:
            groups.setdefault((p.attached_to, p.controller), []).append(p)
    for group in groups.values():
        if len(group) < 2:
            continue
        seen: dict[int, str] = {}
        for p in group:
            if p.timestamp is None:
                raise BoardError(
                    f"{wheres[p.id]} : champ « timestamp » : obligatoire pour plusieurs Rôles "
                    f"d'un même joueur sur un même permanent",
                    field="timestamp",
                    obj=wheres[p.id],
                )
            if p.timestamp in seen:
                raise BoardError(
                    f"{wheres[p.id]} : champ « timestamp » : même horodatage que « "
                    f"{seen[p.timestamp]} »",
                    field="timestamp",
                    obj=wheres[p.id],
                )
            seen[p.timestamp] = p.id


# json's messages, in French (prefixes: some messages end with a detail).
_JSON_MESSAGES = (
    ("Expecting value", "valeur attendue"),
    ("Expecting property name enclosed in double quotes", "nom de champ entre guillemets attendu"),
    ("Expecting ':' delimiter", "« : » attendu"),
    ("Expecting ',' delimiter", "« , » attendu"),
    ("Unterminated string starting at", "chaîne sans guillemet fermant"),
    ("Invalid control character", "caractère de contrôle interdit dans une chaîne"),
    ("Invalid \\uXXXX escape", "séquence « \\uXXXX » invalide"),
    ("Invalid \\escape", "séquence d'échappement « \\ » invalide"),
    ("Extra data", "texte en trop après la fin du JSON"),
    ("Illegal trailing comma", "virgule en trop avant la fin"),
)


def json_message(msg: str) -> str:
    """A message of the json module in French (a generic description if it is a new one)."""
    for english, french in _JSON_MESSAGES:
        if msg.startswith(english):
            return french
    return "syntaxe incorrecte"


def _refuse_constant(name: str) -> object:
    raise BoardError(f"« {name} » n'est pas une valeur JSON (nombre attendu)")


def _too_deep(source: str) -> BoardError:
    return BoardError(
        f"{source} : plateau trop imbriqué (plus de {MAX_DEPTH} niveaux de listes ou d'objets)"
    )


def _check_depth(value: dict[str, Any], source: str) -> None:
    """Refuse a decoded document nested deeper than MAX_DEPTH, level by level (no recursion;
    the decoders only make plain dicts and lists)."""
    level: list[dict[str, Any] | list[Any]] = [value]
    depth = 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            raise _too_deep(source)
        deeper: list[dict[str, Any] | list[Any]] = []
        for item in level:
            for v in item.values() if isinstance(item, dict) else item:
                if type(v) is dict or type(v) is list:
                    deeper.append(v)
        level = deeper


def decode_board_text(text: str, source: str = "plateau") -> dict[str, Any]:
    """JSON if the text starts with `{`, the compact text form otherwise. Whatever the text,
    the only exception is BoardError."""
    stripped = text.lstrip("\ufeff \t\r\n")
    value: dict[str, Any]
    if stripped.startswith("{") or stripped.startswith("["):
        try:
            decoded = json.loads(stripped, parse_int=parse_integer, parse_constant=_refuse_constant)
        except json.JSONDecodeError as exc:
            raise BoardError(
                f"{source} : JSON invalide ligne {exc.lineno}, colonne {exc.colno} : "
                f"{json_message(exc.msg)}"
            ) from exc
        except RecursionError as exc:
            raise _too_deep(source) from exc
        except BoardError as exc:
            raise BoardError(f"{source} : JSON invalide : {exc.message}") from exc
        if not isinstance(decoded, dict):
            raise BoardError(f"{source} : le plateau doit être un objet JSON")
        value = decoded
    else:
        value = parse_compact(text)
    _check_depth(value, source)
    return value


# French for the errors a file can meet (strerror is in the system's language, English).
_OS_ERRORS = {
    errno.ENOENT: "fichier introuvable",
    errno.EISDIR: "est un dossier, pas un fichier",
    errno.EACCES: "lecture non autorisée (permissions)",
    errno.EPERM: "lecture non autorisée (permissions)",
    errno.ENOTDIR: "un élément du chemin n'est pas un dossier",
    errno.ENAMETOOLONG: "nom de fichier trop long",
    errno.ELOOP: "trop de liens symboliques",
    errno.EIO: "erreur d'entrée-sortie",
    errno.ENXIO: "périphérique introuvable",
}


def os_error_message(path: Path, exc: OSError) -> str:
    """`PATH : est un dossier, pas un fichier` (the message starts with the path)."""
    known = _OS_ERRORS.get(exc.errno or 0)
    if known is not None:
        return f"{path} : {known}"
    code = errno.errorcode.get(exc.errno or 0, "inconnue")
    return f"{path} : fichier illisible (erreur système {code})"


def load_board_file(path: str | Path) -> LoadedBoard:
    """Read and validate a board file (JSON or compact form). Whatever the file holds, the
    only exception is BoardError."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise BoardError(os_error_message(p, exc)) from exc
    except ValueError as exc:  # a NUL character in the path
        raise BoardError(f"{p} : nom de fichier invalide (caractère nul)") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BoardError(f"{p} : le fichier n'est pas en UTF-8 (octet {exc.start})") from exc
    with cyclic_gc_paused():
        return load_board(decode_board_text(text, str(p)))


# --- the compact text form ------------------------------------------------------

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
    }
)
MAP_FIELDS = frozenset({"counters", "max_counters", "commander_damage"})
_PT = re.compile(r"^(-?[0-9]+)/(-?[0-9]+)$")


def _compact_int(text: str) -> object:
    """An integer if the text is one (too long: TooLongInteger), else the text (refused by
    the validation, which names the field)."""
    if _INTEGER_TEXT.fullmatch(text):
        return parse_integer(text)
    return text


def _compact_value(key: str, text: str, where: str) -> object:
    leaf = key.rsplit(".", 1)[-1]
    if leaf in INT_FIELDS:
        return _compact_int(text)
    if leaf in BOOL_FIELDS:
        low = text.lower()
        if low in ("true", "oui", "1"):
            return True
        if low in ("false", "non", "0"):
            return False
        return text
    if leaf in LIST_FIELDS:
        return [w for w in text.split(",") if w]
    if leaf in MAP_FIELDS:
        out: dict[str, object] = {}
        for part in text.split(","):
            if not part:
                continue
            name, sep, count = part.rpartition(":")
            if not sep:
                raise BoardError(
                    f"{where} : champ « {key} » : « {part} » sans nombre (écrire « {part}:1 »)",
                    field=leaf,
                    obj=where,
                )
            out[name] = _compact_int(count)
        return out
    return text


# shlex's messages, in French.
_SHLEX_MESSAGES = {
    "No closing quotation": "guillemets non fermés",
    "No escaped character": "« \\ » en fin de ligne, sans caractère à protéger",
}


def parse_compact(text: str) -> dict[str, Any]:
    """The compact text form, one record a line, into the JSON structure.

    ::

        ruleset fr-2024
        variant normal
        player Alice life=0 drew_from_empty_library
        perm bear controller=Alice creature 2/2 damage=2 counters=+1/+1:1,-1/-1:1
        other tok zone=graveyard owner=Alice token
        choice 704.5j keep=t1
    """
    data: dict[str, Any] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            words = shlex.split(stripped, comments=True)
        except ValueError as exc:
            problem = _SHLEX_MESSAGES.get(str(exc), "ligne mal formée (guillemets ou « \\ »)")
            raise BoardError(f"ligne {lineno} : {problem}") from exc
        if not words:
            continue
        head, rest = words[0].lower(), words[1:]
        if head in ("ruleset", "variant", "active_player", "description"):
            if len(rest) != 1:
                raise BoardError(f"ligne {lineno} : « {head} » attend une seule valeur")
            data[head] = rest[0]
            continue
        sections = {
            "player": ("players", "name"),
            "team": ("teams", "name"),
            "perm": ("permanents", "id"),
            "permanent": ("permanents", "id"),
            "other": ("other_zones", "id"),
            "choice": ("choices", "rule"),
        }
        if head not in sections:
            raise BoardError(
                f"ligne {lineno} : « {words[0]} » inconnu (player, team, perm, other, choice, "
                f"ruleset, variant, active_player, description)"
            )
        section, first = sections[head]
        if not rest:
            raise BoardError(f"ligne {lineno} : « {head} » sans {first}")
        record: dict[str, Any] = {first: rest[0]}
        where = f"ligne {lineno} ({head} {rest[0]})"
        for word in rest[1:]:
            key, sep, value = word.partition("=")
            if not sep and "." in word and word.rsplit(".", 1)[-1] in BOOL_FIELDS:
                key, sep, value = word, "=", "true"
            if sep:
                target = record
                parts = key.split(".")
                for part in parts[:-1]:
                    sub = target.get(part)
                    if not isinstance(sub, dict):
                        sub = {"name": sub} if isinstance(sub, str) else {}
                        target[part] = sub
                    target = sub
                target[parts[-1]] = _compact_value(key, value, where)
                continue
            low = word.lower()
            pt = _PT.match(word)
            if pt and section == "permanents":
                record["power"] = parse_integer(pt.group(1))
                record["toughness"] = parse_integer(pt.group(2))
            elif low in CARD_TYPES and section == "permanents":
                record.setdefault("types", []).append(low)
            elif low in SUPERTYPES and section == "permanents":
                record.setdefault("supertypes", []).append(low)
            elif low in RULE_SUBTYPES and section == "permanents":
                record.setdefault("subtypes", []).append(RULE_SUBTYPES[low])
            elif low in BOOL_FIELDS:
                record[low] = True
            else:
                raise BoardError(f"ligne {lineno} : mot « {word} » non compris")
        data.setdefault(section, []).append(record)
    return data


# --- back to JSON ----------------------------------------------------------------


def _compact_dict(pairs: Iterable[tuple[str, object]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if value is None or value is False or value == () or value == {}:
            continue
        if isinstance(value, frozenset):
            value = sorted(value)
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Mapping):
            value = dict(sorted(value.items()))
        out[key] = value
    return out


def permanent_to_dict(p: Permanent) -> dict[str, Any]:
    d = _compact_dict((name, getattr(p, name)) for name in PERMANENT_FIELDS)
    for key in ("damage", "deathtouch_damage", "regeneration_shields"):
        if d.get(key) == 0:
            del d[key]
    return d


def other_to_dict(o: OtherObject) -> dict[str, Any]:
    return _compact_dict((name, getattr(o, name)) for name in OTHER_FIELDS)


def player_to_dict(p: Player) -> dict[str, Any]:
    d: dict[str, Any] = {"name": p.name, "life": p.life}
    if p.poison:
        d["poison"] = p.poison
    d.update(
        _compact_dict(
            [
                ("drew_from_empty_library", p.drew_from_empty_library),
                ("commander_damage", p.commander_damage),
                ("cant_lose", p.cant_lose),
            ]
        )
    )
    if p.loss_replacement is not None:
        r = p.loss_replacement
        d["loss_replacement"] = _compact_dict(
            [
                ("name", r.name),
                ("source", r.source),
                ("life", r.life),
                ("permanents_to_library", r.permanents_to_library),
            ]
        )
    if p.lost:
        d["lost"] = True
    return d


def board_to_dict(board: Board) -> dict[str, Any]:
    """The board in the file format (default values left out)."""
    d: dict[str, Any] = {"ruleset": board.ruleset, "variant": board.variant}
    if board.description:
        d["description"] = board.description
    if board.active_player:
        d["active_player"] = board.active_player
    d["players"] = [player_to_dict(p) for p in board.players]
    if board.teams:
        d["teams"] = [
            {"name": t.name, "members": list(t.members), "life": t.life, "poison": t.poison}
            for t in board.teams
        ]
    d["permanents"] = [permanent_to_dict(p) for p in board.permanents]
    d["other_zones"] = [other_to_dict(o) for o in board.other_zones]
    if board.stack:
        d["stack"] = [
            {"source": s.source, "ability": s.ability, "controller": s.controller}
            for s in board.stack
        ]
    if board.choices.raw:
        d["choices"] = [dict(c) for c in board.choices.raw]
    return d


def pt_counter(kind: str) -> tuple[int, int] | None:
    """(+p, +t) for a counter that changes power and toughness (`+1/+1`, `-1/-1`, `+1/+0`)."""
    m = _PT_COUNTER.match(kind)
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2))

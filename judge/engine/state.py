"""The state: frozen dataclasses describing a game (`Board` and what it holds), the view a
check looks at (`Snapshot`), what a check returns (`Finding`, `ChoiceNeeded`) and the registry
entry of a check (`Check`).

Values are the *current* ones: `power` and `toughness` already include counters and
continuous effects. Mappings inside the dataclasses are never mutated: a new state is
a new object (`dataclasses.replace`)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from judge.engine.vocabulary import (
    DEFAULT_RULESET,
    AffectedController,
    EffectKind,
    FindingKind,
    Layer,
    ObjectId,
    PlayerName,
    RulesetName,
    SubjectKind,
    TriggerEvent,
    Variant,
    Zone,
)
from judge.fr import CHECK_LABELS

if TYPE_CHECKING:
    from judge.engine.layers import Layered, Origin

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
    speed: int | None = None  # 702.179b: no speed until a rule or an effect sets one


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    members: tuple[PlayerName, ...]
    life: int = 30
    poison: int = 0


@dataclass(frozen=True, slots=True)
class TriggeredAbility:
    """A leaves-the-battlefield or dies trigger stated on a permanent (`TriggerEvent`);
    `affects` filters the object that leaves or dies, judged from its last known
    information (603.10a), with the keys of a continuous effect's `affects`."""

    id: str
    trigger: TriggerEvent
    text: str = ""
    affects: Affects | None = None


@dataclass(frozen=True, slots=True)
class Printed:
    """A permanent's characteristics before continuous effects (613.1): only the keys the
    board states (`keys`); `power` or `toughness` None with its key present is `*`."""

    keys: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    subtypes: tuple[str, ...] = ()
    colors: frozenset[str] = frozenset()
    power: int | None = None
    toughness: int | None = None
    keywords: frozenset[str] = frozenset()
    triggered_abilities: tuple[TriggeredAbility, ...] = ()


@dataclass(frozen=True, slots=True)
class Affects:
    """Which permanents a continuous effect applies to: every stated key must hold."""

    ids: frozenset[str] | None = None
    self_: bool = False
    other: bool = False
    attached: bool = False
    types: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    controller: AffectedController = "any"


@dataclass(frozen=True, slots=True)
class ContinuousEffect:
    """A continuous effect (611, 613) in one layer. A static one applies while its source is on
    the battlefield, to whatever matches now; a resolved one is locked to its `ids`; a
    characteristic-defining ability (cda) defines its source's power and toughness."""

    id: str
    source: ObjectId
    kind: EffectKind
    layer: Layer
    affects: Affects
    controller: PlayerName | None = None
    timestamp: int | None = None
    text: str = ""
    control: PlayerName | None = None  # layer 2
    add_abilities: frozenset[str] = frozenset()  # layer 6
    remove_abilities: frozenset[str] = frozenset()  # layer 6 ("all": every ability)
    cda: str | None = None  # layer 7a
    set_power: int | None = None  # layer 7b
    set_toughness: int | None = None
    power: int = 0  # layer 7c, signed
    toughness: int = 0
    switch: bool = False  # layer 7d


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
    printed: Printed | None = None
    entered_under: PlayerName | None = None  # whose control it entered under
    triggered_abilities: tuple[TriggeredAbility, ...] = ()
    dealt_damage_this_turn_by: frozenset[str] = frozenset()
    bestowed: bool = False
    feminine: bool | None = None  # the French gender of its name (None: from its subtype)

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
    feminine: bool | None = None  # the French gender of its name
    scheme: bool = False  # Archenemy: a scheme card (704.6e)
    ongoing: bool = False
    face_up: bool = False
    phenomenon: bool = False  # Planechase: a phenomenon card (704.6f)


@dataclass(frozen=True, slots=True)
class StackItem:
    source: ObjectId
    ability: str
    controller: PlayerName
    # The source has ceased to exist or left the game (a token that died, 704.5d; 800.4a):
    # the ability stays on the stack, independent of it (113.7a).
    source_gone: bool = False


@dataclass(frozen=True)
class Choices:
    """The decisions the board file states in advance, indexed for the checks."""

    legend_keep: frozenset[ObjectId] = frozenset()
    sectors: Mapping[ObjectId, str] = field(default_factory=dict)
    protectors: Mapping[tuple[str, ObjectId], PlayerName] = field(default_factory=dict)
    commander_moves: Mapping[ObjectId, bool] = field(default_factory=dict)
    replacements: Mapping[ObjectId, str] = field(default_factory=dict)  # 616.1: which applies
    raw: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Board:
    ruleset: RulesetName = DEFAULT_RULESET
    variant: Variant = "normal"
    players: tuple[Player, ...] = ()
    teams: tuple[Team, ...] = ()
    permanents: tuple[Permanent, ...] = ()
    other_zones: tuple[OtherObject, ...] = ()
    stack: tuple[StackItem, ...] = ()
    choices: Choices = field(default_factory=Choices)
    active_player: PlayerName | None = None
    description: str | None = None
    continuous_effects: tuple[ContinuousEffect, ...] = ()
    archenemy: PlayerName | None = None
    planar_controller: PlayerName | None = None  # default: the active player (901.6)


# --- what checks return -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """One state-based action found to apply (`note=False`) or a "why not" (`note=True`).

    `kind` is an `ActionKind` (`destroy`, `lose_game` …) or, for notes, a `NoteKind`
    (`prevented`, `replaced`, `not_applicable` …). `why` is French and carries the numbers
    that made the rule apply; `also` lists further rules merged into the same event."""

    rule: str
    kind: FindingKind
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
    variants: frozenset[Variant] | None = None  # None: every variant

    @property
    def name(self) -> str:
        return self.func.__name__

    @property
    def label(self) -> str:
        """French, short (`judge.fr.CHECK_LABELS`)."""
        return CHECK_LABELS.get(self.rule, self.rule)


# The indexes of the permanents a snapshot builds in its one sweep.
_INDEXES = (
    "permanents",
    "creatures",
    "planeswalkers",
    "battles",
    "legendary",
    "world",
    "attached",
    "sagas",
    "roles",
    "low_toughness",
    "damaged",
    "with_counters",
    "with_max_counters",
    "space_sculptors",
    "attacked",
)


class Snapshot:
    """The state a check looks at, with the indexes the checks need, built in one sweep.

    Every check of a pass sees the same snapshot (704.3: all checked against one state)."""

    def __init__(self, board: Board, previous: Snapshot | None = None) -> None:
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
        # Continuous effects (613): the checks see the characteristics after every layer.
        self.origins: Mapping[str, Origin] = {}
        self.layered: Mapping[str, Permanent] | None = None
        self.layers: Layered | None = None
        perms: Iterable[Permanent] = board.permanents
        if board.continuous_effects or any(p.printed is not None for p in board.permanents):
            from judge.engine.layers import apply_layers

            self.layers = apply_layers(board, previous.layers if previous is not None else None)
            self.layered, self.origins = self.layers.permanents, self.layers.origins
            perms = self.layered.values()
        if previous is not None and (
            self.layers is previous.layers
            if self.layers is not None
            else previous.layers is None and board.permanents is previous.board.permanents
        ):
            # The same permanents as the previous pass (only the stack or the other zones
            # changed): the same indexes, never mutated once built.
            for name in _INDEXES:
                setattr(self, name, getattr(previous, name))
        else:
            self._sweep(perms)

    def _sweep(self, perms: Iterable[Permanent]) -> None:
        for p in perms:
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
    def attached_by_target(self) -> dict[str, list[Permanent]]:
        """The permanents attached to each object, by its id (built when first asked for)."""
        out: dict[str, list[Permanent]] = {}
        for p in self.attached:
            if p.attached_to is not None:
                out.setdefault(p.attached_to, []).append(p)
        return out

    @cached_property
    def with_triggers(self) -> list[Permanent]:
        """The permanents with stated triggered abilities (603.10a), when first asked for."""
        return [p for p in self.permanents.values() if p.triggered_abilities]

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

    def toughness_why(self, p: Permanent, detail: bool = True) -> str:
        """`endurance 1`, and where it comes from when continuous effects are stated
        (`endurance 1 : 2 de base, -1 (1 marqueur -1/-1)`)."""
        origin = self.origins.get(p.id) if detail else None
        if origin is None:
            return f"endurance {p.toughness}"
        return f"endurance {p.toughness} ({origin.explain()})"

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


# --- the loader and the loop -----------------------------------------------------

T = TypeVar("T")


def copier(cls: type[T]) -> Callable[[T, Mapping[str, object]], T]:
    """`evolve` for one slotted class, its copy written out field by field (one slot
    descriptor call per field: about three times faster than a loop over `__slots__` with
    getattr and `object.__setattr__`, which counts for 10,000 permanents a pass). Made once
    per class, at import."""
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    setters: dict[str, Callable[[object, object], None]] = {}
    for i, name in enumerate(slots):
        env[f"_s{i}"] = setters[name] = getattr(cls, name).__set__
    body = "".join(f"    _s{i}(new, obj.{name})\n" for i, name in enumerate(slots))
    exec(f"def copy(obj):\n    new = _new(_cls)\n{body}    return new\n", env)
    copy: Callable[[T], T] = env["copy"]

    def evolve_one(obj: T, changes: Mapping[str, object]) -> T:
        new = copy(obj)
        for name, value in changes.items():
            setters[name](new, value)
        return new

    return evolve_one


_EVOLVERS: Mapping[type, Callable[[Any, Mapping[str, object]], Any]] = MappingProxyType(
    {cls: copier(cls) for cls in (Permanent, OtherObject, Player)}
)


def evolve(obj: T, changes: Mapping[str, object]) -> T:
    """`dataclasses.replace` without re-running `__init__` over every field (the board's
    slotted dataclasses are frozen and have no `__post_init__`)."""
    fast = _EVOLVERS.get(type(obj))
    if fast is not None:
        new: T = fast(obj, changes)
        return new
    cls = type(obj)
    new = object.__new__(cls)
    setter = object.__setattr__
    for name in cls.__slots__:  # type: ignore[attr-defined]
        setter(new, name, getattr(obj, name))
    for name, value in changes.items():
        setter(new, name, value)
    return new


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

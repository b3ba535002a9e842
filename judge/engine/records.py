"""Reading the records of a board file one object at a time (a player, a team, a permanent,
an object in another zone, a stated choice), with French messages that name the field and
the object. `loading` puts them together and checks them against each other."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from judge.engine.errors import BoardError
from judge.engine.state import (
    Affects,
    Choices,
    ContinuousEffect,
    LossReplacement,
    OtherObject,
    Permanent,
    Player,
    Printed,
    Team,
    TriggeredAbility,
)
from judge.engine.vocabulary import (
    AFFECTED_CONTROLLERS,
    AFFECTS_FIELDS,
    CARD_TYPES,
    CDAS,
    CHOICE_FIELDS,
    COLORS,
    EFFECT_FIELDS,
    EFFECT_KINDS,
    ENCHANT_WORDS,
    KEYWORD_ALIASES,
    LAYER_EFFECT_FIELDS,
    LAYERS,
    LOSS_REPLACEMENT_FIELDS,
    MAX_INT,
    MAX_INT_DIGITS,
    OTHER_FIELDS,
    PERMANENT_FIELDS,
    PLAYER_FIELDS,
    PRINTED_FIELDS,
    RULE_SUBTYPES,
    SECTORS,
    SUPERTYPES,
    TEAM_FIELDS,
    TRIGGER_EVENTS,
    TRIGGER_FIELDS,
    ZONES,
    TooLongInteger,
    choice_key,
)

_EMPTY_COUNTS: Mapping[str, int] = MappingProxyType({})
_EMPTY_WORDS: frozenset[str] = frozenset()

# --- messages --------------------------------------------------------------------


def _json_repr(value: object) -> str:
    if isinstance(value, TooLongInteger):
        return f"{value.digits} chiffres"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = "…"
    return text if len(text) <= 60 else text[:57] + "…"


def type_name(value: object) -> str:
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
    return f"{expected} {agreed}, reçu {type_name(value)} ({_json_repr(value)})"


def too_large(value: int) -> str:
    if isinstance(value, TooLongInteger):
        digits = value.digits
    else:  # no str(): it fails past 4,300 digits
        digits = len(str(abs(value))) if abs(value) < 10**100 else value.bit_length() * 3 // 10
    return f"nombre trop grand ({digits} chiffres ; au plus {MAX_INT_DIGITS})"


# --- reading one object ------------------------------------------------------------------


class Reader:
    """Reads one JSON object's fields, raising BoardError with the object's name.

    `interned` is shared by the readers of one load: one frozenset per distinct list of words
    (boards repeat the same few lists)."""

    def __init__(
        self,
        data: Mapping[str, Any],
        where: str,
        warnings: list[str],
        interned: dict[tuple[str, ...], frozenset[str]] | None = None,
    ) -> None:
        self.data = data
        self.where = where
        self.warnings = warnings
        self.interned = {} if interned is None else interned

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

    def frozen(self, words: tuple[str, ...]) -> frozenset[str]:
        """The shared frozenset of these words."""
        if not words:
            return _EMPTY_WORDS
        found = self.interned.get(words)
        if found is None:
            found = self.interned[words] = frozenset(words)
        return found

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


def object_list(data: Mapping[str, Any], name: str) -> list[Any]:
    value = data.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise BoardError(
            f"champ « {name} » : une liste attendue, reçu {type_name(value)}", field=name
        )
    return value


def as_object(item: object, where: str) -> Mapping[str, Any]:
    if not isinstance(item, dict):
        raise BoardError(f"{where} : un objet JSON attendu, reçu {type_name(item)}", obj=where)
    return item


def id_label(item: object, key: str, index: int, section: str) -> str:
    ident = item.get(key) if isinstance(item, dict) else None
    if isinstance(ident, str) and ident:
        return f"{section}[{index}] « {ident} »"
    return f"{section}[{index}]"


def read_sector(r: Reader, name: str, required: bool = False) -> str | None:
    """A sector designation (704.5u), in lower case."""
    sector = r.string(name, required=True) if required else r.opt_string(name)
    if sector is None:
        return None
    sector = sector.lower()
    if sector not in SECTORS:
        raise r.fail(name, f"« {sector} » inconnu (alpha, beta ou gamma)")
    return sector


# --- players and teams -------------------------------------------------------------------


def _read_loss_replacement(r: Reader) -> LossReplacement | None:
    raw = r.data.get("loss_replacement")
    if isinstance(raw, str):
        return LossReplacement(name=r.string("loss_replacement"))
    if isinstance(raw, dict):
        rr = Reader(raw, f"{r.where}, loss_replacement", r.warnings)
        rr.unknown(LOSS_REPLACEMENT_FIELDS)
        return LossReplacement(
            name=rr.string("name", default="remplacement de défaite"),
            source=rr.opt_string("source"),
            life=rr.opt_integer("life"),
            permanents_to_library=rr.boolean("permanents_to_library"),
        )
    if raw is not None and raw is not False:
        raise r.fail("loss_replacement", f"une chaîne ou un objet attendu, reçu {type_name(raw)}")
    return None


def read_player(item: Mapping[str, Any], where: str, warnings: list[str], variant: str) -> Player:
    r = Reader(item, where, warnings)
    r.unknown(PLAYER_FIELDS)
    repl = _read_loss_replacement(r)
    return Player(
        name=r.string("name", required=True),
        life=r.integer("life", default=40 if variant == "commander" else 20),
        poison=r.integer("poison", default=0, minimum=0),
        drew_from_empty_library=r.boolean("drew_from_empty_library"),
        commander_damage=r.counts("commander_damage"),
        cant_lose=r.boolean("cant_lose"),
        loss_replacement=repl,
        lost=r.boolean("lost"),
        speed=r.opt_integer("speed", minimum=0),
    )


def read_team(r: Reader, names: set[str], team_of: dict[str, str]) -> Team:
    """A Two-Headed Giant team; `team_of` records its members."""
    r.unknown(TEAM_FIELDS)
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
    return team


# --- permanents and other objects ----------------------------------------------------


_DEFAULT_PERM = Permanent(id="", name="", controller="", owner="")


def _perm_words(r: Reader, name: str) -> frozenset[str]:
    return r.frozen(r.words(name))


def _perm_subtypes(r: Reader, name: str) -> tuple[str, ...]:
    return tuple(RULE_SUBTYPES.get(s.casefold(), s) for s in r.words(name, lower=False))


def _perm_keywords(r: Reader, name: str) -> frozenset[str]:
    return r.frozen(tuple(KEYWORD_ALIASES.get(k, k) for k in r.words(name)))


def read_triggered(r: Reader, name: str) -> tuple[TriggeredAbility, ...]:
    """`triggered_abilities`: [{id, trigger, text, affects}] (603.6c leaves-the-battlefield,
    700.4 dies; `affects` filters the object that leaves or dies, 603.10a)."""
    value = r.data.get(name)
    if value is None:
        return ()
    if not isinstance(value, list):
        raise r.fail(name, wrong_type("une liste", value))
    out = []
    for i, item in enumerate(value):
        where = f"{r.where}, {name}[{i}]"
        rr = Reader(as_object(item, where), where, r.warnings)
        rr.unknown(TRIGGER_FIELDS)
        trigger = rr.string("trigger", required=True)
        if trigger not in TRIGGER_EVENTS:
            raise rr.fail(
                "trigger", f"« {trigger} » inconnu (valeurs : {', '.join(TRIGGER_EVENTS)})"
            )
        out.append(
            TriggeredAbility(
                id=rr.string("id", required=True),
                trigger=trigger,  # type: ignore[arg-type]
                text=rr.opt_string("text") or "",
                affects=_read_affects(rr) if rr.data.get("affects") is not None else None,
            )
        )
    return tuple(out)


def read_printed(r: Reader, name: str) -> Printed | None:
    """`printed`: the characteristics before continuous effects; a key absent is the stated
    current value, `power` or `toughness` null is `*`."""
    value = r.data.get(name)
    if value is None:
        return None
    rr = Reader(as_object(value, f"{r.where}, {name}"), f"{r.where}, {name}", r.warnings)
    rr.unknown(PRINTED_FIELDS)
    data = rr.data
    for key in ("power", "toughness"):
        if data.get(key) is not None:
            rr.integer(key)
    return Printed(
        keys=frozenset(k for k in PRINTED_FIELDS if k in data),
        types=_perm_words(rr, "types"),
        subtypes=_perm_subtypes(rr, "subtypes"),
        colors=_perm_words(rr, "colors"),
        power=data.get("power"),
        toughness=data.get("toughness"),
        keywords=_perm_keywords(rr, "keywords"),
        triggered_abilities=read_triggered(rr, "triggered_abilities"),
    )


# How each field of a permanent is read (a null value gives the default). Only the fields
# present in the object are read: most permanents have a handful of the thirty.
PERMANENT_READERS: Mapping[str, Callable[[Reader, str], object]] = MappingProxyType(
    {
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
        "enchant": lambda r, n: r.frozen(r.words(n, single=True)),
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
        "sector": read_sector,
        "printed": read_printed,
        "entered_under": lambda r, n: r.opt_string(n),
        "triggered_abilities": read_triggered,
        "dealt_damage_this_turn_by": lambda r, n: r.frozen(r.words(n, lower=False)),
        "bestowed": lambda r, n: r.boolean(n),
        "feminine": lambda r, n: r.boolean(n) if r.data.get(n) is not None else None,
    }
)


# Fast paths for the commonest fields when their value is plainly valid (anything else goes
# through the reader, which gives the error).
_PERM_BOOLS = frozenset(k for k in PERMANENT_FIELDS if isinstance(getattr(_DEFAULT_PERM, k), bool))
_PERM_STRINGS = frozenset(
    {"name", "controller", "owner", "attached_to", "protector", "attacking", "entered_under"}
)
_PERM_INTS = frozenset({"power", "toughness", "timestamp"})
_PERM_COUNTS = frozenset({"damage", "deathtouch_damage", "regeneration_shields"})


def _permanent_fields(r: Reader) -> dict[str, Any]:
    """The fields present in the object, read (unknown ones reported and left out). The
    commonest fields, when their value is plainly valid, are taken as they are (inline: a
    board may hold 100,000 permanents)."""
    fields: dict[str, Any] = {}
    readers = PERMANENT_READERS
    for key, value in r.data.items():
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
            r.warnings.append(f"{r.where} : champ inconnu « {key} » ignoré")
        elif key != "id":
            fields[key] = reader(r, key)
    return fields


def _warn_unknown_words(r: Reader, fields: Mapping[str, Any]) -> None:
    """Card types, supertypes and colors the rules do not know are kept, with a warning."""
    where = r.where
    for t in fields.get("types", ()):
        if t not in CARD_TYPES:
            r.warnings.append(
                f"{where} : type « {t} » inconnu (types : {', '.join(sorted(CARD_TYPES))})"
            )
    for st in fields.get("supertypes", ()):
        if st not in SUPERTYPES:
            r.warnings.append(f"{where} : sur-type « {st} » inconnu")


def _check_permanent_needs(r: Reader, fields: Mapping[str, Any]) -> None:
    """What a creature, an Aura and a Saga cannot do without."""
    types: frozenset[str] = fields.get("types", _EMPTY_WORDS)
    subtypes: tuple[str, ...] = fields.get("subtypes", ())
    printed: Printed | None = fields.get("printed")
    printed_toughness = printed is not None and "toughness" in printed.keys
    if fields.get("bestowed") and fields.get("toughness") is None and not printed_toughness:
        raise r.fail("toughness", "obligatoire pour une Aura avec grâce (celle de la créature)")
    if "creature" in types and fields.get("toughness") is None and not printed_toughness:
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
            r.warnings.append(f"{r.where} : couleur « {c} » inconnue")
    if "Saga" in subtypes and fields.get("final_chapter") is None:
        raise r.fail("final_chapter", "obligatoire pour une Saga (numéro du dernier chapitre)")


def read_permanent(r: Reader) -> Permanent:
    ident = r.string("id", required=True)
    fields = _permanent_fields(r)
    fields["id"] = ident
    controller = fields.get("controller")
    owner = fields.get("owner")
    if controller is None and owner is None:
        raise r.fail("controller", "il faut au moins « controller » ou « owner »")
    fields["controller"] = controller or owner
    fields["owner"] = owner or controller
    if fields.get("name") is None:
        fields["name"] = ident
    _warn_unknown_words(r, fields)
    _check_permanent_needs(r, fields)
    return Permanent(**fields)


def read_other(r: Reader) -> OtherObject:
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
        feminine=r.boolean("feminine") if r.data.get("feminine") is not None else None,
        scheme=r.boolean("scheme"),
        ongoing=r.boolean("ongoing"),
        face_up=r.boolean("face_up"),
        phenomenon=r.boolean("phenomenon"),
    )


# --- choices -------------------------------------------------------------------------

# Checks that a stated id names an existing permanent, player or object:
# (where, field, value, "permanent" | "player" | "object").
RefCheck = Callable[[str, str, str, str], None]


@dataclass
class _ChoicesRead:
    """The stated choices read so far, indexed as `Choices` holds them."""

    keep: set[str]
    sectors: dict[str, str]
    protectors: dict[tuple[str, str], str]
    moves: dict[str, bool]
    replacements: dict[str, str]


def _choose_legend(r: Reader, rule: str, check: RefCheck, out: _ChoicesRead) -> None:
    """704.5j: the legendary permanent to keep."""
    ident = r.string("keep", required=True)
    check(r.where, "keep", ident, "permanent")
    out.keep.add(ident)


def _choose_sector(r: Reader, rule: str, check: RefCheck, out: _ChoicesRead) -> None:
    """704.5u: a creature's sector."""
    ident = r.string("creature", required=True)
    check(r.where, "creature", ident, "permanent")
    sector = read_sector(r, "sector", required=True)
    assert sector is not None
    out.sectors[ident] = sector


def _choose_protector(r: Reader, rule: str, check: RefCheck, out: _ChoicesRead) -> None:
    """704.5w, 704.5x: a battle's protector."""
    ident = r.string("battle", required=True)
    check(r.where, "battle", ident, "permanent")
    who = r.string("protector", required=True)
    check(r.where, "protector", who, "player")
    out.protectors[(rule, ident)] = who


def _choose_command_zone(r: Reader, rule: str, check: RefCheck, out: _ChoicesRead) -> None:
    """704.6d: whether the commander goes to the command zone."""
    ident = r.string("commander", required=True)
    check(r.where, "commander", ident, "object")
    value = r.data.get("to_command_zone")
    if not isinstance(value, bool):
        raise r.fail("to_command_zone", "true ou false attendu")
    out.moves[ident] = value


def _choose_replacement(r: Reader, rule: str, check: RefCheck, out: _ChoicesRead) -> None:
    """616.1: the replacement effect that applies to a permanent's destruction
    ("regeneration" or the id of an Aura with umbra armor)."""
    ident = r.string("object", required=True)
    check(r.where, "object", ident, "permanent")
    apply = r.string("apply", required=True)
    if apply != "regeneration":
        check(r.where, "apply", apply, "permanent")
    out.replacements[ident] = apply


_CHOICE_READERS: Mapping[str, Callable[[Reader, str, RefCheck, _ChoicesRead], None]] = (
    MappingProxyType(
        {
            "704.5j": _choose_legend,
            "704.5u": _choose_sector,
            "704.5w": _choose_protector,
            "704.5x": _choose_protector,
            "704.6d": _choose_command_zone,
            "616.1": _choose_replacement,
        }
    )
)


def read_choices(items: list[Any], warnings: list[str], check: RefCheck) -> Choices:
    out = _ChoicesRead(set(), {}, {}, {}, {})
    raw: list[Mapping[str, Any]] = []
    seen: dict[str, str] = {}
    for i, item in enumerate(items):
        where = f"choices[{i}]"
        data = as_object(item, where)
        r = Reader(data, where, warnings)
        rule = r.string("rule", required=True)
        if rule not in CHOICE_FIELDS:
            raise r.fail(
                "rule",
                f"« {rule} » : pas de choix pour cette règle (règles : {', '.join(CHOICE_FIELDS)})",
            )
        kept = ("rule", "player", *CHOICE_FIELDS[rule])
        r.unknown(kept)
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
        _CHOICE_READERS[rule](r, rule, check, out)
        # Only the known fields: the others were reported as ignored.
        raw.append({k: v for k, v in data.items() if k in kept})
    return Choices(
        frozenset(out.keep),
        out.sectors,
        out.protectors,
        out.moves,
        out.replacements,
        tuple(raw),
    )


# --- continuous effects --------------------------------------------------------------


def _read_affects(r: Reader) -> Affects:
    value = r.data.get("affects")
    if value is None:
        return Affects()
    where = f"{r.where}, affects"
    ra = Reader(as_object(value, where), where, r.warnings)
    ra.unknown(AFFECTS_FIELDS)
    controller = ra.string("controller", default="any")
    if controller not in AFFECTED_CONTROLLERS:
        raise ra.fail(
            "controller", f"« {controller} » inconnu (valeurs : {', '.join(AFFECTED_CONTROLLERS)})"
        )
    ids = ra.words("ids", lower=False) if ra.data.get("ids") is not None else None
    types = frozenset(ra.words("types"))
    colors = frozenset(ra.words("colors"))
    warn_unknown_filter_words(ra, types, colors)
    return Affects(
        ids=frozenset(ids) if ids is not None else None,
        self_=ra.boolean("self"),
        other=ra.boolean("other"),
        attached=ra.boolean("attached"),
        types=types,
        colors=colors,
        controller=controller,  # type: ignore[arg-type]
    )


def warn_unknown_filter_words(r: Reader, types: Iterable[str], colors: Iterable[str]) -> None:
    """A filter's card types and colors the rules do not know match nothing: kept, with the
    same warning as on a permanent."""
    for t in sorted(types):
        if t not in CARD_TYPES:
            r.warnings.append(
                f"{r.where} : type « {t} » inconnu (types : {', '.join(sorted(CARD_TYPES))})"
            )
    for c in sorted(colors):
        if c not in COLORS:
            r.warnings.append(f"{r.where} : couleur « {c} » inconnue")


def _read_effect_body(r: Reader, layer: str) -> dict[str, Any]:
    """The `effect` object, holding what its layer does (LAYER_EFFECT_FIELDS)."""
    value = r.data.get("effect")
    if value is None:
        raise r.fail("effect", "champ obligatoire manquant")
    where = f"{r.where}, effect"
    re_ = Reader(as_object(value, where), where, r.warnings)
    known = LAYER_EFFECT_FIELDS[layer]
    for key in re_.data:
        if key not in known:
            raise re_.fail(key, f"ne relève pas de la couche {layer} (champs : {', '.join(known)})")
    if all(
        re_.data.get(k) is None or re_.data.get(k) is False or re_.data.get(k) == [] for k in known
    ):
        raise re_.fail(known[0], f"la couche {layer} attend au moins : {', '.join(known)}")
    out: dict[str, Any] = {}
    if layer == "2":
        out["control"] = re_.string("control", required=True)
    elif layer == "6":
        out["add_abilities"] = _perm_keywords(re_, "add_abilities")
        out["remove_abilities"] = _perm_keywords(re_, "remove_abilities")
    elif layer == "7a":
        cda = re_.string("cda", required=True)
        if cda not in CDAS:
            raise re_.fail("cda", f"« {cda} » inconnue (valeurs : {', '.join(CDAS)})")
        out["cda"] = cda
    elif layer == "7b":
        out["set_power"] = re_.opt_integer("set_power")
        out["set_toughness"] = re_.opt_integer("set_toughness")
    elif layer == "7c":
        out["power"] = re_.integer("power", default=0)
        out["toughness"] = re_.integer("toughness", default=0)
    else:
        out["switch"] = re_.boolean("switch")
    return out


def read_effect(r: Reader) -> ContinuousEffect:
    """One continuous effect (613); its references are checked by the loader."""
    r.unknown(EFFECT_FIELDS)
    ident = r.string("id", required=True)
    kind = r.string("kind", default="static")
    if kind not in EFFECT_KINDS:
        raise r.fail("kind", f"« {kind} » inconnu (valeurs : {', '.join(EFFECT_KINDS)})")
    layer = r.string("layer", required=True) if not isinstance(r.data.get("layer"), int) else ""
    if layer not in LAYERS:
        shown = r.data.get("layer")
        raise r.fail("layer", f"couche « {shown} » inexistante (couches : {', '.join(LAYERS)})")
    if kind == "cda" and layer != "7a":
        raise r.fail("layer", "une capacité de définition de caractéristique est en couche 7a")
    affects = _read_affects(r)
    if kind == "resolved" and affects.ids is None:
        raise r.fail(
            "affects", "un effet « resolved » s'applique à des objets fixés : « ids » attendu"
        )
    # A resolved effect lasts after its source has ceased to exist (611.2c): it may name none.
    source = r.string("source", required=kind != "resolved", default="")
    return ContinuousEffect(
        id=ident,
        source=source,
        kind=kind,  # type: ignore[arg-type]
        layer=layer,  # type: ignore[arg-type]
        affects=affects,
        controller=r.opt_string("controller"),
        timestamp=r.opt_integer("timestamp"),
        text=r.opt_string("text") or "",
        **_read_effect_body(r, layer),
    )

"""Loading a board: a JSON document (or the compact text form) validated into a `Board`,
with French messages that name the field and the object; and the way back (`board_to_dict`).

Whatever the input, the only exception is `BoardError`."""

from __future__ import annotations

import errno
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.engine.compact import dict_to_compact, parse_compact
from judge.engine.errors import BoardError
from judge.engine.records import (
    Reader,
    as_object,
    id_label,
    object_list,
    read_choices,
    read_effect,
    read_other,
    read_permanent,
    read_player,
    read_team,
    type_name,
)
from judge.engine.rulesets import RULESETS
from judge.engine.state import (
    Affects,
    Board,
    ContinuousEffect,
    OtherObject,
    Permanent,
    Player,
    Printed,
    StackItem,
    Team,
    TriggeredAbility,
    cyclic_gc_paused,
)
from judge.engine.vocabulary import (
    DEFAULT_RULESET,
    LAYER_EFFECT_FIELDS,
    LOSS_REPLACEMENT_FIELDS,
    MAX_DEPTH,
    OTHER_FIELDS,
    PERMANENT_FIELDS,
    PRINTED_FIELDS,
    STACK_FIELDS,
    TOP_LEVEL_FIELDS,
    VARIANTS,
    parse_integer,
)
from judge.fr import BOARD_FILE_ERRORS, BOARD_JSON_ERRORS
from judge.rules.decode import MAX_BYTES, FileTooLarge, NotRegularFile, read_bounded
from judge.rules.store import EDITION_ID


@dataclass(frozen=True)
class LoadedBoard:
    board: Board
    warnings: tuple[str, ...]


# --- checks across objects ---------------------------------------------------------


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


def _timestamp_error(where: str, problem: str) -> BoardError:
    return BoardError(f"{where} : champ « timestamp » : {problem}", field="timestamp", obj=where)


def _check_timestamps(permanents: Sequence[Permanent], wheres: Mapping[str, str]) -> None:
    """The world rule and the Role rule compare timestamps: they must be there."""
    world = [p for p in permanents if "world" in p.supertypes]
    if len(world) > 1:
        for p in world:
            if p.timestamp is None:
                raise _timestamp_error(
                    wheres[p.id],
                    "obligatoire quand plusieurs permanents sont « du monde » (règle des mondes)",
                )
    groups: dict[tuple[str, str], list[Permanent]] = {}
    for p in permanents:
        if "Role" in p.subtypes and p.attached_to is not None:
            groups.setdefault((p.attached_to, p.controller), []).append(p)
    for group in groups.values():
        if len(group) >= 2:
            _check_role_timestamps(group, wheres)


def _check_role_timestamps(group: Sequence[Permanent], wheres: Mapping[str, str]) -> None:
    seen: dict[int, str] = {}
    for p in group:
        if p.timestamp is None:
            raise _timestamp_error(
                wheres[p.id],
                "obligatoire pour plusieurs Rôles d'un même joueur sur un même permanent",
            )
        if p.timestamp in seen:
            raise _timestamp_error(wheres[p.id], f"même horodatage que « {seen[p.timestamp]} »")
        seen[p.timestamp] = p.id


# --- the board ---------------------------------------------------------------------------


def load_board(data: object) -> LoadedBoard:
    """Validate a decoded JSON document (or a compact-form dict) into a Board."""
    if not isinstance(data, dict):
        raise BoardError(f"le plateau doit être un objet JSON, reçu {type_name(data)}")
    with cyclic_gc_paused():
        return _BoardLoader(data).load()


class _BoardLoader:
    """One load: the sections read in order, each checked against those before it (a
    permanent's controller must be a player …). Errors are raised in the file's order."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.warnings: list[str] = []
        self.interned: dict[tuple[str, ...], frozenset[str]] = {}
        self.top = Reader(data, "plateau", self.warnings)
        self.names: set[str] = set()  # players
        self.ids: dict[str, str] = {}  # permanents and other objects -> where
        self.wheres: dict[str, str] = {}  # permanents -> where
        self.permanents: dict[str, Permanent] = {}

    def load(self) -> LoadedBoard:
        top = self.top
        top.unknown(TOP_LEVEL_FIELDS)
        ruleset = top.string("ruleset", default=DEFAULT_RULESET)
        if ruleset not in RULESETS and not EDITION_ID.fullmatch(ruleset):
            # An edition's id is looked up in the store when the board is resolved.
            raise top.fail(
                "ruleset",
                f"« {ruleset} » n'est ni un jeu de règles livré ({', '.join(RULESETS)}) ni "
                f"l'identifiant d'une édition (par exemple en-2025-11-14)",
            )
        variant = top.string("variant", default="normal")
        if variant not in VARIANTS:
            raise top.fail("variant", f"« {variant} » inconnue (valeurs : {', '.join(VARIANTS)})")
        players = self._players(variant)
        teams = self._teams(players, variant)
        permanents = self._permanents()
        others = self._others()
        self._check_references(permanents)
        _check_cycles(permanents, self.wheres)
        _check_timestamps(permanents, self.wheres)
        self._check_commander_damage(players, variant)
        choices = read_choices(object_list(self.data, "choices"), self.warnings, self._check_ref)
        stack = self._stack()
        effects = self._effects()
        active = top.opt_string("active_player")
        for key in ("active_player", "archenemy", "planar_controller"):
            who = top.opt_string(key)
            if who is not None and who not in self.names:
                raise top.fail(key, f"joueur « {who} » inconnu")
        description = self.data.get("description")
        if description is not None and not isinstance(description, str):
            raise top.fail("description", "une chaîne attendue")
        board = Board(
            ruleset=ruleset,
            variant=variant,  # type: ignore[arg-type]
            players=players,
            teams=teams,
            permanents=permanents,
            other_zones=others,
            stack=stack,
            choices=choices,
            active_player=active,
            description=description,
            continuous_effects=effects,
            archenemy=top.opt_string("archenemy"),
            planar_controller=top.opt_string("planar_controller"),
        )
        return LoadedBoard(board, tuple(self.warnings))

    def _items(self, section: str, key: str) -> Iterable[tuple[str, Mapping[str, Any]]]:
        """Each object of a section, with its name for the messages."""
        for i, item in enumerate(object_list(self.data, section)):
            where = id_label(item, key, i, section)
            yield where, as_object(item, where)

    def _players(self, variant: str) -> tuple[Player, ...]:
        players = [
            read_player(item, where, self.warnings, variant)
            for where, item in self._items("players", "name")
        ]
        if not players:
            raise BoardError(
                "champ « players » : au moins un joueur est nécessaire", field="players"
            )
        for p in players:
            if p.name in self.names:
                raise BoardError(f"players : nom de joueur en double « {p.name} »", field="name")
            self.names.add(p.name)
        return tuple(players)

    def _teams(self, players: Sequence[Player], variant: str) -> tuple[Team, ...]:
        team_of: dict[str, str] = {}
        teams = tuple(
            read_team(Reader(item, where, self.warnings), self.names, team_of)
            for where, item in self._items("teams", "name")
        )
        if variant == "two-headed-giant":
            alone = [p.name for p in players if p.name not in team_of]
            if alone:
                raise BoardError(
                    f"teams : en Troll à deux têtes chaque joueur doit être dans une équipe "
                    f"(sans équipe : {', '.join(alone)})",
                    field="teams",
                )
        elif teams:
            self.warnings.append("teams : ignorées hors de la variante two-headed-giant")
        return teams

    def _claim(self, ident: str, where: str) -> None:
        """An id names one object and no player."""
        if ident in self.ids:
            raise BoardError(
                f"{where} : identifiant en double « {ident} » (déjà utilisé par {self.ids[ident]})",
                field="id",
                obj=where,
            )
        if ident in self.names:
            raise BoardError(
                f"{where} : l'identifiant « {ident} » est aussi le nom d'un joueur "
                f"(attached_to serait ambigu)",
                field="id",
                obj=where,
            )
        self.ids[ident] = where

    def _check_player(self, where: str, fname: str, who: str | None) -> None:
        if who is not None and who not in self.names:
            raise BoardError(
                f"{where} : champ « {fname} » : joueur « {who} » inconnu", field=fname, obj=where
            )

    def _permanents(self) -> tuple[Permanent, ...]:
        out: list[Permanent] = []
        for where, item in self._items("permanents", "id"):
            perm = read_permanent(Reader(item, where, self.warnings, self.interned))
            self._claim(perm.id, where)
            self.wheres[perm.id] = where
            self._check_player(where, "controller", perm.controller)
            self._check_player(where, "owner", perm.owner)
            self._check_player(where, "protector", perm.protector)
            self.permanents[perm.id] = perm
            out.append(perm)
        return tuple(out)

    def _others(self) -> tuple[OtherObject, ...]:
        out: list[OtherObject] = []
        for where, item in self._items("other_zones", "id"):
            obj = read_other(Reader(item, where, self.warnings))
            self._claim(obj.id, where)
            self._check_player(where, "owner", obj.owner)
            out.append(obj)
        return tuple(out)

    def _check_references(self, permanents: Sequence[Permanent]) -> None:
        """What a permanent is attached to, or attacks, exists; so do the sources that dealt
        it damage this turn, and the player it entered under."""
        names, ids = self.names, self.ids
        for perm in permanents:
            where = self.wheres[perm.id]
            self._check_player(where, "entered_under", perm.entered_under)
            for source in sorted(perm.dealt_damage_this_turn_by):
                if source not in ids:
                    raise BoardError(
                        f"{where} : champ « dealt_damage_this_turn_by » : « {source} » n'existe "
                        f"pas (ni permanent, ni objet)",
                        field="dealt_damage_this_turn_by",
                        obj=where,
                    )
            target = perm.attached_to
            if target is not None and target not in ids and target not in names:
                raise BoardError(
                    f"{where} : champ « attached_to » : « {target} » n'existe pas "
                    f"(ni permanent, ni objet, ni joueur)",
                    field="attached_to",
                    obj=where,
                )
            attacked = perm.attacking
            if attacked is not None and attacked not in names and attacked not in self.permanents:
                raise BoardError(
                    f"{where} : champ « attacking » : « {attacked} » n'est ni un joueur ni un "
                    f"permanent",
                    field="attacking",
                    obj=where,
                )

    def _check_commander_damage(self, players: Sequence[Player], variant: str) -> None:
        for p in players:
            for cmd in p.commander_damage:
                if cmd not in self.ids:
                    self.warnings.append(
                        f"joueur « {p.name} » : commander_damage : commandant « {cmd} » absent "
                        f"du plateau"
                    )
        if variant != "commander" and any(p.commander_damage for p in players):
            self.warnings.append("commander_damage : ignoré hors de la variante commander")

    def _check_ref(self, where: str, fname: str, value: str, what: str) -> None:
        """A stated choice names an existing permanent, player or object."""
        ok = {
            "permanent": value in self.permanents,
            "player": value in self.names,
            "object": value in self.ids,
        }[what]
        if not ok:
            label = {"permanent": "permanent", "player": "joueur", "object": "objet"}[what]
            raise BoardError(
                f"{where} : champ « {fname} » : {label} « {value} » inconnu", field=fname, obj=where
            )

    def _effects(self) -> tuple[ContinuousEffect, ...]:
        """The continuous effects: each names an existing source, known players and, in
        `affects.ids`, permanents on the battlefield."""
        out: list[ContinuousEffect] = []
        seen: set[str] = set()
        for where, item in self._items("continuous_effects", "id"):
            r = Reader(item, where, self.warnings)
            effect = read_effect(r)
            if effect.id in seen:
                raise r.fail("id", f"identifiant d'effet en double « {effect.id} »")
            seen.add(effect.id)
            if effect.source not in self.ids and (effect.source or effect.kind != "resolved"):
                raise r.fail("source", f"« {effect.source} » n'existe pas (ni permanent, ni objet)")
            self._check_player(where, "controller", effect.controller)
            self._check_player(where, "control", effect.control)
            for ident in sorted(effect.affects.ids or ()):
                if ident not in self.permanents:
                    raise r.fail("affects", f"« {ident} » n'est pas un permanent du plateau")
            out.append(effect)
        return tuple(out)

    def _stack(self) -> tuple[StackItem, ...]:
        out: list[StackItem] = []
        for i, item in enumerate(object_list(self.data, "stack")):
            where = f"stack[{i}]"
            r = Reader(as_object(item, where), where, self.warnings)
            r.unknown(STACK_FIELDS)
            item = StackItem(
                source=r.string("source", required=True),
                ability=r.string("ability", required=True),
                controller=r.string("controller", required=True),
                source_gone=r.boolean("source_gone"),
            )
            where = f"stack[{i}] (source « {item.source} »)"
            if item.source not in self.ids and not item.source_gone:
                raise BoardError(
                    f"{where} : champ « source » : « {item.source} » n'existe pas "
                    f"(ni permanent, ni objet)",
                    field="source",
                    obj=where,
                )
            self._check_player(where, "controller", item.controller)
            out.append(item)
        return tuple(out)


# --- text and files ------------------------------------------------------------------


def json_message(msg: str) -> str:
    """A message of the json module in French (a generic description if it is a new one)."""
    for english, french in BOARD_JSON_ERRORS:
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


def _decode_json(text: str, source: str) -> dict[str, Any]:
    try:
        decoded = json.loads(text, parse_int=parse_integer, parse_constant=_refuse_constant)
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
    return decoded


def decode_board_text(text: str, source: str = "plateau") -> dict[str, Any]:
    """JSON if the text starts with `{`, the compact text form otherwise. Whatever the text,
    the only exception is BoardError."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("{") or stripped.startswith("["):
        value = _decode_json(stripped, source)
    else:
        value = parse_compact(text)
    _check_depth(value, source)
    return value


def os_error_message(path: Path, exc: OSError) -> str:
    """`PATH : est un dossier, pas un fichier` (the message starts with the path)."""
    code = errno.errorcode.get(exc.errno or 0, "inconnue")
    known = BOARD_FILE_ERRORS.get(code)
    if known is not None:
        return f"{path} : {known}"
    return f"{path} : fichier illisible (erreur système {code})"


def load_board_file(path: str | Path) -> LoadedBoard:
    """Read and validate a board file (JSON or compact form). Whatever the file holds, the
    only exception is BoardError."""
    p = Path(path)
    try:
        raw = read_bounded(p, MAX_BYTES)  # a FIFO or /dev/zero is refused, not read forever
    except (NotRegularFile, FileTooLarge) as exc:
        raise BoardError(f"{p} : {exc.strerror}") from exc
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


# --- back to JSON ------------------------------------------------------------------------


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


def _triggered_to_list(abilities: Sequence[TriggeredAbility]) -> list[dict[str, Any]]:
    out = []
    for t in abilities:
        d: dict[str, Any] = {"id": t.id, "trigger": t.trigger}
        if t.text:
            d["text"] = t.text
        if t.affects is not None:
            d["affects"] = affects_to_dict(t.affects)
        out.append(d)
    return out


def _printed_to_dict(pr: Printed) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for key in PRINTED_FIELDS:
        if key not in pr.keys:
            continue
        value = getattr(pr, key)
        if key == "triggered_abilities":
            d[key] = _triggered_to_list(value)
        elif isinstance(value, frozenset):
            d[key] = sorted(value)
        elif isinstance(value, tuple):
            d[key] = list(value)
        else:
            d[key] = value  # None for `*`
    return d


def permanent_to_dict(p: Permanent) -> dict[str, Any]:
    d = _compact_dict(
        (name, getattr(p, name))
        for name in PERMANENT_FIELDS
        if name not in ("printed", "triggered_abilities")
    )
    for key in ("damage", "deathtouch_damage", "regeneration_shields"):
        if d.get(key) == 0:
            del d[key]
    if not p.dealt_damage_this_turn_by:  # a field added later: left out when empty
        d.pop("dealt_damage_this_turn_by", None)
    if p.feminine is False:
        d["feminine"] = False
    if p.printed is not None:
        d["printed"] = _printed_to_dict(p.printed)
    if p.triggered_abilities:
        d["triggered_abilities"] = _triggered_to_list(p.triggered_abilities)
    return d


def affects_to_dict(a: Affects) -> dict[str, Any]:
    """An `affects` filter in the file format (defaults left out)."""
    return _compact_dict(
        [
            ("ids", a.ids),
            ("self", a.self_),
            ("other", a.other),
            ("attached", a.attached),
            ("types", a.types),
            ("colors", a.colors),
            ("controller", None if a.controller == "any" else a.controller),
        ]
    )


def effect_to_dict(e: ContinuousEffect) -> dict[str, Any]:
    """A continuous effect in the file format (defaults left out)."""
    d: dict[str, Any] = {"id": e.id, "source": e.source, "kind": e.kind, "layer": e.layer}
    if not e.source:  # a resolved effect whose source has ceased to exist
        del d["source"]
    if e.controller is not None:
        d["controller"] = e.controller
    affects = affects_to_dict(e.affects)
    if affects:
        d["affects"] = affects
    if e.layer == "7c":
        d["effect"] = {"power": e.power, "toughness": e.toughness}
    else:
        d["effect"] = _compact_dict((k, getattr(e, k)) for k in LAYER_EFFECT_FIELDS[e.layer])
    if e.timestamp is not None:
        d["timestamp"] = e.timestamp
    if e.text:
        d["text"] = e.text
    return d


def other_to_dict(o: OtherObject) -> dict[str, Any]:
    d = _compact_dict((name, getattr(o, name)) for name in OTHER_FIELDS)
    if o.feminine is False:
        d["feminine"] = False
    return d


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
            (name, getattr(r, name)) for name in LOSS_REPLACEMENT_FIELDS
        )
    if p.lost:
        d["lost"] = True
    if p.speed is not None:
        d["speed"] = p.speed
    return d


def board_to_dict(board: Board) -> dict[str, Any]:
    """The board in the file format (default values left out)."""
    d: dict[str, Any] = {"ruleset": board.ruleset, "variant": board.variant}
    if board.description:
        d["description"] = board.description
    if board.active_player:
        d["active_player"] = board.active_player
    for key in ("archenemy", "planar_controller"):
        if getattr(board, key) is not None:
            d[key] = getattr(board, key)
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
            {
                "source": s.source,
                "ability": s.ability,
                "controller": s.controller,
                **({"source_gone": True} if s.source_gone else {}),
            }
            for s in board.stack
        ]
    if board.choices.raw:
        d["choices"] = [dict(c) for c in board.choices.raw]
    if board.continuous_effects:
        d["continuous_effects"] = [effect_to_dict(e) for e in board.continuous_effects]
    return d


def board_to_compact(board: Board) -> str:
    """The board as compact text (`decode_board_text` reads it back to the same board)."""
    return dict_to_compact(board_to_dict(board))

"""The compact text form of a board, one record a line, read into the JSON structure that
`load_board` validates::

    ruleset fr-2024
    variant normal
    player Alice life=0 drew_from_empty_library
    perm bear controller=Alice creature 2/2 damage=2 counters=+1/+1:1,-1/-1:1
    other tok zone=graveyard owner=Alice token
    choice 704.5j keep=t1

Words are typed by the field tables of `vocabulary` (`INT_FIELDS`, `BOOL_FIELDS` …); a value
that is not of its field's type is kept as text, for the validation to name the field."""

from __future__ import annotations

import re
import shlex
from types import MappingProxyType
from typing import Any

from judge.engine.errors import BoardError
from judge.engine.vocabulary import (
    BOOL_FIELDS,
    CARD_TYPES,
    INT_FIELDS,
    INTEGER_TEXT,
    LIST_FIELDS,
    MAP_FIELDS,
    RULE_SUBTYPES,
    SUPERTYPES,
    parse_integer,
)
from judge.fr import BOARD_SHLEX_ERRORS

_PT = re.compile(r"^(-?[0-9]+)/(-?[0-9]+)$")
_PLAIN = re.compile(r"[\w.+/:,!*-]+")
# Lines that set one top-level field.
_HEADERS = frozenset(
    {"ruleset", "variant", "active_player", "description", "archenemy", "planar_controller"}
)
# Lines that add a record: the section it goes to and the field its first word fills.
_SECTIONS = MappingProxyType(
    {
        "player": ("players", "name"),
        "team": ("teams", "name"),
        "perm": ("permanents", "id"),
        "permanent": ("permanents", "id"),
        "other": ("other_zones", "id"),
        "choice": ("choices", "rule"),
        "effect": ("continuous_effects", "id"),
        "stack": ("stack", "source"),
    }
)
# `ability PERM ID trigger=… text=…`: a triggered ability of a permanent stated above;
# `printed_ability PERM ID …`: one of its printed triggered abilities (`printed`).
_ABILITY = "ability"
_PRINTED_ABILITY = "printed_ability"


def parse_compact(text: str) -> dict[str, Any]:
    """The compact text form, one record a line, into the JSON structure."""
    data: dict[str, Any] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        words = _split_line(line, lineno)
        if words:
            _read_line(data, words, lineno)
    return data


def _split_line(line: str, lineno: int) -> list[str]:
    """The words of a line (none for a blank line or a comment)."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return []
    try:
        return shlex.split(stripped, comments=True)
    except ValueError as exc:
        problem = BOARD_SHLEX_ERRORS.get(str(exc), "ligne mal formée (guillemets ou « \\ »)")
        raise BoardError(f"ligne {lineno} : {problem}") from exc


def _read_line(data: dict[str, Any], words: list[str], lineno: int) -> None:
    head, rest = words[0].lower(), words[1:]
    if head in (_ABILITY, _PRINTED_ABILITY):
        _read_ability(data, rest, lineno, head)
        return
    if head in _HEADERS:
        if len(rest) != 1:
            raise BoardError(f"ligne {lineno} : « {head} » attend une seule valeur")
        data[head] = rest[0]
        return
    if head not in _SECTIONS:
        raise BoardError(
            f"ligne {lineno} : « {words[0]} » inconnu (player, team, perm, other, choice, "
            f"effect, ability, printed_ability, stack, ruleset, variant, active_player, "
            f"description)"
        )
    section, first = _SECTIONS[head]
    if not rest:
        raise BoardError(f"ligne {lineno} : « {head} » sans {first}")
    record: dict[str, Any] = {first: rest[0]}
    where = f"ligne {lineno} ({head} {rest[0]})"
    for word in rest[1:]:
        _read_word(record, word, section == "permanents", where, lineno)
    data.setdefault(section, []).append(record)


def _read_ability(data: dict[str, Any], rest: list[str], lineno: int, head: str) -> None:
    """`ability PERM ID trigger=dies text="…"` adds to PERM's `triggered_abilities`;
    `printed_ability PERM ID …` to its `printed.triggered_abilities`."""
    if len(rest) < 2:
        raise BoardError(f"ligne {lineno} : « {head} » attend un permanent et un identifiant")
    owner = next((p for p in data.get("permanents", []) if p.get("id") == rest[0]), None)
    if owner is None:
        raise BoardError(
            f"ligne {lineno} : « {head} » : permanent « {rest[0]} » inconnu (à déclarer avant)"
        )
    record: dict[str, Any] = {"id": rest[1]}
    where = f"ligne {lineno} ({head} {rest[0]} {rest[1]})"
    for word in rest[2:]:
        _read_word(record, word, False, where, lineno)
    target = owner
    if head == _PRINTED_ABILITY:
        target = owner.setdefault("printed", {})
        if not isinstance(target, dict):
            raise BoardError(f"{where} : champ « printed » : un objet attendu")
    abilities = target.setdefault("triggered_abilities", [])
    if not isinstance(abilities, list):
        raise BoardError(f"{where} : champ « triggered_abilities » : une liste attendue")
    abilities.append(record)


def _read_word(record: dict[str, Any], word: str, permanent: bool, where: str, lineno: int) -> None:
    """`key=value` (`loss_replacement.life=5` for a nested field), a flag (`token`), or, for
    a permanent, `2/2`, a card type, a supertype or a subtype the rules name."""
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
        return
    low = word.lower()
    pt = _PT.match(word)
    if pt and permanent:
        record["power"] = parse_integer(pt.group(1))
        record["toughness"] = parse_integer(pt.group(2))
    elif low in CARD_TYPES and permanent:
        record.setdefault("types", []).append(low)
    elif low in SUPERTYPES and permanent:
        record.setdefault("supertypes", []).append(low)
    elif low in RULE_SUBTYPES and permanent:
        record.setdefault("subtypes", []).append(RULE_SUBTYPES[low])
    elif low in BOOL_FIELDS:
        record[low] = True
    else:
        raise BoardError(f"ligne {lineno} : mot « {word} » non compris")


def _compact_int(text: str) -> object:
    """An integer if the text is one (too long: TooLongInteger), `*` as null (a printed
    power or toughness defined by an ability), else the text (refused by the validation,
    which names the field)."""
    if text == "*":
        return None
    if INTEGER_TEXT.fullmatch(text):
        return parse_integer(text)
    return text


def _compact_bool(text: str) -> object:
    low = text.lower()
    if low in ("true", "oui", "1"):
        return True
    if low in ("false", "non", "0"):
        return False
    return text


def _compact_counts(key: str, text: str, where: str) -> dict[str, object]:
    """`+1/+1:2,-1/-1:1` into {name: number}."""
    out: dict[str, object] = {}
    for part in text.split(","):
        if not part:
            continue
        name, sep, count = part.rpartition(":")
        if not sep:
            raise BoardError(
                f"{where} : champ « {key} » : « {part} » sans nombre (écrire « {part}:1 »)",
                field=key.rsplit(".", 1)[-1],
                obj=where,
            )
        out[name] = _compact_int(count)
    return out


def _compact_value(key: str, text: str, where: str) -> object:
    leaf = key.rsplit(".", 1)[-1]
    if leaf in INT_FIELDS:
        return _compact_int(text)
    if leaf in BOOL_FIELDS:
        return _compact_bool(text)
    if leaf in LIST_FIELDS:
        return [w for w in text.split(",") if w]
    if leaf in MAP_FIELDS:
        return _compact_counts(key, text, where)
    return text


# --- the way back: a board (in its file structure) as compact text --------------------


def _quote(text: str) -> str:
    return text if text and _PLAIN.fullmatch(text) else shlex.quote(text)


def _words(prefix: str, value: object) -> list[str]:
    """`key=value` words for one field (nested objects as `key.sub=value`)."""
    if value is True:
        return [prefix]
    if value is False:
        return [f"{prefix}=false"]
    if value is None:
        return [f"{prefix}=*"]
    if isinstance(value, dict):
        leaf = prefix.rsplit(".", 1)[-1]
        if leaf in MAP_FIELDS:
            return [f"{prefix}=" + _quote(",".join(f"{k}:{n}" for k, n in value.items()))]
        kept = {k: v for k, v in value.items() if v != [] and v != {}}
        return [w for k, v in kept.items() for w in _words(f"{prefix}.{k}", v)]
    if isinstance(value, list):
        return [f"{prefix}=" + _quote(",".join(str(v) for v in value))]
    if isinstance(value, int):
        return [f"{prefix}={value}"]
    return [f"{prefix}={_quote(str(value))}"]


def _record_line(head: str, first: str, record: dict[str, Any], skip: tuple[str, ...]) -> str:
    words = [head, _quote(str(record[first]))]
    for key, value in record.items():
        if key != first and key not in skip and value != [] and value != {}:
            words += _words(key, value)
    return " ".join(words)


def dict_to_compact(data: dict[str, Any]) -> str:
    """The compact text of a board in its file structure (`board_to_dict`): `parse_compact`
    reads it back into the same structure."""
    lines = [f"{k} {_quote(str(data[k]))}" for k in ("ruleset", "variant") if k in data]
    heads = ("active_player", "archenemy", "planar_controller", "description")
    lines += [f"{k} {_quote(str(data[k]))}" for k in heads if k in data]
    for head, (section, first) in _SECTIONS.items():
        if head == "permanent":
            continue
        for record in data.get(section, []):
            if head != "perm":
                lines.append(_record_line(head, first, record, ()))
                continue
            printed = record.get("printed")
            printed_abilities: list[dict[str, Any]] = []
            if isinstance(printed, dict) and "triggered_abilities" in printed:
                printed_abilities = printed["triggered_abilities"]
                printed = {k: v for k, v in printed.items() if k != "triggered_abilities"}
                record = {**record, "printed": printed}
            lines.append(_record_line(head, first, record, ("triggered_abilities",)))
            perm = _quote(str(record["id"]))
            for ability in record.get("triggered_abilities", []):
                lines.append(_record_line(f"{_ABILITY} {perm}", "id", ability, ()))
            for ability in printed_abilities:
                lines.append(_record_line(f"{_PRINTED_ABILITY} {perm}", "id", ability, ()))
    return "\n".join(lines) + "\n"

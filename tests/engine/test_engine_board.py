"""Loading and validating boards: French messages naming the field and the object,
warnings for unknown fields, the compact text form, and the way back to JSON."""

from __future__ import annotations

import errno
import gc
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.engine import (
    BoardError,
    board_to_dict,
    load_board,
    load_board_file,
    parse_compact,
    render_text,
    resolution_to_dict,
    resolve,
)
from judge.engine.loading import json_message, os_error_message
from judge.engine.records import PERMANENT_READERS
from judge.engine.vocabulary import PERMANENT_FIELDS
from judge.rules.errors import JudgeError

BOARDS = Path(__file__).resolve().parents[2] / "corpus" / "boards"


def base(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": "fr-2024",
        "players": [{"name": "Alice"}, {"name": "Bob"}],
        "permanents": [
            {
                "id": "ours",
                "name": "Ours",
                "controller": "Alice",
                "types": ["creature"],
                "power": 2,
                "toughness": 2,
            }
        ],
    }
    data.update(extra)
    return data


def perm(**fields: Any) -> dict[str, Any]:
    p = {"id": "x", "controller": "Alice", "types": ["creature"], "power": 1, "toughness": 1}
    p.update(fields)
    return p


def error(data: object) -> BoardError:
    with pytest.raises(BoardError) as info:
        load_board(data)
    return info.value


def test_board_error_is_a_judge_error() -> None:
    assert issubclass(BoardError, JudgeError)


def test_a_valid_board_loads() -> None:
    loaded = load_board(base())
    assert loaded.warnings == ()
    (p,) = loaded.board.permanents
    assert (p.id, p.owner, p.toughness) == ("ours", "Alice", 2)


@pytest.mark.parametrize(
    ("fields", "field_name", "words"),
    [
        ({"toughness": "deux"}, "toughness", ["entier", "deux"]),
        ({"damage": -1}, "damage", ["négative"]),
        ({"counters": {"+1/+1": -2}}, "counters", ["négatif"]),
        ({"counters": {"+1/+1": "un"}}, "counters", ["entier"]),
        ({"indestructible": "oui"}, "indestructible", ["booléen"]),
        ({"types": ["creature"], "toughness": None}, "toughness", ["obligatoire", "créature"]),
        ({"types": "creature"}, "types", ["une liste de chaînes attendue", "une chaîne"]),
        ({"keywords": "persist"}, "keywords", ["liste"]),
        ({"types": ["creature", 3]}, "types", ["élément n°2"]),
        ({"enchant": 3}, "enchant", ["une chaîne ou une liste de chaînes attendue"]),
        ({"name": 3}, "name", ["une chaîne attendue, reçu un entier (3)"]),
        ({"toughness": 10**19}, "toughness", ["trop grand", "20 chiffres"]),
        ({"counters": {"+1/+1": 10**30}}, "counters", ["trop grand"]),
        ({"counters": {" ": 1}}, "counters", ["nom vide"]),
        ({"attached_to": "nulle-part"}, "attached_to", ["n'existe pas", "nulle-part"]),
        ({"controller": "Zoé"}, "controller", ["Zoé"]),
        ({"types": ["enchantment"], "subtypes": ["Aura"]}, "enchant", ["Aura"]),
        ({"types": ["enchantment"], "subtypes": ["Saga"]}, "final_chapter", ["Saga"]),
        ({"sector": "delta"}, "sector", ["delta"]),
        ({"regeneration_shields": 1.5}, "regeneration_shields", ["entier"]),
    ],
)
def test_wrong_fields_name_the_field_and_the_object(
    fields: dict[str, Any], field_name: str, words: list[str]
) -> None:
    err = error(base(permanents=[perm(**fields)]))
    assert err.field == field_name
    assert "« x »" in err.message
    assert f"« {field_name} »" in err.message
    for w in words:
        assert w in err.message


def test_missing_id() -> None:
    p = perm()
    del p["id"]
    err = error(base(permanents=[p]))
    assert err.field == "id"
    assert "permanents[0]" in err.message
    assert "manquant" in err.message


def test_duplicate_id_across_zones() -> None:
    err = error(base(other_zones=[{"id": "ours", "zone": "graveyard", "owner": "Bob"}]))
    assert "en double" in err.message
    assert "ours" in err.message


def test_an_id_that_is_also_a_player_name() -> None:
    err = error(base(permanents=[perm(id="Bob")]))
    assert "ambigu" in err.message


def test_cycle_of_attachments() -> None:
    err = error(
        base(
            permanents=[
                perm(id="a", types=["artifact"], attached_to="b"),
                perm(id="b", types=["artifact"], attached_to="c"),
                perm(id="c", types=["artifact"], attached_to="a"),
            ]
        )
    )
    assert "cycle" in err.message
    assert err.field == "attached_to"


def test_self_attachment_is_a_cycle() -> None:
    err = error(base(permanents=[perm(id="a", types=["artifact"], attached_to="a")]))
    assert "cycle" in err.message


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (base(ruleset="fr 2025"), ["ruleset", "fr 2025", "ni un jeu de règles livré"]),
        (base(variant="emperor"), ["variant", "emperor"]),
        (base(players=[]), ["players"]),
        (base(players=[{"name": "Alice"}, {"name": "Alice"}]), ["double", "Alice"]),
        (base(players=[{"name": "Alice", "poison": -1}, {"name": "Bob"}]), ["poison", "Alice"]),
        (base(permanents="ours"), ["permanents", "liste"]),
        (base(permanents=["ours"]), ["permanents[0]", "objet"]),
        ([1, 2], ["objet"]),
        (base(other_zones=[{"id": "g", "zone": "cimetière", "owner": "Alice"}]), ["zone"]),
        (base(other_zones=[{"id": "g", "zone": "battlefield", "owner": "Alice"}]), ["permanents"]),
        (base(choices=[{"rule": "704.5g"}]), ["704.5g"]),
        (base(choices=[{"rule": "704.5j", "keep": "absent"}]), ["absent"]),
        (base(teams=[{"name": "T", "members": ["Zoé"]}]), ["Zoé"]),
        (base(variant="two-headed-giant"), ["équipe"]),
        (base(active_player="Zoé"), ["active_player"]),
    ],
)
def test_other_errors(data: object, words: list[str]) -> None:
    err = error(data)
    for w in words:
        assert w in err.message


def test_world_permanents_need_timestamps() -> None:
    err = error(
        base(
            permanents=[
                perm(id="w1", types=["enchantment"], supertypes=["world"], timestamp=1),
                perm(id="w2", types=["enchantment"], supertypes=["world"]),
            ]
        )
    )
    assert err.field == "timestamp"
    assert "w2" in err.message


def test_unknown_fields_are_warnings() -> None:
    data = base(couleur="bleu")
    data["permanents"][0]["pouvoir"] = 3
    loaded = load_board(data)
    assert len(loaded.warnings) == 2
    assert any("couleur" in w for w in loaded.warnings)
    assert any("pouvoir" in w and "ours" in w for w in loaded.warnings)


def test_expected_and_description_are_known_keys() -> None:
    loaded = load_board(base(expected={"fr-2024": {}}, description="un plateau"))
    assert loaded.warnings == ()


def test_compact_form_equals_json() -> None:
    text = """
    # a comment
    ruleset fr-pre2009
    variant commander
    player Alice life=3 drew_from_empty_library commander_damage=cmd:21
    player Bob loss_replacement="Miroir de la liche" loss_replacement.life=20
    perm cmd name="Le Général" controller=Bob legendary creature 5/5 commander
    perm w controller=Alice creature -1/-1 counters=+1/+1:1,-1/-1:3 keywords=undying
    perm a controller=Alice enchantment Aura enchant=creature,player attached_to=w
    other t zone=graveyard owner=Alice token
    choice 704.5j keep=cmd
    """
    compact = load_board(parse_compact(text)).board
    as_json = load_board(
        {
            "ruleset": "fr-pre2009",
            "variant": "commander",
            "players": [
                {
                    "name": "Alice",
                    "life": 3,
                    "drew_from_empty_library": True,
                    "commander_damage": {"cmd": 21},
                },
                {"name": "Bob", "loss_replacement": {"name": "Miroir de la liche", "life": 20}},
            ],
            "permanents": [
                {
                    "id": "cmd",
                    "name": "Le Général",
                    "controller": "Bob",
                    "supertypes": ["legendary"],
                    "types": ["creature"],
                    "power": 5,
                    "toughness": 5,
                    "commander": True,
                },
                {
                    "id": "w",
                    "controller": "Alice",
                    "types": ["creature"],
                    "power": -1,
                    "toughness": -1,
                    "counters": {"+1/+1": 1, "-1/-1": 3},
                    "keywords": ["undying"],
                },
                {
                    "id": "a",
                    "controller": "Alice",
                    "types": ["enchantment"],
                    "subtypes": ["Aura"],
                    "enchant": ["creature", "player"],
                    "attached_to": "w",
                },
            ],
            "other_zones": [{"id": "t", "zone": "graveyard", "owner": "Alice", "token": True}],
            "choices": [{"rule": "704.5j", "keep": "cmd"}],
        }
    ).board
    assert compact == as_json


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("player Alice\nperm x creature 1/1 gros", ["ligne 2", "gros"]),
        ("joueur Alice", ["ligne 1", "joueur"]),
        ('player "Alice', ["ligne 1"]),
        ("player Alice\nperm x controller=Alice creature toughness=deux", ["toughness"]),
    ],
)
def test_compact_form_errors(text: str, words: list[str]) -> None:
    with pytest.raises(BoardError) as info:
        load_board(parse_compact(text))
    for w in words:
        assert w in info.value.message


@pytest.mark.parametrize("path", sorted(BOARDS.glob("*.json")), ids=lambda p: p.stem)
def test_board_to_dict_round_trips(path: Path) -> None:
    board = load_board_file(path).board
    again = load_board(json.loads(json.dumps(board_to_dict(board)))).board
    assert again == board


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="introuvable"):
        load_board_file(tmp_path / "absent.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": [}', encoding="utf-8")
    with pytest.raises(BoardError, match="ligne 1, colonne"):
        load_board_file(bad)
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"description": "éé"}'.encode("latin-1"))
    with pytest.raises(BoardError, match="UTF-8"):
        load_board_file(latin)


# --- any input: a French BoardError, never another exception -------------------------


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def file_error(path: Path) -> str:
    with pytest.raises(BoardError) as info:
        load_board_file(path)
    return info.value.message


@pytest.mark.parametrize("depth", [40, 100_000])
def test_deeply_nested_json_is_refused(tmp_path: Path, depth: int) -> None:
    # 100,000 levels make json raise RecursionError; 40 levels decode, and would reach the
    # (recursive) JSON encoder of the output through an echoed field.
    text = '{"players": [{"name": "A"}], "x": ' + "[" * depth + "]" * depth + "}"
    assert "trop imbriqué" in file_error(write(tmp_path, "deep.json", text))


def test_nesting_of_a_real_board_is_accepted() -> None:
    for path in sorted(BOARDS.glob("*.json")):
        load_board_file(path)  # the gallery, `expected` included


def test_integers_too_long_to_convert_name_the_field(tmp_path: Path) -> None:
    digits = "9" * 5000
    message = file_error(
        write(tmp_path, "big.json", '{"players": [{"name": "A", "life": ' + digits + "}]}")
    )
    assert message == (
        "players[0] « A » : champ « life » : nombre trop grand (5000 chiffres ; au plus 18)"
    )
    negative = file_error(
        write(tmp_path, "neg.json", '{"players": [{"name": "A", "life": -' + digits + "}]}")
    )
    assert "5000 chiffres" in negative
    compact = file_error(write(tmp_path, "big.txt", f"player A life={digits}\n"))
    assert "« life »" in compact and "5000 chiffres" in compact
    pt = file_error(write(tmp_path, "pt.txt", f"player A\nperm x controller=A creature {digits}/1"))
    assert "« power »" in pt and "« x »" in pt and "5000 chiffres" in pt
    counters = file_error(
        write(tmp_path, "c.txt", f"player A\nperm x controller=A artifact counters=charge:{digits}")
    )
    assert "« counters »" in counters and "trop grand" in counters
    # where any value is accepted (an ignored field), a long integer is harmless
    loaded = load_board_file(
        write(tmp_path, "ok.json", '{"players": [{"name": "A"}], "note": ' + digits + "}")
    )
    assert loaded.warnings == ("plateau : champ inconnu « note » ignoré",)


def test_nan_and_infinity_are_not_json(tmp_path: Path) -> None:
    message = file_error(write(tmp_path, "nan.json", '{"players": [{"name": "A", "life": NaN}]}'))
    assert "JSON invalide" in message and "NaN" in message


@pytest.mark.parametrize(
    ("text", "french"),
    [
        ("{'a': 1}", "ligne 1, colonne 2 : nom de champ entre guillemets attendu"),
        ('{"players": }', "valeur attendue"),
        ('{"players" []}', "« : » attendu"),
        ('{"players": [1 2]}', "« , » attendu"),
        ('{"players": "abc', "chaîne sans guillemet fermant"),
        ('{"players": "a\\qb"}', "séquence d'échappement"),
        ('{"players": "\\u12"}', "\\uXXXX"),
        ('{"a": "\x01"}', "caractère de contrôle"),
        ('{"players": []} x', "texte en trop"),
    ],
)
def test_json_errors_are_in_french(tmp_path: Path, text: str, french: str) -> None:
    message = file_error(write(tmp_path, "p.json", text))
    assert message.startswith(f"{tmp_path / 'p.json'} : JSON invalide ligne ")
    assert french in message
    for english in ("Expecting", "Unterminated", "Invalid", "Extra", "delimiter"):
        assert english not in message


def test_json_message_falls_back_to_french() -> None:
    assert json_message("Some future message") == "syntaxe incorrecte"


def test_file_system_errors_are_in_french(tmp_path: Path) -> None:
    assert file_error(tmp_path) == f"{tmp_path} : est un dossier, pas un fichier"
    assert (
        file_error(tmp_path / "absent.json") == f"{tmp_path / 'absent.json'} : fichier introuvable"
    )
    assert file_error(tmp_path / "absent" / "p.json").endswith("fichier introuvable")
    path = tmp_path / "p.json"
    denied = os_error_message(path, PermissionError(errno.EACCES, "Permission denied"))
    assert denied == f"{path} : lecture non autorisée (permissions)"
    busy = os_error_message(path, OSError(errno.EBUSY, "Device or resource busy"))
    assert busy == f"{path} : fichier illisible (erreur système EBUSY)"
    assert "Permission" not in denied and "Device" not in busy


def test_compact_form_errors_are_in_french() -> None:
    with pytest.raises(BoardError) as info:
        parse_compact('player "Alice')
    assert info.value.message == "ligne 1 : guillemets non fermés"
    with pytest.raises(BoardError) as info:
        parse_compact("player Alice\\")
    assert info.value.message.startswith("ligne 1 : « \\ » en fin de ligne")


@pytest.mark.parametrize(
    ("text", "field_name"),
    [
        ("player A\nperm x controller=A creature 1/1 counters=+1/+1", "counters"),
        ("player A\nperm x controller=A creature 1/1 counters=+1/+1:1,-1/-1", "counters"),
        ("player A\nperm x controller=A artifact max_counters=charge", "max_counters"),
        ("player A commander_damage=cmd", "commander_damage"),
    ],
)
def test_compact_counts_need_a_number(text: str, field_name: str) -> None:
    with pytest.raises(BoardError) as info:
        parse_compact(text)
    message = info.value.message
    assert info.value.field == field_name
    assert f"« {field_name} »" in message and "sans nombre" in message
    assert message.startswith("ligne ")


def test_compact_counts_with_a_number_are_accepted() -> None:
    data = parse_compact("player A\nperm x controller=A creature 1/1 counters=+1/+1:2")
    assert data["permanents"][0]["counters"] == {"+1/+1": 2}


def test_choices_keep_only_their_known_fields() -> None:
    data = base(choices=[{"rule": "704.5j", "keep": "ours", "note": [[1]]}])
    loaded = load_board(data)
    assert loaded.board.choices.raw == ({"rule": "704.5j", "keep": "ours"},)
    assert any("note" in w for w in loaded.warnings)


def test_the_player_of_a_choice_is_checked() -> None:
    err = error(base(choices=[{"rule": "704.5j", "keep": "ours", "player": "Zoé"}]))
    assert (err.field, err.obj) == ("player", "choices[0]")
    err = error(base(choices=[{"rule": "704.5j", "keep": "ours", "player": 10**50}]))
    assert "une chaîne attendue" in err.message


def test_every_permanent_field_has_a_reader() -> None:
    assert set(PERMANENT_READERS) == set(PERMANENT_FIELDS)


def test_two_choices_for_one_object_are_an_error() -> None:
    err = error(
        base(
            choices=[
                {"rule": "704.5w", "battle": "ours", "protector": "Alice"},
                {"rule": "704.5w", "battle": "ours", "protector": "Bob"},
            ]
        )
    )
    assert err.field == "battle"
    assert "choices[1]" in err.message and "en double" in err.message
    assert "choices[0]" in err.message


FIELDS = [
    "ruleset",
    "variant",
    "players",
    "teams",
    "permanents",
    "other_zones",
    "choices",
    "stack",
    "active_player",
    "name",
    "life",
    "poison",
    "id",
    "controller",
    "owner",
    "types",
    "subtypes",
    "supertypes",
    "toughness",
    "power",
    "damage",
    "counters",
    "max_counters",
    "attached_to",
    "enchant",
    "keywords",
    "zone",
    "rule",
    "keep",
    "commander",
    "members",
    "loss_replacement",
    "commander_damage",
    "sector",
    "protector",
    "timestamp",
    "final_chapter",
]
WORDS = [
    "A",
    "B",
    "x",
    "y",
    "creature",
    "legendary",
    "Aura",
    "Saga",
    "battle",
    "Siege",
    "graveyard",
    "exile",
    "704.5j",
    "704.6d",
    "fr-2024",
    "fr-pre2009",
    "commander",
    "+1/+1",
    "-1/-1",
    "lore",
    "alpha",
]
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**25), max_value=10**25)
    | st.floats()
    | st.sampled_from(WORDS)
    | st.text(max_size=5)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=3), inner, max_size=5)
    ),
    max_leaves=30,
)
json_boards = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6).map(json.dumps)
# Boards that often load: known fields, values of the right type most of the time.
TYPED = {
    **dict.fromkeys(
        ("life", "poison", "power", "damage", "timestamp", "final_chapter"),
        st.integers(min_value=-3, max_value=25),
    ),
    **dict.fromkeys(("drew_from_empty_library", "cant_lose", "commander"), st.booleans()),
    **dict.fromkeys(
        ("types", "subtypes", "supertypes", "keywords", "enchant", "members"),
        st.lists(st.sampled_from(WORDS), max_size=3),
    ),
    **dict.fromkeys(
        ("name", "controller", "owner", "attached_to", "sector", "protector", "keep", "zone"),
        st.sampled_from(["A", "B", "x", "y", "z", "g", "alpha", "graveyard"]),
    ),
    **dict.fromkeys(
        ("counters", "max_counters", "commander_damage"),
        st.dictionaries(st.sampled_from(WORDS), st.integers(min_value=0, max_value=25), max_size=2),
    ),
}


def field_values(name: str) -> st.SearchStrategy[object]:
    """Mostly a value of the right type; now and then anything."""
    typed = TYPED.get(name, json_values)
    return st.integers(min_value=0, max_value=12).flatmap(lambda k: typed if k else json_values)


players = st.fixed_dictionaries(
    {"name": st.sampled_from(["A", "B"])},
    optional={
        f: field_values(f)
        for f in ("life", "poison", "drew_from_empty_library", "cant_lose", "commander_damage")
    }
    | {"loss_replacement": st.fixed_dictionaries({}, optional={"life": st.integers(0, 20)})},
)
permanents = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["x", "y", "z"]),
        "controller": st.just("A"),
        "types": st.lists(st.sampled_from(["creature", "battle", "artifact"]), max_size=2),
        "toughness": st.integers(min_value=-1, max_value=3),
    },
    optional={
        f: field_values(f) for f in FIELDS if f not in ("id", "controller", "types", "toughness")
    },
)
others = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["g", "h"]),
        "zone": st.sampled_from(["graveyard", "exile", "hand"]),
        "owner": st.just("A"),
    },
    optional={f: st.booleans() for f in ("token", "commander", "moved_since_last_check")},
)
choices = st.fixed_dictionaries(
    {"rule": st.sampled_from(["704.5j", "704.5u", "704.5w", "704.5x", "704.6d"])},
    optional={
        f: st.sampled_from(["x", "y", "z", "g", "A", "B", "alpha", True])
        for f in ("keep", "creature", "sector", "battle", "protector", "commander")
    }
    | {"to_command_zone": st.booleans()},
)
loadable_boards = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(["normal", "commander"]),
        "ruleset": st.sampled_from(["fr-2024", "fr-pre2009"]),
        "players": st.tuples(players, players).map(
            lambda ab: [{**ab[0], "name": "A"}, {**ab[1], "name": "B"}]
        ),
        "permanents": st.lists(permanents, max_size=3, unique_by=lambda p: p["id"]),
        "other_zones": st.lists(others, max_size=2, unique_by=lambda o: o["id"]),
        "choices": st.lists(choices, max_size=2),
    }
).map(json.dumps)
compact_words = st.sampled_from(WORDS) | st.builds(
    "{}={}".format,
    st.sampled_from(FIELDS),
    st.sampled_from([*WORDS, "1", "-2", "9" * 60, "x:1,y", '"a b', "a.b=1"]),
)
compact_lines = st.builds(
    lambda head, words: " ".join([head, *words]),
    st.sampled_from(["player", "perm", "other", "choice", "team", "ruleset", "variant", "#", "x"]),
    st.lists(compact_words, max_size=6),
)
compact_boards = st.lists(compact_lines, max_size=6).map(
    lambda lines: "\n".join(["player A", *lines])
)
# Sizes no real board has: long numbers, deep nesting, in both forms.
LEGEND = '{"id": "x", "controller": "A", "types": ["creature"], "supertypes": ["legendary"], '
LEGEND += '"toughness": 1}'
HOSTILE_TEMPLATES = [
    '{{"players": [{{"name": "A", "life": {digits}}}]}}',
    '{{"players": [{{"name": "A", "poison": -{digits}}}]}}',
    '{{"players": [{{"name": "A"}}], "permanents": [{{"id": "x", "controller": "A", '
    '"counters": {{"lore": {digits}}}}}]}}',
    '{{"players": {open}{close}}}',
    '{{"players": [{{"name": "A"}}], "permanents": ['
    + LEGEND.replace("{", "{{").replace("}", "}}")
    + '], "choices": [{{"rule": "704.5j", "keep": "x", "note": {open}{close}}}]}}',
    "player A life={digits}",
    "player A\nperm x controller=A creature {digits}/1",
    "player A\nperm x controller=A artifact counters=charge:{digits}",
]
hostile_boards = st.builds(
    lambda template, digits, depth: template.format(
        digits="9" * digits, open="[" * depth, close="]" * depth
    ),
    st.sampled_from(HOSTILE_TEMPLATES),
    st.integers(min_value=1, max_value=6000),
    st.integers(min_value=1, max_value=5000),
)
any_input = (
    st.binary(max_size=200)
    | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass"))
    | json_boards.map(str.encode)
    | loadable_boards.map(str.encode)
    | compact_boards.map(str.encode)
    | hostile_boards.map(str.encode)
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(content=any_input)
def test_the_file_loader_raises_only_board_errors(
    tmp_path_factory: pytest.TempPathFactory, content: bytes
) -> None:
    """Whatever the file holds: a board, or a BoardError with a message; and a board that
    loads goes through the engine and both outputs (the only error: a BoardError, for a
    choice that the rules refuse)."""
    path = tmp_path_factory.getbasetemp() / "any-board"
    path.write_bytes(content)
    try:
        loaded = load_board_file(path)
        res = resolve(loaded.board)
    except BoardError as exc:
        assert exc.message
        return
    json.dumps(resolution_to_dict(res), ensure_ascii=False, indent=2)  # as `judge sba --json`
    render_text(res)


def test_the_loader_restores_the_cyclic_collector(tmp_path: Path) -> None:
    assert gc.isenabled()
    load_board(base())
    load_board_file(BOARDS / "regle-des-legendes.json")
    assert gc.isenabled()
    with pytest.raises(BoardError):
        load_board_file(write(tmp_path, "bad.json", '{"players": []}'))
    assert gc.isenabled()

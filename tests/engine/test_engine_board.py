"""Loading and validating boards: French messages naming the field and the object,
warnings for unknown fields, the compact text form, and the way back to JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.engine.board import (
    BoardError,
    board_to_dict,
    load_board,
    load_board_file,
    parse_compact,
)
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
        ({"types": "creature", "toughness": None}, "toughness", ["obligatoire", "créature"]),
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
        (base(ruleset="fr-2025"), ["ruleset", "fr-2025"]),
        (base(variant="archenemy"), ["variant", "archenemy"]),
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

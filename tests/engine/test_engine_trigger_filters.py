"""`affects` on a triggered ability (603.2, 603.10a): the same keys and meaning as a
continuous effect's `affects`, judged from the last known information of the object that
dies or leaves. Table-driven, compact form."""

from __future__ import annotations

import pytest

from judge.engine import board_to_compact, decode_board_text, load_board, resolve
from tests.engine.engine_helpers import board

BASE = """
player Alice
player Bob
perm w controller=Bob creature 3/3
perm a name=Ours controller=Alice creature 2/2 damage=2 colors=green
perm b name=Loup controller=Bob artifact creature 2/2 damage=2 colors=black
"""

# (filter words, which deaths trigger Bob's "another creature dies" ability)
CASES = [
    # 603.2: no filter, every other creature's death triggers it
    ("", ["a", "b"]),
    # 603.10a: controllers from last known information, compared with the ability's controller
    ("affects.controller=opponents", ["a"]),
    ("affects.controller=you", ["b"]),
    ("affects.controller=any", ["a", "b"]),
    ("affects.colors=green", ["a"]),
    ("affects.types=artifact", ["b"]),
    ("affects.types=artifact,creature affects.colors=black", ["b"]),
    ("affects.ids=a", ["a"]),
    ("affects.ids=a affects.controller=you", []),
    ("affects.types=enchantment", []),
]


def _objects(text: str) -> list[str]:
    res = resolve(board(text))
    return sorted(t.object for t in res.triggers if t.ability == "t")


@pytest.mark.parametrize(("words", "expected"), CASES, ids=[c[0] or "none" for c in CASES])
def test_filter_on_another_creature_dies(words: str, expected: list[str]) -> None:
    text = BASE + f"ability w t trigger=another_creature_dies {words}\n"
    assert _objects(text) == expected


def test_the_filter_reads_last_known_information() -> None:
    """603.10a: Alice's bear, controlled by Bob when it died (layer 2), is not an opponent's
    creature for Bob's ability."""
    text = (
        BASE
        + "ability w t trigger=another_creature_dies affects.controller=opponents\n"
        + "effect vol source=w kind=resolved layer=2 affects.ids=a effect.control=Bob\n"
    )
    assert _objects(text) == []


def test_self_other_and_attached_on_triggers() -> None:
    aura = (
        "perm au controller=Bob enchantment Aura enchant=creature attached_to=a\n"
        "ability au t trigger=creature_dies affects.attached\n"
    )
    res = resolve(board(BASE + aura))
    assert [(t.source, t.object) for t in res.triggers] == [("au", "a")]
    own = BASE.replace("creature 3/3", "creature 3/3 damage=3")
    assert _objects(own + "ability w t trigger=creature_dies affects.other\n") == ["a", "b"]
    assert _objects(own + "ability w t trigger=creature_dies affects.self\n") == ["w"]


def test_a_filter_prints_back_and_no_longer_warns() -> None:
    text = BASE + "ability w t trigger=another_creature_dies affects.controller=opponents\n"
    loaded = load_board(decode_board_text(text))
    assert loaded.warnings == ()
    compact = board_to_compact(loaded.board)
    assert "ability w t trigger=another_creature_dies affects.controller=opponents" in compact
    again = load_board(decode_board_text(compact)).board
    assert board_to_compact(again) == compact


def test_a_bad_filter_is_a_board_error() -> None:
    from judge.engine import BoardError

    with pytest.raises(BoardError, match="affects : champ « controller » : « moi » inconnu"):
        board(BASE + "ability w t trigger=dies affects.controller=moi\n")

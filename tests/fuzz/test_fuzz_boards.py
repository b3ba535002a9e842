"""Fuzz: boards, as JSON-ish structures and as compact texts, through `judge.decode_board_text`,
`judge.load_board`, `Judge.resolve` (both rulesets) and `judge sba` (`judge.cli.main`).

Either a result or a `BoardError` with a French message (exit 2 on the command line); never
another exception; and the resolution always ends (a bounded number of passes, in time)."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

import judge
from judge import BoardError, Judge
from judge.cli import main
from tests.fuzz.conftest import FUZZ, assert_french, ends_within

NAMES = ["Alice", "Bob", "Carole", "", "alice", "Équipe A"]
IDS = ["a", "b", "c", "d", "e", "Alice", ""]
RULESETS = ["fr-2024", "fr-pre2009", "fr-2011", None]
VARIANTS = [*judge.VARIANTS, "inconnue", None]
TYPES = sorted(judge.CARD_TYPES) + ["Creature", "goblin", ""]
SUPERTYPES = sorted(judge.SUPERTYPES) + ["mythic"]
SUBTYPES = sorted(judge.RULE_SUBTYPES.values()) + ["aura", "Goblin", "Dragon"]
KEYWORDS = ["deathtouch", "indestructible", "persist", "undying", "survivance", "flying", ""]
COUNTERS = ["+1/+1", "-1/-1", "loyalty", "defense", "lore", "poison", "oil", ""]
ZONES = [*judge.ZONES, "nowhere"]

small_int = st.one_of(
    st.integers(-3, 12), st.sampled_from([0, -(10**18) + 1, 10**18 - 1, 10**19, 2**63])
)
odd_value = st.one_of(
    st.none(),
    st.booleans(),
    small_int,
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.lists(st.integers(0, 3), max_size=2),
    st.just({}),
)


def maybe(strategy: st.SearchStrategy[Any], odd: float = 0.1) -> st.SearchStrategy[Any]:
    """Mostly `strategy`, sometimes a value of the wrong type."""
    return st.one_of(strategy, strategy, strategy, strategy, strategy, odd_value)


def record(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    required = {k: v for k, v in fields.items() if k in ("id", "name")}
    optional = {k: v for k, v in fields.items() if k not in required}
    return st.fixed_dictionaries(required, optional=optional)


player = record(
    {
        "name": maybe(st.sampled_from(NAMES)),
        "life": maybe(small_int),
        "poison": maybe(small_int),
        "drew_from_empty_library": maybe(st.booleans()),
        "cant_lose": maybe(st.booleans()),
        "lost": maybe(st.booleans()),
        "commander_damage": maybe(st.dictionaries(st.sampled_from(IDS), small_int, max_size=2)),
    }
)
permanent = record(
    {
        "id": maybe(st.sampled_from(IDS)),
        "name": maybe(st.sampled_from(["Ours", "Thalia", "Monde", "Jeton", ""])),
        "controller": maybe(st.sampled_from(NAMES)),
        "owner": maybe(st.sampled_from(NAMES)),
        "types": maybe(st.lists(st.sampled_from(TYPES), max_size=3)),
        "supertypes": maybe(st.lists(st.sampled_from(SUPERTYPES), max_size=2)),
        "subtypes": maybe(st.lists(st.sampled_from(SUBTYPES), max_size=2)),
        "power": maybe(small_int),
        "toughness": maybe(small_int),
        "damage": maybe(small_int),
        "deathtouch_damage": maybe(small_int),
        "counters": maybe(st.dictionaries(st.sampled_from(COUNTERS), small_int, max_size=3)),
        "max_counters": maybe(st.dictionaries(st.sampled_from(COUNTERS), small_int, max_size=1)),
        "indestructible": maybe(st.booleans()),
        "regeneration_shields": maybe(small_int),
        "token": maybe(st.booleans()),
        "attached_to": maybe(st.sampled_from(IDS)),
        "enchant": maybe(st.sampled_from(["creature", "land", "player", "permanent", "x"])),
        "colors": maybe(st.lists(st.sampled_from(["white", "red", "pink"]), max_size=2)),
        "protection_from": maybe(st.lists(st.sampled_from(["white", "red"]), max_size=2)),
        "keywords": maybe(st.lists(st.sampled_from(KEYWORDS), max_size=2)),
        "timestamp": maybe(small_int),
        "final_chapter": maybe(small_int),
        "trigger_on_stack": maybe(st.booleans()),
        "protector": maybe(st.sampled_from(NAMES)),
        "commander": maybe(st.booleans()),
        "face_down": maybe(st.booleans()),
        "sector": maybe(st.sampled_from([*judge.SECTORS, "delta"])),
    }
)
other = record(
    {
        "id": maybe(st.sampled_from(IDS)),
        "zone": maybe(st.sampled_from(ZONES)),
        "owner": maybe(st.sampled_from(NAMES)),
        "token": maybe(st.booleans()),
        "spell_copy": maybe(st.booleans()),
        "card_copy": maybe(st.booleans()),
        "commander": maybe(st.booleans()),
        "moved_since_last_check": maybe(st.booleans()),
    }
)
choice = st.fixed_dictionaries(
    {"rule": st.sampled_from(["704.5j", "704.5u", "704.5w", "704.6d", "420.5e", "x"])},
    optional={
        "keep": st.sampled_from(IDS),
        "creature": st.sampled_from(IDS),
        "sector": st.sampled_from(judge.SECTORS),
        "battle": st.sampled_from(IDS),
        "protector": st.sampled_from(NAMES),
        "commander": st.sampled_from(IDS),
        "to_command_zone": st.booleans(),
    },
)
structured_board = st.fixed_dictionaries(
    {"players": maybe(st.lists(player, max_size=4))},
    optional={
        "ruleset": maybe(st.sampled_from(RULESETS)),
        "variant": maybe(st.sampled_from(VARIANTS)),
        "permanents": maybe(st.lists(permanent, max_size=8)),
        "other_zones": maybe(st.lists(other, max_size=3)),
        "choices": maybe(st.lists(choice, max_size=3)),
        "active_player": maybe(st.sampled_from(NAMES)),
        "description": maybe(st.text(max_size=20)),
        "teams": st.lists(
            st.fixed_dictionaries(
                {"name": st.sampled_from(["T1", "T2"])},
                optional={"members": st.lists(st.sampled_from(NAMES), max_size=2)},
            ),
            max_size=2,
        ),
        "inconnu": odd_value,
    },
)
json_ish = st.recursive(
    odd_value,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(["players", "permanents", "name", "id", "life"]), st.text()),
            children,
            max_size=4,
        ),
    ),
    max_leaves=30,
)


@st.composite
def valid_board(draw: st.DrawFn) -> dict[str, Any]:
    """A board that mostly loads: consistent names and ids, fields of the right types; then,
    sometimes, one field of one record replaced by a value of the wrong type."""
    names = draw(
        st.lists(
            st.sampled_from(["Alice", "Bob", "Carole", "Dan"]), min_size=1, max_size=4, unique=True
        )
    )
    variant = draw(st.sampled_from(["normal"] * 6 + list(judge.VARIANTS)))
    players = [
        {
            "name": n,
            "life": draw(st.integers(-2, 25)),
            "poison": draw(st.integers(0, 12)),
            "drew_from_empty_library": draw(st.booleans()),
        }
        for n in names
    ]
    ids = draw(
        st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "g"]), max_size=7, unique=True)
    )
    perms = []
    for pid in ids:
        p: dict[str, Any] = {
            "id": pid,
            "name": draw(st.sampled_from(["Ours", "Thalia", "Monde", "Épée", "Rôle"])),
            "controller": draw(st.sampled_from(names)),
            "types": draw(
                st.lists(
                    st.sampled_from(sorted(judge.CARD_TYPES)), min_size=1, max_size=2, unique=True
                )
            ),
        }
        extra = draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "supertypes": st.lists(st.sampled_from(sorted(judge.SUPERTYPES)), max_size=2),
                    "subtypes": st.lists(
                        st.sampled_from(sorted(judge.RULE_SUBTYPES.values())), max_size=1
                    ),
                    "power": st.integers(-1, 5),
                    "toughness": st.integers(-1, 5),
                    "damage": st.integers(0, 6),
                    "deathtouch_damage": st.integers(0, 2),
                    "counters": st.dictionaries(
                        st.sampled_from(["+1/+1", "-1/-1", "loyalty", "defense", "lore"]),
                        st.integers(0, 4),
                        max_size=2,
                    ),
                    "indestructible": st.booleans(),
                    "regeneration_shields": st.integers(0, 2),
                    "token": st.booleans(),
                    "attached_to": st.sampled_from(ids),
                    "enchant": st.sampled_from(["creature", "land", "permanent"]),
                    "colors": st.lists(st.sampled_from(["white", "red"]), max_size=1),
                    "protection_from": st.lists(st.sampled_from(["white", "red"]), max_size=1),
                    "keywords": st.lists(st.sampled_from(KEYWORDS[:5]), max_size=2),
                    "final_chapter": st.integers(0, 4),
                    "trigger_on_stack": st.booleans(),
                    "commander": st.booleans(),
                    "face_down": st.booleans(),
                },
            )
        )
        p.update(extra)
        p["timestamp"] = draw(st.integers(0, 4))
        perms.append(p)
    board: dict[str, Any] = {
        "ruleset": draw(st.sampled_from(["fr-2024", "fr-pre2009"])),
        "variant": variant,
        "players": players,
        "permanents": perms,
        "other_zones": draw(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "id": st.sampled_from(["x", "y"]),
                        "zone": st.sampled_from(sorted(judge.ZONES)),
                        "owner": st.sampled_from(names),
                    },
                    optional={"token": st.booleans(), "spell_copy": st.booleans()},
                ),
                max_size=1,
            )
        ),
        "choices": draw(st.one_of(st.just([]), st.just([]), st.lists(choice, max_size=2))),
    }
    if draw(st.integers(0, 3)) == 0:
        section = draw(st.sampled_from(["players", "permanents"]))
        if board[section]:
            item = draw(st.sampled_from(board[section]))
            item[draw(st.sampled_from(sorted(item)))] = draw(odd_value)
    return board


boards = st.one_of(valid_board(), valid_board(), valid_board(), structured_board, json_ish)

COMPACT_HEADS = ["player", "perm", "permanent", "other", "choice", "team", "ruleset", "variant"]
COMPACT_WORDS = [
    "controller=Alice",
    "controller=Bob",
    "owner=Alice",
    "creature",
    "enchantment",
    "legendary",
    "world",
    "Aura",
    "Equipment",
    "2/2",
    "0/0",
    "-1/3",
    "1/",
    "damage=2",
    "damage=x",
    "life=0",
    "life=-99999999999999999999",
    "poison=10",
    "timestamp=1",
    "timestamp=1",
    "counters=+1/+1:1,-1/-1:1",
    "counters=:",
    "attached_to=a",
    "zone=graveyard",
    "token",
    "spell_copy",
    "keep=a",
    "fr-2024",
    "fr-pre2009",
    "two_headed_giant",
    "commander",
    '"guillemets ouverts',
    "'",
    "=",
    "a",
    "b",
    "Alice",
    "Bob",
    "#",
    "\\",
]
compact_line = st.one_of(
    st.tuples(
        st.sampled_from(COMPACT_HEADS), st.lists(st.sampled_from(COMPACT_WORDS), max_size=6)
    ).map(lambda t: " ".join([t[0], *t[1]])),
    st.text(max_size=30),
)
compact_text = st.lists(compact_line, max_size=10).map("\n".join)
board_texts = st.one_of(
    compact_text,
    compact_text.map(lambda t: "player Alice\nplayer Bob\n" + t),
    boards.map(lambda b: json.dumps(b, allow_nan=True)),
    st.text(max_size=200),
    st.builds(lambda n: "[" * n + "]" * n, st.integers(1, 3000)),
    st.builds(lambda n: '{"players":' * n, st.integers(1, 3000)),
)

# --- checks --------------------------------------------------------------------------------


def check_resolution(j: Judge, loaded: judge.LoadedBoard) -> None:
    for ruleset in (None, "fr-2024", "fr-pre2009"):
        try:
            with ends_within(20):
                view = j.resolve(loaded, ruleset)
        except BoardError as exc:
            assert_french(exc.message)
            continue
        res = view.resolution
        assert len(res.passes) <= 100
        json.dumps(view.to_dict())
        assert isinstance(view.text(), str)


def check_text(j: Judge, text: str) -> None:
    try:
        data = judge.decode_board_text(text)
        loaded = judge.load_board(data)
    except BoardError as exc:
        assert_french(exc.message)
        return
    check_resolution(j, loaded)


# --- tests ---------------------------------------------------------------------------------


@FUZZ
@given(boards)
@example({"players": [{"name": "Alice"}], "permanents": [{"id": "a", "attached_to": "a"}]})
@example({"players": [{"name": "Alice", "life": 10**19}]})
@example({"players": [{"name": "Alice"}] * 2})
def test_load_and_resolve(shipped_judge: Judge, data: Any) -> None:
    try:
        loaded = judge.load_board(data)
    except BoardError as exc:
        assert_french(exc.message)
        return
    check_resolution(shipped_judge, loaded)


@FUZZ
@given(board_texts)
@example("player Alice\nperm a controller=Alice creature world timestamp=1\n")
@example("player Alice\nperm a controller=Alice creature 0/0 attached_to=a\n")
@example('{"players": [{"name": "Alice", "life": 1e400}]}')
@example("\ufeff{}")
@example("[" * 100000)
def test_decode_and_resolve(shipped_judge: Judge, text: str) -> None:
    check_text(shipped_judge, text)


@FUZZ
@given(board_texts, st.sampled_from([[], ["--json"], ["--ruleset", "fr-pre2009"]]))
@example("player Alice life=0\n", ["--json"])
@example("\x00", [])
def test_sba_cli(text: str, options: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="judge-fuzz-") as tmp:
        path = Path(tmp) / "plateau.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), ends_within(60):
            rc = main(["sba", *options, str(path)])
    assert rc in (0, 2), (rc, err.getvalue())
    if rc == 2:
        message = err.getvalue()
        assert message.startswith("Erreur"), message
        assert_french(message)
    elif "--json" in options:
        json.loads(out.getvalue())

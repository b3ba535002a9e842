"""One test per state-based action of 704 (fr-2024), each with the cases where it must
not apply. Boards are written in the compact text form (docs/board-format.md)."""

from __future__ import annotations

import pytest
from engine_helpers import TWO, applies, board, choices, notes, performed

from judge.engine import Board, BoardError, Finding, action_label, check_state, render_text, resolve
from judge.engine.current import REGISTRY
from judge.engine.wording import de

# --- 704.5a–c ----------------------------------------------------------------------


@pytest.mark.parametrize(("life", "loses"), [(0, True), (-5, True), (1, False), (20, False)])
def test_704_5a_zero_or_less_life(life: int, loses: bool) -> None:
    b = board(f"player Alice life={life}\nplayer Bob")
    assert ("704.5a lose_game Alice" in applies(b)) is loses
    assert "704.5a lose_game Bob" not in applies(b)


def test_704_5a_not_for_a_player_who_already_lost() -> None:
    assert applies(board("player Alice life=0 lost\nplayer Bob")) == set()


def test_704_5a_is_the_teams_life_in_two_headed_giant() -> None:
    b = board(
        "player A life=0\nplayer B\nplayer C\nplayer D\n"
        "team T1 members=A,B life=5\nteam T2 members=C,D life=5",
        variant="two-headed-giant",
    )
    assert applies(b) == set()


def test_704_5b_drew_from_empty_library() -> None:
    assert applies(board("player Alice drew_from_empty_library\nplayer Bob")) == {
        "704.5b lose_game Alice"
    }
    assert applies(board(TWO)) == set()


@pytest.mark.parametrize(("poison", "loses"), [(10, True), (12, True), (9, False), (0, False)])
def test_704_5c_ten_poison(poison: int, loses: bool) -> None:
    b = board(f"player Alice poison={poison}\nplayer Bob")
    assert ("704.5c lose_game Alice" in applies(b)) is loses


def test_704_5c_ignored_in_two_headed_giant() -> None:
    b = board(
        "player A poison=10\nplayer B\nplayer C\nplayer D\n"
        "team T1 members=A,B poison=10\nteam T2 members=C,D",
        variant="two-headed-giant",
    )
    assert applies(b) == set()


# --- 704.5d–e ----------------------------------------------------------------------


def test_704_5d_token_outside_the_battlefield() -> None:
    b = board(
        TWO
        + "other t1 zone=graveyard owner=Alice token\n"
        + "other t2 zone=exile owner=Bob token\n"
        + "other card zone=graveyard owner=Alice\n"
        + "perm t3 controller=Alice creature 1/1 token"
    )
    assert applies(b) == {"704.5d cease_to_exist t1", "704.5d cease_to_exist t2"}


@pytest.mark.parametrize(
    ("line", "gone"),
    [
        ("other c zone=graveyard owner=Alice spell_copy", True),
        ("other c zone=stack owner=Alice spell_copy", False),
        ("other c zone=exile owner=Alice card_copy", True),
        ("other c zone=stack owner=Alice card_copy", False),
        ("other c zone=hand owner=Alice", False),
    ],
)
def test_704_5e_copies(line: str, gone: bool) -> None:
    assert (applies(board(TWO + line)) == {"704.5e cease_to_exist c"}) is gone


# --- 704.5f–h ----------------------------------------------------------------------


@pytest.mark.parametrize(("toughness", "dies"), [(0, True), (-2, True), (1, False)])
def test_704_5f_zero_toughness(toughness: int, dies: bool) -> None:
    b = board(TWO + f"perm c controller=Alice creature 1/{toughness}")
    assert ("704.5f put_into_graveyard c" in applies(b)) is dies


def test_704_5f_only_creatures() -> None:
    # a Vehicle that is not crewed has toughness printed but is not a creature
    assert applies(board(TWO + "perm v controller=Alice artifact 3/0")) == set()


def test_704_5f_not_replaced_by_regeneration_nor_stopped_by_indestructible() -> None:
    b = board(TWO + "perm c controller=Alice creature 1/0 regeneration_shields=1 indestructible")
    assert performed(b) == {"704.5f put_into_graveyard c"}
    assert notes(b) == {"704.5f not_replaceable c", "704.5f not_prevented c"}


@pytest.mark.parametrize(
    ("toughness", "damage", "destroyed"),
    [(2, 2, True), (2, 5, True), (2, 1, False), (3, 0, False), (0, 1, False)],
)
def test_704_5g_lethal_damage(toughness: int, damage: int, destroyed: bool) -> None:
    b = board(TWO + f"perm c controller=Alice creature 1/{toughness} damage={damage}")
    assert ("704.5g destroy c" in applies(b)) is destroyed


def test_704_5g_indestructible_and_regeneration() -> None:
    b = board(
        TWO
        + "perm i controller=Alice creature 2/2 damage=2 indestructible\n"
        + "perm r controller=Alice creature 2/2 damage=2 regeneration_shields=1\n"
        + "perm d controller=Alice creature 2/2 damage=2"
    )
    assert applies(b) == {"704.5g destroy i", "704.5g destroy r", "704.5g destroy d"}
    assert performed(b) == {"704.5g regenerate r", "704.5g destroy d"}


@pytest.mark.parametrize(
    ("toughness", "deathtouch", "rules"),
    [
        (5, 1, {"704.5h destroy c"}),
        (5, 0, set()),
        (0, 1, {"704.5f put_into_graveyard c"}),
    ],
)
def test_704_5h_deathtouch(toughness: int, deathtouch: int, rules: set[str]) -> None:
    b = board(
        TWO + f"perm c controller=Alice creature 1/{toughness} damage=1 "
        f"deathtouch_damage={deathtouch}"
    )
    assert applies(b) == rules


# --- 704.5i–k ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counters", "dies"), [("counters=loyalty:0", True), ("", True), ("counters=loyalty:1", False)]
)
def test_704_5i_planeswalker_zero_loyalty(counters: str, dies: bool) -> None:
    b = board(TWO + f"perm pw controller=Alice planeswalker {counters}")
    assert (applies(b) == {"704.5i put_into_graveyard pw"}) is dies


def test_704_5j_same_controller_same_name_with_choice() -> None:
    text = TWO + (
        "perm a name=Thalia controller=Alice legendary creature 2/1\n"
        "perm b name=Thalia controller=Alice legendary creature 2/1\n"
        "perm c name=Thalia controller=Alice legendary creature 2/1\n"
    )
    assert applies(board(text + "choice 704.5j keep=b")) == {
        "704.5j put_into_graveyard a",
        "704.5j put_into_graveyard c",
    }
    needed = choices(board(text))
    assert [(c.rule, c.player, c.options) for c in needed] == [("704.5j", "Alice", ("a", "b", "c"))]


@pytest.mark.parametrize(
    "pair",
    [
        # different controllers
        "perm a name=X controller=Alice legendary creature 1/1\n"
        "perm b name=X controller=Bob legendary creature 1/1",
        # different names
        "perm a name=X controller=Alice legendary creature 1/1\n"
        "perm b name=Y controller=Alice legendary creature 1/1",
        # one is not legendary
        "perm a name=X controller=Alice legendary creature 1/1\n"
        "perm b name=X controller=Alice creature 1/1",
        # a face-down permanent has no name
        "perm a name=X controller=Alice legendary creature 1/1\n"
        "perm b name=X controller=Alice legendary creature 2/2 face_down",
    ],
)
def test_704_5j_does_not_apply(pair: str) -> None:
    b = board(TWO + pair)
    assert applies(b) == set()
    assert choices(b) == []


def test_704_5j_notes_the_different_controllers() -> None:
    b = board(
        TWO
        + "perm a name=X controller=Alice legendary creature 1/1\n"
        + "perm b name=X controller=Bob legendary creature 1/1"
    )
    assert notes(b) == {"704.5j not_applicable a", "704.5j not_applicable b"}


def test_704_5j_two_kept_in_one_group_is_a_board_error() -> None:
    b = board(
        TWO
        + "perm a name=X controller=Alice legendary creature 1/1\n"
        + "perm b name=X controller=Alice legendary creature 1/1\n"
        + "choice 704.5j keep=a\nchoice 704.5j keep=b"
    )
    with pytest.raises(BoardError, match="un seul"):
        resolve(b)


def test_704_5k_world_rule() -> None:
    worlds = (
        "perm w1 controller=Alice enchantment world timestamp=1\n"
        "perm w2 controller=Bob enchantment world timestamp=5\n"
    )
    assert applies(board(TWO + worlds)) == {"704.5k put_into_graveyard w1"}
    tie = worlds + "perm w3 controller=Bob enchantment world timestamp=5\n"
    assert applies(board(TWO + tie)) == {
        "704.5k put_into_graveyard w1",
        "704.5k put_into_graveyard w2",
        "704.5k put_into_graveyard w3",
    }
    assert applies(board(TWO + "perm w1 controller=Alice enchantment world")) == set()


# --- 704.5m–p ----------------------------------------------------------------------

AURA = "perm aura controller=Alice enchantment Aura colors=white "


@pytest.mark.parametrize(
    ("lines", "goes"),
    [
        ("perm c controller=Bob creature 2/2\n" + AURA + "enchant=creature attached_to=c", False),
        ("perm l controller=Bob land\n" + AURA + "enchant=creature attached_to=l", True),
        (AURA + "enchant=creature", True),
        (AURA + "enchant=player attached_to=Bob", False),
        (AURA + "enchant=creature attached_to=Bob", True),
        (
            "perm c controller=Bob creature 2/2 protection_from=white\n"
            + AURA
            + "enchant=creature attached_to=c",
            True,
        ),
        (
            "perm c controller=Bob creature 2/2 protection_from=red\n"
            + AURA
            + "enchant=creature attached_to=c",
            False,
        ),
        ("perm l controller=Bob land\n" + AURA + "enchant=permanent attached_to=l", False),
        ("other g zone=graveyard owner=Bob\n" + AURA + "enchant=creature attached_to=g", True),
    ],
)
def test_704_5m_aura(lines: str, goes: bool) -> None:
    assert ("704.5m put_into_graveyard aura" in applies(board(TWO + lines))) is goes


@pytest.mark.parametrize(
    ("lines", "unattached"),
    [
        (
            "perm c controller=Bob creature 2/2\nperm e controller=Alice artifact Equipment "
            "attached_to=c",
            False,
        ),
        (
            "perm a controller=Bob artifact\nperm e controller=Alice artifact Equipment "
            "attached_to=a",
            True,
        ),
        ("perm e controller=Alice artifact Equipment attached_to=Bob", True),
        ("perm e controller=Alice artifact Equipment", False),
        (
            "perm c controller=Bob creature 2/2 protection_from=artifact\n"
            "perm e controller=Alice artifact Equipment attached_to=c",
            True,
        ),
        (
            "perm l controller=Bob land\nperm e controller=Alice artifact Fortification "
            "attached_to=l",
            False,
        ),
        (
            "perm c controller=Bob creature 2/2\nperm e controller=Alice artifact Fortification "
            "attached_to=c",
            True,
        ),
    ],
)
def test_704_5n_equipment_and_fortification(lines: str, unattached: bool) -> None:
    assert ("704.5n unattach e" in applies(board(TWO + lines))) is unattached


@pytest.mark.parametrize(
    ("line", "unattached"),
    [
        ("perm x controller=Alice creature 1/1 attached_to=t", True),
        ("perm x controller=Alice battle counters=defense:3 protector=Bob attached_to=t", True),
        ("perm x controller=Alice artifact attached_to=t", True),
        ("perm x controller=Alice enchantment Aura enchant=creature attached_to=t", False),
        ("perm x controller=Alice artifact Equipment attached_to=t", False),
        ("perm x controller=Alice creature 1/1", False),
    ],
)
def test_704_5p_other_things_attached(line: str, unattached: bool) -> None:
    b = board(TWO + "perm t controller=Bob creature 3/3\n" + line)
    assert ("704.5p unattach x" in applies(b)) is unattached


# --- 704.5q–r ----------------------------------------------------------------------


def test_704_5q_counters_cancel() -> None:
    b = board(TWO + "perm c controller=Alice creature 3/3 counters=+1/+1:2,-1/-1:1")
    assert applies(b) == {"704.5q remove_counters c"}
    res = resolve(b)
    (c,) = res.final.permanents
    assert dict(c.counters) == {"+1/+1": 1}
    assert (c.power, c.toughness) == (3, 3)


@pytest.mark.parametrize("counters", ["+1/+1:2", "-1/-1:1", "+1/+0:1,-1/-1:1"])
def test_704_5q_does_not_apply(counters: str) -> None:
    assert (
        applies(board(TWO + f"perm c controller=Alice creature 3/3 counters={counters}")) == set()
    )


def test_704_5r_counters_over_the_maximum() -> None:
    line = "perm c controller=Alice creature 5/5 counters=+1/+1:4 max_counters=+1/+1:{}"
    assert applies(board(TWO + line.format(2))) == {"704.5r remove_counters c"}
    assert applies(board(TWO + line.format(4))) == set()
    res = resolve(board(TWO + line.format(1)))
    (c,) = res.final.permanents
    assert dict(c.counters) == {"+1/+1": 1}
    assert c.toughness == 2  # the three +1/+1 counters removed take their +3/+3 with them
    zero = "perm c controller=Alice artifact counters=charge:2 max_counters=charge:0"
    assert applies(board(TWO + zero)) == {"704.5r remove_counters c"}


# --- 704.5s–u ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lore", "final", "on_stack", "sacrificed"),
    [
        (3, 3, False, True),
        (4, 3, False, True),
        (2, 3, False, False),
        (3, 3, True, False),
        (0, 0, False, True),
    ],
)
def test_704_5s_saga(lore: int, final: int, on_stack: bool, sacrificed: bool) -> None:
    b = board(
        TWO + f"perm s controller=Alice enchantment Saga counters=lore:{lore} "
        f"final_chapter={final}" + (" trigger_on_stack" if on_stack else "")
    )
    assert (applies(b) == {"704.5s sacrifice s"}) is sacrificed
    assert ("704.5s not_applicable s" in notes(b)) is (on_stack and lore >= final)


@pytest.mark.parametrize(
    ("flags", "removed"),
    [
        ("dungeon bottommost_room", True),
        ("dungeon", False),
        ("dungeon bottommost_room trigger_on_stack", False),
    ],
)
def test_704_5t_dungeon(flags: str, removed: bool) -> None:
    b = board(TWO + f"other d zone=command owner=Alice {flags}")
    assert (applies(b) == {"704.5t remove_from_game d"}) is removed


def test_704_5u_sectors() -> None:
    base = TWO + (
        'perm sculptor controller=Alice artifact keywords="space sculptor"\n'
        "perm a controller=Alice creature 1/1\n"
        "perm b controller=Bob creature 1/1\n"
        "perm c controller=Bob creature 1/1 sector=beta\n"
    )
    needed = choices(board(base))
    # Bob controls no space sculptor: he chooses first
    assert [(c.player, c.order) for c in needed] == [("Bob", 0), ("Alice", 1)]
    done = board(
        base + "choice 704.5u creature=a sector=alpha\nchoice 704.5u creature=b sector=gamma"
    )
    assert applies(done) == {"704.5u choose_sector a", "704.5u choose_sector b"}
    res = resolve(done)
    assert {p.id: p.sector for p in res.final.permanents if p.id != "sculptor"} == {
        "a": "alpha",
        "b": "gamma",
        "c": "beta",
    }
    assert choices(board(TWO + "perm a controller=Alice creature 1/1")) == []


# --- 704.5v–x ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "goes"),
    [
        ("counters=defense:0", True),
        ("counters=defense:1", False),
        ("counters=defense:0 trigger_on_stack", False),
    ],
)
def test_704_5v_battle_zero_defense(extra: str, goes: bool) -> None:
    b = board(TWO + f"perm b controller=Alice battle Siege protector=Bob {extra}")
    assert ("704.5v put_into_graveyard b" in applies(b)) is goes


def test_704_5w_battle_without_protector() -> None:
    siege = "perm s controller=Alice battle Siege counters=defense:3\n"
    # one opponent: no real choice
    assert applies(board(TWO + siege)) == {"704.5w choose_protector s"}
    res = resolve(board(TWO + siege))
    assert res.final.permanents[0].protector == "Bob"
    # two opponents: Alice must choose
    three = "player Alice\nplayer Bob\nplayer Chloé\n"
    needed = choices(board(three + siege))
    assert [(c.rule, c.player, c.options) for c in needed] == [
        ("704.5w", "Alice", ("Bob", "Chloé"))
    ]
    chosen = board(three + siege + "choice 704.5w battle=s protector=Chloé")
    assert resolve(chosen).final.permanents[0].protector == "Chloé"
    # no opponent left in the game: to the graveyard
    alone = board("player Alice\nplayer Bob lost\n" + siege)
    assert applies(alone) == {"704.5w put_into_graveyard s"}
    # attacked, or protected: nothing
    attacked = board(TWO + siege + "perm c controller=Bob creature 2/2 attacking=s")
    assert applies(attacked) == set()
    assert "704.5w not_applicable s" in notes(attacked)
    guarded = board(TWO + "perm s controller=Alice battle Siege counters=defense:3 protector=Bob")
    assert applies(guarded) == set()


def test_704_5w_an_inappropriate_choice_is_a_board_error() -> None:
    b = board(
        TWO + "perm s controller=Alice battle Siege counters=defense:3\n"
        "choice 704.5w battle=s protector=Alice"
    )
    with pytest.raises(BoardError, match="ne peut pas protéger"):
        resolve(b)


def test_704_5x_siege_protected_by_its_controller() -> None:
    b = board(TWO + "perm s controller=Alice battle Siege counters=defense:3 protector=Alice")
    assert applies(b) == {"704.5x choose_protector s"}
    other = board(TWO + "perm s controller=Alice battle counters=defense:3 protector=Alice")
    assert applies(other) == set()


# --- 704.5y ------------------------------------------------------------------------


def test_704_5y_roles() -> None:
    base = TWO + "perm c controller=Bob creature 2/2\nperm d controller=Bob creature 2/2\n"
    role = (
        "perm {} controller={} enchantment Aura Role enchant=creature attached_to={} timestamp={}\n"
    )
    same = base + role.format("r1", "Alice", "c", 1) + role.format("r2", "Alice", "c", 2)
    assert applies(board(same)) == {"704.5y put_into_graveyard r1"}
    players = base + role.format("r1", "Alice", "c", 1) + role.format("r2", "Bob", "c", 2)
    assert applies(board(players)) == set()
    targets = base + role.format("r1", "Alice", "c", 1) + role.format("r2", "Alice", "d", 2)
    assert applies(board(targets)) == set()


# --- 704.6a–d ----------------------------------------------------------------------

HG = "player A\nplayer B\nplayer C\nplayer D\n"


@pytest.mark.parametrize(("life", "loses"), [(0, True), (-3, True), (1, False)])
def test_704_6a_team_life(life: int, loses: bool) -> None:
    b = board(
        HG + f"team T1 members=A,B life={life}\nteam T2 members=C,D life=10",
        variant="two-headed-giant",
    )
    assert (applies(b) == {"704.6a lose_game T1"}) is loses
    if loses:
        assert set(resolve(b).losers) == {"A", "B"}


@pytest.mark.parametrize(("poison", "loses"), [(15, True), (14, False)])
def test_704_6b_team_poison(poison: int, loses: bool) -> None:
    b = board(
        HG + f"team T1 members=A,B poison={poison}\nteam T2 members=C,D", variant="two-headed-giant"
    )
    assert (applies(b) == {"704.6b lose_game T1"}) is loses


def test_704_6a_only_in_two_headed_giant() -> None:
    b = board(HG + "team T1 members=A,B life=0")
    assert applies(b) == set()


@pytest.mark.parametrize(
    ("damage", "loses"), [("cmd:21", True), ("cmd:25", True), ("cmd:20,cmd2:10", False)]
)
def test_704_6c_commander_damage(damage: str, loses: bool) -> None:
    text = (
        f"player Alice commander_damage={damage}\nplayer Bob\n"
        "perm cmd controller=Bob creature legendary 5/5 commander\n"
        "perm cmd2 controller=Bob creature legendary 3/3 commander\n"
    )
    assert (applies(board(text, variant="commander")) == {"704.6c lose_game Alice"}) is loses
    assert applies(board(text)) == set()  # not a Commander game


def test_704_6d_commander_to_command_zone() -> None:
    text = "player Alice\nplayer Bob\nother cmd zone=graveyard owner=Alice commander"
    moved = board(text + " moved_since_last_check", variant="commander")
    assert [(c.rule, c.player) for c in choices(moved)] == [("704.6d", "Alice")]
    yes = board(
        text + " moved_since_last_check\nchoice 704.6d commander=cmd to_command_zone=true",
        variant="commander",
    )
    res = resolve(yes)
    assert res.final.other_zones[0].zone == "command"
    no = board(
        text + " moved_since_last_check\nchoice 704.6d commander=cmd to_command_zone=false",
        variant="commander",
    )
    assert notes(no) == {"704.6d declined cmd"}
    assert resolve(no).final.other_zones[0].zone == "graveyard"
    assert choices(board(text, variant="commander")) == []  # there since before the last check
    hand = (
        "player Alice\nplayer Bob\nother cmd zone=hand owner=Alice commander moved_since_last_check"
    )
    assert choices(board(hand, variant="commander")) == []


# --- the registry ------------------------------------------------------------------


def test_the_registry_lists_every_704_action_once() -> None:
    letters = "abcdefghijkmnpqrstuvwxy"
    expected = [f"704.5{c}" for c in letters] + [f"704.6{c}" for c in "abcdef"]
    assert [c.rule for c in REGISTRY] == expected
    assert len({c.name for c in REGISTRY}) == len(REGISTRY)
    for check in REGISTRY:
        assert check.func.__doc__ is not None
        assert check.func.__doc__.startswith(check.rule + " ")


# --- French wording ----------------------------------------------------------------


def why(b: Board, rule: str) -> str:
    (found,) = [o for o in check_state(b) if isinstance(o, Finding) and o.rule == rule]
    return found.why


def test_704_5y_names_the_player_and_the_permanent() -> None:
    text = "player A\nplayer B\nperm c name=Ours controller=B creature 2/2\n" + "".join(
        f"perm r{i} controller=A enchantment Aura Role enchant=creature attached_to=c "
        f"timestamp={i}\n"
        for i in (1, 2)
    )
    assert why(board(text), "704.5y").startswith("2 Rôles de A sur Ours (c) ;")


def test_704_5p_names_what_it_is_attached_to() -> None:
    b = board(
        TWO + "perm t name=Ours controller=Bob creature 3/3\nperm x controller=Alice "
        "creature 1/1 attached_to=t"
    )
    assert why(b, "704.5p") == "c'est une créature attachée à Ours (t)"
    b = board(TWO + "perm x controller=Alice artifact attached_to=Bob")
    assert why(b, "704.5p") == "ni Aura, ni Équipement, ni Fortification, attaché au joueur Bob"


@pytest.mark.parametrize(("zone", "at"), [("exile", "en exil"), ("graveyard", "au cimetière")])
def test_704_6d_wording(zone: str, at: str) -> None:
    text = f"player Alice\nplayer Bob\nother cmd name=Général zone={zone} owner=Alice commander"
    text += " moved_since_last_check"
    (c,) = choices(board(text, variant="commander"))
    assert c.choose == (
        f"de mettre Général (cmd) dans la zone de commandement ou de le laisser {at}"
    )
    assert c.options == ("zone de commandement", f"laisser {at}")
    assert c.why == f"commandant mis {at} depuis la dernière vérification"
    no = board(text + "\nchoice 704.6d commander=cmd to_command_zone=false", variant="commander")
    (note,) = [o for o in check_state(no) if isinstance(o, Finding)]
    assert note.why.endswith(f"Alice choisit de le laisser {at}")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Alice", "d'Alice"),
        ("Élise", "d'Élise"),
        ("Ours runeguerrier", "d'Ours runeguerrier"),
        ("Hugo", "d'Hugo"),
        ("Bob", "de Bob"),
        ("A", "de A"),
        ("a1", "de a1"),
        ("AB", "de AB"),
        ("", "de "),
    ],
)
def test_de_elides_only_before_a_word(name: str, expected: str) -> None:
    assert de(name) == expected


def test_action_labels_agree_with_the_object() -> None:
    text = (
        TWO
        + "perm p name=Pacifisme controller=Alice enchantment Aura enchant=creature\n"
        + "perm s name=Histoire controller=Alice enchantment Saga final_chapter=1 counters=lore:1\n"
        + "perm l name=Louveteau controller=Alice creature 0/0\n"
    )
    out = render_text(resolve(board(text)))
    assert "Pacifisme (p) : mise au cimetière" in out
    assert "Histoire (s) : sacrifiée" in out
    assert "Louveteau (l) : mis au cimetière" in out
    assert action_label("destroy") == "détruit"
    assert action_label("destroy", feminine=True) == "détruite"
    assert action_label("lose_game", feminine=True) == "perd la partie"


def test_every_action_label_agrees_with_its_object() -> None:
    """Issue 13: « Générale de Chloé : mise dans la zone de commandement », not « mis »."""
    from judge.engine import ActionKind
    from judge.fr import ACTION_LABELS, ACTION_LABELS_FEMININE, ACTION_LABELS_INVARIANT

    for kind in ActionKind:
        assert kind in ACTION_LABELS, kind
        assert (kind in ACTION_LABELS_FEMININE) != (kind in ACTION_LABELS_INVARIANT), kind
        if kind in ACTION_LABELS_FEMININE:
            assert action_label(kind, feminine=True) != action_label(kind), kind
    text = (
        "variant commander\nplayer Alice\nplayer Chloé\n"
        'other g name="Générale de Chloé" zone=graveyard owner=Chloé commander '
        "moved_since_last_check feminine\n"
        'other h name="Général" zone=exile owner=Alice commander moved_since_last_check\n'
        "perm p name=Pacifisme controller=Alice enchantment Aura enchant=creature "
        "feminine=false\n"
        "choice 704.6d commander=g to_command_zone=true\n"
        "choice 704.6d commander=h to_command_zone=true\n"
    )
    out = render_text(resolve(board(text)))
    assert "Générale de Chloé (g) : mise dans la zone de commandement" in out
    assert "Général (h) : mis dans la zone de commandement" in out
    assert "Pacifisme (p) : mis au cimetière" in out

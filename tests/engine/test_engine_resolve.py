"""The loop (704.3 / 420.3), one event per check, replacements, choices and triggers."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import TWO, actions, all_notes, battlefield, board, run, zone_of

from judge.engine import resolve


def test_passes_repeat_until_nothing_applies() -> None:
    res = run(
        TWO
        + "perm c controller=Bob creature 2/2 damage=3\n"
        + "perm a controller=Alice enchantment Aura enchant=creature attached_to=c"
    )
    # the Aura is legal during the first check: it goes only at the second
    assert actions(res) == [["704.5g destroy c"], ["704.5m put_into_graveyard a"]]
    assert battlefield(res) == []
    assert res.stopped is None


def test_all_actions_are_checked_against_the_same_state() -> None:
    # The 0/0 with a +1/+1 and a -1/-1 would survive if 704.5q were performed first; all
    # checks see the state before the event, so it dies and its counters are removed.
    res = run(TWO + "perm c controller=Alice creature 0/0 counters=+1/+1:1,-1/-1:1")
    assert actions(res) == [["704.5f put_into_graveyard c", "704.5q remove_counters c"]]
    assert zone_of(res, "c") == "graveyard"


def test_one_object_leaves_once_even_for_two_reasons() -> None:
    res = run(
        TWO
        + "perm a name=L controller=Alice legendary creature 2/2 damage=2\n"
        + "perm b name=L controller=Alice legendary creature 2/2\n"
        + "choice 704.5j keep=b"
    )
    assert actions(res) == [["704.5g destroy a", "704.5j put_into_graveyard a"]]
    assert [o.id for o in res.final.other_zones] == ["a"]
    assert battlefield(res) == ["b"]


def test_regeneration_taps_removes_damage_and_combat() -> None:
    res = run(
        TWO
        + "perm c controller=Alice creature 2/2 damage=2 deathtouch_damage=2 "
        + "regeneration_shields=2 attacking=Bob"
    )
    # 704.5g and 704.5h: one destruction, one shield
    assert actions(res) == [["704.5g regenerate c"]]
    assert res.passes[0].actions[0].also == ("704.5h",)
    (c,) = res.final.permanents
    assert (c.tapped, c.damage, c.deathtouch_damage, c.attacking, c.regeneration_shields) == (
        True,
        0,
        0,
        None,
        1,
    )


def test_indestructible_beats_regeneration_and_keeps_the_shield() -> None:
    res = run(
        TWO + "perm c controller=Alice creature 2/2 damage=5 indestructible regeneration_shields=1"
    )
    assert actions(res) == [[]]
    assert all_notes(res) == {"704.5g prevented c"}
    (c,) = res.final.permanents
    assert (c.damage, c.regeneration_shields, c.tapped) == (5, 1, False)


def test_since_the_last_check_facts_are_reset() -> None:
    res = run(
        "player Alice drew_from_empty_library cant_lose\nplayer Bob\n"
        + "perm c controller=Alice creature 5/5 damage=1 deathtouch_damage=1 indestructible"
    )
    assert not res.final.players[0].drew_from_empty_library
    assert res.final.permanents[0].deathtouch_damage == 0
    assert all_notes(res) == {"704.5b prevented Alice", "704.5h prevented c"}


def test_loss_replacement_once_for_several_reasons() -> None:
    res = run(
        "player Alice life=0 poison=10 drew_from_empty_library loss_replacement=Miroir "
        "loss_replacement.life=20\nplayer Bob"
    )
    (act,) = res.passes[0].actions
    assert (act.kind, act.subject) == ("replace_loss", "Alice")
    assert set((act.rule, *act.also)) == {"704.5a", "704.5b", "704.5c", "704.7"}
    # the loss is replaced, yet ten poison counters remain: the mirror replaces it again
    assert res.losers == ()
    assert res.final.players[0].life == 20


def test_loss_replacement_needs_its_source_on_the_battlefield() -> None:
    res = run(
        "player Alice life=0 loss_replacement=Miroir loss_replacement.source=m\nplayer Bob\n"
        "other m zone=graveyard owner=Alice"
    )
    assert res.losers == ("Alice",)


def test_loss_replacement_that_changes_nothing_is_stopped_as_a_loop() -> None:
    res = run("player Alice life=0 loss_replacement=Miroir\nplayer Bob")
    assert res.stopped == "loop"
    assert res.losers == ()


def test_cant_lose_keeps_the_player_in() -> None:
    res = run("player Alice life=-4 cant_lose\nplayer Bob life=0")
    assert res.losers == ("Bob",)
    assert "704.5a prevented Alice" in all_notes(res)


def test_two_headed_giant_a_teammate_who_cant_lose_saves_the_team() -> None:
    res = run(
        "player A\nplayer B cant_lose\nplayer C\nplayer D\n"
        "team T1 members=A,B life=0\nteam T2 members=C,D",
        variant="two-headed-giant",
    )
    assert res.losers == ()
    assert all_notes(res) == {"704.6a prevented T1"}


def test_two_headed_giant_one_player_decked_takes_the_team() -> None:
    res = run(
        "player A drew_from_empty_library\nplayer B\nplayer C\nplayer D\n"
        "team T1 members=A,B life=10\nteam T2 members=C,D life=10",
        variant="two-headed-giant",
    )
    assert set(res.losers) == {"A", "B"}


def test_persist_and_undying_use_last_known_information() -> None:
    res = run(
        TWO
        + "perm p1 controller=Alice creature 2/2 damage=2 keywords=persist\n"
        + "perm p2 controller=Alice creature 1/1 damage=1 counters=-1/-1:1 keywords=persist\n"
        + "perm u1 controller=Bob creature 2/2 damage=2 keywords=undying\n"
        + "perm u2 controller=Bob creature 3/3 damage=3 counters=+1/+1:1 keywords=undying\n"
        + "perm x controller=Bob artifact keywords=persist",
        active_player="Bob",
    )
    assert [(t.ability, t.source, t.controller) for t in res.triggers] == [
        ("undying", "u1", "Bob"),  # APNAP: the active player's trigger goes on the stack first
        ("persist", "p1", "Alice"),
    ]
    assert {"704.8 not_triggered p2", "704.8 not_triggered u2"} <= all_notes(res)
    assert [(s.source, s.ability) for s in res.final.stack] == [
        ("u1", "undying"),
        ("p1", "persist"),
    ]


def test_triggers_wait_until_no_state_based_action_applies() -> None:
    res = run(TWO + "perm t controller=Alice creature 1/1 damage=1 token keywords=persist")
    # the token dies (pass 1), ceases to exist (pass 2), then the trigger is put on the stack
    assert actions(res) == [["704.5g destroy t"], ["704.5d cease_to_exist t"]]
    assert [(t.source, t.after_pass) for t in res.triggers] == [("t", 2)]


def test_no_dies_trigger_when_shuffled_into_the_library() -> None:
    res = run(
        "player Alice life=0 loss_replacement=Miroir loss_replacement.life=20 "
        "loss_replacement.permanents_to_library\nplayer Bob\n"
        "perm c controller=Alice creature 2/2 keywords=undying"
    )
    assert res.triggers == ()
    assert zone_of(res, "c") == "library"


def test_a_missing_choice_stops_before_the_event() -> None:
    b = board(
        TWO
        + "perm a name=L controller=Alice legendary creature 1/1\n"
        + "perm b name=L controller=Alice legendary creature 1/1\n"
        + "perm d controller=Bob creature 1/1 damage=1"
    )
    res = resolve(b)
    assert res.stopped == "choice"
    assert res.passes == ()
    assert [(c.player, c.options) for c in res.choices_needed] == [("Alice", ("a", "b"))]
    assert [f"{f.rule} {f.kind} {f.subject}" for f in res.pending] == ["704.5g destroy d"]
    assert res.final == b


def test_a_choice_about_an_object_leaving_anyway_is_not_asked() -> None:
    res = run(
        "player Alice\nplayer Bob\nplayer Chloé\n"
        "perm s controller=Alice battle Siege counters=defense:0"
    )
    assert res.stopped is None
    assert actions(res) == [["704.5v put_into_graveyard s"]]


def test_a_commander_that_dies_is_offered_the_command_zone_at_the_next_check() -> None:
    text = TWO + "perm cmd controller=Alice creature legendary 3/3 damage=3 commander"
    res = run(text, variant="commander")
    assert actions(res) == [["704.5g destroy cmd"]]
    assert res.stopped == "choice"
    assert [(c.rule, c.player) for c in res.choices_needed] == [("704.6d", "Alice")]
    res = run(text + "\nchoice 704.6d commander=cmd to_command_zone=true", variant="commander")
    assert actions(res) == [["704.5g destroy cmd"], ["704.6d move_to_command_zone cmd"]]
    assert zone_of(res, "cmd") == "command"


def test_ruleset_argument_overrides_the_board() -> None:
    b = board(
        TWO
        + "perm a name=X controller=Alice legendary creature 1/1\n"
        + "perm b name=X controller=Bob legendary creature 1/1"
    )
    assert battlefield(resolve(b, "fr-pre2009")) == []
    assert resolve(b, "fr-pre2009").final.ruleset == "fr-pre2009"
    assert battlefield(resolve(b)) == ["a", "b"]


def test_the_pass_limit_is_reported() -> None:
    b = board(TWO + "perm c controller=Alice creature 2/2 damage=2 regeneration_shields=1")
    res = resolve(replace(b), max_passes=1)
    assert res.stopped == "limit"


def test_the_cyclic_collector_is_restored() -> None:
    import gc

    b = board(TWO + "perm c controller=Alice creature 1/0")
    assert gc.isenabled()
    resolve(b)
    assert gc.isenabled()
    gc.disable()
    try:
        resolve(b)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_counters_cancel_and_cap_in_the_same_event() -> None:
    # 4 +1/+1, 1 -1/-1, at most 2 +1/+1: 704.5q removes one of each, 704.5r leaves two
    res = run(
        TWO + "perm c controller=Alice creature 5/5 counters=+1/+1:4,-1/-1:1 max_counters=+1/+1:2"
    )
    assert actions(res) == [["704.5q remove_counters c", "704.5r remove_counters c"]]
    (c,) = res.final.permanents
    assert dict(c.counters) == {"+1/+1": 2}
    assert (c.power, c.toughness) == (4, 4)


# --- what waits for a choice: what will really happen ----------------------------------

PENDING = (
    "variant commander\nplayer A\n"
    "player B life=0 drew_from_empty_library loss_replacement=Miroir loss_replacement.life=20\n"
    "perm o controller=A creature 2/2 damage=2 regeneration_shields=1\n"
    "perm g controller=A creature 2/2 damage=5 indestructible\n"
    "other cmd zone=exile owner=A commander moved_since_last_check\n"
)


def test_pending_shows_the_replacements_as_the_run_does() -> None:
    waiting = run(PENDING)
    assert waiting.stopped == "choice"
    assert [c.rule for c in waiting.choices_needed] == ["704.6d"]
    # B does not lose: the loss is replaced (once for 704.5a and 704.5b), the creature
    # regenerates, the indestructible one is not destroyed
    pending = sorted(f"{f.rule} {f.kind} {f.subject}" for f in waiting.pending)
    assert pending == ["704.5a replace_loss B", "704.5g regenerate o"]
    (loss,) = [f for f in waiting.pending if f.subject == "B"]
    assert "Miroir" in loss.why and loss.also == ("704.5b", "704.7")
    # once the choice is made, the first pass is the pending actions and the choice
    for choice in ("true", "false"):
        chosen = run(PENDING + f"choice 704.6d commander=cmd to_command_zone={choice}")
        assert chosen.stopped is None
        first = [a for a in chosen.passes[0].actions if a.rule != "704.6d"]
        assert first == list(waiting.pending)
        assert chosen.losers == ()


def test_pending_leaves_out_what_cant_lose_prevents() -> None:
    waiting = run(PENDING.replace("loss_replacement=Miroir loss_replacement.life=20", "cant_lose"))
    assert sorted(f"{f.rule} {f.kind} {f.subject}" for f in waiting.pending) == [
        "704.5g regenerate o"
    ]


# --- choices that match nothing: warnings ------------------------------------------------

LEGENDS = (
    TWO
    + "perm a name=L controller=Alice legendary creature 1/1\n"
    + "perm b name=L controller=Alice legendary creature 1/1\n"
    + "perm c controller=Alice creature 1/1\n"
)


def choice_warnings(res_warnings: tuple[str, ...]) -> list[str]:
    return [w for w in res_warnings if w.startswith("choices[")]


def test_a_used_choice_gives_no_warning() -> None:
    res = run(LEGENDS + "choice 704.5j keep=a")
    assert actions(res) == [["704.5j put_into_graveyard b"]]
    assert choice_warnings(res.warnings) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (LEGENDS + "choice 704.5j keep=a\nchoice 704.5j keep=c", ["choices[1]", "légendaire"]),
        (
            TWO
            + "perm a name=L controller=Alice legendary creature 1/1\n"
            + "perm b name=L controller=Bob legendary creature 1/1\nchoice 704.5j keep=a",
            ["choices[0]", "aucun autre permanent légendaire nommé « L »"],
        ),
        (
            TWO + "other cmd zone=graveyard owner=Alice commander moved_since_last_check\n"
            "choice 704.6d commander=cmd to_command_zone=true",
            ["choices[0] (704.6d, « cmd »)", "pas une partie Commander"],
        ),
        (
            TWO + "perm c controller=Alice creature 1/1\nchoice 704.5u creature=c sector=alpha",
            ["sculpteur spatial"],
        ),
        (
            TWO + "perm c controller=Alice creature 1/1\n" + "choice 704.5w battle=c protector=Bob",
            ["« c » n'est pas une bataille"],
        ),
        (
            TWO
            + "perm s controller=Alice battle counters=defense:3 protector=Bob\n"
            + "choice 704.5x battle=s protector=Bob",
            ["n'est pas un Siège"],
        ),
        # can apply, but did not: the battle has a protector still in the game
        (
            TWO
            + "perm s controller=Alice battle counters=defense:3 protector=Bob\n"
            + "choice 704.5w battle=s protector=Bob",
            ["choices[0] (704.5w, « s »)", "ne s'est pas appliquée"],
        ),
    ],
)
def test_a_choice_that_matches_nothing_is_a_warning(text: str, words: list[str]) -> None:
    (warning,) = choice_warnings(run(text).warnings)
    for w in words:
        assert w in warning
    assert warning.endswith("choix ignoré")


def test_choices_are_ignored_under_the_old_rules() -> None:
    res = run(LEGENDS + "choice 704.5j keep=a", "fr-pre2009")
    (warning,) = choice_warnings(res.warnings)
    assert "420.5" in warning


def test_a_choice_not_yet_reached_is_not_reported_while_waiting() -> None:
    # the game stops for the legend rule; the protector choice may still be used later
    text = (
        LEGENDS
        + "perm s controller=Alice battle counters=defense:3 protector=Bob\n"
        + "choice 704.5w battle=s protector=Bob"
    )
    res = run(text)
    assert res.stopped == "choice"
    assert choice_warnings(res.warnings) == []

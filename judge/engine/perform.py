"""Performing one event: a check's findings turned into what happens (704.3: all at once)
and the next board. Replacements are applied here: indestructible and regeneration for a
destruction, "can't lose" and a loss replacement (once for several reasons: 704.7) for a
defeat; persist and undying trigger from last known information (704.8).

Each action kind does one thing to the next board (`_EFFECTS`); the kinds that several rules
may ask for at once are merged into one action per object first (`_MERGED_KINDS`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import TypeAlias

from judge.engine.rulesets import Ruleset
from judge.engine.state import (
    Board,
    ChoiceNeeded,
    Finding,
    OtherObject,
    Permanent,
    Player,
    Snapshot,
    TriggeredAbility,
    copier,
    evolve,
)
from judge.engine.vocabulary import (
    ActionKind,
    FindingKind,
    NoteKind,
    SubjectKind,
    choice_key,
    pt_counter,
)
from judge.engine.wording import de, fr_list, plural
from judge.fr import ABILITY_LABELS, ZONE_LABELS
from judge.rules.numbers import sort_key

# Dies-trigger keywords, with the counter whose presence stops each.
DIES_KEYWORDS = MappingProxyType({"persist": "-1/-1", "undying": "+1/+1"})


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered ability put on the stack after the state-based actions."""

    source: str
    name: str
    ability: str  # the keyword in English (persist, undying)
    controller: str
    rule: str
    why: str
    after_pass: int = 0
    object: str | None = None  # the object whose leaving or death triggered it
    text: str = ""  # the ability's text, as the board states it


# A trigger with one field changed (its pass, when put on the stack), a slot at a time.
evolve_trigger = copier(Trigger)

# --- performing one event -----------------------------------------------------------


@dataclass
class Event:
    """What one event does: the actions and notes to report, and the changes to make."""

    actions: list[Finding] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)
    leaving: dict[str, str] = field(default_factory=dict)  # id -> zone (graveyard, library)
    gone: set[str] = field(default_factory=set)  # other objects that cease to exist
    to_command: set[str] = field(default_factory=set)
    regenerate: set[str] = field(default_factory=set)
    unattach: set[str] = field(default_factory=set)
    remove: dict[str, dict[str, int]] = field(default_factory=dict)
    protector: dict[str, str] = field(default_factory=dict)
    sector: dict[str, str] = field(default_factory=dict)
    losers: list[str] = field(default_factory=list)
    life: dict[str, int] = field(default_factory=dict)
    speed: dict[str, int] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=dict)  # 800.4a: control reverts
    effects_ended: set[str] = field(default_factory=set)  # 800.4a: effects giving control
    left_game: set[str] = field(default_factory=set)  # players whose stack objects go
    face_down: set[str] = field(default_factory=set)  # 704.6e, 704.6f
    unbestow: set[str] = field(default_factory=set)  # 702.103f: becomes a creature again
    clear_damage: set[str] = field(default_factory=set)  # 702.89a: umbra armor
    choices: list[ChoiceNeeded] = field(default_factory=list)  # 616.1: order of replacements
    used_choices: set[str] = field(default_factory=set)
    triggers: list[Trigger] = field(default_factory=list)


def _merge(
    findings: Sequence[Finding], kind: FindingKind, why_suffix: str = "", note: bool = False
) -> Finding:
    first = findings[0]
    if len(findings) == 1 and first.kind == kind and first.note == note and not why_suffix:
        return first
    also = tuple(dict.fromkeys(f.rule for f in findings[1:] if f.rule != first.rule))
    why = " ; ".join(dict.fromkeys(f.why for f in findings if f.why))
    return Finding(
        first.rule,
        kind,
        first.subject,
        first.subject_kind,
        why + why_suffix,
        note=note,
        also=also,
    )


def perform(
    snap: Snapshot, findings: Sequence[Finding], ruleset: Ruleset
) -> tuple[Event, Board, bool]:
    """Perform one check's findings as one event. Returns the event, the new board and
    whether anything changed."""
    ev = Event()
    ev.notes.extend(f for f in findings if f.note)
    by_player, by_team, by_object = _gather(snap, [f for f in findings if not f.note])
    # Players: every reason to lose is gathered first (704.7: one replacement for all).
    for team in snap.board.teams:
        if team.name in by_team:
            members = [snap.players[m] for m in team.members]
            _lose(snap, ev, team.name, "team", members, by_team[team.name], ruleset)
    for player in snap.board.players:
        if player.name in by_player:
            _lose(snap, ev, player.name, "player", [player], by_player[player.name], ruleset)
    # Objects, in id order.
    for oid in sorted(by_object):
        _perform_on_object(snap, ev, by_object[oid])
    if ev.losers and len(snap.board.players) > 2 and snap.variant != "two-headed-giant":
        for loser in sorted(set(ev.losers)):
            _leave_game(snap, ev, loser)
    new_board, changed = _next_board(snap, ev, ruleset)
    ev.actions.sort(key=_finding_order)
    ev.notes.sort(key=_finding_order)
    return ev, new_board, changed


_Groups: TypeAlias = dict[str, list[Finding]]


def _gather(snap: Snapshot, acts: Iterable[Finding]) -> tuple[_Groups, _Groups, _Groups]:
    """The actions by player, by Two-Headed Giant team (a member's loss is the team's:
    704.6a) and by object."""
    by_player: _Groups = {}
    by_team: _Groups = {}
    by_object: _Groups = {}
    two_hg = snap.variant == "two-headed-giant"
    for f in acts:
        if f.kind != ActionKind.LOSE_GAME:
            by_object.setdefault(f.subject, []).append(f)
        elif f.subject_kind == "team":
            by_team.setdefault(f.subject, []).append(f)
        elif two_hg and f.subject in snap.team_of:
            by_team.setdefault(snap.team_of[f.subject].name, []).append(f)
        else:
            by_player.setdefault(f.subject, []).append(f)
    return by_player, by_team, by_object


# --- losing the game ---------------------------------------------------------------


def _lose(
    snap: Snapshot,
    ev: Event,
    subject: str,
    subject_kind: SubjectKind,
    members: Sequence[Player],
    reasons: Sequence[Finding],
    ruleset: Ruleset,
) -> None:
    """A player (or a 2HG team) would lose the game for one or more reasons at once: a
    "can't lose" effect prevents it, else a loss replacement replaces it (once for all the
    reasons: 704.7), else the player (or every member) loses."""
    blocker = next((m for m in members if m.cant_lose), None)
    if blocker is not None:
        team = " (son équipe non plus)" if subject_kind == "team" else ""
        for f in reasons:
            ev.notes.append(
                replace(
                    f,
                    kind=NoteKind.PREVENTED,
                    note=True,
                    why=f"{f.why} ; mais {blocker.name} ne peut pas perdre la partie{team}",
                )
            )
        return
    for m in members:
        repl = m.loss_replacement
        if repl is not None and (repl.source is None or repl.source in snap.permanents):
            _replace_loss(snap, ev, m, reasons, ruleset)
            return
    merged = _merge(reasons, ActionKind.LOSE_GAME)
    if subject_kind == "team":
        names = [m.name for m in members]
        merged = replace(
            merged,
            subject=subject,
            subject_kind="team",
            why=f"{merged.why} ; l'équipe ({fr_list(names)}) perd la partie",
        )
    ev.actions.append(merged)
    ev.losers.extend(m.name for m in members if not m.lost)


def _replace_loss(
    snap: Snapshot, ev: Event, m: Player, reasons: Sequence[Finding], ruleset: Ruleset
) -> None:
    """704.7 — a loss replacement (Lich's Mirror) applied once, whatever the number of
    reasons to lose."""
    repl = m.loss_replacement
    assert repl is not None
    rules = list(dict.fromkeys(f.rule for f in reasons))
    extra: tuple[str, ...] = ()
    if len(rules) > 1:
        extra = (ruleset.same_result_rule,)
    effects = []
    if repl.life is not None:
        ev.life[m.name] = repl.life
        effects.append(f"son total de points de vie devient {repl.life}")
    if repl.permanents_to_library:
        owned = sorted(p.id for p in snap.board.permanents if p.owner == m.name)
        for pid in owned:
            ev.leaving.setdefault(pid, "library")
        mixed = "mélangés" if len(owned) > 1 else "mélangé"
        effects.append(
            f"{plural(len(owned), 'permanent')} {de(m.name)} {mixed} dans sa bibliothèque"
        )
    once = (
        f"{len(rules)} raisons de perdre ({', '.join(rules)}), un seul remplacement"
        if len(rules) > 1
        else f"raison : {rules[0]}"
    )
    why = f"{repl.name} remplace la défaite {de(m.name)} ({once})"
    if effects:
        why += " : " + ", ".join(effects)
    ev.actions.append(
        Finding(rules[0], ActionKind.REPLACE_LOSS, m.name, "player", why, also=(*rules[1:], *extra))
    )
    for f in reasons:
        ev.notes.append(
            replace(f, kind=NoteKind.REPLACED, note=True, why=f"{f.why} ; remplacé par {repl.name}")
        )


# --- 800.4a: a player leaves a multiplayer game ---------------------------------------

LEAVE_RULE = "800.4a"


def _leave_game(snap: Snapshot, ev: Event, loser: str) -> None:
    """800.4a — the objects the loser owns leave the game, effects giving the loser control
    end (control reverts), the loser's objects on the stack cease to exist, and whatever the
    loser still controls is exiled."""
    why = f"{loser} a perdu et quitte la partie"
    board = snap.board
    ended = [e for e in board.continuous_effects if e.control == loser]
    ev.effects_ended.update(e.id for e in ended)
    stolen = {i for e in ended for i in (e.affects.ids or ())}
    for p in board.permanents:
        if p.owner == loser:
            ev.leaving[p.id] = "gone"
            ev.actions.append(Finding(LEAVE_RULE, ActionKind.LEAVE_GAME, p.id, why=why))
            continue
        controller = snap.permanents[p.id].controller
        if p.id in stolen or (p.controller == loser and p.entered_under not in (None, loser)):
            back = p.entered_under or p.owner
            ev.control[p.id] = back
            ev.actions.append(
                Finding(LEAVE_RULE, ActionKind.REVERT_CONTROL, p.id, why=f"{why} : "
                        f"l'effet qui lui en donnait le contrôle prend fin", value=back)
            )  # fmt: skip
        elif controller == loser:
            ev.leaving.setdefault(p.id, "exile")
            ev.actions.append(
                Finding(LEAVE_RULE, ActionKind.EXILE, p.id, why=f"{why} ; {loser} le contrôlait")
            )
    for o in board.other_zones:
        if o.owner == loser and o.id not in ev.gone:
            ev.gone.add(o.id)
            ev.actions.append(Finding(LEAVE_RULE, ActionKind.LEAVE_GAME, o.id, why=why))
    if any(item.controller == loser for item in board.stack):
        ev.left_game.add(loser)


# --- what happens to an object ---------------------------------------------------------


REGENERATION = "regeneration"
UMBRA_ARMOR = "umbra armor"
UMBRA_RULE = "702.89a"
ORDER_RULE = "616.1"
SHIELD_RULE = "122.1c"


def _destroy(snap: Snapshot, ev: Event, findings: Sequence[Finding]) -> None:
    """Destroy a permanent once for all its reasons, unless it is indestructible (the
    destruction does not happen) or a replacement applies: a regeneration shield, or an Aura
    with umbra armor attached to it (702.89a). With several, its controller chooses which
    applies (616.1e), and the board must say it (`choices`, rule 616.1). A shield counter
    replaces only a destruction by an effect (122.1c): not these."""
    perm = snap.permanents.get(findings[0].subject)
    if perm is None:
        return
    merged = _merge(findings, ActionKind.DESTROY)
    if perm.is_indestructible:
        ev.notes.append(
            replace(
                merged,
                kind=NoteKind.PREVENTED,
                note=True,
                why=f"{merged.why} ; indestructible : la destruction n'a pas lieu",
            )
        )
        return
    if perm.counter("shield"):
        ev.notes.append(
            Finding(
                SHIELD_RULE,
                NoteKind.NOT_REPLACED,
                perm.id,
                why=f"{plural(perm.counter('shield'), 'marqueur bouclier', 'marqueurs bouclier')}"
                f" : il ne remplace que la destruction par un effet, pas par une action basée "
                f"sur un état",
                note=True,
            )
        )
    options = _replacements(snap, perm)
    chosen = options[0] if len(options) == 1 else snap.board.choices.replacements.get(perm.id)
    if len(options) > 1 and chosen not in options:
        ev.choices.append(
            ChoiceNeeded(
                ORDER_RULE,
                perm.controller,
                f"le remplacement de la destruction {de(snap.label(perm.id))} à appliquer",
                tuple(options),
                perm.id,
                f"{merged.why} ; plusieurs effets de remplacement s'appliquent ; le contrôleur "
                f"du permanent choisit",
            )
        )
        return
    if len(options) > 1:
        ev.used_choices.add(choice_key(ORDER_RULE, perm.id))
    if chosen == REGENERATION:
        _regenerate(ev, perm, merged)
    elif chosen is not None:
        _umbra_armor(snap, ev, perm, merged, chosen)
    else:
        ev.actions.append(merged)
        ev.leaving[perm.id] = "graveyard"


def _replacements(snap: Snapshot, perm: Permanent) -> list[str]:
    """What may replace the destruction of `perm`: "regeneration", and the ids of the Auras
    with umbra armor attached to it."""
    out = [REGENERATION] if perm.regeneration_shields > 0 else []
    out += sorted(
        a.id for a in snap.attached_by_target.get(perm.id, ()) if UMBRA_ARMOR in a.keywords
    )
    return out


def _regenerate(ev: Event, perm: Permanent, merged: Finding) -> None:
    ev.actions.append(
        replace(
            merged,
            kind=ActionKind.REGENERATE,
            why=f"{merged.why} ; un bouclier de régénération remplace la destruction "
            f"(la créature est engagée, ses blessures retirées, elle est retirée du "
            f"combat)",
        )
    )
    ev.notes.append(
        replace(
            merged,
            kind=NoteKind.REPLACED,
            note=True,
            why=f"{merged.why} ; destruction remplacée par la régénération",
        )
    )
    ev.regenerate.add(perm.id)


def _umbra_armor(snap: Snapshot, ev: Event, perm: Permanent, merged: Finding, aura: str) -> None:
    """702.89a: instead, all damage is removed from the permanent and the Aura is destroyed."""
    ev.actions.append(
        Finding(
            UMBRA_RULE,
            ActionKind.DESTROY,
            aura,
            why=f"armure d'ombre : détruite à la place {de(snap.label(perm.id))}, dont les "
            f"blessures sont retirées",
        )
    )
    ev.notes.append(
        replace(
            merged,
            kind=NoteKind.REPLACED,
            note=True,
            why=f"{merged.why} ; destruction remplacée par l'armure d'ombre de {snap.label(aura)}",
        )
    )
    ev.leaving[aura] = "graveyard"
    ev.clear_damage.add(perm.id)


def _unattach(snap: Snapshot, ev: Event, findings: Sequence[Finding]) -> None:
    """Unattach once, whichever rules asked for it (704.5n, 704.5p)."""
    ev.actions.append(_merge(findings, ActionKind.UNATTACH))
    ev.unattach.add(findings[0].subject)


def _to_graveyard(ev: Event, f: Finding) -> None:
    ev.leaving[f.subject] = "graveyard"


def _cease_to_exist(ev: Event, f: Finding) -> None:
    ev.gone.add(f.subject)


def _to_command_zone(ev: Event, f: Finding) -> None:
    ev.to_command.add(f.subject)


def _remove_counters_of(ev: Event, f: Finding) -> None:
    """704.5q and 704.5r together: the larger removal, then the cap of 704.5r ("until only N
    remain") -- the same as removing 704.5q's, then capping."""
    if f.counters:
        acc = ev.remove.setdefault(f.subject, {})
        for k, n in f.counters.items():
            acc[k] = max(acc.get(k, 0), n)


def _set_protector(ev: Event, f: Finding) -> None:
    if f.value is not None:
        ev.protector[f.subject] = f.value


def _face_down(ev: Event, f: Finding) -> None:
    """704.6e, 704.6f: the card is turned face down, to the bottom of its deck."""
    ev.face_down.add(f.value if f.kind == ActionKind.PLANESWALK and f.value else f.subject)


def _end_bestow(ev: Event, f: Finding) -> None:
    ev.unbestow.add(f.subject)


def _set_speed(ev: Event, f: Finding) -> None:
    ev.speed[f.subject] = int(f.value or 1)


def _set_sector(ev: Event, f: Finding) -> None:
    if f.value is not None:
        ev.sector[f.subject] = f.value


# The kinds performed once for all the findings of an object, in this order.
_MERGED_KINDS: Mapping[FindingKind, Callable[[Snapshot, Event, Sequence[Finding]], None]] = (
    MappingProxyType({ActionKind.DESTROY: _destroy, ActionKind.UNATTACH: _unattach})
)
# What each other kind does to the next board (the kinds not here only report).
_EFFECTS: Mapping[FindingKind, Callable[[Event, Finding], None]] = MappingProxyType(
    {
        ActionKind.PUT_INTO_GRAVEYARD: _to_graveyard,
        ActionKind.SACRIFICE: _to_graveyard,
        ActionKind.CEASE_TO_EXIST: _cease_to_exist,
        ActionKind.REMOVE_FROM_GAME: _cease_to_exist,
        ActionKind.MOVE_TO_COMMAND_ZONE: _to_command_zone,
        ActionKind.REMOVE_COUNTERS: _remove_counters_of,
        ActionKind.CHOOSE_PROTECTOR: _set_protector,
        ActionKind.CHOOSE_SECTOR: _set_sector,
        ActionKind.SET_SPEED: _set_speed,
        ActionKind.END_BESTOW: _end_bestow,
        ActionKind.SCHEME_TO_BOTTOM: _face_down,
        ActionKind.PLANESWALK: _face_down,
    }
)


def _perform_on_object(snap: Snapshot, ev: Event, findings: Sequence[Finding]) -> None:
    """Everything the event does to one object."""
    for kind, perform_merged in _MERGED_KINDS.items():
        same = [f for f in findings if f.kind == kind]
        if same:
            perform_merged(snap, ev, same)
    for f in findings:
        if f.kind in _MERGED_KINDS:
            continue
        ev.actions.append(f)
        effect = _EFFECTS.get(f.kind)
        if effect is not None:
            effect(ev, f)


_rule_order = lru_cache(maxsize=None)(sort_key)


def _finding_order(f: Finding) -> tuple[tuple[int, int, int, int], str, str]:
    return (_rule_order(f.rule), f.subject, f.kind)


# --- the next board ------------------------------------------------------------------


def _remove_counters(p: Permanent, remove: Mapping[str, int]) -> dict[str, object]:
    counters = dict(p.counters)
    for kind, n in remove.items():
        counters[kind] = max(0, counters.get(kind, 0) - n)
    for kind, most in p.max_counters.items():  # 704.5r: "until only N remain"
        if counters.get(kind, 0) > most:
            counters[kind] = most
    power, toughness = p.power, p.toughness
    keys = p.printed.keys if p.printed is not None else frozenset()
    if "toughness" in keys:  # the layers count the counters (613.4c): nothing to adjust
        return {"counters": {k: v for k, v in counters.items() if v}}
    for kind, before in p.counters.items():
        delta = before - counters.get(kind, 0)
        pt = pt_counter(kind)
        if delta and pt is not None:
            if power is not None:
                power -= pt[0] * delta
            if toughness is not None:
                toughness -= pt[1] * delta
    return {
        "counters": {k: v for k, v in counters.items() if v},
        "power": power,
        "toughness": toughness,
    }


def _dies_triggers(p: Permanent, ev: Event, ruleset: Ruleset) -> None:
    """Persist / undying, decided from last known information (704.8): `p` is the permanent
    as it last existed on the battlefield, before this event."""
    if "creature" not in p.types:
        return
    rule = ruleset.lki_rule
    for keyword, blocker in DIES_KEYWORDS.items():
        if keyword not in p.keywords:
            continue
        french = ABILITY_LABELS[keyword]
        n = p.counter(blocker)
        if n == 0:
            ev.triggers.append(
                Trigger(
                    p.id,
                    p.name,
                    keyword,
                    p.controller,
                    rule,
                    f"{french} ({keyword}) : la créature est morte sans marqueur {blocker} "
                    f"(dernières informations connues)",
                    object=p.id,
                )
            )
        else:
            counted = plural(n, f"marqueur {blocker}", f"marqueurs {blocker}")
            ev.notes.append(
                Finding(
                    rule,
                    NoteKind.NOT_TRIGGERED,
                    p.id,
                    why=f"{french} ({keyword}) ne se déclenche pas : {counted} sur la créature "
                    f"d'après les dernières informations connues",
                    note=True,
                )
            )


def _trigger(
    watcher: Permanent, ability: TriggeredAbility, victim: Permanent, ruleset: Ruleset, why: str
) -> Trigger:
    return Trigger(
        watcher.id,
        watcher.name,
        ability.id,
        watcher.controller,
        ruleset.lki_rule,
        f"{why} (dernières informations connues, 603.10a)",
        object=victim.id,
        text=ability.text,
    )


def _stated_triggers(
    snap: Snapshot, ev: Event, left: Sequence[tuple[Permanent, str]], ruleset: Ruleset
) -> None:
    """The leaves-the-battlefield and dies abilities the board states (603.6c, 700.4), decided
    from last known information: each looks back at the permanents as they were before the
    event (603.10a), those that leave with the victims included."""
    died = [p for p, zone in left if zone == "graveyard" and "creature" in p.types]
    dead_ids = {p.id for p in died}
    for p, zone in left:
        where = ZONE_LABELS.get(zone, zone)
        for t in p.triggered_abilities:
            if not _filter_holds(t, p, p):
                continue
            if t.trigger == "leaves":
                why = f"{snap.label(p.id)} a quitté le champ de bataille (vers : {where})"
                ev.triggers.append(_trigger(p, t, p, ruleset, why))
            elif t.trigger == "dies" and p.id in dead_ids:
                ev.triggers.append(_trigger(p, t, p, ruleset, f"{snap.label(p.id)} meurt"))
    if not died:
        return
    for w in snap.with_triggers:
        for t in w.triggered_abilities:
            if t.trigger not in _WATCHING:
                continue
            victims = died
            if t.trigger == "damaged_creature_dies":
                victims = [d for d in died if w.id in d.dealt_damage_this_turn_by]
            for d in victims:
                reason = _watch_reason(t.trigger, w, d, snap)
                if reason is not None and _filter_holds(t, w, d):
                    ev.triggers.append(_trigger(w, t, d, ruleset, reason))


# The abilities that watch other permanents die.
_WATCHING = frozenset({"creature_dies", "another_creature_dies", "damaged_creature_dies"})


def _filter_holds(t: TriggeredAbility, w: Permanent, d: Permanent) -> bool:
    """Whether the object `d` that left or died matches the `affects` of `w`'s ability `t`,
    judged from last known information (603.10a): the same keys as a continuous effect's,
    `controller` compared with the controller of `w`."""
    a = t.affects
    if a is None:
        return True
    if a.ids is not None and d.id not in a.ids:
        return False
    if (a.self_ and d.id != w.id) or (a.other and d.id == w.id):
        return False
    if a.attached and w.attached_to != d.id:
        return False
    if not a.types <= d.types or not a.colors <= d.colors:
        return False
    if a.controller == "you":
        return d.controller == w.controller
    if a.controller == "opponents":
        return d.controller != w.controller
    return True


def _watch_reason(trigger: str, w: Permanent, d: Permanent, snap: Snapshot) -> str | None:
    """Why `w`'s ability triggers on the death of `d`, or None."""
    dead = f"{snap.label(d.id)} meurt"
    if trigger == "creature_dies":
        return dead
    if trigger == "another_creature_dies" and d.id != w.id:
        return f"{dead} (une autre créature)"
    if trigger == "damaged_creature_dies" and w.id in d.dealt_damage_this_turn_by:
        return f"{dead} après avoir subi ce tour-ci des blessures de {snap.label(w.id)}"
    return None


def _next_board(snap: Snapshot, ev: Event, ruleset: Ruleset) -> tuple[Board, bool]:
    board = snap.board
    permanents, arrived, changed = _next_permanents(snap, ev, ruleset)
    others, others_changed = _next_others(board, ev, arrived)
    players, players_changed = _next_players(board, ev)
    new_board = replace(
        board, players=tuple(players), permanents=tuple(permanents), other_zones=tuple(others)
    )
    if ev.effects_ended or ev.left_game:  # 800.4a
        new_board = replace(
            new_board,
            continuous_effects=tuple(
                e for e in board.continuous_effects if e.id not in ev.effects_ended
            ),
            stack=tuple(s for s in board.stack if s.controller not in ev.left_game),
        )
        changed = True
    return new_board, changed or others_changed or players_changed


def _touched(snap: Snapshot, ev: Event) -> set[str]:
    """The permanents that stay on the battlefield but change."""
    touched = ev.regenerate | ev.unattach | ev.remove.keys() | ev.protector.keys()
    touched |= ev.sector.keys() | ev.control.keys() | ev.clear_damage | ev.unbestow
    touched.update(p.id for p in snap.damaged if p.deathtouch_damage)
    if ev.leaving:
        touched.update(
            p.id for p in snap.attached if p.attached_to is not None and p.attached_to in ev.leaving
        )
    return touched


def _next_permanents(
    snap: Snapshot, ev: Event, ruleset: Ruleset
) -> tuple[list[Permanent], list[OtherObject], bool]:
    """The permanents that stay (changed or not), the objects that leave the battlefield
    and whether anything changed."""
    board = snap.board
    leaving = ev.leaving
    touched = _touched(snap, ev)
    if not leaving and not touched:
        return list(board.permanents), [], False
    changed = False
    permanents: list[Permanent] = []
    arrived: list[OtherObject] = []
    left: list[tuple[Permanent, str]] = []
    for p in board.permanents:
        pid = p.id
        if pid in leaving and leaving[pid] == "gone":  # left the game with its owner
            changed = True
            continue
        if pid in leaving:
            zone = leaving[pid]
            arrived.append(
                OtherObject(
                    id=pid,
                    zone=zone,  # type: ignore[arg-type]
                    owner=p.owner,
                    name=p.name,
                    token=p.token,
                    commander=p.commander,
                    moved_since_last_check=True,
                )
            )
            last = snap.permanents.get(pid, p)  # last known information (704.8)
            if zone == "graveyard":
                _dies_triggers(last, ev, ruleset)
            left.append((last, zone))
            changed = True
        elif pid not in touched:
            permanents.append(p)
        else:
            new = evolve(p, _permanent_changes(p, ev))
            changed = changed or new != p
            permanents.append(new)
    if left:
        _stated_triggers(snap, ev, left, ruleset)
    return permanents, arrived, changed


def _permanent_changes(p: Permanent, ev: Event) -> dict[str, object]:
    """What the event changes on a permanent that stays (deathtouch damage is cleared)."""
    pid = p.id
    changes: dict[str, object] = {"deathtouch_damage": 0}
    if pid in ev.regenerate:
        changes.update(
            regeneration_shields=p.regeneration_shields - 1,
            tapped=True,
            damage=0,
            attacking=None,
            blocking=False,
        )
    if pid in ev.unattach or (p.attached_to is not None and p.attached_to in ev.leaving):
        changes["attached_to"] = None
    if pid in ev.remove:
        changes.update(_remove_counters(p, ev.remove[pid]))
    if pid in ev.protector:
        changes["protector"] = ev.protector[pid]
    if pid in ev.sector:
        changes["sector"] = ev.sector[pid]
    if pid in ev.control:
        changes["controller"] = ev.control[pid]
    if pid in ev.clear_damage:
        changes["damage"] = 0
    if pid in ev.unbestow:  # 702.103f: an enchantment creature again
        changes.update(
            bestowed=False,
            attached_to=None,
            enchant=frozenset(),
            types=p.types | {"creature"},
            subtypes=tuple(t for t in p.subtypes if t != "Aura"),
        )
    return changes


def _next_others(
    board: Board, ev: Event, arrived: list[OtherObject]
) -> tuple[list[OtherObject], bool]:
    """The objects outside the battlefield: those that cease to exist left out, commanders
    moved, every "moved since the last check" cleared, and the arrivals (by id) at the end."""
    changed = False
    others: list[OtherObject] = []
    for o in board.other_zones:
        if o.id in ev.gone:
            changed = True
            continue
        if o.id in ev.face_down:
            others.append(evolve(o, {"face_up": False, "moved_since_last_check": False}))
            changed = True
        elif o.id in ev.to_command:
            others.append(evolve(o, {"zone": "command", "moved_since_last_check": False}))
            changed = True
        elif o.moved_since_last_check:
            others.append(evolve(o, {"moved_since_last_check": False}))
            changed = True
        else:
            others.append(o)
    arrived.sort(key=lambda o: o.id)
    others.extend(arrived)
    return others, changed


def _next_players(board: Board, ev: Event) -> tuple[list[Player], bool]:
    changed = False
    lost = set(ev.losers)
    players: list[Player] = []
    for pl in board.players:
        pchanges: dict[str, object] = {}
        if pl.drew_from_empty_library:
            pchanges["drew_from_empty_library"] = False
        if pl.name in lost:
            pchanges["lost"] = True
        if pl.name in ev.life and ev.life[pl.name] != pl.life:
            pchanges["life"] = ev.life[pl.name]
        if pl.name in ev.speed:
            pchanges["speed"] = ev.speed[pl.name]
        if pchanges:
            changed = True
            players.append(evolve(pl, pchanges))
        else:
            players.append(pl)
    return players, changed

"""The loop of 704.3 / 420.3: check every state-based action against the same state,
perform all that apply at once as one event, repeat; when a check performs nothing, put
the waiting triggered abilities on the stack and check again.

Performing is separate from checking: the checks (current.py, pre2009.py) return findings;
`perform` turns one check's findings into one event (replacements included: regeneration,
indestructible, "can't lose", a loss replacement applied once for several reasons) and
the next board."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal, TypeAlias, TypeVar

from judge.engine import current, pre2009
from judge.engine.board import (
    CHOICE_FIELDS,
    Board,
    Check,
    ChoiceNeeded,
    Finding,
    OtherObject,
    Permanent,
    Player,
    Ruleset,
    Snapshot,
    StackItem,
    choice_key,
    cyclic_gc_paused,
    pt_counter,
)
from judge.engine.explain import de, fr_list, plural
from judge.rules.numbers import sort_key

StopReason: TypeAlias = Literal["choice", "loop", "limit"]

REGISTRIES: dict[Ruleset, tuple[Check, ...]] = {
    "fr-2024": current.REGISTRY,
    "fr-pre2009": pre2009.REGISTRY,
}
NOTE_CHECKS: dict[Ruleset, tuple[Check, ...]] = {"fr-2024": (), "fr-pre2009": pre2009.NOTES}
LOOP_RULE: dict[Ruleset, str] = {"fr-2024": current.LOOP_RULE, "fr-pre2009": pre2009.LOOP_RULE}
# One replacement for several simultaneous reasons: 704.7; the old text only says "one event".
SAME_RESULT_RULE: dict[Ruleset, str] = {
    "fr-2024": current.SAME_RESULT_RULE,
    "fr-pre2009": pre2009.LOOP_RULE,
}
LKI_RULE: dict[Ruleset, str] = {
    "fr-2024": current.LAST_KNOWN_INFORMATION_RULE,
    "fr-pre2009": pre2009.LOOP_RULE,
}
CITED_RULES: dict[Ruleset, tuple[str, ...]] = {
    "fr-2024": current.CITED_RULES,
    "fr-pre2009": pre2009.CITED_RULES,
}
DIES_KEYWORDS = {
    # keyword: (French name, the counter whose presence stops it)
    "persist": ("survivance", "-1/-1"),
    "undying": ("immortalité", "+1/+1"),
}
LEAVING_KINDS = frozenset({"put_into_graveyard", "sacrifice"})
DEFAULT_MAX_PASSES = 1000


@dataclass(frozen=True)
class Trigger:
    """A triggered ability put on the stack after the state-based actions."""

    source: str
    name: str
    ability: str  # the keyword in English (persist, undying)
    controller: str
    rule: str
    why: str
    after_pass: int = 0


@dataclass(frozen=True)
class Pass:
    number: int
    actions: tuple[Finding, ...]
    not_applied: tuple[Finding, ...]


@dataclass(frozen=True)
class Resolution:
    ruleset: Ruleset
    initial: Board
    final: Board
    passes: tuple[Pass, ...]
    triggers: tuple[Trigger, ...]
    losers: tuple[str, ...]
    choices_needed: tuple[ChoiceNeeded, ...] = ()
    # What the pass waiting for choices will perform besides them (replacements applied).
    pending: tuple[Finding, ...] = ()
    stopped: StopReason | None = None
    warnings: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)  # object id -> name, all seen

    @property
    def actions(self) -> list[Finding]:
        return [a for p in self.passes for a in p.actions]

    @property
    def not_applied(self) -> list[Finding]:
        return [n for p in self.passes for n in p.not_applied]

    def cited_rules(self) -> list[str]:
        """Every rule number the resolution cites, in order of first appearance."""
        seen: dict[str, None] = {}
        for f in [*self.actions, *self.not_applied, *self.pending]:
            for r in (f.rule, *f.also):
                seen.setdefault(r, None)
        for t in self.triggers:
            seen.setdefault(t.rule, None)
        for c in self.choices_needed:
            seen.setdefault(c.rule, None)
        return list(seen)


def checks_for(ruleset: Ruleset, board: Board) -> tuple[Check, ...]:
    return tuple(
        c for c in REGISTRIES[ruleset] if c.variants is None or board.variant in c.variants
    )


def check_state(board: Board, ruleset: Ruleset | None = None) -> list[Finding | ChoiceNeeded]:
    """Every state-based action (and note) that applies to this board, in registry order,
    each check's results sorted by subject (so the file's order does not matter)."""
    rs: Ruleset = ruleset or board.ruleset
    snap = Snapshot(board)
    return _run_checks(snap, (*checks_for(rs, board), *NOTE_CHECKS[rs]))


def _run_checks(snap: Snapshot, checks: Iterable[Check]) -> list[Finding | ChoiceNeeded]:
    out: list[Finding | ChoiceNeeded] = []
    for check in checks:
        found = list(check.func(snap))
        found.sort(key=_outcome_key)
        out.extend(found)
    return out


def next_event(
    board: Board, ruleset: Ruleset | None = None
) -> tuple[list[Finding], list[ChoiceNeeded]]:
    """What the next check would perform (prevented actions left out) and the choices it
    would wait for. After a complete resolution both are empty."""
    rs: Ruleset = ruleset or board.ruleset
    snap = Snapshot(board)
    outcomes = _run_checks(snap, checks_for(rs, board))
    choices = [o for o in outcomes if isinstance(o, ChoiceNeeded)]
    ev, _, _ = perform(snap, [o for o in outcomes if isinstance(o, Finding)], rs)
    return ev.actions, choices


def _outcome_key(o: Finding | ChoiceNeeded) -> tuple[str, ...]:
    if isinstance(o, Finding):
        return (o.subject, o.kind, o.rule)
    return (o.subject or "", str(o.order), o.player, o.rule)


# --- performing one event -----------------------------------------------------------


@dataclass
class _Event:
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
    triggers: list[Trigger] = field(default_factory=list)


def _merge(
    findings: Sequence[Finding], kind: str, why_suffix: str = "", note: bool = False
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


def _lose(
    snap: Snapshot,
    ev: _Event,
    subject: str,
    kind: str,
    members: Sequence[Player],
    reasons: Sequence[Finding],
    ruleset: Ruleset,
) -> None:
    """A player (or a 2HG team) would lose the game for one or more reasons at once."""
    blocker = next((m for m in members if m.cant_lose), None)
    if blocker is not None:
        for f in reasons:
            ev.notes.append(
                replace(
                    f,
                    kind="prevented",
                    note=True,
                    why=f"{f.why} ; mais {blocker.name} ne peut pas perdre la partie"
                    + (" (son équipe non plus)" if kind == "team" else ""),
                )
            )
        return
    for m in members:
        repl = m.loss_replacement
        if repl is None or (repl.source is not None and repl.source not in snap.permanents):
            continue
        rules = list(dict.fromkeys(f.rule for f in reasons))
        extra: tuple[str, ...] = ()
        if len(rules) > 1:
            extra = (SAME_RESULT_RULE[ruleset],)
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
            Finding(rules[0], "replace_loss", m.name, "player", why, also=(*rules[1:], *extra))
        )
        for f in reasons:
            ev.notes.append(
                replace(f, kind="replaced", note=True, why=f"{f.why} ; remplacé par {repl.name}")
            )
        return
    merged = _merge(reasons, "lose_game")
    if kind == "team":
        names = [m.name for m in members]
        merged = replace(
            merged,
            subject=subject,
            subject_kind="team",
            why=f"{merged.why} ; l'équipe ({fr_list(names)}) perd la partie",
        )
    ev.actions.append(merged)
    ev.losers.extend(m.name for m in members if not m.lost)


def perform(
    snap: Snapshot, findings: Sequence[Finding], ruleset: Ruleset
) -> tuple[_Event, Board, bool]:
    """Perform one check's findings as one event. Returns the event, the new board and
    whether anything changed."""
    board = snap.board
    ev = _Event()
    ev.notes.extend(f for f in findings if f.note)
    acts = [f for f in findings if not f.note]

    # Players: every reason to lose is gathered first (704.7: one replacement for all).
    by_player: dict[str, list[Finding]] = {}
    by_team: dict[str, list[Finding]] = {}
    by_object: dict[str, list[Finding]] = {}
    two_hg = board.variant == "two-headed-giant"
    for f in acts:
        if f.kind == "lose_game":
            if f.subject_kind == "team":
                by_team.setdefault(f.subject, []).append(f)
            elif two_hg and f.subject in snap.team_of:
                by_team.setdefault(snap.team_of[f.subject].name, []).append(f)
            else:
                by_player.setdefault(f.subject, []).append(f)
        else:
            by_object.setdefault(f.subject, []).append(f)
    for team in board.teams:
        if team.name in by_team:
            members = [snap.players[m] for m in team.members]
            _lose(snap, ev, team.name, "team", members, by_team[team.name], ruleset)
    for player in board.players:
        if player.name in by_player:
            _lose(snap, ev, player.name, "player", [player], by_player[player.name], ruleset)

    # Objects, in id order.
    for oid in sorted(by_object):
        fs = by_object[oid]
        perm = snap.permanents.get(oid)
        destroys = [f for f in fs if f.kind == "destroy"]
        if destroys and perm is not None:
            merged = _merge(destroys, "destroy")
            if perm.is_indestructible:
                ev.notes.append(
                    replace(
                        merged,
                        kind="prevented",
                        note=True,
                        why=f"{merged.why} ; indestructible : la destruction n'a pas lieu",
                    )
                )
            elif perm.regeneration_shields > 0:
                ev.actions.append(
                    replace(
                        merged,
                        kind="regenerate",
                        why=f"{merged.why} ; un bouclier de régénération remplace la destruction "
                        f"(la créature est engagée, ses blessures retirées, elle est retirée du "
                        f"combat)",
                    )
                )
                ev.notes.append(
                    replace(
                        merged,
                        kind="replaced",
                        note=True,
                        why=f"{merged.why} ; destruction remplacée par la régénération",
                    )
                )
                ev.regenerate.add(oid)
            else:
                ev.actions.append(merged)
                ev.leaving[oid] = "graveyard"
        unattach = [f for f in fs if f.kind == "unattach"]
        if unattach:
            ev.actions.append(_merge(unattach, "unattach"))
            ev.unattach.add(oid)
        for f in fs:
            if f.kind in ("destroy", "unattach"):
                continue
            ev.actions.append(f)
            if f.kind in LEAVING_KINDS:
                ev.leaving[oid] = "graveyard"
            elif f.kind in ("cease_to_exist", "remove_from_game"):
                ev.gone.add(oid)
            elif f.kind == "move_to_command_zone":
                ev.to_command.add(oid)
            elif f.kind == "remove_counters" and f.counters:
                # 704.5q and 704.5r together: the larger removal, then the cap of 704.5r
                # ("until only N remain") -- the same as removing 704.5q's, then capping.
                acc = ev.remove.setdefault(oid, {})
                for k, n in f.counters.items():
                    acc[k] = max(acc.get(k, 0), n)
            elif f.kind == "choose_protector" and f.value is not None:
                ev.protector[oid] = f.value
            elif f.kind == "choose_sector" and f.value is not None:
                ev.sector[oid] = f.value

    new_board, changed = _next_board(snap, ev, ruleset)
    ev.actions.sort(key=_finding_order)
    ev.notes.sort(key=_finding_order)
    return ev, new_board, changed


_rule_order = lru_cache(maxsize=None)(sort_key)


def _finding_order(f: Finding) -> tuple[tuple[int, int, int, int], str, str]:
    return (_rule_order(f.rule), f.subject, f.kind)


T = TypeVar("T")


def _evolve(obj: T, changes: Mapping[str, object]) -> T:
    """`dataclasses.replace` without re-running `__init__` over every field (the board's
    slotted dataclasses are frozen and have no `__post_init__`)."""
    cls = type(obj)
    new = object.__new__(cls)
    for name in cls.__slots__:  # type: ignore[attr-defined]
        object.__setattr__(new, name, changes[name] if name in changes else getattr(obj, name))
    return new


def _remove_counters(p: Permanent, remove: Mapping[str, int]) -> dict[str, object]:
    counters = dict(p.counters)
    for kind, n in remove.items():
        counters[kind] = max(0, counters.get(kind, 0) - n)
    for kind, most in p.max_counters.items():  # 704.5r: "until only N remain"
        if counters.get(kind, 0) > most:
            counters[kind] = most
    power, toughness = p.power, p.toughness
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


def _dies_triggers(p: Permanent, ev: _Event, ruleset: Ruleset) -> None:
    """Persist / undying, decided from last known information (704.8): `p` is the permanent
    as it last existed on the battlefield, before this event."""
    if "creature" not in p.types:
        return
    rule = LKI_RULE[ruleset]
    for keyword, (french, blocker) in DIES_KEYWORDS.items():
        if keyword not in p.keywords:
            continue
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
                )
            )
        else:
            counted = plural(n, f"marqueur {blocker}", f"marqueurs {blocker}")
            ev.notes.append(
                Finding(
                    rule,
                    "not_triggered",
                    p.id,
                    why=f"{french} ({keyword}) ne se déclenche pas : {counted} sur la créature "
                    f"d'après les dernières informations connues",
                    note=True,
                )
            )


def _next_board(snap: Snapshot, ev: _Event, ruleset: Ruleset) -> tuple[Board, bool]:
    board = snap.board
    changed = False
    leaving = ev.leaving
    touched = ev.regenerate | ev.unattach | ev.remove.keys() | ev.protector.keys()
    touched |= ev.sector.keys()
    touched.update(p.id for p in snap.damaged if p.deathtouch_damage)
    if leaving:
        touched.update(
            p.id for p in snap.attached if p.attached_to is not None and p.attached_to in leaving
        )
    permanents: list[Permanent] = []
    arrived: list[OtherObject] = []
    if not leaving and not touched:
        permanents = list(board.permanents)
    for p in board.permanents if (leaving or touched) else ():
        pid = p.id
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
            if zone == "graveyard":
                _dies_triggers(p, ev, ruleset)
            changed = True
            continue
        if pid not in touched:
            permanents.append(p)
            continue
        changes: dict[str, object] = {"deathtouch_damage": 0}
        if pid in ev.regenerate:
            changes.update(
                regeneration_shields=p.regeneration_shields - 1,
                tapped=True,
                damage=0,
                attacking=None,
                blocking=False,
            )
        if pid in ev.unattach or (p.attached_to is not None and p.attached_to in leaving):
            changes["attached_to"] = None
        if pid in ev.remove:
            changes.update(_remove_counters(p, ev.remove[pid]))
        if pid in ev.protector:
            changes["protector"] = ev.protector[pid]
        if pid in ev.sector:
            changes["sector"] = ev.sector[pid]
        new = _evolve(p, changes)
        changed = changed or new != p
        permanents.append(new)

    others: list[OtherObject] = []
    for o in board.other_zones:
        if o.id in ev.gone:
            changed = True
            continue
        if o.id in ev.to_command:
            others.append(_evolve(o, {"zone": "command", "moved_since_last_check": False}))
            changed = True
        elif o.moved_since_last_check:
            others.append(_evolve(o, {"moved_since_last_check": False}))
            changed = True
        else:
            others.append(o)
    arrived.sort(key=lambda o: o.id)
    others.extend(arrived)

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
        if pchanges:
            changed = True
            players.append(_evolve(pl, pchanges))
        else:
            players.append(pl)
    new_board = replace(
        board, players=tuple(players), permanents=tuple(permanents), other_zones=tuple(others)
    )
    return new_board, changed


def _apnap(board: Board) -> dict[str, int]:
    names = [p.name for p in board.players]
    start = names.index(board.active_player) if board.active_player in names else 0
    order = names[start:] + names[:start]
    return {n: i for i, n in enumerate(order)}


def _put_on_stack(board: Board, waiting: list[Trigger], after: int) -> tuple[Board, list[Trigger]]:
    rank = _apnap(board)
    ordered = sorted(waiting, key=lambda t: (rank.get(t.controller, 99), t.source, t.ability))
    placed = [replace(t, after_pass=after) for t in ordered]
    items = tuple(StackItem(t.source, t.ability, t.controller) for t in placed)
    return replace(board, stack=board.stack + items), placed


def _warnings(board: Board, ruleset: Ruleset) -> list[str]:
    out: list[str] = []
    if ruleset == "fr-pre2009" and board.variant != "normal":
        out.append(
            f"variante « {board.variant} » : le texte de 420.5 n'a pas d'effets basés sur un état "
            f"propres aux variantes ; seules les règles 420.5a–k sont appliquées"
        )
    return out


def _choice_never_applies(
    choice: Mapping[str, object], board: Board, snap: Snapshot, legends: Mapping[object, int]
) -> str | None:
    """Why a stated choice can never be used on this board (fr-2024), or None if it may.
    `legends` counts the named legendary permanents by (controller, name)."""
    rule = str(choice["rule"])
    subject = str(choice[CHOICE_FIELDS[rule][0]])
    perm = snap.permanents.get(subject)
    label = snap.label(subject)
    if rule == "704.6d":
        if board.variant != "commander":
            return f"la partie n'est pas une partie Commander (variante « {board.variant} »)"
        other = snap.others.get(subject)
        if not (perm.commander if perm is not None else other is not None and other.commander):
            return f"« {label} » n'est pas un commandant"
        return None
    if perm is None:
        return None  # the loader already refuses an id that is not a permanent
    if rule == "704.5j":
        if not perm.is_legendary:
            return f"« {label} » n'est pas légendaire"
        if perm.face_down:
            return f"« {label} » est face cachée : il n'a pas de nom"
        if legends.get((perm.controller, perm.name), 0) < 2:
            return (
                f"aucun autre permanent légendaire nommé « {perm.name} » n'est contrôlé par "
                f"{perm.controller}"
            )
    elif rule == "704.5u":
        if not perm.is_creature:
            return f"« {label} » n'est pas une créature"
        if perm.sector is not None:
            return f"« {label} » a déjà un secteur ({perm.sector})"
        if not snap.space_sculptors:
            return "aucun permanent avec sculpteur spatial sur le champ de bataille"
    elif "battle" not in perm.types:
        return f"« {label} » n'est pas une bataille"
    elif rule == "704.5x" and "Siege" not in perm.subtypes:
        return f"« {label} » n'est pas un Siège"
    return None


def _choice_warnings(snap: Snapshot, ruleset: Ruleset, used: set[str], complete: bool) -> list[str]:
    """Stated choices of `snap`'s board that match nothing: those that can never apply, and,
    once the resolution is complete, those that no check used."""
    board = snap.board
    if not board.choices.raw:
        return []
    legends: dict[object, int] = {}
    for p in snap.legendary:
        if not p.face_down:
            key = (p.controller, p.name)
            legends[key] = legends.get(key, 0) + 1
    out: list[str] = []
    for i, choice in enumerate(board.choices.raw):
        rule = str(choice["rule"])
        subject = str(choice[CHOICE_FIELDS[rule][0]])
        if ruleset == "fr-pre2009":
            why: str | None = "les anciennes règles (420.5) ne demandent aucun choix"
        else:
            why = _choice_never_applies(choice, board, snap, legends)
        if why is None and complete and choice_key(rule, subject) not in used:
            why = f"la règle {rule} ne s'est pas appliquée à « {subject} » pendant la résolution"
        if why is not None:
            out.append(f"choices[{i}] ({rule}, « {subject} ») : {why} ; choix ignoré")
    return out


def resolve(
    board: Board, ruleset: Ruleset | None = None, *, max_passes: int = DEFAULT_MAX_PASSES
) -> Resolution:
    """Perform the state-based actions on `board` until none applies and no triggered ability
    waits, or until a choice the board does not state is needed."""
    with cyclic_gc_paused():
        return _resolve(board, ruleset, max_passes)


def _resolve(board: Board, ruleset: Ruleset | None, max_passes: int) -> Resolution:
    rs: Ruleset = ruleset or board.ruleset
    initial = board if board.ruleset == rs else replace(board, ruleset=rs)
    board = initial
    checks = (*checks_for(rs, board), *NOTE_CHECKS[rs])
    names: dict[str, str] = {p.id: p.name for p in board.permanents}
    names.update((o.id, o.name) for o in board.other_zones)
    passes: list[Pass] = []
    triggers: list[Trigger] = []
    waiting: list[Trigger] = []
    losers: list[str] = []
    seen_notes: set[tuple[str, str, str]] = set()
    used_choices: set[str] = set()
    choices: tuple[ChoiceNeeded, ...] = ()
    pending: tuple[Finding, ...] = ()
    stopped: StopReason | None = None

    def fresh(notes: Iterable[Finding]) -> tuple[Finding, ...]:
        out = []
        for n in notes:
            key = (n.rule, n.kind, n.subject)
            if key not in seen_notes:
                seen_notes.add(key)
                out.append(n)
        return tuple(out)

    # The first pass and the choice warnings both look at the initial board: one snapshot.
    initial_snap = Snapshot(initial)
    for _ in range(max_passes):
        snap = initial_snap if board is initial else Snapshot(board)
        outcomes = _run_checks(snap, checks)
        findings = [o for o in outcomes if isinstance(o, Finding)]
        used_choices.update(f.choice for f in findings if f.choice is not None)
        leaving = {f.subject for f in findings if not f.note and f.kind in LEAVING_KINDS}
        needed = [
            o
            for o in outcomes
            if isinstance(o, ChoiceNeeded) and (o.subject is None or o.subject not in leaving)
        ]
        if needed:
            needed.sort(key=lambda c: (c.order, c.rule, c.player, c.subject or ""))
            choices = tuple(needed)
            # What the event will really do once the choices are made: replacements (a loss
            # replaced, a destruction regenerated) and prevention applied, as in a pass.
            pending = tuple(perform(snap, findings, rs)[0].actions)
            stopped = "choice"
            break
        ev, new_board, changed = perform(snap, findings, rs)
        notes = fresh(ev.notes)
        if ev.actions:
            passes.append(Pass(len(passes) + 1, tuple(ev.actions), notes))
            losers.extend(ev.losers)
            waiting.extend(ev.triggers)
            board = new_board
            if not changed:
                stopped = "loop"
                break
            continue
        # Nothing performed (nothing applied, or all of it was prevented).
        if notes:
            passes.append(Pass(len(passes) + 1, (), notes))
        board = new_board
        if waiting:
            board, placed = _put_on_stack(board, waiting, len(passes))
            triggers.extend(placed)
            waiting = []
            continue
        break
    else:
        stopped = "limit"
    return Resolution(
        ruleset=rs,
        initial=initial,
        final=board,
        passes=tuple(passes),
        triggers=tuple(triggers),
        losers=tuple(losers),
        choices_needed=choices,
        pending=pending,
        stopped=stopped,
        warnings=(
            *_warnings(initial, rs),
            *_choice_warnings(initial_snap, rs, used_choices, complete=stopped is None),
        ),
        names=names,
    )

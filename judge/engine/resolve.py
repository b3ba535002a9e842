"""The loop of 704.3 / 420.3: check every state-based action against the same state,
perform all that apply at once as one event, repeat; when a check performs nothing, put
the waiting triggered abilities on the stack and check again.

Three steps, three places: the checks (current.py, pre2009.py) return findings; `perform`
(perform.py) turns one check's findings into one event and the next board; this module
loops, and reports the warnings about the board's stated choices."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from judge.engine.final import final_board
from judge.engine.perform import Event, Trigger, evolve_trigger, perform
from judge.engine.rulesets import Ruleset, find_ruleset
from judge.engine.state import (
    Board,
    Check,
    ChoiceNeeded,
    Finding,
    Snapshot,
    StackItem,
    cyclic_gc_paused,
)
from judge.engine.vocabulary import CHOICE_FIELDS, RulesetName, choice_key
from judge.fr import RULESET_WITHOUT_CHOICES, RULESET_WITHOUT_VARIANT_ACTIONS, UNMODELLED_RULES

StopReason: TypeAlias = Literal["choice", "loop", "limit"]

DEFAULT_MAX_PASSES = 1000


@dataclass(frozen=True)
class Pass:
    number: int
    actions: tuple[Finding, ...]
    not_applied: tuple[Finding, ...]


@dataclass(frozen=True)
class Resolution:
    ruleset: RulesetName
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
    edition: str = ""  # the edition of the rule index the ruleset follows and quotes
    ruleset_label: str = ""  # French

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


def ruleset_of(board: Board, ruleset: str | Ruleset | None = None) -> Ruleset:
    """The ruleset asked for (by name or as is), or else the board's."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    return find_ruleset(ruleset or board.ruleset)


def check_state(board: Board, ruleset: str | Ruleset | None = None) -> list[Finding | ChoiceNeeded]:
    """Every state-based action (and note) that applies to this board, in registry order,
    each check's results sorted by subject (so the file's order does not matter)."""
    rs = ruleset_of(board, ruleset)
    snap = Snapshot(board)
    return _run_checks(snap, (*rs.checks_for(board.variant), *rs.notes))


def _run_checks(snap: Snapshot, checks: Iterable[Check]) -> list[Finding | ChoiceNeeded]:
    out: list[Finding | ChoiceNeeded] = []
    for check in checks:
        found = list(check.func(snap))
        found.sort(key=_outcome_key)
        out.extend(found)
    return out


def next_event(
    board: Board, ruleset: str | Ruleset | None = None
) -> tuple[list[Finding], list[ChoiceNeeded]]:
    """What the next check would perform (prevented actions left out) and the choices it
    would wait for. After a complete resolution both are empty."""
    rs = ruleset_of(board, ruleset)
    snap = Snapshot(board)
    outcomes = _run_checks(snap, rs.checks_for(board.variant))
    ev, _, _ = perform(snap, [o for o in outcomes if isinstance(o, Finding)], rs)
    choices = [o for o in outcomes if isinstance(o, ChoiceNeeded)] + ev.choices
    return ev.actions, choices


def _outcome_key(o: Finding | ChoiceNeeded) -> tuple[str, ...]:
    if isinstance(o, Finding):
        return (o.subject, o.kind, o.rule)
    return (o.subject or "", str(o.order), o.player, o.rule)


# --- triggers and warnings -----------------------------------------------------------


def _apnap(board: Board) -> dict[str, int]:
    names = [p.name for p in board.players]
    start = names.index(board.active_player) if board.active_player in names else 0
    order = names[start:] + names[:start]
    return {n: i for i, n in enumerate(order)}


def _put_on_stack(board: Board, waiting: list[Trigger], after: int) -> tuple[Board, list[Trigger]]:
    rank = _apnap(board)
    # 603.3b: APNAP; a player's own order changes no state-based action: not asked.
    ordered = sorted(
        waiting, key=lambda t: (rank.get(t.controller, 99), t.source, t.ability, t.object or "")
    )
    placed = [evolve_trigger(t, {"after_pass": after}) for t in ordered]
    items = tuple(StackItem(t.source, t.ability, t.controller) for t in placed)
    return replace(board, stack=board.stack + items), placed


def _warnings(board: Board, ruleset: Ruleset) -> list[str]:
    out: list[str] = []
    if not ruleset.variant_actions and board.variant != "normal":
        why = RULESET_WITHOUT_VARIANT_ACTIONS.get(ruleset.name, ruleset.name)
        out.append(f"variante « {board.variant} » : {why}")
    if ruleset.unmodelled:
        out.append(
            UNMODELLED_RULES.format(edition=ruleset.edition, rules=", ".join(ruleset.unmodelled))
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
    elif rule == "616.1":
        return _replacement_never_applies(str(choice["apply"]), subject, snap)
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


def _replacement_never_applies(apply: str, subject: str, snap: Snapshot) -> str | None:
    """A 616.1 choice applies regeneration or an Aura with umbra armor attached to the
    permanent (702.89a); whether it applies then depends on the passes."""
    if apply == "regeneration":
        return None
    aura = snap.permanents.get(apply)
    label = snap.label(apply)
    if aura is None or "umbra armor" not in aura.keywords:
        return (
            f"« {label} » n'a pas l'armure d'ombre (umbra armor, 702.89a) : ce n'est pas un "
            f"effet de remplacement de sa destruction"
        )
    if aura.attached_to != subject:
        return f"« {label} » n'est pas attachée à « {snap.label(subject)} »"
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
        if not ruleset.asks_choices:
            why: str | None = RULESET_WITHOUT_CHOICES.get(ruleset.name, ruleset.name)
        else:
            why = _choice_never_applies(choice, board, snap, legends)
        if why is None and complete and choice_key(rule, subject) not in used:
            why = f"la règle {rule} ne s'est pas appliquée à « {subject} » pendant la résolution"
        if why is not None:
            out.append(f"choices[{i}] ({rule}, « {subject} ») : {why} ; choix ignoré")
    return out


# --- the loop --------------------------------------------------------------------------


def resolve(
    board: Board,
    ruleset: str | Ruleset | None = None,
    *,
    max_passes: int = DEFAULT_MAX_PASSES,
) -> Resolution:
    """Perform the state-based actions on `board` until none applies and no triggered ability
    waits, or until a choice the board does not state is needed."""
    rs = ruleset_of(board, ruleset)
    with cyclic_gc_paused():
        run = _Run(board, rs)
        res = run.resolution(run.loop(max_passes))
        # Freed while the collector still sleeps: the passes' snapshots never get scanned.
        del run
    return res


_Step: TypeAlias = Literal["next", "loop", "done"]


class _Run:
    """One resolution under way: the passes so far and what waits."""

    def __init__(self, board: Board, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        # The board names the ruleset it ran under: the final board, read back, runs the same.
        self.initial = (
            board if board.ruleset == ruleset.name else replace(board, ruleset=ruleset.name)
        )
        self.board = self.initial
        # The first pass and the choice warnings both look at the initial board: one snapshot.
        self.initial_snap = Snapshot(self.initial)
        self.checks = (*ruleset.checks_for(self.initial.variant), *ruleset.notes)
        self.names: dict[str, str] = {p.id: p.name for p in board.permanents}
        self.names.update((o.id, o.name) for o in board.other_zones)
        self.passes: list[Pass] = []
        self.triggers: list[Trigger] = []
        self.waiting: list[Trigger] = []
        self.losers: list[str] = []
        self.seen_notes: set[tuple[str, str, str]] = set()
        self.used_choices: set[str] = set()
        self.choices: tuple[ChoiceNeeded, ...] = ()
        self.pending: tuple[Finding, ...] = ()

    def loop(self, max_passes: int) -> StopReason | None:
        """704.3: check, perform, repeat, at most `max_passes` times."""
        snap = self.initial_snap
        for _ in range(max_passes):
            snap = (
                self.initial_snap
                if self.board is self.initial
                else Snapshot(self.board, previous=snap)
            )
            outcomes = _run_checks(snap, self.checks)
            findings = [o for o in outcomes if isinstance(o, Finding)]
            # What the event will really do besides the choices: replacements (a loss
            # replaced, a destruction regenerated) and prevention applied, as in a pass.
            ev, new_board, changed = perform(snap, findings, self.ruleset)
            needed = _choices_needed([*outcomes, *ev.choices], ev.leaving)
            if needed:
                self.choices = tuple(needed)
                self.pending = tuple(ev.actions)
                return "choice"
            # A choice is spent only by a pass performed: one that waits for another choice
            # keeps them all for the board it hands back.
            self.used_choices.update(f.choice for f in findings if f.choice is not None)
            self.used_choices.update(ev.used_choices)
            step = self._step(ev, new_board, changed)
            if step == "loop":
                return "loop"
            if step == "done":
                return None
        return "limit"

    def _step(self, ev: Event, new_board: Board, changed: bool) -> _Step:
        """One pass: what the event performed becomes the board; when nothing is performed,
        put the waiting triggers on the stack (and go on) or stop."""
        notes = self._fresh(ev.notes)
        self.board = new_board
        if ev.actions:
            self.passes.append(Pass(len(self.passes) + 1, tuple(ev.actions), notes))
            self.losers.extend(ev.losers)
            self.waiting.extend(ev.triggers)
            return "next" if changed else "loop"
        # Nothing performed (nothing applied, or all of it was prevented).
        if notes:
            self.passes.append(Pass(len(self.passes) + 1, (), notes))
        if self.waiting:
            self.board, placed = _put_on_stack(self.board, self.waiting, len(self.passes))
            self.triggers.extend(placed)
            self.waiting = []
            return "next"
        return "done"

    def _fresh(self, notes: Iterable[Finding]) -> tuple[Finding, ...]:
        """The notes not reported by an earlier pass."""
        out = []
        for n in notes:
            key = (n.rule, n.kind, n.subject)
            if key not in self.seen_notes:
                self.seen_notes.add(key)
                out.append(n)
        return tuple(out)

    def resolution(self, stopped: StopReason | None) -> Resolution:
        initial, rs = self.initial, self.ruleset
        return Resolution(
            ruleset=rs.name,
            initial=initial,
            final=final_board(self.board, self.used_choices),
            passes=tuple(self.passes),
            triggers=tuple(self.triggers),
            losers=tuple(self.losers),
            choices_needed=self.choices,
            pending=self.pending,
            stopped=stopped,
            warnings=(
                *_warnings(initial, rs),
                *_choice_warnings(
                    self.initial_snap, rs, self.used_choices, complete=stopped is None
                ),
            ),
            names=self.names,
            edition=rs.edition,
            ruleset_label=rs.label,
        )


def _choices_needed(
    outcomes: Sequence[Finding | ChoiceNeeded], leaving: Mapping[str, str]
) -> list[ChoiceNeeded]:
    """The choices a pass waits for, in the order they are made (704.5u: players without a
    space sculptor first). Only those whose outcome depends on them: none about an object
    that leaves the battlefield in this event anyway, none between objects that all leave
    (two legends that both have lethal damage)."""
    needed = []
    for o in outcomes:
        if not isinstance(o, ChoiceNeeded):
            continue
        if o.subject is not None and o.subject in leaving:
            continue
        if o.subject is None and o.options and all(opt in leaving for opt in o.options):
            continue
        needed.append(o)
    needed.sort(key=lambda c: (c.order, c.rule, c.player, c.subject or ""))
    return needed

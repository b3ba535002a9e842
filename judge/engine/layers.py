"""Continuous effects applied in layer order (613) at every check: the characteristics the
checks see are the printed ones (or the stated ones), then layer 2 (control), 6 (abilities),
7a (characteristic-defining abilities), 7b (set), 7c (modify, counters) and 7d (switch).

Within a layer, effects apply in timestamp order (613.7) unless one depends on another
(613.8): a layer-6 effect that removes every ability of another effect's source applies
first, and the other no longer exists; in layer 2, a change of control that would change
what a "you" or "opponents" effect applies to applies before it. A dependent effect waits
for what it depends on and applies right after; a loop keeps timestamp order (613.8b).

A static effect applies only while its source is on the battlefield (611.3a): when its
source leaves, the effect ends, and the explanation says so.

Nothing here changes the board: `apply_layers` returns the permanents as the checks see them
and, for the explanations, where each toughness comes from (`Origin`). Between two passes
most permanents are the same objects under the same effects: the next application starts
from the previous one and works out again only the permanents that changed (`Layered`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from judge.engine.state import Board, ContinuousEffect, Permanent, TriggeredAbility, evolve
from judge.engine.vocabulary import ALL_ABILITIES, LAYERS, pt_counter
from judge.engine.wording import de, plural

LAYER_RULE = "613"
DEPENDENCY_RULE = "613.8"


@dataclass(frozen=True)
class Origin:
    """Where a permanent's toughness comes from (French parts, in layer order), and the
    effects that no longer apply to it, with why."""

    parts: tuple[str, ...]
    ended: tuple[str, ...] = ()

    def explain(self) -> str:
        """`2 de base, -1 (1 marqueur -1/-1) ; le bonus … a pris fin …`."""
        text = ", ".join(self.parts)
        if self.ended:
            text += " ; " + " ; ".join(self.ended)
        return text


@dataclass(slots=True)
class _Work:
    """One permanent's characteristics while the layers apply."""

    perm: Permanent
    controller: str
    types: frozenset[str]
    subtypes: tuple[str, ...]
    colors: frozenset[str]
    keywords: frozenset[str]
    triggered: tuple[TriggeredAbility, ...]
    power: int | None
    toughness: int | None
    counters_in_base: bool  # the stated power and toughness already count the counters
    lost_all: bool = False
    base_shown: bool = True  # the explanation starts from the printed or stated value
    parts: list[str] = field(default_factory=list)
    ended: list[str] = field(default_factory=list)
    touched: bool = False


def needs_layers(board: Board) -> bool:
    """Whether any continuous effect or printed characteristic is stated (else the stated
    values are the current ones, as before continuous effects were modelled)."""
    return bool(board.continuous_effects) or any(p.printed is not None for p in board.permanents)


def _start(p: Permanent) -> _Work:
    """The characteristics before any effect: the printed ones where stated, else the stated
    current ones."""
    pr = p.printed
    if pr is None:
        return _Work(
            p,
            p.controller,
            p.types,
            p.subtypes,
            p.colors,
            p.keywords,
            p.triggered_abilities,
            p.power,
            p.toughness,
            True,
        )
    keys = pr.keys
    w = _Work(
        p,
        p.controller,
        pr.types if "types" in keys else p.types,
        pr.subtypes if "subtypes" in keys else p.subtypes,
        pr.colors if "colors" in keys else p.colors,
        pr.keywords if "keywords" in keys else p.keywords,
        pr.triggered_abilities if "triggered_abilities" in keys else p.triggered_abilities,
        (pr.power if pr.power is not None else 0) if "power" in keys else p.power,
        p.toughness,
        True,
    )
    if "toughness" in keys:
        w.toughness = 0 if pr.toughness is None else pr.toughness
        w.counters_in_base = False
        w.touched = True
    return w


def _base_part(p: Permanent) -> str | None:
    """Where the explanation of a toughness starts (made only for the permanents shown)."""
    pr = p.printed
    if pr is not None and "toughness" in pr.keys:
        return (
            "* (0 sans capacité qui la définit)"
            if pr.toughness is None
            else f"{pr.toughness} de base"
        )
    return None if p.toughness is None else f"{p.toughness} indiquée par le plateau"


def _origin(w: _Work) -> Origin:
    base = _base_part(w.perm) if w.base_shown else None
    parts = tuple(w.parts) if base is None else (base, *w.parts)
    return Origin(parts, tuple(dict.fromkeys(w.ended)))


class _Origins(Mapping[str, Origin]):
    """Where each touched permanent's toughness comes from, made when first asked for (the
    checks explain only the few permanents they report)."""

    def __init__(self, works: Mapping[str, _Work]) -> None:
        self._works = works
        self._made: dict[str, Origin] = {}

    def __getitem__(self, pid: str) -> Origin:
        made = self._made.get(pid)
        if made is None:
            made = self._made[pid] = _origin(self._works[pid])
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(self._works)

    def __len__(self) -> int:
        return len(self._works)


# What an application's result depends on besides each permanent itself: the effects, and
# each source as it was given (a permanent, or the name and owner of an object elsewhere).
_Context = tuple[tuple[ContinuousEffect, ...], tuple[object, ...]]


@dataclass(frozen=True)
class Layered:
    """One application of the continuous effects: the permanents as the checks see them (by
    id, in the board's order), where their toughness comes from, and what the next pass needs
    to reuse it (the permanents it started from and the context; None: not reusable)."""

    permanents: Mapping[str, Permanent]
    origins: Mapping[str, Origin]
    inputs: Mapping[str, Permanent]
    works: Mapping[str, _Work]  # the touched permanents' work, for their origins
    context: _Context | None


class _Layers:
    """One application of every continuous effect of a board, to all its permanents or to
    some of them (`only`: those that changed, with every effect's source)."""

    def __init__(self, board: Board, only: Sequence[Permanent] | None = None) -> None:
        self.board = board
        perms = board.permanents if only is None else only
        self.work = {p.id: _start(p) for p in perms}
        self.order = {e.id: i for i, e in enumerate(board.continuous_effects)}
        self.labels: dict[str, str] = {}  # effect id -> French label, made once
        self._others: dict[str, tuple[str, str]] | None = None

    def other(self, oid: str) -> tuple[str, str] | None:
        """(name, owner) of an object outside the battlefield."""
        if self._others is None:
            self._others = {o.id: (o.name, o.owner) for o in self.board.other_zones}
        return self._others.get(oid)

    def source_label(self, e: ContinuousEffect) -> str:
        src = self.work.get(e.source)
        if src is not None:
            name = src.perm.name
        else:
            elsewhere = self.other(e.source)
            name = elsewhere[0] if elsewhere is not None else e.source
        return name if name == e.source else f"{name} ({e.source})"

    def effect_label(self, e: ContinuousEffect) -> str:
        label = self.labels.get(e.id)
        if label is None:
            what = f"« {e.text} »" if e.text else e.id
            source = de(self.source_label(e)) if e.source else "(sa source a quitté la partie)"
            label = self.labels[e.id] = f"l'effet {what} {source}"
        return label

    def timestamp(self, e: ContinuousEffect) -> tuple[int, int]:
        if e.timestamp is not None:
            return (e.timestamp, self.order[e.id])
        src = self.work.get(e.source)
        ts = src.perm.timestamp if src is not None and src.perm.timestamp is not None else 0
        return (ts, self.order[e.id])

    def controller_of(self, e: ContinuousEffect) -> str:
        if e.controller is not None:
            return e.controller
        src = self.work.get(e.source)
        if src is not None:
            return src.controller
        elsewhere = self.other(e.source)
        return elsewhere[1] if elsewhere is not None else ""

    def matches(self, e: ContinuousEffect, w: _Work) -> bool:
        a = e.affects
        pid = w.perm.id
        if e.kind == "cda":
            return pid == e.source
        if a.ids is not None and pid not in a.ids:
            return False
        if e.kind == "resolved":
            return True  # locked to its ids when it resolved (611.2c)
        if (a.self_ and pid != e.source) or (a.other and pid == e.source):
            return False
        if a.attached:
            src = self.work.get(e.source)
            if src is None or src.perm.attached_to != pid:
                return False
        if not a.types <= w.types or not a.colors <= w.colors:
            return False
        if a.controller == "you":
            return w.controller == self.controller_of(e)
        if a.controller == "opponents":
            return w.controller != self.controller_of(e)
        return True

    def targets(self, e: ContinuousEffect, *, other: bool | None = None) -> list[_Work]:
        """The permanents `e` applies to now (`other` overrides its `affects.other`): the
        few candidates an id, `self` or `attached` names, else every permanent through one
        comprehension (the common "creatures you control" filter, once per permanent)."""
        a = e.affects
        work = self.work
        if e.kind != "static" or a.self_ or a.ids is not None or a.attached:
            cands: Iterable[_Work]
            if a.ids is not None:
                cands = [work[i] for i in sorted(a.ids) if i in work]
            elif a.attached:
                src = work.get(e.source)
                at = src.perm.attached_to if src is not None else None
                cands = [work[at]] if at is not None and at in work else []
            elif a.self_ or e.kind == "cda":
                cands = [work[e.source]] if e.source in work else []
            else:
                cands = work.values()
            return [w for w in cands if self.matches(e, w)]
        types, colors, source = a.types, a.colors, e.source
        skip_source = a.other if other is None else other
        found = [
            w
            for w in work.values()
            if types <= w.types and colors <= w.colors and not (skip_source and w.perm.id == source)
        ]
        if a.controller == "any":
            return found
        mine = self.controller_of(e)
        if a.controller == "you":
            return [w for w in found if w.controller == mine]
        return [w for w in found if w.controller != mine]

    def exists(self, e: ContinuousEffect) -> bool:
        """A resolved effect lasts; a static one or a cda needs its source on the battlefield
        with its abilities."""
        if e.kind == "resolved":
            return True
        src = self.work.get(e.source)
        return src is not None and not src.lost_all

    def ended_because(self, e: ContinuousEffect) -> str | None:
        if e.kind == "resolved":
            return None
        src = self.work.get(e.source)
        if src is None:
            return (
                f"{self.effect_label(e)} a pris fin quand sa source a quitté le champ de "
                f"bataille ({LAYER_RULE})"
            )
        if src.lost_all:
            return (
                f"{self.effect_label(e)} ne s'applique pas : sa source a perdu ses capacités "
                f"({DEPENDENCY_RULE})"
            )
        return None

    def run(self) -> None:
        by_layer: dict[str, list[ContinuousEffect]] = {layer: [] for layer in LAYERS}
        for e in self.board.continuous_effects:
            by_layer[e.layer].append(e)
        for layer in LAYERS:
            effects = sorted(by_layer[layer], key=self.timestamp)
            if layer == "7c":
                self.modify_all(effects)
            elif layer in ("2", "6") and any(self.may_depend(layer, e) for e in effects):
                self.apply_with_dependencies(layer, effects)
            else:
                for e in effects:
                    self.apply(layer, e)
            if layer == "7b":
                self.counters()

    # --- 613.8: dependency -------------------------------------------------------------

    @staticmethod
    def may_depend(layer: str, e: ContinuousEffect) -> bool:
        """Whether another effect of `layer` can be one that `e` depends on (layer 6: a
        removal of every ability can end it) or that depends on `e` (layer 2: a change of
        control can change what a "you" or "opponents" effect applies to)."""
        if layer == "6":
            return ALL_ABILITIES in e.remove_abilities
        return e.kind == "static" and e.affects.controller != "any"

    def depends(self, layer: str, b: ContinuousEffect, a: ContinuousEffect) -> bool:
        """613.8a: whether `b` depends on `a`, both in `layer` and not applied yet: applying
        `a` would change whether `b` exists (6: `a` removes every ability of `b`'s source)
        or what `b` applies to (2: `a` changes the controller of a permanent `b` looks at,
        or of `b`'s source). A resolved effect is locked to its objects: it depends on
        nothing; a characteristic-defining ability is not in these layers."""
        if b.kind == "resolved" or not self.exists(a) or not self.exists(b):
            return False
        if layer == "6":
            src = self.work.get(b.source)
            return ALL_ABILITIES in a.remove_abilities and src is not None and self.matches(a, src)
        if b.affects.controller == "any" or a.control is None:
            return False
        moved = [w for w in self.targets(a) if w.controller != a.control]
        if not moved:
            return False
        before = [w.perm.id for w in self.targets(b)]
        saved = [w.controller for w in moved]
        for w in moved:
            w.controller = a.control
        after = [w.perm.id for w in self.targets(b)]
        for w, controller in zip(moved, saved, strict=True):
            w.controller = controller
        return before != after

    def apply_with_dependencies(self, layer: str, effects: Sequence[ContinuousEffect]) -> None:
        """613.8b–c: the effects in timestamp order, except that an effect waits until the
        effects it depends on have applied, and applies right after them; what depends on
        what is judged again after each application. In a dependency loop, the loop's
        effects apply in timestamp order."""
        remaining = list(effects)  # in timestamp order
        while remaining:
            waits = {
                b.id: [a for a in remaining if a is not b and self.depends(layer, b, a)]
                for b in remaining
            }
            free = [e for e in remaining if not waits[e.id]]
            chosen = free[0] if free else _first_in_loop(remaining, waits)
            remaining.remove(chosen)
            self.apply(layer, chosen)

    def apply(self, layer: str, e: ContinuousEffect) -> None:
        if not self.exists(e):
            why = self.ended_because(e)
            if why is not None and layer.startswith("7"):
                for w in self.targets(e):  # those it would apply to: the explanation names it
                    w.ended.append(why)
                    w.touched = True
            return
        step = _APPLY[layer]
        for w in self.targets(e):
            w.touched = True
            step(self, e, w)

    def modify_all(self, effects: Sequence[ContinuousEffect]) -> None:
        """Layer 7c: modifications add up whatever their order (613.4c), so identical static
        effects (same filter, controller and amounts: a hundred lords) are applied together,
        once per permanent — the cost grows with permanents × distinct effects."""
        groups: dict[tuple[object, ...], list[ContinuousEffect]] = {}
        for e in effects:
            a = e.affects
            if e.kind == "static" and not (a.self_ or a.attached or a.ids is not None):
                key: tuple[object, ...] = (
                    a,
                    self.controller_of(e),
                    e.power,
                    e.toughness,
                    self.exists(e),
                )
            else:
                key = (e.id,)
            groups.setdefault(key, []).append(e)
        for group in groups.values():
            if len(group) == 1:
                self.apply("7c", group[0])
            else:
                self.apply_group(group)

    def apply_group(self, group: Sequence[ContinuousEffect]) -> None:
        first = group[0]
        targets = self.targets(first, other=False)
        if not self.exists(first):
            why = self.ended_because(first)
            if why is not None:
                others = plural(len(group) - 1, "autre effet identique", "autres effets identiques")
                why += f" (et {others})"
                for w in targets:
                    w.ended.append(why)
                    w.touched = True
            return
        own: dict[str, int] = {}
        if first.affects.other:  # "other": not the effect's own source
            for e in group:
                own[e.source] = own.get(e.source, 0) + 1
        power, toughness = first.power, first.toughness
        parts: dict[int, str] = {}  # n -> the explanation part, made once per n
        for w in targets:
            n = len(group) - own.get(w.perm.id, 0)
            if not n:
                continue
            w.touched = True
            if w.power is not None:
                w.power += n * power
            if w.toughness is not None:
                w.toughness += n * toughness
                if toughness:
                    part = parts.get(n)
                    if part is None:
                        part = parts[n] = (
                            f"{n * toughness:+d} par {plural(n, 'effet')} comme "
                            f"{self.effect_label(first)}"
                        )
                    w.parts.append(part)

    def counters(self) -> None:
        """613.4c: +1/+1 and -1/-1 counters (and the like) apply in layer 7c, after the
        effects that set a value (7b) — only where the printed toughness is stated (the stated
        values already count them)."""
        for w in self.work.values():
            if w.counters_in_base or not w.perm.counters:
                continue
            for kind, n in sorted(w.perm.counters.items()):
                pt = pt_counter(kind)
                if pt is None or not n:
                    continue
                if w.power is not None:
                    w.power += pt[0] * n
                if w.toughness is not None:
                    w.toughness += pt[1] * n
                    w.parts.append(f"{pt[1] * n:+d} ({plural(n, f'marqueur {kind}')})")

    def result(self) -> tuple[dict[str, Permanent], dict[str, _Work]]:
        """The permanents after every layer (the same object where nothing changed) and the
        work of those a continuous effect touched (their origins)."""
        out: dict[str, Permanent] = {}
        works: dict[str, _Work] = {}
        for pid, w in self.work.items():
            p = w.perm
            if not w.touched and p.printed is None:
                out[pid] = p
                continue
            changes: dict[str, object] = {"power": w.power, "toughness": w.toughness}
            if w.controller is not p.controller:
                changes["controller"] = w.controller
            if w.types is not p.types:
                changes["types"] = w.types
            if w.subtypes is not p.subtypes:
                changes["subtypes"] = w.subtypes
            if w.colors is not p.colors:
                changes["colors"] = w.colors
            if w.keywords is not p.keywords:
                changes["keywords"] = w.keywords
            if w.triggered is not p.triggered_abilities:
                changes["triggered_abilities"] = w.triggered
            if w.lost_all and "Saga" in w.subtypes:
                changes["final_chapter"] = 0  # 714.2d: no chapter abilities
            out[pid] = evolve(p, changes)
            works[pid] = w
        return out, works

    def context(self) -> _Context | None:
        """What this application depends on besides each permanent (None, never reused, when
        a characteristic-defining ability counts other objects, or when a change of control
        may decide the order of layer 2 through any permanent: 613.8)."""
        effects = self.board.continuous_effects
        if any(e.layer == "7a" or (e.layer == "2" and self.may_depend("2", e)) for e in effects):
            return None
        sources: list[object] = []
        for e in effects:
            src = self.work.get(e.source)
            sources.append(src.perm if src is not None else self.other(e.source))
        return effects, tuple(sources)


def _first_in_loop(
    remaining: Sequence[ContinuousEffect], waits: Mapping[str, Sequence[ContinuousEffect]]
) -> ContinuousEffect:
    """The earliest effect that depends, through others, on itself (613.8b: the loop's
    effects apply in timestamp order). Every effect waits for another here, so one exists."""
    for e in remaining:
        seen: set[str] = set()
        todo = list(waits[e.id])
        while todo:
            a = todo.pop()
            if a.id == e.id:
                return e
            if a.id not in seen:
                seen.add(a.id)
                todo.extend(waits[a.id])
    return remaining[0]


def _control(self: _Layers, e: ContinuousEffect, w: _Work) -> None:
    """Layer 2: control-changing effects."""
    if e.control is not None:
        w.controller = e.control


def _abilities(self: _Layers, e: ContinuousEffect, w: _Work) -> None:
    """Layer 6: ability-adding and ability-removing effects."""
    if ALL_ABILITIES in e.remove_abilities:
        w.keywords = frozenset()
        w.triggered = ()
        w.lost_all = True
    elif e.remove_abilities:
        w.keywords = w.keywords - e.remove_abilities
        w.triggered = tuple(t for t in w.triggered if t.trigger not in e.remove_abilities)
    if e.add_abilities:
        w.keywords = w.keywords | e.add_abilities


def _cda(self: _Layers, e: ContinuousEffect, w: _Work) -> None:
    """Layer 7a: characteristic-defining abilities."""
    if e.cda == "creatures_you_control":
        n = sum(
            1 for o in self.work.values() if o.controller == w.controller and "creature" in o.types
        )
        what = f"{plural(n, 'créature')} que contrôle {w.controller}"
    else:
        n = sum(1 for o in self.board.other_zones if o.zone == "hand" and o.owner == w.controller)
        what = f"{plural(n, 'carte')} dans la main de {w.controller}"
    w.power = w.toughness = n
    w.base_shown = False
    w.parts = [f"{n} définie par sa capacité ({what})"]


def _set(self: _Layers, e: ContinuousEffect, w: _Work) -> None:
    """Layer 7b: effects that set power and/or toughness."""
    if e.set_power is not None:
        w.power = e.set_power
    if e.set_toughness is not None:
        w.toughness = e.set_toughness
        w.base_shown = False
        w.parts = [f"devient {e.set_toughness} par {self.effect_label(e)}"]


def _modify(self: _Layers, e: ContinuousEffect, w: _Work) -> None:
    """Layer 7c: effects that modify power and/or toughness."""
    if w.power is not None:
        w.power += e.power
    if w.toughness is not None:
        w.toughness += e.toughness
        if e.toughness:
            w.parts.append(f"{e.toughness:+d} par {self.effect_label(e)}")


def _switch(self: _Layers, e: ContinuousEffect, w: _Work) -> None:
    """Layer 7d: effects that switch power and toughness."""
    if e.switch and w.power is not None and w.toughness is not None:
        w.power, w.toughness = w.toughness, w.power
        w.parts.append(f"force et endurance échangées par {self.effect_label(e)}")


_APPLY = MappingProxyType(
    {"2": _control, "6": _abilities, "7a": _cda, "7b": _set, "7c": _modify, "7d": _switch}
)


def apply_layers(board: Board, previous: Layered | None = None) -> Layered:
    """The permanents as the checks see them (by id, in the board's order) and, for those a
    continuous effect touched, where their toughness comes from. With the previous pass's
    application, only the permanents that changed are worked out again when nothing else
    it depends on changed."""
    if previous is not None and previous.context is not None:
        reused = _reuse(board, previous)
        if reused is not None:
            return reused
    run = _Layers(board)
    run.run()
    out, works = run.result()
    inputs = {p.id: p for p in board.permanents}
    return Layered(out, _Origins(works), inputs, works, run.context())


def _reuse(board: Board, previous: Layered) -> Layered | None:
    """`previous` brought up to date for `board`, or None if its context changed: the
    effects and their sources are the same, so a permanent that is the same object gets the
    same characteristics (a characteristic-defining ability never gives a context)."""
    inputs = previous.inputs
    sources = {e.source for e in board.continuous_effects}
    # The changed permanents, with every source (the effects read their controller …).
    only = [p for p in board.permanents if p.id in sources or inputs.get(p.id) is not p]
    run = _Layers(board, only)
    if run.context() != previous.context:
        return None
    if len(board.permanents) == len(inputs) and all(inputs.get(p.id) is p for p in only):
        return previous  # the same permanents: the same application
    run.run()
    fresh, fresh_works = run.result()
    old, old_works = previous.permanents, previous.works
    out: dict[str, Permanent] = {}
    works: dict[str, _Work] = {}
    for p in board.permanents:
        pid = p.id
        if pid in fresh:
            out[pid] = fresh[pid]
            w = fresh_works.get(pid)
        else:
            out[pid] = old[pid]
            w = old_works.get(pid)
        if w is not None:
            works[pid] = w
    inputs = {p.id: p for p in board.permanents}
    return Layered(out, _Origins(works), inputs, works, previous.context)

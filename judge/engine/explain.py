"""French explanations: the words for each kind of action, the JSON form of a resolution
and its text form, quoting each rule's text from the rule index of the ruleset's edition.

The engine decides, this module quotes: `RuleText` is any `number -> text` lookup, so the
engine never depends on the index loader (`index_rule_text` builds one from a RuleIndex)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from judge.engine.loading import board_to_dict
from judge.engine.state import OtherObject, Snapshot
from judge.engine.wording import de, fr_list, plural
from judge.fr import (
    ABILITY_LABELS,
    ACTION_LABELS,
    ACTION_LABELS_FEMININE,
    COUNTER_LABELS,
    NOTE_LABELS,
    RULESET_LABELS,
    STOP_LABELS,
    VARIANT_LABELS,
    ZONE_LABELS,
)

if TYPE_CHECKING:
    from judge.engine.resolve import Resolution
    from judge.engine.state import Board, ChoiceNeeded, Finding, Permanent
    from judge.rules.index import RuleIndex

RuleText = Callable[[str], "str | None"]


def is_feminine(p: Permanent | OtherObject) -> bool:
    """Whether French calls the object "elle": as the board says (`feminine`, the gender of
    its name: « Générale de Chloé »), else an Aura, a Saga, a battle (not a Siege)."""
    if p.feminine is not None:
        return p.feminine
    if isinstance(p, OtherObject):
        return p.scheme  # une machination
    if "Aura" in p.subtypes or "Saga" in p.subtypes:
        return True
    return "battle" in p.types and "Siege" not in p.subtypes


def action_label(kind: str, feminine: bool = False) -> str:
    """The French words for an action kind, agreeing with the object."""
    if feminine and kind in ACTION_LABELS_FEMININE:
        return ACTION_LABELS_FEMININE[kind]
    return ACTION_LABELS.get(kind, kind)


def ability_label(ability: str) -> str:
    """A dies-trigger keyword (`persist`) in French, as board files spell it in English."""
    return ABILITY_LABELS.get(ability, ability)


def index_rule_text(index: RuleIndex, edition: str) -> RuleText:
    """A lookup quoting `edition` of the rule index (None for a number it does not have)."""

    def lookup(number: str) -> str | None:
        rule = index.get(number, edition)
        if rule is None or not rule.text:
            return None
        return rule.text

    return lookup


def no_rule_text(number: str) -> str | None:
    return None


# --- JSON --------------------------------------------------------------------------


def finding_to_dict(f: Finding, names: Mapping[str, str] | None = None) -> dict[str, Any]:
    # The subject's key is its kind: "object", "player" or "team".
    d: dict[str, Any] = {"rule": f.rule, "kind": str(f.kind), f.subject_kind: f.subject}
    if f.subject_kind == "object" and names and names.get(f.subject, f.subject) != f.subject:
        d["name"] = names[f.subject]
    d["why"] = f.why
    if f.also:
        d["also"] = list(f.also)
    if f.counters:
        d["counters"] = dict(sorted(f.counters.items()))
    if f.value is not None:
        d["value"] = f.value
    return d


def choice_to_dict(c: ChoiceNeeded) -> dict[str, Any]:
    d: dict[str, Any] = {"rule": c.rule, "player": c.player, "choose": c.choose}
    d["options"] = list(c.options)
    if c.subject is not None:
        d["object"] = c.subject
    d["why"] = c.why
    d["order"] = c.order
    return d


def resolution_to_dict(res: Resolution, rule_text: RuleText = no_rule_text) -> dict[str, Any]:
    """The `--json` output of `judge sba`."""
    names = res.names
    return {
        "ruleset": res.ruleset,
        "edition": res.edition or res.ruleset,
        "variant": res.final.variant,
        "passes": [
            {
                "number": p.number,
                "actions": [finding_to_dict(a, names) for a in p.actions],
                "not_applied": [finding_to_dict(n, names) for n in p.not_applied],
            }
            for p in res.passes
        ],
        "triggers": [
            {
                "source": t.source,
                "name": t.name,
                "ability": t.ability,
                "controller": t.controller,
                "rule": t.rule,
                "why": t.why,
                "after_pass": t.after_pass,
                **({"object": t.object} if t.object is not None else {}),
                **({"text": t.text} if t.text else {}),
            }
            for t in res.triggers
        ],
        "losers": list(res.losers),
        "choices_needed": [choice_to_dict(c) for c in res.choices_needed],
        "pending": [finding_to_dict(f, names) for f in res.pending],
        "stopped": res.stopped,
        "warnings": list(res.warnings),
        "rules": {n: rule_text(n) for n in res.cited_rules()},
        "board": board_to_dict(res.final),
    }


# --- text --------------------------------------------------------------------------


def feminine_ids(board: Board) -> set[str]:
    """Ids of the objects whose action labels take the feminine (une Aura, une Saga, an
    object the board says is feminine), on the battlefield or not."""
    out = {p.id for p in board.permanents if is_feminine(p)}
    out.update(o.id for o in board.other_zones if is_feminine(o))
    return out


def finding_label(f: Finding, feminine: set[str]) -> str:
    """What happened (an action) or why nothing did (a note), in French."""
    if f.note:
        return NOTE_LABELS.get(f.kind, f.kind)
    return action_label(f.kind, f.subject in feminine)


def subject_label(f: Finding, names: Mapping[str, str]) -> str:
    """The player, team or object a finding is about: « Ours (o1) », « joueur Bob »."""
    if f.subject_kind == "player":
        return f"joueur {f.subject}"
    if f.subject_kind == "team":
        return f"équipe {f.subject}"
    name = names.get(f.subject)
    return f"{name} ({f.subject})" if name and name != f.subject else f.subject


def _rules(f: Finding) -> str:
    return ", ".join((f.rule, *f.also))


def _finding_line(f: Finding, names: Mapping[str, str], feminine: set[str]) -> str:
    """`704.5g — Ours (o1) : détruit — endurance 2, 2 blessures marquées.`"""
    return f"{_rules(f)} — {subject_label(f, names)} : {finding_label(f, feminine)} — {f.why}."


def _quote(text: str, indent: str) -> list[str]:
    lines = text.split("\n")
    out = [f"{indent}« {lines[0]}"]
    out += [f"{indent}  {line}" for line in lines[1:]]
    out[-1] += " »"
    return out


class _Quoter:
    def __init__(self, rule_text: RuleText) -> None:
        self.rule_text = rule_text
        self.done: set[str] = set()

    def __call__(self, rules: tuple[str, ...], indent: str) -> list[str]:
        out: list[str] = []
        for r in rules:
            if r in self.done:
                continue
            self.done.add(r)
            text = self.rule_text(r)
            if text:
                out += _quote(f"{r} {text}", indent)
        return out


def render_board(board: Board) -> list[str]:
    lines: list[str] = []
    shared = board.variant == "two-headed-giant"
    for p in board.players:
        state = " — a perdu la partie" if p.lost else ""
        if shared:  # the team's life and poison count (704.6a, 704.6b)
            lines.append(f"  Joueur {p.name}{state}")
            continue
        extra = f", {plural(p.poison, 'marqueur poison')}" if p.poison else ""
        lines.append(f"  Joueur {p.name} : {plural(p.life, 'point de vie')}{extra}{state}")
    for t in board.teams:
        lines.append(
            f"  Équipe {t.name} ({fr_list(t.members)}) : {plural(t.life, 'point de vie')}, "
            f"{plural(t.poison, 'marqueur poison')}"
        )
    if board.permanents:
        lines.append("  Champ de bataille :")
        names = {perm.id: perm.name for perm in board.permanents}
        layered = Snapshot(board).permanents  # the values after the continuous effects (613)
        for stated in board.permanents:
            perm = layered.get(stated.id, stated)
            e = "e" if is_feminine(perm) else ""
            bits = [f"contrôlé{e} par {perm.controller}"]
            if perm.toughness is not None:
                bits.append(f"{perm.power if perm.power is not None else '?'}/{perm.toughness}")
            if perm.damage:
                bits.append(plural(perm.damage, "blessure"))
            if perm.counters:
                bits.append(
                    "marqueurs "
                    + ", ".join(
                        f"{COUNTER_LABELS.get(k, k)} ×{n}" for k, n in sorted(perm.counters.items())
                    )
                )
            if perm.attached_to:
                target = perm.attached_to
                if target in names and names[target] != target:
                    target = f"{names[target]} ({target})"
                bits.append(f"sur {target}")
            if perm.regeneration_shields:
                bits.append(plural(perm.regeneration_shields, "bouclier de régénération"))
            if perm.tapped:
                bits.append(f"engagé{e}")
            if perm.protector:
                bits.append(f"protecteur {perm.protector}")
            if perm.sector:
                bits.append(f"secteur {perm.sector}")
            lines.append(f"    {perm.name} ({perm.id}) : {', '.join(bits)}")
    else:
        lines.append("  Champ de bataille : vide")
    if board.other_zones:
        lines.append("  Autres zones :")
        for o in board.other_zones:
            what = " (jeton)" if o.token else ""
            zone = ZONE_LABELS.get(o.zone, o.zone)
            lines.append(f"    {o.name} ({o.id}){what} : {zone}, propriétaire {o.owner}")
    if board.stack:
        lines.append("  Pile (du bas vers le haut) :")
        for s in board.stack:
            lines.append(
                f"    {ability_label(s.ability)} {de(s.source)}, contrôlée par {s.controller}"
            )
    return lines


def render_text(res: Resolution, rule_text: RuleText = no_rule_text) -> str:
    """The French text output of `judge sba`."""
    names = res.names
    feminine = feminine_ids(res.initial)
    quote = _Quoter(rule_text)
    out: list[str] = []
    board = res.initial
    out.append(
        f"Actions basées sur un état — "
        f"{RULESET_LABELS.get(res.ruleset, res.ruleset_label or res.ruleset)}, "
        f"{VARIANT_LABELS.get(board.variant, board.variant)}"
    )
    if board.description:
        out.append(board.description)
    for w in res.warnings:
        out.append(f"Avertissement : {w}")
    if not res.passes:
        out.append("")
        if res.stopped == "choice":
            out.append("Arrêt avant la première passe : un choix est nécessaire.")
        else:
            out.append("Aucune action basée sur un état ne s'applique.")
    for p in res.passes:
        out.append("")
        out.append(f"Passe {p.number}" + ("" if p.actions else " : aucune action"))
        for a in p.actions:
            out.append(f"  • {_finding_line(a, names, feminine)}")
            out += quote((a.rule, *a.also), "      ")
        if p.not_applied:
            out.append("  Non appliqué :")
            for n in p.not_applied:
                out.append(f"  ◦ {_finding_line(n, names, feminine)}")
                out += quote((n.rule, *n.also), "      ")
    if res.triggers:
        out.append("")
        out.append("Capacités déclenchées mises sur la pile :")
        for t in res.triggers:
            what = f"capacité « {t.text} »" if t.text else ability_label(t.ability)
            out.append(
                f"  • {what} {de(t.name)} ({t.source}), "
                f"contrôlée par {t.controller}, "
                f"après la passe {t.after_pass} — {t.why} ({t.rule})."
            )
            out += quote((t.rule,), "      ")
    out.append("")
    if res.losers:
        out.append(f"Ont perdu la partie : {fr_list(list(res.losers))}.")
    elif res.stopped == "choice":
        out.append("Aucun joueur n'a perdu la partie jusqu'ici.")
    else:
        out.append("Aucun joueur ne perd la partie.")
    if res.choices_needed:
        out.append("")
        out.append("Choix attendus (indiquez-les dans « choices » du plateau) :")
        for c in res.choices_needed:
            out.append(
                f"  • {c.player} ({c.rule}) doit choisir {c.choose} — possibilités : "
                f"{', '.join(c.options)}. {c.why[:1].upper()}{c.why[1:]}."
            )
            out += quote((c.rule,), "      ")
        if res.pending:
            out.append("  Actions qui seront effectuées en même temps :")
            for f in res.pending:
                out.append(f"    {_finding_line(f, names, feminine)}")
    if res.stopped and res.stopped != "choice":
        out.append("")
        out.append(STOP_LABELS[res.stopped])
    out.append("")
    out.append("Plateau au moment de l'arrêt :" if res.stopped else "Plateau final :")
    out += render_board(res.final)
    return "\n".join(out)

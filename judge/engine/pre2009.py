"""The state-based effects of the pre-2009 rules (fr-pre2009): 420.5a–420.5k, exactly as
the old French text states them. No deathtouch, no planeswalkers, no +1/+1 and -1/-1
cancelling, the legend rule puts *every* copy into the graveyard whoever controls them,
"enchantement local" for Auras (enchanting a *permanent*), and 420.5k for Equipment only.

`NOTES` holds the "why not" producers for what a modern judge would expect and the old
text does not do (they perform nothing)."""

from __future__ import annotations

from collections.abc import Iterator

from judge.engine.current import (
    aura_illegal_reason,
    equipment_illegal_reason,
    lethal_damage_why,
    zero_toughness_notes,
)
from judge.engine.state import Check, Finding, Outcome, Permanent, Snapshot
from judge.engine.vocabulary import ActionKind, NoteKind
from judge.engine.wording import fr_list, plural
from judge.fr import ZONE_IN


def player_zero_or_less_life(s: Snapshot) -> Iterator[Outcome]:
    """420.5a — a player with 0 or less life loses the game."""
    for p in s.board.players:
        if not p.lost and p.life <= 0:
            yield Finding(
                "420.5a", ActionKind.LOSE_GAME, p.name, "player", plural(p.life, "point de vie")
            )


def creature_zero_or_less_toughness(s: Snapshot) -> Iterator[Outcome]:
    """420.5b — a creature with toughness 0 or less goes to its owner's graveyard; regeneration
    cannot replace this."""
    for p in s.low_toughness:
        if p.toughness is not None and p.toughness <= 0:
            yield Finding("420.5b", ActionKind.PUT_INTO_GRAVEYARD, p.id, why=s.toughness_why(p))
            yield from zero_toughness_notes(p, "420.5b")


def creature_lethal_damage(s: Snapshot) -> Iterator[Outcome]:
    """420.5c — a creature with lethal damage (more than zero, at least its toughness) and
    toughness greater than 0 is destroyed; regeneration can replace this. Deathtouch is not
    a state-based effect in this text."""
    for p in s.damaged:
        t = p.toughness
        if t is None or t <= 0:
            continue
        if p.damage > 0 and p.damage >= t:
            yield Finding("420.5c", ActionKind.DESTROY, p.id, why=lethal_damage_why(p, s))
        elif p.deathtouch_damage > 0:
            yield Finding(
                "420.5c",
                NoteKind.NOT_APPLICABLE,
                p.id,
                why=f"{plural(p.deathtouch_damage, 'blessure')} d'une source avec le contact "
                f"mortel, mais {lethal_damage_why(p, s)} : pas de blessures fatales, et le texte "
                f"420.5 ne connaît pas le contact mortel",
                note=True,
            )


def _local_enchantment_reason(p: Permanent, s: Snapshot) -> str | None:
    if p.attached_to is None:
        return "n'enchante aucun permanent (permanent inexistant)"
    if p.attached_to in s.players and "player" in p.enchant:
        return None  # 420.5d speaks of permanents only
    return aura_illegal_reason(p, s, allow_players=False)


def local_enchantment_illegal(s: Snapshot) -> Iterator[Outcome]:
    """420.5d — a local enchantment (Aura) enchanting an illegal or nonexistent permanent goes
    to its owner's graveyard."""
    for p in s.attached:
        if "Aura" in p.subtypes:
            why = _local_enchantment_reason(p, s)
            if why:
                yield Finding("420.5d", ActionKind.PUT_INTO_GRAVEYARD, p.id, why=why)


def legend_rule_all_copies(s: Snapshot) -> Iterator[Outcome]:
    """420.5e — two or more legendary permanents with the same name in play: all of them go to
    their owners' graveyards, whoever controls them. If only one of the permanents sharing the
    name is legendary, the rule does not apply."""
    legendary: dict[str, list[Permanent]] = {}
    for p in s.legendary:
        if not p.face_down:
            legendary.setdefault(p.name, []).append(p)
    lonely = {name for name, group in legendary.items() if len(group) == 1}
    namesakes: dict[str, list[str]] = {}
    if lonely:
        for p in s.board.permanents:
            if p.name in lonely and not p.is_legendary and not p.face_down:
                namesakes.setdefault(p.name, []).append(p.id)
    for name, ids in namesakes.items():
        others = fr_list([s.label(i) for i in sorted(ids)])
        yield Finding(
            "420.5e",
            NoteKind.NOT_APPLICABLE,
            legendary[name][0].id,
            why=f"même nom que {others}, non légendaire(s) : seul l'un de ces permanents est "
            f"légendaire",
            note=True,
        )
    for name, group in legendary.items():
        if len(group) < 2:
            continue
        controllers = sorted({p.controller for p in group})
        for p in group:
            yield Finding(
                "420.5e",
                ActionKind.PUT_INTO_GRAVEYARD,
                p.id,
                why=f"{len(group)} permanents légendaires nommés « {name} » en jeu (contrôlés par "
                f"{fr_list(controllers)}) : tous vont au cimetière",
            )


def token_outside_play(s: Snapshot) -> Iterator[Outcome]:
    """420.5f — a token in a zone other than in play ceases to exist."""
    for o in s.board.other_zones:
        if o.token:
            yield Finding(
                "420.5f",
                ActionKind.CEASE_TO_EXIST,
                o.id,
                why=f"jeton hors du jeu (dans {ZONE_IN[o.zone]})",
            )


def player_drew_from_empty_library(s: Snapshot) -> Iterator[Outcome]:
    """420.5g — a player who had to draw more cards than the library held since the last check
    loses the game."""
    for p in s.board.players:
        if not p.lost and p.drew_from_empty_library:
            yield Finding(
                "420.5g",
                ActionKind.LOSE_GAME,
                p.name,
                "player",
                "a dû piocher plus de cartes que sa bibliothèque n'en contenait",
            )


def player_ten_or_more_poison(s: Snapshot) -> Iterator[Outcome]:
    """420.5h — a player with ten or more poison counters loses the game."""
    for p in s.board.players:
        if not p.lost and p.poison >= 10:
            yield Finding(
                "420.5h",
                ActionKind.LOSE_GAME,
                p.name,
                "player",
                plural(p.poison, "marqueur poison"),
            )


def world_rule(s: Snapshot) -> Iterator[Outcome]:
    """420.5i — two or more World permanents in play: all but the newest go to the graveyard
    (all of them on a tie)."""
    if len(s.world) < 2:
        return
    newest = max(p.timestamp or 0 for p in s.world)
    holders = [p for p in s.world if (p.timestamp or 0) == newest]
    for p in s.world:
        if len(holders) == 1 and p is holders[0]:
            continue
        why = f"{len(s.world)} permanents « du Monde » en jeu"
        if len(holders) > 1:
            why += f", égalité d'horodatage ({newest})"
        yield Finding("420.5i", ActionKind.PUT_INTO_GRAVEYARD, p.id, why=why)


def copy_outside_allowed_zone(s: Snapshot) -> Iterator[Outcome]:
    """420.5j — a copy of a spell outside the stack, or of a card outside the stack and play,
    ceases to exist."""
    for o in s.board.other_zones:
        if o.zone == "stack":
            continue
        if o.spell_copy:
            yield Finding(
                "420.5j",
                ActionKind.CEASE_TO_EXIST,
                o.id,
                why=f"copie d'un sort hors de la pile (dans {ZONE_IN[o.zone]})",
            )
        elif o.card_copy:
            yield Finding(
                "420.5j",
                ActionKind.CEASE_TO_EXIST,
                o.id,
                why=f"copie d'une carte hors de la pile et du jeu (dans {ZONE_IN[o.zone]})",
            )


def equipment_illegal(s: Snapshot) -> Iterator[Outcome]:
    """420.5k — an Equipment equipping an illegal or nonexistent permanent stops equipping it
    but stays in play (Fortifications are not named by this text)."""
    for p in s.attached:
        if p.attached_to is not None and "Equipment" in p.subtypes:
            why = equipment_illegal_reason(p, s, "creature")
            if why:
                yield Finding("420.5k", ActionKind.UNATTACH, p.id, why=why)


REGISTRY: tuple[Check, ...] = (
    Check("420.5a", player_zero_or_less_life),
    Check("420.5b", creature_zero_or_less_toughness),
    Check("420.5c", creature_lethal_damage),
    Check("420.5d", local_enchantment_illegal),
    Check("420.5e", legend_rule_all_copies),
    Check("420.5f", token_outside_play),
    Check("420.5g", player_drew_from_empty_library),
    Check("420.5h", player_ten_or_more_poison),
    Check("420.5i", world_rule),
    Check("420.5j", copy_outside_allowed_zone),
    Check("420.5k", equipment_illegal),
)


# --- what the old text does not do -------------------------------------------------

LIST_RULE = "420.5"


def modern_only_states(s: Snapshot) -> Iterator[Outcome]:
    """Notes (rule 420.5, the list): states a current judge would act on that the old list
    does not cover."""
    for p in s.with_counters:
        if p.counter("+1/+1") and p.counter("-1/-1"):
            yield Finding(
                LIST_RULE,
                NoteKind.NOT_APPLICABLE,
                p.id,
                why="marqueurs +1/+1 et -1/-1 : aucun effet de 420.5 ne les annule",
                note=True,
            )
    for p in s.planeswalkers:
        if p.counter("loyalty") == 0:
            yield Finding(
                LIST_RULE,
                NoteKind.NOT_APPLICABLE,
                p.id,
                why="planeswalker à 0 loyauté : la liste 420.5 ne connaît pas les planeswalkers",
                note=True,
            )
    for p in s.sagas:
        if p.counter("lore") >= (p.final_chapter or 0):
            yield Finding(
                LIST_RULE,
                NoteKind.NOT_APPLICABLE,
                p.id,
                why="Saga à son dernier chapitre : la liste 420.5 ne connaît pas les Sagas",
                note=True,
            )
    for p in s.battles:
        if p.counter("defense") == 0 or p.protector is None:
            yield Finding(
                LIST_RULE,
                NoteKind.NOT_APPLICABLE,
                p.id,
                why="bataille : la liste 420.5 ne connaît pas les batailles",
                note=True,
            )
    for p in s.attached:
        if p.attached_to is None:
            continue
        if "Fortification" in p.subtypes and equipment_illegal_reason(p, s, "land"):
            yield Finding(
                LIST_RULE,
                NoteKind.NOT_APPLICABLE,
                p.id,
                why="Fortification attachée illégalement : 420.5k ne parle que des équipements",
                note=True,
            )
        elif ("creature" in p.types or "battle" in p.types) and not (
            {"Aura", "Equipment"} & set(p.subtypes)
        ):
            yield Finding(
                LIST_RULE,
                NoteKind.NOT_APPLICABLE,
                p.id,
                why="créature attachée à un objet : aucun effet de 420.5 ne la détache",
                note=True,
            )
    for o in s.board.other_zones:
        if o.dungeon and o.bottommost_room:
            yield Finding(
                LIST_RULE,
                NoteKind.NOT_APPLICABLE,
                o.id,
                why="donjon terminé : la liste 420.5 ne connaît pas les donjons",
                note=True,
            )


NOTES: tuple[Check, ...] = (Check(LIST_RULE, modern_only_states),)

LOOP_RULE = "420.3"
CITED_RULES: tuple[str, ...] = (*(c.rule for c in REGISTRY), LIST_RULE, LOOP_RULE)

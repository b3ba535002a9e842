"""The state-based actions of the current rules (fr-2024): 704.5a–704.5y and the variant
actions 704.6a–704.6d. One function per rule, named after what it checks; each looks at a
`Snapshot` and yields `Finding`s (and "why not" notes, and `ChoiceNeeded` when the board
does not say what a player chose). Nothing here changes the board: see resolve.py."""

from __future__ import annotations

from collections.abc import Iterator

from judge.engine.errors import BoardError
from judge.engine.state import (
    Check,
    ChoiceNeeded,
    Finding,
    OtherObject,
    Outcome,
    Permanent,
    Snapshot,
)
from judge.engine.vocabulary import ActionKind, NoteKind, choice_key
from judge.engine.wording import de, fr_list, french_words, plural
from judge.fr import ZONE_AT, ZONE_IN

# --- shared helpers (also used by pre2009.py) ------------------------------------


def protection_reason(target: Permanent, source: Permanent) -> str | None:
    """Why `target`'s protection makes `source` unable to stay attached, if it does."""
    prot = target.protection_from
    if not prot:
        return None
    if "everything" in prot:
        return f"{target.name} a la protection contre tout"
    hits = sorted((source.colors | source.types) & prot)
    if hits:
        return f"{target.name} a la protection contre : {french_words(hits)}"
    return None


def _type_words(types: frozenset[str]) -> str:
    return french_words(sorted(types)) if types else "aucun type"


def aura_illegal_reason(aura: Permanent, s: Snapshot, allow_players: bool = True) -> str | None:
    """Why an Aura is attached illegally or to nothing (704.5m), or None if it is legal."""
    target_id = aura.attached_to
    if target_id is None:
        return "elle n'est attachée à aucun objet ni joueur"
    target = s.permanents.get(target_id)
    if target is None:
        if target_id in s.players:
            if not allow_players:
                return f"elle enchante un joueur ({target_id}), pas un permanent"
            if "player" not in aura.enchant:
                return (
                    f"elle enchante le joueur {target_id} mais ne peut enchanter que : "
                    f"{french_words(sorted(aura.enchant))}"
                )
            if not s.in_game(target_id):
                return f"le joueur {target_id} a quitté la partie"
            return None
        return f"« {target_id} » n'est pas sur le champ de bataille"
    if "permanent" not in aura.enchant and not (aura.enchant & target.types):
        return (
            f"{s.label(target.id)} n'est pas un objet qu'elle peut enchanter "
            f"(enchanter : {french_words(sorted(aura.enchant))} ; types : "
            f"{_type_words(target.types)})"
        )
    return protection_reason(target, aura)


def equipment_illegal_reason(equip: Permanent, s: Snapshot, needed: str) -> str | None:
    """Why an Equipment (needed='creature') or a Fortification (needed='land') is attached to
    an illegal permanent or to a player (704.5n), or None."""
    target_id = equip.attached_to
    if target_id is None:
        return None
    target = s.permanents.get(target_id)
    if target is None:
        if target_id in s.players:
            return f"attaché au joueur {target_id}"
        return f"« {target_id} » n'est pas sur le champ de bataille"
    if needed not in target.types:
        word = "une créature" if needed == "creature" else "un terrain"
        return f"{s.label(target.id)} n'est pas {word} (types : {_type_words(target.types)})"
    return protection_reason(target, equip)


def _pt(p: Permanent, s: Snapshot) -> str:
    return s.toughness_why(p)


# --- 704.5a–c: players --------------------------------------------------------------


def player_zero_or_less_life(s: Snapshot) -> Iterator[Outcome]:
    """704.5a — a player with 0 or less life loses (in Two-Headed Giant the team's life
    counts: 704.6a)."""
    if s.variant == "two-headed-giant":
        return
    for p in s.board.players:
        if not p.lost and p.life <= 0:
            yield Finding(
                "704.5a",
                ActionKind.LOSE_GAME,
                p.name,
                "player",
                f"{plural(p.life, 'point de vie')}",
            )


def player_drew_from_empty_library(s: Snapshot) -> Iterator[Outcome]:
    """704.5b — a player who attempted to draw from an empty library since the last check."""
    for p in s.board.players:
        if not p.lost and p.drew_from_empty_library:
            yield Finding(
                "704.5b",
                ActionKind.LOSE_GAME,
                p.name,
                "player",
                "a tenté de piocher dans une bibliothèque vide depuis la dernière vérification",
            )


def player_ten_or_more_poison(s: Snapshot) -> Iterator[Outcome]:
    """704.5c — a player with ten or more poison counters (not in Two-Headed Giant)."""
    for p in s.board.players:
        if not p.lost and p.poison >= 10:
            yield Finding(
                "704.5c",
                ActionKind.LOSE_GAME,
                p.name,
                "player",
                plural(p.poison, "marqueur poison"),
            )


# --- 704.5d–e: tokens and copies outside their zones ------------------------------------


def token_outside_battlefield(s: Snapshot) -> Iterator[Outcome]:
    """704.5d — a token in a zone other than the battlefield ceases to exist."""
    for o in s.board.other_zones:
        if o.token:
            yield Finding(
                "704.5d", ActionKind.CEASE_TO_EXIST, o.id, why=f"jeton dans {ZONE_IN[o.zone]}"
            )


def _copy_outside_zone(o: OtherObject) -> str | None:
    if o.spell_copy and o.zone != "stack":
        return f"copie d'un sort dans {ZONE_IN[o.zone]}"
    if o.card_copy and o.zone != "stack":
        return f"copie d'une carte dans {ZONE_IN[o.zone]}"
    return None


def copy_outside_allowed_zone(s: Snapshot) -> Iterator[Outcome]:
    """704.5e — a copy of a spell outside the stack, or of a card outside the stack and the
    battlefield, ceases to exist."""
    for o in s.board.other_zones:
        why = _copy_outside_zone(o)
        if why:
            yield Finding("704.5e", ActionKind.CEASE_TO_EXIST, o.id, why=why)


# --- 704.5f–h: creatures -------------------------------------------------------------


def zero_toughness_notes(p: Permanent, rule: str) -> Iterator[Finding]:
    if p.regeneration_shields:
        yield Finding(
            rule,
            NoteKind.NOT_REPLACEABLE,
            p.id,
            why=f"{plural(p.regeneration_shields, 'bouclier de régénération')} : la régénération "
            f"ne peut pas remplacer cet événement",
            note=True,
        )
    if p.is_indestructible:
        yield Finding(
            rule,
            NoteKind.NOT_PREVENTED,
            p.id,
            why="la créature n'est pas détruite mais mise au cimetière : l'indestructibilité "
            "ne l'empêche pas",
            note=True,
        )


def creature_zero_or_less_toughness(s: Snapshot) -> Iterator[Outcome]:
    """704.5f — a creature with toughness 0 or less goes to its owner's graveyard; regeneration
    cannot replace this."""
    for p in s.low_toughness:
        if p.toughness is not None and p.toughness <= 0:
            yield Finding("704.5f", ActionKind.PUT_INTO_GRAVEYARD, p.id, why=_pt(p, s))
            yield from zero_toughness_notes(p, "704.5f")


def lethal_damage_why(p: Permanent, s: Snapshot) -> str:
    return f"{_pt(p, s)}, {plural(p.damage, 'blessure marquée', 'blessures marquées')}"


def creature_lethal_damage(s: Snapshot) -> Iterator[Outcome]:
    """704.5g — a creature with toughness greater than 0 and damage marked greater than or
    equal to its toughness has lethal damage and is destroyed (regeneration can replace)."""
    for p in s.damaged:
        t = p.toughness
        if t is not None and t > 0 and p.damage > 0 and p.damage >= t:
            yield Finding("704.5g", ActionKind.DESTROY, p.id, why=lethal_damage_why(p, s))


def creature_deathtouch_damage(s: Snapshot) -> Iterator[Outcome]:
    """704.5h — a creature with toughness greater than 0 dealt damage by a source with
    deathtouch since the last check is destroyed (regeneration can replace)."""
    for p in s.damaged:
        t = p.toughness
        if t is not None and t > 0 and p.deathtouch_damage > 0:
            dmg = plural(p.deathtouch_damage, "blessure infligée", "blessures infligées")
            yield Finding(
                "704.5h",
                ActionKind.DESTROY,
                p.id,
                why=f"{_pt(p, s)}, {dmg} par une source avec le contact mortel depuis la dernière "
                f"vérification",
            )


# --- 704.5i–k ---------------------------------------------------------------------


def planeswalker_zero_loyalty(s: Snapshot) -> Iterator[Outcome]:
    """704.5i — a planeswalker with loyalty 0 goes to its owner's graveyard."""
    for p in s.planeswalkers:
        if p.counter("loyalty") == 0:
            yield Finding("704.5i", ActionKind.PUT_INTO_GRAVEYARD, p.id, why="loyauté 0")


def legend_rule(s: Snapshot) -> Iterator[Outcome]:
    """704.5j — legendary permanents with the same name controlled by the same player: the
    player chooses one, the rest go to their owners' graveyards."""
    groups: dict[tuple[str, str], list[Permanent]] = {}
    controllers_by_name: dict[str, set[str]] = {}
    for p in s.legendary:
        if p.face_down:
            continue
        groups.setdefault((p.controller, p.name), []).append(p)
        controllers_by_name.setdefault(p.name, set()).add(p.controller)
    keep_all = s.board.choices.legend_keep
    for (controller, name), group in groups.items():
        if len(group) < 2:
            others = sorted(controllers_by_name[name] - {controller})
            if others:
                yield Finding(
                    "704.5j",
                    NoteKind.NOT_APPLICABLE,
                    group[0].id,
                    why=f"même nom « {name} » qu'un permanent légendaire contrôlé par "
                    f"{fr_list(others)} : les contrôleurs sont différents",
                    note=True,
                )
            continue
        ids = sorted(p.id for p in group)
        kept = [i for i in ids if i in keep_all]
        if len(kept) > 1:
            raise BoardError(
                f"choices : règle 704.5j : {controller} ne peut garder qu'un seul « {name} » "
                f"(choisis : {', '.join(kept)})",
                field="keep",
                obj="choices",
            )
        if not kept:
            yield ChoiceNeeded(
                "704.5j",
                controller,
                f"le permanent légendaire « {name} » à garder",
                tuple(ids),
                why=f"{controller} contrôle {len(ids)} permanents légendaires nommés « {name} »",
            )
            continue
        for i in ids:
            if i != kept[0]:
                yield Finding(
                    "704.5j",
                    ActionKind.PUT_INTO_GRAVEYARD,
                    i,
                    why=f"{controller} contrôle {len(ids)} permanents légendaires nommés "
                    f"« {name} » et garde {s.label(kept[0])}",
                    choice=choice_key("704.5j", kept[0]),
                )


def world_rule(s: Snapshot) -> Iterator[Outcome]:
    """704.5k — two or more world permanents: all but the newest world go to the graveyard
    (all of them on a tie)."""
    if len(s.world) < 2:
        return
    newest = max(p.timestamp or 0 for p in s.world)
    holders = [p for p in s.world if (p.timestamp or 0) == newest]
    for p in s.world:
        if len(holders) == 1 and p is holders[0]:
            continue
        if len(holders) == 1:
            why = f"{len(s.world)} permanents « du monde » ; {s.label(holders[0].id)} l'est depuis "
            why += "le moins longtemps"
        else:
            why = f"{len(s.world)} permanents « du monde », égalité d'horodatage ({newest})"
        yield Finding("704.5k", ActionKind.PUT_INTO_GRAVEYARD, p.id, why=why)


# --- 704.5m–p: attachments --------------------------------------------------------------


BESTOW_RULE = "702.103f"


def aura_illegally_attached(s: Snapshot) -> Iterator[Outcome]:
    """704.5m — an Aura attached to an illegal object or player, or to nothing. A bestowed
    Aura instead becomes unattached and ceases to be bestowed: a creature again (702.103f, an
    exception to 704.5m)."""
    for p in s.attached:
        if "Aura" in p.subtypes:
            why = aura_illegal_reason(p, s)
            if why and p.bestowed:
                yield Finding(
                    BESTOW_RULE,
                    ActionKind.END_BESTOW,
                    p.id,
                    why=f"{why} ; Aura avec grâce : elle se détache, cesse d'être une Aura "
                    f"et reste sur le champ de bataille (exception à 704.5m)",
                )
            elif why:
                yield Finding("704.5m", ActionKind.PUT_INTO_GRAVEYARD, p.id, why=why)


def equipment_illegally_attached(s: Snapshot) -> Iterator[Outcome]:
    """704.5n — an Equipment or Fortification attached to an illegal permanent or to a player
    becomes unattached and stays on the battlefield."""
    for p in s.attached:
        if p.attached_to is None:
            continue
        for subtype, needed in (("Equipment", "creature"), ("Fortification", "land")):
            if subtype in p.subtypes:
                why = equipment_illegal_reason(p, s, needed)
                if why:
                    yield Finding("704.5n", ActionKind.UNATTACH, p.id, why=why)
                break


def creature_or_other_attached(s: Snapshot) -> Iterator[Outcome]:
    """704.5p — a battle or creature attached to something becomes unattached; so does any
    other permanent that is neither an Aura, an Equipment nor a Fortification."""
    for p in s.attached:
        if p.attached_to is None:
            continue
        if "creature" in p.types or "battle" in p.types:
            what = "une créature" if "creature" in p.types else "une bataille"
            yield Finding(
                "704.5p",
                ActionKind.UNATTACH,
                p.id,
                why=f"c'est {what} attachée {s.to_what(p.attached_to)}",
            )
        elif not any(t in p.subtypes for t in ("Aura", "Equipment", "Fortification")):
            yield Finding(
                "704.5p",
                ActionKind.UNATTACH,
                p.id,
                why=f"ni Aura, ni Équipement, ni Fortification, attaché {s.to_what(p.attached_to)}",
            )


# --- 704.5q–r: counters ------------------------------------------------------------


def plus_minus_counters_cancel(s: Snapshot) -> Iterator[Outcome]:
    """704.5q — N +1/+1 and N -1/-1 counters are removed, N being the smaller count."""
    for p in s.with_counters:
        plus, minus = p.counter("+1/+1"), p.counter("-1/-1")
        n = min(plus, minus)
        if n:
            yield Finding(
                "704.5q",
                ActionKind.REMOVE_COUNTERS,
                p.id,
                why=f"{plural(plus, 'marqueur +1/+1', 'marqueurs +1/+1')} et "
                f"{plural(minus, 'marqueur -1/-1', 'marqueurs -1/-1')} : "
                + (f"{n} de chaque est retiré" if n == 1 else f"{n} de chaque sont retirés"),
                counters={"+1/+1": n, "-1/-1": n},
            )


def counters_over_maximum(s: Snapshot) -> Iterator[Outcome]:
    """704.5r — a permanent that can't have more than N counters of a kind loses the excess."""
    for p in s.with_max_counters:
        excess = {}
        for kind, most in p.max_counters.items():
            have = p.counter(kind)
            if have > most:
                excess[kind] = have - most
        if excess:
            parts = [
                f"{p.counter(k)} marqueur(s) {k} pour {p.max_counters[k]} au plus" for k in excess
            ]
            yield Finding(
                "704.5r",
                ActionKind.REMOVE_COUNTERS,
                p.id,
                why=" ; ".join(sorted(parts)),
                counters=excess,
            )


# --- 704.5s–t: Sagas and dungeons ------------------------------------------------------


def _saga_outcome(p: Permanent) -> Iterator[Outcome]:
    lore, last = p.counter("lore"), p.final_chapter or 0
    if lore < last:
        return
    lore_text = plural(lore, "marqueur de chapitre", "marqueurs de chapitre")
    facts = f"{lore_text}, dernier chapitre {last}"
    if p.trigger_on_stack:
        yield Finding(
            "704.5s",
            NoteKind.NOT_APPLICABLE,
            p.id,
            why=f"{facts}, mais une capacité de chapitre de la Saga est encore sur la pile",
            note=True,
        )
    else:
        yield Finding("704.5s", ActionKind.SACRIFICE, p.id, why=facts)


def saga_past_final_chapter(s: Snapshot) -> Iterator[Outcome]:
    """704.5s — a Saga with at least as many lore counters as its final chapter number, and
    no chapter ability of it still on the stack, is sacrificed."""
    for p in s.sagas:
        yield from _saga_outcome(p)


def saga_with_chapter_abilities(s: Snapshot) -> Iterator[Outcome]:
    """704.5s as worded since 2025 — only a Saga with one or more chapter abilities is
    sacrificed; one with none (its final chapter number is then 0: 714.2d), such as a Saga
    that lost its abilities, stays."""
    for p in s.sagas:
        if p.final_chapter:
            yield from _saga_outcome(p)
        else:
            yield Finding(
                "704.5s",
                NoteKind.NOT_APPLICABLE,
                p.id,
                why="Saga sans capacité de chapitre (dernier chapitre 0) : elle n'est pas "
                "sacrifiée",
                note=True,
            )


def dungeon_completed(s: Snapshot) -> Iterator[Outcome]:
    """704.5t — a dungeon whose venture marker is on its bottommost room, and which is not the
    source of a room ability on the stack, is removed from the game."""
    for o in s.board.other_zones:
        if not (o.dungeon and o.bottommost_room):
            continue
        if o.trigger_on_stack:
            yield Finding(
                "704.5t",
                NoteKind.NOT_APPLICABLE,
                o.id,
                why="marqueur d'exploration sur la dernière pièce, mais sa capacité de pièce est "
                "encore sur la pile",
                note=True,
            )
        else:
            yield Finding(
                "704.5t",
                ActionKind.REMOVE_FROM_GAME,
                o.id,
                why="marqueur d'exploration sur la pièce la plus basse",
            )


# --- 704.5u: space sculptor -----------------------------------------------------------


def creatures_without_sector(s: Snapshot) -> Iterator[Outcome]:
    """704.5u — with a space sculptor permanent on the battlefield, each creature without a
    sector designation gets one (players without space sculptor choose first)."""
    if not s.space_sculptors:
        return
    sculptor_controllers = {p.controller for p in s.space_sculptors}
    missing: dict[str, list[str]] = {}
    for p in s.creatures:
        if p.sector is not None:
            continue
        chosen = s.board.choices.sectors.get(p.id)
        if chosen is None:
            missing.setdefault(p.controller, []).append(p.id)
        else:
            yield Finding(
                "704.5u",
                ActionKind.CHOOSE_SECTOR,
                p.id,
                why=f"créature sans secteur alors qu'un permanent avec sculpteur spatial est en "
                f"jeu ; {p.controller} choisit {chosen}",
                value=chosen,
                choice=choice_key("704.5u", p.id),
            )
    for controller, ids in missing.items():
        first = controller not in sculptor_controllers
        yield ChoiceNeeded(
            "704.5u",
            controller,
            f"un secteur pour chacune de ces créatures : {', '.join(sorted(ids))}",
            ("alpha", "beta", "gamma"),
            why="créatures sans secteur et un permanent avec sculpteur spatial sur le champ de "
            "bataille" + ("" if first else " (choisit après les joueurs sans sculpteur spatial)"),
            order=0 if first else 1,
        )


# --- 704.5v–x: battles -----------------------------------------------------------------


def battle_zero_defense(s: Snapshot) -> Iterator[Outcome]:
    """704.5v — a battle with defense 0 that is not the source of an ability on the stack goes
    to its owner's graveyard."""
    for p in s.battles:
        if p.counter("defense") != 0:
            continue
        if p.trigger_on_stack:
            yield Finding(
                "704.5v",
                NoteKind.NOT_APPLICABLE,
                p.id,
                why="défense 0, mais une de ses capacités déclenchées est encore sur la pile",
                note=True,
            )
        else:
            yield Finding("704.5v", ActionKind.PUT_INTO_GRAVEYARD, p.id, why="défense 0")


def protector_candidates(p: Permanent, s: Snapshot) -> list[str]:
    """Appropriate protectors: an opponent of the controller for a Siege; any player still in
    the game for another battle type."""
    if "Siege" in p.subtypes:
        return sorted(s.opponents(p.controller))
    return sorted(q.name for q in s.board.players if not q.lost)


def _protector_outcome(rule: str, p: Permanent, s: Snapshot, why: str) -> Iterator[Outcome]:
    candidates = protector_candidates(p, s)
    chosen = s.board.choices.protectors.get((rule, p.id))
    if rule == "704.5x":
        candidates = [c for c in candidates if c != p.controller]
    if not candidates:
        yield Finding(
            rule,
            ActionKind.PUT_INTO_GRAVEYARD,
            p.id,
            why=f"{why} ; aucun joueur ne peut être choisi",
        )
        return
    if chosen is not None:
        if chosen not in candidates:
            raise BoardError(
                f"choices : règle {rule} : « {chosen} » ne peut pas protéger {p.id} "
                f"(possibles : {', '.join(candidates)})",
                field="protector",
                obj="choices",
            )
        yield Finding(
            rule,
            ActionKind.CHOOSE_PROTECTOR,
            p.id,
            why=f"{why} ; {p.controller} choisit {chosen}",
            value=chosen,
            choice=choice_key(rule, p.id),
        )
    elif len(candidates) == 1:
        yield Finding(
            rule,
            ActionKind.CHOOSE_PROTECTOR,
            p.id,
            why=f"{why} ; seul choix possible : {candidates[0]}",
            value=candidates[0],
        )
    else:
        yield ChoiceNeeded(
            rule, p.controller, f"le protecteur {de(s.label(p.id))}", tuple(candidates), p.id, why
        )


def battle_without_protector(s: Snapshot) -> Iterator[Outcome]:
    """704.5w — a battle with no protector in the game and no creature attacking it: its
    controller chooses an appropriate protector, or it goes to the graveyard."""
    for p in s.battles:
        if p.protector is not None and s.in_game(p.protector):
            continue
        why = "aucun protecteur" if p.protector is None else f"{p.protector} a quitté la partie"
        if p.id in s.attacked:
            attackers = sorted(s.attacked[p.id])
            yield Finding(
                "704.5w",
                NoteKind.NOT_APPLICABLE,
                p.id,
                why=f"{why}, mais elle est attaquée par {', '.join(attackers)}",
                note=True,
            )
            continue
        yield from _protector_outcome("704.5w", p, s, why)


def siege_protected_by_controller(s: Snapshot) -> Iterator[Outcome]:
    """704.5x — a Siege whose controller is also its protector: the controller chooses an
    opponent as protector, or it goes to the graveyard."""
    for p in s.battles:
        if "Siege" in p.subtypes and p.protector == p.controller:
            yield from _protector_outcome(
                "704.5x", p, s, f"{p.controller} contrôle ce Siège et en est le protecteur"
            )


# --- 704.5y: Roles -------------------------------------------------------------------


def several_roles_same_player(s: Snapshot) -> Iterator[Outcome]:
    """704.5y — several Roles of one player on one permanent: all but the newest go to the
    graveyard."""
    groups: dict[tuple[str, str], list[Permanent]] = {}
    for p in s.roles:
        groups.setdefault((p.attached_to or "", p.controller), []).append(p)
    for (target, controller), group in groups.items():
        if len(group) < 2:
            continue
        newest = max(group, key=lambda p: p.timestamp or 0)
        for p in group:
            if p is not newest:
                yield Finding(
                    "704.5y",
                    ActionKind.PUT_INTO_GRAVEYARD,
                    p.id,
                    why=f"{len(group)} Rôles {de(controller)} sur {s.label(target)} ; le plus "
                    f"récent est "
                    f"{s.label(newest.id)} (horodatage {newest.timestamp})",
                )


# --- 704.5z: speed -------------------------------------------------------------------

START_YOUR_ENGINES = frozenset({"start your engines!", "start your engines"})


def player_gets_speed(s: Snapshot) -> Iterator[Outcome]:
    """704.5z — a player who controls a permanent with start your engines! and has no speed:
    their speed becomes 1 (702.179a)."""
    holders: dict[str, str] = {}
    for p in s.board.permanents:
        q = s.permanents.get(p.id, p)
        if q.keywords & START_YOUR_ENGINES:
            holders.setdefault(q.controller, q.id)
    for player in s.board.players:
        if player.lost or player.speed is not None or player.name not in holders:
            continue
        yield Finding(
            "704.5z",
            ActionKind.SET_SPEED,
            player.name,
            "player",
            f"contrôle {s.label(holders[player.name])}, qui a « start your engines! », et n'a pas "
            f"de vitesse",
            value="1",
        )


# --- 704.6a–d: variants --------------------------------------------------------------


def _team_in_game(team_members: tuple[str, ...], s: Snapshot) -> bool:
    return any(s.in_game(m) for m in team_members)


def team_zero_or_less_life(s: Snapshot) -> Iterator[Outcome]:
    """704.6a — Two-Headed Giant: a team with 0 or less life loses."""
    for t in s.board.teams:
        if _team_in_game(t.members, s) and t.life <= 0:
            yield Finding(
                "704.6a",
                ActionKind.LOSE_GAME,
                t.name,
                "team",
                f"l'équipe a {plural(t.life, 'point de vie')}",
            )


def team_fifteen_or_more_poison(s: Snapshot) -> Iterator[Outcome]:
    """704.6b — Two-Headed Giant: a team with fifteen or more poison counters loses."""
    for t in s.board.teams:
        if _team_in_game(t.members, s) and t.poison >= 15:
            yield Finding(
                "704.6b",
                ActionKind.LOSE_GAME,
                t.name,
                "team",
                f"l'équipe a {plural(t.poison, 'marqueur poison')}",
            )


def commander_damage_21(s: Snapshot) -> Iterator[Outcome]:
    """704.6c — Commander: a player dealt 21 or more combat damage by the same commander."""
    for p in s.board.players:
        if p.lost:
            continue
        hits = sorted((c, n) for c, n in p.commander_damage.items() if n >= 21)
        if hits:
            why = " ; ".join(f"{n} blessures de combat infligées par {s.label(c)}" for c, n in hits)
            yield Finding("704.6c", ActionKind.LOSE_GAME, p.name, "player", why)


# The zones from which a commander may go to the command zone.
COMMANDER_LEAVES_TO = frozenset({"graveyard", "exile"})


def commander_to_command_zone(s: Snapshot) -> Iterator[Outcome]:
    """704.6d — Commander: a commander put into a graveyard or exile since the last check may
    be put into the command zone by its owner."""
    moves = s.board.choices.commander_moves
    for o in s.board.other_zones:
        if not (o.commander and o.moved_since_last_check and o.zone in COMMANDER_LEAVES_TO):
            continue
        at = ZONE_AT[o.zone]
        why = f"commandant mis {at} depuis la dernière vérification"
        choice = moves.get(o.id)
        key = choice_key("704.6d", o.id)
        label = f"{o.name} ({o.id})" if o.name and o.name != o.id else o.id
        if choice is None:
            yield ChoiceNeeded(
                "704.6d",
                o.owner,
                f"de mettre {label} dans la zone de commandement ou de le laisser {at}",
                ("zone de commandement", f"laisser {at}"),
                o.id,
                why,
            )
        elif choice:
            yield Finding(
                "704.6d",
                ActionKind.MOVE_TO_COMMAND_ZONE,
                o.id,
                why=f"{why} ; {o.owner} choisit de l'y mettre",
                choice=key,
            )
        else:
            yield Finding(
                "704.6d",
                NoteKind.DECLINED,
                o.id,
                why=f"{why} ; {o.owner} choisit de le laisser {at}",
                note=True,
                choice=key,
            )


# --- 704.6e–f: Archenemy and Planechase -------------------------------------------------


def scheme_face_up(s: Snapshot) -> Iterator[Outcome]:
    """704.6e — Archenemy: a non-ongoing scheme face up in the command zone, with no
    triggered ability of any scheme on the stack or waiting, is turned face down and put on
    the bottom of its owner's scheme deck."""
    schemes = [o for o in s.board.other_zones if o.scheme]
    ids = {o.id for o in schemes}
    pending = [o.id for o in schemes if o.trigger_on_stack]
    pending += [i.source for i in s.board.stack if i.source in ids]
    for o in schemes:
        if not (o.face_up and o.zone == "command") or o.ongoing:
            continue
        if pending:
            yield Finding(
                "704.6e",
                NoteKind.NOT_APPLICABLE,
                o.id,
                why=f"machination face visible, mais une capacité déclenchée de "
                f"{', '.join(sorted(set(pending)))} est sur la pile ou attend d'y être mise",
                note=True,
            )
        else:
            yield Finding(
                "704.6e",
                ActionKind.SCHEME_TO_BOTTOM,
                o.id,
                why="machination non continue face visible dans la zone de commandement",
            )


def phenomenon_face_up(s: Snapshot) -> Iterator[Outcome]:
    """704.6f — Planechase: a phenomenon face up in the command zone that is not the source
    of a triggered ability on the stack: the planar controller planeswalks."""
    board = s.board
    controller = board.planar_controller or board.active_player or board.players[0].name
    for o in board.other_zones:
        if not (o.phenomenon and o.face_up and o.zone == "command"):
            continue
        if o.trigger_on_stack:
            yield Finding(
                "704.6f",
                NoteKind.NOT_APPLICABLE,
                o.id,
                why="phénomène face visible, mais sa capacité déclenchée est encore sur la pile",
                note=True,
            )
        else:
            yield Finding(
                "704.6f",
                ActionKind.PLANESWALK,
                controller,
                "player",
                f"le phénomène {o.name} ({o.id}) est face visible dans la zone de commandement ; "
                f"{controller}, contrôleur planaire, change de plan",
                value=o.id,
            )


# --- the registry ----------------------------------------------------------------

REGISTRY: tuple[Check, ...] = (
    Check("704.5a", player_zero_or_less_life),
    Check("704.5b", player_drew_from_empty_library),
    Check(
        "704.5c",
        player_ten_or_more_poison,
        frozenset({"normal", "commander", "archenemy", "planechase"}),
    ),
    Check("704.5d", token_outside_battlefield),
    Check("704.5e", copy_outside_allowed_zone),
    Check("704.5f", creature_zero_or_less_toughness),
    Check("704.5g", creature_lethal_damage),
    Check("704.5h", creature_deathtouch_damage),
    Check("704.5i", planeswalker_zero_loyalty),
    Check("704.5j", legend_rule),
    Check("704.5k", world_rule),
    Check("704.5m", aura_illegally_attached),
    Check("704.5n", equipment_illegally_attached),
    Check("704.5p", creature_or_other_attached),
    Check("704.5q", plus_minus_counters_cancel),
    Check("704.5r", counters_over_maximum),
    Check("704.5s", saga_past_final_chapter),
    Check("704.5t", dungeon_completed),
    Check("704.5u", creatures_without_sector),
    Check("704.5v", battle_zero_defense),
    Check("704.5w", battle_without_protector),
    Check("704.5x", siege_protected_by_controller),
    Check("704.5y", several_roles_same_player),
    Check("704.6a", team_zero_or_less_life, frozenset({"two-headed-giant"})),
    Check("704.6b", team_fifteen_or_more_poison, frozenset({"two-headed-giant"})),
    Check("704.6c", commander_damage_21, frozenset({"commander"})),
    Check("704.6d", commander_to_command_zone, frozenset({"commander"})),
    Check("704.6e", scheme_face_up, frozenset({"archenemy"})),
    Check("704.6f", phenomenon_face_up, frozenset({"planechase"})),
)

# Rules the loop and the replacements cite besides the registry.
LOOP_RULE = "704.3"
SAME_RESULT_RULE = "704.7"
LAST_KNOWN_INFORMATION_RULE = "704.8"
CITED_RULES: tuple[str, ...] = (
    *(c.rule for c in REGISTRY),
    LOOP_RULE,
    SAME_RESULT_RULE,
    LAST_KNOWN_INFORMATION_RULE,
)

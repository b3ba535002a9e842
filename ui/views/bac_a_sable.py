"""Bac à sable: build or load a board, run the state-based actions, read why.

`?plateau=704-8-louveteau` opens a board of the gallery (corpus/boards/)."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from judge import (
    CARD_TYPES,
    RULE_SUBTYPES,
    RULESETS,
    SECTORS,
    SUPERTYPES,
    VARIANTS,
    ZONES,
    Board,
    ChoiceNeeded,
    Finding,
    Judge,
    JudgeError,
    RuleText,
    SandboxView,
    ability_label,
    board_to_dict,
    decode_board_text,
    feminine_ids,
    find_ruleset,
    finding_label,
    load_board,
    subject_label,
)
from judge.fr import (
    COUNTER_LABELS,
    RULESET_LABELS,
    STOP_LABELS,
    SUPERTYPE_LABELS,
    TERM_LABELS,
    VARIANT_LABELS,
    ZONE_LABELS,
)
from ui import links, resources
from ui.render import md, say
from ui.views import board_tables as bt

BOARD = "bac-plateau"  # the board being edited (file format dict)
VERSION = "bac-version"  # bumped whenever BOARD is replaced: the editors start afresh
RUN = "bac-lance"  # the board as it was when "Lancer" was pressed
LOADED_FROM = "bac-source"  # gallery name or file name of the board
UPLOAD_SEEN = "bac-fichier-lu"
BOTH = "bac-deux-regles"
CHOSEN = "bac-jeu"  # the ruleset chosen: a shipped ruleset's name or an edition's id
RUN_RULESET = "bac-lance-jeu"  # ... as it was when "Lancer" was pressed
# « Règles anglaises du 2025-11-14 »: an edition's ruleset, by its language.
RULES_OF_LANGUAGE = {"en": "anglaises", "fr": "françaises"}
PASTED = "texte collé"
PASTE_EXAMPLE = (
    "ruleset fr-2024\nplayer Alice life=0\nplayer Bob\n"
    "perm ours controller=Bob owner=Bob creature 2/2 damage=2"
)
MAX_BOARD_BYTES = 1024 * 1024
KEYWORDS = ("persist", "undying", "indestructible", "deathtouch", "protection")
BLANK: dict[str, Any] = {
    "ruleset": "fr-2024",
    "variant": "normal",
    "players": [{"name": "Alice", "life": 20}, {"name": "Bob", "life": 20}],
    "permanents": [],
    "other_zones": [],
}


def gallery() -> dict[str, Path]:
    """The example boards of the corpus (corpus/boards/), by name."""
    return resources.judge().gallery()


def _set_board(board: dict[str, Any], source: str | None, keep_ruleset: bool = False) -> None:
    """A new board to edit; it brings its own ruleset unless `keep_ruleset`."""
    board = {k: v for k, v in board.items() if k != "expected"}
    st.session_state[BOARD] = board
    st.session_state[VERSION] = st.session_state.get(VERSION, 0) + 1
    st.session_state[LOADED_FROM] = source
    if not keep_ruleset or CHOSEN not in st.session_state:
        st.session_state[CHOSEN] = str(board.get("ruleset") or BLANK["ruleset"])
    st.session_state.pop(RUN, None)


def _run_board(board: dict[str, Any]) -> None:
    """Run `board` under the ruleset chosen."""
    st.session_state[RUN] = board
    st.session_state[RUN_RULESET] = st.session_state.get(CHOSEN) or board.get("ruleset")


# --- rulesets -----------------------------------------------------------------------


def rulesets() -> list[str]:
    """The shipped rulesets, then each edition of the store whose state-based actions the
    engine runs (an English edition ingested: `judge sba --ruleset en-2025-11-14`)."""
    return [*RULESETS, *resources.edition_rulesets()]


def ruleset_label(judge: Judge, name: str) -> str:
    """« Règles complètes 2024 (704) », « Règles anglaises du 2025-11-14 »."""
    shipped = RULESET_LABELS.get(name)
    if shipped is not None:
        return shipped[:1].upper() + shipped[1:]
    if not judge.has_edition(name):
        return name
    ed = next(e for e in judge.editions() if e.id == name)
    rules = " ".join(filter(None, ("Règles", RULES_OF_LANGUAGE.get(ed.language))))
    if len(ed.date) == 10:  # 2025-11-14
        return f"{rules} du {ed.date}"
    return f"{rules} de l'édition {ed.id}"


def _family(judge: Judge, name: str) -> str:
    """The shipped ruleset of `name`'s numbering (an edition of 704 is 2024's family, one of
    420 the old rules'): the other numbering is shown beside it."""
    if name in RULESETS:
        return name
    return "fr-pre2009" if resources.edition_rulesets().get(name) == "420" else "fr-2024"


def _board_url(name: str | None, ruleset: str | None) -> dict[str, str]:
    """The page's address: the gallery's board, the ruleset unless it is the board's own."""
    params = links.board_params(name) if name else {}
    if ruleset:
        params[links.RULESET] = ruleset
    return params


def _read_gallery(name: str) -> dict[str, Any]:
    path = gallery()[name]
    return decode_board_text(path.read_text(encoding="utf-8"), path.name)


def _init(judge: Judge) -> None:
    wanted = st.query_params.get(links.BOARD, "")
    ruleset = st.query_params.get(links.RULESET, "")
    known = rulesets()
    if ruleset and ruleset not in known:
        st.warning(
            md(
                f"Jeu de règles « {ruleset} » inconnu : le plateau suit le sien. Jeux de "
                f"règles disponibles : {', '.join(known)}."
            ),
            icon=":material/warning:",
        )
        ruleset = ""
    if wanted and wanted != st.session_state.get(LOADED_FROM):
        if wanted in gallery():
            _open_gallery(wanted, ruleset)
        else:
            st.error(md(f"Plateau « {wanted} » introuvable dans la galerie."))
    if BOARD not in st.session_state:
        _set_board(copy.deepcopy(BLANK), None)
    if ruleset and ruleset != st.session_state.get(CHOSEN):
        # A link (or Back) to another ruleset: the board runs again under it.
        st.session_state[CHOSEN] = ruleset
        st.session_state[VERSION] += 1
        if RUN in st.session_state:
            _run_board(st.session_state[RUN])


# --- loading ----------------------------------------------------------------------


def _open_gallery(name: str, ruleset: str = "") -> None:
    """A board of the gallery, run at once: an example is opened to read its verdict."""
    _set_board(_read_gallery(name), name)
    if ruleset:
        st.session_state[CHOSEN] = ruleset
    _run_board(copy.deepcopy(st.session_state[BOARD]))


def _on_gallery() -> None:
    name = st.session_state.get("bac-galerie")
    if name:
        _open_gallery(name)
        st.query_params.from_dict(links.board_params(name))


def _sources() -> None:
    names = list(gallery())
    left, right = st.columns(2)
    with left:
        current = st.session_state.get(LOADED_FROM)
        st.selectbox(
            "Galerie",
            [""] + names,
            index=(names.index(current) + 1) if current in names else 0,
            format_func=lambda n: n or "Choisir un plateau de la galerie…",
            key="bac-galerie",
            on_change=_on_gallery,
            placeholder="Choisir…",
        )
        if st.button("Nouveau plateau vide", icon=":material/note_add:"):
            _set_board(copy.deepcopy(BLANK), None)
            st.query_params.clear()
            st.rerun()
    with right:
        upload = st.file_uploader(
            "Charger un plateau (JSON)",
            type=["json", "txt"],
            max_upload_size=1,
            # Streamlit draws the box's « Upload » and « 1MB per file » in English.
            help="« Upload » : choisir un fichier JSON ou texte, 1 Mio au plus.",
            key=f"bac-fichier-{st.session_state[VERSION]}",
        )
        if upload is not None and st.session_state.get(UPLOAD_SEEN) != upload.file_id:
            st.session_state[UPLOAD_SEEN] = upload.file_id
            _load_upload(upload.name, upload.getvalue())
    with st.expander("Coller un plateau (JSON ou forme compacte)"):
        with st.form("bac-coller", border=False):
            pasted = st.text_area(
                "Plateau en JSON ou en forme compacte, une ligne par élément",
                height=160,
                placeholder=PASTE_EXAMPLE,
                max_chars=MAX_BOARD_BYTES,
            )
            go = st.form_submit_button("Charger ce plateau", icon=":material/content_paste:")
        if go:
            _load_text(pasted, PASTED)


def _load_upload(name: str, data: bytes) -> None:
    if len(data) > MAX_BOARD_BYTES:
        st.error(md(f"« {name} » est trop gros pour un plateau (1 Mio au plus)."))
        return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        st.error(md(f"« {name} » n'est pas un texte UTF-8 (octet {exc.start})."))
        return
    _load_text(text, name)


def _load_text(text: str, name: str) -> None:
    if not text.strip():
        st.error("Collez d'abord un plateau, en JSON ou en forme compacte.")
        return
    try:
        board = decode_board_text(text, name)
        load_board(board)
    except JudgeError as exc:
        st.error(say(f"Plateau refusé : {exc.message}"), icon=":material/error:")
        return
    _set_board(board, name)
    st.query_params.clear()
    st.rerun()


# --- editing ----------------------------------------------------------------------


def _player_names(board: dict[str, Any]) -> list[str]:
    return [str(p.get("name")) for p in board.get("players") or [] if p.get("name")]


# A phone's screen (390 px) holds four narrow columns: each table shows one group of its
# columns at a time (the name in each, to know the row), « Toutes » all of them.
ALL_COLUMNS = "Toutes"
COLUMN_GROUPS: dict[str, dict[str, tuple[str, ...]]] = {
    "joueurs": {
        "Vie": ("name", "life", "poison"),
        "Défaite": ("name", "drew_from_empty_library", "cant_lose", "lost"),
        "Autres": ("name", bt.EXTRA),
    },
    "permanents": {
        "Objet": ("id", "name", "controller", "owner"),
        "Types": ("name", "types", "supertypes", "subtypes"),
        "Blessures": ("name", "power", "toughness", "damage"),
        "Marqueurs": ("name", "counters", "deathtouch_damage", "regeneration_shields"),
        "Capacités": ("name", "keywords", "indestructible", "token"),
        "Autres": ("name", "attached_to", bt.EXTRA),
    },
    "zones": {
        "Objet": ("id", "name", "zone", "owner"),
        "Autres": ("name", "token", bt.EXTRA),
    },
}
EDITED = "bac-tables"  # the board the tables described at the end of the last run
NARROW = 72  # px: four columns and the row selector fit in a phone's 322 px
WIDE = 140  # px: the free text of « Autres champs (JSON) », beside two narrow ones


def _keep_edits() -> None:
    """Another group of columns: the new editor starts from the board as edited so far (an
    editor whose columns change starts afresh)."""
    edited = st.session_state.get(EDITED)
    if edited is not None:
        st.session_state[BOARD] = edited
        st.session_state[VERSION] += 1


def _table(frame: Any, table: str, columns: dict[str, Any]) -> Any:
    """One of the board's editable tables (rows may be added and deleted), one group of its
    columns at a time; every column keeps its value when hidden."""
    groups = COLUMN_GROUPS[table]
    options = [*groups, ALL_COLUMNS]
    picked = st.pills(
        "Colonnes",
        options,
        default=options[0],
        key=f"bac-colonnes-{table}",
        on_change=_keep_edits,
        label_visibility="collapsed",
    )
    group = str(picked or options[0])
    # The headers of narrow columns are cut: their whole labels, in order.
    shown = groups.get(group)
    if shown is not None:
        st.caption(md(" · ".join(bt.LABELS[c] for c in shown)))
    return st.data_editor(
        frame,
        num_rows="dynamic",
        hide_index=True,
        placeholder="—",
        key=f"bac-{table}-{st.session_state[VERSION]}-{options.index(group)}",
        column_config=columns,
        column_order=groups.get(group),
    )


def _column(kind: Any, field: str, **config: Any) -> Any:
    """A column of width NARROW (WIDE for the JSON), its whole label on hover."""
    width = WIDE if field == bt.EXTRA else NARROW
    label = bt.LABELS[field]
    hint = config.pop("help", None)
    return kind(label, width=width, help=f"{label} : {hint}" if hint else label, **config)


def _on_ruleset(key: str) -> None:
    """Another ruleset chosen: it goes into the page's address."""
    chosen = str(st.session_state[key])
    st.session_state[CHOSEN] = chosen
    board = st.session_state[BOARD]
    own = chosen == board.get("ruleset")
    source = st.session_state.get(LOADED_FROM)
    name = source if source in gallery() else None
    st.query_params.from_dict(_board_url(name, None if own else chosen))
    if RUN in st.session_state:  # the verdict shown follows the ruleset in the address
        st.session_state[RUN_RULESET] = chosen


def _editors(judge: Judge, board: dict[str, Any]) -> dict[str, Any] | None:
    """The editing widgets; returns the board they describe (None when a cell is wrong)."""
    v = st.session_state[VERSION]
    description = board.get("description") or ""
    if description:
        st.info(md(description), icon=":material/description:")
    a, b, c = st.columns(3)
    options = rulesets()  # by name, the editions' ids after the shipped ones
    chosen = st.session_state.get(CHOSEN) or board.get("ruleset", "fr-2024")
    if chosen not in options:  # an edition removed from the store since
        chosen = board.get("ruleset", "fr-2024")
    ruleset = a.selectbox(
        "Jeu de règles",
        options,
        index=options.index(chosen),
        format_func=lambda r: ruleset_label(judge, str(r)),
        key=f"bac-regles-{v}",
        on_change=_on_ruleset,
        args=(f"bac-regles-{v}",),
        placeholder="Choisir…",
    )
    st.session_state[CHOSEN] = ruleset
    variant = b.selectbox(
        "Variante",
        VARIANTS,
        index=VARIANTS.index(board.get("variant", "normal")),
        format_func=lambda x: VARIANT_LABELS.get(x, x),
        key=f"bac-variante-{v}",
        placeholder="Choisir…",
    )
    names = _player_names(board)
    active = board.get("active_player") or ""
    options = ["", *names] if active in names or not active else ["", active, *names]
    active = c.selectbox(
        "Joueur actif",
        options,
        index=options.index(active),
        format_func=lambda n: n or "(non précisé)",
        key=f"bac-actif-{v}",
        placeholder="Choisir…",
    )
    cfg = st.column_config
    text, number, check = cfg.TextColumn, cfg.NumberColumn, cfg.CheckboxColumn
    st.markdown("**Joueurs**")
    players = _table(
        bt.players_frame(board),
        "joueurs",
        {
            "name": _column(text, "name", required=True),
            "life": _column(number, "life", step=1, default=20),
            "poison": _column(number, "poison", min_value=0, step=1, default=0),
            "drew_from_empty_library": _column(check, "drew_from_empty_library"),
            "cant_lose": _column(check, "cant_lose"),
            "lost": _column(check, "lost"),
            bt.EXTRA: _column(text, bt.EXTRA, help="commander_damage, loss_replacement…"),
        },
    )
    st.markdown("**Permanents** (force et endurance actuelles, marqueurs compris)")
    permanents = _table(
        bt.permanents_frame(board),
        "permanents",
        {
            "id": _column(text, "id", required=True),
            "name": _column(text, "name"),
            "controller": _column(cfg.SelectboxColumn, "controller", options=names),
            "owner": _column(cfg.SelectboxColumn, "owner", options=names),
            "types": _column(
                cfg.MultiselectColumn,
                "types",
                options=sorted(CARD_TYPES),
                format_func=lambda t: TERM_LABELS.get(t, t),
            ),
            "supertypes": _column(
                cfg.MultiselectColumn,
                "supertypes",
                options=sorted(SUPERTYPES),
                format_func=lambda t: SUPERTYPE_LABELS.get(t, t),
            ),
            "subtypes": _column(
                cfg.MultiselectColumn,
                "subtypes",
                options=sorted(RULE_SUBTYPES.values()),
                accept_new_options=True,
            ),
            "power": _column(number, "power", step=1),
            "toughness": _column(number, "toughness", step=1),
            "damage": _column(number, "damage", min_value=0, step=1, default=0),
            "deathtouch_damage": _column(
                number, "deathtouch_damage", min_value=0, step=1, default=0
            ),
            "counters": _column(text, "counters", help="type: nombre, séparés par des virgules"),
            "keywords": _column(
                cfg.MultiselectColumn, "keywords", options=KEYWORDS, accept_new_options=True
            ),
            "indestructible": _column(check, "indestructible"),
            "regeneration_shields": _column(
                number, "regeneration_shields", min_value=0, step=1, default=0
            ),
            "token": _column(check, "token"),
            "attached_to": _column(text, "attached_to"),
            bt.EXTRA: _column(text, bt.EXTRA, help="enchant, colors, protection_from, timestamp…"),
        },
    )
    st.markdown("**Autres zones** (cartes, jetons et copies hors du champ de bataille)")
    others = _table(
        bt.others_frame(board),
        "zones",
        {
            "id": _column(text, "id", required=True),
            "name": _column(text, "name"),
            "zone": _column(
                cfg.SelectboxColumn,
                "zone",
                options=ZONES,
                format_func=lambda z: ZONE_LABELS.get(str(z), str(z)),
            ),
            "owner": _column(cfg.SelectboxColumn, "owner", options=names),
            "token": _column(check, "token"),
            bt.EXTRA: _column(text, bt.EXTRA),
        },
    )
    with st.expander("Équipes, pile et choix déjà faits (JSON)"):
        more = st.text_area(
            "teams, stack, choices",
            bt.more_json(board),
            height=160,
            key=f"bac-json-{v}",
            label_visibility="collapsed",
        )
    settings = {
        "description": description,
        # The board names the ruleset chosen, an edition's id included (the format takes it).
        "ruleset": str(ruleset),
        "variant": variant,
        "active_player": active,
    }
    try:
        edited = bt.board_from_tables(settings, players, permanents, others, more)
    except bt.TableError as exc:
        st.error(say(exc.message), icon=":material/table:")
        st.session_state.pop(EDITED, None)  # a wrong cell stays in its editor
        return None
    st.session_state[EDITED] = edited
    return edited


# --- results ----------------------------------------------------------------------

DETAILS = "Détails pour les arbitres"


def display_names(names: Mapping[str, str]) -> dict[str, str]:
    """Each object's name as a player reads it: its name, numbered when several objects
    share it (« Louveteau n° 2 »); the board's ids are for the referees' details."""
    by_name: dict[str, list[str]] = {}
    for ident, name in names.items():
        by_name.setdefault(name or ident, []).append(ident)
    out: dict[str, str] = {}
    for name, idents in by_name.items():
        for k, ident in enumerate(idents, start=1):
            out[ident] = name if len(idents) == 1 else f"{name} n° {k}"
    return out


def _subject(f: Finding, shown_names: Mapping[str, str]) -> str:
    if f.subject_kind in ("player", "team"):
        return subject_label(f, shown_names)
    return shown_names.get(f.subject, f.subject)


def counters_fr(counters: Mapping[str, int]) -> str:
    """« loyauté : 3, +1/+1 : 2 »: the final board's counters, in French."""
    return ", ".join(f"{COUNTER_LABELS.get(kind, kind)} : {n}" for kind, n in counters.items())


def _cell(value: object) -> str:
    """A table cell: nothing rather than `None`."""
    return "" if value is None else str(value)


def _details(names: Mapping[str, str], shown_names: Mapping[str, str]) -> None:
    """The board's ids behind the names shown, for a referee who reads the board file."""
    if not names:
        return
    with st.expander(DETAILS):
        st.caption("Identifiant de chaque objet dans le fichier du plateau :")
        for ident in names:
            st.markdown(md(f"{shown_names.get(ident, ident)} : {ident}"))


def _rule_links(rules: tuple[str, ...], edition: str) -> None:
    for r in rules:
        links.rule_link(r, edition, icon=":material/gavel:")


def _quote(rule_text: RuleText, rules: tuple[str, ...]) -> None:
    for r in rules:
        text = rule_text(r)
        if text:
            st.caption(md(f"« {r} {text} »"))
        else:
            st.caption(md(f"Texte de {r} absent du corpus."))


def _finding(
    rule_text: RuleText, f: Finding, names: Mapping[str, str], edition: str, feminine: set[str]
) -> None:
    label = finding_label(f, feminine)
    rules = (f.rule, *f.also)
    with st.container(border=True):
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            _rule_links(rules, edition)
            badge = "gray" if f.note else "orange"
            st.markdown(
                f":{badge}-badge[{md(label)}] **{md(_subject(f, names))}**", width="content"
            )
        if f.why:
            st.markdown(md(f"Pourquoi : {f.why}"))
        _quote(rule_text, rules)


def _choice_entries(c: ChoiceNeeded, option: str, board: Board) -> list[dict[str, Any]]:
    """The `choices` items of the board file that make choice `c` with `option`."""
    if c.rule == "704.5j":
        return [{"rule": c.rule, "keep": option}]
    if c.rule == "704.5u":
        # Creatures whose sector the board already states are not asked again.
        stated = board.choices.sectors
        missing = [
            p.id
            for p in board.permanents
            if p.is_creature
            and p.sector is None
            and p.id not in stated
            and p.controller == c.player
        ]
        return [{"rule": c.rule, "creature": i, "sector": option} for i in missing]
    if c.rule in ("704.5w", "704.5x"):
        return [{"rule": c.rule, "battle": c.subject, "protector": option}]
    if c.rule == "704.6d":
        return [{"rule": c.rule, "commander": c.subject, "to_command_zone": option == c.options[0]}]
    return []


def _choices(view: SandboxView, edition: str, column: str, feminine: set[str]) -> None:
    res, rule_text = view.resolution, view.rule_text
    if not res.choices_needed:
        return
    shown_names = display_names(res.names)
    st.markdown("#### Choix attendus")
    for n, c in enumerate(res.choices_needed):
        with st.container(border=True):
            with st.container(horizontal=True, gap="small", vertical_alignment="center"):
                _rule_links((c.rule,), edition)
                st.markdown(md(f"{c.player} doit choisir {c.choose}"), width="content")
            if c.why:
                st.markdown(md(f"Pourquoi : {c.why}"))
            _quote(rule_text, (c.rule,))
            options = list(c.options)
            if c.rule == "704.5u":
                options = [o for o in options if o in SECTORS]
            picked = st.selectbox(
                "Choix",
                options,
                key=f"bac-choix-{column}-{n}-{c.rule}-{c.subject}",
                format_func=lambda o: shown_names.get(o, o),
                placeholder="Choisir…",
            )
            entries = _choice_entries(c, str(picked), res.final)
            if st.button(
                "Faire ce choix et relancer",
                key=f"bac-choisir-{column}-{n}",
                icon=":material/replay:",
                disabled=not entries,
            ):
                board = copy.deepcopy(st.session_state[RUN])
                board["choices"] = [*board.get("choices", []), *entries]
                _set_board(board, st.session_state.get(LOADED_FROM), keep_ruleset=True)
                st.session_state[RUN] = board
                st.rerun()
    if res.pending:
        st.markdown("**Actions qui seront effectuées en même temps que ces choix :**")
        for f in res.pending:
            _finding(rule_text, f, shown_names, edition, feminine)


def _facts(*parts: tuple[str, object]) -> str:
    """« contrôleur : Alice · F/E : 2/2 »: the parts that have a value, as escaped text."""
    return " · ".join(md(f"{label} : {value}") for label, value in parts if value not in ("", None))


def _final_board(board: Board, shown_names: Mapping[str, str], column: str) -> None:
    """The final board as cards, one line per object: a phone reads it without swiping."""
    st.markdown("#### Plateau final")
    with st.container(key=f"bac-plateau-final-{column}"):
        for p in board.players:
            lost = " — :red-badge[a perdu]" if p.lost else ""
            facts = _facts(("points de vie", p.life), ("poison", p.poison))
            st.markdown(f"**{md(p.name)}** — {facts}{lost}")
        if not board.permanents:
            st.caption("Champ de bataille vide.")
        for perm in board.permanents:
            pt = f"{_cell(perm.power)}/{perm.toughness}" if perm.toughness is not None else ""
            facts = _facts(
                ("contrôleur", _cell(perm.controller)),
                ("F/E", pt),
                ("blessures", _cell(perm.damage or None)),
                ("marqueurs", counters_fr(perm.counters)),
                ("attaché à", shown_names.get(perm.attached_to or "", perm.attached_to or "")),
            )
            name = shown_names.get(perm.id, perm.name or perm.id)
            st.markdown(
                f":gray-badge[champ de bataille] **{md(name)}**" + (f" — {facts}" if facts else "")
            )
        for o in board.other_zones:
            facts = _facts(("propriétaire", _cell(o.owner)), ("jeton", "oui" if o.token else ""))
            name = shown_names.get(o.id, o.name or o.id)
            zone = ZONE_LABELS.get(o.zone, o.zone)
            st.markdown(
                f":gray-badge[{md(zone)}] **{md(name)}**" + (f" — {facts}" if facts else "")
            )
    if board.stack:
        st.markdown("**Pile** (du bas vers le haut)")
        for s in board.stack:
            st.markdown(
                "- "
                + md(
                    f"{ability_label(s.ability)} — source {shown_names.get(s.source, s.source)}, "
                    f"contrôlée par {s.controller}"
                )
            )


def show_resolution(view: SandboxView, column: str) -> None:
    """One ruleset's resolution, each action quoted from the edition the ruleset follows."""
    res, rule_text = view.resolution, view.rule_text
    # The edition whose rules it quotes (an edition's ruleset quotes that edition).
    edition = res.edition or find_ruleset(res.ruleset).edition
    names = display_names(res.names)
    feminine = feminine_ids(res.initial)
    st.subheader(md(ruleset_label(resources.judge(), res.ruleset)), anchor=False)
    # The verdict first: on a phone it is on the first screen, the passes explain it below.
    with st.container(key=f"bac-verdict-{column}"):
        if res.losers:
            st.error(md(f"Ont perdu la partie : {', '.join(res.losers)}."), icon=":material/flag:")
        elif res.choices_needed:
            st.info("Un choix est attendu avant de conclure (voir « Choix attendus »).")
        else:
            st.success("Aucun joueur ne perd la partie.")
    for w in res.warnings:
        st.warning(say(w))
    if not res.passes and not res.choices_needed:
        st.info("Aucune action basée sur un état ne s'applique.")
    for p in res.passes:
        st.markdown(f"#### Passe {p.number}" + ("" if p.actions else " : aucune action"))
        for a in p.actions:
            _finding(rule_text, a, names, edition, feminine)
        if p.not_applied:
            st.markdown("**Non appliqué**")
            for f in p.not_applied:
                _finding(rule_text, f, names, edition, feminine)
    if res.triggers:
        st.markdown("#### Capacités déclenchées mises sur la pile")
        for t in res.triggers:
            with st.container(border=True):
                with st.container(horizontal=True, gap="small", vertical_alignment="center"):
                    _rule_links((t.rule,), edition)
                    st.markdown(
                        f":green-badge[{md(ability_label(t.ability))}] "
                        f"**{md(names.get(t.source, t.name))}**"
                    )
                st.markdown(
                    md(f"Contrôlée par {t.controller}, après la passe {t.after_pass} — {t.why}")
                )
                _quote(rule_text, (t.rule,))
    _choices(view, edition, column, feminine)
    if res.stopped and res.stopped != "choice":
        st.warning(md(STOP_LABELS.get(res.stopped, res.stopped)))
    _final_board(res.final, names, column)
    _details(res.names, names)
    st.download_button(
        "Télécharger le plateau final (JSON)",
        json.dumps(board_to_dict(res.final), ensure_ascii=False, indent=2),
        file_name=f"plateau-final-{res.ruleset}.json",
        mime="application/json",
        key=f"bac-final-{column}",
        icon=":material/download:",
    )


def _side_by_side(judge: Judge, chosen: str) -> list[str]:
    """The ruleset chosen, then the shipped one of the other numbering (704 beside 420)."""
    family = _family(judge, chosen)
    return [chosen, *(r for r in RULESETS if r != family)]


def _results(judge: Judge, board_dict: dict[str, Any], chosen: str, both: bool) -> None:
    try:
        loaded = load_board(board_dict)
    except JudgeError as exc:
        st.error(say(f"Plateau refusé : {exc.message}"), icon=":material/error:")
        return
    for w in loaded.warnings:
        st.warning(say(w))
    board = loaded.board
    if chosen not in rulesets():
        chosen = board.ruleset
    names = _side_by_side(judge, chosen) if both else [chosen]
    columns = st.columns(len(names), gap="large")
    for col, rs in zip(columns, names, strict=True):
        with col:
            try:
                view = judge.resolve(board, rs)
            except JudgeError as exc:
                st.error(say(exc.message))
                continue
            show_resolution(view, rs)


def _controls(judge: Judge) -> tuple[dict[str, Any] | None, bool, bool]:
    """Where the board comes from, its tables, and « Lancer »: (the board the tables
    describe, or None; both rulesets; whether « Lancer » was pressed)."""
    _sources()
    current = _editors(judge, st.session_state[BOARD])
    with st.container(horizontal=True, vertical_alignment="center"):
        both = st.toggle("Les deux jeux de règles côte à côte", key=BOTH)
        run = st.button(
            "Lancer", type="primary", icon=":material/play_arrow:", disabled=current is None
        )
        if current is not None:
            name = st.session_state.get(LOADED_FROM) or "plateau"
            st.download_button(
                "Télécharger le plateau (JSON)",
                json.dumps(current, ensure_ascii=False, indent=2),
                file_name=f"{Path(str(name)).stem}.json",
                mime="application/json",
                icon=":material/download:",
            )
    return current, both, run


def main() -> None:
    st.title("Bac à sable")
    st.caption(
        "Décrivez une situation de jeu, puis lancez les actions basées sur un état : chaque "
        "action est justifiée par sa règle."
    )
    judge = resources.judge()
    _init(judge)
    # On a phone the verdict comes first: once a board has run, its results take the top
    # of the page and the board's controls fold into an expander below them.
    results = st.container()
    ran = RUN in st.session_state
    name = st.session_state.get(LOADED_FROM) or "plateau en cours"
    place = (
        st.expander(md(f"Modifier le plateau ({name})"), icon=":material/edit:")
        if ran
        else st.container()
    )
    with place:
        current, both, run = _controls(judge)
    if run and current is not None:
        _run_board(current)
    if RUN in st.session_state:
        chosen = str(st.session_state.get(RUN_RULESET) or st.session_state[RUN]["ruleset"])
        with results:
            _results(judge, st.session_state[RUN], chosen, both)
            st.divider()


main()

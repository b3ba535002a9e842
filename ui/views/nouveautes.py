"""Nouveautés: what changed from one edition to another (`Judge.changes`).

`nouveautes?de=fr-pre2009&vers=fr-2024&section=704`; without `de` and `vers`, the latest
release: the two newest editions of one language that share a section (`latest_pair`)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from judge import Changes, Edition, Judge, JudgeError, NoEditionPair, Rule
from judge.fr import CHANGE_KINDS, LANGUAGE_NAMES, when
from ui import links, resources
from ui.render import diff_inline, md, say, shorten
from ui.views import common

SECTION = "section"  # query-string key: the section number of the rules listed (« 704 »)
MAX_LISTED = 200


def changes_params(old: str, new: str, section: str = "") -> dict[str, str]:
    params = {links.FROM: old, links.TO: new}
    if section:
        params[SECTION] = section
    return params


def _section(number: str) -> str:
    return number.split(".")[0]


def _when(ed: Edition) -> str:
    return when(ed.date, ed.era)


def _selector(judge: Judge, old: str, new: str, section: str) -> None:
    # On a phone the changes come first: the pickers fold away.
    where = f" — section {section}" if section else ""
    place = st.expander(md(f"{old} → {new}{where}"), icon=":material/tune:")
    a, b, c = place.columns([3, 3, 1.5], vertical_alignment="bottom")
    chosen_old = common.edition_picker(a, judge, "De", old, "nv-de")
    chosen_new = common.edition_picker(b, judge, "Vers", new, "nv-vers")
    typed = c.text_input(
        "Section", value=section, placeholder="ex. 704", key=f"nv-section-{section}"
    ).strip()
    if (chosen_old, chosen_new, typed) != (old, new, section):
        st.query_params.from_dict(changes_params(chosen_old, chosen_new, typed))
        st.rerun()


def _sections(ed: Edition) -> frozenset[str]:
    """The sections (`704`) of which `ed` holds the text of at least one rule."""
    return frozenset(
        _section(r.number) for r in ed.rules.values() if not r.title_only and r.text.strip()
    )


def _pairs(judge: Judge) -> list[tuple[str, str]]:
    """Every (older, newer) pair of editions of one language, the newest pair first: by the
    newer edition, then by the older one."""
    editions = judge.editions()  # newest first
    return [
        (old.id, new.id)
        for i, new in enumerate(editions)
        for old in editions[i + 1 :]
        if old.language == new.language
    ]


def latest_pair(judge: Judge) -> tuple[str, str] | None:
    """The latest release worth reading: the two newest editions of one language that share
    a section (two editions of the complete rules); else the newest pair whose changes are
    not empty (a section renumbered, such as 420 → 704); else the library's default (the two
    newest of the newest edition's language); None when no language has two editions."""
    pairs = _pairs(judge)
    if not pairs:
        return None
    sections: dict[str, frozenset[str]] = {}

    def of(eid: str) -> frozenset[str]:
        if eid not in sections:
            sections[eid] = _sections(judge.edition(eid))
        return sections[eid]

    for old, new in pairs:
        if of(old) & of(new):
            return old, new
    for old, new in pairs:
        c = judge.changes(old, new)
        if c.added or c.removed or c.changed or c.moved:
            return old, new
    try:
        found = judge.changes()
    except NoEditionPair:
        return pairs[0]
    return found.old.id, found.new.id


def _default_pair(judge: Judge) -> tuple[str, str] | None:
    """The latest release (`latest_pair`), or None (and a message) when no language has two
    editions."""
    pair = latest_pair(judge)
    if pair is None:
        editions = judge.editions()
        if editions:
            _single(judge, editions[0].id)
        else:
            st.info("Aucune édition chargée.")
    return pair


def _single(judge: Judge, edition_id: str) -> None:
    ed = judge.edition(edition_id)
    language = LANGUAGE_NAMES.get(ed.language, ed.language)
    st.info(
        md(
            f"Une seule édition en {language} ({ed.id}) : rien à comparer. Importez une "
            "autre édition de cette langue (page Corpus) pour voir ce qui a changé."
        ),
        icon=":material/info:",
    )


def _line(rule: Rule, summary: str = "") -> None:
    with st.container(horizontal=True, wrap=False, gap="small", vertical_alignment="center"):
        links.rule_link(rule.number, rule.edition)
        st.markdown(md(summary or shorten(rule.title or rule.text, 160)), width="stretch")


def _more(items: Sequence[object]) -> None:
    if len(items) > MAX_LISTED:
        st.caption(md(f"… et {len(items) - MAX_LISTED} autres"))


def _show(changes: Changes, section: str) -> None:
    def kept(*rules: Rule) -> bool:
        return not section or any(_section(r.number) == section for r in rules)

    added = [r for r in changes.added if kept(r)]
    removed = [r for r in changes.removed if kept(r)]
    changed = [c for c in changes.changed if kept(c.old, c.new)]
    moved = [m for m in changes.moved if kept(m.old, m.new)]
    old, new = changes.old, changes.new
    st.caption(md(f"De {old.id} ({_when(old)}) à {new.id} ({_when(new)})"))
    if section:
        st.caption(md(f"Section {section} seulement."))
    counts: dict[str, Sequence[object]] = {
        "added": added,
        "removed": removed,
        "changed": changed,
        "moved": moved,
    }
    with st.container(horizontal=True, wrap=True, gap="medium"):
        for kind, items in counts.items():
            st.metric(CHANGE_KINDS[kind].capitalize(), len(items), width="content")
    if not any(counts.values()):
        st.info(
            "Aucun changement entre ces deux éditions"
            + (" dans cette section." if section else ".")
        )
        return
    # Where the list starts (the browser test checks it is on a phone's first screen).
    with st.container(key="nouveautes-liste"):
        if added:
            st.subheader(f"Ajoutées ({len(added)})")
            for r in added[:MAX_LISTED]:
                _line(r)
            _more(added)
        if removed:
            st.subheader(f"Retirées ({len(removed)})")
            for r in removed[:MAX_LISTED]:
                _line(r)
            _more(removed)
        if changed:
            st.subheader(f"Modifiées ({len(changed)})")
            for c in changed[:MAX_LISTED]:
                _line(c.new, shorten(c.new.title or "", 160) or " ")
                st.markdown(diff_inline(c.diff))
            _more(changed)
        if moved:
            st.subheader(f"Déplacées ({len(moved)})")
            for m in moved[:MAX_LISTED]:
                with st.container(
                    horizontal=True, wrap=True, gap="small", vertical_alignment="center"
                ):
                    links.rule_link(m.old.number, m.old.edition, label=f"{m.old.number} ({old.id})")
                    st.markdown("→")
                    links.rule_link(m.new.number, m.new.edition, label=f"{m.new.number} ({new.id})")
                    st.markdown(md("texte modifié" if m.changed else "texte inchangé"))
                if m.changed:
                    st.markdown(diff_inline(m.diff))
            _more(moved)


def main() -> None:
    st.title("Nouveautés")
    judge = resources.judge()
    old = st.query_params.get(links.FROM, "").strip()
    new = st.query_params.get(links.TO, "").strip()
    section = st.query_params.get(SECTION, "").strip()
    for eid in (old, new):
        if eid and not judge.has_edition(eid):
            st.warning(md(f"Édition « {eid} » inconnue : ce qui a changé en dernier est affiché."))
            old = new = ""
    if not old and not new:
        pair = _default_pair(judge)
        if pair is None:
            return
        old, new = pair
    elif not old or not new:
        eid = old or new
        language = judge.edition(eid).language
        if sum(1 for ed in judge.editions() if ed.language == language) < 2:
            _single(judge, eid)
            return
        try:
            found = judge.changes(old or None, new or None)
            old, new = found.old.id, found.new.id
        except NoEditionPair:  # nothing after (before) it: the pickers choose the other one
            old = new = eid
    _selector(judge, old, new, section)
    a, b = judge.edition(old), judge.edition(new)
    if a.language != b.language:
        st.warning(
            md(
                f"{old} et {new} ne sont pas de la même langue : choisissez deux éditions en "
                f"{LANGUAGE_NAMES.get(a.language, a.language)} ou en "
                f"{LANGUAGE_NAMES.get(b.language, b.language)}."
            )
        )
        return
    if old == new:
        st.info("Choisissez deux éditions différentes.")
        return
    try:
        changes = judge.changes(old, new)
    except JudgeError as exc:
        st.error(say(exc.message))
        return
    links.keep_address(links.NOUVEAUTES, changes_params(old, new, section))
    _show(changes, section)


main()

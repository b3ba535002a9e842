"""Règle: one rule, its place in the rules, what it cites and what cites it.

Opened by `?regle=704.5g&edition=fr-2024` (edition optional: the newest edition that has the
rule's text)."""

from __future__ import annotations

import re

import streamlit as st

from judge import Edition, History, Judge, JudgeError, Reference, Rule, RuleNotFound, RuleView
from judge.fr import (
    REFERENCE_STATUS,
    RULE_KIND,
    VERSION_CHANGE,
    when,
)
from ui import links, resources
from ui.render import diff_inline, md, say, shorten
from ui.views import common

MAX_GRAPH_CHILDREN = 8
CHANGE = "Autre règle ou autre édition"
# An example paragraph that names itself (« Exemple : … ») already has its badge.
_EXAMPLE_LABEL = re.compile(r"^\s*exemples?\s*:\s*", re.IGNORECASE)


def _selector(judge: Judge, number: str, edition: str | None, fold: bool) -> None:
    """Number and edition pickers; a change rewrites the query string (the shareable state).
    `fold`: a rule is shown, and on a phone its text comes first: the pickers fold away."""
    labels = {ed.id: ed.label for ed in judge.editions()}
    ids = list(labels)
    options = ["", *ids]
    place = st.expander(CHANGE, icon=":material/tune:") if fold else st.container()
    left, right = place.columns([1, 2])
    typed = left.text_input(
        "Numéro de règle",
        value=number,
        placeholder="ex. 704.5g",
        key=f"regle-numero-{number}-{edition}",
    )
    chosen = right.selectbox(
        "Édition",
        options,
        index=options.index(edition) if edition in options else 0,
        format_func=lambda e: (
            "La plus récente qui contient la règle" if not e else f"{e} — {labels[e]}"
        ),
        key=f"regle-edition-{number}-{edition}",
        placeholder="Choisir…",
    )
    typed = typed.strip()
    if typed != number or (chosen or None) != edition:
        if typed:
            st.query_params.from_dict(links.rule_params(typed, chosen or None))
        else:
            st.query_params.clear()
        st.rerun()


def _breadcrumb(view: RuleView) -> None:
    rule = view.rule
    chain = view.breadcrumb
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        for r in chain[:-1]:
            label = f"{r.number}. {r.title}" if r.title else r.number
            links.rule_link(r.number, r.edition, label=label, help=r.title)
            st.markdown("›")
        st.markdown(f"**{md(rule.number)}**")


def _text(rule: Rule) -> None:
    if rule.title_only:
        st.warning(
            "Seul le titre de cette règle est connu (table des matières ou citation) : "
            "son texte est absent du corpus.",
            icon=":material/info:",
        )
    for p in rule.paragraphs:
        badge = ":blue-badge[EN] " if p.language == "en" else ""
        if p.kind == "example":
            with st.container(border=True):
                text = _EXAMPLE_LABEL.sub("", p.text, count=1)
                st.markdown(f":gray-badge[Exemple] {badge}{md(text)}")
        else:
            st.markdown(badge + md(p.text))


def _children(view: RuleView) -> None:
    if not view.children:
        return
    st.subheader("Sous-règles")
    for child in view.children:
        summary = child.title or shorten(child.text, 160) or "(titre seul)"
        _linked_line(child.number, child.edition, summary)


def _linked_line(number: str, edition: str, summary: str, help: str | None = None) -> None:
    """A link on the rule number, then a one-line summary that wraps with the page."""
    with st.container(horizontal=True, wrap=False, gap="small", vertical_alignment="center"):
        links.rule_link(number, edition, help=help)
        st.markdown(md(summary), width="stretch")


def _reference_label(ref: Reference) -> str:
    title = f" — {ref.title}" if ref.title else ""
    status = "" if ref.status == "resolved" else f" ({REFERENCE_STATUS[ref.status]})"
    return f"{ref.target}{title}{status}"


def _references(rule: Rule) -> None:
    if not rule.references:
        return
    st.subheader("Références")
    seen: set[str] = set()
    for ref in rule.references:
        if ref.target in seen:
            continue
        seen.add(ref.target)
        hover = ref.title or ref.target
        if ref.status != "resolved":
            hover = f"{hover} — {REFERENCE_STATUS[ref.status]}"
        icon = ":material/link:" if ref.status == "resolved" else ":material/link_off:"
        links.rule_link(ref.target, ref.edition, label=_reference_label(ref), help=hover, icon=icon)


def _cited_by(view: RuleView) -> None:
    if not view.cited_by:
        return
    st.subheader("Cité par")
    ed = view.edition
    for c in view.cited_by:
        citer = ed.rules.get(c.rule)
        _linked_line(c.rule, c.edition, shorten(citer.text, 160) if citer else "")


def _chips(label: str, numbers: list[tuple[str, str]], edition: str, icon: str) -> None:
    """One kind of neighbour: a caption, then a link per rule (its title on hover)."""
    if not numbers:
        return
    st.caption(md(label))
    with st.container(horizontal=True, wrap=True, gap="small"):
        for number, title in numbers:
            links.rule_link(number, edition, help=title or None, icon=icon)


def neighbourhood(view: RuleView) -> None:
    """The rule among its neighbours, each a link to its rule: what cites it, its parent,
    the rule, its sub-rules, what it cites. Made of the theme's own text and links: legible
    on a phone, in both themes, and one tap opens a neighbour."""
    rule, ed = view.rule, view.edition

    def titled(numbers: list[str]) -> list[tuple[str, str]]:
        out = []
        for n in dict.fromkeys(numbers):
            r = ed.rules.get(n)
            out.append((n, (r.title or shorten(r.text, 60)) if r else ""))
        return out

    citers = titled([c.rule for c in view.cited_by])
    cited = titled([ref.target for ref in rule.references])
    children = titled(list(rule.children[:MAX_GRAPH_CHILDREN]))
    with st.container(border=True, key="voisinage", gap="small"):
        _chips("Citée par", citers, ed.id, ":material/arrow_downward:")
        _chips(
            "Règle parente",
            titled([rule.parent] if rule.parent else []),
            ed.id,
            ":material/arrow_upward:",
        )
        st.markdown(f":orange-badge[{md(rule.number)}] **{md(shorten(view.title or '', 60))}**")
        _chips("Cite", cited, ed.id, ":material/arrow_downward:")
        _chips("Sous-règles", children, ed.id, ":material/subdirectory_arrow_right:")
        extra = len(rule.children) - MAX_GRAPH_CHILDREN
        if extra > 0:
            st.caption(f"… et {extra} autres sous-règles")
        if not (citers or cited or children or rule.parent):
            st.caption("Aucune règle liée dans le corpus.")


def _other_editions(judge: Judge, view: RuleView) -> None:
    rule = view.rule
    found = common.counterparts(judge, view)
    if not found:
        return
    st.subheader("Dans les autres éditions")
    diff = st.toggle(
        "Montrer les différences", key=f"diff-{rule.edition}-{rule.number}", value=False
    )
    for cp in found:
        ed = judge.edition(cp.edition)
        moved = f" — numérotée {cp.number}" if cp.number != rule.number else ""
        # A number the concordance deduced but the corpus lacks.
        state = " (absente du corpus)" if cp.rule is None else ""
        with st.expander(md(f"{ed.id} — {ed.label}{moved}{state}"), expanded=diff):
            plain = common.notes(judge, cp.link)
            if plain:
                st.caption(md(f"Correspondance : {' — '.join(plain)}"))
            other = cp.rule
            if other is None:
                continue
            if other.title_only or not other.text.strip():
                st.caption("Titre seul : texte absent du corpus.")
            elif diff:
                common.show_diff(judge, rule, other)
            else:
                for p in other.paragraphs:
                    st.markdown(md(p.text))
            with st.container(horizontal=True):
                links.rule_link(
                    other.number,
                    other.edition,
                    label=f"Ouvrir {other.number} ({other.edition})",
                    icon=":material/open_in_new:",
                )
                older, newer = sorted((other, rule), key=lambda r: judge.edition(r.edition).order)
                links.page_link(
                    links.COMPARER,
                    f"Comparer {older.edition} → {newer.edition}",
                    links.compare_params(older.number, older.edition, newer.edition),
                    icon=":material/compare_arrows:",
                )
    with st.expander(common.DETAILS):
        for cp in found:
            more = "".join(f" — {n}" for n in common.notes(judge, cp.link))
            st.caption(md(f"{cp.edition} ({cp.number}) : {common.method(cp.link)}{more}"))


def _when(ed: Edition) -> str:
    return when(ed.date, ed.era)


def _version_line(number: str, ed: Edition, change: str, current: bool) -> None:
    here = " (cette page)" if current else ""
    with st.container(horizontal=True, wrap=True, gap="small", vertical_alignment="center"):
        links.rule_link(number, ed.id, label=f"{number} ({ed.id})", icon=":material/history:")
        st.markdown(md(f"{_when(ed)} — {VERSION_CHANGE[change]}{here}"), width="stretch")


def _history(history: History) -> None:
    """Every version of the rule in its language, oldest first: the change in French and
    the word diff against the version before; a run of unchanged versions on one line."""
    versions = history.versions
    if len(versions) < 2:
        return
    st.subheader("Historique")
    current = history.rule.edition
    i = 0
    while i < len(versions):
        v = versions[i]
        if v.change == "unchanged":
            j = i
            while j + 1 < len(versions) and versions[j + 1].change == "unchanged":
                j += 1
            run = versions[i : j + 1]
            first, last = run[0].edition, run[-1].edition
            span = (
                f"inchangée en {first.id} ({_when(first)})"
                if len(run) == 1
                else f"inchangée du {first.id} ({_when(first)}) au {last.id} ({_when(last)})"
            )
            st.markdown(f":gray-badge[{md(span)}]")
            with st.container(horizontal=True, wrap=True, gap="small"):
                for u in run:
                    here = " (cette page)" if u.edition.id == current else ""
                    links.rule_link(
                        u.number, u.edition.id, label=f"{u.number} ({u.edition.id}){here}"
                    )
            i = j + 1
            continue
        if v.rule is None:
            st.markdown(
                md(f"{v.edition.id} ({_when(v.edition)}) — {v.number} {VERSION_CHANGE[v.change]}")
            )
        else:
            _version_line(v.number, v.edition, v.change, v.edition.id == current)
            if v.diff and v.change in ("changed", "renumbered"):
                st.markdown(diff_inline(v.diff))
            elif v.change == "added" and i == 0:
                st.caption(md(shorten(v.text, 200)))
        i += 1


def show(judge: Judge, rule: Rule) -> None:
    kind = RULE_KIND.get(rule.kind, RULE_KIND["rule"])
    title = judge.title(rule.number, rule.edition)
    heading = f"{kind} {rule.number}" + (f" — {title}" if title else "")
    st.header(md(heading), anchor=False)
    main, side = st.columns([3, 2], gap="large")
    # On a phone the text comes first, right under the heading; where it sits follows.
    with main, st.container(key="regle-texte"):
        _text(rule)
    # The text is on its way to the browser: now the concordance (the first view of a
    # process loads it), for everything around the text.
    try:
        view = judge.view(rule)
    except JudgeError as exc:
        main.error(say(exc.message))
        return
    with main:
        for line in judge.dating(view):
            st.caption(md(line))
        _breadcrumb(view)
        _children(view)
        # The text is on the page first: the history follows renumberings through every
        # edition of the language.
        if not rule.title_only:
            try:
                _history(judge.history(rule.number, rule.edition))
            except JudgeError as exc:
                st.caption(say(exc.message))
        _references(rule)
        _cited_by(view)
        _other_editions(judge, view)
    with side:
        st.subheader("Voisinage")
        neighbourhood(view)
        st.subheader("Lien à partager")
        st.code(links.rule_url(rule.number, rule.edition), language=None, wrap_lines=True)
        if rule.source:  # a file name: for the referees, not for the players
            note = " — numéro déduit de la position" if rule.inferred else ""
            with st.expander(common.DETAILS):
                st.caption(say(f"Source : {rule.source.file}, ligne {rule.source.line}{note}"))
        _prev_next(view)


def _prev_next(view: RuleView) -> None:
    rule, ed = view.rule, view.edition
    siblings = ed.rules[rule.parent].children if rule.parent else ()
    if rule.number not in siblings:
        return
    i = siblings.index(rule.number)
    with st.container(horizontal=True):
        if i > 0:
            links.rule_link(
                siblings[i - 1], ed.id, label=f"{siblings[i - 1]}", icon=":material/arrow_back:"
            )
        if i + 1 < len(siblings):
            links.rule_link(
                siblings[i + 1], ed.id, label=f"{siblings[i + 1]}", icon=":material/arrow_forward:"
            )


def _contents(judge: Judge) -> None:
    """With no rule asked for: the sections each edition has text for."""
    st.info("Saisissez un numéro de règle, ou choisissez une section ci-dessous.")
    for n, info in enumerate(judge.editions()):
        ed = judge.edition(info.id)
        with st.expander(md(f"{ed.id} — {ed.label}"), expanded=n == 0):
            for r in ed.rules.values():
                if r.kind == "section" and not r.title_only:
                    links.rule_link(r.number, ed.id, label=f"{r.number}. {r.title or ''}")


def main() -> None:
    judge = resources.judge()
    number = st.query_params.get(links.RULE, "").strip()
    edition = st.query_params.get(links.EDITION, "").strip() or None
    unknown = None
    if edition is not None and not judge.has_edition(edition):
        unknown, edition = edition, None
    found: Rule | JudgeError | None = None
    if number:
        try:
            found = judge.lookup(number, edition)
        except JudgeError as exc:
            found = exc
    # The pickers stay open when there is no rule to show (none asked for, or not found).
    _selector(judge, number, edition, fold=isinstance(found, Rule))
    if unknown is not None and not number:
        st.warning(md(f"Édition « {unknown} » inconnue."), icon=":material/warning:")
    if found is None:
        _contents(judge)
        return
    if isinstance(found, RuleNotFound):
        st.error(say(found.message), icon=":material/search_off:")
        for near in found.nearest:
            links.rule_link(near, edition, icon=":material/subdirectory_arrow_right:")
        return
    if isinstance(found, JudgeError):
        st.error(say(found.message))
        return
    rule = found
    if unknown is not None:
        st.warning(
            md(
                f"Édition « {unknown} » inconnue : la règle {rule.number} est affichée dans "
                f"l'édition {rule.edition}, la plus récente qui en a le texte."
            ),
            icon=":material/warning:",
        )
    # The URL bar holds the canonical, complete link a judge copies.
    links.keep_address(links.REGLE, links.rule_params(rule.number, rule.edition))
    show(judge, rule)


main()

"""Comparer: a rule or a whole section in two editions, side by side, word by word.

`comparer?regle=420.5&de=fr-pre2009&vers=fr-2024`"""

from __future__ import annotations

import streamlit as st

from judge import Comparison, ComparisonError, Judge, JudgeError, Rule, canonical
from ui import links, resources
from ui.render import DIFF_LEGEND, diff_sides, md, say, shorten
from ui.views import common
from ui.views.common import DETAILS, method

MAX_RULES = 80


def _descendants(judge: Judge, rule: Rule) -> list[Rule]:
    """The rule and everything under it, in document order."""
    ed = judge.edition(rule.edition)
    out = [rule]
    for child in rule.children:
        out += _descendants(judge, ed.rules[child])
    return out


def _selector(judge: Judge, number: str, old: str, new: str) -> tuple[str, str, str]:
    # On a phone the diff comes first: with a rule to compare, the form folds away (it stays
    # open with none, or with a number the first edition lacks).
    num = canonical(number) if number else None
    fold = bool(num) and old != new and num in judge.edition(old).rules
    label = f"{number} : {old} → {new}"
    place = st.expander(md(label), icon=":material/tune:") if fold else st.container()
    a, b, c, d = place.columns([2, 3, 3, 1.2], vertical_alignment="bottom")
    typed = a.text_input(
        "Règle ou section", value=number, placeholder="ex. 420.5 ou 704.5j", key=f"cmp-n-{number}"
    ).strip()
    chosen_old = common.edition_picker(b, judge, "De", old, "cmp-de")
    chosen_new = common.edition_picker(c, judge, "Vers", new, "cmp-vers")
    if d.button("Inverser", help="Échanger les deux éditions", width="stretch"):
        # The number follows the concordance: 420.5e (fr-pre2009) is 704.5j in fr-2024.
        num = canonical(typed)
        link = judge.counterpart(chosen_old, num, chosen_new) if num else None
        if (
            link is not None
            and not link.approximate
            and num in judge.edition(chosen_old).rules
            and link.to_rule in judge.edition(chosen_new).rules
        ):
            typed = link.to_rule
        chosen_old, chosen_new = chosen_new, chosen_old
    if (typed, chosen_old, chosen_new) != (number, old, new):
        st.query_params.from_dict(links.compare_params(typed, chosen_old, chosen_new))
        st.rerun()
    return typed, chosen_old, chosen_new


def _no_text(rule: Rule) -> bool:
    return rule.title_only or not rule.text.strip()


def _side(rule: Rule, body: str) -> None:
    title = f" — {rule.title}" if rule.title else ""
    links.rule_link(
        rule.number,
        rule.edition,
        label=f"{rule.edition} · {rule.number}{title}",
        icon=":material/gavel:",
    )
    if _no_text(rule):
        st.caption("Titre seul : texte absent du corpus.")
    else:
        st.markdown(body)


def _comparison(cmp: Comparison, key: str | None = None) -> None:
    link = cmp.link
    with st.container(border=True, key=key):
        badges = []
        if link.moved:
            badges.append(f":orange-badge[Déplacée] **{md(link.from_rule)} → {md(link.to_rule)}**")
        missing = [r.edition for r in (cmp.old, cmp.new) if _no_text(r)]
        if len(missing) == 2:
            badges.append(":gray-badge[Texte absent du corpus]")
        elif missing:
            badges.append(f":gray-badge[Texte absent du corpus de {md(missing[0])}]")
        else:
            badges.append(":red-badge[Modifiée]" if cmp.changed else ":green-badge[Inchangée]")
        st.markdown(" ".join(badges))
        old_md, new_md = diff_sides(cmp.diff)
        left, right = st.columns(2, gap="medium")
        with left:
            _side(cmp.old, old_md)
        with right:
            _side(cmp.new, new_md)
        # After the texts: on a phone the diff is on the first screen.
        if cmp.summary:
            st.info(md(cmp.summary), icon=":material/history_edu:")
        with st.expander(DETAILS):
            st.caption(md(f"Correspondance : {method(link)}"))


def _unmatched(judge: Judge, top: str, old: str, new: str) -> tuple[list[Rule], list[Rule]]:
    """Rules of the new edition's counterpart section that nothing of the old one reaches:
    those new in `new`, and those the old edition's corpus does not hold at all (2011's
    corpus has section 118 only: 704's rules are not new, only absent from it)."""
    link = judge.counterpart(old, top, new)
    if link is None or link.approximate:
        return [], []
    target = judge.edition(new).rules.get(link.to_rule)
    if target is None:
        return [], []
    reached = {
        lk.to_rule
        for r in _descendants(judge, judge.edition(old).rules[top])
        for lk in [judge.counterpart(old, r.number, new, approximate=False)]
        if lk is not None
    }
    unreached = [
        r for r in _descendants(judge, target) if r.number not in reached and not _no_text(r)
    ]
    fresh = [r for r in unreached if judge.covers(r, old)]
    absent = [r for r in unreached if not judge.covers(r, old)]
    return fresh, absent


def _rule_list(rules: list[Rule], edition: str, icon: str) -> None:
    for r in rules[:MAX_RULES]:
        with st.container(horizontal=True, wrap=False, vertical_alignment="center"):
            links.rule_link(r.number, edition, icon=icon)
            st.markdown(md(shorten(r.text, 200)), width="stretch")
    if len(rules) > MAX_RULES:
        st.caption(f"Les {MAX_RULES} premières règles sur {len(rules)}.")


def _show_unmatched(fresh: list[Rule], absent: list[Rule], old: str, new: str) -> None:
    if fresh:
        st.subheader(md(f"Sans équivalent dans {old} ({len(fresh)})"), anchor=False)
        st.caption(
            "Règles de l'édition d'arrivée qu'aucune règle de l'édition de départ ne rejoint."
        )
        _rule_list(fresh, new, ":material/fiber_new:")
    if absent:
        st.subheader(md(f"Absentes du corpus de {old} ({len(absent)})"), anchor=False)
        st.caption(
            md(
                f"Le corpus de {old} ne contient pas la section de ces règles : elles ne "
                "sont pas nouvelles, leur texte d'alors est seulement absent."
            )
        )
        _rule_list(absent, new, ":material/cloud_off:")


def main() -> None:
    st.title("Comparer")
    judge = resources.judge()
    ids = [ed.id for ed in judge.editions()]
    number = st.query_params.get(links.RULE, "").strip()
    old = st.query_params.get(links.FROM, "")
    new = st.query_params.get(links.TO, "")
    unknown = [
        (e, fallback) for e, fallback in ((old, ids[-1]), (new, ids[0])) if e and e not in ids
    ]
    old = old if old in ids else ids[-1]
    new = new if new in ids else ids[0]
    for wanted, shown_instead in unknown:
        st.warning(
            md(f"Édition « {wanted} » inconnue : {shown_instead} est affichée à la place."),
            icon=":material/warning:",
        )
    number, old, new = _selector(judge, number, old, new)
    if not number:
        st.info(
            "Choisissez une règle ou une section et deux éditions. Par exemple :",
            icon=":material/compare_arrows:",
        )
        for n, a, b in (
            ("420.5", "fr-pre2009", "fr-2024"),
            ("420.5e", "fr-pre2009", "fr-2024"),
            ("118", "fr-2011", "fr-2024"),
        ):
            if a in ids and b in ids:
                links.page_link(links.COMPARER, f"{n} : {a} → {b}", links.compare_params(n, a, b))
        return
    if old == new:
        st.warning("Choisissez deux éditions différentes.")
        return
    num = canonical(number)
    rule = judge.edition(old).rules.get(num) if num else None
    if rule is None:
        nearest = judge.nearest(number, old)
        hint = f" Numéros proches : {', '.join(nearest)}." if nearest else ""
        st.error(md(f"La règle {number} n'existe pas dans l'édition {old}.{hint}"))
        if num and num in judge.edition(new).rules:
            links.page_link(
                links.COMPARER,
                f"Comparer dans l'autre sens ({new} → {old})",
                links.compare_params(num, new, old),
                icon=":material/swap_horiz:",
            )
        return
    rules = _descendants(judge, rule)
    results: list[Comparison | tuple[Rule, str]] = []
    for r in rules[:MAX_RULES]:
        try:
            results.append(judge.compare(r.number, old, new))
        except ComparisonError as exc:
            if r is rule or not r.title_only:
                results.append((r, exc.message))
        except JudgeError as exc:
            st.error(say(exc.message))
            return
    compared = [c for c in results if isinstance(c, Comparison)]
    fresh, absent = _unmatched(judge, rule.number, old, new)
    counts = {
        "Règles comparées": len(compared),
        "Modifiées": sum(
            1 for c in compared if c.changed and not (_no_text(c.old) or _no_text(c.new))
        ),
        "Déplacées": sum(1 for c in compared if c.link.moved),
        "Sans équivalent": len(results) - len(compared) + len(fresh),
    }
    if absent:
        counts[f"Absentes du corpus de {old}"] = len(absent)
    # Side by side and wrapped (four stacked counters would fill a phone's first screen),
    # and only for a section: one rule's diff says it all.
    if len(rules) > 1 or counts["Sans équivalent"] or absent:
        with st.container(horizontal=True, wrap=True, gap="medium"):
            for label, value in counts.items():
                st.metric(md(label), value, width="content")
    if len(rules) > MAX_RULES:
        st.caption(f"Les {MAX_RULES} premières règles sur {len(rules)}.")
    # Markdown, not a caption: the caption's faded grey would not pass on the highlights.
    st.markdown(f"Légende : {DIFF_LEGEND}")
    first = True
    for item in results:
        if isinstance(item, Comparison):
            _comparison(item, key="comparer-premiere" if first else None)
            first = False
        else:
            r, message = item
            with st.container(border=True):
                links.rule_link(r.number, old, icon=":material/link_off:")
                st.caption(say(message))
    _show_unmatched(fresh, absent, old, new)


main()

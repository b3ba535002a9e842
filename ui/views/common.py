"""Pieces several pages share: the bridge from the Règle page to the concordance."""

from __future__ import annotations

import streamlit as st

from judge.rules.concordance import (
    Concordance,
    Link,
    counterparts_for,
    diff_rules,
    method_label,
)
from judge.rules.index import RuleIndex
from judge.rules.model import Rule
from judge.rules.numbers import kind_of, parent
from judge.rules.references import nearest_title
from ui.render import diff_inline, md


def status(index: RuleIndex, link: Link) -> str:
    """How the concordance found `link`, in French, with its status when it is only
    approximate or when its target is not in the corpus of its edition."""
    how = method_label(link.method)
    if link.via:
        how += f", via {', '.join(link.via)}"
    notes = []
    if link.approximate:
        notes.append("correspondance approchée")
    if not link.present:
        title = nearest_title(link.to_rule, index.edition(link.to_edition).rules)
        about = f" (« {title} »)" if title else ""
        notes.append(f"{link.to_rule}{about} absente du corpus de {link.to_edition}")
    return how + "".join(f" — {note}" for note in notes)


def _stand_in(index: RuleIndex, link: Link) -> Rule:
    """The target of a link that is not in the corpus: a rule without text, shown as such."""
    known = index.edition(link.to_edition).rules.get(link.to_rule)
    if known is not None:
        return known
    return Rule(
        edition=link.to_edition,
        number=link.to_rule,
        kind=kind_of(link.to_rule),
        title=None,
        paragraphs=(),
        parent=parent(link.to_rule),
        children=(),
        source=None,
        title_only=True,
    )


def counterparts(index: RuleIndex, rule: Rule) -> list[tuple[Rule, str]]:
    """The rule in the other editions, with how the concordance found it (French), one per
    edition, best first. An approximate counterpart (the rule's section, a number deduced from
    its section's move) says so, and so does a counterpart absent from the corpus of its
    edition (2011's 704.8 for 2024's 704.8): its rule is then a stand-in without text."""
    out: list[tuple[Rule, str]] = []
    seen: set[str] = set()
    for link in counterparts_for(index, rule):
        if link.to_edition in seen:
            continue
        seen.add(link.to_edition)
        out.append((_stand_in(index, link), status(index, link)))
    return out


def show_diff(index: RuleIndex, rule: Rule, other: Rule) -> None:
    """The word diff from the older of the two texts to the newer; nothing to compare word
    for word when the concordance only knows an approximate counterpart."""
    conc = Concordance.for_index(index)
    link = conc.counterpart(rule.edition, rule.number, other.edition)
    if link is None or link.approximate or link.to_rule != other.number:
        st.caption(
            md(
                f"Correspondance approchée : pas de différences mot à mot entre {rule.number} "
                f"({rule.edition}) et {other.number} ({other.edition})."
            )
        )
        return
    eds = {ed.id: i for i, ed in enumerate(index.editions)}  # newest first
    old, new = (other, rule) if eds[other.edition] > eds[rule.edition] else (rule, other)
    ops = diff_rules(old, new, conc)
    st.caption(md(f"De {old.edition} ({old.number}) à {new.edition} ({new.number})"))
    st.markdown(diff_inline(ops))

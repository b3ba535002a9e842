"""Pieces several pages share: the bridge from the Règle page to the concordance."""

from __future__ import annotations

import streamlit as st

from judge.rules.concordance import Concordance, counterparts_for, diff_rules, method_label
from judge.rules.index import RuleIndex
from judge.rules.model import Rule
from ui.render import diff_inline, md


def counterparts(index: RuleIndex, rule: Rule) -> list[tuple[Rule, str]]:
    """The rule in the other editions, with how the concordance found it (French), best
    first per edition; a counterpart that is only approximate (its section) is left out."""
    out: list[tuple[Rule, str]] = []
    seen: set[str] = set()
    for link in counterparts_for(index, rule):
        if link.approximate or link.to_edition in seen:
            continue
        other = index.edition(link.to_edition).rules.get(link.to_rule)
        if other is None:
            continue
        seen.add(link.to_edition)
        how = method_label(link.method)
        if link.via:
            how += f", via {', '.join(link.via)}"
        out.append((other, how))
    return out


def show_diff(index: RuleIndex, rule: Rule, other: Rule) -> None:
    """The word diff from the older of the two texts to the newer."""
    eds = {ed.id: i for i, ed in enumerate(index.editions)}  # newest first
    old, new = (other, rule) if eds[other.edition] > eds[rule.edition] else (rule, other)
    ops = diff_rules(old, new, Concordance.for_index(index))
    st.caption(md(f"De {old.edition} ({old.number}) à {new.edition} ({new.number})"))
    st.markdown(diff_inline(ops))

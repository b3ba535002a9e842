"""Pieces several pages share: the bridge from the Règle page to the concordance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from judge import Judge, Link, Rule, RuleView
from judge.fr import METHOD
from ui.render import diff_inline, md


@dataclass(frozen=True)
class Counterpart:
    """The rule in another edition: how the concordance found it, and its rule (None when the
    corpus of that edition lacks the number, such as 2011's 704.8 for 2024's 704.8)."""

    link: Link
    rule: Rule | None
    status: str  # French

    @property
    def edition(self) -> str:
        return self.link.to_edition

    @property
    def number(self) -> str:
        return self.link.to_rule


DETAILS = "Détails pour les arbitres"


def method(link: Link) -> str:
    """How the concordance found `link`, for the referees: « table de renumérotation établie
    (corpus/renumbering.toml), confiance 100 % »."""
    how = METHOD.get(link.method, link.method)
    if link.via:
        how += f", via {', '.join(link.via)}"
    return f"{how}, confiance {link.confidence:.0%}".replace("%", "\u202f%")


def notes(judge: Judge, link: Link) -> list[str]:
    """What a player needs to know of `link`, in plain French: only approximate, or its
    target absent from the corpus of its edition."""
    out = []
    if link.approximate:
        out.append("correspondance approchée")
    if not link.present:
        title = judge.title(link.to_rule, link.to_edition)
        about = f" (« {title} »)" if title else ""
        out.append(f"{link.to_rule}{about} absente du corpus de {link.to_edition}")
    return out


def status(judge: Judge, link: Link) -> str:
    """How the concordance found `link`, in French, with its status when it is only
    approximate or when its target is not in the corpus of its edition."""
    how = METHOD.get(link.method, link.method)
    if link.via:
        how += f", via {', '.join(link.via)}"
    notes = []
    if link.approximate:
        notes.append("correspondance approchée")
    if not link.present:
        title = judge.title(link.to_rule, link.to_edition)
        about = f" (« {title} »)" if title else ""
        notes.append(f"{link.to_rule}{about} absente du corpus de {link.to_edition}")
    return how + "".join(f" — {note}" for note in notes)


def counterparts(judge: Judge, view: RuleView) -> list[Counterpart]:
    """The rule in the other editions, with how the concordance found it (French), one per
    edition, best first. An approximate counterpart (the rule's section, a number deduced from
    its section's move) says so, and so does a counterpart absent from the corpus of its
    edition."""
    out: list[Counterpart] = []
    seen: set[str] = set()
    for link, rule in zip(view.counterparts, view.counterpart_rules, strict=True):
        if link.to_edition in seen:
            continue
        seen.add(link.to_edition)
        out.append(Counterpart(link, rule, status(judge, link)))
    return out


def show_diff(judge: Judge, rule: Rule, other: Rule) -> None:
    """The word diff from the older of the two texts to the newer; nothing to compare word
    for word when the concordance only knows an approximate counterpart."""
    link = judge.counterpart(rule.edition, rule.number, other.edition)
    if link is None or link.approximate or link.to_rule != other.number:
        st.caption(
            md(
                f"Correspondance approchée : pas de différences mot à mot entre {rule.number} "
                f"({rule.edition}) et {other.number} ({other.edition})."
            )
        )
        return
    eds = {ed.id: i for i, ed in enumerate(judge.editions())}  # newest first
    old, new = (other, rule) if eds[other.edition] > eds[rule.edition] else (rule, other)
    st.caption(md(f"De {old.edition} ({old.number}) à {new.edition} ({new.number})"))
    st.markdown(diff_inline(judge.diff(old, new)))


def edition_picker(column: Any, judge: Judge, label: str, current: str, key: str) -> str:
    """A select box of every edition (« id — label »), `current` chosen; its key carries
    `current` so that a new link starts it afresh."""
    names = {ed.id: f"{ed.id} — {ed.label}" for ed in judge.editions()}
    ids = list(names)
    return str(
        column.selectbox(
            label,
            ids,
            index=ids.index(current),
            format_func=lambda e: names[e],
            key=f"{key}-{current}",
            placeholder="Choisir…",
        )
    )

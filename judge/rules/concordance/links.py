"""A link between two rules of two editions, how it was found, and links composed in a chain."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from judge.rules.numbers import canonical, sort_key

Method = Literal["curated", "same_number", "title", "text", "translation"]
METHODS: tuple[Method, ...] = ("curated", "same_number", "title", "text", "translation")

# When several steps are composed, the method shown is the strongest claim made on the way.
METHOD_RANK: dict[str, int] = {
    "curated": 5,
    "text": 4,
    "title": 3,
    "translation": 2,
    "same_number": 1,
}


# One exact link as a chain walks it: (to_rule, confidence, method, present); the editions
# are the pair's. Plain tuples: an export walks 120,000 links, most of them never shown.
Step = tuple[str, float, "Method", bool]
# A link without its source, `Link`'s other fields in their order: (to_edition, to_rule,
# method, confidence, moved, via, approximate, present). What the concordance composes and
# `judge export` keeps of each of its 64,000 links; `Link(edition, rule, *row)` when shown.
LinkRow = tuple[str, str, "Method", float, bool, tuple[str, ...], bool, bool]


@dataclass(frozen=True, slots=True)  # 100,000 of them in an export: slots halve their size
class Link:
    """`from_rule` of `from_edition` corresponds to `to_rule` of `to_edition`.

    `moved`: the number differs. `via`: editions passed through when the link is composed.
    `approximate`: the target is only the counterpart of an ancestor (a section), or a number
    deduced from its section's move and possibly absent from the corpus.
    `present`: the target rule is in the target edition's corpus with a text (its own, or the
    text of its sub-rules for a section): False for a number known only as a title (a table of
    contents, a citation) or not known at all, such as 2011's 704.8, deduced from the move of
    its section. Links made by the `Concordance` always carry it.
    """

    from_edition: str
    from_rule: str
    to_edition: str
    to_rule: str
    method: Method
    confidence: float
    moved: bool
    via: tuple[str, ...] = ()
    approximate: bool = False
    present: bool = True

    def reversed(self) -> Link:
        """The link read the other way; `present` then describes the old source, which the
        concordance checks again (`Concordance` never hands out a reversed link unchecked)."""
        return Link(
            self.to_edition,
            self.to_rule,
            self.from_edition,
            self.from_rule,
            self.method,
            self.confidence,
            self.moved,
            tuple(reversed(self.via)),
            self.approximate,
        )

    def with_present(self, present: bool) -> Link:
        """The same link with `present` set (dataclasses.replace, 20 times faster)."""
        return Link(
            self.from_edition,
            self.from_rule,
            self.to_edition,
            self.to_rule,
            self.method,
            self.confidence,
            self.moved,
            self.via,
            self.approximate,
            present,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": {"edition": self.from_edition, "rule": self.from_rule},
            "to": {"edition": self.to_edition, "rule": self.to_rule},
            "method": self.method,
            "confidence": round(self.confidence, 3),
            "moved": self.moved,
            "via": list(self.via),
            "approximate": self.approximate,
            "present": self.present,
        }


def make_link(
    a: str, ra: str, b: str, rb: str, method: Method, confidence: float, **kw: Any
) -> Link:
    """A link with its confidence clamped to 0–1 (4 decimals) and `moved` filled in."""
    return Link(a, ra, b, rb, method, clamped(confidence), ra != rb, **kw)


def clamped(confidence: float) -> float:
    """A confidence as links hold it: in 0–1, to 4 decimals."""
    return round(max(0.0, min(1.0, confidence)), 4)


def link_order(link: Link) -> tuple[float, int, tuple[int, int, int, int]]:
    """Best first: the most confident, the most direct, then by number."""
    return (
        -link.confidence,
        len(link.via),
        sort_key(link.to_rule) if canonical(link.to_rule) else (0, 0, 0, 0),
    )


def path_method(methods: Iterable[Method], same_language: bool) -> Method:
    """The method shown for a chain of links: the strongest claim made on the way. A chain
    between two editions of one language is no translation, though it passes through one
    (French → English → French, number for number): such a chain keeps the number."""
    found = list(methods)
    if same_language:
        found = [m for m in found if m != "translation"] or ["same_number"]
    return max(found, key=lambda m: METHOD_RANK[m])


def compose(path: Sequence[Link], score: float, same_language: bool, present: bool = True) -> Link:
    """One link for a chain of links, from the start of the first to the end of the last."""
    first, last = path[0], path[-1]
    return Link(
        first.from_edition,
        first.from_rule,
        last.to_edition,
        last.to_rule,
        path_method((link.method for link in path), same_language),
        clamped(score),
        first.from_rule != last.to_rule,
        tuple(link.to_edition for link in path[:-1]),
        any(link.approximate for link in path),
        present,
    )


def row_of(link: Link) -> LinkRow:
    return (
        link.to_edition,
        link.to_rule,
        link.method,
        link.confidence,
        link.moved,
        link.via,
        link.approximate,
        link.present,
    )


def step_of(link: Link) -> Step:
    return (link.to_rule, link.confidence, link.method, link.present)

"""The relevance set (relevance.toml) and its metrics, shared by the tests and the benchmark."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

RELEVANCE_FILE = Path(__file__).with_name("relevance.toml")
# judge questions over the English editions (../shared/corpus-en), English and French
RELEVANCE_EN_FILE = Path(__file__).with_name("relevance-en.toml")
KINDS = (
    "phrase",
    "paraphrase",
    "plural",
    "accents",
    "typo",
    "card",
    "old",
    "english",
    "number",
    "question",
)


@dataclass(frozen=True)
class Judged:
    q: str
    kind: str
    relevant: tuple[frozenset[str], ...]  # each answer: its acceptable "edition/rule" keys
    # 1: the queries the ranking was tuned on; 2: written afterwards and never tuned on
    round: int = 1


def load_relevance(path: Path = RELEVANCE_FILE) -> list[Judged]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        Judged(
            e["q"],
            e["kind"],
            tuple(frozenset(r.split("|")) for r in e["relevant"]),
            int(e.get("round", 1)),
        )
        for e in data["query"]
    ]


def recall_at(ranked: Sequence[str], relevant: Sequence[frozenset[str]], k: int = 5) -> float:
    """Each ranked item is one hit: `edition/rule`, or its copies joined by `|`."""
    top = {key for item in ranked[:k] for key in item.split("|")}
    found = sum(1 for answer in relevant if answer & top)
    return min(1.0, found / min(len(relevant), k))


def reciprocal_rank(
    ranked: Sequence[str], relevant: Sequence[frozenset[str]], k: int = 10
) -> float:
    wanted = set().union(*relevant)
    for i, item in enumerate(ranked[:k], start=1):
        if wanted.intersection(item.split("|")):
            return 1.0 / i
    return 0.0


@dataclass
class Scores:
    recall: float  # recall@5
    mrr: float  # MRR@10
    n: int
    recall1: float = 0.0  # recall@1: the first hit is an answer


def evaluate(
    judged: Sequence[Judged], ranker: Callable[[str], list[str]]
) -> tuple[dict[str, Scores], Scores, dict[str, list[str]]]:
    """Per-kind and overall recall@5 / MRR@10, and each query's ranking (for messages)."""
    per_kind: dict[str, list[tuple[float, float, float]]] = {}
    rankings: dict[str, list[str]] = {}
    for j in judged:
        ranked = ranker(j.q)
        rankings[j.q] = ranked
        per_kind.setdefault(j.kind, []).append(
            (
                recall_at(ranked, j.relevant),
                reciprocal_rank(ranked, j.relevant),
                recall_at(ranked, j.relevant, k=1),
            )
        )
    out = {kind: _scores(v) for kind, v in per_kind.items()}
    overall = _scores([x for v in per_kind.values() for x in v])
    return out, overall, rankings


def _scores(values: list[tuple[float, float, float]]) -> Scores:
    n = len(values)
    return Scores(
        sum(v[0] for v in values) / n,
        sum(v[1] for v in values) / n,
        n,
        sum(v[2] for v in values) / n,
    )


def hit_keys(hits: Sequence[Any]) -> list[str]:
    """One item per hit: `edition/rule`, then the copies folded into it (`also`), then, for a
    glossary entry, the rules it sends to (`see`), joined by `|`: a copy of an answer shown
    under another edition's hit still answers, at that rank, and so does the entry whose
    text says « See rule 702.4 » with a link to it."""
    return ["|".join(f"{e}/{r}" for e, r in _shown(h)) for h in hits]


def group_keys(hits: Sequence[Any], groups: Callable[[str, str], Hashable]) -> list[str]:
    """`hit_keys` read through a group key (the concordance's): each hit as the groups of
    what it shows (the 2025 entry's « See rule 702.4 » answers for 2011's 702.4, a copy of
    it)."""
    return ["|".join(str(groups(e, r)) for e, r in _shown(h)) for h in hits]


def _shown(h: Any) -> list[tuple[str, str]]:
    """What a hit shows: its rule, its copies, the rules a glossary entry sends to."""
    return [
        (h.edition, h.rule),
        *getattr(h, "also", ()),
        *((h.edition, n) for n in getattr(h, "see", ())),
    ]


def by_group(judged: list[Judged], groups: Callable[[str, str], Hashable]) -> list[Judged]:
    """The same questions, each answer read as the groups of its keys (for `group_keys`)."""
    return [
        replace(
            j,
            relevant=tuple(
                frozenset(str(groups(*key.split("/", 1))) for key in answer)
                for answer in j.relevant
            ),
        )
        for j in judged
    ]

"""The relevance set (relevance.toml) and its metrics, shared by the tests and the benchmark."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

RELEVANCE_FILE = Path(__file__).with_name("relevance.toml")
KINDS = ("phrase", "paraphrase", "plural", "accents", "typo", "card", "old", "english", "number")


@dataclass(frozen=True)
class Judged:
    q: str
    kind: str
    relevant: tuple[frozenset[str], ...]  # each answer: its acceptable "edition/rule" keys


def load_relevance(path: Path = RELEVANCE_FILE) -> list[Judged]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        Judged(e["q"], e["kind"], tuple(frozenset(r.split("|")) for r in e["relevant"]))
        for e in data["query"]
    ]


def recall_at(ranked: Sequence[str], relevant: Sequence[frozenset[str]], k: int = 5) -> float:
    top = set(ranked[:k])
    found = sum(1 for answer in relevant if answer & top)
    return found / min(len(relevant), k)


def reciprocal_rank(
    ranked: Sequence[str], relevant: Sequence[frozenset[str]], k: int = 10
) -> float:
    wanted = set().union(*relevant)
    for i, key in enumerate(ranked[:k], start=1):
        if key in wanted:
            return 1.0 / i
    return 0.0


@dataclass
class Scores:
    recall: float
    mrr: float
    n: int


def evaluate(
    judged: Sequence[Judged], ranker: Callable[[str], list[str]]
) -> tuple[dict[str, Scores], Scores, dict[str, list[str]]]:
    """Per-kind and overall recall@5 / MRR@10, and each query's ranking (for messages)."""
    per_kind: dict[str, list[tuple[float, float]]] = {}
    rankings: dict[str, list[str]] = {}
    for j in judged:
        ranked = ranker(j.q)
        rankings[j.q] = ranked
        per_kind.setdefault(j.kind, []).append(
            (recall_at(ranked, j.relevant), reciprocal_rank(ranked, j.relevant))
        )
    out = {
        kind: Scores(sum(r for r, _ in v) / len(v), sum(m for _, m in v) / len(v), len(v))
        for kind, v in per_kind.items()
    }
    everything = [x for v in per_kind.values() for x in v]
    overall = Scores(
        sum(r for r, _ in everything) / len(everything),
        sum(m for _, m in everything) / len(everything),
        len(everything),
    )
    return out, overall, rankings

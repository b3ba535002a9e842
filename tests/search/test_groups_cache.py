"""The copies' groups (`ConcordanceGroups`) are built once per store, after an ingest, and
kept on disk: a search process reads them instead of walking 60,000 links."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from judge import session
from judge.search.groups import ConcordanceGroups, _union


def _groups_files(home: Path) -> list[Path]:
    return sorted((home / "cache" / "search" / "groups").glob("*.bin"))


def _no_build(self: ConcordanceGroups) -> dict[tuple[str, str], tuple[str, str]]:
    raise AssertionError("the groups were built again")


def test_prepare_keeps_the_groups_and_a_search_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session.prepare(tmp_path)
    [kept] = _groups_files(tmp_path)
    with session.open_judge(tmp_path) as judge:
        built = judge._groups()._build()
    monkeypatch.setattr(ConcordanceGroups, "_build", _no_build)
    with session.open_judge(tmp_path) as judge:
        read = judge._groups()
        roots = read._roots()
        assert all(roots.get(node) == root for node, root in built.items())  # every rule
        assert roots.get(("fr-2024", "no such rule")) is None
        hit = judge.search("créature endurance 0 cimetière").result.hits[0]
    assert (hit.edition, hit.rule) == ("fr-2024", "704.5f")
    assert ("fr-pre2009", "420.5b") in hit.also
    assert _groups_files(tmp_path) == [kept]


def _rows_out_of_range(good: bytes) -> bytes:
    head, rows = good.split(b"\n", 1)
    return head + b"\n" + b"\xff\xff\xff\x7f" * (len(rows) // 4)


@pytest.mark.parametrize(
    "damage",
    [
        lambda good: b"",
        lambda good: b"{not json\n" + good.split(b"\n", 1)[1],
        lambda good: b"[]\n" + good.split(b"\n", 1)[1],
        lambda good: good[:-4],  # the rows cut short
        lambda good: good[:-1],  # not whole numbers
        _rows_out_of_range,  # rule numbers no table names
    ],
)
def test_a_damaged_groups_file_is_built_again(
    tmp_path: Path, damage: Callable[[bytes], bytes]
) -> None:
    session.prepare(tmp_path)
    [kept] = _groups_files(tmp_path)
    good = kept.read_bytes()
    kept.write_bytes(damage(good))
    with session.open_judge(tmp_path) as judge:
        hit = judge.search("créature endurance 0 cimetière").result.hits[0]
    assert ("fr-pre2009", "420.5b") in hit.also
    assert kept.read_bytes() == good  # rewritten whole


class _LinksOnly:
    """The concordance seen through `pair_links` alone (no `exact_rows`)."""

    def __init__(self, conc: Any) -> None:
        self.index = conc.index
        self._conc = conc

    def neighbours(self, edition: str) -> tuple[str, ...]:
        return tuple(self._conc.neighbours(edition))

    def pair_links(self, edition: str, target: str) -> list[Any]:
        return list(self._conc.pair_links(edition, target))

    def direct_pairs_key(self) -> str | None:
        return None


def test_groups_from_rows_are_the_groups_from_links(en_home: Path) -> None:
    with session.open_judge(en_home) as judge:
        conc = judge.concordance
        from_rows = ConcordanceGroups(conc)._build()
        from_links = ConcordanceGroups(_LinksOnly(conc))._build()
    assert from_rows == from_links
    assert len(set(from_rows.values())) < len(from_rows)  # some rules are grouped
    # the legend rule across renumbering: one group
    assert from_rows[("en-2008-07-15", "420.5e")] == from_rows[("en-2011-09-30", "704.5k")]


def _union_of_tuples(
    links: list[tuple[float, str, str, str, str]],
) -> dict[tuple[str, str], tuple[str, str]]:
    """The groups as first written, over the tuples themselves: the oracle of `_union`."""
    parent: dict[tuple[str, str], tuple[str, str]] = {}
    editions: dict[tuple[str, str], set[str]] = {}

    def find(node: tuple[str, str]) -> tuple[str, str]:
        up = parent.get(node)
        if up is None:
            parent[node] = node
            return node
        while up != node:
            parent[node] = above = parent[up]
            node, up = above, parent[above]
        return node

    for _c, from_ed, from_rule, to_ed, to_rule in sorted(links):
        a, b = find((from_ed, from_rule)), find((to_ed, to_rule))
        if a == b:
            continue
        eds_a = editions.setdefault(a, {a[0]})
        eds_b = editions.setdefault(b, {b[0]})
        if not eds_a.isdisjoint(eds_b):
            continue
        if len(eds_a) < len(eds_b):
            a, b, eds_a, eds_b = b, a, eds_b, eds_a
        parent[b] = a
        eds_a |= eds_b
        del editions[b]
    return {node: find(node) for node in parent}


def _columns(links: list[tuple[float, str, str, str, str]]) -> Any:
    return tuple([link[i] for link in links] for i in range(5))


def test_the_groups_over_integers_are_those_over_tuples(en_home: Path) -> None:
    """The same groups, the same roots and the same order, on the links of a real store and
    on links made to tie and to conflict (two rules of one edition, equal confidences)."""
    with session.open_judge(en_home) as judge:
        conc = judge.concordance
        links = []
        done: set[frozenset[str]] = set()
        for ed in conc.index.editions:
            for other in conc.neighbours(ed.id):
                if frozenset((ed.id, other)) not in done:
                    done.add(frozenset((ed.id, other)))
                    links += [(-c, ed.id, x, other, y) for x, y, c in conc.exact_rows(ed.id, other)]
    assert len(links) > 1000
    found = _union(_columns(links))
    assert list(found.items()) == list(_union_of_tuples(links).items())
    rng = random.Random(7)
    eds, rules = ["a", "b", "c", "d"], [f"{n}.{k}" for n in (100, 101) for k in "abc"]
    for _ in range(300):
        made = [
            (-rng.choice([1.0, 0.9, 0.5]), *rng.sample(eds, 2)[:1], rng.choice(rules),
             rng.choice(eds), rng.choice(rules))
            for _ in range(rng.randint(0, 30))
        ]  # fmt: skip
        made = [x for x in made if x[1] != x[3]]
        assert list(_union(_columns(made)).items()) == list(_union_of_tuples(made).items())

"""The copies' groups (`ConcordanceGroups`) are built once per store, after an ingest, and
kept on disk: a search process reads them instead of walking 60,000 links."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from judge import session
from judge.search.groups import ConcordanceGroups


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

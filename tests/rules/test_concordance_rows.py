"""`Concordance.exact_rows`: the exact direct links of a pair as plain rows (what the copies'
groups read after each ingest), the same whether the pair was just matched or is read back
from the pairs' database; and a stored side iterated whole holds every link of the pair."""

from __future__ import annotations

from pathlib import Path

from judge.rules.concordance import Concordance
from judge.rules.concordance.pairs import FILE_NAME, StoredSide
from judge.rules.index import load_index


def _expected(conc: Concordance, a: str, b: str) -> list[tuple[str, str, float]]:
    return sorted(
        (x.from_rule, x.to_rule, x.confidence) for x in conc.pair_links(a, b) if not x.approximate
    )


def _pairs(conc: Concordance) -> list[tuple[str, str]]:
    return [(e.id, o) for e in conc.index.editions for o in conc.neighbours(e.id)]


def test_rows_are_the_exact_links_computed_or_stored(en_home: Path, tmp_path: Path) -> None:
    index = load_index(home=en_home)
    computed = Concordance(index, folder=tmp_path)
    pairs = _pairs(computed)
    assert len(pairs) >= 4
    expected = {}
    approximate = 0
    for a, b in pairs:
        expected[(a, b)] = _expected(computed, a, b)
        approximate += sum(1 for x in computed.pair_links(a, b) if x.approximate)
        assert sorted(computed.exact_rows(a, b)) == expected[(a, b)]
    assert approximate  # some links are left out: the rows are not every link
    computed.close()
    assert (tmp_path / FILE_NAME).is_file()

    stored = Concordance(load_index(home=en_home), folder=tmp_path)
    for a, b in pairs:
        assert isinstance(stored._pair_links(a, b), StoredSide)  # read back, not matched
        assert sorted(stored.exact_rows(a, b)) == expected[(a, b)]
        assert _expected(stored, a, b) == expected[(a, b)]
    stored.close()


def test_a_stored_side_iterated_whole_has_every_link(en_home: Path, tmp_path: Path) -> None:
    index = load_index(home=en_home)
    computed = Concordance(index, folder=tmp_path)
    pairs = _pairs(computed)
    links = {pair: sorted(computed.pair_links(*pair), key=repr) for pair in pairs}
    computed.close()
    stored = Concordance(load_index(home=en_home), folder=tmp_path)
    for a, b in pairs:
        side = stored._pair_links(a, b)
        assert isinstance(side, StoredSide)
        side.get(links[(a, b)][0].from_rule)  # one number asked first, then the whole side
        assert sorted(stored.pair_links(a, b), key=repr) == links[(a, b)]
        assert len(side) == len({x.from_rule for x in links[(a, b)]})
    stored.close()

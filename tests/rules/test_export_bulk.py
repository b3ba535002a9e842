"""`judge export` walks every rule of an edition at once (`Concordance.rows_of`: each side of
every pair read whole, chains kept as rows): it must give, rule for rule, the very links that
`judge rule N --edition X --json` gives, in the same order, with the same confidences.

Over a real store: five archive editions across the 2009 renumbering (curated tables, chains
through it) and the three shipped French ones (translations, cross-language chains)."""

from __future__ import annotations

import heapq
import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest

import judge
from judge.cli import main
from judge.rules.concordance import Concordance, Link
from judge.rules.concordance.links import compose, link_order, row_of
from judge.rules.model import IN_ENGLISH, IN_FRENCH, PRESENT, LazyRules
from judge.rules.numbers import canonical, sort_key
from tests.conftest import CORPUS_EN, require_corpus_en

ARCHIVE = CORPUS_EN / "archive"
DATES = ["2007-10-01", "2008-10-01", "2009-10-01", "2010-07-16", "2012-07-01"]
# Every rule of these: old numbering (chains across 2009), the new one, French.
EXPORTED = ["en-2009-10-01", "en-2007-10-01", "fr-2011"]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_corpus_en()
    home = tmp_path_factory.mktemp("bulk-home")
    outcomes = judge.ingest_many([ARCHIVE / f"en-{d}.txt" for d in DATES], home=home)
    assert [o.error for o in outcomes if not o.ok] == []
    return home


@pytest.fixture(scope="module")
def exported(home: Path) -> dict[str, list[dict[str, Any]]]:
    with judge.open_judge(home) as j:
        return {eid: j.export([eid]).to_dict() for eid in EXPORTED}


@pytest.mark.parametrize("edition", EXPORTED)
def test_export_gives_every_rule_the_links_of_judge_rule(
    home: Path, exported: dict[str, list[dict[str, Any]]], edition: str
) -> None:
    rows = [r for r in exported[edition] if r["kind"] != "glossary"]
    # A Judge of its own: the rule-by-rule path, never walked whole.
    with judge.open_judge(home) as j:
        assert len(rows) == len(j.edition(edition).rules) > 100
        differing = [
            r["rule"]
            for r in rows
            if j.rule(r["rule"], edition).to_dict()["counterparts"] != r["counterparts"]
        ]
    assert differing == []
    links = [lk for r in rows for lk in r["counterparts"]]
    # What makes the comparison worth it: chains, approximate links, other languages.
    assert sum(bool(lk["via"]) for lk in links) > len(rows)
    assert sum(lk["approximate"] for lk in links) > len(rows) / 10
    assert {lk["to"]["edition"][:2] for lk in links} == {"en", "fr"}


def test_the_cli_export_and_rule_agree(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the CLI, whole processes' worth: the export's JSON against `rule --json`."""
    monkeypatch.setenv("JUDGE_HOME", str(home))
    capsys.readouterr()
    assert main(["export", "--edition", "en-2008-10-01"]) == 0
    rows = {r["rule"]: r for r in json.loads(capsys.readouterr().out) if r["kind"] != "glossary"}
    numbers = list(rows)[:: max(1, len(rows) // 40)]
    for number in numbers:
        assert main(["rule", number, "--edition", "en-2008-10-01", "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["counterparts"] == rows[number]["counterparts"], number


def _reference_exact(conc: Concordance, edition: str, number: str) -> dict[str, list[Link]]:
    """The exact links of a rule as the concordance found them before its chains were kept
    as rows: the plain Dijkstra over Link tuples, then `compose` of the chosen paths."""
    language = {e.id: e.language for e in conc.index.editions}
    result: dict[str, list[Link]] = {}
    for ed in conc.index.editions:
        if ed.id != edition:
            direct = [lk for lk in conc.direct(edition, number, ed.id) if not lk.approximate]
            if direct:
                result[ed.id] = sorted(direct, key=link_order)
    best: dict[tuple[str, str], tuple[float, tuple[Link, ...]]] = {}
    order = itertools.count()
    heap: list[tuple[float, int, int, tuple[str, str], tuple[Link, ...], bool]] = [
        (-1.0, 0, next(order), (edition, number), (), True)
    ]
    done: set[tuple[str, str]] = set()
    while heap:
        neg, hops, _n, node, path, one_language = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        seen = {edition, *(lk.to_edition for lk in path)}
        for other in conc.neighbours(node[0]):
            if other in seen:
                continue
            along = one_language and language[other] == language[edition]
            decay = 0.95 if path and not along else 1.0
            for lk in conc.direct(node[0], node[1], other):
                if lk.approximate:
                    continue
                score = -neg * lk.confidence * decay
                target = (lk.to_edition, lk.to_rule)
                if target in done or best.get(target, (0.0,))[0] >= score:
                    continue
                best[target] = (score, (*path, lk))
                heapq.heappush(heap, (-score, hops + 1, next(order), target, (*path, lk), along))
    chosen: dict[str, tuple[tuple[float, int, tuple[int, int, int, int]], float, Any]] = {}
    for (ed_id, num), (score, path) in best.items():
        if len(path) < 2 or ed_id in result:
            continue
        key = sort_key(num) if canonical(num) else (0, 0, 0, 0)
        rank = (-round(min(score, 1.0), 4), len(path) - 1, key)
        if ed_id not in chosen or rank < chosen[ed_id][0]:
            chosen[ed_id] = (rank, score, path)
    for ed_id, (_rank, score, path) in chosen.items():
        same = language[edition] == language[ed_id]
        result[ed_id] = [compose(path, score, same, path[-1].present)]
    return result


@pytest.mark.parametrize("edition", ["en-2009-10-01", "fr-2011"])
def test_the_chains_are_the_plain_dijkstra(home: Path, edition: str) -> None:
    """The same concordance code serves `rule` and `export`: checked here against the plain
    algorithm it replaced, every rule of the edition."""
    with judge.open_judge(home) as j:
        conc = j.concordance
        numbers = list(j.edition(edition).rules)
        differing = [
            n
            for n in numbers
            if conc._exact(edition, n)
            != {
                ed: [row_of(lk) for lk in v] for ed, v in _reference_exact(conc, edition, n).items()
            }
        ]
        rows = [row for n in numbers for v in conc._exact(edition, n).values() for row in v]
    composed = sum(bool(via) for _e, _r, _m, _c, _moved, via, _a, _p in rows)
    assert differing == []
    assert composed > len(numbers)


def _floats(value: object) -> list[float]:
    if isinstance(value, dict):
        return [f for v in value.values() for f in _floats(v)]
    if isinstance(value, list):
        return [f for v in value for f in _floats(v)]
    return [value] if isinstance(value, float) else []


def test_the_export_is_written_as_json_writes_it(
    home: Path, exported: dict[str, list[dict[str, Any]]]
) -> None:
    """`judge export` writes orjson's bytes, kept on disk, without a look at their floats:
    its only floats are confidences rounded to 3 decimals in 0-1, which orjson writes as
    json does; and the list of two editions is the two lists joined."""
    data = exported["fr-2011"] + exported["en-2009-10-01"]
    floats = _floats(data)
    assert len(floats) > 10_000
    assert all(f == 0.0 or (0.001 <= f <= 1.0 and math.isclose(f, round(f, 3))) for f in floats)
    with judge.open_judge(home) as j:
        out = j.export_json(["fr-2011", "en-2009-10-01"])
    assert out.decode("utf-8") == json.dumps(data, ensure_ascii=False, indent=2)


def test_the_cached_facts_are_those_of_the_rules(home: Path) -> None:
    """What the concordance asks of other editions' rules (presence, text, language) is read
    from the cache (`rule_facts`, unread editions) or from the rules (read ones): alike."""
    with judge.open_judge(home) as lazy, judge.open_judge(home) as read:
        editions = [e.id for e in lazy.editions()]
        for eid in editions:
            rules = lazy.edition(eid).rules
            assert isinstance(rules, LazyRules) and rules.facts() is not None
            assert dict(read.edition(eid).rules.items())  # read whole: facts() is None now
        a, b = lazy.concordance, read.concordance
        for eid in editions:
            numbers = list(read.edition(eid).rules)
            assert [a._facts(eid, n) for n in numbers] == [b._facts(eid, n) for n in numbers]
            assert isinstance(lazy.edition(eid).rules, LazyRules)
            assert lazy.edition(eid).rules.facts() is not None, "still unread"
        facts = [a._facts(e, n) for e in editions for n in read.edition(e).rules]
    assert {f & PRESENT for f in facts} == {0, PRESENT}
    assert {f & (IN_FRENCH | IN_ENGLISH) for f in facts} >= {IN_FRENCH, IN_ENGLISH}

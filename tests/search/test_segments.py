"""The search index grows by edition: a table per edition, a segment per build holding only
the texts no kept segment has, each distinct text indexed once with the editions holding it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from judge.rules.index import RuleIndex, load_index
from judge.search import index as search_index
from judge.search.index import build, iter_documents
from judge.search.query import Searcher, SearchResult
from tests.conftest import EN_FILES, require_corpus_en

QUERIES = [
    "blessures mortelles",
    "contact mortel",
    "deathtouch",
    "state-based actions",
    "cimetierre",
    "règle des légendes",
    "timing et priorité",
    "704.5g",
]


class Calls:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))


def answers(searcher: Searcher, **options: object) -> list[object]:
    def shape(r: SearchResult) -> object:
        return [
            r.corrected,
            r.message,
            [(h.edition, h.rule, h.snippet, h.score, h.also) for h in r.hits],
        ]

    return [shape(searcher.search(q, **options)) for q in QUERIES]  # type: ignore[arg-type]


def published(home: Path, sub: str) -> dict[str, bytes]:
    root = home / "cache" / "search" / sub
    out: dict[str, bytes] = {}
    for entry in root.iterdir():
        if entry.name.startswith("."):
            continue
        files = [entry] if entry.is_file() else sorted(entry.iterdir())
        for f in files:
            out[str(f.relative_to(root))] = f.read_bytes()
    return out


def segment_sizes(home: Path) -> dict[str, int]:
    root = home / "cache" / "search" / "segments"
    return {
        seg.name: len(search_index._read_documents(seg)[0])
        for seg in root.iterdir()
        if not seg.name.startswith(".")
    }


def distinct_texts(index: RuleIndex) -> int:
    return len(
        {
            search_index._fields_digest(search_index._indexed_fields(d))
            for d in iter_documents(index)
        }
    )


def test_an_added_edition_adds_one_table_and_one_segment(
    index: RuleIndex, en_index: RuleIndex, tmp_path: Path
) -> None:
    home = tmp_path / "grown"
    build(index, home=home)
    segments, tables = published(home, "segments"), published(home, "editions")
    (first,) = segment_sizes(home).values()
    assert first == distinct_texts(index)
    with Searcher(en_index, home=home) as grown:
        grown_answers = answers(grown)
        filtered = answers(grown, editions=["en-2008-07-15"])
    # what was there is untouched; the English editions' own table and texts are added
    assert {k: v for k, v in published(home, "segments").items() if k in segments} == segments
    new_tables = set(published(home, "editions")) - set(tables)
    assert len(new_tables) == len(en_index.editions) - len(index.editions) == 2
    sizes = segment_sizes(home)
    assert len(sizes) == 2
    assert sum(sizes.values()) == distinct_texts(en_index)
    # and the answers are those of an index built in one go
    with Searcher(en_index, home=tmp_path / "fresh") as fresh:
        assert answers(fresh) == grown_answers
        assert answers(fresh, editions=["en-2008-07-15"]) == filtered
    assert len(segment_sizes(tmp_path / "fresh")) == 1


def twin(index: RuleIndex, of: str, new_id: str) -> RuleIndex:
    """`index` plus a copy of edition `of` under another id (every text shared)."""
    ed = index.edition(of)
    rules = {n: dataclasses.replace(r, edition=new_id) for n, r in ed.rules.items()}
    return RuleIndex([*index.editions, dataclasses.replace(ed, id=new_id, rules=rules)])


def test_a_shared_paragraph_is_indexed_once(index: RuleIndex, tmp_path: Path) -> None:
    doubled = twin(index, "fr-2024", "fr-2024-bis")
    build(index, home=tmp_path / "one")
    build(doubled, home=tmp_path / "two")
    assert segment_sizes(tmp_path / "two") == segment_sizes(tmp_path / "one")
    docs = len(list(iter_documents(index)))
    copies = len([d for d in iter_documents(index) if d.edition == "fr-2024"])
    with Searcher(doubled, home=tmp_path / "two") as s:
        assert len(s._docs) == docs + copies  # each paragraph of each edition, as before
        top = s.search("blessures mortelles").hits[0]
        assert {(top.edition, top.rule), *top.also} >= {
            ("fr-2024", "704.5g"),
            ("fr-2024-bis", "704.5g"),
        }
        only = s.search("blessures mortelles", editions=["fr-2024-bis"]).hits[0]
        assert (only.edition, only.rule) == ("fr-2024-bis", "704.5g")
        assert s.search("contact mortel", editions=["fr-2024-bis"]).hits[0].edition == (
            "fr-2024-bis"
        )


def test_removing_an_edition_indexes_nothing(en_index: RuleIndex, tmp_path: Path) -> None:
    build(en_index, home=tmp_path)
    segments, tables = published(tmp_path, "segments"), published(tmp_path, "editions")
    fewer = RuleIndex([ed for ed in en_index.editions if ed.id != "en-2008-07-15"])
    calls = Calls()
    with Searcher(fewer, home=tmp_path, progress=calls) as s:
        assert calls.calls == [], "no edition indexed again"
        hits = s.search("state-based effects", limit=50).hits
        assert hits
        assert all(e != "en-2008-07-15" for h in hits for e, _ in [(h.edition, h.rule), *h.also])
    assert published(tmp_path, "segments") == segments
    assert set(published(tmp_path, "editions")) == set(tables)


def folder_size(root: Path) -> int:
    return sum(f.stat().st_size for f in root.rglob("*") if f.is_file())


def test_tables_are_binary_and_the_index_compact(index: RuleIndex, tmp_path: Path) -> None:
    build(index, home=tmp_path / "one")
    build(twin(index, "fr-2024", "fr-2024-bis"), home=tmp_path / "two")
    root = tmp_path / "two" / "cache" / "search"
    assert not list(root.rglob("*.json"))
    for path in [*(root / "views").iterdir(), *(root / "editions").iterdir()]:
        assert path.read_bytes().startswith(search_index._MAGIC)
    # an edition whose texts are all known costs its table, not a second index
    one = folder_size(tmp_path / "one" / "cache" / "search")
    two = folder_size(root)
    assert two < 1.25 * one, f"{two} octets pour deux éditions identiques, {one} pour une"


def test_ingest_builds_the_search_index(tmp_path: Path) -> None:
    """`judge ingest` prepares the new edition's table and segment: the first search after
    it builds nothing."""
    require_corpus_en()
    from judge import session

    home = tmp_path / "home"
    session.ingest(EN_FILES["en-2008-07-15"], home=home)
    calls = Calls()
    with Searcher(load_index(home=home), home=home, progress=calls) as s:
        assert s.search("deathtouch").hits
    assert calls.calls == []
    session.remove("en-2008-07-15", home=home)
    calls = Calls()
    with Searcher(load_index(home=home), home=home, progress=calls) as s:
        assert s.search("cimetière").hits
    assert calls.calls == []


def test_opening_reads_no_rule(en_home: Path, tmp_path: Path) -> None:
    """What ranking needs of each document (its rule known only by its title…) is in the
    tables: a searcher opens without reading one edition's rules."""
    build(load_index(home=en_home), home=tmp_path)
    fresh = load_index(home=en_home)
    lazy = [ed.rules for ed in fresh.editions if hasattr(ed.rules, "body")]
    assert len(lazy) == len(fresh.editions)
    with Searcher(fresh, home=tmp_path) as s:
        assert not any(rules.body.loaded for rules in lazy)  # type: ignore[attr-defined]
        assert not any(rules.body.single for rules in lazy), "no rule read one by one"  # type: ignore[attr-defined]
        title_only = [
            i for i, info in enumerate(s._docs) if info.kind != "glossary" and s._title_only[i]
        ]
        assert title_only
        for i in title_only[:50]:
            info = s._docs[i]
            assert fresh.edition(info.edition).rules[info.rule].title_only


def view_segments(index: RuleIndex, home: Path) -> list[str]:
    view = search_index.index_dir(index, home)
    return search_index._read_strings(search_index._read_signed(view, home)[0])


def test_too_many_segments_are_merged_into_one(
    index: RuleIndex, en_index: RuleIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_index, "MAX_SEGMENTS", 2)
    home = tmp_path / "home"
    middle = RuleIndex([ed for ed in en_index.editions if ed.id != "en-2008-07-15"])
    build(index, home=home)
    build(middle, home=home)
    assert len(view_segments(middle, home)) == 2  # one per build, up to the limit
    build(en_index, home=home)
    assert len(view_segments(en_index, home)) == 1  # beyond it, all indexed again in one
    with Searcher(en_index, home=home) as merged:
        got = answers(merged)
    with Searcher(en_index, home=tmp_path / "fresh") as fresh:
        assert answers(fresh) == got


def test_tokens_with_the_word_cache_are_the_plain_tokens(en_index: RuleIndex) -> None:
    """The typo corrector's words of each text: folding each written word once (`words`)
    gives what folding every token does."""
    from judge.search.analysis import TOKEN_RE, fold_token

    words: dict[str, tuple[str, str] | None] = {}
    texts = 0
    for doc in iter_documents(en_index):
        for text in (doc.body, doc.titles):
            plain = []
            for match in TOKEN_RE.finditer(text):
                folded = fold_token(match.group(0))
                if len(folded) >= 2 and not folded.isdigit():
                    plain.append((folded, match.group(0).lower()))
            assert search_index._tokens(text, {}, words) == tuple(plain), text
            texts += 1
    assert texts > 5_000
    assert any(token is None for token in words.values())  # digits and letters kept out

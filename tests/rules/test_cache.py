"""The parsed-rules cache (judge/rules/cache.py): one JSON file per edition, data only, never
code; a cache that is malformed, truncated or written for another key is ignored and
rebuilt; a failed write leaves nothing behind; only our own files are ever deleted; an
edition is read one rule at a time until something walks it whole."""

from __future__ import annotations

import errno
import io
import json
import os
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

from judge.cli import main
from judge.rules import cache as rules_cache
from judge.rules import index as rules_index
from judge.rules import store
from judge.rules.index import RuleIndex, load_index
from judge.rules.model import LazyRules, Rule


def rules_dir(home: Path) -> Path:
    return store.cache_dir(home) / "rules"


def caches(home: Path) -> list[Path]:
    return [
        p
        for p in sorted(rules_dir(home).glob("*.json"))
        if p.is_file() and re.fullmatch("[0-9a-f]{64}", p.stem)
    ]


def the_cache(home: Path, edition: str = "fr-pre2009") -> Path:
    """The cache file of `edition` (there must be exactly one, and one per edition)."""
    found = caches(home)
    assert len(found) == len(load_index(home=home, use_cache=False).editions), found
    mine = [p for p in found if json.loads(p.read_bytes().split(b"\n")[0])["edition"] == edition]
    assert len(mine) == 1, found
    return mine[0]


def unreadable(cache: Path) -> bool:
    """What load_index does with the file: header, then the edition whole."""
    header = rules_cache.read_header(cache, cache.stem)
    return header is None or rules_cache.EditionFile(cache, header).edition() is None


def fresh(home: Path) -> RuleIndex:
    return load_index(home=home, use_cache=False)


def same(a: RuleIndex, b: RuleIndex) -> bool:
    return a.editions == b.editions and a.warnings == b.warnings


class Marker:
    """Unpickling this creates the file `path`: the proof that a cache ran code."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.path), "w"))


# --- the cache is data, never code -------------------------------------------------------


def test_a_malicious_pickle_is_never_executed(tmp_home: Path, tmp_path: Path) -> None:
    expected = fresh(tmp_home)
    load_index(home=tmp_home)
    cache = the_cache(tmp_home)
    marker = tmp_path / "pwned"
    evil = pickle.dumps(Marker(marker))
    cache.write_bytes(evil)
    cache.with_suffix(".pickle").write_bytes(evil)  # where the older versions looked
    index = load_index(home=tmp_home)
    assert not marker.exists(), "the cache file was unpickled"
    assert same(index, expected)
    assert the_cache(tmp_home) == cache  # rebuilt under the same name, as data
    assert json.loads(cache.read_bytes().split(b"\n")[0])["format"] == rules_cache.FORMAT
    assert not cache.with_suffix(".pickle").exists()  # ours and stale: swept


def test_the_marker_would_appear_if_unpickled(tmp_path: Path) -> None:
    """The malicious payload of the test above does work when unpickled."""
    marker = tmp_path / "pwned"
    pickle.load(io.BytesIO(pickle.dumps(Marker(marker))))
    assert marker.exists()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda b: b[: len(b) // 2], id="truncated"),
        pytest.param(lambda b: b"", id="empty"),
        pytest.param(lambda b: os.urandom(4096), id="garbage"),
        pytest.param(lambda b: b"\xff\xfe" + b[2:], id="not-utf8"),
        pytest.param(lambda b: b"[" * 100_000 + b"]" * 100_000, id="deeply-nested"),
        pytest.param(lambda b: b.replace(b'"inline_pre2009"', b'"evil"', 1), id="unknown-layout"),
        pytest.param(lambda b: b.replace(b',"fr",', b",0,", 1), id="wrong-type"),
    ],
)
def test_a_damaged_cache_is_rebuilt(tmp_home: Path, damage: Any) -> None:
    expected = fresh(tmp_home)
    load_index(home=tmp_home)
    cache = the_cache(tmp_home)
    good = cache.read_bytes()
    damaged = damage(good)
    assert damaged != good
    cache.write_bytes(damaged)
    assert unreadable(cache)
    assert same(load_index(home=tmp_home), expected)
    assert cache.read_bytes() == good  # rewritten


def test_a_cache_for_another_key_is_ignored(tmp_home: Path) -> None:
    """The name is not the only check: the content carries its key."""
    expected = fresh(tmp_home)
    load_index(home=tmp_home)
    cache = the_cache(tmp_home)
    lines = cache.read_bytes().split(b"\n")
    head, rest = json.loads(lines[0]), json.loads(lines[3])
    assert head["key"] == rest["key"] == cache.stem
    # A valid cache of another edition (another label), its key naming our file.
    rest["editions"][0][1] = "Une autre édition"
    head["key"] = rest["key"] = "0" * 64
    lines[0], lines[3] = (json.dumps(x).encode() for x in (head, rest))
    cache.write_bytes(b"\n".join(lines))
    assert unreadable(cache)
    assert same(load_index(home=tmp_home), expected)
    # Same content under the right key is accepted: the key alone made the difference.
    head["key"] = rest["key"] = cache.stem
    lines[0], lines[3] = (json.dumps(x).encode() for x in (head, rest))
    cache.write_bytes(b"\n".join(lines))
    header = rules_cache.read_header(cache, cache.stem)
    assert header is not None
    cached = rules_cache.EditionFile(cache, header).edition()
    assert cached is not None and cached.label == "Une autre édition"


def test_a_wrong_version_is_ignored(tmp_home: Path) -> None:
    load_index(home=tmp_home)
    cache = the_cache(tmp_home)
    lines = cache.read_bytes().split(b"\n")
    head = json.loads(lines[0])
    head["version"] = rules_cache.VERSION - 1
    lines[0] = json.dumps(head).encode()
    cache.write_bytes(b"\n".join(lines))
    assert rules_cache.read_header(cache, cache.stem) is None


def test_links_out_of_the_edition_are_refused(tmp_home: Path) -> None:
    load_index(home=tmp_home)
    cache = the_cache(tmp_home)
    lines = cache.read_bytes().split(b"\n")
    rules = json.loads(lines[2])
    rule = next(r for r in rules if r[5] is not None)
    rule[5] = "999.9z"  # its parent: breadcrumbs would fail on it
    lines[2] = json.dumps(rules).encode()
    cache.write_bytes(b"\n".join(lines))
    header = rules_cache.read_header(cache, cache.stem)
    assert header is not None
    part = rules_cache.EditionFile(cache, header)
    assert part.edition() is None
    # Read alone (its offset moved with the new line: read what is there now), still refused.
    assert part.rule(rule[1]) is None


# --- equal to a fresh parse --------------------------------------------------------------


def test_the_cache_gives_back_a_fresh_parse(en_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every dataclass of every edition (shipped and English), field for field."""
    expected = fresh(en_home)
    load_index(home=en_home)  # makes sure the caches are written
    parse = rules_index.parse_edition
    calls: list[int] = []

    def counting(*args: Any) -> Any:
        calls.append(1)
        return parse(*args)

    monkeypatch.setattr(rules_index, "parse_edition", counting)
    cached = load_index(home=en_home)
    assert same(cached, expected)
    assert calls == []
    assert [e.id for e in cached.editions] == [e.id for e in expected.editions]
    assert any(e.issues for e in cached.editions) and any(e.glossary for e in cached.editions)
    ed = next(e for e in cached.editions if e.id == "en-2011-09-30")
    assert list(ed.rules) == list(expected.edition("en-2011-09-30").rules)  # document order
    assert cached.content_key() == load_index(home=en_home).content_key()


def test_one_rule_is_read_without_its_edition(en_home: Path) -> None:
    """A lookup, a breadcrumb and the backlinks read single rules; the rules equal a fresh
    parse's; walking the rules reads the edition whole."""
    expected = fresh(en_home)
    load_index(home=en_home)
    index = load_index(home=en_home)
    ed = index.edition("en-2011-09-30")
    assert isinstance(ed.rules, LazyRules)
    rule = index.lookup("704.5g", "en-2011-09-30")
    want = expected.lookup("704.5g", "en-2011-09-30")
    assert rule == want
    assert index.breadcrumb(rule) == expected.breadcrumb(want)
    cited = index.lookup("704.5a", "en-2011-09-30")
    assert index.cited_by(cited) == expected.cited_by(expected.lookup("704.5a", "en-2011-09-30"))
    assert ed.rule_count == expected.edition("en-2011-09-30").rule_count
    assert len(ed.glossary) == len(expected.edition("en-2011-09-30").glossary)
    assert not any(e.rules.body.loaded for e in index.editions if isinstance(e.rules, LazyRules))
    assert list(ed.rules.values()) == list(expected.edition("en-2011-09-30").rules.values())
    assert ed.rules.body.loaded


# --- writing -----------------------------------------------------------------------------


def test_a_write_failing_half_way_leaves_nothing(
    tmp_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_fdopen = os.fdopen

    class Full(io.BufferedWriter):
        def write(self, data: Any) -> int:
            super().write(bytes(data[:100]))
            self.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

    def fdopen(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        return Full(real_fdopen(fd, mode, buffering=0)) if "w" in mode else real_fdopen(fd, mode)

    monkeypatch.setattr(os, "fdopen", fdopen)  # the disk is full for everyone
    index = load_index(home=tmp_home)
    assert same(index, fresh(tmp_home))
    assert not rules_dir(tmp_home).exists() or os.listdir(rules_dir(tmp_home)) == []
    assert main(["rule", "704.5g"]) == 0  # the command still works
    assert "704.5g" in capsys.readouterr().out
    assert os.listdir(rules_dir(tmp_home)) == []
    monkeypatch.undo()
    load_index(home=tmp_home)
    assert the_cache(tmp_home).is_file()  # and the next working disk gets its cache


def test_only_the_current_caches_and_none_of_the_others_files(tmp_home: Path) -> None:
    folder = rules_dir(tmp_home)
    folder.mkdir(parents=True)
    hour = 3600.0
    ours = {
        "a" * 64 + ".json": True,  # an older cache
        "b" * 64 + ".pickle": True,  # a cache of an older version
        "tmpab12_x.tmp": True,  # a temporary file of an older version, stale
        "rules-cd34.tmp": True,  # ours, stale
    }
    theirs = [
        "notes.txt",
        "A" * 64 + ".json",
        "a" * 63 + ".json",
        "rules-x.tmp.keep",
        "tmp.tmp",
        "readme.json",
    ]
    for name in [*ours, *theirs]:
        (folder / name).write_text("x", encoding="utf-8")
        when = (folder / name).stat().st_mtime - hour
        os.utime(folder / name, (when, when))
    young = folder / "rules-young.tmp"  # another process writing right now
    young.write_text("x", encoding="utf-8")
    (folder / ("c" * 64 + ".json")).mkdir()  # not a file: left alone
    load_index(home=tmp_home)
    left = sorted(os.listdir(folder))
    mine = [p.name for p in caches(tmp_home)]
    assert len(mine) == 3  # one per shipped edition
    # documents.json: the size, mtime and hash of each document (index._SEEN)
    assert left == sorted([*mine, "documents.json", *theirs, young.name, "c" * 64 + ".json"])


def test_the_encoder_knows_every_field() -> None:
    """A field added to the model must be added to the cache too (else it would be lost)."""
    rules_cache.check_fields()
    broken = dict(rules_cache.FIELDS)
    broken[Rule] = broken[Rule][:-1]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rules_cache, "FIELDS", broken)
        with pytest.raises(TypeError, match="Rule"):
            rules_cache.check_fields()


def test_a_document_is_hashed_again_when_its_stat_changes(
    tmp_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """documents.json spares re-reading unchanged documents; a size or mtime that no longer
    matches means the document is read and hashed again (and the parsed cache still fits)."""
    load_index(home=tmp_home)
    seen_file = rules_dir(tmp_home) / "documents.json"
    seen = json.loads(seen_file.read_bytes())
    path = next(iter(seen))
    real = list(seen[path])
    seen[path] = [real[0], real[1] + 1, "0" * 64]  # another mtime, a wrong hash
    seen_file.write_text(json.dumps(seen), encoding="utf-8")
    calls: list[int] = []
    parse = rules_index.parse_edition
    monkeypatch.setattr(rules_index, "parse_edition", lambda *a: calls.append(1) or parse(*a))
    load_index(home=tmp_home)
    assert calls == []  # the real hash was computed again: the same key, the same cache
    assert json.loads(seen_file.read_bytes())[path] == real
    # The same stat with a wrong hash is trusted (as git's index): another key, a new parse.
    seen[path] = [real[0], real[1], "0" * 64]
    seen_file.write_text(json.dumps(seen), encoding="utf-8")
    load_index(home=tmp_home)
    assert calls == [1]

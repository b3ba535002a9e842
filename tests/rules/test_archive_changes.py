"""`changes` between two neighbouring editions of the archive agrees with what their texts
say, computed here from the files (tests.rules.test_archive reads them without the parser):
the rule numbers only one of them has, the rules whose words changed. Only the two editions
of a pair are ingested, in a home of their own."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

import judge
from tests.rules.test_archive import Text, archive_path, text_of

PAIRS = [
    ("en-2024-08-02.txt", "en-2025-04-04.txt"),
    ("en-2007-10-01.txt", "en-2008-10-01.txt"),
]

_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})
_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]{0,2})?")


def rule_texts(text: Text) -> dict[str, str]:
    """Each rule's text: its line and the lines under it up to the next rule or heading,
    without its examples (what the library compares)."""
    starts = sorted([(t.at, t.number) for t in text.rules] + [(h.at, "") for h in text.headings])
    ends = [at for at, _ in starts[1:]] + [text.glossary_at + 1]
    out: dict[str, str] = {}
    for (at, number), end in zip(starts, ends, strict=True):
        if not number:
            continue
        assert number not in out, f"{number} twice: pick another pair"
        lines = [line.strip() for line in text.lines[at - 1 : end - 1]]
        lines[0] = next(t.text for t in text.rules if t.at == at)
        out[number] = "\n".join(s for s in lines if s and not s.startswith("Example"))
    return {n: t for n, t in out.items() if t}


def words(text: str, *, masked: bool = False) -> list[str]:
    """Words and punctuation marks: spacing and quote styles are not changes (the library
    documents both as cosmetic); `masked` hides every rule number."""
    text = text.translate(_QUOTES)
    if masked:
        text = _NUMBER.sub("#", text)
    return re.findall(r"\w+|[^\w\s]", text)


@dataclass(frozen=True)
class Pair:
    old: dict[str, str]
    new: dict[str, str]
    report: dict[str, Any]  # Changes.to_dict()


_PAIRS: dict[tuple[str, str], Pair] = {}


@pytest.fixture(params=PAIRS, ids=lambda p: f"{p[0][3:13]}..{p[1][3:13]}")
def pair(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Pair:
    names: tuple[str, str] = request.param
    if names not in _PAIRS:
        home = tmp_path_factory.mktemp("changes")
        outcomes = judge.ingest_many([archive_path(n) for n in names], home=home)
        assert [o.error for o in outcomes] == [None, None]
        ids = [o.edition for o in outcomes]
        assert ids[0] is not None and ids[1] is not None
        with judge.open_judge(home) as j:
            report = j.changes(ids[0], ids[1]).to_dict()
        texts = [rule_texts(text_of(n)) for n in names]
        _PAIRS[names] = Pair(texts[0], texts[1], report)
    return _PAIRS[names]


def _moves(p: Pair) -> list[tuple[str, str, bool]]:
    return [(m["from"], m["to"], m["changed"]) for m in p.report["moved"]]


def test_numbers_only_one_edition_has(pair: Pair, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = set(pair.old), set(pair.new)
    added, removed = set(pair.report["added"]), set(pair.report["removed"])
    moves = _moves(pair)
    sources, targets = {m[0] for m in moves}, {m[1] for m in moves}
    assert len(sources) == len(targets) == len(moves)  # one to one
    assert added | targets <= new and removed | sources <= old
    # A number only the new text has is a rule added or the new place of a moved one; a
    # number only the old text has, a rule removed or the old place of a moved one.
    assert (added | targets) - old == new - old
    assert (removed | sources) - new == old - new
    # Every other rule of either side keeps its number: the counts balance.
    assert not added & targets and not removed & sources
    assert len(new) - len(added) - len(targets) == len(old) - len(removed) - len(sources)
    with capsys.disabled():
        print(
            f"\n{pair.report['from']} → {pair.report['to']} : {len(old)} → {len(new)} règles ; "
            f"numéros nouveaux {len(new - old)}, disparus {len(old - new)} ; judge : "
            f"{len(added)} ajoutées, {len(removed)} retirées, {len(moves)} déplacées"
        )


def test_unchanged_moves_keep_their_words(pair: Pair) -> None:
    for old, new, changed in _moves(pair):
        before, after = pair.old[old], pair.new[new]
        if changed:
            assert words(before) != words(after), (old, new)
        else:
            assert words(before, masked=True) == words(after, masked=True), (old, new)


def _renumbered(p: Pair, number: str) -> bool:
    """Whether the rule's texts differ only by cross-references that follow a move the
    report gives (a rule's, or its section's)."""
    rules = {(m[0], m[1]) for m in _moves(p)}
    sections = {(a.split(".")[0], b.split(".")[0]) for a, b in rules}
    before, after = _NUMBER.findall(p.old[number]), _NUMBER.findall(p.new[number])
    if len(before) != len(after):
        return False
    return all(a == b or (a, b) in rules | sections for a, b in zip(before, after, strict=True))


def test_changed_rules(pair: Pair, capsys: pytest.CaptureFixture[str]) -> None:
    moved = {n for m in _moves(pair) for n in m[:2]}
    gone = set(pair.report["added"]) | set(pair.report["removed"]) | moved
    kept = (set(pair.old) & set(pair.new)) - gone
    changed = {c["rule"] for c in pair.report["changed"]}
    assert changed <= kept
    differ = {n for n in kept if words(pair.old[n]) != words(pair.new[n])}
    reworded = {
        n for n in kept if words(pair.old[n], masked=True) != words(pair.new[n], masked=True)
    }
    assert reworded <= changed <= differ
    only_numbers = differ - reworded
    assert {n for n in only_numbers if not _renumbered(pair, n)} == changed & only_numbers
    # A rule whose text is the same in both keeps its number.
    same = {n for n in set(pair.old) & set(pair.new) if words(pair.old[n]) == words(pair.new[n])}
    assert not same & gone
    with capsys.disabled():
        print(
            f"\n{pair.report['from']} → {pair.report['to']} : {len(kept)} règles gardent leur "
            f"numéro, {len(differ)} textes différents dont {len(only_numbers)} par les seuls "
            f"renvois ; judge : {len(changed)} modifiées"
        )


def test_pairs_are_neighbours() -> None:
    """Each pair is two consecutive editions of the archive."""
    names = sorted(p.name for p in archive_path(PAIRS[0][0]).parent.glob("en-*.txt"))
    for old, new in PAIRS:
        assert names.index(new) == names.index(old) + 1

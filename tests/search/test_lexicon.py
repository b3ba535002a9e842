"""The glossary and word lists, analysed once per home (`load_lexicon`): what a fresh process
reads back is what the analysis gives, a damaged or stale file is analysed again, and an ingest
leaves the file for the next search."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from judge import session
from judge.search import lexicon
from judge.search.lexicon import Lexicon, lexicon_folder, load_glossary, load_lexicon, load_words


def _fresh() -> Lexicon:
    return Lexicon(
        load_glossary(lexicon.GLOSSARY_PATH),
        frozenset(load_words(lexicon.FRENCH_WORDS_PATH)),
        frozenset(load_words(lexicon.QUESTION_WORDS_PATH)),
    )


def _same(a: Lexicon, b: Lexicon) -> None:
    assert a.french == b.french and a.question_words == b.question_words
    for f in dataclasses.fields(a.glossary):
        assert getattr(a.glossary, f.name) == getattr(b.glossary, f.name), f.name


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def test_the_analysis_read_back_is_the_analysis(tmp_path: Path) -> None:
    folder = tmp_path / "lexicon"
    first = load_lexicon(folder)
    [kept] = _files(folder)
    again = load_lexicon(folder)
    _same(first, _fresh())
    _same(again, _fresh())
    assert len(again.glossary.variants) > 500 and "cimetiere" in again.glossary.words
    assert _files(folder) == [kept]


def test_the_file_is_read_not_analysed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "lexicon"
    load_lexicon(folder)

    def no_analysis(self: lexicon.Glossary) -> None:
        raise AssertionError("analysed again")

    monkeypatch.setattr(lexicon.Glossary, "_analyse", no_analysis)
    assert load_lexicon(folder).glossary.variants


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"{not json",
        b"[]",
        b'{"format": "judge-lexicon 1"}',
        "variants",  # a variant naming a term that does not exist
        "starts",  # a start naming a variant that does not exist
        "language",  # a form in a language the search does not have
    ],
)
def test_a_damaged_file_is_analysed_again(tmp_path: Path, damage: bytes | str) -> None:
    import orjson

    folder = tmp_path / "lexicon"
    load_lexicon(folder)
    [kept] = _files(folder)
    good = kept.read_bytes()
    if isinstance(damage, bytes):
        kept.write_bytes(damage)
    else:
        data = orjson.loads(good)
        if damage == "variants":
            data["variants"][0][0] = len(data["terms"])
        elif damage == "starts":
            data["starts"][0][3] = [len(data["variants"])]
        else:
            data["variants"][0][1] = "de"
        kept.write_bytes(orjson.dumps(data))
    _same(load_lexicon(folder), _fresh())
    assert kept.read_bytes() == good  # written again, whole


def test_another_glossary_is_analysed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "lexicon"
    load_lexicon(folder)
    [before] = _files(folder)
    edited = tmp_path / "glossary.toml"
    text = lexicon.GLOSSARY_PATH.read_text(encoding="utf-8")
    edited.write_text(
        text + '\n[[term]]\nfr = ["zorglub"]\nen = ["zorglub"]\nsource = "test"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(lexicon, "GLOSSARY_PATH", edited)
    found = load_lexicon(folder)
    assert "zorglub" in found.glossary.words
    [after] = _files(folder)
    assert after != before  # the other file's analysis is gone


def test_an_ingest_leaves_the_analysis_for_the_next_search(tmp_path: Path) -> None:
    session.prepare(tmp_path)
    [kept] = _files(lexicon_folder(tmp_path))
    _same(load_lexicon(lexicon_folder(tmp_path)), _fresh())
    assert _files(lexicon_folder(tmp_path)) == [kept]


# Debian's French word list (package wfrench; .ci/run installs it): a spelling check of the
# words judge lists as French, never a source of them.
FRENCH_DICTIONARY = Path("/usr/share/dict/french")
# words of the table that no dictionary has
NOT_IN_DICTIONARIES = {"deck", "decks", "svp"}


@pytest.mark.skipif(not FRENCH_DICTIONARY.is_file(), reason="wfrench absent (/usr/share/dict)")
def test_every_french_word_listed_is_spelt_right() -> None:
    """A misspelt entry (« fina » for finit, « jete » for jette) would keep that very typo
    from being corrected: each word of mots-fr.txt is a word of the dictionary, accents
    folded as the list is read."""
    dictionary = load_words(FRENCH_DICTIONARY)
    wrong = load_words(lexicon.FRENCH_WORDS_PATH) - dictionary - NOT_IN_DICTIONARIES
    assert not wrong, sorted(wrong)

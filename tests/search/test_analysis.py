"""normalize() and the French / English analyzers."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.rules import text
from judge.search import analysis
from judge.search.analysis import analyze, normalize, terms, word_key

# --- normalize ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Cimetière", "cimetiere"),
        ("ÉQUIPEMENT", "equipement"),
        ("L’aura", "l'aura"),
        ("l‘aura", "l'aura"),
        ("qu`elle", "qu'elle"),
        ("« règle des légendes »", "regle des legendes"),
        ("“legend rule.”", "legend rule"),
        ("Troll à deux têtes", "troll a deux tetes"),
        ("cœur", "coeur"),
        ("sur-type", "sur type"),
        ("  plusieurs   espaces\t\n", "plusieurs espaces"),
        ("owners' graveyards", "owners graveyards"),
        ("'cité'", "cite"),
        ("", ""),
        ("!!!", ""),
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


def test_normalize_is_the_rules_folding() -> None:
    # One folding for the search and the rules (judge.rules.text), one apostrophe table.
    assert analysis.normalize is text.normalize
    for apostrophe in text.APOSTROPHES:
        assert normalize(f"l{apostrophe}aura") == "l'aura", apostrophe
        assert text.fold(f"l{apostrophe}aura") == "l'aura", apostrophe


@given(st.text())
def test_normalize_is_idempotent_and_plain(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip()
    assert "  " not in once
    assert not any(unicodedata.combining(c) for c in once)
    assert once == once.casefold()


# --- French ------------------------------------------------------------------------------


def test_french_folds_accents_before_stop_words_and_stemming() -> None:
    # the stock analyzer keeps "les" and "à": ours folds first, then drops them
    assert terms("Les créatures à l'endurance", "fr") == terms("creatures endurance", "fr")
    assert "les" not in terms("les cimetières", "fr")
    # accents, case and plural make one term
    forms = {"cimetière", "Cimetière", "cimetiere", "cimetières", "CIMETIERES"}
    assert len({tuple(terms(f, "fr")) for f in forms}) == 1


def test_a_game_is_not_a_part() -> None:
    # « perdre la partie » is about the game; « il part au cimetière » is not (Snowball: part)
    assert terms("la partie", "fr") == terms("les parties", "fr") != terms("il part", "fr")


def test_the_particle_of_a_demonstrative_is_a_stop_word() -> None:
    # « ce tour-ci » asks about this turn, not about a word « ci » of the rules (ci-dessous)
    assert terms("ce tour-ci", "fr") == terms("tour", "fr")
    assert terms("celle-ci", "fr") == []


@pytest.mark.parametrize(
    "text",
    [
        "l'aura",
        "l’aura",
        "d'endurance",
        "qu’elle",
        "j'attaque",
        "n'est",
        "s'il",
        "c'est",
        "jusqu'à",
    ],
)
def test_french_elision(text: str) -> None:
    out = analyze(text, "fr")
    for token in out:
        assert "'" not in token.term and "’" not in token.term
        assert not token.word.startswith(("l'", "d'", "qu'", "j'", "n'", "s'", "c'"))
    if text in ("l'aura", "l’aura"):
        assert [t.word for t in out] == ["aura"]
        assert text[out[0].start : out[0].end] == "aura"  # the highlight skips "l'"


def test_game_terms_are_not_stop_words() -> None:
    assert terms("aura", "fr"), "Aura (the card type) must survive the French stop list"


def test_french_stemming_groups_inflections() -> None:
    assert terms("blessure", "fr") == terms("blessures", "fr")
    assert terms("mortelle", "fr") == terms("mortels", "fr")
    assert terms("équipée", "fr") == terms("équiper", "fr")
    assert terms("équipements", "fr") == terms("équipement", "fr")
    assert terms("planeswalker", "fr") == terms("planeswalkers", "fr")
    assert terms("légendes", "fr") == terms("légende", "fr")
    assert terms("cimetière", "fr") != terms("bibliothèque", "fr")


def test_offsets_point_into_the_original_text() -> None:
    text = "Si une créature a une endurance égale à 0, elle est mise dans le cimetière."
    for token in analyze(text, "fr"):
        original = text[token.start : token.end]
        assert normalize(original).replace(" ", "") == token.word
    words = [t.word for t in analyze(text, "fr")]
    assert "creature" in words and "cimetiere" in words and "le" not in words


def test_positions_skip_stop_words_so_phrases_match() -> None:
    positions = [t.pos for t in analyze("zone en jeu", "fr")]
    assert positions == [positions[0], positions[0] + 1]


# --- English -----------------------------------------------------------------------------


def test_english_analysis() -> None:
    assert terms("the owners' graveyards", "en") == terms("owner graveyard", "en")
    assert terms("that player's graveyard", "en") == terms("player graveyard", "en")
    assert "the" not in terms("the legend rule", "en")
    assert terms("battles", "en") == terms("battle", "en")
    assert terms("State-Based Actions", "en") == terms("state based action", "en")


def test_the_two_languages_differ() -> None:
    # English stop words are French content words and vice versa
    assert terms("sort", "fr") == ["sort"]
    assert terms("a", "en") == [] and terms("les", "fr") == []


# --- glossary keys -----------------------------------------------------------------------


def test_word_key_keeps_stop_words_and_separates_equipe_from_equipement() -> None:
    assert word_key("en", "fr") == "en"
    assert word_key("in", "en") == "in"
    assert word_key("légendes", "fr") == word_key("légende", "fr")
    assert word_key("équipe", "fr") != word_key("équipement", "fr")
    assert word_key("L’aura", "fr") == "aura"
    assert word_key("owner's", "en") == word_key("owner", "en")
    assert word_key("abilities", "en") == word_key("ability", "en")
    assert word_key("counters", "en") == word_key("counter", "en")


def test_word_key_does_not_read_french_as_english() -> None:
    # the English stemmer would make "equip" of équipe and "control" of contrôle
    assert word_key("équipe", "en") != word_key("equip", "en")
    assert word_key("contrôle", "en") != word_key("controller", "en")


@given(st.text(max_size=200))
def test_analysis_never_fails_and_is_fold_invariant(text: str) -> None:
    for lang in ("fr", "en"):
        out = analyze(text, lang)  # type: ignore[arg-type]
        assert all(t.term for t in out)
        assert all(0 <= t.start < t.end <= len(text) for t in out)


@given(st.text(alphabet=st.sampled_from("aeiouéèêàçœAEÉ'’ -"), max_size=40))
def test_case_and_accents_never_change_terms(text: str) -> None:
    lang: analysis.AnalyzerLanguage = "fr"
    assert terms(text, lang) == terms(normalize(text), lang)


@given(st.text(max_size=300))
def test_the_fast_path_is_the_whoosh_analyzer(text: str) -> None:
    """analyze() (snippets, queries) and the whoosh analyzer (the index) agree exactly."""
    for lang in ("fr", "en"):
        tokens = analysis.analyzer(lang)(text, chars=True)  # type: ignore[arg-type]
        whoosh_side = [(t.text, t.startchar, t.endchar) for t in tokens]  # one Token, reused
        fast_side = [(t.term, t.start, t.end) for t in analyze(text, lang)]  # type: ignore[arg-type]
        assert fast_side == whoosh_side


def test_fast_path_on_corpus_text(index: object) -> None:
    from judge.rules.index import RuleIndex

    assert isinstance(index, RuleIndex)
    for ed in index.editions:
        for rule in ed.rules.values():
            for p in rule.paragraphs:
                lang = p.language
                tokens = analysis.analyzer(lang)(p.text, chars=True)
                assert [(t.text, t.startchar, t.endchar) for t in tokens] == [
                    (t.term, t.start, t.end) for t in analyze(p.text, lang)
                ]

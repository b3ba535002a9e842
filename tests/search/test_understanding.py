"""Query understanding (issue 14, item 3): negation is meaning, game terms are protected from
the stemmers, typos are corrected only toward a word of the query's language and never
when the word is a real word, citations are not body words, no token can crash a search."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.rules.index import RuleIndex
from judge.search.analysis import terms
from judge.search.errors import SearchError
from judge.search.index import iter_documents
from judge.search.lexicon import FRENCH_WORDS_PATH, load_glossary, load_words
from judge.search.query import (
    OTHER_LANGUAGE,
    OWN_EDITION_LEAD,
    OWN_EDITION_OTHER_LANGUAGE,
    Searcher,
    _Coverage,
    _other_language_factors,
    _words,
)
from tests.search.relevance import hit_keys

CORPUS_EN = Path(__file__).resolve().parents[2].parent / "shared" / "corpus-en"


def test_negation_is_indexed() -> None:
    assert terms("ne peut pas être régénérée", "fr") != terms("peut être régénérée", "fr")
    assert "pas" in terms("ne peut pas être régénérée", "fr")
    for text in ("can't block", "cannot block", "doesn't block", "does not block"):
        assert terms(text, "en") == ["not", "block"], text
    assert terms("can block", "en") == ["block"]


def test_negation_changes_the_answer(searcher: Searcher) -> None:
    negated = searcher.search("ne peut pas être régénérée", limit=5).hits
    plain = searcher.search("peut être régénérée", limit=5).hits
    assert [h.rule for h in negated] != [h.rule for h in plain]
    # the negated query finds what cannot be: « La régénération ne peut pas remplacer… »
    for hit in negated[:2]:
        assert "ne peut pas" in "".join(s.text for s in hit.segments), hit.rule


def test_game_terms_keep_their_meaning_through_the_stemmer() -> None:
    assert terms("poisonous", "en") != terms("poison", "en")
    assert terms("legendary", "en") == terms("legend", "en")
    assert terms("timing", "en") != terms("time", "en")
    assert terms("untapped", "en") != terms("untap", "en")
    # a countered spell is not a +1/+1 counter
    assert terms("countered", "en") == terms("countering", "en") != terms("counters", "en")
    # Equipment (the subtype) is not equip (the keyword ability), in either language
    assert terms("equipments", "en") == terms("equipment", "en") != terms("equip", "en")
    assert terms("équipements", "fr") == terms("équipement", "fr") != terms("équiper", "fr")


def test_a_french_word_is_not_read_as_the_english_its_stem_finds(en_searcher: Searcher) -> None:
    """« équipements » stems, read as English, to "equip": the keyword ability 702.6 (its
    heading « Equip ») came first; the French word is only French, and the subtype's rules
    (301.5) come first."""
    top = en_searcher.search("les équipements", limit=3).hits
    assert top and top[0].rule.startswith("301.5"), [(h.edition, h.rule) for h in top]
    assert all(h.rule != "702.6" for h in top), [(h.edition, h.rule) for h in top]


def test_a_countered_spell_is_not_a_counter(en_searcher: Searcher) -> None:
    """ "gets countered" finds the rules on countering spells, not those on +1/+1 or poison
    counters."""
    hits = en_searcher.search("what happens to a spell when it gets countered").hits[:3]
    for hit in hits:
        assert "countered" in hit.snippet.lower() or "counter a spell" in hit.snippet, hit


def test_a_real_french_word_is_never_corrected(en_searcher: Searcher) -> None:
    words = load_words(FRENCH_WORDS_PATH)
    assert {"revient", "bloque", "hors", "reponse"} <= words
    for query in (
        "la créature revient",
        "elle bloque",
        "jeton hors du champ de bataille",
        # words of the table that the corpus never writes: corrected once to its nearest
        # word (fait, coût, approprié, main, équiper, adversaire, trouve, lancer, basse)
        "il faut choisir",
        "ce coup-ci",
        "son propre cimetière",
        "son rôle et le mien",
        "mon coéquipier",
        "un sort adverse",
        "elle se retrouve en exil",
        "je relance le sort",
        "sa force baisse",
    ):
        assert en_searcher.search(query).corrected is None, query
    # the typos around them still are
    assert en_searcher.search("il faut sacrfier").corrected == "il faut sacrifier"


def test_a_real_french_word_is_never_corrected_with_the_french_texts_alone(
    searcher: Searcher,
) -> None:
    # With the shipped (French) corpus alone, these were « dire » and « clé » (round 12)
    for query in ("ou le tour se termine direct ?", "mon clone copie sa créature"):
        assert searcher.search(query).corrected is None, query


def test_a_long_question_is_read_to_its_end(searcher: Searcher) -> None:
    """Players tell the story first and ask last: the stop words of a long question do not
    count toward the words read (24 before, stop words included: « … le tour se termine ? »
    lost its last words)."""
    story = "pendant que je suis dans mon tour et que je me dis que j'ai une carte dans la main "
    words = [w.text for w in _words(story * 2 + "est-ce que le piétinement compte ?")]
    assert words[-2:] == ["piétinement", "compte"], words
    result = searcher.search(story * 2 + "et elle a le piétinement, est-ce que ça compte ?")
    assert any(e.startswith("piétinement") for e in result.expansions), result.expansions


def test_typos_go_toward_the_query_language(en_searcher: Searcher) -> None:
    # French words around it: never an English word (`atack` is closest to `attack`)
    corrected = en_searcher.search("la créature atack").corrected
    assert corrected is None or "attack" not in corrected
    assert en_searcher.search("the creature atack").corrected == "the creature attack"
    assert en_searcher.search("cimetierre").corrected == "cimetière"


def test_citations_are_not_body_words(index: RuleIndex) -> None:
    docs = {(d.edition, d.rule, d.para): d for d in iter_documents(index)}
    cited = docs[("fr-pre2009", "408.1b", 0)].body
    assert "410" not in cited and "Gérer les capacités déclenchées" not in cited
    assert "priorité" in cited  # the paragraph's own words stay
    assert len(cited) == len(index.get("408.1b", "fr-pre2009").paragraphs[0].text)  # type: ignore[union-attr]


def test_a_cited_title_does_not_find_the_citing_rule(searcher: Searcher) -> None:
    # 408.1h cites « Voir règles 405, "Capacités statiques", 418, "Effets continus" et 419,
    # "Effets de remplacement et de prévention" »: those words are not what it says
    keys = hit_keys(searcher.search("effets de remplacement et de prévention", limit=30).hits)
    assert keys and not any("fr-pre2009/408.1h" in k.split("|") for k in keys)


def _english_words() -> list[str]:
    words: set[str] = set()
    for path in sorted(CORPUS_EN.glob("*.txt"))[:2]:
        words.update(re.findall(r"[A-Za-z]{2,12}", path.read_text(encoding="utf-8-sig")[:200_000]))
    return sorted(words)[:3000]


_PIECES = st.one_of(
    st.sampled_from(list("abcdlmnstyàé") + ["l'", "d'", "qu'", "n'", "c'", "s'", "l’", "j'"]),
    st.sampled_from(["zone", "exil", "aura", "4.5", "c", "704.5", "règle", "ne", "pas", "not"]),
    st.sampled_from(_english_words() or ["graveyard"]),
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(_PIECES, min_size=1, max_size=6), st.sampled_from([" ", "", "'", "-"]))
def test_no_token_crashes_a_search(en_searcher: Searcher, pieces: list[str], sep: str) -> None:
    """Single letters, elisions, numbers and English words in any mix (`zone d exil`,
    `c 4.5` raised KeyError: ('en', 'd')): an answer or a message, never an exception."""
    result = en_searcher.search(sep.join(pieces))
    assert result.hits or result.message


@pytest.mark.parametrize("query", ["d", "l'", "qu'", "a d c", "n'", "'s"])
def test_single_letters_alone(searcher: Searcher, query: str) -> None:
    result = searcher.search(query)
    assert result.hits or result.message


def test_defender_is_not_defending() -> None:
    assert terms("defender", "en") != terms("defending", "en")


def test_the_loaded_index_is_out_of_the_collectors_sight(searcher: Searcher) -> None:
    """gc.freeze() after opening: full collections never walk the loaded tables."""
    import gc

    assert gc.get_freeze_count() > 0


def test_question_words_do_not_change_the_answer(searcher: Searcher) -> None:
    """« que devient… » frames the question (corpus/mots-de-question.txt): the token rule
    answers it as it answers the bare words, not the example that says « devient »."""
    bare = searcher.search("un jeton qui va au cimetière").hits[0]
    asked = searcher.search("que devient un jeton qui va au cimetière ?").hits[0]
    assert (asked.edition, asked.rule) == (bare.edition, bare.rule) == ("fr-2024", "704.5d")


def test_the_other_language_leads_only_where_the_querys_lacks(en_searcher: Searcher) -> None:
    """A French question the French text can answer gets the French rule first, before the
    English editions' rules on the same words; one whose words only the English editions
    have (indestructible: 700.4) gets the English rule first."""
    french = en_searcher.search("joueur qui pioche dans une bibliothèque vide").hits[0]
    assert (french.edition, french.rule) in (("fr-2024", "704.5b"), ("fr-pre2009", "420.5g"))
    question = "une créature indestructible avec des blessures mortelles est elle détruite ?"
    english = en_searcher.search(question).hits[0]
    assert (english.edition, english.rule) == ("en-2011-09-30", "700.4"), english


def test_the_action_asked_in_response_frames_the_question(searcher: Searcher) -> None:
    """« sacrifice en réponse » asks whether one can respond, not how to sacrifice: the
    concept just before a term marked `frames` (répondre) weighs as a question word; without
    that term, the same word keeps its weight."""
    text = "mise au cimetière et sacrifice en réponse"
    words = _words(text)
    concepts, _ = searcher._concepts(text, words, "fr")
    weak = {c.label: c.weak for c in concepts}
    assert weak == {"mise au cimetière": False, "sacrifice": True, "en réponse": False}
    plain, _ = searcher._concepts("sacrifier un permanent", _words("sacrifier un permanent"))
    assert not any(c.weak for c in plain)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the verb and its object, joined by a determiner: the action asked about
        (
            "une créature meurt, je sacrifie un artefact en réponse",
            {"créature": False, "meurt": False, "sacrifie": True, "artefact": True},
        ),
        ("can I sacrifice a creature in response", {"sacrifice": True, "creature": True}),
        # « et » is not a determiner: the seed question keeps « mise au cimetière »
        ("mise au cimetière et sacrifice en réponse", {"mise au cimetière": False}),
        # punctuation ends the action
        ("lancer, un éphémère en réponse", {"lancer": False, "éphémère": True}),
    ],
)
def test_the_verb_and_its_object_frame_the_question(
    searcher: Searcher, text: str, expected: dict[str, bool]
) -> None:
    concepts, _ = searcher._concepts(text, _words(text), "fr")
    weak = {c.label: c.weak for c in concepts}
    assert {label: weak[label] for label in expected} == expected


def test_casting_in_response_to_state_based_actions(searcher: Searcher) -> None:
    """« peut-on lancer un éphémère en réponse… » asks whether one can respond: the rules of
    when state-based actions happen come before the rules of when a spell can be cast."""
    top = hit_keys(
        searcher.search("peut-on lancer un éphémère en réponse à une action basée sur un état").hits
    )
    answers = {"fr-2024/704.1", "fr-2024/704.2", "fr-2024/704.3", "fr-pre2009/408.1b"}
    assert answers & set(top[0].split("|") + top[1].split("|")), top[:3]


def test_a_concept_only_the_other_language_has_is_rare(searcher: Searcher) -> None:
    """« Rôle »: the French 2024 text has it only in one English paragraph (704.5y). It is
    rare among all the documents, not common among the few English ones: the question finds
    that paragraph first, before the French ones that say « plusieurs »."""
    text = "plusieurs Rôles sur un permanent"
    concepts = {c.label: c for c in searcher._concepts(text, _words(text), "fr")[0]}
    role = searcher._concept_idf(concepts["Rôles"], "fr")
    several = searcher._concept_idf(concepts["plusieurs"], "fr")
    assert role is not None and several is not None and role > several
    top = searcher.search(text).hits[0]
    assert (top.edition, top.rule) == ("fr-2024", "704.5y")


def test_the_other_language_weighs_by_what_the_paragraph_matches() -> None:
    """A paragraph of the other language weighs little when the query's language has texts
    for what it matches, more when it matches what only the other language has."""
    covered = _Coverage(np.asarray([0b01, 0b10, 0b11], dtype=np.int64), [3.0, 1.0])
    factors = _other_language_factors(covered, covered.text_masks, absent=0b01).tolist()
    assert factors[0] == pytest.approx(1.0)  # only the concept the query's language lacks
    assert factors[1] == pytest.approx(OTHER_LANGUAGE + (1 - OTHER_LANGUAGE) * 0.75)
    # the share the query's language lacks is the floor (as before, for the whole query)
    assert factors[2] == pytest.approx(factors[1])
    assert _other_language_factors(covered, covered.text_masks, absent=0) == OTHER_LANGUAGE


def test_the_own_edition_leads_where_its_language_has_no_text(en_searcher: Searcher) -> None:
    """fr-2024 prints 704.5x (the Siege) in English. Asked in French, it weighs 0.8 where a
    French paragraph weighs 1 and the English editions' a quarter; when the query asks for
    what no French text has (the English paragraphs then weigh up to 1), it leads them all,
    the edition's French paragraphs included."""
    docs = en_searcher._docs
    places = docs.places(range(len(docs)))
    own = places.index(("fr-2024", "704.5x"))
    english = next(i for i, p in enumerate(places) if p[0] == "en-2011-09-30")
    french = places.index(("fr-2024", "704.5a"))
    ids = np.asarray([own, english, french], dtype=np.int64)
    low = en_searcher._language_factors(ids, OTHER_LANGUAGE, "fr").tolist()
    assert low == pytest.approx([OWN_EDITION_OTHER_LANGUAGE, OTHER_LANGUAGE, 1.0])
    high = en_searcher._language_factors(ids, 1.0, "fr").tolist()
    assert high == pytest.approx([OWN_EDITION_LEAD, 1.0, 1.0]) and OWN_EDITION_LEAD > 1.0
    # asked in English, all three are read as they are
    assert en_searcher._language_factors(ids, OTHER_LANGUAGE, "en").tolist()[:2] == [1.0, 1.0]


def test_a_word_asked_twice_is_one_concept(searcher: Searcher) -> None:
    """« une source rouge … la protection contre le rouge »: repeating a word does not ask
    for it twice as much (the rule that says « red source » twice would win on it)."""
    text = "la protection contre le rouge empêche les blessures d'une source rouge"
    labels = [c.label for c in searcher._concepts(text, _words(text), "fr")[0]]
    assert labels.count("rouge") == 1 and "protection" in labels and "source" in labels
    # a word repeated is kept once, at its whole weight
    kept = searcher._concepts("marqueurs et marqueurs", _words("marqueurs et marqueurs"))[0]
    assert [c.label for c in kept] == ["marqueurs"] and not kept[0].weak
    text = "sacrifice en réponse, ou sacrifice"  # framed once, asked for itself once
    kept = searcher._concepts(text, _words(text), "fr")[0]
    assert [(c.label, c.weak) for c in kept] == [("sacrifice", False), ("en réponse", False)]


def test_protection_from_a_colour_finds_the_protection_rule(en_searcher: Searcher) -> None:
    """The damage a red source would deal to a creature with protection from red: 702.15e,
    before 609.7 (« The next time a red source… », the word « red » twice)."""
    for text in (
        "does protection from red prevent damage from a red source",
        "la protection contre le rouge empêche les blessures d'une source rouge ?",
    ):
        top = en_searcher.search(text).hits[0]
        assert (top.edition, top.rule) == ("en-2011-09-30", "702.15e"), (text, top)


def test_a_glossary_flag_that_is_not_a_boolean_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "glossaire.toml"
    path.write_text('[[term]]\nfr = ["répondre"]\nen = ["respond"]\nframes = "oui"\n')
    with pytest.raises(SearchError, match="frames"):
        load_glossary(path)
    path.write_text('[[term]]\nfr = ["répondre"]\nen = ["respond"]\nframes = true\n')
    assert load_glossary(path).terms[0].frames


def test_what_a_term_is_looked_up_with_is_read_in_its_own_language(searcher: Searcher) -> None:
    """« pile » (répondre → pile) is the French stack: read as English it would find the
    piles of cards of the English rules. A form both languages list (zone) is read in both."""
    concepts, _ = searcher._concepts("en réponse", _words("en réponse"), "fr")
    related = concepts[0].related
    assert ("fr", ("pil",)) in related and ("en", ("stack",)) in related
    assert not any(lang == "en" and seq == ("pile",) for lang, seq in related)
    assert searcher.glossary.languages_of("zone") == ("fr", "en")


def test_looking_at_cards_is_the_english_examine(en_searcher: Searcher) -> None:
    """« regarder les cartes exilées »: the English text says « examined » (406.3)."""
    top = hit_keys(en_searcher.search("est-ce qu'on peut regarder les cartes exilées ?").hits)
    assert "en-2011-09-30/406.3" in top[0].split("|"), top[:3]


def test_a_question_for_a_number_looks_for_one(searcher: Searcher) -> None:
    """« combien » (a stop word) and "how many" ask for a number: a concept whose forms are
    the numbers, in digits and in words, each weighing little."""
    for text in ("avec combien de points de vie", "how many lands"):
        quantity = searcher._concepts(text, _words(text))[0][0]
        assert quantity.weak and quantity.label in ("combien", "many")
        forms = {seq for seqs in quantity.forms.values() for seq, _ in seqs}
        assert {("20",), ("40",), ("seven",), ("sept",)} <= forms
        assert ("un",) not in forms and ("many",) not in forms  # an article, the question


def test_how_many_cards_finds_the_rule_that_says_seven(en_searcher: Searcher) -> None:
    """103.3 « draws a hand of seven cards », before the mulligan rules that say « draws a
    new hand » without a number."""
    top = hit_keys(
        en_searcher.search("how many cards do players draw at the start of the game").hits
    )
    assert "en-2011-09-30/103.3" in top[0].split("|"), top[:3]


def test_a_french_word_is_not_read_as_the_english_its_stem_would_find(
    searcher: Searcher,
) -> None:
    """« il en reste » : the English stemmer makes « reste » "rest" (704.5j, in English in
    the 2024 text: "the rest are put into…"); English never writes « reste ». A word both
    languages write (source, mana) is read in both."""
    for text, label, languages in (
        ("il en reste", "reste", ["fr"]),
        ("la source", "source", ["en", "fr"]),
        ("mana en reste", "mana", ["en", "fr"]),
    ):
        concepts = searcher._concepts(text, _words(text), "fr")[0]
        found = next(c for c in concepts if c.label == label)
        assert sorted(found.forms) == languages, (text, found.forms)
    hits = searcher.search("un jeton copie d'une créature qui meurt, il reste dans le cimetiere ?")
    for hit in hits.hits:
        assert "**rest**" not in hit.snippet, hit

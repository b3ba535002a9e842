"""Query understanding: rule numbers, typos, glossary, filters, grouping, snippets, bad input."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.rules.index import EditionNotFound, RuleIndex
from judge.search.errors import SearchError
from judge.search.lexicon import Glossary, GlossaryTerm, load_glossary
from judge.search.query import (
    Searcher,
    SearchResult,
    _densest,
    _quoted,
    _window,
    _words,
    clean,
    find_numbers,
    render,
)


def keys(result: SearchResult) -> list[str]:
    return [f"{h.edition}/{h.rule}" for h in result.hits]


# --- rule numbers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query", ["704.5g", "704.5G", "704.5g.", "règle 704.5g", "regle 704.5G.", "r704.5g", " 704.5g "]
)
def test_every_form_of_a_number_jumps_to_the_rule(searcher: Searcher, query: str) -> None:
    result = searcher.search(query)
    assert keys(result)[0] == "fr-2024/704.5g"
    assert result.hits[0].kind == "number"
    assert result.message is None


def test_a_section_number_lists_every_edition_newest_first(searcher: Searcher) -> None:
    result = searcher.search("704")
    numbered = [h for h in result.hits if h.kind == "number"]
    assert [h.edition for h in numbered] == ["fr-2024", "fr-2011"]
    assert all(h.rule == "704" for h in numbered)
    # then the rules that cite it
    assert any(h.kind == "reference" for h in result.hits[len(numbered) :])


def test_the_number_comes_before_text_hits(searcher: Searcher) -> None:
    result = searcher.search("704.5g blessures")
    assert keys(result)[0] == "fr-2024/704.5g"
    assert len(result.hits) > 1 and all(h.kind == "text" for h in result.hits[1:])
    assert keys(result).count("fr-2024/704.5g") == 1


def test_unknown_number_says_so_with_the_nearest(searcher: Searcher) -> None:
    result = searcher.search("704.5zz")
    assert result.hits == ()
    assert result.message is not None and "introuvable" in result.message
    assert "704.5y" in result.message


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("704", ["704"]),
        ("règle 118", ["118"]),
        ("rule 420.5e and more", ["420.5e"]),
        ("0 point de vie", []),  # a count, not chapter 0
        ("dix marqueurs poison 704.5c", ["704.5c"]),
        ("15 marqueurs", []),
        ("marqueurs +1/+1", []),
        ("r12 quelque chose", []),
    ],
)
def test_find_numbers(text: str, numbers: list[str]) -> None:
    assert [n.number for n in find_numbers(text)] == numbers


# --- typos -------------------------------------------------------------------------------


def test_typos_are_corrected_and_the_answer_says_so(searcher: Searcher) -> None:
    result = searcher.search("cimetierre")
    assert result.corrected == "cimetière"
    assert result.hits and all(h.kind == "text" for h in result.hits)
    result = searcher.search("plainswalker")
    assert result.corrected == "planeswalker"
    assert "fr-2024/704.5i" in keys(result)[:3]


def test_only_the_misspelt_word_is_replaced(searcher: Searcher) -> None:
    result = searcher.search("créature mise au cimetierre")
    assert result.corrected == "créature mise au cimetière"


@pytest.mark.parametrize("query", ["Louveteau", "blessure", "mortelle", "cimetière", "deathtouch"])
def test_known_words_are_never_corrected(searcher: Searcher, query: str) -> None:
    assert searcher.search(query).corrected is None


def test_fuzzy_never_hides_an_exact_hit(searcher: Searcher) -> None:
    # "liche" is a word of the corpus (Miroir de la liche): it is searched as typed
    result = searcher.search("liche")
    assert result.corrected is None
    assert keys(result)[0] == "fr-2024/704.7"


# --- glossary ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "english_rule"),
    [
        ("règle des légendes", "704.5j"),
        ("saga", "704.5s"),
        ("bataille avec une défense de 0", "704.5v"),
        ("sculpteur spatial", "704.5u"),
        ("Rôle", "704.5y"),
    ],
)
def test_a_french_query_finds_the_english_paragraphs(
    searcher: Searcher, index: RuleIndex, query: str, english_rule: str
) -> None:
    rule = index.get(english_rule, "fr-2024")
    assert rule is not None and rule.language == "en"
    assert f"fr-2024/{english_rule}" in keys(searcher.search(query))[:3]


@pytest.mark.parametrize(
    ("query", "french_rule"),
    [
        ("deathtouch", "fr-2024/704.5h"),
        ("legend rule", "fr-pre2009/420.5e"),
        ("world rule", "fr-2024/704.5k"),
        ("Two-Headed Giant", "fr-2024/704.6a"),
        ("persist", "fr-2024/704.8"),
        ("state-based effects", "fr-pre2009/420"),
    ],
)
def test_an_english_query_finds_french_text(
    searcher: Searcher, query: str, french_rule: str
) -> None:
    result = searcher.search(query)
    assert french_rule in keys(result)[:5]
    assert result.expansions, "the answer says which translation was searched"


def test_old_wording_finds_the_new_and_back(searcher: Searcher) -> None:
    assert "fr-2024/704.5m" in keys(searcher.search("enchantement local"))[:3]
    assert "fr-pre2009/420.5d" in keys(searcher.search("aura sur un permanent illégal"))[:3]
    assert "fr-2024/704.5d" in keys(searcher.search("jeton hors de la zone en jeu"))[:3]


def test_a_french_edition_s_english_paragraph_is_its_text_of_the_rule(searcher: Searcher) -> None:
    """fr-2024 prints 301.6 (Fortification) in English: for a French question it is that
    edition's only text of the rule, and weighs more than an English edition's paragraph
    would (it came 6th, behind the French paragraphs on Equipment)."""
    top = keys(searcher.search("une fortification peut elle être attachée à une créature"))
    assert "fr-2024/301.6" in top[:2], top[:6]


def test_without_the_glossary_the_english_paragraph_is_not_found(index: RuleIndex) -> None:
    """The expansion does the work: an empty glossary loses the English rule."""
    bare = Searcher(index, glossary=Glossary([]))
    try:
        result = bare.search("deathtouch")
        assert "fr-2024/704.5h" not in keys(result)
        assert result.expansions == ()
    finally:
        bare.close()


def test_the_shipped_glossary_names_its_sources() -> None:
    glossary = load_glossary()
    assert len(glossary.terms) >= 60
    for term in glossary.terms:
        assert term.fr and term.en and term.source.strip(), term
    pairs = {(t.fr[0].lower(), t.en[0].lower()) for t in glossary.terms}
    for pair in [
        ("contact mortel", "deathtouch"),
        ("lien de vie", "lifelink"),
        ("survivance", "persist"),
        ("règle des légendes", "legend rule"),
        ("troll à deux têtes", "two-headed giant"),
        ("bataille", "battle"),
        ("rôle", "role"),
        ("cimetière", "graveyard"),
    ]:
        assert pair in pairs, pair


def test_a_glossary_term_is_matched_on_words_not_substrings() -> None:
    glossary = Glossary([GlossaryTerm(("zone en jeu",), ("in play",), "test")])
    assert [v.keys for v in glossary.variants if v.language == "fr"] == [("zone", "en", "jeu")]


# --- filters -----------------------------------------------------------------------------


def test_edition_filter(searcher: Searcher) -> None:
    result = searcher.search("cimetière", editions=["fr-pre2009"])
    assert result.hits and {h.edition for h in result.hits} == {"fr-pre2009"}
    result = searcher.search("704.5g", editions=["fr-2011"])
    assert result.hits == () and result.message and "introuvable" in result.message


def test_several_editions(searcher: Searcher) -> None:
    result = searcher.search("points de vie", editions=["fr-2011", "fr-pre2009"], limit=20)
    assert {h.edition for h in result.hits} == {"fr-2011", "fr-pre2009"}


def test_language_filter(searcher: Searcher) -> None:
    english = searcher.search("bataille", language="en")
    assert english.hits and {h.language for h in english.hits} == {"en"}
    french = searcher.search("bataille", language="fr")
    assert french.hits and "en" not in {h.language for h in french.hits}


def test_bad_filters_raise_french_errors(searcher: Searcher) -> None:
    with pytest.raises(EditionNotFound, match="Édition inconnue"):
        searcher.search("cimetière", editions=["fr-1999"])
    with pytest.raises(SearchError, match="Langue inconnue"):
        searcher.search("cimetière", language="de")


# --- results -----------------------------------------------------------------------------


def test_one_hit_per_rule_and_edition(searcher: Searcher) -> None:
    result = searcher.search("blessures", limit=50)
    assert len(keys(result)) == len(set(keys(result)))
    assert len(result.hits) > 10


def test_limit(searcher: Searcher) -> None:
    assert len(searcher.search("créature", limit=3).hits) == 3


def test_hits_carry_edition_number_breadcrumb_and_highlights(searcher: Searcher) -> None:
    hit = searcher.search("contact mortel").hits[0]
    assert (hit.edition, hit.rule) == ("fr-2024", "704.5h")
    assert hit.breadcrumb == "7. Règles supplémentaires › 704. Actions basées sur un état › 704.5"
    assert hit.title == "Actions basées sur un état"
    matched = [s.text.lower() for s in hit.segments if s.match]
    assert "contact" in matched and "mortel" in matched
    assert "**contact** **mortel**" in hit.snippet
    assert render(hit.segments, "[", "]").count("[") == len(matched)
    assert "<" not in hit.snippet  # no HTML from the library


def test_highlights_follow_the_analysis(searcher: Searcher) -> None:
    hit = searcher.search("cimetieres").hits[0]
    assert any(s.match and s.text.lower() == "cimetière" for s in hit.segments)


def test_snippets_are_windows_of_long_paragraphs(searcher: Searcher) -> None:
    result = searcher.search("Louveteau")
    hit = result.hits[0]
    assert hit.rule == "704.8"
    assert len(hit.snippet) < 300 and "Louveteau" in hit.snippet


def test_titled_sections_are_found_by_their_title(searcher: Searcher) -> None:
    """Sections known only by the contents are found, but never above a rule with text."""
    result = searcher.search("timing et priorité", limit=20)
    found = keys(result)
    assert "fr-2024/117" in found and "fr-2011/116" in found
    assert found[0].startswith("fr-pre2009/408")
    first_title_only = found.index("fr-2024/117")
    for hit in result.hits[first_title_only:]:
        rule = searcher.index.get(hit.rule, hit.edition)
        assert rule is not None and rule.title_only, hit


def test_scores_are_ordered(searcher: Searcher) -> None:
    result = searcher.search("marqueurs poison", limit=20)
    text_scores = [h.score for h in result.hits if h.kind == "text"]
    assert text_scores[0] == pytest.approx(0.99)
    assert all(0 < s <= 0.99 for s in text_scores)


def test_results_are_frozen(searcher: Searcher) -> None:
    result = searcher.search("jeton")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.hits[0].rule = "1"  # type: ignore[misc]


def test_there_is_no_process_wide_searcher() -> None:
    import judge.search
    from judge.search import query

    for name in ("get_searcher", "search", "_SEARCHERS"):
        assert not hasattr(query, name)
    assert "search" not in judge.search.__all__
    with pytest.raises(AttributeError):
        judge.search.get_searcher  # type: ignore[attr-defined]  # noqa: B018


THREAD_QUERIES = ["cimetière", "704.5g", "contact mortel", "cimetierre", "blessure infligée"]


def test_one_searcher_serves_many_threads(searcher: Searcher) -> None:
    """The UI's sessions share one Searcher: concurrent queries answer as serial ones do."""
    from concurrent.futures import ThreadPoolExecutor

    serial = {q: searcher.search(q, limit=20) for q in THREAD_QUERIES}
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda q: (q, searcher.search(q, limit=20)), THREAD_QUERIES * 12))
    for q, result in answers:
        assert result == serial[q]


def test_a_closed_searcher_says_so(index: RuleIndex, search_home: Path) -> None:
    s = Searcher(index, home=search_home)
    assert not s.closed
    assert keys(s.search("704.5g"))[0] == "fr-2024/704.5g"
    s.close()
    s.close()  # twice is fine
    assert s.closed
    with pytest.raises(SearchError, match="fermée"):
        s.search("704.5g")


# --- bad input ---------------------------------------------------------------------------

NASTY = [
    "",
    "   ",
    '"',
    '"règle des',
    "((cimetière",
    "cimetière)",
    "AND",
    "OR",
    "NOT",
    "AND OR NOT",
    "*",
    "?",
    "~",
    ":",
    "body_fr:cimetière",
    "cimet*",
    "cimetière~2",
    "edition:fr-2024",
    "a" * 10_000,
    "cimetière " * 2_000,
    "\x00\x01\x1b[31m\x7f",
    "cimetière\x00",
    "🃏🐉 ⚔️",
    "Ω≈ç√∫",
    "\u202e\u200b\ufeff",
    "\ud800",
    "704.5g" * 100,
    "règle règle règle",
    "r",
    "999",
    "0",
    "-1/-1",
]


@pytest.mark.parametrize("query", NASTY)
def test_nasty_input_never_raises(searcher: Searcher, query: str) -> None:
    result = searcher.search(query)
    assert isinstance(result, SearchResult)
    if not result.hits:
        assert result.message and any(c in result.message for c in "éèàùê"), result.message


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=400))
def test_any_string_returns_hits_or_a_french_message(searcher: Searcher, query: str) -> None:
    result = searcher.search(query)
    assert isinstance(result, SearchResult)
    assert result.hits or result.message
    for hit in result.hits:
        assert hit.edition and hit.rule


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(
            [
                "cimetière",
                "AND",
                "(",
                ")",
                '"',
                "*",
                "~2",
                ":",
                "704.5g",
                "règle",
                "l'",
                "\x00",
                "é",
            ]
        ),
        max_size=12,
    ).map(" ".join)
)
def test_query_syntax_is_never_interpreted(searcher: Searcher, query: str) -> None:
    result = searcher.search(query)
    assert result.hits or result.message


def test_clean_caps_length_and_strips_controls() -> None:
    text, truncated = clean("a\x00b\tc" + " mot" * 1000)
    assert "\x00" not in text and len(text) <= 300 and truncated
    assert clean("  cimetière  ") == ("cimetière", False)


def test_long_queries_are_truncated_with_a_note(searcher: Searcher) -> None:
    result = searcher.search("cimetière " * 2000)
    assert result.hits
    assert result.message and "tronquée" in result.message


def test_stop_words_only(searcher: Searcher) -> None:
    result = searcher.search("le la les de des")
    assert result.hits == ()
    assert result.message and "mots vides" in result.message


def test_nothing_found_says_so(searcher: Searcher) -> None:
    result = searcher.search("xylophone wzkq")
    assert result.hits == ()
    assert result.message and "Aucune règle" in result.message


def test_words_absent_from_the_rules_are_named(searcher: Searcher) -> None:
    result = searcher.search("xylophone quantique")  # quantique → quantité (suggested)
    assert result.corrected == "xylophone quantité"
    assert result.message and "« xylophone »" in result.message


def test_a_corrected_query_keeps_its_rule_number(searcher: Searcher) -> None:
    result = searcher.search("704.5i plainswalker")
    assert result.corrected == "704.5i planeswalker"
    assert keys(result)[0] == "fr-2024/704.5i"


def _densest_by_counting(spans: list[tuple[int, int]], width: int) -> int:
    """`_densest` as first written: every span counted for every candidate start."""
    best_start, best_count = 0, -1
    for a, _ in spans or [(0, 0)]:
        lo = max(0, a - width // 4)
        count = sum(1 for x, y in spans if x >= lo and y <= lo + width)
        if count > best_count:
            best_start, best_count = lo, count
    return best_start


@settings(max_examples=600, deadline=None)
@given(
    st.text(alphabet="ab ", min_size=0, max_size=120),
    st.lists(st.tuples(st.integers(0, 120), st.integers(0, 12)), max_size=30),
    st.integers(4, 60),
)
def test_the_snippet_window_is_the_one_every_span_counted_gives(
    text: str, raw: list[tuple[int, int]], width: int
) -> None:
    """The window counts only the spans that can be in it (sorted spans, overlapping ones
    included, as `_marked` gets them): the same window as counting all of them."""
    spans = sorted((a, a + n) for a, n in raw)
    assert _densest(spans, width) == _densest_by_counting(spans, width)
    assert _window(text, spans, width)[1] - _window(text, spans, width)[0] <= max(width, len(text))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 15), st.integers(0, 12)), max_size=40), st.integers(4, 80))
def test_the_window_over_words_is_the_one_every_span_counted_gives(
    gaps: list[tuple[int, int]], width: int
) -> None:
    """Words, as snippets mark them: spans one after the other (their ends in order)."""
    spans, at = [], 0
    for gap, n in gaps:
        spans.append((at + gap, at + gap + n))
        at += gap + n
    assert _densest(spans, width) == _densest_by_counting(spans, width)


def test_the_snippet_window_starts_where_it_holds_the_most_spans() -> None:
    # Candidates start a quarter of the width (10) before each span: at 0 (two spans
    # inside), 2 (three), 3 (four: 12-20, 13-40, 41-42, 42-43) and 31 (two).
    text = "x" * 100
    spans = [(2, 44), (12, 20), (13, 40), (41, 42), (42, 43)]
    assert _densest(spans, 40) == _densest_by_counting(spans, 40) == 3
    assert _window(text, spans, 40) == (3, 43)


# --- quoted words, an edition's own text in the other language ----------------------------


def test_quoted_words_are_the_parts_between_quotes() -> None:
    text = 'son texte parle de « la créature équipée », et du mot "dies" ou “meurt”'
    parts = [[w.text for w in part] for part in _quoted(_words(text), text)]
    assert parts == [["la", "créature", "équipée"], ["dies"], ["meurt"]]
    assert _quoted(_words("l'aura d'un joueur"), "l'aura d'un joueur") == []


def test_quoted_words_are_searched_as_a_phrase(searcher: Searcher) -> None:
    # 301.5d says « la créature équipée »; 301.5c has « créature » and « équiper » apart
    ranked = keys(searcher.search("« la créature équipée » capacité"))
    assert ranked.index("fr-2024/301.5d") < ranked.index("fr-2024/301.5c"), ranked


@pytest.mark.parametrize(
    ("query", "rule"),
    [
        ("peut-on attacher une fortification à une créature", "301.6"),
        ("deux rôles du même joueur sur une créature", "704.5y"),
    ],
)
def test_an_editions_own_text_in_english_weighs_as_french(
    searcher: Searcher, query: str, rule: str
) -> None:
    # fr-2024 prints these rules in English: its only text of them, read first by a French
    # question as if it were French, before the French paragraphs around them
    assert keys(searcher.search(query))[0] == f"fr-2024/{rule}"


def test_an_example_that_only_tells_the_story_weighs_little(en_searcher: Searcher) -> None:
    """704.4's example (a creature, cards in hand, a discard) tells a story with a player's
    words; its rule (state-based actions ignore what happens during a resolution) says
    none of them: it no longer comes before the English rule that answers."""
    ranked = [
        set(k.split("|"))
        for k in keys_with_copies(
            en_searcher, "a la fin de mon tour j'ai 9 cartes en main, je dois en défausser ?"
        )
    ]
    answer = next(
        i
        for i, k in enumerate(ranked)
        if k & {"en-2008-07-15/217.3b", "en-2011-09-30/402.2", "en-2011-09-30/514.1"}
    )
    hub = [i for i, k in enumerate(ranked) if k & {"fr-2024/704.4", "fr-pre2009/420.4"}]
    assert all(answer < i for i in hub), ranked


def keys_with_copies(searcher: Searcher, query: str) -> list[str]:
    return [
        "|".join([f"{h.edition}/{h.rule}", *(f"{e}/{r}" for e, r in h.also)])
        for h in searcher.search(query).hits
    ]

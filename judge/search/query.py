"""Understanding a judge's query and ranking the rules that answer it.

The user's text never reaches a query parser: it is cleaned, rule numbers are taken out,
every remaining word is looked up in the index vocabulary (and corrected with rapidfuzz
when it is unknown), glossary terms are recognised in either language, and each word or
term becomes a *concept* (all its forms: as typed, other wordings, translations, what it is
looked up with). A word written alike in both languages is read in the query's language;
words that only frame a question (devient, il se passe, happens: corpus/mots-de-question.txt)
weigh little, as does the action asked « en réponse » (the word before a glossary term marked
`frames`: « sacrifice en réponse » asks whether one can respond). Whatever the input, the
answer is a `SearchResult`: hits, or none with a French message.

Ranking: BM25 per field (paragraph, section titles above it, heading of a rule), each term
weighted by the IDF of its concept (how rare it is in the query's language), summed over the
concepts; multiplied by the share of the query a paragraph covers, each concept counting its
IDF (a paragraph with the rare word of a question beats one with its common words; a
sub-rule is read with a little of its parent's text; a related word in a section title
covers nothing); a paragraph in the other language weighs a little less; a bonus when the
words appear as a phrase, and for the rules of a section the query names. The best
paragraphs (top-k) are grouped into one entry per (edition, rule); a rule whose heading is
exactly what was asked comes first, its sub-rules folded into it; rules known only by their
title come after the rules with text. Copies of a rule in several editions (`group_key`, the
caller's; by default the same number in the same numbering) are one hit, shown in the
query's language and the newest edition (the oldest when old wording was used), the others
in `Hit.also`; editions are then interleaved. Rules named by number come first.

whoosh stores the inverted index (postings with positions) and matches phrases; the
scoring is done here on its posting lists, read whole and cached (the index is read-only):
whoosh's own matcher tree costs tens of milliseconds per query in pure Python."""

from __future__ import annotations

import functools
import gc
import heapq
import math
import re
import threading
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np

from judge.fr import era_asked
from judge.rules.index import RuleIndex
from judge.rules.model import LazyRules, Rule, covered_sections
from judge.rules.numbers import canonical, nearest_parent
from judge.search import analysis
from judge.search.analysis import TOKEN_RE, AnalyzerLanguage, fold_token, normalize
from judge.search.era import read_era
from judge.search.errors import SearchError
from judge.search.index import (
    DocInfo,
    Documents,
    OpenedIndex,
    Postings,
    ProgressCallback,
    ensure_index,
    heading_of,
)
from judge.search.lexicon import (
    Glossary,
    GlossaryTerm,
    clitics_folded,
    lexicon_folder,
    load_lexicon,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

MAX_QUERY_CHARS = 300
MAX_WORDS = 24  # words that can carry a concept of their own (a stop word in neither language)
MAX_TOKENS = 60  # every word read: a concept is one bit of an int64 mask (< 63)
SNIPPET_CHARS = 240
BM25_K1 = 1.2
BM25_B = 0.75  # paragraphs; titles and headings use 0.3 (short, and their length says little)
PHRASE_BONUS = 2.0  # weight of the whole query found as a phrase (slop 3)
EDITION_DECAY = 0.8  # each further hit of the same edition, before diversification
HEADING_BONUS = 1.5  # a section whose title is exactly what was asked for
# a paragraph in another language than the query's, when the query-language text has every
# concept of the query; nearer 1 as concepts are missing from it (défenseur, only in English)
OTHER_LANGUAGE = 0.25
# the same, for a paragraph its edition of the query's language prints in the other one: that
# edition's only text of the rule, nearly as if in the query's language (its matches are
# translations, which weigh less already: TRANSLATED)
OWN_EDITION_OTHER_LANGUAGE = 0.8
# and when the query asks for what the query's language has no text for (« protecteur »,
# « siège »), the other language's paragraphs all weigh up to 1: that edition's own one leads
# them by this factor, up to 1.5, above the edition's French paragraphs too, which cannot have
# those words (fr-2024's 704.5x before the 2025 English editions' 310.8b)
OWN_EDITION_LEAD = 1.5
SECTION_BONUS = 1.3  # a rule under a section whose whole title is among the query's words
PARENT_CONTEXT = 0.25  # how much of a concept a sub-rule covers when only its parent has it
# a concept's share in the coverage grows with its IDF to this power: a paragraph without the
# rare word of a question (jeton) covers less than one without a common one (peut)
COVERAGE_IDF = 1.0
# a rule that a glossary entry the query names points to (« Copy: See rule 706 ») weighs
# up to 1 + LINK times more, as that entry's words weigh in the query
LINK = 1.0
# an example whose rule's text has none of the query's concepts: it matches the story it
# tells (a creature, cards in hand, a spell), not what its rule says (704.4's example)
EXAMPLE_ALONE = 0.3
TOP_K = 400  # paragraphs kept (best first) before grouping them into rules
SAMPLE = 2 * TOP_K  # paragraphs weighed first to bound the rest (`_contenders`)
ERA_LEAD = 2.0  # the paragraphs of the editions of the time a question asks about (era.py)
SYNONYM = 0.7  # weight of another wording of a glossary term in the same language
TRANSLATED = 0.7  # weight of a glossary translation against the words as typed
WEAK = 0.3  # weight of a word that frames a question (mots-de-question.txt)
# weight of each number in a paragraph for « combien », "how many": little, as a paragraph
# often says several (« Troll à deux têtes … 15 marqueurs »); having one is what counts
QUANTITY = 0.1
OLD_WORDING = 0.5  # an older edition's wording of a term the query wrote in today's words
# a rule no longer in force: no copy in the newest edition of its language that has text in
# its section, nor in a newer one (2008's 502.9e, removed in 2009), unless old wording or an
# edition was asked
REMOVED = 0.6
RELATED = 0.3  # weight of what a glossary term is looked up with (répondre → pile)
RELATED_ALONE = 0.7  # the same, when no document has the term itself
# paragraph text, section titles above it, title of a rule known only by its title
_FIELD_WEIGHT = {"body": 1.0, "title": 0.5, "heading": 1.5}
_LANGUAGES: tuple[AnalyzerLanguage, ...] = ("fr", "en")

HitKind = Literal["number", "reference", "text", "glossary"]


# --- results -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    text: str
    match: bool


@dataclass(frozen=True)
class Hit:
    """One rule (or glossary entry) of one edition."""

    edition: str
    rule: str  # canonical rule number; the term itself for a glossary entry
    kind: HitKind  # number: named in the query; reference: cites it; text; glossary
    title: str | None  # the rule's title, else the title of its section
    breadcrumb: str  # `7. Règles supplémentaires › 704. Actions basées sur un état › 704.5`
    segments: tuple[Segment, ...]  # the snippet; `match` marks the words that matched
    score: float  # 1.0 for a rule named by number; text hits relative to the best (≤ 0.99)
    language: str | None
    # the same rule in other editions (same group key), folded into this hit: (edition, rule)
    also: tuple[tuple[str, str], ...] = ()
    # for a glossary entry, the rules of its edition it sends to (« See rule 702.4 »)
    see: tuple[str, ...] = ()

    @property
    def snippet(self) -> str:
        """The snippet as plain text, matched words between `**`."""
        return render(self.segments, "**", "**")


@dataclass(frozen=True)
class SearchResult:
    query: str  # as typed
    corrected: str | None  # what was searched for, when typos were corrected
    message: str | None  # a French note: empty query, unknown rule, nothing found, …
    hits: tuple[Hit, ...]
    expansions: tuple[str, ...] = ()  # glossary terms added, e.g. "contact mortel → deathtouch"


def render(segments: Iterable[Segment], before: str, after: str) -> str:
    return "".join(f"{before}{s.text}{after}" if s.match else s.text for s in segments)


# --- cleaning and rule numbers -----------------------------------------------------------

_NUMBER_RE = re.compile(
    r"(?<![\w.])(?P<prefix>(?:r[eè]gles?|rules?)\s*|r\.?\s?)?"
    r"(?P<num>\d{1,3}(?:\.\d{1,3}[a-z]{0,2})?)\.?(?![\w])",
    re.IGNORECASE,
)


def clean(text: str) -> tuple[str, bool]:
    """Control and invisible characters out, spaces collapsed, length capped."""
    chars = [
        " " if unicodedata.category(c)[0] in "CZ" or c in "\ufffd" else c
        for c in unicodedata.normalize("NFC", text[: MAX_QUERY_CHARS * 4])
    ]
    cleaned = " ".join("".join(chars).split())
    truncated = len(cleaned) > MAX_QUERY_CHARS or len(text) > MAX_QUERY_CHARS * 4
    if len(cleaned) > MAX_QUERY_CHARS:
        cut = cleaned[:MAX_QUERY_CHARS]
        cleaned = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return cleaned, truncated


@dataclass(frozen=True)
class _NumberRef:
    number: str  # canonical
    start: int
    end: int


def find_numbers(text: str) -> list[_NumberRef]:
    """Rule numbers in the query: `704.5g`, `règle 704`, `r420.5e`; a bare `704` only alone."""
    out: list[_NumberRef] = []
    alone = len(_NUMBER_RE.findall(text)) == 1 and _NUMBER_RE.fullmatch(text.strip()) is not None
    for m in _NUMBER_RE.finditer(text):
        raw = m.group("num")
        prefix = m.group("prefix")
        short_prefix = bool(prefix) and len(prefix.strip(" .")) == 1  # `r704.5g`, `r.704`
        # a bare `704` is a number only when alone or after `règle`; `r12` inside a sentence
        # is not, `r704.5g` is
        if "." not in raw and not alone and (not prefix or short_prefix):
            continue
        num = canonical(raw)
        if num is not None:
            out.append(_NumberRef(num, m.start(), m.end()))
    return out


# --- query understanding -----------------------------------------------------------------


@dataclass
class _Word:
    text: str  # as written (after correction)
    start: int
    end: int
    keys: dict[AnalyzerLanguage, str]  # stemmed, stop words kept
    terms: dict[AnalyzerLanguage, list[str]]  # index terms (empty when a stop word)


@dataclass
class _Concept:
    """One thing the user asked for: a word, or a glossary term in all its forms."""

    label: str
    # term sequences per language, each with its weight (translations weigh less)
    forms: dict[AnalyzerLanguage, list[tuple[tuple[str, ...], float]]]
    old: bool = False  # written in an older edition's wording
    weak: bool = False  # a word that frames the question (devient, happens): weighs little
    frames: bool = False  # its glossary term makes the concept before it frame the question
    # the forms a heading may consist of to be "exactly what was asked": all of them, but
    # only the older ones when the query used an older wording (zone en jeu: not Battlefield)
    naming: dict[AnalyzerLanguage, set[str]] = field(default_factory=dict)
    # the forms that are only what the term is looked up with (répondre → pile)
    related: set[tuple[AnalyzerLanguage, tuple[str, ...]]] = field(default_factory=set)
    span: tuple[int, int] = (0, 0)  # where the query writes it
    quantity: bool = False  # « combien », "how many": its forms are the numbers

    def names(self, language: AnalyzerLanguage) -> set[str]:
        return self.naming.get(language, set()) if self.naming else self.terms(language)

    def add(self, language: AnalyzerLanguage, seq: tuple[str, ...], weight: float) -> None:
        known = self.forms.setdefault(language, [])
        for i, (other, w) in enumerate(known):
            if other == seq:
                known[i] = (seq, max(w, weight))
                return
        known.append((seq, weight))

    def terms(self, language: AnalyzerLanguage) -> set[str]:
        return {t for seq, _ in self.forms.get(language, []) for t in seq}


def _words(text: str) -> list[_Word]:
    """The query's words, up to `MAX_WORDS` that mean something: stop words do not count,
    so a long question keeps its end, where players put what they ask (« … ou le tour se
    termine ? »)."""
    out = []
    meaningful = 0
    for m in TOKEN_RE.finditer(text):
        w = m.group(0)
        keys = {lang: analysis.word_key(w, lang) for lang in _LANGUAGES}
        terms = {lang: analysis.terms(w, lang) for lang in _LANGUAGES}
        out.append(_Word(w, m.start(), m.end(), keys, terms))
        meaningful += all(terms[lang] for lang in _LANGUAGES)
        if meaningful >= MAX_WORDS or len(out) >= MAX_TOKENS:
            break
    return out


def _majority(votes: Mapping[str, int]) -> str:
    """The query's language: French unless more of its words are English ones."""
    return "en" if votes["en"] > votes["fr"] else "fr"


def _quantity(word: _Word) -> _Concept:
    """« combien », "how many": the answer says a number, so a number in the paragraph
    counts, a little, as the question's word (305.2 "only one land", 103.3 "seven cards")."""
    return _Concept(
        word.text,
        {lang: [((n,), QUANTITY) for n in _numbers(lang)] for lang in _LANGUAGES},
        weak=True,
        span=(word.start, word.end),
        quantity=True,
    )


@functools.cache
def _numbers(language: AnalyzerLanguage) -> tuple[str, ...]:
    """The index terms of the numbers the rules write, digits and words."""
    words = sorted(analysis.NUMBER_WORDS[language])
    found = [t for w in words for t in analysis.terms(w, language)]
    return tuple(dict.fromkeys([*map(str, range(analysis.NUMBERS_WRITTEN + 1)), *found]))


def _framed(concepts: list[_Concept], text: str) -> list[_Concept]:
    """The action just before a framing term (« sacrifice en réponse » asks whether one can
    respond, not how to sacrifice) weighs as a word that frames the question: the concept
    before it, and the verb before that when only a determiner joins them (« je sacrifie un
    artefact en réponse », "cast a spell in response")."""
    out = list(concepts)
    for i in range(1, len(out)):
        if not out[i].frames:
            continue
        for j in (i - 1, i - 2):  # i - 2 only when i - 1 > 0 (see the end of the loop)
            before = out[j]
            if before.weak or before.frames:
                break
            forms = {
                lang: [(seq, w * WEAK) for seq, w in seqs] for lang, seqs in before.forms.items()
            }
            out[j] = replace(before, forms=forms, weak=True)
            if j == 0 or not _joined_by_determiners(text, out[j - 1], before):
                break
    return out


_QUOTED_RE = re.compile(r"«([^»]*)»|“([^”]*)”|„([^“”]*)[“”]|‘([^’]*)’|\"([^\"]*)\"")


def _quoted(words: list[_Word], text: str) -> list[list[_Word]]:
    """The query's words written between quotes (« la créature équipée », "dies"), one list
    per quoted part: the user copied them from a card or a rule."""
    spans = [m.span() for m in _QUOTED_RE.finditer(text)]
    return [
        inside
        for start, end in spans
        if (inside := [w for w in words if start < w.start and w.end < end])
    ]


def _distinct(concepts: list[_Concept]) -> list[_Concept]:
    """Each concept once: a word the question repeats (« 2 marqueurs … 3 marqueurs », "a red
    source … protection from red") is not asked for twice as much. The copy that weighs its
    full weight is kept."""
    kept: dict[tuple[tuple[str, tuple[tuple[str, ...], ...]], ...], int] = {}
    out: list[_Concept] = []
    for c in concepts:
        key = tuple(
            sorted((lang, tuple(sorted(seq for seq, _ in seqs))) for lang, seqs in c.forms.items())
        )
        at = kept.get(key)
        if at is None:
            kept[key] = len(out)
            out.append(c)
        elif out[at].weak and not c.weak:
            out[at] = c
    return out


def _joined_by_determiners(text: str, left: _Concept, right: _Concept) -> bool:
    """Whether only determiners, no punctuation, stand between two concepts of the query (a
    verb and its object)."""
    between = text[left.span[1] : right.span[0]]
    words = TOKEN_RE.findall(between)
    rest = TOKEN_RE.sub("", between)
    return not rest.strip() and all(fold_token(w) in analysis.DETERMINERS for w in words)


_Match = tuple[int, int, set[int]]  # first word, last word, the variants written there


def _glossary_matches(
    words: list[_Word], glossary: Glossary, keep: Callable[[_Match], bool] | None = None
) -> list[_Match]:
    """(first word, last word, the glossary variants written there) for each term recognised
    in the query, longest first, never overlapping; `keep` says which may be chosen at all
    (before the overlaps are settled: a match left out does not hide a shorter one)."""
    found: dict[tuple[int, int], set[int]] = {}
    for lang in _LANGUAGES:
        keys = [w.keys[lang] for w in words]
        content_idx = [i for i, w in enumerate(words) if w.terms[lang]]
        content = [words[i].terms[lang][0] for i in content_idx]
        for i, key in enumerate(keys):
            for number in glossary.starting(lang, "keys", key):
                v = glossary.variants[number]
                n = len(v.keys)
                if tuple(keys[i : i + n]) == v.keys:
                    found.setdefault((i, i + n - 1), set()).add(number)
        for j, term in enumerate(content):
            for number in glossary.starting(lang, "content", term):
                v = glossary.variants[number]
                m = len(v.content)
                if m >= 2 and v.content != v.keys and tuple(content[j : j + m]) == v.content:
                    span = (content_idx[j], content_idx[j + m - 1])
                    found.setdefault(span, set()).add(number)
    chosen: list[_Match] = []
    taken: set[int] = set()
    for (a, b), variants in sorted(found.items(), key=lambda kv: (-(kv[0][1] - kv[0][0]), kv[0])):
        if keep is not None and not keep((a, b, variants)):
            continue
        if taken.isdisjoint(range(a, b + 1)):
            chosen.append((a, b, variants))
            taken.update(range(a, b + 1))
    return sorted(chosen, key=lambda m: m[0])


# --- the searcher ------------------------------------------------------------------------

GroupKey = Callable[[str, str], Hashable]  # (edition, rule) -> what makes copies one rule


class _Ranked(NamedTuple):  # a tuple: hundreds are made per query
    score: float
    edition: str
    rule: str
    info: DocInfo  # the paragraph shown
    exact: bool  # its heading is exactly what was asked for
    has_text: bool  # not a rule known only by its title
    also: tuple[tuple[str, str], ...] = ()
    # `_merge_table`'s: the documents of its group, the lead's among them (read into `also`
    # only for the hits shown)
    copies: NDArray[np.int64] | None = None


@dataclass(frozen=True)
class _Preference:
    """Which copy of a rule leads: the query's language, and whether old wording was used;
    whether older editions may lead at all (`in_force`: no old wording, no edition filter)."""

    language: str
    old: bool
    in_force: bool = False
    asked: frozenset[str] = frozenset()  # the editions of the time the query asks about


_EMPTY_MESSAGE = "Requête vide : tapez un numéro de règle (704.5g) ou des mots du texte des règles."


class Searcher:
    """Keeps the whoosh index open for repeated queries; whoever opens it closes it (the
    façade holds one per store generation).

    Safe to share between threads. A query mutates the searcher's caches (posting lists,
    phrases, document frequencies) and reads through whoosh's reader, which is not
    thread-safe: queries are serialised on a lock (each one takes a few milliseconds).
    Closing takes the same lock, so it waits for the query in progress; a query after
    closing raises SearchError."""

    def __init__(
        self,
        index: RuleIndex,
        home: Path | None = None,
        progress: ProgressCallback | None = None,
        glossary: Glossary | None = None,
        rebuild: bool = False,
        group_key: GroupKey | None = None,
    ) -> None:
        self.index = index
        self._group_key: GroupKey = group_key or self.same_number
        lexicon = load_lexicon(lexicon_folder(home))
        self.glossary = glossary if glossary is not None else lexicon.glossary
        self._opened: OpenedIndex = ensure_index(index, home, progress, rebuild=rebuild)
        self._lock = threading.Lock()
        self._closed = False
        self._docs = self._opened.documents
        self._lengths = self._opened.lengths
        # average length of each text field over the documents that have it (BM25)
        self._average = {
            name: sum(column) / max(1, len(column) - column.count(0))
            for name, column in self._lengths.items()
        }
        self._posting_cache: dict[tuple[str, str], Postings] = {}
        self._saturation_cache: dict[tuple[str, str], NDArray[np.float64]] = {}
        self._phrase_cache: dict[tuple[str, tuple[str, ...], int], NDArray[np.int64]] = {}
        self._number_texts: dict[str, NDArray[np.int64]] = {}  # texts with a number, per language
        self._frequencies: dict[tuple[str, str], int] = {}
        # per (language, form): `_concept_frequency`'s count of one form, for the next queries
        self._seq_frequencies: dict[tuple[str, tuple[str, ...]], int] = {}
        self._vocabulary = self._opened.vocabulary
        self._french = lexicon.french
        self._question_words = lexicon.question_words
        self._counts = self._vocabulary.counts
        self._order = {ed.id: i for i, ed in enumerate(index.editions)}
        # each edition's rule -> its place in the edition, made when a query first needs it
        self._positions: dict[str, Mapping[str, int]] = {}
        self._choices_by_language: dict[str, list[str]] = {}
        self._arrays()
        self._group_of: dict[tuple[str, str], Hashable] = {}  # group_key, once per rule
        self._parent_docs: dict[int, tuple[int, ...]] = {}  # the texts of a doc's parent
        self._lineage: dict[tuple[str, str], tuple[str, ...]] = {}
        # documents per language (IDF)
        per_language = np.bincount(self._docs.language_codes, minlength=len(Documents.LANGUAGES))
        self._language_docs: dict[str, int] = {
            lang: int(n) for lang, n in zip(Documents.LANGUAGES, per_language, strict=True) if n
        }
        self._rules_of = {ed.id: ed.rules for ed in index.editions}
        self._language_of = {ed.id: ed.language for ed in index.editions}
        self._numbering = {ed.id: ed.numbering for ed in index.editions}
        # documents of a rule known only by its title (contents, citations)
        self._title_only = self._opened.title_only
        # The loaded rules and index tables live as long as the searcher: out of the cyclic
        # collector's sight, so that no full collection walks them during a query.
        gc.freeze()

    # -- the words a query is read with: known words are never corrected --

    def _is_known(self, folded: str) -> bool:
        return folded in self._counts or folded in self.glossary.words or folded in self._french

    def _in_language(self, folded: str, language: str) -> bool:
        """Whether `folded` is a word of `language`: of its texts, its glossary forms, or
        (French) the word list."""
        return (
            language in self._vocabulary.languages.get(folded, ())
            or folded in self.glossary.by_language.get(language, ())
            or (language == "fr" and folded in self._french)
        )

    @functools.cached_property
    def _choices(self) -> list[str]:
        """Every known word, sorted: what a typo may be corrected to (made at the first)."""
        return sorted(set(self._counts) | self.glossary.words | self._french)

    def _choices_of(self, language: str) -> list[str]:
        """The words a typo of a query in `language` may become: those of its texts and
        its glossary forms."""
        found = self._choices_by_language.get(language)
        if found is None:
            vocab = self._vocabulary
            words = vocab.words_of(language) | self.glossary.by_language.get(language, set())
            if language == "fr":
                words |= self._french
            found = sorted(w for w in words if w in vocab.counts or w in self.glossary.words)
            self._choices_by_language[language] = found
        return found

    def _display(self, folded: str) -> str:
        """A word as the corpus usually writes it (the texts' spelling before the
        glossary's)."""
        found = self._vocabulary.display.get(folded)
        return found if found is not None else self.glossary.display.get(folded, folded)

    def _position(self, edition: str, rule: str) -> int:
        """The place of `rule` among its edition's rules (0 when unknown)."""
        places = self._positions.get(edition)
        if places is None:
            rules = self._rules_of.get(edition, {})
            if isinstance(rules, LazyRules):
                places = rules.places()
            else:
                places = {num: i for i, num in enumerate(rules)}
            self._positions[edition] = places
        return places.get(rule, 0)

    def _arrays(self) -> None:
        """The document tables as arrays: ranking is done at C speed over every document."""
        self._length_arrays = {
            name: np.asarray(column, dtype=np.float64) for name, column in self._lengths.items()
        }
        docs = self._docs
        weights = [_KIND_WEIGHT.get(kind, 1.0) for kind in Documents.KINDS]
        self._kind_weights = np.asarray(weights, dtype=np.float64)[docs.kind_codes]
        self._rule_text = _rule_texts(self._opened.rule_codes, docs.kind_codes)
        # BM25 is scored once per text (a paragraph shared by several editions is one
        # physical document), then read as its documents; unless the copies of a text
        # differ in length (never, by construction: then document by document)
        text_of = self._opened.text_of
        texts = len(self._opened.text_width)
        self._text_lengths: dict[str, NDArray[np.float64]] = {}
        for name, column in self._length_arrays.items():
            by_text = np.zeros(texts, dtype=np.float64)
            by_text[text_of] = column
            self._text_lengths[name] = by_text
        self._per_text = all(
            np.array_equal(self._text_lengths[name][text_of], column)
            for name, column in self._length_arrays.items()
        )
        if not self._per_text:
            text_of = np.arange(len(self._docs), dtype=np.int64)
            texts = len(self._docs)
            self._text_lengths = self._length_arrays
        self._text_of: NDArray[np.int64] = text_of
        self._texts = texts
        # each text's documents (`_docs_of`), and bounds of what a copy of it can weigh
        self._text_docs = np.argsort(text_of, kind="stable")
        self._text_starts = np.concatenate(
            [[0], np.cumsum(np.bincount(text_of, minlength=texts))]
        ).astype(np.int64)
        # per query language: which documents are written in the other one
        self._other_arrays: dict[str, NDArray[np.bool_]] = {
            lang: docs.language_codes != Documents.LANGUAGES.index(lang) for lang in _LANGUAGES
        }
        order = [self._order[edition] for edition in docs.editions]
        self._edition_codes = np.asarray(order, dtype=np.int32)[docs.edition_index]
        # per query language: which documents belong to an edition written in it
        self._edition_language: dict[str, NDArray[np.bool_]] = {
            lang: np.asarray([ed.language == lang for ed in self.index.editions], dtype=np.bool_)[
                self._edition_codes
            ]
            for lang in _LANGUAGES
        }
        self._kind_bounds = np.zeros(texts, dtype=np.float64)
        np.maximum.at(self._kind_bounds, text_of, self._kind_weights)
        # per query language, which texts have a copy in it, a copy in the other language in
        # an edition of the query's language, and one in an edition of the other language
        self._text_languages: dict[str, tuple[NDArray[np.bool_], ...]] = {
            lang: tuple(
                np.bincount(text_of, weights=these, minlength=texts) > 0
                for these in (
                    ~self._other_arrays[lang],
                    self._other_arrays[lang] & self._edition_language[lang],
                    self._other_arrays[lang] & ~self._edition_language[lang],
                )
            )
            for lang in _LANGUAGES
        }
        # per document, filled as documents reach the first page: its group of copies (a
        # number for its group key) and its rule's place in its edition; -1 until then
        self._group_numbers: dict[Hashable, int] = {}
        self._doc_groups = np.full(len(self._docs), -1, dtype=np.int64)
        self._doc_positions = np.full(len(self._docs), -1, dtype=np.int64)
        # and the newest edition where its rule would be if still in force (-2 until known)
        self._doc_in_force = np.full(len(self._docs), -2, dtype=np.int64)
        self._covering: dict[tuple[str, str], int] = {}
        self._sections: dict[str, frozenset[str]] = {}
        self._has_text = np.frombuffer(self._opened.title_only, dtype=np.uint8) == 0

    @property
    def path(self) -> Path:
        return self._opened.path

    def same_number(self, edition: str, rule: str) -> Hashable:
        """The default group key: the same number within the same numbering."""
        return (self._numbering[edition], rule)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release the index files (waits for a query in progress; closing twice is fine)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._opened.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public -----------------------------------------------------------------------

    def search(
        self,
        query: str,
        editions: Sequence[str] | None = None,
        language: str | None = None,
        limit: int = 10,
    ) -> SearchResult:
        """Rules matching `query`, best first: rules named by number, then text hits."""
        if language not in (None, "fr", "en"):
            raise SearchError(f"Langue inconnue : « {language} » (attendu : fr ou en)")
        eds = [self.index.edition(e).id for e in editions] if editions else None
        limit = max(1, min(int(limit), 200))
        if not isinstance(query, str):
            query = str(query)
        with self._lock:
            if self._closed:
                raise SearchError("Recherche fermée : l'index de recherche a été refermé.")
            return self._search(query, eds, language, limit)

    # -- steps ------------------------------------------------------------------------

    def _search(
        self, query: str, editions: list[str] | None, language: str | None, limit: int
    ) -> SearchResult:
        text, truncated = clean(query)
        notes: list[str] = []
        if truncated:
            notes.append(f"Requête tronquée à {MAX_QUERY_CHARS} caractères.")
        if not text or not any(c.isalnum() for c in text):
            return SearchResult(query, None, _EMPTY_MESSAGE, ())

        # Typos first (numbers and the words around them are never "corrected"), so that
        # the answer can say what was searched for, numbers included.
        searched, corrections = self._correct(text, keep=read_era(text)[1])
        numbers = find_numbers(searched)
        number_hits, number_notes = self._number_hits(numbers, editions, language)
        notes.extend(number_notes)
        rest = searched
        for ref in reversed(numbers):
            rest = rest[: ref.start] + " " + rest[ref.end :]
        rest = " ".join(rest.split())
        if numbers and not TOKEN_RE.search(rest):
            hits = number_hits + self._reference_hits(numbers, editions, language, number_hits)
            return SearchResult(query, None, " ".join(notes) or None, tuple(hits[:limit]))

        # the time the question asks about (« avant 2009 ») says which copies lead; its
        # words are not asked for, unless they are all there is
        era, said = read_era(rest)
        asked = era.editions(self.index.editions) if era is not None else frozenset()
        if not asked:  # a time no edition is from: as if unsaid
            era = None
        if era is not None:
            listed = [e.id for e in self.index.editions if e.id in asked]
            notes.append(era_asked(era.before, era.year, era.now, listed))
            kept = rest
            for a, b in said:
                kept = kept[:a] + " " * (b - a) + kept[b:]
            if TOKEN_RE.search(kept):
                rest = kept
        words = _words(rest)
        votes = self._language_votes(words)
        query_language = language or _majority(votes)
        concepts, expansions = self._concepts(rest, words, query_language, votes)
        if not concepts:
            msg = "Aucun mot significatif dans la requête (seulement des mots vides)."
            return SearchResult(query, None, " ".join([*notes, msg]), tuple(number_hits[:limit]))

        old = any(c.old for c in concepts) or (era is not None and era.old)
        prefer = _Preference(
            query_language,
            old,
            in_force=not old and not editions and (era is None or era.now),
            asked=asked,
        )
        text_hits, missing = self._text_hits(
            concepts, words, editions, language, limit, prefer, rest
        )
        seen = {(h.edition, h.rule) for h in number_hits}
        text_hits = [h for h in text_hits if (h.edition, h.rule) not in seen]
        corrected = searched if corrections else None
        if missing:
            notes.append("Absent des règles : " + ", ".join(f"« {m} »" for m in missing) + ".")
        if not text_hits and not number_hits:
            notes.append(f"Aucune règle ne correspond à « {searched} ».")
        hits = (number_hits + text_hits)[:limit]
        return SearchResult(query, corrected, " ".join(notes) or None, tuple(hits), expansions)

    def _correct(
        self, text: str, keep: Sequence[tuple[int, int]] = ()
    ) -> tuple[str, list[tuple[str, str]]]:
        """Unknown words replaced by the nearest word of the index vocabulary; not those
        within `keep` (the words that say when: "today" is no typo of "day")."""
        out: list[str] = []
        corrections: list[tuple[str, str]] = []
        last = 0
        language = self._known_language(text)
        for m in TOKEN_RE.finditer(text):
            word = m.group(0)
            kept = any(a <= m.start() and m.end() <= b for a, b in keep)
            replacement = None if kept else self._suggest(word, language)
            out.append(text[last : m.start()])
            if replacement is not None:
                out.append(replacement)
                corrections.append((word, replacement))
            else:
                out.append(word)
            last = m.end()
        out.append(text[last:])
        return "".join(out), corrections

    def _known_language(self, text: str) -> str | None:
        """The language of the query's known words, or None when they do not tell."""
        votes = {"fr": 0, "en": 0}
        for m in TOKEN_RE.finditer(text):
            folded = clitics_folded(m.group(0))
            inside = [lang for lang in votes if self._in_language(folded, lang)]
            if len(inside) == 1:
                votes[inside[0]] += 1
        if votes["fr"] == votes["en"]:
            return None
        return "fr" if votes["fr"] > votes["en"] else "en"

    def _suggest(self, word: str, language: str | None = None) -> str | None:
        """The vocabulary word the user probably meant, or None to keep `word` as typed."""
        folded = fold_token(word)
        if "'" in folded:
            return None  # elided forms (l'aura…): the corpus spells them the same way
        if (
            len(folded) < 4
            or any(c.isdigit() for c in folded)
            or self._is_known(folded)
            or any(analysis.is_stop_word(word, lang) for lang in _LANGUAGES)
        ):
            return None
        from rapidfuzz import fuzz, process  # loaded by the first unknown word

        cutoff = 80.0 if len(folded) >= 6 else 75.0
        found = process.extract(
            folded,
            self._choices_of(language) if language else self._choices,
            scorer=fuzz.ratio,
            score_cutoff=cutoff,
            limit=5,
        )
        if not found:
            return None
        best = max(found, key=lambda f: (round(f[1]), self._counts.get(f[0], 0)))[0]
        # An inflection the corpus happens not to spell out (blessure, mortelle) is kept; a
        # near-miss of another word (marquers → marqueurs, not marquées) is corrected.
        if self._stem_indexed(word) and (
            fuzz.ratio(folded, best) < 88
            or any(analysis.terms(best, lang) == analysis.terms(word, lang) for lang in _LANGUAGES)
        ):
            return None
        return self._display(best)

    def _stem_indexed(self, word: str) -> bool:
        for lang in _LANGUAGES:
            for term in analysis.terms(word, lang):
                for role in _FIELD_WEIGHT:
                    if self._df(f"{role}_{lang}", term) > 0:
                        return True
        return False

    def _concepts(
        self,
        text: str,
        words: list[_Word],
        query_language: str = "fr",
        votes: dict[str, int] | None = None,
    ) -> tuple[list[_Concept], tuple[str, ...]]:
        """The query's concepts. A word written the same in both languages (sacrifice,
        commander) is read in the query's language; its other-language form weighs as a
        translation."""
        concepts: list[_Concept] = []
        expansions: list[str] = []
        if votes is None:
            votes = self._language_votes(words)
        # In a query plainly in its language (« le sort est encore sur la pile »), not "exile
        # zone", whose words both languages write and which may still be the English term.
        plain = votes[query_language] > min(votes.values())
        matches = _glossary_matches(
            words,
            self.glossary,
            (lambda m: self._reads_as_term(words, m, query_language)) if plain else None,
        )
        covered = {m[0]: m for m in matches}
        i = 0
        while i < len(words):
            if i in covered:
                a, b, written = covered[i]
                label = text[words[a].start : words[b].end]
                old = any(self.glossary.variants[n].old for n in written)
                concept = _Concept(label, {}, old, span=(words[a].start, words[b].end))
                alternatives: list[str] = []
                variants = self.glossary.variants
                typed_in = {variants[n].language for n in written}
                if query_language in typed_in:
                    typed_in = {query_language}
                for t in sorted({variants[n].term for n in written}):
                    for number in self.glossary.of_term(t):
                        v = variants[number]
                        if number in written and v.language in typed_in:
                            weight = 1.0
                        elif v.language in typed_in:
                            weight = SYNONYM  # another wording: effets / actions basés…
                        else:
                            weight = TRANSLATED
                        if v.old and not concept.old:
                            weight *= OLD_WORDING  # zone en jeu, asked as champ de bataille
                        if v.content:
                            concept.add(v.language, v.content, weight)
                        if v.old or not concept.old or number in written:
                            concept.naming.setdefault(v.language, set()).update(v.content)
                        if normalize(v.text) != normalize(label):
                            alternatives.append(v.text)
                    self._add_related(concept, self.glossary.terms[t])
                # the words as typed, too (an English word in French text, and vice versa),
                # each language only if it can read them (« équipements » is not "equip")
                span = [clitics_folded(w.text) for w in words[a : b + 1]]
                for lang in _LANGUAGES:
                    if lang not in typed_in and not all(
                        self._readable_in(f, lang, query_language) for f in span
                    ):
                        continue
                    seq = tuple(t for w in words[a : b + 1] for t in w.terms[lang])
                    if seq:
                        concept.add(lang, seq, 1.0 if lang in typed_in else TRANSLATED)
                        concept.naming.setdefault(lang, set()).update(seq)
                concept.frames = any(self.glossary.terms[variants[n].term].frames for n in written)
                concepts.append(concept)
                if alternatives:
                    expansions.append(f"{label} → {', '.join(dict.fromkeys(alternatives))}")
                i = b + 1
                continue
            single = self._word_concept(words[i], query_language)
            i += 1
            if single is not None:
                concepts.append(single)
        return _distinct(_framed(concepts, text)), tuple(expansions)

    def _reads_as_term(self, words: list[_Word], match: _Match, query_language: str) -> bool:
        """Whether a glossary match is the term: not when only the other language's forms
        were written there and every word is one of the query's language (« encore sur la
        pile » is not the keyword Encore, whose French form is « coût d'encore »)."""
        a, b, written = match
        if any(self.glossary.variants[n].language == query_language for n in written):
            return True
        return not all(
            self._in_language(clitics_folded(w.text), query_language) for w in words[a : b + 1]
        )

    def _word_concept(self, w: _Word, query_language: str) -> _Concept | None:
        """A word outside the glossary: its terms in both languages, the other language's
        weighing as a translation when the word is one of the query's language; None for a
        stop word."""
        folded = clitics_folded(w.text)
        if folded in analysis.QUANTITY_QUESTIONS:
            return _quantity(w)
        if any(not w.terms[lang] for lang in _LANGUAGES):
            return None  # a stop word in either language: no concept of its own
        native = self._in_language(folded, query_language)
        weak = folded in self._question_words
        base = WEAK if weak else 1.0
        return _Concept(
            w.text,
            {
                lang: [
                    (
                        tuple(w.terms[lang]),
                        base * (1.0 if lang == query_language or not native else TRANSLATED),
                    )
                ]
                for lang in _LANGUAGES
                if self._readable_in(folded, lang, query_language)
            },
            weak=weak,
            span=(w.start, w.end),
        )

    def _readable_in(self, folded: str, language: str, query_language: str) -> bool:
        """Whether a word of the query is read in `language` too: a word of the query's
        language that the other never writes is not (« reste » is not the English "rest",
        « équipements » not "equip", that their stems would find)."""
        return (
            language == query_language
            or not self._in_language(folded, query_language)
            or self._in_language(folded, language)
        )

    def _add_related(self, concept: _Concept, term: GlossaryTerm) -> None:
        """What the term is looked up with (répondre → pile), each form read in its language."""
        for form in term.related:
            for lang in self.glossary.languages_of(form):
                seq = tuple(analysis.terms(form, lang))
                if seq:
                    concept.add(lang, seq, RELATED)
                    concept.related.add((lang, seq))

    def _phrase_bonus(
        self,
        words: list[_Word],
        idf: dict[tuple[str, str], float],
        scores: _Scores,
        slop: int = 3,
        given: set[tuple[AnalyzerLanguage, tuple[str, ...]]] | None = None,
    ) -> None:
        """A bonus for `words` as a phrase (`slop` words apart at most): the whole query, or
        a part of it written between quotes. `given`: the phrases that had theirs (a quoted
        part that is the whole query's phrase in a language gets none there), completed."""
        for lang in _LANGUAGES:
            seq = tuple(t for w in words for t in w.terms[lang])
            if given is not None:
                if (lang, seq) in given:
                    continue
                given.add((lang, seq))
            field = f"body_{lang}"
            if 2 <= len(seq) <= 8 and all(self._df(field, t) for t in seq):
                docs = self._dense(self._phrase_docs(field, seq, slop=slop))
                for t in seq:
                    # A word kept in one language only (`d`: elided in French, a plain
                    # letter in English) has no IDF of its own in the other.
                    term_idf = idf.get((lang, t))
                    if term_idf is not None:
                        self._add_term(field, t, term_idf, PHRASE_BONUS / len(seq), scores, docs)

    def _text_hits(
        self,
        concepts: list[_Concept],
        words: list[_Word],
        editions: list[str] | None,
        language: str | None,
        limit: int,
        prefer: _Preference,
        text: str = "",
    ) -> tuple[list[Hit], list[str]]:
        """Rank paragraphs by BM25 over the concepts, weighted by how many concepts each
        covers, then one hit per (edition, rule), editions interleaved. `text`: the query
        `words` were read from (its quoted parts are phrases too)."""
        kept: list[_Concept] = []
        missing: list[str] = []
        idf: dict[tuple[str, str], float] = {}  # (language, term) -> IDF of its concept
        importance: list[float] = []  # each kept concept's share in the coverage
        for c in concepts:
            if c.related and not self._has_own_forms(c):
                # nothing says « réponse » in these rules: what it is looked up with (the
                # stack, priority) is all there is to find, and stands in for it
                c = replace(
                    c,
                    forms={
                        lang: [
                            (seq, RELATED_ALONE if (lang, seq) in c.related else w)
                            for seq, w in seqs
                        ]
                        for lang, seqs in c.forms.items()
                    },
                )
            weight = self._concept_idf(c, prefer.language)
            if weight is None:
                missing.append(c.label)
                continue
            kept.append(c)
            importance.append(weight**COVERAGE_IDF * (WEAK if c.weak else 1.0))
            for lang in _LANGUAGES:
                for term in c.terms(lang):
                    idf.setdefault((lang, term), weight)
        if not kept:
            return [], missing
        scores = _Scores(self._texts)  # per text until the phrase bonus
        # text -> the concepts it has (bit i: concept i; MAX_TOKENS < 63)
        masks = np.zeros(self._texts, dtype=np.int64)
        for i, c in enumerate(kept):
            np.bitwise_or(masks, 1 << i, out=masks, where=self._score_concept(c, idf, scores))
        covered = _Coverage(masks, importance, self._text_of)
        if len(kept) >= 2:
            given: set[tuple[AnalyzerLanguage, tuple[str, ...]]] = set()
            self._phrase_bonus(words, idf, scores, given=given)
            for quoted in _quoted(words, text):
                self._phrase_bonus(quoted, idf, scores, slop=1, given=given)
        terms = {lang: set().union(*(c.terms(lang) for c in kept)) for lang in _LANGUAGES}
        names = {lang: set().union(*(c.names(lang) for c in kept)) for lang in _LANGUAGES}
        # the concepts that no text in the query's language has
        absent = sum(
            1 << i
            for i, c in enumerate(kept)
            if not self._concept_frequency(c).get(prefer.language)
        )
        each = [{lang: c.names(lang) for lang in _LANGUAGES} for c in kept]
        ranked = self._rank_rules(
            scores, covered, names, editions, language, prefer.language, absent, each, prefer.asked
        )
        ranked = self._merge_copies(ranked, limit, prefer)
        if not ranked:
            return [], missing
        top = ranked[0].score or 1.0
        hits = []
        shown = 0.99
        for r in ranked:
            # relative to the first, never rising (the tiers can put a lower score first)
            shown = min(shown, round(0.99 * r.score / top, 4))
            hit = self._make_text_hit(r.info, terms, shown, self._also(r))
            if hit is not None:
                hits.append(hit)
        return hits, missing

    def _rank_rules(
        self,
        scores: _Scores,
        covered: _Coverage,
        terms: dict[AnalyzerLanguage, set[str]],
        editions: list[str] | None,
        language: str | None,
        query_language: str = "fr",
        absent: int = 0,
        each: Sequence[Mapping[AnalyzerLanguage, set[str]]] = (),
        asked: frozenset[str] = frozenset(),
    ) -> list[_Ranked] | _RuleTable:
        """Paragraph scores → one entry per rule (its best paragraph, plus a little of the
        next two), exact headings first with their sub-rules folded in, title-only rules
        after the rules with text, then one entry per group of copies (`group_key`). Without
        an exact heading (most queries), the rules are arrays (`_RuleTable`)."""
        weighted = self._weigh(scores, covered, editions, language, query_language, absent, asked)
        # top-k before grouping: the long tail never reaches the first page
        weighted = heapq.nlargest(TOP_K, weighted)
        docs = self._docs
        # the titles the query names whole, once for both uses (the same documents after
        # `_in_named_sections`, which only reweighs them)
        named = [d for d in self._titles_among(weighted) if self._whole_heading(docs[d], terms)]
        links = self._linked(covered, each, query_language)
        weighted = self._in_named_sections(weighted, named, links)
        exact = {(docs[d].edition, docs[d].rule) for d in named if covered.complete(d)}
        if not exact:
            return self._rule_table(weighted)
        groups: dict[tuple[str, str], list[tuple[float, int]]] = {}
        for item in weighted:  # best first
            info = docs[item[1]]
            key = self._under_heading(info, exact) if exact else (info.edition, info.rule)
            group = groups.get(key)
            if group is None:
                groups[key] = [item]
            else:
                group.append(item)
        rules: list[_Ranked] = []
        append = rules.append
        title_only = self._title_only
        for (ed, number), group in groups.items():
            best, best_doc = group[0]
            best_info = docs[best_doc]
            if len(group) == 1 and not exact:  # most rules: one paragraph among the best
                append(_Ranked(best + 0.0, ed, number, best_info, False, not title_only[best_doc]))
                continue
            if (ed, number) in exact:
                best *= HEADING_BONUS
                best_info = next((docs[d] for _, d in group if docs[d].rule == number), best_info)
            score = best + 0.1 * sum(sc for sc, _ in group[1:3])
            # text of its own, or of the sub-rules folded under its heading
            has_text = not all(title_only[d] for _, d in group)
            append(_Ranked(score, ed, number, best_info, (ed, number) in exact, has_text))
        return rules

    def _weigh(
        self,
        scores: _Scores,
        covered: _Coverage,
        editions: list[str] | None,
        language: str | None,
        query_language: str,
        absent: int,
        asked: frozenset[str] = frozenset(),
    ) -> list[tuple[float, int]]:
        """The best paragraphs (top-k, best first), each one's score times its kind's weight
        and its coverage of the query, and `ERA_LEAD` in the editions `asked` (era.py). A
        paragraph in another language than the query's weighs less
        (`_other_language_factors`; `absent`: the concepts no text of the query's language
        has): a French judge reads the French rule first when the French text can answer.
        A sub-rule is read with its parent's text: the concepts the parent has count, a
        little, as the sub-rule's (118.1c, Commander, under 118.1 « Chaque joueur commence
        la partie… »). Vectorised over the documents that can reach the
        top-k (`_contenders`); ties go to the higher document number."""
        era = None
        if asked and ERA_LEAD != 1.0:
            era = np.isin(self._edition_codes, [self._order[e] for e in asked if e in self._order])
        if editions or language:
            docs = self._docs_of(np.flatnonzero(scores.touched))
            keep = np.ones(len(docs), dtype=np.bool_)
            if editions:
                codes = [self._order[e] for e in editions if e in self._order]
                keep &= np.isin(self._edition_codes[docs], codes)
            if language:
                keep &= ~self._other_arrays[language][docs]
            docs = docs[keep]
        else:
            docs = self._contenders(scores, covered, query_language, absent, era)
        values, kinds, masks = self._first_pass(docs, scores, covered, query_language, absent, era)
        best = _top(values, docs, TOP_K)
        chosen: list[int] = docs[best].tolist()
        if not PARENT_CONTEXT:
            return list(zip(values[best].tolist(), chosen, strict=True))
        # only the best few get their parent's context (it can only raise a score)
        top = docs[best]
        own = masks[best]
        context = self._parent_masks(chosen, covered) & ~own
        # the factor per (own concepts, parent's other concepts): a handful of pairs
        pairs, inverse = np.unique((own << 32) | context, return_inverse=True)
        factors = np.asarray(
            [
                0.15
                + 0.85 * (covered.share(p >> 32) + PARENT_CONTEXT * covered.share(p & _LOW)) ** 2
                for p in pairs.tolist()
            ],
            dtype=np.float64,
        )
        values = scores.scores[self._text_of[top]] * kinds[best]
        other = _other_language_factors(covered, own, absent)
        values *= self._language_factors(top, other, query_language)
        values *= factors[inverse]
        if era is not None:
            values *= np.where(era[top], ERA_LEAD, 1.0)
        return list(zip(values.tolist(), chosen, strict=True))

    def _first_pass(
        self,
        docs: NDArray[np.int64],
        scores: _Scores,
        covered: _Coverage,
        query_language: str,
        absent: int,
        era: NDArray[np.bool_] | None = None,
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]:
        """`_weigh`'s value of each document before its parent's context, with each one's
        kind weight and concepts (`era`: the documents of the editions asked for)."""
        masks = covered.of(docs)
        # each kind's weight, an example's own factor included (both passes read it)
        kinds = self._kind_weights[docs] * self._example_factors(docs, covered)
        values = scores.scores[self._text_of[docs]] * kinds
        other = _other_language_factors(covered, masks, absent)
        values *= self._language_factors(docs, other, query_language)
        values *= _coverage_factors(covered, masks)
        if era is not None:
            values *= np.where(era[docs], ERA_LEAD, 1.0)
        return values, kinds, masks

    def _contenders(
        self,
        scores: _Scores,
        covered: _Coverage,
        query_language: str,
        absent: int,
        era: NDArray[np.bool_] | None = None,
    ) -> NDArray[np.int64]:
        """The documents that can be among the `TOP_K` best of `_first_pass`, without
        weighing the tens of thousands scored (a text is held by five editions on average).
        Each text's value is bounded by its best possible copy (`_kind_bounds`,
        `_language_bounds`); the texts with the best bounds, weighed, give a floor that the
        `TOP_K` best values reach; only the texts whose bound reaches it are weighed. The
        bounds take the operations of `_first_pass` in the same order, so a bound is never
        below what it bounds, and the top-k is the one of every document."""
        texts = np.flatnonzero(scores.touched)
        starts = self._text_starts
        counts = starts[texts + 1] - starts[texts]
        if len(texts) <= TOP_K or int(counts.sum()) <= SAMPLE:
            return self._docs_of(texts)
        masks = covered.text_masks[texts]
        bound = scores.scores[texts] * self._kind_bounds[texts]
        other = _other_language_factors(covered, masks, absent)
        bound *= self._language_bounds(texts, other, query_language)
        bound *= _coverage_factors(covered, masks)
        if era is not None:  # a text with a copy in an edition asked for
            held = np.bincount(self._text_of, weights=era, minlength=self._texts) > 0
            bound *= np.where(held[texts], ERA_LEAD, 1.0)
        # the best bounds until SAMPLE documents: the TOP_K-th of their values is the floor
        # (of twice TOP_K, so that a loose bound among the last, an example's, lowers it less)
        n = min(len(texts), SAMPLE)
        first = np.argpartition(-bound, n - 1)[:n]
        first = first[np.argsort(-bound[first], kind="stable")]
        enough = first[: int(np.searchsorted(np.cumsum(counts[first]), SAMPLE)) + 1]
        sample = self._docs_of(texts[enough])
        values = self._first_pass(sample, scores, covered, query_language, absent, era)[0]
        floor = np.partition(values, len(values) - TOP_K)[len(values) - TOP_K]
        return self._docs_of(texts[bound >= floor])

    def _docs_of(self, texts: NDArray[np.int64]) -> NDArray[np.int64]:
        """The documents of each of `texts`."""
        starts = self._text_starts[texts]
        counts = self._text_starts[texts + 1] - starts
        ends = np.cumsum(counts)
        at = np.repeat(starts - (ends - counts), counts) + np.arange(
            int(ends[-1]) if len(ends) else 0
        )
        return self._text_docs[at]

    def _language_bounds(
        self, texts: NDArray[np.int64], other: NDArray[np.float64] | float, query_language: str
    ) -> NDArray[np.float64]:
        """The highest `_language_factors` of any document of each text."""
        same, own, foreign = self._text_languages[query_language]
        own_edition = np.maximum(other * OWN_EDITION_LEAD, OWN_EDITION_OTHER_LANGUAGE)
        bound = np.where(own[texts], own_edition, 0.0)
        bound = np.maximum(bound, np.where(foreign[texts], other, 0.0))
        return np.maximum(bound, np.where(same[texts], 1.0, 0.0))

    def _example_factors(
        self, docs: NDArray[np.int64], covered: _Coverage
    ) -> NDArray[np.float64] | float:
        """`EXAMPLE_ALONE` for an example whose rule's text has none of the query's concepts,
        1 for any other document."""
        if EXAMPLE_ALONE >= 1.0:
            return 1.0
        text = self._rule_text[docs]
        examples = np.flatnonzero(text >= 0)  # a few among the documents scored
        factors = np.ones(len(docs))
        factors[examples[covered.of(text[examples]) == 0]] = EXAMPLE_ALONE
        return factors

    def _language_factors(
        self,
        docs: NDArray[np.int64],
        other: NDArray[np.float64] | float,
        query_language: str,
    ) -> NDArray[np.float64]:
        """1 for a paragraph in the query's language, `other` for one in the other; but a
        paragraph that an edition of the query's language prints in the other language
        (fr-2024's 301.5e, 301.6, 704.5s, 704.5y, in English) is that edition's only text of
        the rule: it weighs at least `OWN_EDITION_OTHER_LANGUAGE`, and `OWN_EDITION_LEAD` times
        what the other editions' paragraphs weigh."""
        own_edition = np.maximum(other * OWN_EDITION_LEAD, OWN_EDITION_OTHER_LANGUAGE)
        factors = np.where(self._edition_language[query_language][docs], own_edition, other)
        return np.where(self._other_arrays[query_language][docs], factors, 1.0)

    def _parent_masks(self, chosen: list[int], covered: _Coverage) -> NDArray[np.int64]:
        """For each document, the concepts the text of its parent rule has."""
        owners: list[int] = []
        parents: list[int] = []
        known = self._parent_docs
        for i, d in enumerate(chosen):
            found = known.get(d)
            if found is None:
                found = self._parents_of(d)
            if found:
                owners.extend([i] * len(found))
                parents.extend(found)
        out = np.zeros(len(chosen), dtype=np.int64)
        if parents:
            np.bitwise_or.at(out, np.asarray(owners), covered.of(np.asarray(parents)))
        return out

    def _parents_of(self, d: int) -> tuple[int, ...]:
        """The documents of the text of the document's parent rule (cached)."""
        parents = self._parent_docs.get(d)
        if parents is None:
            parents = ()
            info = self._docs[d]
            rules = self._rules_of[info.edition]
            if info.kind != "glossary" and info.rule in rules:
                above = nearest_parent(info.rule, rules)
                if above is not None:
                    found = self._opened.documents_of(info.edition, above)
                    kinds = self._docs.kind_codes[found]
                    parents = tuple(found[kinds != _TITLE_CODE].tolist())
            self._parent_docs[d] = parents
        return parents

    def _ancestors(self, edition: str, number: str) -> tuple[str, ...]:
        """The rule and the rules above it, nearest first (cached)."""
        key = (edition, number)
        found = self._lineage.get(key)
        if found is None:
            rules = self._rules_of[edition]
            chain = []
            current: str | None = number
            while current is not None:
                chain.append(current)
                current = nearest_parent(current, rules) if current in rules else None
            found = self._lineage[key] = tuple(chain)
        return found

    def _titles_among(self, weighted: list[tuple[float, int]]) -> list[int]:
        """The documents of `weighted` that are titles, in its order."""
        found = np.fromiter((d for _, d in weighted), dtype=np.int64, count=len(weighted))
        titles: list[int] = found[self._docs.kind_codes[found] == _TITLE_CODE].tolist()
        return titles

    def _in_named_sections(
        self,
        weighted: list[tuple[float, int]],
        titles: list[int],
        links: Mapping[str, Mapping[str, float]],
    ) -> list[tuple[float, int]]:
        """A question that names a section (its whole title: « protection », « la célérité »)
        among other words is asked inside that section: its rules weigh more than the
        paragraphs elsewhere that share the other words (best first again). `titles`: the
        title documents of `weighted` whose whole heading the query names. A question that
        names a glossary entry of an edition ("copy", "loyalty ability") asks about what
        the entry points to (« See rule 706 »): those rules and their sub-rules weigh their
        factor in `links` (`_linked`: per edition, rule → factor)."""
        docs = self._docs
        named = {(docs[d].edition, docs[d].rule) for d in titles}
        if SECTION_BONUS == 1.0:
            named = set()
        if not named and not links:
            return weighted
        sections = {rule for _, rule in named}
        # a rule's ancestors share its section number (706 for 706.2a), but for its chapter
        # (7): the rules outside every named or linked section are never walked up
        numbers = sections.union(*(linked.keys() for linked in links.values()))
        roots = {n.partition(".")[0] for n in numbers}
        chapters = {n for n in roots if len(n) == 1}
        ids = [d for _, d in weighted]
        rules = (~np.isin(docs.kind_codes[ids], _NOT_RULES)).tolist()
        factors: dict[tuple[str, str], float] = {}  # per rule: its paragraphs share it
        out = []
        for (score, d), place, is_rule in zip(weighted, docs.places(ids), rules, strict=True):
            if is_rule and (named or place[0] in links):
                root = place[1].partition(".")[0]
                if root not in roots and root[:1] not in chapters:
                    out.append((score, d))
                    continue
                factor = factors.get(place)
                if factor is None:
                    factor = factors[place] = self._section_factor(place, named, sections, links)
                score *= factor
            out.append((score, d))
        out.sort(key=lambda x: -x[0])
        return out

    def _section_factor(
        self,
        place: tuple[str, str],
        named: set[tuple[str, str]],
        sections: set[str],
        links: Mapping[str, Mapping[str, float]],
    ) -> float:
        """`_in_named_sections`' factor of one rule (edition, number)."""
        edition, rule = place
        linked = links.get(edition)
        if not named and not linked:
            return 1.0
        lineage = self._ancestors(edition, rule)
        factor = 1.0
        if named:
            for number in lineage:
                if number in sections and (edition, number) in named:
                    factor = SECTION_BONUS
                    break
        if linked:
            for number in lineage:
                found = linked.get(number)
                if found is not None:
                    return factor * found
        return factor

    def _linked(
        self,
        covered: _Coverage,
        each: Sequence[Mapping[AnalyzerLanguage, set[str]]],
        query_language: str,
    ) -> dict[str, dict[str, float]]:
        """Per edition, the rules that its glossary entries named by the query cite (the
        whole heading: "loyalty ability"), each with its factor: up to 1 + `LINK`, as much
        as the entry's words weigh in the query; the largest, when several entries cite it
        (`each`: each concept's forms). Only an edition's own glossary, and only in the
        query's language: the French editions have none, and an English entry must not
        lift the English rules over the French text."""
        if not LINK or not each:
            return {}
        lang: AnalyzerLanguage = "en" if query_language == "en" else "fr"
        names = set().union(*(c[lang] for c in each))
        out: dict[str, dict[str, float]] = {}
        for link in self._opened.glossary_links().named(lang, names):
            mask = sum(1 << i for i, c in enumerate(each) if not link.heading.isdisjoint(c[lang]))
            factor = 1.0 + LINK * covered.share(mask)
            for edition in link.editions:
                factors = out.setdefault(edition, {})
                for t in link.targets:
                    if factor > factors.get(t, 1.0):
                        factors[t] = factor
        return out

    def _under_heading(self, info: DocInfo, exact: set[tuple[str, str]]) -> tuple[str, str]:
        """The rule whose exact heading was asked for, when `info` is one of its sub-rules."""
        if info.kind == "glossary":
            return (info.edition, info.rule)
        for number in self._ancestors(info.edition, info.rule):
            if (info.edition, number) in exact:
                return (info.edition, number)
        return (info.edition, info.rule)

    def _rule_table(self, weighted: list[tuple[float, int]]) -> _RuleTable:
        """`_rank_rules` without exact headings, on arrays: one entry per (edition, rule) in
        order of its best paragraph, scored by it plus a tenth of the next two."""
        values = np.asarray([sc for sc, _ in weighted], dtype=np.float64)
        docs = np.asarray([d for _, d in weighted], dtype=np.int64)
        if not len(docs):
            return _RuleTable(values, docs, np.zeros(0, dtype=np.bool_))
        # each paragraph's rule, numbered in order of first appearance (best first)
        _, first, inverse = np.unique(
            self._opened.rule_codes[docs], return_index=True, return_inverse=True
        )
        appearance = np.argsort(first, kind="stable")
        group = np.empty(len(first), dtype=np.int64)
        group[appearance] = np.arange(len(first))
        group = group[inverse]
        # the place of each paragraph within its rule (0: the best)
        members = np.argsort(group, kind="stable")
        counts = np.bincount(group, minlength=len(first))
        starts = np.cumsum(counts) - counts
        place = np.empty(len(docs), dtype=np.int64)
        place[members] = np.arange(len(docs)) - starts[group[members]]
        best = first[appearance]
        # best + 0.1 × (0 + second + third), the operations of a sum over the next two
        extra = np.zeros(len(first), dtype=np.float64)
        second, third = place == 1, place == 2
        extra[group[second]] = values[second]
        extra[group[third]] += values[third]
        has_text = np.bincount(group, weights=self._has_text[docs], minlength=len(first)) > 0
        return _RuleTable(values[best] + 0.1 * extra, docs[best], has_text)

    def _merge_copies(
        self, rules: list[_Ranked] | _RuleTable, limit: int, prefer: _Preference
    ) -> list[_Ranked]:
        """One entry per group of copies of a rule (same `group_key`), shown in the copy
        with text, in the query's language, newest — unless old wording was asked, when
        the copy whose text matched best leads. The others are listed in `also`."""
        if isinstance(rules, _RuleTable):
            return _diversify(self._merge_table(rules, prefer, _pool_size(limit)), limit)

        editions = self._order
        # each rule's order (best score, newest edition, document order), computed once
        ordered = sorted(
            (
                (
                    (
                        -r.score,
                        editions.get(r.edition, 99),
                        self._position(r.edition, r.rule),
                    ),
                    r,
                )
                for r in rules
            ),
            key=itemgetter(0),
        )
        groups: dict[Hashable, list[tuple[tuple[float, int, int], _Ranked]]] = {}
        group_of = self._group_of
        for item in ordered:
            r = item[1]
            if r.info.kind == "glossary":
                key: Hashable = r.rule
            else:
                where = (r.edition, r.rule)
                key = group_of.get(where)
                if key is None:
                    key = group_of[where] = self._group_key(r.edition, r.rule)
            members = groups.get(key)
            if members is None:
                groups[key] = [item]
            else:
                members.append(item)
        # an exact heading first (the newest edition's, unless old wording was asked); a rule
        # known only by its title never above one with text
        newest_first = not prefer.old
        merged: list[tuple[tuple[object, ...], _Ranked]] = []
        for members in groups.values():
            if len(members) == 1 and not members[0][1].also:  # a rule with no copy: as it is
                rank, lead = members[0]
            else:
                rank, lead = min(members, key=lambda m: self._representative(m[1], prefer))
                lead = _Ranked(
                    members[0][1].score,  # the best (members are in order)
                    lead.edition,
                    lead.rule,
                    lead.info,
                    any(m[1].exact for m in members),
                    any(m[1].has_text for m in members),
                    tuple((m[1].edition, m[1].rule) for m in members if m[1] is not lead),
                )
                rank = (-lead.score, rank[1], rank[2])
            if prefer.in_force and not self._in_force(lead, members):
                lead = lead._replace(score=lead.score * REMOVED)
                rank = (-lead.score, rank[1], rank[2])
            newest = rank[1] if lead.exact and newest_first else 0
            merged.append(((not lead.has_text, not lead.exact, newest, *rank), lead))
        merged.sort(key=itemgetter(0))
        return _diversify([r for _, r in merged], limit)

    def _merge_table(self, rules: _RuleTable, prefer: _Preference, keep: int) -> list[_Ranked]:
        """`_merge_copies` on arrays, for rules without exact headings: the same order, the
        same leads; Python objects only for the first `keep` groups (all `_diversify` reads)."""
        if not len(rules.doc):
            return []
        docs = rules.doc
        editions = self._edition_codes[docs]
        positions = self._positions_of(docs)
        # best score, newest edition, document order (stable: ties keep the rules' order)
        order = np.lexsort((positions, editions, -rules.score))
        docs, editions, positions = docs[order], editions[order], positions[order]
        scores, has_text = rules.score[order], rules.has_text[order]
        _, first, inverse = np.unique(self._groups_of(docs), return_index=True, return_inverse=True)
        appearance = np.argsort(first, kind="stable")
        group = np.empty(len(first), dtype=np.int64)
        group[appearance] = np.arange(len(first))
        group = group[inverse]
        # the lead of each group: with text, then (the query's language or the best score),
        # then the newest edition, then the first in order
        if prefer.old:
            preference: NDArray[Any] = -scores
        else:
            preference = self._edition_language[prefer.language][docs] == 0
        elsewhen = ~np.isin(editions, [self._order[e] for e in prefer.asked])
        ranking = np.lexsort(
            (np.arange(len(docs)), editions, preference, elsewhen, ~has_text, group)
        )
        leads = ranking[np.searchsorted(group[ranking], np.arange(len(first)))]
        group_text = np.bincount(group, weights=has_text, minlength=len(first)) > 0
        best = first[appearance]  # each group's best score: its first in order
        weight = np.ones(len(first))
        if prefer.in_force:
            where = self._in_force_codes(docs[leads])  # each group's: -1, a glossary entry
            # a copy in that edition or a newer one (a contents-only title of the newest)
            held = np.bincount(group, weights=editions <= where[group], minlength=len(first))
            weight[(held == 0) & (where >= 0)] = REMOVED
        best_scores = scores[best] * weight
        # tiers: rules with text first, then best score, newest edition, document order
        tiers = np.lexsort((positions[leads], editions[leads], -best_scores, ~group_text)).tolist()
        members = np.argsort(group, kind="stable")
        starts = np.searchsorted(group[members], np.arange(len(first) + 1)).tolist()
        grouped = docs[members]  # each group's documents, one run per group
        lead_docs = docs[leads].tolist()
        infos = self._docs
        out: list[_Ranked] = []
        for g in tiers[:keep]:
            info = infos[lead_docs[g]]
            out.append(
                _Ranked(
                    float(best_scores[g]),
                    info.edition,
                    info.rule,
                    info,
                    False,
                    bool(group_text[g]),
                    copies=grouped[starts[g] : starts[g + 1]],
                )
            )
        return out

    def _also(self, r: _Ranked) -> tuple[tuple[str, str], ...]:
        """The other copies of a hit, (edition, rule) each, in order."""
        if r.copies is None:
            return r.also
        lead = (r.edition, r.rule)
        return tuple(place for place in self._docs.places(r.copies.tolist()) if place != lead)

    def _positions_of(self, docs: NDArray[np.int64]) -> NDArray[np.int64]:
        """Each document's rule's place in its edition (remembered per document)."""
        found = self._doc_positions[docs]
        for i in np.flatnonzero(found < 0).tolist():
            d = int(docs[i])
            info = self._docs[d]
            found[i] = self._doc_positions[d] = self._position(info.edition, info.rule)
        return found

    def _groups_of(self, docs: NDArray[np.int64]) -> NDArray[np.int64]:
        """Each document's group of copies, as a number (remembered per document)."""
        found = self._doc_groups[docs]
        numbers = self._group_numbers
        for i in np.flatnonzero(found < 0).tolist():
            d = int(docs[i])
            info = self._docs[d]
            key: Hashable = (
                info.rule if info.kind == "glossary" else self._group_key(info.edition, info.rule)
            )
            number = numbers.setdefault(key, len(numbers))
            found[i] = self._doc_groups[d] = number
        return found

    def _in_force(
        self, lead: _Ranked, members: list[tuple[tuple[float, int, int], _Ranked]]
    ) -> bool:
        """Whether a group of copies has one in the edition where its rule would be if still
        in force (`_in_force_codes`, from the copy that leads) or in a newer one, or is a
        glossary entry."""
        where = self._in_force_code(lead.info)
        codes = self._order  # newest first: a copy in that edition or a newer one
        return where < 0 or any(codes.get(m.edition, 99) <= where for _, m in members)

    def _in_force_codes(self, docs: NDArray[np.int64]) -> NDArray[np.int64]:
        """For each document, the code (`_order`) of the newest edition of its language with
        text in its rule's section: where its rule is, if still in force (-1: a glossary
        entry, or no such edition). Remembered per document."""
        found = self._doc_in_force[docs]
        for i in np.flatnonzero(found == -2).tolist():
            d = int(docs[i])
            found[i] = self._doc_in_force[d] = self._in_force_code(self._docs[d])
        return found

    def _in_force_code(self, info: DocInfo) -> int:
        if info.kind == "glossary":
            return -1
        return self._newest_with(self._language_of[info.edition], info.rule.split(".")[0])

    def _newest_with(self, language: str, section: str) -> int:
        """The code of the newest edition of `language` with text in `section` (-1: none)."""
        key = (language, section)
        known = self._covering.get(key)
        if known is None:
            known = -1
            for ed in self.index.editions:  # newest first
                if ed.language != language:
                    continue
                if section in self._sections_of(ed.id):
                    known = self._order[ed.id]
                    break
            self._covering[key] = known
        return known

    def _sections_of(self, edition: str) -> frozenset[str]:
        known = self._sections.get(edition)
        if known is None:
            known = self._sections[edition] = covered_sections(self.index.edition(edition))
        return known

    def _representative(self, r: _Ranked, prefer: _Preference) -> tuple[object, ...]:
        elsewhen = r.edition not in prefer.asked if prefer.asked else False
        if prefer.old:
            return (not r.has_text, elsewhen, -r.score, self._order.get(r.edition, 99))
        language = self._language_of[r.edition]
        return (
            not r.has_text,
            elsewhen,
            language != prefer.language,
            self._order.get(r.edition, 99),
        )

    def _language_votes(self, words: list[_Word]) -> dict[str, int]:
        """How many of the query's words each language writes (the vocabulary and glossary
        say which language writes each word)."""
        votes = {"fr": 0, "en": 0}
        for w in words:
            folded = fold_token(w.text)
            for lang in votes:
                if self._in_language(folded, lang):
                    votes[lang] += 1
        return votes

    # -- scoring ----------------------------------------------------------------------

    def _score_concept(
        self, concept: _Concept, idf: dict[tuple[str, str], float], scores: _Scores
    ) -> NDArray[np.bool_]:
        """Add the concept's BM25 to `scores`, every form in every field; return the
        documents that have it. Multi-word forms count where they appear as a phrase (in
        paragraphs) or with all their words (titles, short); they weigh as one word. A
        related form in the section titles above a paragraph scores but does not make the
        paragraph have the concept (every rule of 704 sits under « actions basées sur un
        état »)."""
        if concept.quantity:
            return self._score_numbers(concept, idf, scores)
        found = np.zeros(self._texts, dtype=np.bool_)
        for lang, seqs in concept.forms.items():
            for seq, weight in seqs:
                for role, role_weight in _FIELD_WEIGHT.items():
                    field = f"{role}_{lang}"
                    if not all(self._df(field, t) for t in seq):
                        continue
                    boost = weight * role_weight
                    counts = role != "title" or (lang, seq) not in concept.related
                    if len(seq) == 1:
                        got = self._add_term(field, seq[0], idf[(lang, seq[0])], boost, scores)
                        if counts:
                            found[got] = True
                        continue
                    if role == "body":
                        docs = self._dense(self._phrase_docs(field, seq))
                    else:
                        docs = self._dense(self._postings(field, seq[0])[0])
                        for t in seq[1:]:
                            docs &= self._dense(self._postings(field, t)[0])
                    for t in seq:
                        got = self._add_term(
                            field, t, idf[(lang, t)], boost / len(seq), scores, docs
                        )
                        if counts:
                            found[got] = True
        return found

    def _score_numbers(
        self, concept: _Concept, idf: dict[tuple[str, str], float], scores: _Scores
    ) -> NDArray[np.bool_]:
        """A number in a paragraph counts once, as one word of average weight: « Troll à
        deux têtes … 15 marqueurs » says no more of a count than « dix marqueurs »."""
        found = np.zeros(self._texts, dtype=np.bool_)
        for lang in _LANGUAGES:
            weights = [idf[(lang, t)] for t in concept.terms(lang) if (lang, t) in idf]
            texts = self._number_texts.get(lang)
            if texts is None:
                field = f"body_{lang}"
                found_ids = [self._postings(field, t)[0] for t in _numbers(lang)]
                texts = np.unique(np.concatenate([_NO_DOCS, *found_ids]))
                self._number_texts[lang] = texts
            if weights and len(texts):
                scores.scores[texts] += QUANTITY * max(weights)
                scores.touched[texts] = True
                found[texts] = True
        return found

    def _add_term(
        self,
        field: str,
        term: str,
        idf: float,
        boost: float,
        scores: _Scores,
        only: NDArray[np.bool_] | None = None,
    ) -> NDArray[np.int64]:
        """Add the term's BM25 to the documents that have it (those of `only`, if given);
        return them."""
        ids = self._postings(field, term)[0]
        if not len(ids) or field not in self._text_lengths:
            return _NO_DOCS
        saturated = self._saturated(field, term)
        if only is not None:
            keep = only[ids]
            ids, saturated = ids[keep], saturated[keep]
        # the same operations, in the same order, as a loop over the documents would do
        # (a document appears once in a posting list)
        scores.scores[ids] += boost * idf * (BM25_K1 + 1) * saturated
        scores.touched[ids] = True
        return ids

    def _saturated(self, field: str, term: str) -> NDArray[np.float64]:
        """BM25's tf / (tf + k1 (1 - b + b × length / average)) of each text of the term's
        postings (cached beside them: the same for every query)."""
        key = (field, term)
        found = self._saturation_cache.get(key)
        if found is None:
            ids, tfs = self._postings(field, term)
            k1 = BM25_K1
            b = BM25_B if field.startswith("body_") else 0.3
            fixed = k1 * (1 - b)
            per_token = k1 * b / (self._average.get(field) or 1.0)
            found = tfs / (tfs + fixed + per_token * self._text_lengths[field][ids])
            self._saturation_cache[key] = found
        return found

    def _dense(self, docs: NDArray[np.int64]) -> NDArray[np.bool_]:
        """`docs` (texts) as a mask over every text."""
        out = np.zeros(self._texts, dtype=np.bool_)
        out[docs] = True
        return out

    def _postings(self, field: str, term: str) -> Postings:
        """Document numbers and term frequencies of `term` in `field` (cached: the index
        is read-only); the index reads each shared paragraph as the documents that hold it."""
        key = (field, term)
        cached = self._posting_cache.get(key)
        if cached is not None:
            return cached
        if not self._df(field, term):
            result = _NO_POSTINGS
        elif self._per_text:
            result = self._opened.text_postings(field, term)
        else:
            result = self._opened.postings(field, term)
        if len(self._posting_cache) > 50_000:
            self._posting_cache.clear()
            self._saturation_cache.clear()
        self._posting_cache[key] = result
        return result

    def _phrase_docs(self, field: str, seq: tuple[str, ...], slop: int = 1) -> NDArray[np.int64]:
        key = (field, seq, slop)
        cached = self._phrase_cache.get(key)
        if cached is None:
            if self._per_text:
                cached = self._opened.text_phrase(field, seq, slop)
            else:
                cached = self._opened.phrase_docs(field, seq, slop)
            if len(self._phrase_cache) > 20_000:
                self._phrase_cache.clear()
            self._phrase_cache[key] = cached
        return cached

    def _df(self, fieldname: str, term: str) -> int:
        """Documents with `term` in `fieldname` (cached: the index never changes)."""
        key = (fieldname, term)
        found = self._frequencies.get(key)
        if found is None:
            found = self._opened.doc_frequency(fieldname, term)
            if len(self._frequencies) > 100_000:
                self._frequencies.clear()
            self._frequencies[key] = found
        return found

    def _has_own_forms(self, concept: _Concept) -> bool:
        """Whether a document has one of the concept's own forms (not only a related one)."""
        for lang, seqs in concept.forms.items():
            for seq, _ in seqs:
                if (lang, seq) in concept.related:
                    continue
                if all(any(self._df(f"{role}_{lang}", t) for role in _FIELD_WEIGHT) for t in seq):
                    return True
        return False

    def _concept_idf(self, concept: _Concept, language: str) -> float | None:
        """The concept's IDF, None when no document has it. How rare it is in the query's
        language, when that language has it (a French word is not rare because the English
        editions outnumber the French text), else among all documents."""
        per_language = self._concept_frequency(concept)
        if not any(per_language.values()):
            return None
        if per_language.get(language):
            n = max(1, self._language_docs.get(language, 0))
            return math.log(n / (min(per_language[language], n) + 1)) + 1.0
        # else, how rare it is among all the documents: « Rôle », that only one English
        # paragraph of the French 2024 text has, is rare, not common among the few English ones
        n = max(1, sum(self._language_docs.values()))
        return math.log(n / (min(sum(per_language.values()), n) + 1)) + 1.0

    def _concept_frequency(self, concept: _Concept) -> dict[str, int]:
        """Per language, about how many documents mention the concept in any of its forms
        (an upper bound: per-field document frequencies added up; a phrase counts as its
        rarest word)."""
        out: dict[str, int] = {}
        known = self._seq_frequencies
        if len(known) > 100_000:
            known.clear()
        for lang, seqs in concept.forms.items():
            total = 0
            for seq, _ in seqs:
                found = known.get((lang, seq))
                if found is None:
                    found = known[(lang, seq)] = min(
                        sum(self._df(f"{role}_{lang}", t) for role in _FIELD_WEIGHT) for t in seq
                    )
                total += found
            out[lang] = total
        return out

    def _whole_heading(self, info: DocInfo, terms: dict[AnalyzerLanguage, set[str]]) -> bool:
        """True when the query names the section: every word of its title was asked for."""
        ed = self.index.edition(info.edition)
        rule = ed.rules.get(info.rule)
        title = heading_of(rule) if rule is not None else None
        if not title:
            return False
        lang: AnalyzerLanguage = "en" if info.language == "en" else "fr"
        heading = analysis.terms(title, lang)
        return bool(heading) and set(heading) <= terms[lang]

    # -- building hits ----------------------------------------------------------------

    def _make_text_hit(
        self,
        info: DocInfo,
        terms: dict[AnalyzerLanguage, set[str]],
        score: float,
        also: tuple[tuple[str, str], ...] = (),
    ) -> Hit | None:
        edition = info.edition
        ed = self.index.edition(edition)
        kind = info.kind
        lang: AnalyzerLanguage = "en" if info.language == "en" else "fr"
        if kind == "glossary":
            entries = ed.glossary
            para = info.para
            if para >= len(entries):
                return None
            entry = entries[para]
            body = f"{entry.term} : {' '.join(p.text for p in entry.paragraphs)}"
            segments = snippet(body, terms[lang], lang)
            see = entry.cited
            return Hit(
                edition,
                entry.term,
                "glossary",
                entry.term,
                "Glossaire",
                segments,
                score,
                lang,
                also,
                see,
            )
        rule = ed.rules.get(info.rule)
        if rule is None:
            return None
        if kind == "title" or not rule.paragraphs:
            text = heading_of(rule) or ""
            title_lang: AnalyzerLanguage = lang if rule.paragraphs else ed.language
            segments = snippet(text, terms[title_lang], title_lang)
        else:
            para = min(info.para, len(rule.paragraphs) - 1)
            segments = snippet(rule.paragraphs[para].text, terms[lang], lang)
        return self._rule_hit(rule, "text", segments, score, also)

    def _rule_hit(
        self,
        rule: Rule,
        kind: HitKind,
        segments: tuple[Segment, ...],
        score: float,
        also: tuple[tuple[str, str], ...] = (),
    ) -> Hit:
        """A hit on a rule: its title (else its section's) and breadcrumb, one walk up."""
        crumbs = self.index.breadcrumb(rule)
        titles = [heading_of(r) for r in crumbs]
        title = next((t for t in reversed(titles) if t), None)
        breadcrumb = " › ".join(
            f"{r.number}. {t}" if t else r.number for r, t in zip(crumbs[:-1], titles, strict=False)
        )
        return Hit(
            rule.edition,
            rule.number,
            kind,
            title,
            breadcrumb,
            segments,
            score,
            self._lang(rule),
            also,
        )

    def _number_hits(
        self, numbers: list[_NumberRef], editions: list[str] | None, language: str | None
    ) -> tuple[list[Hit], list[str]]:
        hits: list[Hit] = []
        notes: list[str] = []
        for ref in numbers:
            rules = self.index.everywhere(ref.number)
            if editions:
                rules = [r for r in rules if r.edition in editions]
            if language:
                rules = [r for r in rules if self._lang(r) == language]
            if not rules:
                where = " dans les éditions choisies" if editions else ""
                nearest = self.index.nearest(ref.number)
                hint = f" Numéros proches : {', '.join(nearest)}." if nearest else ""
                notes.append(f"Règle {ref.number} introuvable{where}.{hint}")
                continue
            for rule in rules:
                if any(h.edition == rule.edition and h.rule == rule.number for h in hits):
                    continue
                body = rule.text or (rule.examples[0] if rule.examples else rule.title or "")
                hits.append(self._rule_hit(rule, "number", _marked(body, []), 1.0))
        return hits, notes

    def _lang(self, rule: Rule) -> str:
        return rule.language or self.index.edition(rule.edition).language

    def _reference_hits(
        self,
        numbers: list[_NumberRef],
        editions: list[str] | None,
        language: str | None,
        already: list[Hit],
    ) -> list[Hit]:
        """Rules that cite a rule named in the query (after the rule itself)."""
        seen = {(h.edition, h.rule) for h in already}
        out: list[Hit] = []
        for ref in numbers:
            for rule in self.index.everywhere(ref.number):
                for citer in self.index.cited_by(rule):
                    key = (citer.edition, citer.rule)
                    if key in seen or (editions and citer.edition not in editions):
                        continue
                    source = self.index.get(citer.rule, citer.edition)
                    if source is None:
                        continue
                    if language and self._lang(source) != language:
                        continue
                    seen.add(key)
                    raws = [r.raw for r in source.references if r.target == ref.number]
                    para = next(
                        (p.text for p in source.paragraphs if any(r in p.text for r in raws)),
                        source.text,
                    )
                    segs = _mark_literal(para, raws)
                    out.append(self._rule_hit(source, "reference", segs, 0.5))
        return out


_NO_DOCS: NDArray[np.int64] = np.empty(0, dtype=np.int64)
_LOW = (1 << 32) - 1  # a document's own concepts above, its parent's below
_NO_POSTINGS: Postings = (_NO_DOCS, np.empty(0, dtype=np.float64))


@dataclass
class _RuleTable:
    """One entry per rule, as arrays: its score, the paragraph shown, whether it has text."""

    score: NDArray[np.float64]
    doc: NDArray[np.int64]
    has_text: NDArray[np.bool_]


class _Scores:
    """Each text's BM25 so far, and whether any term scored it (a dense array per query:
    thousands of texts, at C speed)."""

    def __init__(self, size: int) -> None:
        self.scores = np.zeros(size, dtype=np.float64)
        self.touched = np.zeros(size, dtype=np.bool_)


def _per_mask(
    covered: _Coverage,
    masks: NDArray[np.int64],
    factor: Callable[[int], float],
    key: Hashable = None,
) -> NDArray[np.float64]:
    """`factor` of each document's set of concepts, computed once per set (a handful) in
    Python floats; with a `key`, once per query for every set the texts have (`masks`
    are then some texts' or documents' sets)."""
    if covered.full < 1 << 16:  # a table indexed by the mask itself: no sort
        table = covered.tables.get(key) if key is not None else None
        if table is None:
            every = covered.text_masks if key is not None else masks
            found = np.flatnonzero(np.bincount(every, minlength=1))
            table = np.zeros(int(found[-1]) + 1 if len(found) else 1, dtype=np.float64)
            table[found] = [factor(m) for m in found.tolist()]
            if key is not None:
                covered.tables[key] = table
        return table[masks]
    unique, inverse = np.unique(masks, return_inverse=True)
    return np.asarray([factor(m) for m in unique.tolist()], dtype=np.float64)[inverse]


def _rule_texts(keys: NDArray[np.int64], kinds: NDArray[np.uint8]) -> NDArray[np.int64]:
    """For each example paragraph, its rule's first text paragraph (-1 for the others);
    `keys`: each document's (edition, rule) code (`OpenedIndex.rule_codes`)."""
    texts = np.flatnonzero(kinds == Documents.KINDS.index("text"))
    found = np.full(len(keys), -1, dtype=np.int64)
    if not len(texts):
        return found
    unique, first = np.unique(keys[texts], return_index=True)
    at = np.minimum(np.searchsorted(unique, keys), len(unique) - 1)
    example = (kinds == Documents.KINDS.index("example")) & (unique[at] == keys)
    found[example] = texts[first[at[example]]]
    return found


def _coverage_factors(covered: _Coverage, masks: NDArray[np.int64]) -> NDArray[np.float64]:
    """Each document's coverage factor, as the ranking always computed it."""
    return _per_mask(covered, masks, lambda m: 0.15 + 0.85 * covered.share(m) ** 2, "coverage")


def _other_language_factors(
    covered: _Coverage, masks: NDArray[np.int64], absent: int
) -> NDArray[np.float64] | float:
    """The weight of each document, were it in another language than the query's: little
    (`OTHER_LANGUAGE`) when the query's language has texts for what it asks, more as the
    query asks for what only the other language has (`absent`: those concepts), the more
    so for a document whose matches are mostly such concepts (« Rôle », asked in French,
    that only the English paragraph 704.5y has)."""
    if not absent:
        return OTHER_LANGUAGE
    whole = covered.share(absent)

    def factor(m: int) -> float:
        lacking = max(whole, covered.share(m & absent) / (covered.share(m) or 1.0))
        return OTHER_LANGUAGE + (1.0 - OTHER_LANGUAGE) * lacking

    return _per_mask(covered, masks, factor, ("other", absent))


def _top(values: NDArray[np.float64], docs: NDArray[np.int64], k: int) -> NDArray[np.intp]:
    """Positions of the `k` best values, best first, ties to the higher document number
    (the order of `heapq.nlargest` over (score, document) pairs)."""
    n = len(values)
    if n > k:
        kth = np.partition(values, n - k)[n - k]
        candidates = np.flatnonzero(values >= kth)
    else:
        candidates = np.arange(n)
    order = np.lexsort((-docs[candidates], -values[candidates]))[:k]
    return candidates[order]


class _Coverage:
    """Which concepts each document has, and the share of the query that makes (each
    concept weighing its importance). `masks`: each text's concepts, read as its documents'
    through `text_of` (each document's text; none: a text per document)."""

    def __init__(
        self,
        masks: NDArray[np.int64],
        importance: list[float],
        text_of: NDArray[np.int64] | None = None,
    ) -> None:
        self.text_masks = masks
        self._text_of = text_of
        self.importance = importance
        self.total = sum(importance) or 1.0
        self.full = (1 << len(importance)) - 1
        self._shares: dict[int, float] = {}
        self.tables: dict[Hashable, NDArray[np.float64]] = {}  # `_per_mask`'s, per factor

    def share(self, mask: int) -> float:
        found = self._shares.get(mask)
        if found is None:
            found = sum(w for i, w in enumerate(self.importance) if mask >> i & 1) / self.total
            self._shares[mask] = found
        return found

    def of(self, docs: NDArray[np.int64]) -> NDArray[np.int64]:
        """The concepts of each of `docs`."""
        return self.text_masks[docs if self._text_of is None else self._text_of[docs]]

    def complete(self, d: int) -> bool:
        return int(self.text_masks[d if self._text_of is None else self._text_of[d]]) == self.full


def _pool_size(limit: int) -> int:
    """How many of the ranked rules `_diversify` chooses the first `limit` among."""
    return max(limit * 4, 40)


def _diversify(ranked: list[_Ranked], limit: int) -> list[_Ranked]:
    """Best first, but each further hit from an edition already shown weighs a little less,
    so that the answer of every edition comes up early, not ten rules of the newest one.
    The tiers (exact headings first, title-only rules last) are kept."""
    pool = list(ranked[: _pool_size(limit)])
    shown: dict[str, int] = {}
    out: list[_Ranked] = []
    while pool and len(out) < limit:
        tier = (not pool[0].has_text, not pool[0].exact)
        best = 0
        if not pool[0].exact:  # exact headings keep their order (newest first)
            best = max(
                (i for i, r in enumerate(pool) if (not r.has_text, not r.exact) == tier),
                key=lambda i: (pool[i].score * EDITION_DECAY ** shown.get(pool[i].edition, 0), -i),
            )
        item = pool.pop(best)
        shown[item.edition] = shown.get(item.edition, 0) + 1
        out.append(item)
    return out


_KIND_WEIGHT = {"text": 1.0, "example": 0.9, "title": 1.0, "glossary": 0.6}
_TITLE_CODE = Documents.KINDS.index("title")
_NOT_RULES = np.asarray([_TITLE_CODE, Documents.KINDS.index("glossary")], dtype=np.uint8)


# --- snippets ----------------------------------------------------------------------------


def snippet(
    text: str, terms: set[str], language: AnalyzerLanguage, width: int = SNIPPET_CHARS
) -> tuple[Segment, ...]:
    """A window of `text` around its densest cluster of matched words, matches marked."""
    spans = [(t.start, t.end) for t in analysis.analyze(text, language) if t.term in terms]
    return _marked(text, spans, width)


def _marked(
    text: str, spans: list[tuple[int, int]], width: int = SNIPPET_CHARS
) -> tuple[Segment, ...]:
    """A window of `text` around its densest cluster of `spans` (sorted; overlaps are
    skipped), the spans marked; "…" where the text is cut."""
    start, end = _window(text, spans, width)
    out: list[Segment] = [Segment("…", False)] if start > 0 else []
    cursor = start
    for a, b in spans:
        if a < cursor or b > end:
            continue
        out.append(Segment(text[cursor:a], False))
        out.append(Segment(text[a:b], True))
        cursor = b
    out.append(Segment(text[cursor:end], False))
    if end < len(text):
        out.append(Segment("…", False))
    return tuple(_merge(out))


def _mark_literal(text: str, needles: list[str]) -> tuple[Segment, ...]:
    spans = sorted(
        (m.start(), m.end()) for n in needles if n for m in re.finditer(re.escape(n), text)
    )
    return _marked(text, spans)


def _window(text: str, spans: list[tuple[int, int]], width: int) -> tuple[int, int]:
    if len(text) <= width:
        return 0, len(text)
    start = _densest(spans, width)
    if start > 0:
        space = text.rfind(" ", 0, start + 1)
        start = space + 1 if space >= 0 and start - space < 30 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start + width // 2 else end
    return start, end


def _densest(spans: list[tuple[int, int]], width: int) -> int:
    """Where a window of `width` holds the most of `spans` (sorted), starting a quarter of
    it before one of them; the first such place."""
    best_start, best_count = 0, -1
    starts = [x for x, _ in spans]
    ends = [y for _, y in spans]
    # words never overlap: their ends are in order too, and the spans inside [lo, hi] are
    # those from the first starting at lo to the last ending by hi
    ordered = all(a <= b for a, b in pairwise(ends))
    for a, _ in spans or [(0, 0)]:
        lo = max(0, a - width // 4)
        hi = lo + width
        if ordered:
            count = max(0, bisect_right(ends, hi) - bisect_left(starts, lo))
        else:  # sorted by start, none past `hi` can end before it
            count = 0
            for x, y in spans[bisect_left(starts, lo) :]:
                if x > hi:
                    break
                count += y <= hi
        if count > best_count:
            best_start, best_count = lo, count
    return best_start


def _merge(segments: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for s in segments:
        if not s.text:
            continue
        if out and out[-1].match == s.match:
            out[-1] = Segment(out[-1].text + s.text, s.match)
        else:
            out.append(s)
    return out

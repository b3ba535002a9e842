"""Text analysis shared by the whoosh index and the query side.

`normalize()` (defined in `judge.rules.text`, re-exported here) is the single definition of
"the same word": case, accents, ligatures, typographic quotes and apostrophes, punctuation.
The rules layer folds with the same tables. The whoosh analyzers call it on every
token, and the typo corrector compares normalized words, so the index, the query and the
fuzzy matcher can never disagree about what a word is.

French analysis: tokenize → normalize (accents folded *first*) → elision (l', d', qu'…)
→ stop words (a folded list, with `les`) → light plural strip → Snowball French stemmer →
final-`e` strip. Folding before the stop list and the stemmer makes `cimetiere`,
`cimetière` and `cimetières` one term; stripping the plural before the stemmer and the
final `e` after it repairs what the Snowball stemmer does to folded text (it reads `é`
and `e` differently: `equipee` → `equipe` but `equipement` → `equip`).

English analysis: the same tokenizer and normalize, possessive `'s` dropped, English stop
words, Snowball English stemmer."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Literal

from judge.rules.text import APOSTROPHES
from judge.rules.text import normalize as normalize  # re-exported: the index and the query
from judge.search import lean

lean.imported("whoosh.analysis")  # first, without what whoosh never uses (`lean`)
from whoosh.analysis import Filter, Token, Tokenizer  # noqa: E402
from whoosh.lang import stemmer_for_language, stopwords_for_language  # noqa: E402

AnalyzerLanguage = Literal["fr", "en"]

# Bump when analysis changes: it is part of the search index's content hash.
ANALYSIS_VERSION = "10"

# A token in raw text: letters or digits, possibly joined by apostrophes (typographic too).
# Folding never changes the number of characters of a letter or digit *sequence* boundary,
# so offsets found here are offsets in the original text.
TOKEN_RE = re.compile(r"[^\W_]+(?:[" + APOSTROPHES + r"][^\W_]+)*")


@lru_cache(maxsize=200_000)
def fold_token(text: str) -> str:
    """`normalize` for a single token: separators removed rather than turned to spaces."""
    return normalize(text).replace(" ", "")


# --- stop words -------------------------------------------------------------------------

# Elided forms: the prefix before the apostrophe is dropped (l'aura → aura).
FRENCH_ELISIONS = frozenset(
    {"l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "presqu"}
)

# Stop-list words that are also game terms are kept: an Aura is not the verb "avoir".
_GAME_TERMS = frozenset({"aura", "auras"})

# Negation is meaning, not noise: "ne peut pas être régénérée" is not "peut être régénérée".
# Every negation word is indexed as one term per language (`pas`, `not`); `ne`/`n'` go (the
# French negation always has its second word: pas, jamais, aucun, plus…).
FRENCH_NEGATIONS = frozenset({"pas", "jamais", "aucun", "aucune", "nul", "nulle"})
ENGLISH_NEGATIONS = frozenset(
    {"not", "no", "never", "cannot", "cant", "dont", "doesnt", "isnt", "arent", "wont", "didnt"}
    | {"wasnt", "werent", "hasnt", "havent", "hadnt", "couldnt", "shouldnt", "wouldnt", "nor"}
)
NEGATION_TERM = {"fr": "pas", "en": "not"}

# The words that put a noun after its verb (« sacrifie un artefact », "cast a spell"): what
# a question's verb and its object read as one action.
DETERMINERS = frozenset(
    {"un", "une", "des", "le", "la", "les", "l", "du", "de", "d", "mon", "ma", "mes", "ton"}
    | {"ta", "tes", "son", "sa", "ses", "notre", "nos", "votre", "vos", "leur", "leurs", "ce"}
    | {"cet", "cette", "ces", "a", "an", "the", "my", "your", "his", "her", "its", "their"}
    | {"our", "this", "that", "these", "those", "another"}
)

FRENCH_STOP_WORDS = frozenset(
    {fold_token(w) for w in stopwords_for_language("fr")} - _GAME_TERMS - FRENCH_NEGATIONS
    | {"les", "cf", "voir", "cet", "cette", "ceux", "celle", "celui", "dont", "donc", "ni"}
    | {"jusqu", "lorsqu", "puisqu", "quoiqu", "lorsque", "puisque", "quand", "si", "alors"}
    | {"tout", "tous", "toute", "toutes", "aussi", "comme", "etre", "avoir", "y"}
    # « ce tour-ci », « celle-ci », « ci-dessous » : the particle of a demonstrative
    | {"ci"}
    # the question words of a judge question (« combien de…, laquelle je garde ? »)
    | {"combien", "quoi", "comment", "quel", "quelle", "quels", "quelles", "pourquoi"}
    | {"lequel", "laquelle", "lesquels", "lesquelles", "va", "vont", "vais", "aller"}
)
# A question for a number (« combien de points de vie », "how many lands"): its answer
# says a number, in digits or in words; "many" and "much" frame the English question.
QUANTITY_QUESTIONS = frozenset({"combien", "many", "much"})
NUMBER_WORDS: dict[str, frozenset[str]] = {
    "fr": frozenset(
        {"zero", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "dix", "onze"}
        | {"douze", "treize", "quatorze", "quinze", "seize", "vingt", "trente", "quarante"}
        | {"cinquante", "cent"}
    ),
    "en": frozenset(
        {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
        | {"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "twenty"}
        | {"thirty", "forty", "fifty", "hundred", "once", "twice"}
    ),
}
NUMBERS_WRITTEN = 100  # digits 0 to 100: the counts the rules give (20 life, 7 cards, 40)
ENGLISH_STOP_WORDS = frozenset(
    {fold_token(w) for w in stopwords_for_language("en")} - ENGLISH_NEGATIONS
    | {"s", "t", "see", "also", "its"}
)


# --- stemming ---------------------------------------------------------------------------

_FR_STEM = stemmer_for_language("fr")
_EN_STEM = stemmer_for_language("en")


@lru_cache(maxsize=100_000)
def stem_french(word: str) -> str:
    """Snowball French on a folded word, made consistent for folded input."""
    if word.isdigit() or len(word) <= 2:
        return word
    if word in FRENCH_NEGATIONS:
        return NEGATION_TERM["fr"]
    protected = _FR_PROTECTED.get(word)
    if protected is not None:
        return protected
    base = word
    if len(base) > 3 and base[-1] in "sx" and not base.endswith("ss"):
        base = base[:-1]
    stem = str(_FR_STEM(base))
    if len(stem) > 3 and stem.endswith("e"):
        stem = stem[:-1]
    return stem


# Game terms the Snowball stemmers would merge with other words or split from their own:
# poisonous is not poison (counters), legendary is the legend rule's word, timing is not time.
_EN_PROTECTED = {
    "poisonous": "poisonous",
    "legendary": "legend",
    "legendaries": "legend",
    "timing": "timing",
    "flying": "flying",
    "haste": "haste",
    "trample": "trample",
    "untapped": "untapped",
    "defender": "defender",  # not `defend` (defending player)
    # Equipment (the artifact subtype, 301.5) is not equip (the keyword ability, 702.6)
    "equipment": "equipment",
    "equipments": "equipment",
    # a spell countered is not a counter put on a permanent (+1/+1, poison)
    "countered": "countered",
    "countering": "countered",
}
_FR_PROTECTED = {
    "legendaire": "legend",
    "legendaires": "legend",
    # « équipement » (the subtype) is not « équiper » (the keyword ability), as in English
    "equipement": "equipement",
    "equipements": "equipement",
    # « la partie » (the game: perdre la partie) is not « part » (il part au cimetière)
    "partie": "partie",
    "parties": "partie",
}


@lru_cache(maxsize=100_000)
def stem_english(word: str) -> str:
    if word.isdigit() or len(word) <= 2:
        return word
    if word in ENGLISH_NEGATIONS:
        return NEGATION_TERM["en"]
    protected = _EN_PROTECTED.get(word)
    return protected if protected is not None else str(_EN_STEM(word))


# --- whoosh components ------------------------------------------------------------------


class WordTokenizer(Tokenizer):  # type: ignore[misc]
    """Words and numbers with their character offsets; the text is normalized per token."""

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            token.original = token.text = fold_token(value)
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = start_pos
            if chars:
                token.startchar = start_char
                token.endchar = start_char + len(value)
            yield token
            return
        pos = start_pos
        for match in TOKEN_RE.finditer(value):
            text = fold_token(match.group(0))
            if not text:
                continue
            token.text = text
            token.boost = 1.0
            token.stopped = False
            if keeporiginal:
                token.original = match.group(0)
            if positions:
                token.pos = pos
            if chars:
                token.startchar = start_char + match.start()
                token.endchar = start_char + match.end()
            pos += 1
            yield token


def clitics(folded: str, language: AnalyzerLanguage) -> tuple[str, int, int]:
    """A folded token without its clitics: French elision (`l'aura` → `aura`), English
    possessive (`owner's` → `owner`); other apostrophes dropped. Also returns how many
    characters were cut at the start and at the end (to keep highlight offsets right)."""
    if "'" not in folded:
        return folded, 0, 0
    cut_start = cut_end = 0
    if language == "fr":
        head, _, rest = folded.partition("'")
        if head in FRENCH_ELISIONS and rest:
            cut_start = len(head) + 1
            folded = rest
    elif folded.endswith("'s"):
        cut_end = 2
        folded = folded[:-2]
    return folded.replace("'", ""), cut_start, cut_end


def stop_words(language: AnalyzerLanguage) -> frozenset[str]:
    return FRENCH_STOP_WORDS if language == "fr" else ENGLISH_STOP_WORDS


def stemmer(language: AnalyzerLanguage) -> Callable[[str], str]:
    return stem_french if language == "fr" else stem_english


class CliticFilter(Filter):  # type: ignore[misc]
    """French elision (l', d', qu', j', n', s', c'… typographic apostrophes included) or
    English possessives, with the token's offsets moved past what was cut."""

    def __init__(self, language: AnalyzerLanguage) -> None:
        self.language = language

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        for token in tokens:
            if "'" in token.text:
                token.text, cut_start, cut_end = clitics(token.text, self.language)
                if token.chars:
                    token.startchar += cut_start
                    token.endchar -= cut_end
            yield token


class FoldedStopFilter(Filter):  # type: ignore[misc]
    """Stop words compared on folded text; positions renumbered so phrases still match."""

    def __init__(self, language: AnalyzerLanguage) -> None:
        self.language = language

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        stops = stop_words(self.language)
        pos: int | None = None
        for token in tokens:
            if token.text and token.text not in stops:
                if token.positions:
                    pos = token.pos if pos is None else pos + 1
                    token.pos = pos
                token.stopped = False
                yield token
            elif not token.removestops:
                token.stopped = True
                yield token


class LanguageStemFilter(Filter):  # type: ignore[misc]
    is_morph = True

    def __init__(self, language: AnalyzerLanguage) -> None:
        self.language = language

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        stem = stemmer(self.language)
        for token in tokens:
            if not token.stopped:
                token.text = stem(token.text)
            yield token


@cache
def analyzer(language: AnalyzerLanguage) -> Any:
    """The shared analyzer for `language` (whoosh analyzers are stateless between calls):
    tokens → normalize (accents folded first) → clitics → stop words → stemmer."""
    return (
        WordTokenizer()
        | CliticFilter(language)
        | FoldedStopFilter(language)
        | LanguageStemFilter(language)
    )


@dataclass(frozen=True)
class AnalyzedToken:
    term: str  # the indexed form (folded, stemmed)
    word: str  # the folded surface word, before stemming
    start: int  # offsets in the analyzed text
    end: int
    pos: int


def analyze(text: str, language: AnalyzerLanguage) -> list[AnalyzedToken]:
    """Index terms of `text`, with offsets and the folded surface word of each.

    The same steps as the whoosh analyzer, with the same helpers, without whoosh's token
    objects (several times faster: snippets and queries call this on every search)."""
    return list(_analyze(text, language))


# A pure function of the text: the paragraphs a search shows and the headings it compares
# come back from one search to the next (a few thousand texts, a few megabytes at most).
@lru_cache(maxsize=4096)
def _analyze(text: str, language: AnalyzerLanguage) -> tuple[AnalyzedToken, ...]:
    out: list[AnalyzedToken] = []
    for match in TOKEN_RE.finditer(text):
        found = _analyzed_token(match.group(0), language)
        if found is None:
            continue
        term, word, cut_start, cut_end = found
        start, end = match.start() + cut_start, match.end() - cut_end
        out.append(AnalyzedToken(term, word, start, end, len(out)))
    return tuple(out)


@lru_cache(maxsize=200_000)
def _analyzed_token(raw: str, language: AnalyzerLanguage) -> tuple[str, str, int, int] | None:
    """One raw token's (term, folded word, characters cut at the start and at the end), or
    None for a stop word: a pure function of the token, so each word is analysed once."""
    word, cut_start, cut_end = clitics(fold_token(raw), language)
    if not word or word in stop_words(language):
        return None
    return stemmer(language)(word), word, cut_start, cut_end


def terms(text: str, language: AnalyzerLanguage) -> list[str]:
    return [t.term for t in analyze(text, language)]


def word_key(word: str, language: AnalyzerLanguage) -> str:
    """One word as glossary phrases are matched: folded, plural dropped, stop words kept
    (`zone en jeu` keeps its `en`, `in play` its `in`), *not* stemmed: the stemmers make one
    word of équipe and équipement, and the English one reads French words as English
    (contrôle → control, the stem of controller)."""
    folded = clitics(fold_token(word), language)[0]
    if len(folded) <= 3 or folded.endswith("ss"):
        return folded
    if language == "en" and folded.endswith("ies"):
        return folded[:-3] + "y"
    if folded[-1] == "s" or (language == "fr" and folded[-1] == "x"):
        return folded[:-1]
    return folded


def is_stop_word(word: str, language: AnalyzerLanguage) -> bool:
    return clitics(fold_token(word), language)[0] in stop_words(language)

"""Text analysis shared by the whoosh index and the query side.

`normalize()` is the single definition of "the same word": case, accents, ligatures,
typographic quotes and apostrophes, punctuation. The whoosh analyzers call it on every
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
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from whoosh.analysis import Filter, Token, Tokenizer
from whoosh.lang import stemmer_for_language, stopwords_for_language

AnalyzerLanguage = Literal["fr", "en"]

# Bump when analysis changes: it is part of the search index's content hash.
ANALYSIS_VERSION = "3"

_APOSTROPHES = "'’‘ʼ`´′ʹ＇‛"
_DOUBLE_QUOTES = "«»“”„‟″〝〞＂‹›"
_TRANSLATE = str.maketrans(
    {
        **{c: "'" for c in _APOSTROPHES},
        **{c: '"' for c in _DOUBLE_QUOTES},
        "œ": "oe",
        "Œ": "oe",
        "æ": "ae",
        "Æ": "ae",
        "ß": "ss",
        "ø": "o",
        "Ø": "o",
        "ł": "l",
        "Ł": "l",
        "đ": "d",
        "Đ": "d",
    }
)
# After folding: anything that is not a letter, a digit or an apostrophe is a separator;
# an apostrophe survives only between two letters or digits (l'aura, don't).
_SEPARATORS = re.compile(r"[^0-9a-z']+|(?<![0-9a-z])'|'(?![0-9a-z])")
_SPACES = re.compile(r"\s+")

# A token in raw text: letters or digits, possibly joined by apostrophes (typographic too).
# Folding never changes the number of characters of a letter or digit *sequence* boundary,
# so offsets found here are offsets in the original text.
TOKEN_RE = re.compile(r"[^\W_]+(?:[" + _APOSTROPHES + r"][^\W_]+)*")


def _fold_char_string(text: str) -> str:
    text = text.translate(_TRANSLATE)
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold()


def normalize(text: str) -> str:
    """Case, accents and punctuation folded; apostrophes unified; spaces collapsed.

    >>> normalize("  L’Équipement « équipé »… Cimetière!")
    "l'equipement equipe cimetiere"
    """
    folded = _fold_char_string(text)
    spaced = _SEPARATORS.sub(" ", folded)
    return _SPACES.sub(" ", spaced).strip()


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

FRENCH_STOP_WORDS = frozenset(
    {fold_token(w) for w in stopwords_for_language("fr")} - _GAME_TERMS
    | {"les", "cf", "voir", "cet", "cette", "ceux", "celle", "celui", "dont", "donc", "ni"}
    | {"jusqu", "lorsqu", "puisqu", "quoiqu", "lorsque", "puisque", "quand", "si", "alors"}
    | {"tout", "tous", "toute", "toutes", "aussi", "comme", "etre", "avoir", "y"}
)
ENGLISH_STOP_WORDS = frozenset(
    {fold_token(w) for w in stopwords_for_language("en")}
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
    base = word
    if len(base) > 3 and base[-1] in "sx" and not base.endswith("ss"):
        base = base[:-1]
    stem = str(_FR_STEM(base))
    if len(stem) > 3 and stem.endswith("e"):
        stem = stem[:-1]
    return stem


@lru_cache(maxsize=100_000)
def stem_english(word: str) -> str:
    if word.isdigit() or len(word) <= 2:
        return word
    return str(_EN_STEM(word))


# --- whoosh components ------------------------------------------------------------------


class WordTokenizer(Tokenizer):  # type: ignore[misc]
    """Words and numbers with their character offsets; the text is normalized per token."""

    def __call__(  # noqa: PLR0913 — whoosh's tokenizer protocol
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


class ElisionFilter(Filter):  # type: ignore[misc]
    """French elision: `l'aura` → `aura`, `qu'elle` → `elle` (offsets moved past it)."""

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        for token in tokens:
            text = token.text
            if "'" in text:
                head, _, rest = text.partition("'")
                if head in FRENCH_ELISIONS and rest:
                    if token.chars:
                        token.startchar += len(head) + 1
                    text = rest
                token.text = text.replace("'", "")
            yield token


class PossessiveFilter(Filter):  # type: ignore[misc]
    """English: `owner's` → `owner`, `owners'` → `owners`; other apostrophes dropped."""

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        for token in tokens:
            text = token.text
            if "'" in text:
                if text.endswith("'s"):
                    if token.chars:
                        token.endchar -= 2
                    text = text[:-2]
                token.text = text.replace("'", "")
            yield token


class FoldedStopFilter(Filter):  # type: ignore[misc]
    """Stop words compared on folded text; positions renumbered so phrases still match."""

    def __init__(self, language: AnalyzerLanguage) -> None:
        self.language = language

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        stops = FRENCH_STOP_WORDS if self.language == "fr" else ENGLISH_STOP_WORDS
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
        stem = stem_french if self.language == "fr" else stem_english
        for token in tokens:
            if not token.stopped:
                token.text = stem(token.text)
            yield token


def french_analyzer() -> Any:
    return WordTokenizer() | ElisionFilter() | FoldedStopFilter("fr") | LanguageStemFilter("fr")


def english_analyzer() -> Any:
    return WordTokenizer() | PossessiveFilter() | FoldedStopFilter("en") | LanguageStemFilter("en")


_ANALYZERS: dict[str, Any] = {}


def analyzer(language: AnalyzerLanguage) -> Any:
    """The shared analyzer for `language` (whoosh analyzers are stateless between calls)."""
    if language not in _ANALYZERS:
        _ANALYZERS[language] = french_analyzer() if language == "fr" else english_analyzer()
    return _ANALYZERS[language]


@dataclass(frozen=True)
class AnalyzedToken:
    term: str  # the indexed form (folded, stemmed)
    word: str  # the folded surface word, before stemming
    start: int  # offsets in the analyzed text
    end: int
    pos: int


def analyze(text: str, language: AnalyzerLanguage) -> list[AnalyzedToken]:
    """Index terms of `text`, with offsets and the folded surface word of each."""
    out: list[AnalyzedToken] = []
    for token in analyzer(language)(text, positions=True, chars=True):
        word = fold_token(text[token.startchar : token.endchar])
        if language == "fr" and "'" in word:
            head, _, rest = word.partition("'")
            word = rest if head in FRENCH_ELISIONS else word
        out.append(
            AnalyzedToken(token.text, word.replace("'", ""), token.startchar, token.endchar, token.pos)
        )
    return out


def terms(text: str, language: AnalyzerLanguage) -> list[str]:
    return [t.text for t in analyzer(language)(text)]


def words(text: str) -> list[str]:
    """Folded surface words of `text` (no stop list, no stemming), for the typo corrector."""
    return [w for w in (fold_token(m.group(0)) for m in TOKEN_RE.finditer(text)) if w]



def _strip_clitics(folded: str, language: AnalyzerLanguage) -> str:
    if "'" not in folded:
        return folded
    if language == "fr":
        head, _, rest = folded.partition("'")
        folded = rest if head in FRENCH_ELISIONS and rest else folded
    elif folded.endswith("'s"):
        folded = folded[:-2]
    return folded.replace("'", "")


def word_key(word: str, language: AnalyzerLanguage) -> str:
    """The stemmed form of one word with the stop list *not* applied: glossary phrases are
    matched on these, so `zone en jeu` keeps its `en` and `in play` its `in`."""
    folded = _strip_clitics(fold_token(word), language)
    if not folded:
        return ""
    return stem_french(folded) if language == "fr" else stem_english(folded)


def is_stop_word(word: str, language: AnalyzerLanguage) -> bool:
    stops = FRENCH_STOP_WORDS if language == "fr" else ENGLISH_STOP_WORDS
    return _strip_clitics(fold_token(word), language) in stops

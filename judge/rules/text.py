"""The one folding of text: what "the same word" means, for the rules and for the search.

Two readings of it, from the same tables:

- `normalize()`: case, accents, ligatures, typographic quotes and apostrophes, punctuation
  folded, spaces collapsed. The search indexes and queries normalized words; titles are
  matched on it (`normalize_title`).
- `fold()`: lower case, no accents, one apostrophe and one dash, punctuation *kept*: rule
  numbers (704.5j) are masked, and the term patterns matched, after it.

The word diff of two rules reads apostrophes and quotation marks through the same tables
(`unify_quotes`), so a change of style that the search ignores is a cosmetic change in a diff.

This module depends on nothing but the standard library: the rules layer folds text without
loading the search engine, and the search imports its folding from here, never the reverse.
"""

from __future__ import annotations

import re
import unicodedata

# Every character read as an apostrophe (the typographic ones, the grave and acute accents and
# the primes that old texts and copied web pages use for one, the full-width one).
APOSTROPHES = "'’‘ʼ`´′ʹ＇‛"
# Every character read as a quotation mark.
DOUBLE_QUOTES = "«»“”„‟″〝〞＂‹›"
DASHES = "–—‐−"

_TO_APOSTROPHE = str.maketrans(dict.fromkeys(APOSTROPHES, "'"))
_TO_QUOTES = str.maketrans({**dict.fromkeys(APOSTROPHES, "'"), **dict.fromkeys(DOUBLE_QUOTES, '"')})
_TO_DASH = str.maketrans(dict.fromkeys(DASHES, "-"))
_TRANSLATE = str.maketrans(
    {
        **dict.fromkeys(APOSTROPHES, "'"),
        **dict.fromkeys(DOUBLE_QUOTES, '"'),
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


def strip_accents(text: str) -> str:
    """`text` without its combining marks (compatibility decomposition first: é → e)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold_chars(text: str) -> str:
    """Quotes, apostrophes and ligatures unified, accents stripped, case folded; nothing
    removed (the first step of `normalize`)."""
    return strip_accents(text.translate(_TRANSLATE)).casefold()


def normalize(text: str) -> str:
    """Case, accents and punctuation folded; apostrophes unified; spaces collapsed.

    >>> normalize("  L’Équipement « équipé »… Cimetière!")
    "l'equipement equipe cimetiere"
    """
    spaced = _SEPARATORS.sub(" ", fold_chars(text))
    return _SPACES.sub(" ", spaced).strip()


def normalize_title(title: str) -> str:
    """A title as titles are matched: `normalize`, elided articles split off
    (`d’effets` → `d effets`)."""
    return " ".join(normalize(title).replace("'", " ").split())


def unify_apostrophes(text: str) -> str:
    """Every apostrophe as ``'``, every dash as ``-``; lower case."""
    return text.lower().translate(_TO_APOSTROPHE).translate(_TO_DASH)


def fold(text: str) -> str:
    """Lower case, no accents, one apostrophe and one dash. Unlike `normalize`, punctuation
    is kept: rule numbers (704.5j) are masked, and the term patterns matched, after it."""
    text = unify_apostrophes(text)
    return text if text.isascii() else strip_accents(text)


def unify_quotes(text: str) -> str:
    """Every apostrophe as ``'`` and every quotation mark as ``"``; nothing else changed."""
    return text.translate(_TO_QUOTES)

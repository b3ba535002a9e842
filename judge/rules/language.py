"""French or English? A stop-word count, good enough for rules paragraphs.

Rules text is dense in function words, so counting the commonest ones of each language
separates a French paragraph from an English one (even when the French one quotes an English
card name). Accents break ties; strings too short to judge get the default.
"""

from __future__ import annotations

import re
from typing import Literal

Lang = Literal["fr", "en"]

# Words that are frequent in one language and rare or absent in the other. Ambiguous words
# ("a", "on", "car", "me", "son" in English, "or", "as" in French...) are left out.
_FRENCH = frozenset(
    [
        "le",
        "la",
        "les",
        "un",
        "une",
        "des",
        "du",
        "de",
        "et",
        "est",
        "en",
        "dans",
        "que",
        "qui",
        "pour",
        "par",
        "sur",
        "au",
        "aux",
        "ce",
        "cet",
        "cette",
        "ces",
        "il",
        "elle",
        "ils",
        "elles",
        "ne",
        "pas",
        "plus",
        "ou",
        "se",
        "sont",
        "être",
        "peut",
        "peuvent",
        "doit",
        "doivent",
        "lorsque",
        "quand",
        "avec",
        "sans",
        "comme",
        "leur",
        "leurs",
        "tout",
        "toute",
        "tous",
        "toutes",
        "chaque",
        "autre",
        "autres",
        "même",
        "mais",
        "donc",
        "dont",
        "nous",
        "vous",
        "je",
        "cela",
        "ceci",
        "celui",
        "celle",
        "ceux",
        "aucun",
        "aucune",
        "cf",
        "voir",
        "règle",
        "règles",
        "joueur",
        "partie",
        "carte",
        "cartes",
        "était",
        "été",
        "sera",
        "avoir",
        "fait",
        "ont",
        "entre",
        "depuis",
        "puis",
        "alors",
        "ainsi",
    ]
)
_ENGLISH = frozenset(
    [
        "the",
        "of",
        "and",
        "to",
        "is",
        "in",
        "it",
        "that",
        "for",
        "with",
        "be",
        "by",
        "this",
        "an",
        "are",
        "if",
        "its",
        "at",
        "from",
        "not",
        "can",
        "any",
        "each",
        "his",
        "her",
        "their",
        "which",
        "would",
        "has",
        "have",
        "was",
        "were",
        "will",
        "may",
        "must",
        "when",
        "than",
        "there",
        "these",
        "those",
        "then",
        "into",
        "under",
        "such",
        "but",
        "see",
        "rule",
        "rules",
        "player",
        "game",
        "card",
        "cards",
        "they",
        "them",
        "does",
        "doesn't",
        "isn't",
        "can't",
        "don't",
        "it's",
        "that's",
        "who",
        "what",
        "whose",
        "been",
        "being",
        "only",
        "also",
        "while",
    ]
)

_WORD_RE = re.compile(r"[a-zàâäçéèêëîïôöùûüÿœæ]+(?:['’][a-z]+)?")
# French elisions: l'objet, d'un, qu'il, n'est, s'il, c'est, jusqu'à...
_ELISION_RE = re.compile(r"\b(?:l|d|qu|n|s|c|j|jusqu|lorsqu|puisqu)['’][a-zàâéèêîôûœ]")
_ACCENT_RE = re.compile(r"[àâçéèêëîïôûùüÿœ]")

# Fewer words than this: too little to judge.
_MIN_WORDS = 3


def _normalise(word: str) -> str:
    return word.replace("’", "'")


def language_scores(text: str) -> tuple[int, int]:
    """(French hits, English hits) in `text`."""
    lowered = text.lower()
    fr = len(_ELISION_RE.findall(lowered))
    en = 0
    for word in _WORD_RE.findall(lowered):
        word = _normalise(word)
        if word in _FRENCH:
            fr += 1
        elif word in _ENGLISH:
            en += 1
        elif "'" in word:
            # "player's", "creature's": English possessive; French elisions were counted above.
            head, _, tail = word.partition("'")
            if tail in ("s", "t", "re", "ve", "ll", "d") and head not in _FRENCH:
                en += 1
    return fr, en


def detect_language(text: str, default: Lang = "fr") -> Lang:
    """ "fr" or "en" for a paragraph; `default` when the text is too short or undecided."""
    lowered = text.lower()
    if len(_WORD_RE.findall(lowered)) < _MIN_WORDS:
        return default
    fr, en = language_scores(lowered)
    if fr > en:
        return "fr"
    if en > fr:
        return "en"
    if _ACCENT_RE.search(lowered):
        return "fr"
    return default

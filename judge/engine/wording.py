"""French grammar for the engine's explanations: plurals, elision, lists. The words
themselves are in `judge.fr`."""

from __future__ import annotations

from judge.fr import TERM_LABELS

_VOWELS = "aeiouyhéèêëàâîïôûü"


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """`2 blessures`, `1 blessure`, `0 blessure` (French: 0 and 1 take the singular)."""
    word = singular if abs(n) <= 1 else (plural_form or _pluralize(singular))
    return f"{n} {word}"


def _pluralize(words: str) -> str:
    head, _, tail = words.partition(" ")
    if head.endswith(("s", "x")):
        return words
    return f"{head}s" + (f" {tail}" if tail else "")


def french_words(words: list[str] | tuple[str, ...]) -> str:
    """Rules terms (colors, card types) in French, comma-separated."""
    return ", ".join(TERM_LABELS.get(w, w) for w in words)


def de(name: str) -> str:
    """`de Bob`, `d'Alice` (elision before a word that starts with a vowel or a mute h);
    an id or a letter is spelt out, so `de A`, `de a1`, `de AB`."""
    word = name[:2]
    if len(word) == 2 and word[0].lower() in _VOWELS and word[1].isalpha() and word[1].islower():
        return f"d'{name}"
    return f"de {name}"


def fr_list(items: list[str] | tuple[str, ...]) -> str:
    """`a`, `a et b`, `a, b et c`."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " et " + items[-1]

"""The rule-number grammar: `7` (chapter), `704` (section), `704.5` (rule),
`704.5g` / `704.5aa` (subrule). Subrule letters skip `l` and `o`."""

from __future__ import annotations

import re
from collections.abc import Container
from typing import Literal

NumberKind = Literal["chapter", "section", "rule", "subrule"]

# Letters used by subrules, in order: the official texts skip l and o.
LETTERS = "abcdefghijkmnpqrstuvwxyz"
_LETTER_POS = {c: i for i, c in enumerate(LETTERS)}

NUMBER_RE = re.compile(r"(?<![\d.])(\d{1,3})(?:\.(\d{1,3})([a-z]{1,2})?)?(?![\d])", re.IGNORECASE)
_FULL_RE = re.compile(r"^(\d{1,3})(?:\.(\d{1,3})([a-z]{1,2})?)?$")


def canonical(text: str) -> str | None:
    """The canonical form of a rule number (`704.5G.` -> `704.5g`), or None."""
    s = text.strip().lower().rstrip(".")
    m = _FULL_RE.match(s)
    if not m:
        return None
    head, sub, letters = m.groups()
    if len(head) == 1 and sub is None:
        return head
    if len(head) != 3:
        return None
    if sub is None:
        return head
    if letters and any(c not in _LETTER_POS for c in letters):
        return None
    return f"{head}.{int(sub)}{letters or ''}"


_PREFIX_RE = re.compile(r"^\s*(?:r[èe]gles?|rules?|r)\s*(?=\d)", re.IGNORECASE)
_LOOSE_RE = re.compile(r"^(\d{3})(?:\.(\d{1,3})([a-z]{0,2}))?\.?$")


def parse_query_number(text: str) -> str | None:
    """A rule number as a user types it: `704.5g`, `règle 704.5G.`, `r704.5g`, `rule 704`."""
    return canonical(_PREFIX_RE.sub("", text.strip()))


def loose_key(text: str) -> tuple[int, int, int, float] | None:
    """A sort key for numbers that cannot exist (`704.5l`: between 704.5k and 704.5m)."""
    m = _LOOSE_RE.match(_PREFIX_RE.sub("", text.strip()).lower())
    if not m:
        return None
    section, rule, letters = int(m.group(1)), m.group(2), m.group(3) or ""
    if rule is None:
        return (section, 0, -1, 0)
    value = 0.0
    for pos, c in enumerate(reversed(letters)):
        # A skipped letter (l, o) sits half-way between its neighbours.
        rank = sum(1 for x in LETTERS if x < c) + (1.0 if c in _LETTER_POS else 0.5)
        value += rank * len(LETTERS) ** pos
    return (section, 0, int(rule), value)


def uses_skipped_letter(text: str) -> bool:
    m = _LOOSE_RE.match(_PREFIX_RE.sub("", text.strip()).lower())
    return bool(m and m.group(3) and any(c in "lo" for c in m.group(3)))


def kind_of(number: str) -> NumberKind:
    if "." not in number:
        return "chapter" if len(number) == 1 else "section"
    return "subrule" if number[-1].isalpha() else "rule"


def split(number: str) -> tuple[int, int, str]:
    """(section, rule, letters); chapters give (chapter, -1, '')."""
    if "." not in number:
        return int(number), -1, ""
    head, rest = number.split(".", 1)
    digits = "".join(c for c in rest if c.isdigit())
    letters = rest[len(digits) :]
    return int(head), int(digits), letters


def letters_value(letters: str) -> int:
    """Position of a subrule suffix: a=1 … z=24, then aa=25 …"""
    if not letters:
        return 0
    if len(letters) == 1:
        return _LETTER_POS[letters] + 1
    return len(LETTERS) * (_LETTER_POS[letters[0]] + 1) + _LETTER_POS[letters[1]] + 1


# The last suffix, `zz`: subrules have at most two letters.
MAX_LETTERS_VALUE = len(LETTERS) * (len(LETTERS) + 1)


def letters_from_value(value: int) -> str:
    """The suffix at position `value` (1 = a). Positions past `zz` (a list numbered beyond
    600 items, the successor of `zz`) give `zz`: there is no three-letter suffix."""
    value = min(max(value, 1), MAX_LETTERS_VALUE)
    if value <= len(LETTERS):
        return LETTERS[value - 1]
    first, second = divmod(value - 1, len(LETTERS))
    return LETTERS[first - 1] + LETTERS[second]


def sort_key(number: str) -> tuple[int, int, int, int]:
    """Document order: chapter 7 before section 700 before 700.1 before 700.1a."""
    if kind_of(number) == "chapter":
        return (int(number) * 100, -2, -1, 0)
    section, rule, letters = split(number)
    return (section, 0, rule, letters_value(letters))


def parent(number: str) -> str | None:
    kind = kind_of(number)
    if kind == "chapter":
        return None
    if kind == "section":
        return number[0]
    section, rule, _letters = split(number)
    if kind == "subrule":
        return f"{section}.{rule}"
    return str(section)


def nearest_parent(number: str, present: Container[str]) -> str | None:
    """The rule an edition files `number` under: its nearest ancestor that `present` (the
    edition's numbers) holds, since a sub-rule whose rule is missing belongs to the section."""
    p = parent(number)
    while p is not None and p not in present:
        p = parent(p)
    return p


def next_letter(letters: str) -> str:
    """The suffix after `letters`; `zz` has none and gives `zz` itself."""
    return letters_from_value(letters_value(letters) + 1)


def successors(number: str) -> set[str]:
    """Numbers that may directly follow `number` in a document."""
    kind = kind_of(number)
    if kind == "chapter":
        return set()
    section, rule, letters = split(number)
    out = {f"{section}.{rule + 1}"} if kind != "section" else {f"{section}.1"}
    if kind == "rule":
        out.add(f"{section}.{rule}a")
    elif kind == "subrule" and letters_value(letters) < MAX_LETTERS_VALUE:
        out.add(f"{section}.{rule}{next_letter(letters)}")
    out.add(str(section + 1))
    return out


def expand_range(start: str, end_text: str) -> list[str]:
    """`103.2a`–`e` -> 103.2a … 103.2e; `119.7`–`8` -> 119.7, 119.8; `301.5a`–`301.5f`."""
    full_end = canonical(end_text)
    if full_end is not None and "." in full_end:
        end = full_end
    else:
        section, rule, letters = split(start)
        tail = end_text.strip().lower()
        if letters and tail.isalpha():
            end = f"{section}.{rule}{tail}"
        elif tail.isdigit():
            end = f"{section}.{int(tail)}" if not letters else f"{section}.{rule}"
        else:
            return [start]
    if canonical(end) is None or kind_of(end) != kind_of(start):
        return [start]
    s_sec, s_rule, s_let = split(start)
    e_sec, e_rule, e_let = split(end)
    if s_sec != e_sec:
        return [start, end]
    if s_let and e_let and s_rule == e_rule:
        lo, hi = letters_value(s_let), letters_value(e_let)
        if hi < lo or hi - lo > 60:
            return [start, end]
        return [f"{s_sec}.{s_rule}{letters_from_value(v)}" for v in range(lo, hi + 1)]
    if not s_let and not e_let and e_rule >= s_rule and e_rule - s_rule <= 60:
        return [f"{s_sec}.{r}" for r in range(s_rule, e_rule + 1)]
    return [start, end]

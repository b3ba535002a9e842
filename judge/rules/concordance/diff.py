"""The word diff of two rules' texts (see the package's docstring for its operations)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

from judge.rules.model import Rule
from judge.rules.numbers import NUMBER_RE, canonical
from judge.rules.references import find_citations
from judge.rules.text import APOSTROPHES, unify_quotes

if TYPE_CHECKING:
    from judge.rules.concordance.matching import Concordance

RENUMBERED_ARROW = " → "


class DiffOp(StrEnum):
    EQUAL = "equal"
    INSERT = "insert"
    DELETE = "delete"
    RENUMBERED = "renumbered"


@dataclass(frozen=True, slots=True)
class DiffPart:
    """One operation of a diff. `text` is what the operation shows: for ``renumbered``, the
    old number, an arrow and the new one (``"408 → 117"``), the two numbers being `old` and
    `new` (empty for the other operations)."""

    op: DiffOp
    text: str
    old: str = ""
    new: str = ""

    @classmethod
    def renumbered(cls, old: str, new: str) -> DiffPart:
        return cls(DiffOp.RENUMBERED, f"{old}{RENUMBERED_ARROW}{new}", old, new)

    @property
    def old_text(self) -> str:
        """What this operation contributes to the old text."""
        if self.op is DiffOp.RENUMBERED:
            return self.old
        return "" if self.op is DiffOp.INSERT else self.text

    @property
    def new_text(self) -> str:
        """What this operation contributes to the new text."""
        if self.op is DiffOp.RENUMBERED:
            return self.new
        return "" if self.op is DiffOp.DELETE else self.text

    def to_json(self) -> list[str]:
        """``[op, text]``, as `--json` writes it."""
        return [self.op.value, self.text]

    def __iter__(self) -> Iterator[str]:
        """The pair ``(op, text)`` of the JSON, so that ``for op, text in diff`` reads it."""
        return iter((self.op, self.text))


_APOSTROPHE_CLASS = "[" + re.escape(APOSTROPHES) + "]"
_TOKEN = re.compile(
    r"""
    (?P<core>
        (?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu|presqu)"""
    + _APOSTROPHE_CLASS
    + r"""(?=\w)   # elision: l' qu'
      | [+\-−]?\d+(?:[.,/][+\-−]?\d+)*[a-z]{0,2}(?![\w])           # 704.5j, +1/+1, 20
      | \w+(?:[-‐]\w+)*                                            # words, mot-clé
      | \S                                                         # punctuation
    )
    (?P<space>\s*)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_REF = "\x00ref:"


@dataclass(frozen=True)
class _Token:
    core: str
    space: str
    key: str
    start: int


def tokenize(text: str) -> list[tuple[str, str]]:
    """French-aware word tokens as (token, following whitespace)."""
    return [(t.core, t.space) for t in _tokens(text, {})]


def _tokens(text: str, refs: dict[int, str]) -> list[_Token]:
    out = []
    lead = len(text) - len(text.lstrip())
    if lead:
        out.append(_Token("", text[:lead], "", 0))
    for m in _TOKEN.finditer(text, lead):
        core = m.group("core")
        ref = refs.get(m.start())
        key = f"{_REF}{ref}" if ref else unify_quotes(core)
        out.append(_Token(core, m.group("space"), key, m.start()))
    return out


def _citation_numbers(text: str) -> list[tuple[int, str]]:
    """(offset, canonical number) of every number written inside a citation."""
    out = []
    for cit in find_citations(text):
        for m in NUMBER_RE.finditer(text, cit.start, cit.end):
            num = canonical(m.group(0))
            if num is not None and num in cit.targets:
                out.append((m.start(), num))
    return out


def compared_text(rule: Rule) -> str:
    """What `diff_rules` compares: the text, or the title of a rule known by its title only."""
    return rule.text if rule.text.strip() else (rule.title or "")


def diff_rules(a: Rule, b: Rule, concordance: Concordance | None = None) -> list[DiffPart]:
    """The word diff from `a` (old) to `b` (new); see the package's docstring for the
    operations. Cross-references of `a` are mapped through `concordance` to `b`'s edition,
    so that a reference renumbered in line with it is `renumbered`, not a change."""
    text_a, text_b = compared_text(a), compared_text(b)
    refs_a: dict[int, str] = {}
    for pos, num in _citation_numbers(text_a):
        target = num
        if concordance is not None and a.edition != b.edition:
            link = concordance.counterpart(a.edition, num, b.edition)
            target = link.to_rule if link is not None else f"?{num}"
        refs_a[pos] = target
    refs_b = dict(_citation_numbers(text_b))
    if text_a == text_b and refs_a == refs_b:  # most rules of two neighbouring editions
        return [DiffPart(DiffOp.EQUAL, text_b)] if text_b else []
    toks_a, toks_b = _tokens(text_a, refs_a), _tokens(text_b, refs_b)
    ops: list[DiffPart] = []
    from rapidfuzz.distance import Indel  # 14 ms to import: only when a diff is made

    for op in Indel.opcodes([t.key for t in toks_a], [t.key for t in toks_b]):
        if op.tag in ("delete", "replace"):
            ops += [_part(DiffOp.DELETE, t) for t in toks_a[op.src_start : op.src_end]]
        if op.tag in ("insert", "replace"):
            ops += [_part(DiffOp.INSERT, t) for t in toks_b[op.dest_start : op.dest_end]]
        if op.tag == "equal":
            pairs = zip(
                toks_a[op.src_start : op.src_end], toks_b[op.dest_start : op.dest_end], strict=True
            )
            for ta, tb in pairs:
                ops += _equal_tokens(ta, tb)
    return merge(ops)


def _part(op: DiffOp, token: _Token) -> DiffPart:
    return DiffPart(op, token.core + token.space)


def _equal_tokens(ta: _Token, tb: _Token) -> list[DiffPart]:
    """Two tokens of the same key: the same word, a renumbered reference, or the same word
    in another style of apostrophe or quotation mark; each side keeps its own spacing (a
    cosmetic change when they differ)."""
    if ta.core == tb.core:
        out = [DiffPart(DiffOp.EQUAL, tb.core)]
    elif ta.key.startswith(_REF):
        out = [DiffPart.renumbered(ta.core, tb.core)]
    else:
        out = [DiffPart(DiffOp.DELETE, ta.core), DiffPart(DiffOp.INSERT, tb.core)]
    if ta.space == tb.space:
        out.append(DiffPart(DiffOp.EQUAL, tb.space))
    else:
        out += [DiffPart(DiffOp.DELETE, ta.space), DiffPart(DiffOp.INSERT, tb.space)]
    return out


def merge(ops: Iterable[DiffPart]) -> list[DiffPart]:
    """Deletions before insertions within a change, then runs of one operation joined (never
    two renumbered ones); empty operations dropped."""
    ordered: list[DiffPart] = []
    run: list[DiffPart] = []
    # Empty parts go first: an empty `equal` between two halves of one change would split
    # it, leaving an insertion before a deletion once the halves are joined.
    for part in [*(p for p in ops if p.text), DiffPart(DiffOp.EQUAL, "")]:
        if part.op in (DiffOp.DELETE, DiffOp.INSERT):
            run.append(part)
            continue
        ordered += [x for x in run if x.op is DiffOp.DELETE]
        ordered += [x for x in run if x.op is DiffOp.INSERT]
        run = []
        ordered.append(part)
    out: list[DiffPart] = []
    for part in ordered:
        if not part.text:
            continue
        if out and out[-1].op is part.op and part.op is not DiffOp.RENUMBERED:
            out[-1] = DiffPart(part.op, out[-1].text + part.text)
        else:
            out.append(part)
    return out


SegmentKind = Literal["equal", "change", "renumbered"]


def segments(diff: Iterable[DiffPart]) -> list[tuple[SegmentKind, str, str]]:
    """The diff as segments (kind, old text, new text): ``equal`` and ``renumbered`` as they
    are, and every run of deletions and insertions between them as one ``change``."""
    out: list[tuple[SegmentKind, str, str]] = []
    for part in diff:
        if part.op in (DiffOp.DELETE, DiffOp.INSERT):
            if not out or out[-1][0] != "change":
                out.append(("change", "", ""))
            _, old, new = out[-1]
            out[-1] = ("change", old + part.old_text, new + part.new_text)
        elif part.op is DiffOp.RENUMBERED:
            out.append(("renumbered", part.old, part.new))
        else:
            out.append(("equal", part.text, part.text))
    return out


def _word_keys(text: str) -> list[str]:
    return [t.key for t in _tokens(text, {}) if t.key]


def is_cosmetic(old: str, new: str) -> bool:
    """Whether replacing `old` by `new` changes nothing but spacing or the style of
    apostrophes and quotation marks (the same words, in the same order)."""
    return _word_keys(old) == _word_keys(new)


def is_empty_diff(diff: Iterable[DiffPart]) -> bool:
    """True when the diff holds no change: only `equal` operations, or deletions and insertions
    that change nothing but spacing or the style of apostrophes and quotation marks."""
    for kind, old, new in segments(diff):
        if kind == "renumbered" or (kind == "change" and not is_cosmetic(old, new)):
            return False
    return True

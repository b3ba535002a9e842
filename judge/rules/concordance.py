"""The concordance between editions, rule by rule, and the word diff of a rule's text.

Every pair of editions is linked number to number; each `Link` says how it was found:

- ``curated``: a known renumbering, kept as data with its source in ``corpus/renumbering.toml``
  (420 → 704, 408 → 116/117, 420.5e → 704.5j…), applied to every edition whose numbering and
  year fit the table;
- ``same_number``: same numbering, same number, and the title (sections) or text (rules) agrees
  (for rules: inside sections paired by their titles, or in sections that no title paired, such
  as a web page of 704 without its headings; a text cut short still agrees with the full one);
- ``title``: chapters and sections matched by their titles in the tables of contents (fuzzy,
  accents and case ignored: 2011's ``111. Sorts`` is 2024's ``112. Sorts``), or by their place
  between two matched neighbours;
- ``text``: rules matched by text similarity (rapidfuzz, rule numbers masked, the 2009 wordings
  brought up to date) inside matched sections, so that a rule that only moved is found as moved;
- ``translation``: editions in two languages that share the numbering (the French rules of 2011
  and ``en-2011-09-30``): same number, checked with a list of French / English game terms. Only
  across languages: a chain French → English → French keeps the number, not the label.

Links that no method gives directly are composed through other editions (at most three steps:
``via`` names the editions passed through); a direct link always wins over a composed one. A rule
without a counterpart of its own may still get an *approximate* link: the counterpart of its
section, or the number its section's move implies (2011's 119.3 → 2024's 120.3) even when that
rule is not in the corpus. `Link.present` says whether the target is in the target edition's
corpus with a text (2024's 704.8 → 2011's 704.8: approximate, and absent).

The word diff (`diff_rules`) tokenises French: elided articles (``l'``, ``qu'``) and punctuation
are tokens of their own; apostrophe and quotation-mark styles are not changes. Its operations:

- ``equal``: the same text in both (words, and the spacing when both sides space alike);
- ``delete`` / ``insert``: text only in the old / only in the new text. Each side keeps its own
  spacing and its own apostrophes and quotation marks: where they differ around the same words,
  a deletion and an insertion say so, and such a change is *cosmetic* (`is_cosmetic`);
- ``renumbered``: a cross-reference whose number changed in line with the concordance (the old
  text's ``règle 408`` where today's says ``règle 117``); its text is ``"408 → 117"``, the old
  number before the arrow and the new one after it (`renumbered_sides`). It is not a change of
  the text.

The equal, insert and renumbered (new side) pieces, put end to end, give the new text exactly;
the equal, delete and renumbered (old side) pieces give the old text exactly. A diff is *empty*
(`is_empty_diff`) when it holds no ``renumbered`` operation and its deletions and insertions are
only cosmetic: comparing a rule with itself gives one ``equal`` operation (no operation at all
when the text is empty). `side_view` and `inline_view` lay a diff out for display.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
import weakref
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel

from judge.rules.errors import DocumentError, JudgeError
from judge.rules.index import CORPUS_DIR, RuleIndex
from judge.rules.model import Edition, Reference, Rule
from judge.rules.numbers import NUMBER_RE, canonical, kind_of, parent, sort_key
from judge.rules.references import find_citations, nearest_title
from judge.search.analysis import normalize

CURATED_FILE = CORPUS_DIR / "renumbering.toml"

Method = Literal["curated", "same_number", "title", "text", "translation"]
METHODS: tuple[Method, ...] = ("curated", "same_number", "title", "text", "translation")
METHOD_LABELS: dict[str, str] = {
    "curated": "table de renumérotation établie (corpus/renumbering.toml)",
    "same_number": "même numéro, titre ou texte concordant",
    "title": "titres des sommaires",
    "text": "similarité du texte",
    "translation": "traduction (même numérotation)",
}
DiffOp = Literal["equal", "insert", "delete", "renumbered"]

# When several steps are composed, the method shown is the strongest claim made on the way.
_METHOD_RANK: dict[str, int] = {
    "curated": 5,
    "text": 4,
    "title": 3,
    "translation": 2,
    "same_number": 1,
}
_MAX_HOPS = 3
_HOP_DECAY = 0.95

# Thresholds (rapidfuzz scores, 0–100).
_CHAPTER_MIN = 65.0  # chapter titles: few and distinct
_SECTION_MIN = 80.0  # section titles inside matched chapters
_SECTION_GLOBAL_MIN = 90.0  # section titles anywhere (renumbering across chapters)
_GAP_MIN = 55.0  # titles between two matched neighbours
_TEXT_MIN = 60.0  # rule texts inside matched sections
_SAME_NUMBER_MIN = 45.0  # same number, same numbering: a lower bar
_TEXT_GLOBAL_MIN = 85.0  # rule texts anywhere in the other edition
_TEXT_GLOBAL_MARGIN = 5.0
# Same number, one text (nearly) inside the other: at least so many distinct words, so much
# token-set agreement; the score is then weighted down (a cut text is not an identical one).
_CONTAINED_MIN_WORDS = 8
_CONTAINED_MIN = 90.0
_CONTAINED_WEIGHT = 0.7


# --- errors ----------------------------------------------------------------------------------


class ComparisonError(JudgeError):
    """A comparison that cannot be made; the message says why, in French."""


class RuleMissing(ComparisonError):
    def __init__(self, message: str, nearest: list[str]) -> None:
        super().__init__(message)
        self.nearest = nearest


class NoCounterpart(ComparisonError):
    def __init__(self, message: str, link: Link | None = None) -> None:
        super().__init__(message)
        self.link = link


# --- links -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """`from_rule` of `from_edition` corresponds to `to_rule` of `to_edition`.

    `moved`: the number differs. `via`: editions passed through when the link is composed.
    `approximate`: the target is only the counterpart of an ancestor (a section), or a number
    deduced from its section's move and possibly absent from the corpus.
    `present`: the target rule is in the target edition's corpus with a text (its own, or the
    text of its sub-rules for a section): False for a number known only as a title (a table of
    contents, a citation) or not known at all, such as 2011's 704.8, deduced from the move of
    its section. Links made by the `Concordance` always carry it.
    """

    from_edition: str
    from_rule: str
    to_edition: str
    to_rule: str
    method: Method
    confidence: float
    moved: bool
    via: tuple[str, ...] = ()
    approximate: bool = False
    present: bool = True

    def reversed(self) -> Link:
        """The link read the other way; `present` then describes the old source, which the
        concordance checks again (`Concordance` never hands out a reversed link unchecked)."""
        return Link(
            self.to_edition,
            self.to_rule,
            self.from_edition,
            self.from_rule,
            self.method,
            self.confidence,
            self.moved,
            tuple(reversed(self.via)),
            self.approximate,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": {"edition": self.from_edition, "rule": self.from_rule},
            "to": {"edition": self.to_edition, "rule": self.to_rule},
            "method": self.method,
            "confidence": round(self.confidence, 3),
            "moved": self.moved,
            "via": list(self.via),
            "approximate": self.approximate,
            "present": self.present,
        }


def _link(a: str, ra: str, b: str, rb: str, method: Method, confidence: float, **kw: Any) -> Link:
    conf = max(0.0, min(1.0, confidence))
    return Link(a, ra, b, rb, method, round(conf, 4), ra != rb, **kw)


# --- curated data ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Selector:
    numbering: str
    year: int | None = None

    def fits(self, edition: Edition) -> bool:
        return edition.numbering == self.numbering and (
            self.year is None or edition.order == self.year
        )


@dataclass(frozen=True)
class CuratedLink:
    from_rule: str
    to_rule: str
    confidence: float
    note: str


@dataclass(frozen=True)
class CuratedTable:
    id: str
    source: str
    from_: Selector
    to: Selector
    links: tuple[CuratedLink, ...]


@dataclass(frozen=True)
class KnownChange:
    id: str
    old: tuple[re.Pattern[str], ...]
    new: tuple[re.Pattern[str], ...]
    gone: tuple[re.Pattern[str], ...]
    summary: str
    source: str
    reverse: str = ""  # the summary read backwards, from the newer text to the older one

    def applies(self, old_text: str, new_text: str) -> bool:
        return (
            all(p.search(old_text) for p in self.old)
            and all(p.search(new_text) for p in self.new)
            and not any(p.search(new_text) for p in self.gone)
        )


@dataclass(frozen=True)
class CuratedData:
    tables: tuple[CuratedTable, ...]
    changes: tuple[KnownChange, ...]
    terminology: dict[str, tuple[tuple[re.Pattern[str], str], ...]]
    terms: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]
    file: str = ""


def load_curated(path: Path | None = None) -> CuratedData:
    """The curated tables, known changes and term lists (read once per file)."""
    return _load_curated(path or CURATED_FILE)


@cache
def _load_curated(path: Path) -> CuratedData:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DocumentError(f"Table de concordance introuvable : {path}", str(path)) from exc
    except tomllib.TOMLDecodeError as exc:
        raise DocumentError(f"Table de concordance illisible : {path} ({exc})", str(path)) from exc
    try:
        tables = tuple(_table(t) for t in data.get("table", []))
        changes = tuple(
            KnownChange(
                id=c["id"],
                old=tuple(re.compile(p, re.I) for p in c.get("old", [])),
                new=tuple(re.compile(p, re.I) for p in c.get("new", [])),
                gone=tuple(re.compile(p, re.I) for p in c.get("gone", [])),
                summary=c["summary"],
                source=c.get("source", ""),
                reverse=c["reverse"],
            )
            for c in data.get("change", [])
        )
        terminology: dict[str, list[tuple[re.Pattern[str], str]]] = {}
        for t in data.get("terminology", []):
            terminology.setdefault(t["language"], []).extend(
                (re.compile(old), new)
                for old, new in t["pairs"]  # texts are lower-cased
            )
        terms = tuple(
            (re.compile(fr), re.compile(en))
            for group in data.get("term", [])
            for fr, en in group["pairs"]
        )
    except (KeyError, TypeError, ValueError, re.error) as exc:
        raise DocumentError(f"{path} : entrée invalide ({exc})", str(path)) from exc
    return CuratedData(
        tables, changes, {k: tuple(v) for k, v in terminology.items()}, terms, str(path)
    )


def _table(t: dict[str, Any]) -> CuratedTable:
    def selector(d: dict[str, Any]) -> Selector:
        year = d.get("year")
        return Selector(str(d["numbering"]), int(year) if year is not None else None)

    links = []
    for entry in t["links"]:
        a, b = canonical(entry["from"]), canonical(entry["to"])
        if a is None or b is None:
            raise ValueError(f"numéro invalide dans {t['id']} : {entry}")
        links.append(CuratedLink(a, b, float(entry.get("confidence", 1.0)), entry.get("note", "")))
    return CuratedTable(t["id"], t["source"], selector(t["from"]), selector(t["to"]), tuple(links))


# --- text normalisation ----------------------------------------------------------------------

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "ʼ": "'"})
_QUOTES = str.maketrans({"«": '"', "»": '"', "“": '"', "”": '"', "„": '"'})
_DASHES = str.maketrans({"–": "-", "—": "-", "‐": "-", "−": "-"})


def fold(text: str) -> str:
    """Lower case, no accents, one apostrophe and one dash. Unlike `normalize`, punctuation
    is kept: rule numbers (704.5j) are masked, and the term patterns matched, after it."""
    text = text.lower().translate(_APOSTROPHES).translate(_DASHES)
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalize_title(title: str) -> str:
    """A title as titles are matched: the search's `normalize` (the one definition of
    accents, case and punctuation), elided articles split off (`d’effets` → `d effets`)."""
    return " ".join(normalize(title).replace("'", " ").split())


_RULE_NUMBER = re.compile(r"(?<![\w.])\d{3}(?:\.\d{1,3}[a-z]{0,2})?(?![\w])")
_NON_WORD = re.compile(r"[^\w#+/-]+")


def _comparable(text: str, language: str, data: CuratedData) -> str:
    """The text as compared for similarity: 2009 wordings updated, rule numbers masked."""
    s = text.lower().translate(_APOSTROPHES).translate(_DASHES)
    for pattern, new in data.terminology.get(language, ()):
        s = pattern.sub(new, s)
    s = _RULE_NUMBER.sub("#", fold(s))
    # Words sorted: rapidfuzz's ratio on these is its token_sort_ratio, computed once.
    return " ".join(sorted(_NON_WORD.sub(" ", s).split()))


def bilingual_agreement(
    french: str, english: str, data: CuratedData | None = None
) -> tuple[float, int] | None:
    """How well a French text and an English text agree: (share of agreeing terms and numbers,
    number of terms and numbers observed), or None when nothing can be compared."""
    terms = (data or load_curated()).terms
    f, e = fold(french), english.lower()
    agree = disagree = 0
    for fr_pattern, en_pattern in terms:
        in_fr, in_en = fr_pattern.search(f) is not None, en_pattern.search(e) is not None
        if in_fr and in_en:
            agree += 1
        elif in_fr or in_en:
            disagree += 1
    digits_f, digits_e = Counter(re.findall(r"\d+", f)), Counter(re.findall(r"\d+", e))
    agree += sum((digits_f & digits_e).values())
    disagree += sum((digits_f - digits_e).values()) + sum((digits_e - digits_f).values())
    total = agree + disagree
    return (agree / total, total) if total else None


# --- helpers on editions ---------------------------------------------------------------------


def _has_text(rule: Rule) -> bool:
    return not rule.title_only and rule.kind in ("rule", "subrule") and bool(rule.text.strip())


def _lang(rule: Rule, edition: Edition) -> str:
    return rule.language or edition.language


def _section_of(number: str) -> str:
    return number.split(".")[0]


def _ancestors(number: str) -> list[str]:
    out = []
    cur = parent(number)
    while cur is not None:
        out.append(cur)
        cur = parent(cur)
    return out


def _greedy(candidates: Iterable[tuple[tuple[float, ...], str, str]]) -> list[tuple[str, str]]:
    """One-to-one pairs, best key first."""
    used_a: set[str] = set()
    used_b: set[str] = set()
    out = []
    for _key, a, b in sorted(candidates, key=lambda c: c[0], reverse=True):
        if a in used_a or b in used_b:
            continue
        used_a.add(a)
        used_b.add(b)
        out.append((a, b))
    return out


# --- the concordance -------------------------------------------------------------------------

_SectionPair = tuple[str, str, Method, float]


@dataclass
class _PairResult:
    forward: dict[str, list[Link]] = field(default_factory=dict)
    backward: dict[str, list[Link]] = field(default_factory=dict)


_CACHE: weakref.WeakKeyDictionary[RuleIndex, Concordance] = weakref.WeakKeyDictionary()


class Concordance:
    """Links between every pair of editions of an index. Pairs are computed when first needed
    and kept; `build` computes them all."""

    def __init__(
        self, index: RuleIndex, data: CuratedData | None = None, *, curated: bool = True
    ) -> None:
        self.index = index
        self.data = data or load_curated()
        self.curated = curated
        self._pairs: dict[tuple[str, str], _PairResult] = {}
        self._comparable: dict[tuple[str, str], str] = {}
        self._paths: dict[tuple[str, str], dict[str, list[Link]]] = {}
        self._translation: dict[tuple[str, str], bool] = {}
        self._present: dict[tuple[str, str], bool] = {}

    @classmethod
    def build(
        cls, index: RuleIndex, data: CuratedData | None = None, *, curated: bool = True
    ) -> Concordance:
        conc = cls(index, data, curated=curated)
        ids = [e.id for e in index.editions]
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                conc._pair(a, b)
        return conc

    @classmethod
    def for_index(cls, index: RuleIndex) -> Concordance:
        """The concordance of `index`, built once per index (and per process)."""
        conc = _CACHE.get(index)
        if conc is None:
            conc = cls(index)
            _CACHE[index] = conc
        return conc

    # -- public queries --

    def direct(self, edition: str, number: str, target: str) -> list[Link]:
        """Links found by one method, without composition."""
        num = canonical(number) or number
        if edition == target:
            return []
        return list(self._pair_links(edition, target).get(num, []))

    def links(self, edition: str, number: str, *, approximate: bool = True) -> list[Link]:
        """Counterparts of `number` of `edition` in every other edition, best first per edition
        (editions newest first)."""
        self.index.edition(edition)
        num = canonical(number)
        if num is None:
            return []
        found = self._exact(edition, num)
        out: list[Link] = []
        for ed in self.index.editions:
            if ed.id == edition:
                continue
            links = found.get(ed.id, [])
            if not links and approximate:
                approx = self._approximate(edition, num, ed.id)
                links = [approx] if approx else []
            out.extend(links)
        return out

    def counterpart(
        self, edition: str, number: str, target: str, *, approximate: bool = True
    ) -> Link | None:
        """The best counterpart of `number` of `edition` in `target`, or None."""
        self.index.edition(target)
        num = canonical(number)
        if num is None:
            return None
        if edition == target:
            if num in self.index.edition(edition).rules:
                return self._checked(_link(edition, num, target, num, "same_number", 1.0))
            return None
        links = self._exact(edition, num).get(target, [])
        if links:
            return links[0]
        return self._approximate(edition, num, target) if approximate else None

    def pair_links(self, edition: str, target: str) -> list[Link]:
        """Every direct link from `edition` to `target` (for reports and benchmarks)."""
        return [link for links in self._pair_links(edition, target).values() for link in links]

    def is_present(self, edition: str, number: str) -> bool:
        """Whether rule `number` is in the corpus of `edition` with a text: its own, or one of
        its sub-rules' (a section). A number known only by its title (a table of contents, a
        citation) is not."""
        key = (edition, number)
        known = self._present.get(key)
        if known is None:
            ed = self.index.edition(edition)
            rule = ed.rules.get(number)
            known = rule is not None and (
                (not rule.title_only and bool(rule.text.strip()))
                or any(self.is_present(edition, child) for child in rule.children)
            )
            self._present[key] = known
        return known

    def _checked(self, link: Link) -> Link:
        present = self.is_present(link.to_edition, link.to_rule)
        return link if link.present == present else replace(link, present=present)

    # -- paths --

    def _exact(self, edition: str, number: str) -> dict[str, list[Link]]:
        key = (edition, number)
        cached = self._paths.get(key)
        if cached is not None:
            return cached
        result: dict[str, list[Link]] = {}
        for ed in self.index.editions:
            if ed.id != edition:
                direct = [
                    link
                    for link in self._pair_links(edition, ed.id).get(number, [])
                    if not link.approximate
                ]
                if direct:
                    result[ed.id] = sorted(direct, key=_link_order)
        best: dict[tuple[str, str], tuple[float, tuple[Link, ...]]] = {}
        frontier: list[tuple[tuple[str, str], float, tuple[Link, ...]]] = [(key, 1.0, ())]
        for _hop in range(_MAX_HOPS):
            nxt = []
            for (ed_id, num), score, path in frontier:
                seen = {edition} | {link.to_edition for link in path}
                for other in self.index.editions:
                    if other.id in seen:
                        continue
                    for link in self._pair_links(ed_id, other.id).get(num, []):
                        if link.approximate:
                            continue
                        s = score * link.confidence * (_HOP_DECAY if path else 1.0)
                        node = (link.to_edition, link.to_rule)
                        if best.get(node, (0.0,))[0] >= s:
                            continue
                        best[node] = (s, (*path, link))
                        nxt.append((node, s, (*path, link)))
            frontier = nxt
        composed: dict[str, Link] = {}
        for (ed_id, _num), (score, path) in best.items():
            if len(path) < 2 or ed_id in result:
                continue
            link = self._checked(_compose(path, score, self._same_language(edition, ed_id)))
            current = composed.get(ed_id)
            if current is None or _link_order(link) < _link_order(current):
                composed[ed_id] = link
        for ed_id, link in composed.items():
            result[ed_id] = [link]
        self._paths[key] = result
        return result

    def _approximate(self, edition: str, number: str, target: str) -> Link | None:
        """The counterpart of the nearest ancestor that has one, or the number its move
        implies when the rule itself is not in the target's corpus (`present` says so)."""
        link = self._approximate_link(edition, number, target)
        return self._checked(link) if link is not None else None

    def _same_language(self, a: str, b: str) -> bool:
        return self.index.edition(a).language == self.index.edition(b).language

    def _approximate_link(self, edition: str, number: str, target: str) -> Link | None:
        src = self.index.edition(edition)
        tgt = self.index.edition(target)
        # A table that names only the section (408.1i → 116, the special actions)
        coarse = [x for x in self._pair_links(edition, target).get(number, []) if x.approximate]
        if coarse:
            return min(coarse, key=_link_order)
        # A translation of the target (same numbering, number for number) that has the rule:
        # the target's number is the same, though its text is not in the corpus.
        exact = self._exact(edition, number)
        for partner in self.index.editions:
            if partner.id in (edition, target) or not exact.get(partner.id):
                continue
            if not self._translation_pair(partner, tgt):
                continue
            best = exact[partner.id][0]
            return _link(
                edition,
                number,
                target,
                best.to_rule,
                _path_method([best.method, "translation"], src.language == tgt.language),
                best.confidence * 0.9,
                via=(*best.via, partner.id),
                approximate=True,
            )
        for anc in _ancestors(number):
            if kind_of(anc) == "chapter":
                break  # a chapter says too little
            links = self._exact(edition, anc).get(target, [])
            if not links:
                continue
            best = links[0]
            shifted = self._shift(src, tgt, number, anc, best)
            if shifted is not None:
                factor = 0.9 if best.method == "translation" and not best.moved else 0.6
                return _link(
                    edition,
                    number,
                    target,
                    shifted,
                    best.method,
                    best.confidence * factor,
                    via=best.via,
                    approximate=True,
                )
            return _link(
                edition,
                number,
                target,
                best.to_rule,
                best.method,
                best.confidence * 0.5,
                via=best.via,
                approximate=True,
            )
        return None

    def _shift(self, src: Edition, tgt: Edition, number: str, anc: str, link: Link) -> str | None:
        if src.numbering != tgt.numbering or kind_of(anc) != "section" or link.method == "curated":
            return None
        if kind_of(link.to_rule) != "section":
            return None
        shifted = canonical(link.to_rule + number[len(anc) :])
        if shifted is None:
            return None
        here, there = src.rules.get(number), tgt.rules.get(shifted)
        if (
            here is not None
            and there is not None
            and _has_text(here)
            and _has_text(there)
            and _lang(here, src) == _lang(there, tgt)
        ):
            return None  # both texts were there to compare, and they did not match
        return shifted

    # -- pairs --

    def _pair_links(self, a: str, b: str) -> dict[str, list[Link]]:
        return self._pair(a, b).forward

    def _pair(self, a: str, b: str) -> _PairResult:
        known = self._pairs.get((a, b))
        if known is not None:
            return known
        A, B = self.index.edition(a), self.index.edition(b)
        links = self._compute(A, B)
        result = _PairResult()
        for link in links:
            # A link never lands outside the corpus; it may start outside it (a curated
            # number that an old text cites, such as 314).
            if link.to_rule in B.rules:
                result.forward.setdefault(link.from_rule, []).append(self._checked(link))
            if link.from_rule in A.rules:
                back = self._checked(link.reversed())
                result.backward.setdefault(back.from_rule, []).append(back)
        for d in (result.forward, result.backward):
            for k in d:
                d[k].sort(key=_link_order)
        self._pairs[(a, b)] = result
        self._pairs[(b, a)] = _PairResult(result.backward, result.forward)  # the same, from b
        return result

    def _compute(self, A: Edition, B: Edition) -> list[Link]:
        links: list[Link] = []
        curated, sources = self._curated(A, B) if self.curated else ([], set())
        links += curated
        # Sections that a table renumbers (its "from" side) are left to the table; their
        # targets may still match other sections by title (405 and 412 both went to 604).
        skip_a = {n for e, n in sources if e == A.id and kind_of(n) in ("section", "chapter")}
        skip_b = {n for e, n in sources if e == B.id and kind_of(n) in ("section", "chapter")}
        claimed_a = {
            link.from_rule for link in curated if kind_of(link.from_rule) in ("rule", "subrule")
        }
        claimed_b = {
            link.to_rule for link in curated if kind_of(link.to_rule) in ("rule", "subrule")
        }
        same_numbering = A.numbering == B.numbering
        if A.language == B.language:
            sections = self._sections(A, B, same_numbering, skip_a, skip_b)
            links += [_link(A.id, sa, B.id, sb, m, c) for sa, sb, m, c in sections]
            pairs = sections + [
                (link.from_rule, link.to_rule, link.method, link.confidence)
                for link in curated
                if kind_of(link.from_rule) == "section" and kind_of(link.to_rule) == "section"
            ]
            links += self._texts(A, B, pairs, claimed_a, claimed_b)
        elif same_numbering:
            links += self._translations(A, B, claimed_a, claimed_b)
        return links

    def _curated(self, A: Edition, B: Edition) -> tuple[list[Link], set[tuple[str, str]]]:
        """Links from the tables that fit, all from A to B, and the numbers the tables
        renumber, as (edition, number)."""
        out = []
        sources: set[tuple[str, str]] = set()
        for table in self.data.tables:
            for src, dst, flip in ((A, B, False), (B, A, True)):
                if not (table.from_.fits(src) and table.to.fits(dst)):
                    continue
                for cl in table.links:
                    if cl.to_rule not in dst.rules:
                        continue  # the target is not in this edition's corpus
                    link = _link(
                        src.id,
                        cl.from_rule,
                        dst.id,
                        cl.to_rule,
                        "curated",
                        cl.confidence,
                        approximate=_coarser(cl),
                    )
                    out.append(link.reversed() if flip else link)
                    sources.add((src.id, cl.from_rule))
        return out, sources

    # -- titles --

    def _sections(
        self, A: Edition, B: Edition, same_numbering: bool, skip_a: set[str], skip_b: set[str]
    ) -> list[_SectionPair]:
        def titled(ed: Edition, kind: str, skip: set[str]) -> dict[str, str]:
            return {
                n: normalize_title(r.title)
                for n, r in ed.rules.items()
                if r.kind == kind and r.title and n not in skip
            }

        def sim(x: str, y: str) -> float:
            score = fuzz.ratio(x, y)
            if same_numbering:
                score = max(score, fuzz.token_set_ratio(x, y) - 10)
            return float(score)

        out: list[_SectionPair] = []

        # chapters
        ca, cb = titled(A, "chapter", skip_a), titled(B, "chapter", skip_b)
        cands: list[tuple[tuple[float, ...], str, str]] = [
            ((s, float(x == y)), x, y)
            for x, tx in ca.items()
            for y, ty in cb.items()
            if (s := sim(tx, ty)) >= _CHAPTER_MIN
        ]
        chapters = dict(_greedy(cands))
        scored = {(x, y): sim(ca[x], cb[y]) for x, y in chapters.items()}
        gaps = _gap_fill(list(ca), list(cb), chapters, lambda x, y: sim(ca[x], cb[y]))
        for x, y, s in gaps:
            chapters[x] = y
            scored[(x, y)] = s
        for x, y in chapters.items():
            out.append(_titled_pair(x, y, scored[(x, y)], same_numbering))

        # sections
        sa, sb = titled(A, "section", skip_a), titled(B, "section", skip_b)
        dup_a = Counter(sa.values())
        dup_b = Counter(sb.values())
        cands = []
        for x, tx in sa.items():
            for y, ty in sb.items():
                within = chapters.get(x[0]) == y[0]
                if not within and (same_numbering or dup_a[tx] > 1 or dup_b[ty] > 1):
                    continue
                s = sim(tx, ty)
                if s < (_SECTION_MIN if within else _SECTION_GLOBAL_MIN):
                    continue
                closeness = -abs(int(x[1:]) - int(y[1:]))
                cands.append(((s, float(within), float(closeness)), x, y))
        sections = dict(_greedy(cands))
        scored = {(x, y): sim(sa[x], sb[y]) for x, y in sections.items()}
        for x, y in chapters.items():
            seq_a = [n for n in sa if n[0] == x]
            seq_b = [n for n in sb if n[0] == y]
            inside = {n: m for n, m in sections.items() if n[0] == x and m[0] == y}
            taken_b = set(sections.values())
            free_b = [n for n in seq_b if n not in taken_b or n in inside.values()]
            free_a = [n for n in seq_a if n not in sections or n in inside]
            for n, m, s in _gap_fill(free_a, free_b, inside, lambda p, q: sim(sa[p], sb[q])):
                sections[n] = m
                scored[(n, m)] = s
        for x, y in sections.items():
            out.append(_titled_pair(x, y, scored[(x, y)], same_numbering))
        return out

    # -- texts --

    def _comparable_text(self, ed: Edition, rule: Rule) -> str:
        key = (ed.id, rule.number)
        text = self._comparable.get(key)
        if text is None:
            text = _comparable(rule.text, _lang(rule, ed), self.data)
            self._comparable[key] = text
        return text

    def _texts(
        self,
        A: Edition,
        B: Edition,
        sections: Sequence[_SectionPair],
        claimed_a: set[str],
        claimed_b: set[str],
    ) -> list[Link]:
        same_numbering = A.numbering == B.numbering

        def by_section(ed: Edition, claimed: set[str]) -> dict[str, list[Rule]]:
            out: dict[str, list[Rule]] = {}
            for r in ed.rules.values():
                if _has_text(r) and r.number not in claimed:
                    out.setdefault(_section_of(r.number), []).append(r)
            return out

        by_section_a, by_section_b = by_section(A, claimed_a), by_section(B, claimed_b)
        targets: dict[str, set[str]] = {}
        for sa, sb, _m, _c in sections:
            if kind_of(sa) == "section" and kind_of(sb) == "section":
                targets.setdefault(sa, set()).add(sb)

        cands: list[tuple[tuple[float, ...], str, str]] = []
        scores: dict[tuple[str, str], float] = {}
        for sa, rules_a in by_section_a.items():
            pool = [r for sb in sorted(targets.get(sa, ())) for r in by_section_b.get(sb, [])]
            for lang in {_lang(r, A) for r in rules_a}:
                queries = [r for r in rules_a if _lang(r, A) == lang]
                choices = [r for r in pool if _lang(r, B) == lang]
                if not queries or not choices:
                    continue
                matrix = self._scores(A, queries, B, choices, _SAME_NUMBER_MIN)
                for i, ra in enumerate(queries):
                    for j, rb in enumerate(choices):
                        score = float(matrix[i][j])
                        same = same_numbering and ra.number == rb.number
                        if same:
                            score = self._same_number_score(A, ra, B, rb, score)
                        if score < (_SAME_NUMBER_MIN if same else _TEXT_MIN):
                            continue
                        scores[(ra.number, rb.number)] = score
                        cands.append(((score + (5.0 if same else 0.0),), ra.number, rb.number))
        if same_numbering:
            # Sections that no title paired (a page without its headings, a table of contents
            # missing): the same number, where the texts agree, is the same rule. A section
            # paired with another one has moved, and its numbers with it.
            for sa, rules_a in by_section_a.items():
                if sa in targets:
                    continue
                same_b = {r.number: r for r in by_section_b.get(sa, [])}
                for ra in rules_a:
                    twin = same_b.get(ra.number)
                    if twin is None or _lang(ra, A) != _lang(twin, B):
                        continue
                    score = self._same_number_score(A, ra, B, twin)
                    if score >= _TEXT_MIN:
                        scores[(ra.number, twin.number)] = score
                        cands.append(((score + 5.0,), ra.number, twin.number))
        out = []
        matched = _greedy(cands)
        for x, y in matched:
            s = scores[(x, y)]
            if same_numbering and x == y:
                out.append(_link(A.id, x, B.id, y, "same_number", min(1.0, s / 100 + 0.1)))
            else:
                out.append(_link(A.id, x, B.id, y, "text", s / 100))

        # Rules left over: anywhere in the other edition, only when clearly the best.
        done_a = {x for x, _ in matched} | claimed_a
        done_b = {y for _, y in matched} | claimed_b
        left_a = [r for r in A.rules.values() if _has_text(r) and r.number not in done_a]
        left_b = [r for r in B.rules.values() if _has_text(r) and r.number not in done_b]
        for lang in {_lang(r, A) for r in left_a}:
            queries = [r for r in left_a if _lang(r, A) == lang]
            choices = [r for r in left_b if _lang(r, B) == lang]
            if not choices:
                continue
            cutoff = _TEXT_GLOBAL_MIN - _TEXT_GLOBAL_MARGIN
            # ratio >= cutoff needs lengths within a factor `spread` of each other
            spread = 200.0 / cutoff - 1.0
            ranked = sorted(choices, key=lambda r: len(self._comparable_text(B, r)))
            texts_b = [self._comparable_text(B, r) for r in ranked]
            lengths = [len(t) for t in texts_b]
            extra = []
            for ra in queries:
                query = self._comparable_text(A, ra)
                lo = bisect_left(lengths, len(query) / spread)
                hi = bisect_right(lengths, len(query) * spread)
                row = process.extract(
                    query, texts_b[lo:hi], scorer=fuzz.ratio, limit=2, score_cutoff=cutoff
                )
                if not row or row[0][1] < _TEXT_GLOBAL_MIN:
                    continue
                if len(row) > 1 and row[0][1] - row[1][1] < _TEXT_GLOBAL_MARGIN:
                    continue
                rb = ranked[lo + row[0][2]]
                scores[(ra.number, rb.number)] = float(row[0][1])
                extra.append(((float(row[0][1]),), ra.number, rb.number))
            for x, y in _greedy(extra):
                out.append(_link(A.id, x, B.id, y, "text", scores[(x, y)] / 100 * 0.9))
        return out

    def _same_number_score(
        self, A: Edition, ra: Rule, B: Edition, rb: Rule, ratio: float | None = None
    ) -> float:
        """How well two texts of the same number agree (0–100): their similarity, or, when
        the words of one are (nearly) all in the other, 70 at most (a text cut short, a
        paragraph added: 704.3 as a web page quotes it against the full rule)."""
        ta, tb = self._comparable_text(A, ra), self._comparable_text(B, rb)
        score = fuzz.ratio(ta, tb) if ratio is None else ratio
        if min(len(set(ta.split())), len(set(tb.split()))) >= _CONTAINED_MIN_WORDS:
            contained = fuzz.token_set_ratio(ta, tb)
            if contained >= _CONTAINED_MIN:
                score = max(score, contained * _CONTAINED_WEIGHT)
        return float(score)

    def _scores(
        self, A: Edition, rules_a: list[Rule], B: Edition, rules_b: list[Rule], cutoff: float
    ) -> Any:
        """The similarity matrix (rows: `rules_a`), 0 below `cutoff`."""
        return process.cdist(
            [self._comparable_text(A, r) for r in rules_a],
            [self._comparable_text(B, r) for r in rules_b],
            scorer=fuzz.ratio,
            score_cutoff=cutoff,
            workers=1,
        )

    # -- translations --

    def is_translation_pair(self, a: str, b: str) -> bool:
        """Two editions in two languages that share the numbering, number for number."""
        A, B = self.index.edition(a), self.index.edition(b)
        return self._translation_pair(A, B)

    def _translation_pair(self, A: Edition, B: Edition) -> bool:
        if A.language == B.language or A.numbering != B.numbering:
            return False
        key = (A.id, B.id) if A.id < B.id else (B.id, A.id)
        known = self._translation.get(key)
        if known is None:
            known = self._translation[key] = self._check_translation_pair(A, B)
        return known

    def _check_translation_pair(self, A: Edition, B: Edition) -> bool:
        text_a = {n for n, r in A.rules.items() if _has_text(r)}
        text_b = {n for n, r in B.rules.items() if _has_text(r)}
        small, other = (text_a, B) if len(text_a) <= len(text_b) else (text_b, A)
        if not small:
            return False
        coverage = sum(1 for n in small if n in other.rules) / len(small)
        if coverage < 0.9:
            return False
        agreements = []
        for n in small & text_a & text_b:
            ag = self._agreement(A, A.rules[n], B, B.rules[n])
            if ag is not None and ag[1] >= 3:
                agreements.append(ag[0])
        return not agreements or sum(agreements) / len(agreements) >= 0.6

    def _agreement(self, A: Edition, ra: Rule, B: Edition, rb: Rule) -> tuple[float, int] | None:
        la, lb = _lang(ra, A), _lang(rb, B)
        if la == lb:
            return None
        fr, en = (ra, rb) if la == "fr" else (rb, ra)
        return bilingual_agreement(fr.text or fr.title or "", en.text or en.title or "", self.data)

    def _translations(
        self, A: Edition, B: Edition, claimed_a: set[str], claimed_b: set[str]
    ) -> list[Link]:
        paired = self._translation_pair(A, B)
        out = []
        for n, ra in A.rules.items():
            rb = B.rules.get(n)
            if rb is None or n in claimed_a or n in claimed_b:
                continue
            both_text = _has_text(ra) and _has_text(rb)
            if both_text and _lang(ra, A) == _lang(rb, B):
                score = fuzz.ratio(self._comparable_text(A, ra), self._comparable_text(B, rb))
                if score >= _TEXT_MIN:
                    out.append(_link(A.id, n, B.id, n, "text", score / 100))
                continue
            if both_text or (ra.title and rb.title and not paired):
                ag = self._agreement(A, ra, B, rb)
            else:
                ag = None
            if paired:
                if ag is None or ag[1] < 4:
                    conf = 0.85
                elif ag[0] < 0.4:
                    continue  # the same number, not the same rule
                else:
                    conf = 0.7 + 0.3 * ag[0]
            else:
                # Different editions in two languages: only where the terms clearly agree.
                needed = 4 if both_text else 1
                if ag is None or ag[1] < needed or ag[0] < (0.75 if both_text else 1.0):
                    continue
                conf = 0.45 + 0.35 * ag[0]
            out.append(_link(A.id, n, B.id, n, "translation", conf))
        return out


def _coarser(cl: CuratedLink) -> bool:
    rank = {"chapter": 0, "section": 1, "rule": 2, "subrule": 3}
    return rank[kind_of(cl.to_rule)] < rank[kind_of(cl.from_rule)] and kind_of(cl.to_rule) in (
        "chapter",
        "section",
    )


def _titled_pair(x: str, y: str, score: float, same_numbering: bool) -> _SectionPair:
    if same_numbering and x == y and score >= _SECTION_MIN:
        return (x, y, "same_number", min(1.0, score / 100))
    return (x, y, "title", min(1.0, score / 100))


def _gap_fill(
    seq_a: list[str],
    seq_b: list[str],
    matched: dict[str, str],
    sim: Callable[[str, str], float],
) -> list[tuple[str, str, float]]:
    """Pairs found between two matched neighbours: titles that agree less, then a lone
    title left on each side (score 50)."""
    pos_a = {n: i for i, n in enumerate(seq_a)}
    pos_b = {n: i for i, n in enumerate(seq_b)}
    anchors = sorted((pos_a[x], pos_b[y]) for x, y in matched.items() if x in pos_a and y in pos_b)
    # keep the anchors that do not cross (longest increasing run of positions in b)
    kept: list[tuple[int, int]] = []
    for i, j in anchors:
        if not kept or j > kept[-1][1]:
            kept.append((i, j))
    bounds = [(-1, -1), *kept, (len(seq_a), len(seq_b))]
    used_a = set(matched)
    used_b = set(matched.values())
    out = []
    for (i0, j0), (i1, j1) in pairwise(bounds):
        gap_a = [n for n in seq_a[i0 + 1 : i1] if n not in used_a]
        gap_b = [n for n in seq_b[j0 + 1 : j1] if n not in used_b]
        if not gap_a or not gap_b:
            continue
        found = _greedy(((s,), x, y) for x in gap_a for y in gap_b if (s := sim(x, y)) >= _GAP_MIN)
        for x, y in found:
            out.append((x, y, sim(x, y)))
        left_a = [n for n in gap_a if n not in {x for x, _ in found}]
        left_b = [n for n in gap_b if n not in {y for _, y in found}]
        if len(left_a) == 1 and len(left_b) == 1 and not found:
            out.append((left_a[0], left_b[0], 50.0))
    return out


def _link_order(link: Link) -> tuple[float, int, tuple[int, int, int, int]]:
    return (
        -link.confidence,
        len(link.via),
        sort_key(link.to_rule) if canonical(link.to_rule) else (0, 0, 0, 0),
    )


def _path_method(methods: Iterable[Method], same_language: bool) -> Method:
    """The method shown for a chain of links: the strongest claim made on the way. A chain
    between two editions of one language is no translation, though it passes through one
    (French → English → French, number for number): such a chain keeps the number."""
    found = list(methods)
    if same_language:
        found = [m for m in found if m != "translation"] or ["same_number"]
    return max(found, key=lambda m: _METHOD_RANK[m])


def _compose(path: Sequence[Link], score: float, same_language: bool) -> Link:
    first, last = path[0], path[-1]
    method = _path_method((link.method for link in path), same_language)
    return _link(
        first.from_edition,
        first.from_rule,
        last.to_edition,
        last.to_rule,
        method,
        score,
        via=tuple(link.to_edition for link in path[:-1]),
        approximate=any(link.approximate for link in path),
    )


# --- the word diff ---------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<core>
        (?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu|presqu)['’](?=\w)   # elision: l' qu'
      | [+\-−]?\d+(?:[.,/][+\-−]?\d+)*[a-z]{0,2}(?![\w])           # 704.5j, +1/+1, 20
      | \w+(?:[-‐]\w+)*                                            # words, mot-clé
      | \S                                                         # punctuation
    )
    (?P<space>\s*)
    """,
    re.IGNORECASE | re.VERBOSE,
)


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
        key = f"\x00ref:{ref}" if ref else core.translate(_APOSTROPHES).translate(_QUOTES)
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


def diff_rules(a: Rule, b: Rule, concordance: Concordance | None = None) -> list[tuple[str, str]]:
    """The word diff from `a` (old) to `b` (new): a list of (op, text); see the module docstring
    for the operations. Cross-references of `a` are mapped through `concordance` to `b`'s
    edition, so that a reference renumbered in line with it is `renumbered`, not a change."""
    text_a, text_b = compared_text(a), compared_text(b)
    refs_a: dict[int, str] = {}
    refs_b: dict[int, str] = {}
    for pos, num in _citation_numbers(text_a):
        target = num
        if concordance is not None and a.edition != b.edition:
            link = concordance.counterpart(a.edition, num, b.edition)
            target = link.to_rule if link is not None else f"?{num}"
        refs_a[pos] = target
    for pos, num in _citation_numbers(text_b):
        refs_b[pos] = num
    toks_a, toks_b = _tokens(text_a, refs_a), _tokens(text_b, refs_b)
    ops: list[tuple[str, str]] = []
    for op in Indel.opcodes([t.key for t in toks_a], [t.key for t in toks_b]):
        tag = op.tag
        if tag in ("delete", "replace"):
            ops += [("delete", t.core + t.space) for t in toks_a[op.src_start : op.src_end]]
        if tag in ("insert", "replace"):
            ops += [("insert", t.core + t.space) for t in toks_b[op.dest_start : op.dest_end]]
        if tag == "equal":
            pairs = zip(
                toks_a[op.src_start : op.src_end], toks_b[op.dest_start : op.dest_end], strict=True
            )
            for ta, tb in pairs:
                if ta.core == tb.core:
                    ops.append(("equal", tb.core))
                elif ta.key.startswith("\x00ref:"):
                    ops.append(("renumbered", f"{ta.core}{RENUMBERED_ARROW}{tb.core}"))
                else:
                    # the same word, another style of apostrophe or quotation mark
                    ops += [("delete", ta.core), ("insert", tb.core)]
                # Each side keeps its own spacing (a cosmetic change when they differ).
                if ta.space == tb.space:
                    ops.append(("equal", tb.space))
                else:
                    ops += [("delete", ta.space), ("insert", tb.space)]
    return _merge(ops)


def _merge(ops: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Deletions before insertions within a change, then runs of one operation joined."""
    ordered: list[tuple[str, str]] = []
    run: list[tuple[str, str]] = []
    for item in [*ops, ("equal", "")]:
        if item[0] in ("delete", "insert"):
            run.append(item)
            continue
        ordered += [x for x in run if x[0] == "delete"] + [x for x in run if x[0] == "insert"]
        run = []
        ordered.append(item)
    out: list[tuple[str, str]] = []
    for op, text in ordered:
        if not text:
            continue
        if out and out[-1][0] == op and op != "renumbered":
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))
    return out


RENUMBERED_ARROW = " → "


def renumbered_sides(text: str) -> tuple[str, str]:
    """The old and the new number of a `renumbered` operation (``"408 → 117"``)."""
    old, _, new = text.partition(RENUMBERED_ARROW)
    return old, new


def _segments(
    diff: Iterable[tuple[str, str]],
) -> list[tuple[str, str, str]]:
    """The diff as segments (kind, old text, new text): ``equal`` and ``renumbered`` as they
    are, and every run of deletions and insertions between them as one ``change``."""
    out: list[tuple[str, str, str]] = []
    for op, text in diff:
        if op in ("delete", "insert"):
            if not out or out[-1][0] != "change":
                out.append(("change", "", ""))
            _, old, new = out[-1]
            out[-1] = ("change", old + text, new) if op == "delete" else ("change", old, new + text)
        elif op == "renumbered":
            old, new = renumbered_sides(text)
            out.append(("renumbered", old, new))
        else:
            out.append((op, text, text))
    return out


def _word_keys(text: str) -> list[str]:
    return [t.key for t in _tokens(text, {}) if t.key]


def is_cosmetic(old: str, new: str) -> bool:
    """Whether replacing `old` by `new` changes nothing but spacing or the style of
    apostrophes and quotation marks (the same words, in the same order)."""
    return _word_keys(old) == _word_keys(new)


def is_empty_diff(diff: Iterable[tuple[str, str]]) -> bool:
    """True when the diff holds no change: only `equal` operations, or deletions and insertions
    that change nothing but spacing or the style of apostrophes and quotation marks."""
    for kind, old, new in _segments(diff):
        if kind == "renumbered" or (kind == "change" and not is_cosmetic(old, new)):
            return False
    return True


DiffMark = Literal["", "delete", "insert", "renumbered"]


def side_view(
    diff: Iterable[tuple[str, str]], side: Literal["old", "new"]
) -> list[tuple[DiffMark, str]]:
    """One side of the diff, to show two texts side by side: pieces (mark, text) that, put end
    to end, give that side's text exactly. Mark ``""``: shown as it is (the same on both
    sides, or changed only in spacing or style); ``delete`` (old side) or ``insert`` (new
    side): a change; ``renumbered``: the number of a renumbered cross-reference."""
    out: list[tuple[DiffMark, str]] = []
    for kind, old, new in _segments(diff):
        text = old if side == "old" else new
        if not text:
            continue
        if kind == "renumbered":
            out.append(("renumbered", text))
        elif kind == "change" and not is_cosmetic(old, new):
            out.append(("delete" if side == "old" else "insert", text))
        else:
            out.append(("", text))
    return out


def inline_view(diff: Iterable[tuple[str, str]]) -> list[tuple[DiffMark, str]]:
    """The diff as one text to read: the new text, with each deletion shown where it was.
    Pieces (mark, text): ``""`` as it is, ``delete``, ``insert``, ``renumbered`` (the whole
    ``"408 → 117"``). A deletion comes without the spacing the new text already gives, and
    changes of spacing or style alone show the new text."""
    out: list[tuple[DiffMark, str]] = []

    def last() -> str:
        return out[-1][1][-1:] if out else ""

    for kind, old, new in _segments(diff):
        if kind == "renumbered":
            out.append(("renumbered", f"{old}{RENUMBERED_ARROW}{new}"))
            continue
        if kind == "equal" or is_cosmetic(old, new):
            if new:
                out.append(("", new))
            continue
        core = old.strip()
        if core:
            lead = old[: len(old) - len(old.lstrip())]
            trail = old[len(old.rstrip()) :]
            if (
                last()
                and not last().isspace()
                and (lead or (last().isalnum() and core[0].isalnum()))
            ):
                out.append(("", lead or " "))
            out.append(("delete", core))
            if trail and not new[:1].isspace():
                out.append(("", trail))
        if new:
            out.append(("insert", new))
    return out


def summary(
    a: Rule, b: Rule, data: CuratedData | None = None, *, backwards: bool | None = None
) -> str | None:
    """A one-line French summary of the change from `a` to `b` when it is a known one.

    `backwards`: `a` is the newer text (a comparison that goes back in time): the known
    changes are read the other way (2024's « le contrôleur en choisit un » against the old
    « tous »). None when the order of the two editions is not known: forwards first, then
    backwards."""
    first, second = compared_text(a), compared_text(b)
    if first == second:
        return None
    changes = (data or load_curated()).changes
    found: list[str] = []
    if not backwards:
        found = [c.summary for c in changes if c.applies(first, second)]
    if not found and backwards is not False:
        found = [c.reverse for c in changes if c.reverse and c.applies(second, first)]
    return " ".join(found) if found else None


# --- compare ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """A rule (`old`) and its counterpart (`new`), with the word diff from one to the other.
    `languages` tells when the two texts are in two languages (2024 keeps some rules in
    English; a translation link): the diff then shows mostly the translation."""

    old: Rule
    new: Rule
    link: Link
    diff: tuple[tuple[str, str], ...]
    summary: str | None
    languages: tuple[str, str] = ("fr", "fr")

    @property
    def changed(self) -> bool:
        return not is_empty_diff(self.diff)

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": {
                "edition": self.old.edition,
                "rule": self.old.number,
                "text": compared_text(self.old),
            },
            "to": {
                "edition": self.new.edition,
                "rule": self.new.number,
                "text": compared_text(self.new),
            },
            "languages": list(self.languages),
            "method": self.link.method,
            "confidence": round(self.link.confidence, 3),
            "moved": self.link.moved,
            "via": list(self.link.via),
            "changed": self.changed,
            "diff": [[op, text] for op, text in self.diff],
            "summary": self.summary,
        }


def compare(
    index: RuleIndex,
    number: str,
    from_edition: str,
    to_edition: str,
    concordance: Concordance | None = None,
) -> Comparison:
    """Rule `number` of `from_edition` against its counterpart in `to_edition`.

    Raises RuleMissing when the rule is not in `from_edition`, NoCounterpart when the
    concordance knows no counterpart with a text to compare (French messages)."""
    conc = concordance or Concordance.for_index(index)
    src = index.edition(from_edition)
    tgt = index.edition(to_edition)
    num = canonical(number)
    old = src.rules.get(num) if num else None
    if old is None or num is None:
        elsewhere = [r.edition for r in index.everywhere(number)]
        nearest = [] if elsewhere else index.nearest(number, from_edition)
        if elsewhere:
            hint = f" Ce numéro existe dans : {', '.join(elsewhere)}."
        else:
            hint = f" Numéros proches : {', '.join(nearest)}." if nearest else ""
        raise RuleMissing(
            f"La règle {number.strip()} n'existe pas dans l'édition {from_edition}.{hint}",
            nearest,
        )
    link = conc.counterpart(from_edition, num, to_edition)
    if link is None:
        same = tgt.rules.get(num)
        other = ""
        if same is not None:
            label = f" « {same.title} »" if same.title else ""
            other = f" Le numéro {num} y désigne une autre règle{label}."
        raise NoCounterpart(
            f"La règle {num} de l'édition {from_edition} n'a pas d'équivalent connu dans "
            f"l'édition {to_edition}.{other}"
        )
    new = tgt.rules.get(link.to_rule)
    title = nearest_title(link.to_rule, tgt.rules)
    about = f" (« {title} »)" if title else ""
    if link.approximate or new is None:
        raise NoCounterpart(
            f"La règle {num} de l'édition {from_edition} n'a pas d'équivalent précis dans "
            f"l'édition {to_edition} : la concordance indique {link.to_rule}{about}"
            + (", absente du corpus." if not link.present else ", sans plus de précision."),
            link,
        )
    if bool(old.text.strip()) != bool(new.text.strip()):
        missing = (new, to_edition) if old.text.strip() else (old, from_edition)
        raise NoCounterpart(
            f"La règle {num} de l'édition {from_edition} correspond à {link.to_rule}{about} "
            f"dans l'édition {to_edition}, mais le texte de {missing[0].number} "
            f"({missing[1]}) n'est pas dans le corpus (titre seul).",
            link,
        )
    languages = (_lang(old, src), _lang(new, tgt))
    diff = tuple(diff_rules(old, new, conc))
    backwards = None if src.order == tgt.order else src.order > tgt.order
    said = summary(old, new, conc.data, backwards=backwards)
    return Comparison(old, new, link, diff, said, languages)


# --- for `judge rule` ------------------------------------------------------------------------


def counterparts_for(index: RuleIndex, rule: Rule) -> list[Link]:
    """The rule's counterparts in the other editions (approximate ones flagged), best first
    per edition, editions newest first."""
    return Concordance.for_index(index).links(rule.edition, rule.number)


def current_edition_for(index: RuleIndex, edition: str) -> str | None:
    """The edition a reference of `edition` is best read in today: the newest edition of the
    same language newer than it, else the newest edition; None when that is `edition` itself."""
    src = index.edition(edition)
    newer = [e for e in index.editions if e.order > src.order]
    same_language = [e for e in newer if e.language == src.language]
    best = same_language or newer
    return best[0].id if best else None


def reference_counterpart(
    index: RuleIndex, reference: Reference, target_edition: str | None = None
) -> Link | None:
    """Where a reference of an old edition (2011's « Cf. règle 119.3 », the old text's
    « voir règle 314 ») lands in `target_edition` (by default the current edition, see
    `current_edition_for`), when the concordance knows it."""
    target = target_edition or current_edition_for(index, reference.edition)
    if target is None or target == reference.edition:
        return None
    return Concordance.for_index(index).counterpart(reference.edition, reference.target, target)


def method_label(method: str) -> str:
    return METHOD_LABELS.get(method, method)

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

The word diff (`diff_rules`, a list of `DiffPart`; `--json` writes each as ``[op, text]``)
tokenises French: elided articles (``l'``, ``qu'``) and punctuation
are tokens of their own; apostrophe and quotation-mark styles are not changes. Its operations:

- ``equal``: the same text in both (words, and the spacing when both sides space alike);
- ``delete`` / ``insert``: text only in the old / only in the new text. Each side keeps its own
  spacing and its own apostrophes and quotation marks: where they differ around the same words,
  a deletion and an insertion say so, and such a change is *cosmetic* (`is_cosmetic`);
- ``renumbered``: a cross-reference whose number changed in line with the concordance (the old
  text's ``règle 408`` where today's says ``règle 117``); its text is ``"408 → 117"``, the old
  number before the arrow and the new one after it, and the `DiffPart` carries the two numbers
  (`old`, `new`). It is not a change of the text.

The equal, insert and renumbered (new side) pieces, put end to end, give the new text exactly;
the equal, delete and renumbered (old side) pieces give the old text exactly. A diff is *empty*
(`is_empty_diff`) when it holds no ``renumbered`` operation and its deletions and insertions are
only cosmetic: comparing a rule with itself gives one ``equal`` operation (no operation at all
when the text is empty). `side_view` and `inline_view` lay a diff out for display.

The package, by concern: `links` (Link, the order of links, composed chains), `curated` (the data
of renumbering.toml), `similarity` (what is compared), `sections` (titles), `texts` (rule texts),
`translations`, `matching` (the Concordance), `diff` and `views` (the word diff and its display),
`comparison` (compare, and the concordance as `judge rule` reads it). The text folding is
`judge.rules.text`'s, which the search shares; nothing here imports the search. There is no
module-level state: whoever holds a `Concordance` passes it (one per store generation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.lazy import lazy_exports

if TYPE_CHECKING:
    from judge.rules.concordance.comparison import (
        Comparison,
        compare,
        counterparts_for,
        current_edition_for,
        method_label,
        reference_counterpart,
        summary,
    )
    from judge.rules.concordance.curated import CURATED_FILE, CuratedData, KnownChange, load_curated
    from judge.rules.concordance.diff import (
        RENUMBERED_ARROW,
        DiffOp,
        DiffPart,
        compared_text,
        diff_rules,
        is_cosmetic,
        is_empty_diff,
        tokenize,
    )
    from judge.rules.concordance.errors import ComparisonError, NoCounterpart, RuleMissing
    from judge.rules.concordance.links import METHODS, Link, Method
    from judge.rules.concordance.matching import Concordance
    from judge.rules.concordance.similarity import bilingual_agreement
    from judge.rules.concordance.views import DiffMark, inline_view, side_view
    from judge.rules.text import fold, normalize_title

# public name -> the module that defines it: importing the package loads none of them (a
# search names its groups file through `Concordance` alone, without the diff and rapidfuzz)
_WHERE = {
    "CURATED_FILE": "judge.rules.concordance.curated",
    "Comparison": "judge.rules.concordance.comparison",
    "ComparisonError": "judge.rules.concordance.errors",
    "Concordance": "judge.rules.concordance.matching",
    "CuratedData": "judge.rules.concordance.curated",
    "DiffMark": "judge.rules.concordance.views",
    "DiffOp": "judge.rules.concordance.diff",
    "DiffPart": "judge.rules.concordance.diff",
    "KnownChange": "judge.rules.concordance.curated",
    "Link": "judge.rules.concordance.links",
    "METHODS": "judge.rules.concordance.links",
    "Method": "judge.rules.concordance.links",
    "NoCounterpart": "judge.rules.concordance.errors",
    "RENUMBERED_ARROW": "judge.rules.concordance.diff",
    "RuleMissing": "judge.rules.concordance.errors",
    "bilingual_agreement": "judge.rules.concordance.similarity",
    "compare": "judge.rules.concordance.comparison",
    "compared_text": "judge.rules.concordance.diff",
    "counterparts_for": "judge.rules.concordance.comparison",
    "current_edition_for": "judge.rules.concordance.comparison",
    "diff_rules": "judge.rules.concordance.diff",
    "fold": "judge.rules.text",
    "inline_view": "judge.rules.concordance.views",
    "is_cosmetic": "judge.rules.concordance.diff",
    "is_empty_diff": "judge.rules.concordance.diff",
    "load_curated": "judge.rules.concordance.curated",
    "method_label": "judge.rules.concordance.comparison",
    "normalize_title": "judge.rules.text",
    "reference_counterpart": "judge.rules.concordance.comparison",
    "side_view": "judge.rules.concordance.views",
    "summary": "judge.rules.concordance.comparison",
    "tokenize": "judge.rules.concordance.diff",
}

__all__ = [
    "CURATED_FILE",
    "METHODS",
    "RENUMBERED_ARROW",
    "Comparison",
    "ComparisonError",
    "Concordance",
    "CuratedData",
    "DiffMark",
    "DiffOp",
    "DiffPart",
    "KnownChange",
    "Link",
    "Method",
    "NoCounterpart",
    "RuleMissing",
    "bilingual_agreement",
    "compare",
    "compared_text",
    "counterparts_for",
    "current_edition_for",
    "diff_rules",
    "fold",
    "inline_view",
    "is_cosmetic",
    "is_empty_diff",
    "load_curated",
    "method_label",
    "normalize_title",
    "reference_counterpart",
    "side_view",
    "summary",
    "tokenize",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, __all__)

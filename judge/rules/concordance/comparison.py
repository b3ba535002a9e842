"""A rule against its counterpart in another edition, and the concordance as `judge rule`
reads it (counterparts of a rule, where an old reference lands today)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge import fr
from judge.rules.concordance.curated import CuratedData, load_curated
from judge.rules.concordance.errors import NoCounterpart, RuleMissing
from judge.rules.concordance.links import Link
from judge.rules.concordance.matching import Concordance
from judge.rules.concordance.similarity import language_of
from judge.rules.model import Edition, Reference, Rule
from judge.rules.numbers import canonical
from judge.rules.references import nearest_title

if TYPE_CHECKING:
    from judge.rules.concordance.diff import DiffPart

# The word diff (and rapidfuzz under it) is imported where a comparison is made: `judge rule`
# reads its counterparts from this module and compares nothing.


@dataclass(frozen=True)
class Comparison:
    """A rule (`old`) and its counterpart (`new`), with the word diff from one to the other.
    `languages` tells when the two texts are in two languages (2024 keeps some rules in
    English; a translation link): the diff then shows mostly the translation."""

    old: Rule
    new: Rule
    link: Link
    diff: tuple[DiffPart, ...]
    summary: str | None
    languages: tuple[str, str] = ("fr", "fr")

    @property
    def changed(self) -> bool:
        from judge.rules.concordance.diff import is_empty_diff

        return not is_empty_diff(self.diff)

    def to_dict(self) -> dict[str, Any]:
        from judge.rules.concordance.diff import compared_text

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
            "diff": [part.to_json() for part in self.diff],
            "summary": self.summary,
        }


def summary(
    a: Rule, b: Rule, data: CuratedData | None = None, *, backwards: bool | None = None
) -> str | None:
    """A one-line French summary of the change from `a` to `b` when it is a known one.

    `backwards`: `a` is the newer text (a comparison that goes back in time): the known
    changes are read the other way (2024's « le contrôleur en choisit un » against the old
    « tous »). None when the order of the two editions is not known: forwards first, then
    backwards."""
    from judge.rules.concordance.diff import compared_text

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


def compare(conc: Concordance, number: str, from_edition: str, to_edition: str) -> Comparison:
    """Rule `number` of `from_edition` against its counterpart in `to_edition`, in the
    editions of `conc.index`.

    Raises RuleMissing when the rule is not in `from_edition`, NoCounterpart when the
    concordance knows no counterpart with a text to compare (French messages)."""
    index = conc.index
    src = index.edition(from_edition)
    tgt = index.edition(to_edition)
    num = canonical(number)
    old = src.rules.get(num) if num else None
    if old is None or num is None:
        raise _missing(conc, number, from_edition)
    link = conc.counterpart(from_edition, num, to_edition)
    new = tgt.rules.get(link.to_rule) if link is not None else None
    if link is None or new is None or link.approximate:
        raise _no_counterpart(num, src, tgt, link)
    if bool(old.text.strip()) != bool(new.text.strip()):
        missing = (new, to_edition) if old.text.strip() else (old, from_edition)
        raise NoCounterpart(
            f"La règle {num} de l'édition {from_edition} correspond à {link.to_rule}"
            f"{_about(link.to_rule, tgt)} dans l'édition {to_edition}, mais le texte de "
            f"{missing[0].number} ({missing[1]}) n'est pas dans le corpus "
            f"({fr.REFERENCE_STATUS['title_only']}).",
            link,
        )
    languages = (language_of(old, src), language_of(new, tgt))
    from judge.rules.concordance.diff import diff_rules

    diff = tuple(diff_rules(old, new, conc))
    backwards = None if src.order == tgt.order else src.order > tgt.order
    said = summary(old, new, conc.data, backwards=backwards)
    return Comparison(old, new, link, diff, said, languages)


def _missing(conc: Concordance, number: str, edition: str) -> RuleMissing:
    elsewhere = [r.edition for r in conc.index.everywhere(number)]
    nearest = [] if elsewhere else conc.index.nearest(number, edition)
    if elsewhere:
        hint = f" Ce numéro existe dans : {', '.join(elsewhere)}."
    else:
        hint = f" Numéros proches : {', '.join(nearest)}." if nearest else ""
    return RuleMissing(
        f"La règle {number.strip()} n'existe pas dans l'édition {edition}.{hint}", nearest
    )


def _about(number: str, edition: Edition) -> str:
    title = nearest_title(number, edition.rules)
    return f" (« {title} »)" if title else ""


def _no_counterpart(num: str, src: Edition, tgt: Edition, link: Link | None) -> NoCounterpart:
    if link is None:
        same = tgt.rules.get(num)
        other = ""
        if same is not None:
            label = f" « {same.title} »" if same.title else ""
            other = f" Le numéro {num} y désigne une autre règle{label}."
        return NoCounterpart(
            f"La règle {num} de l'édition {src.id} n'a pas d'équivalent connu dans "
            f"l'édition {tgt.id}.{other}"
        )
    status = (
        f", {fr.REFERENCE_STATUS['missing']}." if not link.present else ", sans plus de précision."
    )
    return NoCounterpart(
        f"La règle {num} de l'édition {src.id} n'a pas d'équivalent précis dans "
        f"l'édition {tgt.id} : la concordance indique {link.to_rule}{_about(link.to_rule, tgt)}"
        + status,
        link,
    )


# --- for `judge rule` ------------------------------------------------------------------------


def counterparts_for(conc: Concordance, rule: Rule) -> list[Link]:
    """The rule's counterparts in the other editions (approximate ones flagged), best first
    per edition, editions newest first."""
    return conc.links(rule.edition, rule.number)


def current_edition_for(conc: Concordance, edition: str) -> str | None:
    """The edition a reference of `edition` is best read in today: the newest edition of the
    same language newer than it, else the newest edition; None when that is `edition` itself."""
    index = conc.index
    src = index.edition(edition)
    newer = [e for e in index.editions if e.order > src.order]
    same_language = [e for e in newer if e.language == src.language]
    best = same_language or newer
    return best[0].id if best else None


def reference_counterpart(
    conc: Concordance, reference: Reference, target_edition: str | None = None
) -> Link | None:
    """Where a reference of an old edition (2011's « Cf. règle 119.3 », the old text's
    « voir règle 314 ») lands in `target_edition` (by default the current edition, see
    `current_edition_for`), when the concordance knows it."""
    target = target_edition or current_edition_for(conc, reference.edition)
    if target is None or target == reference.edition:
        return None
    return conc.counterpart(reference.edition, reference.target, target)


def method_label(method: str) -> str:
    """How a link was found, in French (`judge.fr.METHOD`)."""
    return fr.METHOD.get(method, method)


def has_text(rule: Rule | None) -> bool:
    return rule is not None and not rule.title_only and bool(rule.text.strip())


def covers(conc: Concordance, rule: Rule, ed: Edition) -> bool:
    """Whether `ed`'s corpus holds the section of `rule` at all: a shipped fragment (2011's
    118 alone) says nothing of the rules it does not contain."""
    section = rule.number.split(".")[0]
    if ed.id == rule.edition:
        return True
    link = conc.counterpart(rule.edition, section, ed.id)
    return link is not None and conc.is_present(ed.id, link.to_rule)

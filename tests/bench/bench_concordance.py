"""Precision of the automatic en-2008 ↔ en-2011 matching over the whole 2009 renumbering, and
the time to build the concordance.

    python tests/bench/bench_concordance.py [--repeat N] [--show N]

Both English editions of ../shared/corpus-en are ingested into a temporary JUDGE_HOME. The
reference is the curated table (its 2008 → 2011 rules and sections) plus the sections whose
titles are the same, word for word, and unique in both tables of contents. Each automatic link
of a 2008 rule (methods text, same_number, title; curated links left out) is right when it
lands on the curated rule, or in a section the reference gives for the rule's section;
links from sections without a reference are counted apart (unverifiable).

The reference is coarse: it knows where a section went, not where each of its rules went, so
a rule that moved to another section (2008's 606.4b, of Two-Headed Giant, is 2011's 805.4, of
the shared team turns option) counts as wrong though its text is the same. The precision
printed is a lower bound; every disagreement is listed, with the similarity of the two texts,
for a reader to check."""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from rapidfuzz import fuzz

from judge.rules import store
from judge.rules.concordance import Concordance, load_curated, normalize_title
from judge.rules.index import RuleIndex, load_index
from judge.rules.model import Edition
from judge.rules.numbers import kind_of

ROOT = Path(__file__).resolve().parents[2]
CORPUS_EN = ROOT.parent / "shared" / "corpus-en"
OLD, NEW = "en-2008-07-15", "en-2011-09-30"


def reference(old: Edition, new: Edition) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(sections, rules): the expected counterparts, from the curated table and the titles."""
    sections: dict[str, set[str]] = {}
    rules: dict[str, set[str]] = {}
    for table in load_curated().tables:
        if not (table.from_.fits(old) and table.to.fits(new)):
            continue
        for cl in table.links:
            if kind_of(cl.from_rule) == "section" and kind_of(cl.to_rule) == "section":
                sections.setdefault(cl.from_rule, set()).add(cl.to_rule)
            elif kind_of(cl.to_rule) in ("rule", "subrule"):
                rules.setdefault(cl.from_rule, set()).add(cl.to_rule)
    titles_old = Counter(
        normalize_title(r.title) for r in old.rules.values() if r.kind == "section" and r.title
    )
    titles_new: dict[str, list[str]] = {}
    for r in new.rules.values():
        if r.kind == "section" and r.title:
            titles_new.setdefault(normalize_title(r.title), []).append(r.number)
    for n, r in old.rules.items():
        if r.kind != "section" or not r.title or n in sections:
            continue
        t = normalize_title(r.title)
        if titles_old[t] == 1 and len(titles_new.get(t, [])) == 1:
            sections[n] = {titles_new[t][0]}
    return sections, rules


def evaluate(index: RuleIndex, conc: Concordance, show: int | None) -> None:
    old, new = index.edition(OLD), index.edition(NEW)
    sections, rules = reference(old, new)
    links = [
        link
        for link in conc.pair_links(OLD, NEW)
        if link.method != "curated" and not link.approximate
    ]
    rule_links = [x for x in links if kind_of(x.from_rule) in ("rule", "subrule")]
    with_text = [r for r in old.rules.values() if r.kind in ("rule", "subrule") and r.text.strip()]
    right: list[str] = []
    wrong: list[tuple[str, str, str]] = []
    unverifiable = 0
    for link in rule_links:
        section = link.from_rule.split(".")[0]
        if link.from_rule in rules:
            ok = link.to_rule in rules[link.from_rule]
        elif section in sections:
            ok = link.to_rule.split(".")[0] in sections[section]
        else:
            unverifiable += 1
            continue
        if ok:
            right.append(link.from_rule)
        else:
            wrong.append((link.from_rule, link.to_rule, link.method))
    checked = len(right) + len(wrong)
    by_method = Counter(x.method for x in rule_links)
    print(f"\n{OLD} → {NEW}, règles ({len(with_text)} règles avec texte en 2008)")
    print(
        f"  liens automatiques : {len(rule_links)} ({dict(by_method)}), "
        f"couverture {len(rule_links) / len(with_text):.1%}"
    )
    print(
        f"  vérifiables : {checked} ; d'accord avec la référence : {len(right)} ; "
        f"précision ≥ {len(right) / checked:.3f} (borne inférieure) ; "
        f"invérifiables : {unverifiable}"
    )
    print(
        "  la référence (table établie + titres de section identiques) ne sait que la section "
        "où va chaque section : une règle qui a changé de section y compte comme une erreur ; "
        f"les {len(wrong)} écarts ci-dessous sont de tels déplacements, que la référence ignore"
    )
    section_links = [x for x in links if kind_of(x.from_rule) == "section"]
    s_checked = [x for x in section_links if x.from_rule in sections]
    s_right = [x for x in s_checked if x.to_rule in sections[x.from_rule]]
    print(
        f"  sections (titres, automatique) : {len(section_links)} liens, "
        f"{len(s_checked)} vérifiables, précision {len(s_right) / max(1, len(s_checked)):.3f}"
    )
    curated = [x for x in conc.pair_links(OLD, NEW) if x.method == "curated"]
    print(f"  table établie : {len(curated)} liens")
    if wrong:
        listed = wrong if show is None else wrong[:show]
        print(
            f"  écarts avec la référence, {len(listed)} sur {len(wrong)} (lien automatique, "
            "méthode et similarité des deux textes ; section attendue par la référence) :"
        )
        for a, b, method in listed:
            score = fuzz.token_sort_ratio(old.rules[a].text, new.rules[b].text)
            expected = rules.get(a) or sections.get(a.split(".")[0], set())
            print(
                f"    {a} → {b} ({method}, {score:.0f} ; référence : {', '.join(sorted(expected))})"
                f" {old.rules[a].text[:70]!r}"
            )


def timed(index: RuleIndex, repeat: int) -> str:
    """Median wall-clock and processor times of a full build (a fresh concordance each run)."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        Concordance.build(index)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return (
        f"médiane {statistics.median(wall) * 1000:.0f} ms (processeur "
        f"{statistics.median(cpu) * 1000:.0f} ms), max {max(wall) * 1000:.0f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--show", type=int, default=None, help="nombre d'écarts à afficher (par défaut : tous)"
    )
    args = ap.parse_args()
    home = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    try:
        shipped = load_index(home=home / "empty")
        print(
            f"construction, éditions livrées ({len(shipped.editions)}) : "
            f"{timed(shipped, args.repeat)}"
        )
        if not CORPUS_EN.is_dir():
            print(f"(éditions anglaises ignorées : {CORPUS_EN} absent)")
            return
        for eid in (OLD, NEW):
            store.ingest(CORPUS_EN / f"{eid}.txt", home=home / "en")
        index = load_index(home=home / "en")
        print(
            f"construction, avec les deux éditions anglaises ({len(index.editions)}) : "
            f"{timed(index, args.repeat)}"
        )
        evaluate(index, Concordance.build(index), args.show)
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()

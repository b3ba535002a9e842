"""Search relevance and latency: ours against Ctrl-F and SQLite FTS5.

    python tests/bench/bench_search.py [--repeat N] [--all-editions]

Over the relevance set (tests/search/relevance.toml), for each query kind: recall@1,
recall@5 and MRR@10 (a hit counts with the copies folded into it, `also`) of
  - ours      judge.search (whoosh, French analysis, glossary, typo correction)
  - ctrl-f    a case-insensitive substring search over the same paragraphs, in document
              order (what a reader does in a PDF or a web page)
  - fts5      SQLite FTS5, tokenize='unicode61 remove_diacritics 2', the query's words
              ANDed (FTS5's default), ranked by bm25
then latency p50 / p99 per query (warm; wall clock and CPU time side by side), the build
time and the cold opening time of the index. First on the shipped corpus, then with both
English editions of ../shared/corpus-en ingested into a temporary JUDGE_HOME (skipped with
a message when absent), where the English judge questions (relevance-en.toml) are scored too.

`--all-editions` then ingests the 26 English editions of ../shared/corpus-en (its two files
and archive/*.txt) into a temporary JUDGE_HOME, as `judge ingest` does (the search segments are
built on the way), and prints: the ingest time (wall and CPU), the time to ingest one more
edition until a fresh process' first search answers, then the first search of a fresh process
again (the median of several: nothing is left to build; the package's bytecode compiled, as
installed; `python -c pass` beside it), warm latency beside FTS5 over the same paragraphs, peak
memory and the index size against the source size.

`--archive` adds, after the two English editions, the relevance with all 26 ingested: what the
French queries lose, the English questions, and the distinct rules among the first ten hits,
with copies grouped by number and by the concordance.

Targets (issue 14): recall@1 ≥ 0.95 and MRR@10 ≥ 0.97 (shipped corpus); MRR@10 ≥ 0.90 on
the English questions; p99 ≤ 30 ms warm and within 3× FTS5's p99; cold opening < 0.5 s."""

from __future__ import annotations

import argparse
import compileall
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judge.rules import store  # noqa: E402
from judge.rules.index import RuleIndex, load_index  # noqa: E402
from judge.search.index import build  # noqa: E402
from judge.search.query import Searcher  # noqa: E402
from tests.search.relevance import (  # noqa: E402
    KINDS,
    RELEVANCE_EN_FILE,
    Judged,
    by_group,
    evaluate,
    group_keys,
    hit_keys,
    load_relevance,
)

CORPUS_EN = ROOT.parent / "shared" / "corpus-en"
EN_FILES = [CORPUS_EN / "en-2011-09-30.txt", CORPUS_EN / "en-2008-07-15.txt"]

Ranker = Callable[[str], list[str]]


# --- the baselines -----------------------------------------------------------------------


@dataclass(frozen=True)
class Doc:
    edition: str
    rule: str
    text: str


def documents(index: RuleIndex) -> list[Doc]:
    """The same units ours indexes: each paragraph (the first one with its number, as the
    document prints it) and each title-only rule's title; editions newest first."""
    docs: list[Doc] = []
    for ed in index.editions:
        for rule in ed.rules.values():
            if rule.paragraphs:
                for i, p in enumerate(rule.paragraphs):
                    head = f"{rule.number} " if i == 0 else ""
                    docs.append(Doc(ed.id, rule.number, head + p.text))
            elif rule.title:
                docs.append(Doc(ed.id, rule.number, f"{rule.number}. {rule.title}"))
        for entry in ed.glossary:
            docs.append(Doc(ed.id, entry.term, f"{entry.term} {entry.text}"))
    return docs


def _unique(keys: list[str], limit: int = 10) -> list[str]:
    out: list[str] = []
    for k in keys:
        if k not in out:
            out.append(k)
            if len(out) == limit:
                break
    return out


def ctrl_f(docs: list[Doc]) -> Ranker:
    lowered = [(d, d.text.casefold()) for d in docs]

    def rank(q: str) -> list[str]:
        needle = q.strip().casefold()
        if not needle:
            return []
        return _unique([f"{d.edition}/{d.rule}" for d, text in lowered if needle in text])

    return rank


def fts5(docs: list[Doc]) -> Ranker:
    db = sqlite3.connect(":memory:")
    db.execute(
        "CREATE VIRTUAL TABLE d USING fts5(edition UNINDEXED, rule UNINDEXED, body, "
        "tokenize='unicode61 remove_diacritics 2')"
    )
    db.executemany("INSERT INTO d VALUES (?, ?, ?)", [(d.edition, d.rule, d.text) for d in docs])

    def rank(q: str) -> list[str]:
        words = [w for w in re.findall(r"\w+", q) if w]
        if not words:
            return []
        match = " ".join('"' + w.replace('"', '""') + '"' for w in words)
        try:
            rows = db.execute(
                "SELECT edition, rule FROM d WHERE d MATCH ? ORDER BY bm25(d) LIMIT 100", (match,)
            ).fetchall()
        except sqlite3.Error:
            return []
        return _unique([f"{e}/{r}" for e, r in rows])

    return rank


def ours(searcher: Searcher) -> Ranker:
    def rank(q: str) -> list[str]:
        return hit_keys(searcher.search(q, limit=10).hits)

    return rank


# --- measuring ---------------------------------------------------------------------------


def latencies(
    rank: Ranker, judged: list[Judged], repeat: int
) -> tuple[list[float], list[float], list[float]]:
    """(first pass, warm passes, warm CPU) in milliseconds. The first pass reads each term's
    postings from disk into the searcher's caches; later passes find them there. CPU time
    beside wall time: on a shared machine the wall clock also counts the neighbours."""
    first: list[float] = []
    for j in judged:
        start = time.perf_counter()
        rank(j.q)
        first.append((time.perf_counter() - start) * 1000)
    out: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        for j in judged:
            start, start_cpu = time.perf_counter(), time.process_time()
            rank(j.q)
            out.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    return first, out, cpu


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


_COLD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    t0 = time.perf_counter()
    from judge.rules.index import load_index
    from judge.search.query import Searcher
    t1 = time.perf_counter()
    index = load_index(home=Path(sys.argv[1]))
    t2 = time.perf_counter()
    s = Searcher(index, home=Path(sys.argv[2]))
    t3 = time.perf_counter()
    s.search("cimetière")
    t4 = time.perf_counter()
    # VmHWM, not ru_maxrss: the latter keeps the parent's peak across exec
    status = Path("/proc/self/status").read_text().splitlines()
    peak = next(int(x.split()[1]) for x in status if x.startswith("VmHWM")) / 1024
    print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, peak, time.process_time())
    """
)


def cold_open(rules_home: Path, search_home: Path) -> tuple[float, ...]:
    """(imports, rules loading, search opening, first query) in seconds, then the
    process' peak memory (MB), its CPU time (s) and its whole life, start to exit (s).
    The package's bytecode is compiled first, as an installed package has it (else a
    process that may not write it, as under PYTHONDONTWRITEBYTECODE, compiles every
    module it imports)."""
    compileall.compile_dir(ROOT / "judge", quiet=1)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _COLD, str(rules_home), str(search_home)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=ROOT,
    ).stdout.split()
    whole = time.perf_counter() - start
    return (*(float(x) for x in out), whole)


def bare_process() -> float:
    """The peer: `python -c pass`, start to exit (median of 5)."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def print_scores(scores: dict[str, Any], title: str) -> None:
    print(f"\n{title}")
    names = list(scores)
    print(f"{'type':<11} {'n':>3}  " + "  ".join(f"{n:>23}" for n in names))
    print(f"{'':<11} {'':>3}  " + "  ".join(f"{'R@1':>7} {'R@5':>7} {'MRR@10':>7}" for _ in names))
    kinds = [k for k in KINDS if k in scores[names[0]][0]]
    for kind in [*kinds, "TOTAL"]:
        cells = []
        n = 0
        for name in names:
            per_kind, overall, _ = scores[name]
            s = overall if kind == "TOTAL" else per_kind[kind]
            n = s.n
            cells.append(f"{s.recall1:>7.3f} {s.recall:>7.3f} {s.mrr:>7.3f}")
        print(f"{kind:<11} {n:>3}  " + "  ".join(cells))


def print_latency(times: dict[str, tuple[list[float], list[float], list[float]]], n: int) -> None:
    repeat = len(next(iter(times.values()))[1]) // max(1, n)
    print(
        f"\nlatence par requête (ms) : à chaud ({repeat}×{n} requêtes ; mur et CPU) "
        f"| première passe ({n} requêtes, caches vides)"
    )
    # the neighbours' share of the machine, which the wall clock also counts
    load = ", ".join(f"{x:.2f}".replace(".", ",") for x in os.getloadavg())
    print(f"charge moyenne de la machine (1, 5, 15 min) : {load} sur {os.cpu_count()} cœurs")
    print(
        f"{'':<8} {'p50':>7} {'p99':>7} {'max':>7} {'CPU p50':>8} {'CPU p99':>8} "
        f"| {'p50':>7} {'p99':>7} {'max':>7}"
    )
    for name, (first, warm, cpu) in times.items():
        print(
            f"{name:<8} {statistics.median(warm):>7.2f} {percentile(warm, 99):>7.2f} "
            f"{max(warm):>7.2f} {statistics.median(cpu):>8.2f} {percentile(cpu, 99):>8.2f} "
            f"| {statistics.median(first):>7.2f} {percentile(first, 99):>7.2f} {max(first):>7.2f}"
        )


def run(
    title: str,
    index: RuleIndex,
    rules_home: Path,
    sets: dict[str, list[Judged]],
    repeat: int,
    targets: dict[str, tuple[float, float]],
) -> None:
    """`sets`: name -> queries; `targets`: set name -> (recall@1, MRR@10) to reach."""
    print(f"\n=== {title} ===")
    docs = documents(index)
    eds = ", ".join(ed.id for ed in index.editions)
    print(f"éditions : {eds} ; {len(docs)} paragraphes et titres")
    judged = [j for queries in sets.values() for j in queries]
    with tempfile.TemporaryDirectory(prefix="judge-bench-search-") as tmp:
        search_home = Path(tmp)
        start = time.perf_counter()
        build(index, home=search_home)
        built = time.perf_counter() - start
        imports, load, opening, first_query, *_ = cold_open(rules_home, search_home)
        with Searcher(index, home=search_home) as searcher:
            systems: dict[str, Ranker] = {
                "ours": ours(searcher),
                "ctrl-f": ctrl_f(docs),
                "fts5": fts5(docs),
            }
            # latency first: the first pass must find the searcher's caches empty
            times = {name: latencies(rank, judged, repeat) for name, rank in systems.items()}
            scores = {
                set_name: {name: evaluate(queries, rank) for name, rank in systems.items()}
                for set_name, queries in sets.items()
            }
    for set_name, by_system in scores.items():
        print_scores(by_system, f"pertinence — {set_name}")
    print_latency(times, len(judged))
    p99 = percentile(times["ours"][1], 99)
    fts_p99 = percentile(times["fts5"][1], 99)
    print(f"\nconstruction de l'index : {built:.2f} s")
    print(
        f"ouverture à froid (nouveau processus) : index de recherche {opening * 1000:.0f} ms "
        f"(+ imports {imports * 1000:.0f} ms, chargement des règles {load * 1000:.0f} ms, "
        f"première requête {first_query * 1000:.0f} ms)"
    )
    verdict = [
        ("p99 ≤ 30 ms", p99 <= 30),
        (f"p99 ≤ 3× FTS5 ({fts_p99:.2f} ms)", p99 <= 3 * fts_p99),
        ("ouverture < 0.5 s", opening < 0.5),
    ]
    for set_name, (recall1, mrr) in targets.items():
        overall = scores[set_name]["ours"][1]
        verdict[:0] = [
            (f"{set_name} : recall@1 ≥ {recall1}", overall.recall1 >= recall1),
            (f"{set_name} : MRR@10 ≥ {mrr}", overall.mrr >= mrr),
        ]
    print("objectifs : " + ", ".join(f"{t} {'OK' if ok else 'NON'}" for t, ok in verdict))


def folder_size(root: Path) -> int:
    return sum(f.stat().st_size for f in root.rglob("*") if f.is_file())


def all_editions(repeat: int) -> None:
    """The 26 English editions ingested as a user would (`judge ingest`): 25 in one batch,
    then the newest alone (one more edition), each time until a fresh process answers."""
    from judge import session

    files = sorted([*EN_FILES, *(CORPUS_EN / "archive").glob("en-*.txt")], key=lambda p: p.name)
    if len(files) != 26:
        print(f"\n(26 éditions anglaises attendues dans {CORPUS_EN}, {len(files)} trouvées)")
        return
    print("\n=== les 26 éditions anglaises (machine partagée : le CPU à côté du mur) ===")
    with tempfile.TemporaryDirectory(prefix="judge-bench-all-") as tmp:
        home = Path(tmp)
        start, start_cpu = time.perf_counter(), time.process_time()
        session.ingest_many(files[:-1], home=home)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(
            f"judge ingest de 25 éditions (segments de recherche compris) : {wall:.1f} s mur, "
            f"{cpu:.1f} s CPU"
        )
        start, start_cpu = time.perf_counter(), time.process_time()
        session.ingest(files[-1], home=home)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        cold = cold_open(home, home)
        answered = wall + sum(cold[:4])
        print(
            f"une édition de plus ({files[-1].name}) : ingest {wall:.2f} s mur ({cpu:.2f} s CPU), "
            f"puis première recherche d'un nouveau processus {sum(cold[:4]):.2f} s "
            f"→ {answered:.2f} s jusqu'à la réponse"
        )
        # then more fresh processes: the median one (a single run on a shared machine
        # says little: the same process takes from 0.4 to 0.6 s from one minute to the next)
        runs = [cold, *(cold_open(home, home) for _ in range(max(6, 2 * repeat)))]
        cold = sorted(runs, key=lambda r: sum(r[:4]))[len(runs) // 2]
        imports, load, opening, first_query, peak, cold_cpu, whole = cold
        bare = bare_process()
        index = load_index(home=home)
        docs = documents(index)
        search_root = home / "cache" / "search"
        segments = [p for p in (search_root / "segments").iterdir() if not p.name.startswith(".")]
        size = folder_size(search_root)
        source = sum(p.stat().st_size for p in files)
        print(
            f"{len(index.editions)} éditions, {len(docs)} paragraphes et titres ; index de "
            f"recherche {size / 1e6:.1f} Mo en {len(segments)} segments pour {source / 1e6:.1f} Mo "
            f"de texte anglais ({size / source:.2f}×)"
        )
        print(
            f"première recherche d'un nouveau processus, médiane de {len(runs)} : "
            f"{sum(cold[:4]) * 1000:.0f} ms "
            f"(imports {imports * 1000:.0f}, règles {load * 1000:.0f}, ouverture de l'index "
            f"{opening * 1000:.0f}, requête {first_query * 1000:.0f}) ; CPU {cold_cpu:.2f} s ; "
            f"mémoire maximale {peak:.0f} Mo ; le processus entier {whole * 1000:.0f} ms, "
            f"`python -c pass` {bare * 1000:.0f} ms"
        )
        judged = load_relevance(RELEVANCE_EN_FILE)
        # The searcher `judge search` uses (copies grouped by the concordance).
        with session.open_judge(home) as judge:
            searcher = judge.searcher()
            systems: dict[str, Ranker] = {"ours": ours(searcher), "fts5": fts5(docs)}
            times = {name: latencies(rank, judged, repeat) for name, rank in systems.items()}
            scores = {name: evaluate(judged, rank) for name, rank in systems.items()}
        print_scores(scores, "pertinence — questions anglaises, 26 éditions anglaises")
        print_latency(times, len(judged))
        p50, p99 = statistics.median(times["ours"][1]), percentile(times["ours"][1], 99)
        fts_p99 = percentile(times["fts5"][1], 99)
        verdict = [
            ("une édition de plus ≤ 3 s", answered <= 3),
            ("première recherche ≤ 0.5 s", sum(cold[:4]) <= 0.5),
            ("p50 ≤ 5 ms", p50 <= 5),
            ("p99 ≤ 30 ms", p99 <= 30),
            (f"p99 ≤ 3× FTS5 ({fts_p99:.2f} ms)", p99 <= 3 * fts_p99),
            ("mémoire ≤ 300 Mo", peak <= 300),
            ("index ≤ 2× la source", size <= 2 * source),
        ]
        print("objectifs : " + ", ".join(f"{t} {'OK' if ok else 'NON'}" for t, ok in verdict))


def by_round(name: str, judged: list[Judged]) -> dict[str, list[Judged]]:
    """The set, then each round apart (round 2: written after tuning, never tuned on)."""
    return {
        name: judged,
        **{
            f"{name}, tour {r}": [j for j in judged if j.round == r]
            for r in sorted({j.round for j in judged})
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="passes sur le jeu pour la latence")
    ap.add_argument(
        "--all-editions",
        action="store_true",
        help="seulement les 26 éditions anglaises ingérées : import, vitesse, mémoire, taille",
    )
    ap.add_argument(
        "--archive",
        action="store_true",
        help="aussi la pertinence avec les 26 éditions anglaises (quelques minutes)",
    )
    args = ap.parse_args()
    if args.all_editions:
        all_editions(args.repeat)
        return
    judged = load_relevance()
    with tempfile.TemporaryDirectory(prefix="judge-bench-home-") as tmp:
        empty = Path(tmp) / "empty"
        run(
            "corpus livré",
            load_index(home=empty),
            empty,
            by_round("corpus livré", judged),
            args.repeat,
            # the targets, on every round and on the round the ranking was tuned on
            targets={"corpus livré": (0.95, 0.97), "corpus livré, tour 1": (0.95, 0.97)},
        )
        if not all(p.is_file() for p in EN_FILES):
            print(f"\n(éditions anglaises ignorées : {CORPUS_EN} absent)")
            return
        home = Path(tmp) / "with-en"
        for path in EN_FILES:
            store.ingest(path, home=home)
        print(
            "\n(avec les éditions anglaises, le jeu du corpus livré ne connaît que les réponses "
            "françaises : une règle anglaise classée devant pour une requête en anglais y compte "
            "comme une erreur ; les questions anglaises ont leurs propres réponses)"
        )
        sets = {
            "corpus livré": judged,
            **by_round("questions anglaises", load_relevance(RELEVANCE_EN_FILE)),
        }
        run(
            "corpus livré + en-2011-09-30 + en-2008-07-15",
            load_index(home=home),
            home,
            sets,
            args.repeat,
            targets={
                "questions anglaises": (0.0, 0.90),
                "questions anglaises, tour 1": (0.0, 0.90),
            },
        )
        if args.archive:
            archive(Path(tmp) / "archive", empty, judged)


def archive(home: Path, empty: Path, judged: list[Judged]) -> None:
    """The 26 English editions ingested: what the French queries lose (target: at most 0.02
    MRR@10) and how many distinct rules the first ten hits hold (target: 9 on average)."""
    files = [*EN_FILES, *sorted((CORPUS_EN / "archive").glob("en-*.txt"))]
    from judge import session

    start, start_cpu = time.perf_counter(), time.process_time()
    session.ingest_many(files, home=home)  # as a user would: pairs and search prepared
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(f"\n=== corpus livré + {len(files)} éditions anglaises ===")
    print(f"import : {wall:.0f} s (CPU {cpu:.0f} s)")
    # French text queries: rule numbers list every edition's copy by design
    french = [j for j in judged if j.kind not in ("english", "number")]
    english = load_relevance(RELEVANCE_EN_FILE)
    with tempfile.TemporaryDirectory(prefix="judge-bench-search-") as tmp:
        with Searcher(load_index(home=empty), home=Path(tmp)) as alone:
            _, before, _ = evaluate(french, ours(alone))
        index = load_index(home=home)
        from judge.rules.concordance import Concordance
        from judge.search.groups import ConcordanceGroups

        conc = Concordance(index, folder=store.cache_dir(home))
        start, start_cpu = time.perf_counter(), time.process_time()
        with Searcher(index, home=Path(tmp)) as searcher:
            wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            print(f"index de recherche : {wall:.0f} s (CPU {cpu:.0f} s ; machine partagée)")
            groups = ConcordanceGroups(conc)
            start, start_cpu = time.perf_counter(), time.process_time()
            groups(index.editions[0].id, "100.1")
            wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            print(f"groupes de la concordance : {wall:.2f} s (CPU {cpu:.2f} s), une fois")
        for name, key in (("numéro et numérotation", None), ("concordance", groups)):
            # a searcher of its own per grouping (it remembers each document's group)
            with Searcher(index, home=Path(tmp), group_key=key) as searcher:
                _, after, _ = evaluate(french, ours(searcher))
                _, en, _ = evaluate(english, ours(searcher))
                _, en_read, _ = evaluate(
                    by_group(english, groups),
                    lambda q: group_keys(searcher.search(q, limit=10).hits, groups),
                )
                tops = [searcher.search(j.q, limit=10).hits for j in [*french, *english]]
                distinct = [distinct_rules(conc, hits) for hits in tops if hits]
                mean = sum(distinct) / max(1, len(distinct))
                print(f"copies regroupées par {name} :")
                print(
                    f"  requêtes françaises ({len(french)}) : MRR@10 {before.mrr:.3f} → "
                    f"{after.mrr:.3f} (perte {before.mrr - after.mrr:+.3f} ; objectif ≤ 0.02), "
                    f"recall@1 {before.recall1:.3f} → {after.recall1:.3f}"
                )
                print(
                    f"  questions anglaises ({len(english)}) : MRR@10 {en.mrr:.3f}, "
                    f"recall@1 {en.recall1:.3f} ; réponses et résultats lus par la "
                    f"concordance (le renvoi d'une entrée du glossaire de 2025 vers 702.4 "
                    f"répond pour le 702.4 de 2011) : MRR@10 {en_read.mrr:.3f}, "
                    f"recall@1 {en_read.recall1:.3f}"
                )
                print(
                    f"  règles distinctes parmi les 10 premiers résultats : {mean:.2f} en "
                    "moyenne (objectif ≥ 9 ; deux résultats sont la même règle quand la "
                    "concordance les relie)"
                )


def distinct_rules(conc: Any, hits: Any) -> int:
    """How many different rules the hits show: two hits of different editions are the same
    rule when the concordance links one to the other (renumbered copies included)."""
    seen: list[tuple[str, str]] = []
    for h in hits:
        same = h.kind != "glossary" and any(
            edition != h.edition
            and (link := conc.counterpart(h.edition, h.rule, edition, approximate=False))
            is not None
            and link.to_rule == rule
            for edition, rule in seen
        )
        if not same:
            seen.append((h.edition, h.rule))
    return len(seen)


if __name__ == "__main__":
    main()

"""Scale: every command over a store of all the shared editions (the archive issue's targets).

    python tests/bench/bench_scale.py [--repeat 5] [--keep HOME]

Ingests the 26 English editions of ../shared/corpus-en/ and its archive/ (their .txt files)
into a new JUDGE_HOME, beside the 3 shipped French ones (29 editions), with one `judge
ingest` process, then times each command as a whole process (`judge …`, `--repeat` runs,
median and max): wall time, CPU time of the process (user + system) and its peak memory
(maximum resident set). In the same run, two peers on the same machine: `python -c pass`
(an interpreter that does nothing) and a SQLite FTS5 query over the rule texts of the newest
edition (one process: open, query, print), so that a busy machine shows up in the peers too.

Printed beside each target of the issue:
- ingesting all 26 (everything the next command needs: parsed editions, concordance) ≤ 3 min;
- `judge rule 704.5a` warm ≤ 0.3 s, and the first `judge rule` after ingesting one more
  edition ≤ 1 s (the ingest itself is shown too);
- `judge export --edition en-2019-07-12` ≤ 1 s: the edition's first (it computes the
  edition's table and keeps it) apart from the next ones (they read it back), and the first
  after a remove and after ingesting one more edition (the remove and the ingest compute
  the table of the editions exported last again: they are shown too);
  `judge history 704.5j` ≤ 0.5 s;
- `judge changes` (the two newest English editions) ≤ 2 s;
- peak memory of any of these ≤ 400 MB."""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from judge.rules import store

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpus-en"
LAST = "en-2025-11-14.txt"  # removed, then ingested again: "after an ingest"


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    rss_mb: float


def run(argv: list[str], env: dict[str, str]) -> Run:
    """One process, its wall time, its CPU time and its peak memory (from wait4)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"échec : {' '.join(argv)}\n{err}")
    if proc.stderr:
        proc.stderr.close()
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def median(runs: list[Run]) -> tuple[Run, Run]:
    def pick(f: str) -> float:
        return statistics.median(getattr(r, f) for r in runs)

    mid = Run(pick("wall"), pick("cpu"), pick("rss_mb"))
    top = Run(*(max(getattr(r, f) for r in runs) for f in ("wall", "cpu", "rss_mb")))
    return mid, top


def fts5_peer(home: Path) -> list[str]:
    """A process that opens an FTS5 table over the newest edition's texts and queries it."""
    db = home / "peer.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE VIRTUAL TABLE t USING fts5(number, body)")
    number = None
    with (SHARED / "archive" / LAST).open(encoding="utf-8-sig") as fh:
        for line in fh:
            head = line.split(" ", 1)
            if head[0][:3].isdigit() and "." in head[0]:
                number = head[0]
                con.execute("INSERT INTO t VALUES (?, ?)", (number, line))
    con.commit()
    con.close()
    code = (
        "import sqlite3,sys;c=sqlite3.connect(sys.argv[1]);"
        "print(c.execute(\"SELECT number FROM t WHERE t MATCH 'legendary AND graveyard' "
        'LIMIT 10").fetchall())'
    )
    return [sys.executable, "-c", code, str(db)]


def load() -> str:
    """The load averages over 1, 5 and 15 minutes, and the cores."""
    averages = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{averages} (1, 5, 15 min), {os.cpu_count()} cœurs"


def documents() -> list[str]:
    found = sorted(SHARED.glob("*.txt")) + sorted((SHARED / "archive").glob("*.txt"))
    return [str(p) for p in found]


def show(label: str, target: str, runs: list[Run]) -> float:
    mid, top = median(runs)
    print(
        f"{label:<44} {target:>9}  {mid.wall:7.3f} s  {mid.cpu:7.3f} s  "
        f"{top.wall:7.3f} s  {top.rss_mb:7.0f} Mo"
    )
    return top.rss_mb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="garder le JUDGE_HOME dans ce dossier")
    args = parser.parse_args()
    docs = documents()
    if len(docs) != 26:
        print(f"../shared/corpus-en : {len(docs)} éditions au lieu de 26", file=sys.stderr)
        return 2
    home = Path(args.keep or tempfile.mkdtemp(prefix="judge-scale-"))
    env = {**os.environ, "JUDGE_HOME": str(home)}
    judge = [sys.executable, "-m", "judge"]
    print(f"{len(docs)} éditions anglaises + 3 françaises livrées = {len(docs) + 3} éditions")
    # A busy machine shows up here too (the first export's second process waits for a core).
    print(f"charge de la machine au départ : {load()}")
    print(
        f"{'mesure':<44} {'cible':>9}  {'mur (méd.)':>9}  {'CPU (méd.)':>9}  "
        f"{'mur (max)':>9}  {'mém. max':>9}"
    )
    peaks = [show("python -c pass (pair)", "", [run([sys.executable, "-c", "pass"], env)])]
    peaks.append(
        show("ingestion des 26 (un processus)", "≤ 180 s", [run([*judge, "ingest", *docs], env)])
    )

    def timed(label: str, target: str, argv: list[str]) -> None:
        peaks.append(show(label, target, [run([*judge, *argv], env) for _ in range(args.repeat)]))

    peer = fts5_peer(home)
    show("SQLite FTS5, une requête (pair)", "", [run(peer, env) for _ in range(args.repeat)])
    timed("judge rule 704.5a (à chaud)", "≤ 0.3 s", ["rule", "704.5a"])
    timed("judge history 704.5j", "≤ 0.5 s", ["history", "704.5j"])
    timed("judge changes (deux plus récentes)", "≤ 2 s", ["changes"])
    export = ["export", "--edition", "en-2019-07-12"]
    # An edition's first export computes its table and keeps it on disk; the next ones read
    # it back: shown apart. The first one again and again, its table deleted each time: the
    # same work as the first export of a new state of the store (one run says little on a
    # shared machine).
    first = []
    for _ in range(args.repeat):
        for kept in (store.cache_dir(home) / "export").glob("*"):
            kept.unlink()
        first.append(run([*judge, *export], env))
    peaks.append(show("judge export en-2019-07-12 (sa 1re)", "≤ 1 s", first))
    timed("judge export en-2019-07-12 (les suivantes)", "≤ 1 s", export)
    after: list[Run] = []
    ingests: list[Run] = []
    removes: list[Run] = []
    removed: list[Run] = []
    exports: list[Run] = []
    for _ in range(max(1, args.repeat // 2)):
        # The remove computes again the table of the edition exported last, for the store it
        # leaves; the export after it reads it.
        removes.append(run([*judge, "remove", "en-2025-11-14"], env))
        removed.append(run([*judge, *export], env))
        ingests.append(run([*judge, "ingest", str(SHARED / "archive" / LAST)], env))
        after.append(run([*judge, "rule", "704.5a"], env))
        exports.append(run([*judge, *export], env))
    peaks.append(show("judge remove d'une édition", "", removes))
    peaks.append(show("judge export en-2019-07-12 après un retrait", "≤ 1 s", removed))
    peaks.append(show("judge ingest d'une édition de plus", "", ingests))
    peaks.append(show("judge rule 704.5a juste après", "≤ 1 s", after))
    peaks.append(show("judge export en-2019-07-12 juste après", "≤ 1 s", exports))
    print(f"{'mémoire maximale, toutes commandes':<44} {'≤ 400 Mo':>9}  {max(peaks):7.0f} Mo")
    self_usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"(ce script : {self_usage.ru_utime + self_usage.ru_stime:.2f} s de CPU)")
    print(f"charge de la machine à la fin : {load()}")
    if not args.keep:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The app in a real browser (Debian's Chromium, headless), as a judge uses it:

1. from `judge app` (as the README starts it) to the first search results on screen, from a
   cold start with an empty JUDGE_HOME (no cached rule index, no search index on disk), then
   again with a new server on the indexes now on disk;
2. from Enter in the search box to the results (every query, several passes);
3. search, click on the first result, Back, in one visit: from the click to the rule's text on
   screen, and to the end of the page's run (history, counterparts, neighbourhood: drawn
   after the text).

    nice python tests/bench/bench_app.py [--repeat N] [--cold N]

Targets (issue 13): first results < 3 s, search p90 < 300 ms, rule page < 500 ms. Each figure
comes with the server's CPU time over the same span (the browser's own work is the rest of
the wall time), and a peer measured in the same run: a fixed pure-Python loop, timed before
and after, whose time says how busy the machine was, with the load average. Each cold start
is measured `--cold` times (a new empty JUDGE_HOME each time, then a new server each time on
the indexes on disk). Nothing is asserted: the figures are printed for a person to read
against the targets."""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.server import browser_missing, chromium, streamlit_server, wait_idle  # noqa: E402

# Consecutive queries have different first results (checked below).
QUERIES = [
    "poison",
    "contact mortel",
    "704.5g",
    "deathtouch",
    "bibliotheque vide",
    "contcat mortl",
    "légende",
    "marqueurs +1/+1",
]
FIRST_RESULT = """(rule) => {
    const a = document.querySelector('[data-testid="stMain"] a[href*="regle="]');
    return a !== null && a.getAttribute('href').includes('regle=' + rule + '&');
}"""
RULE_TEXT = """(rule) => {
    const h = document.querySelector('[data-testid="stMain"] h2');
    return h !== null && h.textContent.includes(rule)
        && document.querySelector('.st-key-regle-texte p') !== null;
}"""
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def peer() -> float:
    """A fixed amount of pure-Python work (about 0.1 s on an idle core), in seconds."""
    start = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i * i % 7
    return time.perf_counter() - start


def expected_first() -> list[tuple[str, str]]:
    """Each query with the rule the library ranks first (asked in a separate JUDGE_HOME, so
    that the server's start stays cold)."""
    with tempfile.TemporaryDirectory(prefix="judge-bench-expect-") as home:
        saved = os.environ.get("JUDGE_HOME")
        os.environ["JUDGE_HOME"] = home
        try:
            from judge.session import open_judge

            # Through the Judge, as the app asks (copies grouped by the concordance).
            with open_judge() as judge:
                out = [(q, judge.search(q).result.hits[0].rule) for q in QUERIES]
        finally:
            if saved is None:
                os.environ.pop("JUDGE_HOME", None)
            else:
                os.environ["JUDGE_HOME"] = saved
    for (_, a), (_, b) in zip(out, out[1:] + out[:1], strict=True):
        if a == b:
            raise SystemExit(f"deux requêtes consécutives donnent {a} en premier : {out}")
    return out


class Clock:
    """Wall time and the server's CPU time of one span."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def time(self, action: Callable[[], object]) -> tuple[float, float]:
        cpu, wall = cpu_seconds(self.pid), time.perf_counter()
        action()
        return time.perf_counter() - wall, cpu_seconds(self.pid) - cpu


def _figures(label: str, spans: list[tuple[float, float]], target: float) -> None:
    walls = sorted(w for w, _ in spans)
    cpus = sorted(c for _, c in spans)
    p90 = walls[int(0.9 * (len(walls) - 1))]
    print(
        f"{label} ({len(spans)} fois) : médiane {statistics.median(walls) * 1000:.0f} ms, "
        f"90e centile {p90 * 1000:.0f} ms, max {walls[-1] * 1000:.0f} ms "
        f"(cible < {target * 1000:.0f} ms) {'OK' if p90 < target else 'TROP LENT'} ; "
        f"CPU du serveur : médiane {statistics.median(cpus) * 1000:.0f} ms"
    )


def _searches(page: Any, clock: Clock, queries: list[tuple[str, str]], repeat: int) -> None:
    box = page.get_by_label("Rechercher")
    spans = []
    for _ in range(repeat):
        for query, expected in queries:
            box.fill(query)

            def search(expected: str = expected) -> None:
                box.press("Enter")
                page.wait_for_function(FIRST_RESULT, arg=expected, timeout=10_000)

            spans.append(clock.time(search))
    _figures("recherche → résultats", spans, 0.3)


def _rule_pages(page: Any, clock: Clock, url: str, queries: list[tuple[str, str]]) -> None:
    """In one visit of the app, as a judge goes: a search, a click on the first result (until
    the rule's text shows, and until the page's run ends), Back. The first click after the
    app is loaded also loads the code of the rule page's elements (printed apart)."""
    text_spans, whole_spans = [], []
    page.goto(f"{url}/")
    for query, expected in queries:
        box = page.get_by_label("Rechercher")
        box.fill(query)
        box.press("Enter")
        page.wait_for_function(FIRST_RESULT, arg=expected, timeout=20_000)
        wait_idle(page)
        link = page.locator(f'.st-key-recherche-premier a[href*="regle={expected}&"]')
        link = link.filter(visible=True).first
        cpu, start = cpu_seconds(clock.pid), time.perf_counter()
        link.click()
        page.wait_for_function(RULE_TEXT, arg=expected, timeout=10_000)
        text_spans.append((time.perf_counter() - start, cpu_seconds(clock.pid) - cpu))
        wait_idle(page)
        whole_spans.append((time.perf_counter() - start, cpu_seconds(clock.pid) - cpu))
        page.go_back()
        page.wait_for_function(FIRST_RESULT, arg=expected, timeout=20_000)
    first_wall, first_cpu = text_spans[0]
    print(
        f"premier clic après le chargement → texte de la règle : {first_wall * 1000:.0f} ms "
        f"(CPU du serveur {first_cpu * 1000:.0f} ms)"
    )
    _figures("résultat → texte de la règle, clics suivants", text_spans[1:], 0.5)
    _figures("résultat → page de la règle complète (historique, voisinage)", whole_spans, 2.0)


def _cold(
    page: Any, home: Path, then: Callable[[str, Clock], None] | None = None
) -> tuple[float, float, float, float]:
    """From the server's launch to the first results of a search on screen: (seconds until
    healthy, its CPU then, seconds until the results, the server's CPU then)."""
    pids: list[int] = []
    start = time.perf_counter()
    with streamlit_server(home, started=pids.append) as (url, healthy):
        healthy_cpu = cpu_seconds(pids[0])
        page.goto(f"{url}/?q=contact+mortel")
        page.wait_for_function(FIRST_RESULT, arg="704.5h", timeout=60_000)
        cold = time.perf_counter() - start
        cpu = cpu_seconds(pids[0])
        if then is not None:
            then(url, Clock(pids[0]))
    return healthy, healthy_cpu, cold, cpu


def _cold_figures(label: str, runs: list[tuple[float, float, float, float]]) -> None:
    def ms(values: list[float]) -> str:
        return f"médiane {statistics.median(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"

    cold = [r[2] for r in runs]
    print(f"démarrage {label} ({len(runs)} fois) :")
    print(
        f"  serveur prêt (/_stcore/health) : {ms([r[0] for r in runs])} "
        f"(CPU du serveur : {ms([r[1] for r in runs])})"
    )
    verdict = "OK" if statistics.median(cold) < 3 else "TROP LENT"
    print(
        f"  premiers résultats affichés     : {ms(cold)} (cible < 3000 ms) {verdict} "
        f"(CPU du serveur : {ms([r[3] for r in runs])})"
    )


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"charge moyenne {one:.2f} (1 min), {five:.2f} (5 min), {os.cpu_count()} cœurs"


def compile_project() -> str:
    """Write the bytecode of judge/ and ui/ (in their __pycache__, ignored by git), as an
    installation does: with PYTHONDONTWRITEBYTECODE set (as in some shells), every server
    would otherwise compile the library's modules again at its first run — a cost no
    installed app pays. Returns what was done, for the printout."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        note = "PYTHONDONTWRITEBYTECODE est défini : bytecode de judge/ et ui/ écrit d'avance"
    else:
        note = "bytecode de judge/ et ui/ écrit d'avance"
    for folder in ("judge", "ui"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)
    return note


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3, help="passes over the queries")
    ap.add_argument("--cold", type=int, default=3, help="cold starts of each kind")
    args = ap.parse_args()
    missing = browser_missing()
    if missing:
        print(f"ignoré : {missing}")
        return 0
    print(compile_project())
    queries = expected_first()
    before = peer()
    print(f"pair (boucle Python fixe) avant : {before * 1000:.0f} ms ; {_load()}")
    with chromium() as browser, tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp:
        page = browser.new_page(viewport={"width": 390, "height": 844})

        def warm(url: str, clock: Clock) -> None:
            _searches(page, clock, queries, args.repeat)
            _rule_pages(page, clock, url, queries)

        # 1. An empty JUDGE_HOME each time: the rule index is parsed and the search index
        # built on the way.
        empty = [_cold(page, Path(tmp) / f"vide-{n}") for n in range(args.cold)]
        _cold_figures("à froid, dossier vide", empty)
        # 2. A new server each time on a JUDGE_HOME whose indexes are on disk; the last one
        # goes on with the searches and the rule pages.
        home = Path(tmp) / "vide-0"
        last = args.cold - 1
        on_disk = [_cold(page, home, warm if n == last else None) for n in range(args.cold)]
        _cold_figures("à froid, index déjà sur disque", on_disk)
    after = peer()
    print(
        f"pair (boucle Python fixe) après : {after * 1000:.0f} ms "
        f"(plus il dépasse 100 ms, plus la machine était occupée) ; {_load()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Load: N browser-less sessions of the app searching without a pause for S seconds.

    python tests/bench/bench_load.py [--sessions 20] [--seconds 60]

The app runs as a judge starts it (`judge app --address 127.0.0.1`, on a free port), with a
JUDGE_HOME prepared beforehand (rules parsed, search index built): the figures are warm.
Each session is a websocket client that speaks Streamlit's protocol as the browser does,
without the browser: it asks for the Recherche page with a query (`?q=…`), waits for the end
of the script run, then asks for the next query; the sessions start at different places of
the list, so that they do not ask the same thing at the same time. A request is an error
when its run ends with an exception or a compile error, when the first rule shown is not the
one the library ranks first, when the connection drops, or after 30 s without an answer.

Prints the number of requests, the errors (target: 0), the throughput, the latency p50 /
p95 / p99 (wall time from the request to the end of its run), the CPU time of the server
during the load and that of the clients, and, in the same run, peer figures: `python -c
pass` (the interpreter alone), the same queries through the library in one process, and a
SQLite FTS5 query loop over the same rules (tests/bench/bench_search.py's baseline)."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.server import free_port, wait_healthy  # noqa: E402

QUERIES = [
    "poison",
    "contact mortel",
    "704.5g",
    "deathtouch",
    "bibliotheque vide",
    "contcat mortl",
    "légende",
    "marqueurs +1/+1",
    "régénération",
    "règle des légendes",
    "points de vie",
    "aura",
]
REQUEST_TIMEOUT = 30.0


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


# --- what the library answers (the expected first rule) --------------------------------------


def expected_first(home: Path) -> list[tuple[str, str]]:
    """Each query with the rule the library ranks first; builds the caches of `home` on the
    way (rule index, search index), so that the server starts warm."""
    from judge import open_judge

    with open_judge(home) as j:
        return [(q, j.search(q, limit=30).result.hits[0].rule) for q in QUERIES]


# --- one session: a websocket client of the app ----------------------------------------------


async def _one_run(ws: object, rule: str) -> str | None:
    """Read the messages of one script run; None if it went right, else why not."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    first_link: str | None = None
    while True:
        msg = ForwardMsg()
        msg.ParseFromString(await ws.recv())  # type: ignore[attr-defined]
        kind = msg.WhichOneof("type")
        if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            what = element.WhichOneof("type")
            if what == "exception":
                return f"exception : {element.exception.message}"
            if what == "page_link" and first_link is None:
                first_link = element.page_link.query_string
        elif kind == "script_finished":
            if msg.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                return f"fin de script {msg.script_finished}"
            if first_link is None or f"regle={rule}&" not in f"{first_link}&":
                return f"premier résultat {first_link!r}, attendu regle={rule}"
            return None


async def session(
    url: str, queries: list[tuple[str, str]], start: int, deadline: float, tally: Tally
) -> None:
    import websockets
    from streamlit.proto.BackMsg_pb2 import BackMsg

    stream = url.replace("http://", "ws://") + "/_stcore/stream"
    async with websockets.connect(stream, subprotocols=["streamlit"], max_size=None) as ws:  # type: ignore[list-item]
        n = start
        while time.perf_counter() < deadline:
            query, rule = queries[n % len(queries)]
            n += 1
            back = BackMsg()
            back.rerun_script.query_string = urlencode({"q": query})
            t0 = time.perf_counter()
            await ws.send(back.SerializeToString())
            try:
                why = await asyncio.wait_for(_one_run(ws, rule), REQUEST_TIMEOUT)
            except TimeoutError:
                why = f"pas de réponse en {REQUEST_TIMEOUT:.0f} s"
            except websockets.ConnectionClosed as exc:
                tally.errors.append(f"{query!r} : connexion fermée ({exc})")
                return
            tally.latencies.append(time.perf_counter() - t0)
            if why is not None:
                tally.errors.append(f"{query!r} : {why}")


async def load(url: str, queries: list[tuple[str, str]], sessions: int, seconds: float) -> Tally:
    tally = Tally()
    deadline = time.perf_counter() + seconds
    starts = [i * len(queries) // sessions for i in range(sessions)]
    done = await asyncio.gather(
        *(session(url, queries, s, deadline, tally) for s in starts), return_exceptions=True
    )
    tally.errors += [f"session : {e!r}" for e in done if isinstance(e, BaseException)]
    return tally


# --- the server, its CPU time ---------------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux: /proc), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_app(home: Path, log: Path) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    env = {**os.environ, "JUDGE_HOME": str(home)}
    argv = [sys.executable, "-m", "judge", "app", "--port", str(port), "--address", "127.0.0.1"]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv, cwd=home, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, proc)
    return url, proc


def stop_app(proc: subprocess.Popen[bytes]) -> None:
    """Only the process group start_app started."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(15)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


# --- the peers ------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def python_pass(repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def library_and_fts5(home: Path, seconds: float = 2.0) -> tuple[float, float, float]:
    """(p50 of the library's search in one process, p50 and queries per second of an FTS5
    loop over the same rules), on the same queries."""
    from judge import open_judge
    from judge.rules.index import load_index
    from tests.bench.bench_search import documents, fts5

    with open_judge(home) as j:
        ours = []
        for _ in range(3):
            for q in QUERIES:
                t0 = time.perf_counter()
                j.search(q, limit=30)
                ours.append(time.perf_counter() - t0)
    rank = fts5(documents(load_index(home=home)))
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for q in QUERIES:
            t0 = time.perf_counter()
            rank(q)
            times.append(time.perf_counter() - t0)
    return statistics.median(ours), statistics.median(times), len(times) / sum(times)


# --- the report -----------------------------------------------------------------------------


def report(
    tally: Tally, sessions: int, seconds: float, server: float | None, client: float
) -> None:
    n = len(tally.latencies)
    print(f"{sessions} sessions pendant {seconds:.0f} s (Recherche, ?q=…, sans navigateur) :")
    print(f"  requêtes            : {n} ({n / seconds:.1f} par seconde)")
    verdict = "OK" if not tally.errors else "ÉCHEC"
    print(f"  erreurs             : {len(tally.errors)} (cible : 0) {verdict}")
    for line in tally.errors[:10]:
        print(f"    {line}")
    if n:
        p50, p95, p99 = (percentile(tally.latencies, p) * 1000 for p in (50, 95, 99))
        print(
            f"  latence             : p50 {p50:.0f} ms, p95 {p95:.0f} ms, p99 {p99:.0f} ms, "
            f"max {max(tally.latencies) * 1000:.0f} ms"
        )
    shown = "indisponible (pas de /proc)" if server is None else f"{server:.1f} s"
    if server is not None:
        shown += f" ({server / seconds * 100:.0f} % d'un cœur"
        shown += f", {server / n * 1000:.1f} ms par requête)" if n else ")"
    print(f"  CPU du serveur      : {shown}")
    print(f"  CPU des clients     : {client:.1f} s (ce processus)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20, help="sessions simultanées")
    ap.add_argument("--seconds", type=float, default=60, help="durée de la charge (s)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-bench-load-") as tmp:
        home = Path(tmp)
        queries = expected_first(home)
        url, proc = start_app(home, home / "app.log")
        try:
            # Warm-up: one run of every query, the Judge of the server built once.
            asyncio.run(load(url, queries, 1, 0.1))
            asyncio.run(load(url, queries, len(queries), 0.1))
            cpu0, t0 = cpu_seconds(proc.pid), time.process_time()
            tally = asyncio.run(load(url, queries, args.sessions, args.seconds))
            cpu1, client = cpu_seconds(proc.pid), time.process_time() - t0
        finally:
            stop_app(proc)
        server = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
        report(tally, args.sessions, args.seconds, server, client)
        print("\nRepères, même machine, même moment :")
        print(f"  python -c pass                        : {python_pass() * 1000:.0f} ms")
        ours, fts, qps = library_and_fts5(home)
        print(f"  recherche, bibliothèque (1 processus) : p50 {ours * 1000:.1f} ms")
        print(f"  FTS5, mêmes requêtes en boucle        : p50 {fts * 1000:.2f} ms, {qps:.0f}/s")
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())

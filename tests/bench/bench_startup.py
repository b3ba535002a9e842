"""Start-up cost of the commands: what a judge waits for before the first line of output.

    python tests/bench/bench_startup.py [--repeat N] [--root DOSSIER]

For `python -c pass` (the interpreter alone), `import judge`, `import judge.rules.index`,
`judge rule 704.5g`, `judge search cimetière` and `judge sba <plateau>`: the median wall
time and the median CPU time (user + system, from getrusage(RUSAGE_CHILDREN)) over N fresh
processes. Then, from `python -X importtime`, for `import judge`, `judge rule` and
`judge search`: the total import time, the share of the `judge` package, and the ten
packages that cost the most.

Every command runs with a temporary JUDGE_HOME prepared once beforehand (rules parsed and
cached, search index built, bytecode compiled there): the figures are warm, what a judge
sees from the second use on. `--root` measures another checkout (e.g. the code before a
change): it goes first on PYTHONPATH, as does an existing PYTHONPATH when `--root` is not
given."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOARD = "contact-mortel-indestructible-regeneration.json"


@dataclass(frozen=True)
class Command:
    label: str
    args: tuple[str, ...]  # after the interpreter


def commands(root: Path) -> list[Command]:
    board = root / "corpus" / "boards" / BOARD
    return [
        Command("python -c pass", ("-c", "pass")),
        Command("import judge", ("-c", "import judge")),
        Command("import judge.rules.index", ("-c", "import judge.rules.index")),
        Command("judge rule 704.5g", ("-m", "judge", "rule", "704.5g")),
        Command("judge search cimetière", ("-m", "judge", "search", "cimetière")),
        Command(f"judge sba {BOARD}", ("-m", "judge", "sba", str(board))),
    ]


IMPORT_PROFILES = [
    Command("import judge", ("-c", "import judge")),
    Command("judge rule 704.5g", ("-m", "judge", "rule", "704.5g")),
    Command("judge search cimetière", ("-m", "judge", "search", "cimetière")),
]


def environment(root: Path, home: Path) -> dict[str, str]:
    """PYTHONPATH with `root` first, JUDGE_HOME, and the bytecode in `home` too: a checkout
    that is read-only, or being edited, would otherwise be compiled again at every run."""
    path = [str(root)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(path),
        "JUDGE_HOME": str(home),
        "PYTHONPYCACHEPREFIX": str(home / "pycache"),
    }


def run(cmd: Command, env: dict[str, str], *flags: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, *flags, *cmd.args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),  # never the checkout: its judge/ would shadow --root
        check=False,
    )
    # `judge sba` answers 1 when it finds something to do: any other failure is a failure
    if done.returncode not in (0, 1) or (done.returncode and not done.stdout):
        raise SystemExit(f"échec de « {cmd.label} » ({done.returncode}) :\n{done.stderr}")
    return done


def timed(cmd: Command, env: dict[str, str], repeat: int) -> tuple[float, float]:
    """Median wall time and median CPU time (s) of `repeat` fresh processes."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run(cmd, env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return statistics.median(walls), statistics.median(cpus)


@dataclass(frozen=True)
class ImportProfile:
    total_us: int  # every import, top-level entries summed
    judge_us: int  # the imports of the judge package (top-level judge entries)
    by_package: list[tuple[str, int]]  # package -> its modules' own time, costliest first
    modules: int


def parse_importtime(stderr: str) -> ImportProfile:
    """`import time: self [us] | cumulative | name`, a nested import indented under the one
    that triggered it: top-level lines add up to the total, own times per package too."""
    total = judge = modules = 0
    by_package: dict[str, int] = defaultdict(int)
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "[us]" in line:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|", 2)
        package = name.strip().split(".")[0]
        modules += 1
        by_package[package] += int(own)
        if not name.startswith("  "):  # top level: `| name`, one space
            total += int(cumulative)
            if package == "judge":
                judge += int(cumulative)
    ranked = sorted(by_package.items(), key=lambda kv: -kv[1])
    return ImportProfile(total, judge, ranked, modules)


def import_profile(cmd: Command, env: dict[str, str], repeat: int) -> ImportProfile:
    """The run with the median total of `repeat` runs (importtime is noisy)."""
    runs = [parse_importtime(run(cmd, env, "-X", "importtime").stderr) for _ in range(repeat)]
    return sorted(runs, key=lambda p: p.total_us)[len(runs) // 2]


def _us(n: int) -> str:
    return f"{n:,}".replace(",", "\u202f")  # 317 525


def prepare(root: Path, env: dict[str, str]) -> None:
    """Warm the caches once: rules parsed and cached, search index built."""
    for cmd in commands(root)[3:5]:
        run(cmd, env)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10, help="processus par mesure")
    ap.add_argument("--root", type=Path, default=None, help="checkout mesuré")
    args = ap.parse_args()
    first_path = os.environ.get("PYTHONPATH", "").split(os.pathsep)[0]
    root = (args.root or (Path(first_path) if first_path else ROOT)).resolve()
    with tempfile.TemporaryDirectory(prefix="judge-bench-startup-") as tmp:
        env = environment(root, Path(tmp))
        where = run(Command("judge", ("-c", "import judge; print(judge.__file__)")), env)
        print(f"code mesuré : {Path(where.stdout.strip()).parent}")
        print(f"interpréteur : {sys.executable} (Python {sys.version.split()[0]})")
        prepare(root, env)
        print(
            f"caches chauds : JUDGE_HOME temporaire ({tmp}) préparé une fois "
            "(règles analysées et mises en cache, index de recherche construit, "
            "bytecode compilé)"
        )
        print(f"\nmédianes sur {args.repeat} processus")
        print(f"{'commande':<56} {'horloge':>10} {'CPU':>10}")
        for cmd in commands(root):
            wall, cpu = timed(cmd, env, args.repeat)
            print(f"{cmd.label:<56} {wall * 1000:>8.0f}ms {cpu * 1000:>8.0f}ms")

        repeat = max(1, min(args.repeat, 5))
        print(f"\npython -X importtime (la médiane de {repeat} exécutions ; µs)")
        for cmd in IMPORT_PROFILES:
            p = import_profile(cmd, env, repeat)
            total, judge = _us(p.total_us), _us(p.judge_us)
            print(
                f"\n{cmd.label} : {total} µs d'imports au total ({p.modules} modules), "
                f"dont {judge} µs pour les modules judge (et ce qu'ils chargent)"
            )
            print("  les 10 paquets les plus coûteux (temps propre de leurs modules) :")
            for package, own in p.by_package[:10]:
                print(f"    {package:<24} {_us(own):>10} µs")


if __name__ == "__main__":
    main()

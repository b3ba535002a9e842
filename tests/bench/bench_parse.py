"""Time to parse and cross-reference each shipped edition and each English edition.

    python tests/bench/bench_parse.py [--repeat N]

Target: a full ~1 MB official text parsed and cross-referenced in under 2 s."""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from judge.rules.decode import read_document
from judge.rules.edition import EditionMeta, build_edition
from judge.rules.index import CORPUS_DIR, manifest_metas, parse_edition
from judge.rules.layouts import parse_text
from judge.rules.model import SourceFile

ROOT = Path(__file__).resolve().parents[2]
CORPUS_EN = ROOT.parent / "shared" / "corpus-en"


def timed(fn: object, repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), max(runs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"{'édition':<16} {'taille':>10} {'règles':>7} {'médiane':>10} {'max':>10}")
    for meta in manifest_metas(CORPUS_DIR):
        size = sum((CORPUS_DIR / s.file).stat().st_size for s in meta.sources)
        ed = parse_edition(meta, CORPUS_DIR)
        med, worst = timed(lambda m=meta: parse_edition(m, CORPUS_DIR), args.repeat)
        print(
            f"{meta.id:<16} {size:>10} {len(ed.rules):>7} "
            f"{med * 1000:>8.1f}ms {worst * 1000:>8.1f}ms"
        )
    if not CORPUS_EN.is_dir():
        print(f"(éditions anglaises ignorées : {CORPUS_EN} absent)")
        return
    for path in sorted(CORPUS_EN.glob("en-*.txt")):

        def run(p: Path = path) -> int:
            text = read_document(p)
            doc = parse_text(text, p.name)
            meta = EditionMeta(
                p.stem,
                p.stem,
                "en",
                doc.date or "",
                "",
                "modern",
                0,
                (SourceFile(p.name, p.name, doc.layout),),
                shipped=False,
            )
            return len(build_edition(meta, [doc]).rules)

        count = run()
        med, worst = timed(run, args.repeat)
        size = path.stat().st_size
        rate = size / 1e6 / med
        print(
            f"{path.stem:<16} {size:>10} {count:>7} {med * 1000:>8.1f}ms {worst * 1000:>8.1f}ms"
            f"   {rate:.2f} Mo/s"
        )
    print("Cible : un texte officiel de ~1 Mo en moins de 2 s (débit ci-dessus ≥ 0,5 Mo/s).")


if __name__ == "__main__":
    main()

"""The CLI invocations frozen by the golden files, one list per group.

Each group runs in its own fresh JUDGE_HOME. A group's cases come in two stages:

* `base_cases(group)`: a fixed list;
* `derived_cases(group, base)`: computed from the *recorded* results of the base cases (the
  rule numbers read from the `export` outputs). At generation time `base` is what the code
  under test just printed; at test time it is the golden data, so the list is the same at
  generation and at test time whatever the current code prints.

An argv may hold placeholders, expanded just before the call (and put back in the outputs):
`$ROOT` (root of the checkout the imported `judge` comes from), `$SHARED` (../shared) and
`$JUDGE_HOME` (the group's temporary home). A case's key is `shlex.join(argv)`, unexpanded.
"""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.search.relevance import RELEVANCE_FILE, load_relevance

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
CORPUS_EN = SHARED / "corpus-en"
EN_EDITIONS = ("en-2011-09-30", "en-2008-07-15")
EN_FILES = {eid: CORPUS_EN / f"{eid}.txt" for eid in EN_EDITIONS}
SHIPPED = ("fr-2024", "fr-2011", "fr-pre2009")
# Boards are listed from this checkout (the baseline's corpus/boards is identical) and run
# from the checkout of the code under test, through $ROOT.
BOARDS = sorted(p.name for p in (REPO / "corpus" / "boards").glob("*.json"))

GROUPS = ("shipped", "english")
# The commands of each group, one test each (a case's command: `command(argv)`).
COMMANDS = {
    "shipped": ("editions", "check", "export", "rule", "compare", "search", "sba"),
    "english": ("ingest", "editions", "check", "export", "rule", "compare", "search"),
}
EN_RULES_PER_EDITION = 200  # about this many `rule` cases per English edition (every k-th)

Argv = list[str]
Result = Mapping[str, Any]  # {"status", "stdout", "stderr"}


# How the cases share state. Until the concordance kept its pairs on disk, a pair was computed
# in the direction first asked for and its links depended on that direction, so in one process
# the counterparts of a rule could depend on the commands run before (`rule 102.4 --edition
# en-2008-07-15` had no counterpart in a new process, two once `export --edition
# en-2011-09-30` had run). A pair is now always matched newer edition first, and read back from
# the cache by later processes; the two ways of running are kept so that a regression shows:
# * `rule`, `compare` and `search` run on one index per group, first warmed by a full
#   `export` (every pair, in the order of the editions), as in a long-running process (the
#   UI);
# * every other command, and a case prefixed with FRESH, runs on its own new index, exactly
#   as a new `judge` process would: the FRESH cases give the same links as the warm ones.
SHARED_INDEX = ("rule", "compare", "search")
FRESH = "@fresh"
WARM_UP: Argv = ["export"]


def key(argv: Sequence[str]) -> str:
    return shlex.join(argv)


def command(argv: Sequence[str]) -> str:
    return argv[1] if argv[0] == FRESH else argv[0]


def command_of_key(k: str) -> str:
    return command(shlex.split(k))


def shares_index(argv: Sequence[str]) -> bool:
    return argv[0] in SHARED_INDEX


def _relevance_queries() -> list[str]:
    assert RELEVANCE_FILE.is_file(), RELEVANCE_FILE
    return [j.q for j in load_relevance()]


# Odd queries: empty, blanks, numbers in odd forms, no hits, options.
ODD_SEARCHES: list[Argv] = [
    ["search", "", "--json"],
    ["search", "   ", "--json"],
    ["search", "zzqxwv", "--json"],
    ["search", "704.5G", "--json"],
    ["search", "R704.5J", "--json"],
    ["search", "règle", "420", "--json"],
    ["search", "999.9z", "--json"],
    ["search", "100", "--json"],
    ["search", "l'équipement", "--json"],
    ["search", "LÉGENDE", "--json"],
    ["search", "deathtouch", "--language", "en", "--json"],
    ["search", "contact mortel", "--language", "fr", "--json"],
    ["search", "légendes", "--edition", "fr-pre2009", "--json"],
    ["search", "légendes", "--edition", "fr-2024", "--edition", "fr-2011", "--json"],
    ["search", "légendes", "--edition", "xx-0000", "--json"],
    ["search", "blessures", "--limit", "1", "--json"],
    ["search", "blessures", "--limit", "50", "--json"],
    ["search", "blessures", "--limit", "0", "--json"],
    ["search", "marqueurs", "+1/+1", "--json"],
    ["search", '"blessures mortelles"', "--json"],
    ["search", "blessures AND mortelles", "--json"],
    ["search", "créature*", "--json"],
    ["search", "(((", "--json"],
    ["search", "a", "--json"],
]


def _searches() -> list[Argv]:
    return [["search", q, "--json"] for q in _relevance_queries()] + ODD_SEARCHES


def _compare(number: str, a: str, b: str) -> Argv:
    return ["compare", number, "--from", a, "--to", b, "--json"]


SHIPPED_COMPARES: list[Argv] = [
    _compare("420.5e", "fr-pre2009", "fr-2024"),
    _compare("420.5e", "fr-pre2009", "fr-2011"),
    _compare("420.5c", "fr-pre2009", "fr-2024"),
    _compare("420.5i", "fr-pre2009", "fr-2024"),
    _compare("420.5", "fr-pre2009", "fr-2024"),
    _compare("420", "fr-pre2009", "fr-2024"),
    _compare("408.1", "fr-pre2009", "fr-2024"),
    _compare("408.1", "fr-pre2009", "fr-2011"),
    _compare("704.5j", "fr-2024", "fr-pre2009"),
    _compare("704.5g", "fr-2024", "fr-pre2009"),
    _compare("704.5k", "fr-2024", "fr-pre2009"),
    _compare("704.5y", "fr-2024", "fr-pre2009"),
    _compare("704", "fr-2024", "fr-2011"),
    _compare("704.5g", "fr-2024", "fr-2011"),
    _compare("118.1", "fr-2011", "fr-2024"),
    _compare("118.4a", "fr-2011", "fr-2024"),
    _compare("118.1", "fr-2011", "fr-pre2009"),
    _compare("118.9", "fr-2011", "fr-pre2009"),
    _compare("118", "fr-2011", "fr-pre2009"),
    _compare("704.5g", "fr-2011", "fr-pre2009"),
    _compare("420.5c", "fr-pre2009", "fr-2011"),
    _compare("420.2", "fr-pre2009", "fr-2011"),
    _compare("301.5c", "fr-2024", "fr-2011"),
    _compare("301.5c", "fr-2024", "fr-pre2009"),
    _compare("715.3", "fr-2024", "fr-pre2009"),
    # Odd forms and errors (exit 1 or 2).
    _compare("704.5G", "fr-2024", "fr-pre2009"),
    _compare("r420.5e", "fr-pre2009", "fr-2024"),
    _compare("704.5g", "fr-2024", "fr-2024"),
    _compare("999.9", "fr-2024", "fr-pre2009"),
    _compare("704.5z", "fr-2024", "fr-pre2009"),
    _compare("420.5e", "fr-2024", "fr-pre2009"),
    _compare("118.1", "fr-2024", "fr-2011"),
    _compare("704.5g", "fr-2024", "xx-0000"),
    _compare("704.5g", "xx-0000", "fr-2024"),
    _compare("", "fr-2024", "fr-2011"),
    ["compare", "704.5g", "--from", "fr-2024", "--json"],
]

EN_COMPARES: list[Argv] = [
    _compare("420.5e", "en-2008-07-15", "en-2011-09-30"),
    _compare("420.5c", "en-2008-07-15", "en-2011-09-30"),
    _compare("420.5", "en-2008-07-15", "en-2011-09-30"),
    _compare("704.5g", "en-2011-09-30", "fr-2024"),
    _compare("704.5j", "en-2011-09-30", "fr-2024"),
    _compare("704.5g", "en-2011-09-30", "en-2008-07-15"),
    _compare("704.5j", "en-2011-09-30", "en-2008-07-15"),
    _compare("420.5e", "en-2008-07-15", "fr-2024"),
    _compare("420.5e", "en-2008-07-15", "fr-pre2009"),
    _compare("420.5e", "fr-pre2009", "en-2008-07-15"),
    _compare("420.5e", "fr-pre2009", "en-2011-09-30"),
    _compare("704.5g", "fr-2024", "en-2011-09-30"),
    _compare("704.5g", "fr-2011", "en-2011-09-30"),
    _compare("118.1", "fr-2011", "en-2011-09-30"),
    _compare("118.1", "en-2011-09-30", "fr-2011"),
    _compare("118.1", "en-2011-09-30", "en-2008-07-15"),
    _compare("702.2b", "en-2011-09-30", "en-2008-07-15"),
    _compare("502.2", "en-2008-07-15", "en-2011-09-30"),
    _compare("999.9", "en-2011-09-30", "en-2008-07-15"),
    _compare("704.5g", "en-2011-09-30", "en-2011-09-30"),
]


def _ranked_rules(export_stdout: str, edition: str) -> list[str]:
    rows = json.loads(export_stdout)
    return [r["rule"] for r in rows if r["edition"] == edition and r["kind"] != "glossary"]


def _spread(numbers: Sequence[str], n: int) -> list[str]:
    """About `n` numbers evenly taken from `numbers` (every k-th, from the first)."""
    step = max(1, math.ceil(len(numbers) / n))
    return list(numbers[::step])


def _export(base: Mapping[str, Result], argv: Argv) -> str:
    result = base[key(argv)]
    assert result["status"] == 0, f"{key(argv)} failed: {result['stderr'][:500]}"
    return str(result["stdout"])


def base_cases(group: str) -> list[Argv]:
    if group == "shipped":
        cases: list[Argv] = [
            ["editions", "--json"],
            ["check", "--json"],
            ["export"],
            *(["export", "--edition", e] for e in SHIPPED),
            ["export", "--edition", "xx-0000"],
        ]
        for number in ("704.5g", "704.5G", "r704.5g", "R704.5J", "420.5e", "118.1", "301.5c"):
            cases.append(["rule", number, "--json"])
        for number in ("règle 704.5g", "704.5g.", " 704.5g ", "704", "7", "100.1", "999", ""):
            cases.append(["rule", number, "--json"])
        cases += [
            ["rule", "420.5e", "--edition", "fr-2024", "--json"],
            ["rule", "704.5g", "--edition", "fr-pre2009", "--json"],
            ["rule", "704.5g", "--edition", "xx-0000", "--json"],
        ]
        cases += SHIPPED_COMPARES
        cases += _searches()
        for board in BOARDS:
            cases.append(["sba", f"$ROOT/corpus/boards/{board}", "--json"])
        for board in BOARDS[::3]:
            for ruleset in ("fr-pre2009", "fr-2024"):
                cases.append(
                    ["sba", f"$ROOT/corpus/boards/{board}", "--ruleset", ruleset, "--json"]
                )
        cases += [
            ["sba", f"$ROOT/corpus/boards/{BOARDS[0]}", "--ruleset", "fr-2011", "--json"],
            ["sba", "$ROOT/corpus/boards/absent.json", "--json"],
        ]
        return cases
    if group == "english":
        cases = [["ingest", f"$SHARED/corpus-en/{eid}.txt", "--json"] for eid in EN_EDITIONS]
        cases += [
            # Already there: an error.
            ["ingest", f"$SHARED/corpus-en/{EN_EDITIONS[0]}.txt", "--edition", EN_EDITIONS[0]],
            ["editions", "--json"],
            ["check", "--json"],
            *(["export", "--edition", e] for e in EN_EDITIONS),
            ["export", "--edition", "fr-2024"],
        ]
        for number in ("704.5a", "704.5g", "420.5e", "704.5G", "r420.5c", "118.1", "100.1"):
            cases.append(["rule", number, "--json"])
        cases += EN_COMPARES
        cases += [["search", q, "--json"] for q in _relevance_queries()]
        # As in new processes (see SHARED_INDEX): the first four differ from the warm index.
        for number, edition in (
            ("102.4", "en-2008-07-15"),
            ("205.4b", "en-2008-07-15"),
            ("510.2", "en-2008-07-15"),
            ("609.2b", "en-2008-07-15"),
            ("420.5e", "en-2008-07-15"),
            ("704.5g", "en-2011-09-30"),
        ):
            cases.append([FRESH, "rule", number, "--edition", edition, "--json"])
        cases += [
            [FRESH, "rule", "704.5g", "--json"],
            [FRESH, *_compare("420.5e", "en-2008-07-15", "en-2011-09-30")],
            [FRESH, *_compare("102.4", "en-2008-07-15", "en-2011-09-30")],
            [FRESH, *_compare("704.5g", "en-2011-09-30", "fr-2024")],
        ]
        cases += [
            ["search", "deathtouch", "--edition", "en-2011-09-30", "--json"],
            ["search", "state-based actions", "--edition", "en-2008-07-15", "--json"],
            ["search", "blessures mortelles", "--language", "en", "--json"],
        ]
        return cases
    raise ValueError(group)


def derived_cases(group: str, base: Mapping[str, Result]) -> list[Argv]:
    if group == "shipped":
        export = _export(base, ["export"])
        return [
            ["rule", n, "--edition", e, "--json"] for e in SHIPPED for n in _ranked_rules(export, e)
        ]
    if group == "english":
        cases: list[Argv] = []
        numbers: dict[str, list[str]] = {}
        for e in EN_EDITIONS:
            numbers[e] = _ranked_rules(_export(base, ["export", "--edition", e]), e)
            cases += [
                ["rule", n, "--edition", e, "--json"]
                for n in _spread(numbers[e], EN_RULES_PER_EDITION)
            ]
        numbers["fr-2024"] = _ranked_rules(
            _export(base, ["export", "--edition", "fr-2024"]), "fr-2024"
        )
        # Compares spread over pairs with an English edition, 5 numbers of the first one each.
        pairs = [
            ("en-2008-07-15", "en-2011-09-30"),
            ("en-2011-09-30", "en-2008-07-15"),
            ("en-2011-09-30", "fr-2024"),
            ("fr-2024", "en-2011-09-30"),
            ("en-2008-07-15", "fr-2024"),
        ]
        for a, b in pairs:
            cases += [_compare(n, a, b) for n in _spread(numbers[a], 5)]
        return cases
    raise ValueError(group)

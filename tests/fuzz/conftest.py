"""Fuzzing with a fixed budget.

Two hypothesis profiles, registered here and applied to the fuzz tests only (through `FUZZ`,
so that the other property tests of the suite keep their own settings):

- ``judge-fuzz`` (local): a small `max_examples`, so that the whole package runs in about a
  minute on two cores; failures are remembered in hypothesis' example database.
- ``judge-fuzz-ci`` (``CI=true``): the same budget, derandomized (the same examples on every
  run) and without a database, so that a CI run is reproducible.

``JUDGE_FUZZ_EXAMPLES=N`` changes the budget (a longer local hunt)."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from judge import Judge, open_judge
from judge.rules.index import RuleIndex

CI = os.environ.get("CI", "").lower() == "true"
EXAMPLES = int(os.environ.get("JUDGE_FUZZ_EXAMPLES", "60"))

settings.register_profile(
    "judge-fuzz",
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "judge-fuzz-ci",
    parent=settings.get_profile("judge-fuzz"),
    derandomize=True,
    database=None,
    print_blob=True,
)
PROFILE = "judge-fuzz-ci" if CI else "judge-fuzz"
FUZZ = settings(settings.get_profile(PROFILE))

# A French message: a word or a character that English does not have.
_FRENCH = re.compile(
    r"[àâçéèêëîïôûùœ«»]|\b(le|la|les|du|des|de|un|une|est|pas|aucun|aucune|fichier|document"
    r"|dossier|règle|champ|joueur|plateau|introuvable|illisible|vide|inconnu|inconnue"
    r"|attendu|attendue|doit|trop)\b",
    re.IGNORECASE,
)


def assert_french(message: object) -> None:
    assert isinstance(message, str) and message.strip(), repr(message)
    assert "Traceback" not in message, message
    assert _FRENCH.search(message), f"message pas en français : {message!r}"


class Timeout(Exception):
    pass


@contextmanager
def ends_within(seconds: float) -> Iterator[None]:
    """Fail (instead of hanging the run) when the body takes longer than `seconds`."""

    def alarm(signum: int, frame: object) -> None:
        raise Timeout(f"plus de {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="session")
def shipped_judge(index: RuleIndex, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Judge]:
    """The shipped corpus, searchable (its search index built once, in its own home)."""
    home = tmp_path_factory.mktemp("fuzz-shipped")
    with Judge(index, home) as j:
        yield j


@pytest.fixture(scope="session")
def en_judge(en_home: Path) -> Iterator[Judge]:
    """The shipped corpus plus both English editions (skipped without ../shared/corpus-en)."""
    with open_judge(en_home) as j:
        yield j

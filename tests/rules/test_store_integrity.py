"""The store under stress: unusable homes (read-only, full, a file, /proc), one writer at a
time, a writer killed at each step of a replacement, leftovers swept or reported."""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.cli import main
from judge.rules import store
from tests.rules.test_store import MINI, snapshot

ROOT = Path(__file__).resolve().parents[2]
MINI_V2 = MINI.replace("that player loses the game", "that player loses the game (v2)")


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    path = tmp_path / "mini.txt"
    path.write_text(MINI, encoding="utf-8")
    return path


@pytest.fixture
def mini_v2(tmp_path: Path) -> Path:
    path = tmp_path / "mini-v2.txt"
    path.write_text(MINI_V2, encoding="utf-8")
    return path


def _fail(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("Erreur : ") and "Traceback" not in err
    return err


def _judge(home: Path, *args: str, crash_at: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JUDGE_HOME": str(home)}
    env.pop("JUDGE_TEST_CRASH_AT", None)
    if crash_at is not None:
        env["JUDGE_TEST_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "judge", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@contextlib.contextmanager
def _tmpfs(target: Path, options: str) -> Iterator[Path]:
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)],
        check=False,
        capture_output=True,
    )
    if done.returncode != 0:
        pytest.skip(f"montage tmpfs impossible ici ({done.stderr.decode().strip()})")
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False)


@contextlib.contextmanager
def _held_lock(home: Path) -> Iterator[None]:
    root = store.editions_dir(home)
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def _leftovers(home: Path) -> list[str]:
    root = store.editions_dir(home)
    return sorted(p.name for p in root.iterdir() if store._leftover(p.name))


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


# --- identifiers ---------------------------------------------------------------------------


def test_an_id_with_a_trailing_newline_is_refused(
    tmp_home: Path, mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _fail(["ingest", str(mini), "--edition", "en-test\n"], capsys)
    assert "Identifiant d'édition invalide : « en-test\\n »" in err
    assert snapshot(tmp_home) == {}
    assert "Aucune édition" in _fail(["remove", "en-test\n"], capsys)


# --- homes that cannot hold a store --------------------------------------------------------


def test_home_is_a_regular_file(
    tmp_path: Path, mini: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "fichier"
    home.write_text("pas un dossier")
    monkeypatch.setenv("JUDGE_HOME", str(home))
    err = _fail(["ingest", str(mini)], capsys)
    assert f"{home} : n'est pas un dossier" in err
    assert main(["editions"]) == 0
    assert main(["check"]) == 0
    assert home.read_text() == "pas un dossier"


def test_home_under_proc(
    mini: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not Path("/proc/self").is_dir():
        pytest.skip("pas de /proc ici")
    monkeypatch.setenv("JUDGE_HOME", "/proc/judge-home")
    err = _fail(["ingest", str(mini)], capsys)
    assert "/proc/judge-home" in err and "impossible à créer" in err


def test_home_read_only(
    tmp_path: Path, mini: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "ro"
    with _tmpfs(home, "size=1m"):
        monkeypatch.setenv("JUDGE_HOME", str(home))
        assert main(["ingest", str(mini)]) == 0
        subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
        before = snapshot(home)
        err = _fail(["ingest", str(mini), "--replace"], capsys)
        assert "dossier en lecture seule" in err and str(home) in err
        err = _fail(["remove", "en-2024-06-07"], capsys)
        assert "dossier en lecture seule" in err
        assert main(["rule", "704.5a", "--edition", "en-2024-06-07"]) == 0
        assert snapshot(home) == before


def _big_document(rules: int) -> str:
    last = "704.5aa If a permanent has two-letter numbering, it still parses. See rule 704.5a.\n"
    body = "".join(
        f"\n704.{n}. Rule number {n} of a long document, padded to fill a small disk quickly.\n"
        for n in range(6, rules)
    )
    return MINI.replace(last, last + body)


def test_home_on_a_full_disk(
    tmp_path: Path, mini: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "plein"
    big = tmp_path / "gros.txt"
    big.write_text(_big_document(1200), encoding="utf-8")
    assert big.stat().st_size > 64 * 1024
    with _tmpfs(home, "size=64k"):
        monkeypatch.setenv("JUDGE_HOME", str(home))
        assert main(["ingest", str(mini), "--edition", "en-plein"]) == 0
        before = snapshot(home / "editions")
        err = _fail(["ingest", str(big), "--edition", "en-plein", "--replace"], capsys)
        assert "disque plein" in err and str(home / "editions") in err
        assert snapshot(home / "editions") == before
        assert _leftovers(home) == []


def test_a_full_disk_simulated(
    tmp_home: Path, mini: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", str(mini)]) == 0
    before = snapshot(tmp_home)

    def full(path: Path, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "_write_file", full)
    err = _fail(["ingest", str(mini), "--replace"], capsys)
    assert f"{store.editions_dir()} : disque plein" in err
    assert snapshot(tmp_home) == before


# --- one writer at a time ------------------------------------------------------------------


def test_a_held_lock_times_out_in_french(
    tmp_home: Path, mini: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.3)
    with _held_lock(tmp_home):
        err = _fail(["ingest", str(mini)], capsys)
    assert "une autre importation est en cours" in err and ".lock" in err
    assert not (store.editions_dir() / "en-2024-06-07").exists()
    assert main(["ingest", str(mini)]) == 0


def test_concurrent_ingests_of_one_id(tmp_home: Path, mini: Path) -> None:
    with _held_lock(tmp_home):  # both parse, then wait for the lock together
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "judge", "ingest", str(mini), "--edition", "en-conc"],
                env={**os.environ, "JUDGE_HOME": str(tmp_home)},
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        time.sleep(3)
    results = sorted((p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in procs)
    assert [status for status, _ in results] == [0, 2]
    assert "existe déjà" in results[1][1] and "Traceback" not in results[1][1]
    assert _leftovers(tmp_home) == []


# --- a writer killed half-way --------------------------------------------------------------

INGEST_STEPS = {
    "after-tmp-write": MINI,
    "after-journal": MINI,
    "after-old-rename": MINI,
    "after-new-rename": MINI_V2,
    "after-old-removed": MINI_V2,
}


@pytest.mark.parametrize("step", sorted(INGEST_STEPS))
def test_a_replace_killed_at_each_step_is_recovered(
    step: str, tmp_home: Path, mini: Path, mini_v2: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store.ingest(mini, edition_id="en-crash")
    done = _judge(
        tmp_home, "ingest", str(mini_v2), "--edition", "en-crash", "--replace", crash_at=step
    )
    assert done.returncode == 137, done.stderr
    assert _leftovers(tmp_home)  # the crash left something behind
    capsys.readouterr()
    assert main(["rule", "704.5a", "--edition", "en-crash"]) == 0
    assert _leftovers(tmp_home) == []
    document = store.editions_dir() / "en-crash" / "document.txt"
    assert document.read_text("utf-8") == INGEST_STEPS[step]
    assert main(["check"]) == 0


def test_a_remove_killed_after_its_rename_is_swept(tmp_home: Path, mini: Path) -> None:
    store.ingest(mini, edition_id="en-crash")
    done = _judge(tmp_home, "remove", "en-crash", crash_at="after-del-rename")
    assert done.returncode == 137, done.stderr
    assert _leftovers(tmp_home)
    assert store.stored_editions() == []
    assert _leftovers(tmp_home) == []


def test_an_old_copy_without_journal_is_put_back(tmp_home: Path, mini: Path) -> None:
    # What judge left before the journal existed: killed between its two renames.
    store.ingest(mini, edition_id="en-vieux")
    root = store.editions_dir()
    os.replace(root / "en-vieux", root / f".old-en-vieux-{_dead_pid()}")
    assert [m.id for m, _ in store.stored_editions()] == ["en-vieux"]
    assert _leftovers(tmp_home) == []


def test_a_live_writer_is_never_swept(tmp_home: Path, mini: Path) -> None:
    store.ingest(mini, edition_id="en-vivant")
    root = store.editions_dir()
    live = root / f".tmp-en-autre-{os.getpid()}-abc123"
    dead = root / f".tmp-en-mort-{_dead_pid()}-abc123"
    aged = root / ".tmp-en-vieux-abc123"  # no pid: only its age tells
    fresh = root / ".tmp-en-neuf-abc123"
    for folder in (live, dead, aged, fresh):
        folder.mkdir()
    old = time.time() - 2 * store.STALE_AFTER
    os.utime(aged, (old, old))
    cache = store.cache_dir() / "rules"
    cache.mkdir(parents=True)
    (cache / "tmpvieux.tmp").write_bytes(b"x")
    os.utime(cache / "tmpvieux.tmp", (old, old))
    (cache / "tmpneuf.tmp").write_bytes(b"x")
    store.ingest(mini, edition_id="en-autre2")
    assert sorted(p.name for p in root.iterdir() if p.name.startswith(".tmp-")) == sorted(
        [live.name, fresh.name]
    )
    assert sorted(p.name for p in cache.iterdir()) == ["tmpneuf.tmp"]


# --- judge check ---------------------------------------------------------------------------


def test_check_reports_what_recovery_cannot_fix(
    tmp_home: Path, mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store.ingest(mini, edition_id="en-bon")
    assert main(["check"]) == 0
    root = store.editions_dir()
    (root / "en-vide").mkdir()  # a folder without edition.json
    store.ingest(mini, edition_id="en-sans-doc")
    (root / "en-sans-doc" / "document.txt").unlink()
    (root / f".tmp-en-x-{os.getpid()}-abc123").mkdir()  # a live writer's: not swept
    capsys.readouterr()
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert f"{root / 'en-vide'} : dossier sans edition.json" in out
    assert "en-sans-doc : document document.txt absent" in out
    assert ".tmp-en-x-" in out and "interrompu" in out
    with _held_lock(tmp_home):  # a writer at work: its journal is not touched
        (root / ".journal-en-bon.json").write_text("{}")
        assert main(["check"]) == 1
        assert ".journal-en-bon.json : journal" in capsys.readouterr().out
    assert main(["rule", "704.5a", "--edition", "en-bon"]) == 0
    assert not (root / ".journal-en-bon.json").exists()

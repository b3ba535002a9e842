"""Inputs found by fuzzing: each gives a French error (exit 2) or parses, never a traceback;
reads are bounded whatever `stat` says; the bytes parsed are the bytes stored."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from judge.cli import main
from judge.rules import decode, layouts, numbers, store
from judge.rules.errors import DocumentError
from judge.rules.layouts import html
from tests.rules.test_store import MINI, snapshot

SUBRULE_ZZ = """Magic: The Gathering Comprehensive Rules

100. General

100.1. Rules.

100.1zz The last possible letters.

100.2. Next.
"""


def _deep_html(depth: int) -> str:
    return (
        "<html><body>" + "<div>" * (depth - 2) + "<p>704.5a Texte de la règle.</p>"
        "" + "</div>" * (depth - 2) + "</body></html>"
    )


def _fail(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("Erreur : ") and "Traceback" not in err
    return err


# --- numbers past `zz` ---------------------------------------------------------------------


def test_there_is_no_letter_after_zz() -> None:
    assert numbers.letters_from_value(numbers.MAX_LETTERS_VALUE) == "zz"
    assert numbers.next_letter("zy") == "zz"
    assert numbers.next_letter("zz") == "zz"
    assert numbers.letters_from_value(10_000) == "zz"
    assert numbers.successors("100.1zz") == {"100.2", "101"}


def test_a_subrule_zz_ingests(tmp_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "zz.txt"
    path.write_text(SUBRULE_ZZ, encoding="utf-8")
    assert main(["ingest", str(path), "--edition", "en-zz"]) == 0
    assert main(["rule", "100.1zz", "--edition", "en-zz"]) == 0


def test_a_lettered_list_past_zz_parses() -> None:
    page = '<h2>704. Actions</h2><ol><li>704.5 Liste<ol type="a" start="9999"><li>x</li></ol>'
    doc = html.parse(page + "</li></ol>", "liste.html")
    assert "704.5zz" in {r.number for r in doc.rules}


# --- nesting -------------------------------------------------------------------------------


def test_html_nested_600_deep_is_a_french_error(
    tmp_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "profond.html"
    path.write_text(_deep_html(600), encoding="utf-8")
    err = _fail(["ingest", str(path), "--edition", "en-deep"], capsys)
    assert "profond.html" in err and "document HTML trop imbriqué" in err
    assert snapshot(tmp_home / "editions") == {}


def test_html_at_the_depth_limit_parses() -> None:
    assert html.parse(_deep_html(html.MAX_DEPTH - 1), "p.html").rules
    with pytest.raises(DocumentError, match="trop imbriqué"):
        html.parse(_deep_html(html.MAX_DEPTH + 1), "p.html")


def test_the_cli_turns_recursion_and_memory_errors_into_french(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from judge.cli import rules

    for error, words in ((RecursionError, "trop complexe"), (MemoryError, "trop gros")):

        def boom(args: object, error: type[BaseException] = error) -> int:
            raise error()

        monkeypatch.setattr(rules, "cmd_editions", boom)
        assert words in _fail(["editions"], capsys)


def test_the_cli_names_the_file_of_a_stray_os_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from judge.cli import rules

    def boom(args: object) -> int:
        raise OSError(28, "No space left on device", "/quelque/part")

    monkeypatch.setattr(rules, "cmd_editions", boom)
    assert _fail(["editions"], capsys) == "Erreur : /quelque/part : disque plein\n"


# --- file names that are not UTF-8 ---------------------------------------------------------


def test_a_file_name_that_is_not_utf8(
    tmp_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = os.fsencode(tmp_path) + b"/r\xff.txt"
    with open(raw, "wb") as fh:
        fh.write(MINI.encode())
    path = Path(os.fsdecode(raw))
    assert main(["ingest", str(path), "--edition", "en-nom", "--json"]) == 0
    meta = (store.editions_dir() / "en-nom" / "edition.json").read_text("utf-8")
    assert '"original": "r\ufffd.txt"' in meta
    capsys.readouterr()
    assert main(["rule", "704.5a", "--edition", "en-nom"]) == 0
    assert "Source : r\ufffd.txt, ligne" in capsys.readouterr().out
    assert main(["editions", "--json"]) == 0
    err = _fail(["ingest", str(path), "--edition", "en-nom"], capsys)
    assert "existe déjà" in err


# --- bounded reads -------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["ingest", "sba"])
def test_dev_zero_is_refused(
    command: str, tmp_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _fail([command, "/dev/zero"], capsys)
    assert "/dev/zero" in err and "n'est pas un fichier ordinaire" in err


@pytest.mark.parametrize("command", ["ingest", "sba"])
def test_a_fifo_does_not_block(
    command: str, tmp_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "tube"
    os.mkfifo(fifo)
    outcome: list[str] = []
    worker = threading.Thread(target=lambda: outcome.append(_fail([command, str(fifo)], capsys)))
    worker.start()
    worker.join(timeout=10)
    if worker.is_alive():  # unblock the reader so that the test run can end
        with open(fifo, "wb"):
            pass
        worker.join()
        pytest.fail("la lecture d'un tube a bloqué")
    assert "tube" in outcome[0] and "n'est pas un fichier ordinaire" in outcome[0]


def test_read_bounded_reads_at_most_limit_plus_one(tmp_path: Path) -> None:
    path = tmp_path / "doc.txt"
    path.write_bytes(b"x" * 100)
    assert decode.read_bounded(path, 100) == b"x" * 100
    with pytest.raises(decode.FileTooLarge):
        decode.read_bounded(path, 99)
    with pytest.raises(IsADirectoryError):
        decode.read_bounded(tmp_path, 99)


def test_a_file_that_lies_about_its_size_is_cut_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # /proc files and devices say 0 bytes: only what is read counts.
    path = tmp_path / "menteur.txt"
    path.write_bytes(b"y" * 5000)
    real_fstat = os.fstat

    class Zero:
        def __init__(self, st: os.stat_result) -> None:
            self.st_mode, self.st_size = st.st_mode, 0

    monkeypatch.setattr(decode.os, "fstat", lambda fd: Zero(real_fstat(fd)))
    reads: list[int] = []
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        reads.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(decode.os, "read", counting_read)
    with pytest.raises(decode.FileTooLarge):
        decode.read_bounded(path, 1000)
    assert sum(reads) <= 1001


def test_ingest_refuses_a_file_over_the_limit(
    tmp_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(store, "MAX_BYTES", 200)
    path = tmp_path / "gros.txt"
    path.write_text(MINI, encoding="utf-8")
    err = _fail(["ingest", str(path)], capsys)
    assert "gros.txt" in err and "trop volumineux" in err


# --- one read ------------------------------------------------------------------------------


def test_the_bytes_parsed_are_the_bytes_stored(
    tmp_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "change.txt"
    path.write_text(MINI, encoding="utf-8")
    real_parse = layouts.parse_text

    def parse_then_change(*args: object, **kwargs: object) -> object:
        # Someone rewrites the file while it is being parsed.
        path.write_bytes(b"\x00\x01 n'importe quoi")
        return real_parse(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(layouts, "parse_text", parse_then_change)  # as the store reads it
    store.ingest(path, edition_id="en-once")
    stored = store.editions_dir() / "en-once" / "document.txt"
    assert stored.read_bytes() == MINI.encode("utf-8")

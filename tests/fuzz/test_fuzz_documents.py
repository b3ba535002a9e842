"""Fuzz: documents fed to `judge.ingest` and to `judge ingest` (`judge.cli.main`).

Whatever the bytes, an ingest either succeeds (and the store then opens with the edition in
it) or raises a `JudgeError` with a French message (exit code 2 and « Erreur : … » on the
command line); never another exception, and never a half-written store: no folder left
behind but the edition itself, none at all after a failure."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

import judge
from judge import JudgeError
from judge.cli import main
from tests.fuzz.conftest import FUZZ, assert_french, ends_within

# --- strategies --------------------------------------------------------------------------

LETTERS = ["", "", "a", "b", "c", "k", "l", "o", "z", "aa", "ab", "zz", "zzz"]
HEADERS = [
    "Règles complètes de Magic: The Gathering",
    "Ces règles sont en vigueur à compter du 30 septembre 2011.",
    "Magic: The Gathering Comprehensive Rules",
    "These rules are effective as of July 15, 2008.",
    "Introduction",
    "Sommaire",
    "Glossaire",
    "Glossary",
    "Crédits",
    "Credits",
    "1. Concepts du jeu",
    "1. Game Concepts",
    "7. Règles supplémentaires",
]
WORDS = [
    "Une",
    "créature",
    "avec",
    "une",
    "endurance",
    "de",
    "0",
    "est",
    "mise",
    "dans",
    "le",
    "cimetière",
    "de",
    "son",
    "propriétaire.",
    "(voir règle 704.5g)",
    "Cf. règle 100.1zz,",
    "See rule 704.5aa.",
    'voir règle 408, "Chronologie"',
    "Exemple :",
    "Example:",
    "l'exil",
    "d'un",
    "«",
    "»",
    "’",
    "**",
    "[lien](http://example.com)",
    "<b>x</b>",
    "<script>alert(1)</script>",
    "$x^2$",
    "\t",
    "\u00a0",
    "\u200b",
    "\ufeff",
    "\x00",
    "\x0c",
    "é" * 3,
    "Ω",
    "🂡",
]


@st.composite
def rule_number(draw: st.DrawFn) -> str:
    section = draw(st.integers(1, 9))
    rule = draw(st.integers(0, 99))
    base = f"{section}{rule:02d}"
    if draw(st.booleans()):
        return base + draw(st.sampled_from([".", ""]))
    sub = draw(st.integers(0, 30))
    letters = draw(st.sampled_from(LETTERS))
    dot = draw(st.sampled_from([".", "", "", ".."]))
    return f"{base}.{sub}{letters}{dot}"


@st.composite
def rule_line(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.sampled_from(HEADERS))
    if kind == 1:
        return ""
    if kind == 2:
        return draw(st.text(max_size=40))
    words = draw(st.lists(st.sampled_from(WORDS), max_size=12))
    return f"{draw(rule_number())} {' '.join(words)}"


def _html(lines: list[str], depth: int, closed: bool) -> str:
    body = "".join(f"<p>{line}</p>" for line in lines)
    opened = "<div><ul><li>" * (depth // 3) + "<span>" * (depth % 3)
    closing = ("</span>" * (depth % 3) + "</li></ul></div>" * (depth // 3)) if closed else ""
    return f"<html><head><title>Règles</title></head><body>{opened}{body}{closing}</body></html>"


ENCODINGS = ["utf-8", "utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252"]


@st.composite
def rule_document(draw: st.DrawFn) -> tuple[bytes, str]:
    """A rule-like text: headers, rule lines with odd numbers, mixed line ends, maybe HTML,
    in one of several encodings (with or without a byte-order mark)."""
    lines = draw(st.lists(rule_line(), max_size=25))
    if draw(st.booleans()):
        lines = [*HEADERS[:2], "", "1. Concepts du jeu", "", "100. Généralités", "", *lines]
    html = draw(st.integers(0, 4)) == 0
    if html:
        depth = draw(st.integers(0, 120))
        text = _html(lines, depth, draw(st.booleans()))
        name = draw(st.sampled_from(["regles.html", "regles.htm"]))
    else:
        ends = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1, max_size=4))
        text = "".join(line + ends[i % len(ends)] for i, line in enumerate(lines))
        name = draw(st.sampled_from(["regles.txt", "regles.txt", "regles", "r.TXT"]))
    if draw(st.booleans()):
        text = "\ufeff" + text
    encoding = draw(st.sampled_from(ENCODINGS))
    return text.encode(encoding, errors="replace"), name


raw_document = st.tuples(
    st.binary(max_size=3000),
    st.sampled_from(["doc.txt", "doc.html", "doc.pdf", "doc.docx", "doc", "doc.json"]),
)
documents = st.one_of(raw_document, rule_document())
edition_ids = st.sampled_from([None, "fr-2011-fuzz", "en-2011-09-30", "fr-2024", "x y"])

# --- checks ------------------------------------------------------------------------------


def check_store(home: Path, succeeded: bool, edition: str | None = None) -> None:
    root = home / "editions"
    entries = sorted(p.name for p in root.iterdir()) if root.is_dir() else []
    hidden = [n for n in entries if n.startswith(".") and n != ".lock"]
    assert not hidden, f"reste d'écriture dans le magasin : {hidden}"
    visible = [n for n in entries if not n.startswith(".")]
    if not succeeded:
        assert visible == [], visible
        return
    assert len(visible) == 1, visible
    folder = root / visible[0]
    assert (folder / "edition.json").is_file()
    if edition is not None:
        assert visible == [edition]
    with judge.open_judge(home) as j:
        ids = [e.id for e in j.editions()]
    assert visible[0] in ids or j.warnings, (visible, ids)


def _ingest_api(data: bytes, name: str, edition: str | None) -> None:
    with tempfile.TemporaryDirectory(prefix="judge-fuzz-") as tmp:
        home = Path(tmp) / "home"
        doc = Path(tmp) / name
        doc.write_bytes(data)
        try:
            with ends_within(60):
                view = judge.ingest(doc, edition, home=home)
        except JudgeError as exc:
            assert_french(exc.message)
            check_store(home, False)
        else:
            assert view.rules >= 0 and view.edition
            check_store(home, True, view.edition)


def _ingest_cli(data: bytes, name: str, edition: str | None) -> None:
    with tempfile.TemporaryDirectory(prefix="judge-fuzz-") as tmp:
        home = Path(tmp) / "home"
        doc = Path(tmp) / name
        doc.write_bytes(data)
        argv = ["ingest", str(doc)] + (["--edition", edition] if edition else [])
        out, err = io.StringIO(), io.StringIO()
        saved = os.environ.get("JUDGE_HOME")
        os.environ["JUDGE_HOME"] = str(home)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), ends_within(60):
                rc = main(argv)
        finally:
            if saved is None:
                os.environ.pop("JUDGE_HOME", None)
            else:
                os.environ["JUDGE_HOME"] = saved
        assert rc in (0, 2), (rc, err.getvalue())
        if rc == 2:
            message = err.getvalue()
            assert message.startswith("Erreur : "), message
            assert_french(message.removeprefix("Erreur : "))
        check_store(home, rc == 0)


# --- tests ---------------------------------------------------------------------------------


@FUZZ
@given(documents, edition_ids)
@example((b"", "doc.txt"), None)
@example((b"\xff\xfe", "doc.txt"), None)
@example((b"\xef\xbb\xbf", "doc.txt"), None)
@example((b"100.1zz Texte.\r\n704.5aa Autre.\r", "doc.txt"), "fr-2011-fuzz")
@example((b"PK\x03\x04" + b"\x00" * 40, "doc.docx"), None)
@example((b"%PDF-1.4\n%%EOF", "doc.pdf"), None)
def test_ingest_api(doc: tuple[bytes, str], edition: str | None) -> None:
    data, name = doc
    _ingest_api(data, name, edition)


@FUZZ
@given(documents, edition_ids)
@example((b"\x00\x01\x02", "doc.txt"), None)
@example(("100.1zz Texte.\n".encode("utf-16"), "doc.txt"), "fr-2011-fuzz")
def test_ingest_cli(doc: tuple[bytes, str], edition: str | None) -> None:
    data, name = doc
    _ingest_cli(data, name, edition)

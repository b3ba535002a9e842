"""PDF and Word editions read through the ingest path give the index of their .txt twin; bad
PDF and Word files are refused by `judge ingest` with a French message naming the file."""

from __future__ import annotations

import hashlib
import io
import json
import pathlib
import re
import struct
import time
import zipfile
from functools import cache

import pytest

from judge.cli import main
from judge.rules.decode import decode_bytes
from judge.rules.errors import DocumentError
from judge.rules.layouts import parse_text
from judge.rules.layouts.detect import detect_layout
from judge.rules.model import ParsedDocument

ARCHIVE = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "corpus-en" / "archive"
DATA = pathlib.Path(__file__).resolve().parent / "data"

# name -> (rules identical, glossary entries identical) as measured against the .txt twin,
# after folding the twins' ASCII transcription (see _fold); the rule numbers are all identical.
EDITIONS = {
    "en-2025-04-04.docx": (3201, 708),  # all
    "en-2013-07-11.docx": (2074, 478),  # all (the .txt twin has DOS lines: Dandân, Æther)
    "en-2024-03-08.pdf": (3094, 675),  # all
    "en-2012-07-01.pdf": (2025, 465),  # 206.2: the .txt twin has no ™ after Exodus
    "en-2006-07-15.pdf": (1035, 351),  # all
}


def _path(name: str) -> pathlib.Path:
    path = ARCHIVE / name
    if not path.is_file():
        pytest.skip(f"../shared/corpus-en/archive absent : {path} introuvable")
    return path


@cache
def _parsed(name: str) -> ParsedDocument:
    """The path `judge ingest` takes: decode_bytes, detect_layout, parse_text."""
    text = decode_bytes(_path(name).read_bytes(), name)
    return parse_text(text, name, detect_layout(text))


def _twin(name: str) -> str:
    return name.rsplit(".", 1)[0] + ".txt"


_ASCII = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-"})


def _fold(text: str | None) -> str | None:
    """The older .txt twins are ASCII transcriptions of the same text (straight quotes,
    `(r)`/`(TM)`, `_italics_`, `<urls>`, `--` dashes): fold both sides to compare."""
    if text is None:
        return None
    text = text.translate(_ASCII).replace("®", "(r)").replace("™", "(tm)").lower()
    text = re.sub(r"_([^_]+)_", r"\1", text).replace("_(", "(").replace("--", "-")
    text = re.sub(r"<([^<>\s]+)>", r"\1", text)
    return " ".join(text.replace(" - ", "-").replace(" -", "-").split())


def _rules(doc: ParsedDocument, fold: bool) -> dict[str, list[tuple[str, str | None]]]:
    f = _fold if fold else (lambda t: t)
    return {
        r.number: [(p.kind, f(p.text)) for p in r.paragraphs] + [("title", f(r.title))]
        for r in doc.rules
    }


def _glossary(doc: ParsedDocument, fold: bool) -> dict[str | None, list[str | None]]:
    f = _fold if fold else (lambda t: t)
    return {f(g.term): [f(p.text) for p in g.paragraphs] for g in doc.glossary}


@pytest.mark.parametrize("name", list(EDITIONS))
def test_same_rules_as_the_text_twin(name: str) -> None:
    doc, twin = _parsed(name), _parsed(_twin(name))
    assert doc.date == twin.date
    assert [r.number for r in doc.rules] == [r.number for r in twin.rules]
    fold = name != "en-2025-04-04.docx"  # the 2025 twin is the same Unicode text
    ours, theirs = _rules(doc, fold), _rules(twin, fold)
    same = sum(ours[k] == v for k, v in theirs.items())
    g_ours, g_theirs = _glossary(doc, fold), _glossary(twin, fold)
    g_same = sum(g_ours.get(k) == v for k, v in g_theirs.items())
    rules_min, glossary_min = EDITIONS[name]
    print(f"{name}: {same}/{len(theirs)} règles, {g_same}/{len(g_theirs)} entrées de glossaire")
    assert same >= rules_min
    assert g_same >= glossary_min


def test_pdf_2006_glossary_is_the_twins() -> None:
    """2006 has no bold terms: a term at a page top after an unfinished list ("…, Urza’s",
    then "Landcycling"), and an indented paragraph after a definition's first line
    ("… and so on)." then "If two or more legendary…"), are found by their geometry."""
    doc, twin = _parsed("en-2006-07-15.pdf"), _parsed("en-2006-07-15.txt")
    assert _glossary(doc, True) == _glossary(twin, True)
    assert _rules(doc, True) == _rules(twin, True)


def test_word_2025_is_identical_without_folding() -> None:
    doc, twin = _parsed("en-2025-04-04.docx"), _parsed("en-2025-04-04.txt")
    assert _rules(doc, False) == _rules(twin, False)
    assert _glossary(doc, False) == _glossary(twin, False)


def _strip_sources(value: object) -> object:
    """An export record without where its text came from (file, line): those differ."""
    if isinstance(value, dict):
        return {
            k: _strip_sources(v)
            for k, v in value.items()
            if k not in ("source", "sources", "file", "line")
        }
    if isinstance(value, list):
        return [_strip_sources(v) for v in value]
    return value


def _ingest_export(
    path: pathlib.Path,
    home: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> list[object]:
    monkeypatch.setenv("JUDGE_HOME", str(home))
    capsys.readouterr()
    assert main(["ingest", str(path), "--json"]) == 0
    edition = json.loads(capsys.readouterr().out)["edition"]
    assert main(["export", "--edition", edition]) == 0
    records = _strip_sources(json.loads(capsys.readouterr().out))
    assert isinstance(records, list)
    return records


# name -> export records (rules and glossary entries) allowed to differ from the twin's
INGESTED = {"en-2025-04-04.docx": 0, "en-2024-03-08.pdf": 0}


@pytest.mark.parametrize("name", list(INGESTED))
def test_judge_ingest_gives_the_twin_export(
    name: str,
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    start = time.perf_counter()
    ours = _ingest_export(_path(name), tmp_path / "a", monkeypatch, capsys)
    elapsed = time.perf_counter() - start
    theirs = _ingest_export(_path(_twin(name)), tmp_path / "b", monkeypatch, capsys)
    assert len(ours) == len(theirs)
    differing = [b for a, b in zip(ours, theirs, strict=True) if a != b]
    with capsys.disabled():
        print(
            f"\n{name} : importé et exporté en {elapsed:.2f} s, {len(ours) - len(differing)}"
            f"/{len(ours)} fiches identiques"
        )
    assert len(differing) <= INGESTED[name]


# --- bad input ---------------------------------------------------------------------------


def _scanned_pdf() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (300, 400), "white").save(out, format="PDF")
    return out.getvalue()


def _text_pdf(text: str, user_password: bytes | None = None) -> bytes:
    """A one-page PDF with a text layer (Helvetica), offsets computed; with a password,
    encrypted (RC4 40 bits, the standard security handler revision 2, owner password
    "proprietaire"): an empty one opens without asking, as a permissions-only PDF does."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    trailer = b""
    crypt: list[bytes] = []
    if user_password is not None:
        key, crypt = _rc4_security(user_password, b"proprietaire")
        stream = _rc4(hashlib.md5(key + b"\x04\x00\x00\x00\x00").digest()[:10], stream)
        pdf_id = _PDF_ID.hex().encode()
        trailer = b" /Encrypt 6 0 R /ID [<%s> <%s>]" % (pdf_id, pdf_id)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        *crypt,
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        xref,
    )
    return bytes(out)


_PDF_ID = bytes(range(16))
_PDF_PAD = bytes.fromhex("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a")


def _rc4(key: bytes, data: bytes) -> bytes:
    box = list(range(256))
    j = 0
    for i in range(256):
        j = (j + box[i] + key[i % len(key)]) % 256
        box[i], box[j] = box[j], box[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + box[i]) % 256
        box[i], box[j] = box[j], box[i]
        out.append(byte ^ box[(box[i] + box[j]) % 256])
    return bytes(out)


def _rc4_security(user: bytes, owner: bytes) -> tuple[bytes, list[bytes]]:
    """The file key and the /Encrypt dictionary (PDF 1.7, algorithms 2 to 4, revision 2)."""
    padded_user, permissions = (user + _PDF_PAD)[:32], struct.pack("<i", -4)
    o = _rc4(hashlib.md5((owner + _PDF_PAD)[:32]).digest()[:5], padded_user)
    key = hashlib.md5(padded_user + o + permissions + _PDF_ID).digest()[:5]
    u = _rc4(key, _PDF_PAD)
    encrypt = b"<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P -4 >>" % (
        o.hex().encode(),
        u.hex().encode(),
    )
    return key, [encrypt]


def _word(*paragraphs: str) -> bytes:
    import docx

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _zip_of_something_else() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("photo.txt", "pas un document Word")
    return out.getvalue()


def _truncated_pdf() -> bytes:
    return _path("en-2012-07-01.pdf").read_bytes()[:20000]


BAD = {
    "scanne.pdf": (_scanned_pdf, "sans texte"),
    "chiffre.pdf": (lambda: (DATA / "regles-chiffre.pdf").read_bytes(), "chiffré"),
    "chiffre-rc4.pdf": (lambda: _text_pdf("100.1. Une regle.", b"secret"), "chiffré"),
    # Encrypted with an owner password only: read (and found not to be rules).
    "droits.pdf": (lambda: _text_pdf("Tarte aux pommes", b""), "aucune règle"),
    "recette.pdf": (lambda: _text_pdf("Tarte aux pommes"), "aucune règle"),
    "recette.docx": (lambda: _word("Tarte aux pommes", "Beurre, farine"), "aucune règle"),
    "archive.docx": (_zip_of_something_else, "pas un document Word"),
    "tronque.pdf": (_truncated_pdf, "tronqué"),
    "tronque.docx": (
        lambda: _path("en-2013-07-11.docx").read_bytes()[:100000],
        "pas un document Word lisible",
    ),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_files_are_refused(
    name: str,
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    make, expected = BAD[name]
    path = tmp_path / name
    path.write_bytes(make())
    home = tmp_path / "home"
    monkeypatch.setenv("JUDGE_HOME", str(home))
    assert main(["ingest", str(path)]) == 2
    err = capsys.readouterr().err
    assert name in err and expected in err, err
    editions = home / "editions"
    assert not editions.exists() or not [
        p for p in editions.iterdir() if not p.name.startswith(".")
    ]


def test_extraction_errors_are_document_errors() -> None:
    with pytest.raises(DocumentError, match="chiffré"):
        decode_bytes((DATA / "regles-chiffre.pdf").read_bytes(), "x.pdf")


# Built here, without ../shared: each is refused for its own reason.
BAD_IN_BATCH = [
    "scanne.pdf",
    "chiffre.pdf",
    "chiffre-rc4.pdf",
    "recette.pdf",
    "recette.docx",
    "archive.docx",
]


def _batch(folder: pathlib.Path, *, bad: bool) -> None:
    """Two rules documents (a .txt, a Word file), and with `bad` the bad PDF and Word files
    and a text file that is not rules."""
    from tests.rules.test_store import MINI

    folder.mkdir()
    (folder / "a-regles.txt").write_text(MINI, encoding="utf-8")
    word = MINI.replace("June 7, 2024", "June 8, 2024").split("\n")
    (folder / "b-regles.docx").write_bytes(_word(*word))
    if bad:
        for name in BAD_IN_BATCH:
            (folder / name).write_bytes(BAD[name][0]())
        (folder / "notes.txt").write_text("Liste de courses.\nPain, lait.\n", encoding="utf-8")


def test_bad_files_in_a_folder_do_not_stop_the_others(
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.rules.test_store import snapshot

    _batch(tmp_path / "bons", bad=False)
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home-bons"))
    assert main(["ingest", str(tmp_path / "bons")]) == 0
    expected = snapshot(tmp_path / "home-bons" / "editions")

    _batch(tmp_path / "lot", bad=True)
    # The same bytes as the good batch (a Word file carries the second it was written in).
    for good in (tmp_path / "bons").iterdir():
        (tmp_path / "lot" / good.name).write_bytes(good.read_bytes())
    home = tmp_path / "home"
    monkeypatch.setenv("JUDGE_HOME", str(home))
    capsys.readouterr()
    assert main(["ingest", str(tmp_path / "lot")]) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    failures = [line for line in err.splitlines() if not line.startswith("[")]
    for name in BAD_IN_BATCH:
        reason = BAD[name][1]
        assert any(name in line and reason in line for line in failures), (name, err)
    assert any("notes.txt" in line and "aucune règle" in line for line in failures), err
    assert "Échec de l'import de 7 document(s) sur 9" in err
    assert "2 édition(s) importée(s) sur 9 document(s)." in out
    # The good ones are in the store exactly as when ingested alone; nothing else is.
    assert snapshot(home / "editions") == expected
    assert sorted(p.name for p in (home / "editions").iterdir()) == [
        ".lock",
        "en-2024-06-07",
        "en-2024-06-08",
    ]


def test_bad_files_in_a_folder_as_json(
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _batch(tmp_path / "lot", bad=True)
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    assert main(["ingest", str(tmp_path / "lot"), "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    errors = {d["file"].rsplit("/", 1)[-1]: d["error"] for d in data}
    assert errors["a-regles.txt"] is None and errors["b-regles.docx"] is None
    for name in BAD_IN_BATCH:
        assert name in errors[name] and BAD[name][1] in errors[name]
        assert next(d for d in data if d["error"] == errors[name])["edition"] is None


def test_the_built_encrypted_pdfs_are_real() -> None:
    """The RC4 files above are sound PDFs: with its password the text is there."""
    import pypdfium2 as pdfium

    locked = pdfium.PdfDocument(_text_pdf("100.1. Une regle.", b"secret"), password="secret")
    assert locked[0].get_textpage().get_text_range().strip() == "100.1. Une regle."
    owner_only = pdfium.PdfDocument(_text_pdf("Tarte aux pommes", b""))
    assert owner_only[0].get_textpage().get_text_range().strip() == "Tarte aux pommes"
    assert decode_bytes(_text_pdf("Tarte aux pommes", b""), "x.pdf").strip() == "Tarte aux pommes"

"""decode_bytes / read_document: encodings, line ends, and French errors naming the file."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.rules.decode import decode_bytes, read_document
from judge.rules.errors import DocumentError, JudgeError

SAMPLE = (
    "704.5g Si une créature a une endurance strictement supérieure à 0, elle est détruite.\n"
    "Exemple : « Mort-vivant » — l’œuf de la créature.\n"
    "704.5h Dernière ligne"
)


def test_plain_utf8() -> None:
    assert decode_bytes(SAMPLE.encode("utf-8"), "a.txt") == SAMPLE


def test_utf8_bom_is_stripped() -> None:
    text = decode_bytes(b"\xef\xbb\xbf" + SAMPLE.encode("utf-8"), "a.txt")
    assert text == SAMPLE
    assert not text.startswith("\ufeff")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32(codec: str) -> None:
    # "utf-16"/"utf-32" write a BOM; the -le/-be variants do not (NUL-pattern detection).
    data = SAMPLE.encode(codec)
    assert decode_bytes(data, "a.txt") == SAMPLE


@pytest.mark.parametrize("bom,codec", [(b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")])
def test_utf16_explicit_bom(bom: bytes, codec: str) -> None:
    assert decode_bytes(bom + SAMPLE.encode(codec), "a.txt") == SAMPLE


def test_cp1252_fallback() -> None:
    text = "Règle 704 : l’œuf — « Exemple » … 20 €"
    assert decode_bytes(text.encode("cp1252"), "a.txt") == text


def test_mixed_utf8_and_cp1252_lines_keep_the_utf8_lines() -> None:
    data = "ligne créée en UTF-8\n".encode() + "ligne collée en cp1252 : été\n".encode("cp1252")
    assert decode_bytes(data, "a.txt") == "ligne créée en UTF-8\nligne collée en cp1252 : été\n"


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_ends_are_normalised(newline: str) -> None:
    data = SAMPLE.replace("\n", newline).encode("utf-8")
    text = decode_bytes(data, "a.txt")
    assert "\r" not in text
    assert text.split("\n") == SAMPLE.split("\n")


def test_bom_and_bare_cr_together() -> None:
    data = b"\xef\xbb\xbf" + SAMPLE.replace("\n", "\r").encode("utf-8")
    assert decode_bytes(data, "a.txt") == SAMPLE


def test_mixed_line_ends() -> None:
    assert decode_bytes(b"a b c\r\nd e f\rg h i\nj", "a.txt") == "a b c\nd e f\ng h i\nj"


def _error(data: bytes, file: str = "regles-fr.txt") -> DocumentError:
    with pytest.raises(DocumentError) as info:
        decode_bytes(data, file)
    err = info.value
    assert isinstance(err, JudgeError)
    assert err.file == file
    assert file in str(err)
    return err


def test_empty_file() -> None:
    assert "est vide" in str(_error(b""))


def test_blank_file_is_empty() -> None:
    assert "est vide" in str(_error(b" \r\n\t\n"))


def test_bom_only_file_is_empty() -> None:
    assert "est vide" in str(_error(b"\xef\xbb\xbf"))


def test_png_is_binary() -> None:
    rng = random.Random(1234)
    data = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(rng.randrange(256) for _ in range(2000))
    assert "n'est pas un document texte" in str(_error(data, "image.png"))


def test_control_characters_without_nul_are_binary() -> None:
    data = bytes([0x01, 0x02, 0x03, 0x41, 0x1B, 0x42]) * 200
    assert "n'est pas un document texte" in str(_error(data, "bizarre.bin"))


def test_undecodable_bytes_name_the_line() -> None:
    # 0x81 is invalid UTF-8 and undefined in cp1252.
    err = _error(b"ligne 1\nligne 2\nligne \x81 trois\n")
    assert err.line == 3
    assert "ligne 3" in str(err)


def test_invalid_utf8_after_a_utf8_bom() -> None:
    err = _error(b"\xef\xbb\xbfok\nok\n\xc3\x28 cass\xc3\xa9")
    assert err.line == 3
    assert "UTF-8" in str(err)


def test_read_document_reads_and_decodes(tmp_path: Path) -> None:
    path = tmp_path / "règles.txt"
    path.write_bytes(b"\xef\xbb\xbf" + SAMPLE.replace("\n", "\r").encode("utf-8"))
    assert read_document(path) == SAMPLE
    assert read_document(str(path)) == SAMPLE


def test_read_document_missing(tmp_path: Path) -> None:
    path = tmp_path / "absent.txt"
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert "n'existe pas" in str(info.value)
    assert str(path) in str(info.value)
    assert info.value.file == str(path)


def test_read_document_directory(tmp_path: Path) -> None:
    with pytest.raises(DocumentError) as info:
        read_document(tmp_path)
    assert "dossier" in str(info.value)
    assert str(tmp_path) in str(info.value)


def test_read_document_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "vide.txt"
    path.write_bytes(b"")
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert "est vide" in str(info.value)
    assert str(path) in str(info.value)


def test_read_document_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Simulated: root (as in CI) reads files whatever their mode.
    path = tmp_path / "secret.txt"
    path.write_text("texte", encoding="utf-8")

    real_open = os.open

    def refuse(file: str, flags: int, *args: int) -> int:
        if file == str(path):
            raise PermissionError(13, "Permission denied", file)
        return real_open(file, flags, *args)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert "ne peut pas être lu" in str(info.value)
    assert str(path) in str(info.value)


# Any text survives any supported encoding with a BOM and any line-end convention.
_TEXT = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\ufeff"
    ),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip() != "")


@given(
    lines=st.lists(_TEXT, min_size=1, max_size=6),
    codec=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_roundtrip_property(lines: list[str], codec: str, newline: str) -> None:
    data = newline.join(lines).encode(codec)
    assert decode_bytes(data, "p.txt") == "\n".join(lines)

"""Bytes to text: byte-order marks, UTF-16 (with or without BOM), UTF-8, cp1252; line ends
normalised to `\\n`. Every failure is a `DocumentError` with a French message naming the file."""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat

from judge.rules.errors import DocumentError

# Rules documents are a few hundred kilobytes; anything far bigger is not one. The same
# limit holds for every document and board file read (ingest, the store, the sandbox).
MAX_BYTES = 20 * 1024 * 1024

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    # UTF-32 first: its little-endian BOM starts with the UTF-16 one.
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)

# Control characters ordinary text never contains (tab, line ends, \v and \f are allowed).
_CONTROL_RE = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_CONTROL_SHARE = 0.02  # above this share of control characters, the data is not text


def _q(file: str) -> str:
    return f"« {file} »"


def _line_at(data: bytes, offset: int) -> int:
    """1-based line number of a byte offset (CRLF, LF or bare CR)."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def _utf16_without_bom(data: bytes) -> str | None:
    """The codec of BOM-less UTF-16, guessed from where the NUL bytes fall, or None.

    Latin-script text in UTF-16 has a NUL high byte in almost every code unit, so NULs
    crowd one parity of offsets and are nearly absent from the other.
    """
    sample = data[:8192]
    sample = sample[: len(sample) - len(sample) % 2]
    units = len(sample) // 2
    if units < 2:
        return None
    even = sample[0::2].count(0) / units
    odd = sample[1::2].count(0) / units
    if odd > 0.4 and even < 0.1:
        return "utf-16-le"
    if even > 0.4 and odd < 0.1:
        return "utf-16-be"
    return None


# What cp1252 makes of a DOS (cp437) line: `Dandƒn`, `Ghazb\xa0n`, `Jun£n` for Dandân,
# Ghazbán, Junún (2006 and 2013 official texts): ƒ, or a Latin-1 sign between two letters.
_MISREAD_CP437 = re.compile(r"ƒ|(?<=[A-Za-z])[\xa0-\xbf×÷](?=[A-Za-z])")
# What only cp1252 text has: typographic apostrophes inside words, typographic quotes.
_CP1252_MARKS = re.compile(r"[A-Za-z][’‘][A-Za-z]|[“”]")


def _dos_letters(text: str) -> bool:
    """Whether a cp437 reading is ASCII and Latin-1 letters only (no box drawing, Greek…)."""
    return all(c.isascii() or ("\xc0" <= c <= "\xff" and c.isalpha()) for c in text)


def _single_byte_kind(line: bytes) -> str:
    """`dos` (cp1252 plainly misreads it, cp437 reads letters), `cp1252`, or `either`."""
    try:
        text = line.decode("cp1252")
    except UnicodeDecodeError:
        return "either"  # the caller tries cp1252 again and reports the byte
    dos = line.decode("cp437")
    letters = _dos_letters(dos) and not _MISREAD_CP437.search(dos)
    if _MISREAD_CP437.search(text) and letters:
        return "dos"
    if not letters or _CP1252_MARKS.search(text):
        return "cp1252"
    return "either"


def _decode_fallback(data: bytes, file: str) -> str:
    """UTF-8 failed somewhere: decode line by line, UTF-8 where it works, cp1252 elsewhere.

    A file that is cp1252 throughout decodes as cp1252; a UTF-8 file with a few pasted
    cp1252 lines keeps its UTF-8 lines intact instead of turning them into mojibake. A line
    that cp1252 plainly misreads is DOS text (cp437); so is a line either could be, in a
    file that has such lines and none that only cp1252 reads (2013's `Æther` beside
    `Dandân`).
    """
    lines = data.splitlines(keepends=True)
    out: list[str | None] = []
    for line in lines:
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(None)
    kinds = {i: _single_byte_kind(lines[i]) for i, text in enumerate(out) if text is None}
    dos_file = "dos" in kinds.values() and "cp1252" not in kinds.values()
    for i, kind in kinds.items():
        if kind == "dos" or (dos_file and _dos_letters(lines[i].decode("cp437"))):
            out[i] = lines[i].decode("cp437")
            continue
        try:
            out[i] = lines[i].decode("cp1252")
        except UnicodeDecodeError as exc:
            raise DocumentError(
                f"Le fichier {_q(file)} n'a pas pu être décodé (ni UTF-8, ni UTF-16, "
                f"ni Windows-1252) : octet 0x{lines[i][exc.start]:02X} illisible à la ligne "
                f"{i + 1}.",
                file,
                i + 1,
            ) from None
    return "".join(t or "" for t in out)


def _check_text(text: str, file: str) -> None:
    if not text.strip():
        raise DocumentError(f"Le fichier {_q(file)} est vide.", file)
    controls = len(_CONTROL_RE.findall(text))
    if controls > _CONTROL_SHARE * len(text):
        raise DocumentError(
            f"Le fichier {_q(file)} n'est pas un document texte (trop de caractères de contrôle).",
            file,
        )


def _extract_office(data: bytes, file: str) -> str | None:
    """The text of a PDF or Word (.docx) document, recognised by its content, or None."""
    if data.startswith(b"%PDF-"):
        from judge.rules.layouts.pdf import extract_text as pdf_text

        return pdf_text(data, file)
    if data.startswith(b"PK\x03\x04"):
        from judge.rules.layouts.docx import extract_text as docx_text

        return docx_text(data, file)
    return None


def decode_bytes(data: bytes, file: str) -> str:
    """Decode a document's bytes to text with `\\n` line ends and no BOM. A PDF or a Word
    (.docx) document, recognised by its first bytes, becomes the text of its paragraphs.

    Raises DocumentError for an empty file, binary data, or bytes no supported encoding reads.
    """
    if not data:
        raise DocumentError(f"Le fichier {_q(file)} est vide.", file)
    extracted = _extract_office(data, file)
    if extracted is not None:
        _check_text(extracted, file)
        return extracted

    text: str | None = None
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            try:
                text = body.decode(codec)
            except UnicodeDecodeError as exc:
                line = _line_at(body, exc.start) if codec == "utf-8" else None
                where = f" (ligne {line})" if line else ""
                raise DocumentError(
                    f"Le fichier {_q(file)} commence par une marque {label} mais son contenu "
                    f"n'est pas du {label} valide{where}.",
                    file,
                    line,
                ) from None
            break

    if text is None:
        codec16 = _utf16_without_bom(data)
        if codec16 is not None:
            try:
                text = data.decode(codec16)
            except UnicodeDecodeError:
                raise DocumentError(
                    f"Le fichier {_q(file)} n'est pas un document texte (données binaires).",
                    file,
                ) from None
        elif b"\x00" in data:
            raise DocumentError(
                f"Le fichier {_q(file)} n'est pas un document texte (données binaires).",
                file,
            )
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = _decode_fallback(data, file)

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    _check_text(text, file)
    return text


def display_name(name: str | os.PathLike[str]) -> str:
    """A file name as text that can be shown and written to JSON: bytes the file system
    gave that are not UTF-8 (kept by Python as lone surrogates) become U+FFFD."""
    raw = os.fsencode(name)
    return raw.decode("utf-8", "replace")


class NotRegularFile(OSError):
    """`read_bounded` refused a FIFO, device or socket. `strerror` is the French reason."""


class FileTooLarge(OSError):
    """`read_bounded` refused a file bigger than its limit. `strerror` is the French reason."""


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file, at most `limit` of them, read once from one descriptor.

    Neither the name nor `stat` is trusted: the open descriptor is checked (`/dev/zero` and
    `/proc` files claim a size of 0), at most `limit + 1` bytes are read, and a FIFO is
    opened without blocking. Raises the system's OSError (a directory is IsADirectoryError),
    NotRegularFile or FileTooLarge, each with `filename` set.
    """
    file = os.fspath(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(file, flags)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), file)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(
                None, "n'est pas un fichier ordinaire (tube, périphérique ou socket)", file
            )
        too_big = FileTooLarge(None, f"fichier trop gros (limite {limit} octets)", file)
        if info.st_size > limit:
            raise too_big
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise too_big
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_error(path: str | os.PathLike[str], exc: OSError) -> DocumentError:
    """The French DocumentError for a document `read_bounded` could not read."""
    file = display_name(path)
    if isinstance(exc, FileNotFoundError):
        message = f"Le fichier {_q(file)} n'existe pas."
    elif isinstance(exc, IsADirectoryError):
        message = f"{_q(file)} est un dossier, pas un fichier : indiquez un document texte."
    elif isinstance(exc, FileTooLarge):
        message = (
            f"Le fichier {_q(file)} est trop volumineux pour être un document de règles "
            f"({exc.strerror})."
        )
    elif isinstance(exc, NotRegularFile):
        message = f"{_q(file)} {exc.strerror} : indiquez un document texte."
    elif isinstance(exc, PermissionError):
        message = f"Le fichier {_q(file)} ne peut pas être lu : accès refusé."
    else:
        message = (
            f"Le fichier {_q(file)} ne peut pas être lu : {exc.strerror or type(exc).__name__}."
        )
    return DocumentError(message, file)


def read_document_bytes(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> bytes:
    """`read_bounded`, with a French DocumentError naming the file for every failure."""
    try:
        return read_bounded(path, limit)
    except OSError as exc:
        raise read_error(path, exc) from None
    except ValueError:  # a NUL character in the name
        file = display_name(path)
        raise DocumentError(
            f"{_q(file)} : nom de fichier invalide (caractère nul).", file
        ) from None


def read_document(path: str | os.PathLike[str]) -> str:
    """Read and decode a document file. Raises DocumentError with a French message."""
    return decode_bytes(read_document_bytes(path), display_name(path))

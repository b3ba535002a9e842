"""A rules Word document (.docx) to the text the `official` layout reads.

Word keeps one paragraph per rule, so the text is its paragraphs, one per line (a manual
line break inside a paragraph starts a new line, as in the official text). Styles carry the
structure: a glossary term (style `CR GlossaryWord`, or any bold-only paragraph inside the
glossary) opens an entry and gets a blank line before it; Word's empty paragraphs stay blank
lines, which separate entries in the official text too (so a term Word styled as plain text
is still found after one). Automatic list numbering (`w:numPr`), which the official
documents do not use, is written out as `N. ` in front of the paragraph so that a numbered
list is not silently lost.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from judge.rules.errors import DocumentError

_TERM_STYLES = ("glossaryword", "glossary word", "glossaryterm", "glossary term")


def _q(file: str) -> str:
    return f"« {file} »"


def _open(data: bytes, file: str) -> Any:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise DocumentError(
            f"Le fichier {_q(file)} n'est pas un document Word lisible (archive tronquée "
            f"ou endommagée : {exc}).",
            file,
        ) from None
    if "word/document.xml" not in names:
        raise DocumentError(
            f"Le fichier {_q(file)} est une archive zip mais pas un document Word (.docx) : "
            "il n'a pas de « word/document.xml ».",
            file,
        )
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        return docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise DocumentError(
            f"Le fichier {_q(file)} n'est pas un document Word lisible ({exc}).", file
        ) from None
    except Exception as exc:  # lxml's XMLSyntaxError and kin: a damaged part
        raise DocumentError(
            f"Le fichier {_q(file)} n'est pas un document Word lisible "
            f"({type(exc).__name__} : {exc}).",
            file,
        ) from None


def _is_term(paragraph: Any, in_glossary: bool) -> bool:
    style = (paragraph.style.name if paragraph.style is not None else "").lower()
    if any(name in style for name in _TERM_STYLES):
        return True
    runs = [r for r in paragraph.runs if r.text.strip()]
    return in_glossary and bool(runs) and all(r.bold for r in runs)


def _number_prefix(paragraph: Any, counters: dict[tuple[str, str], int]) -> str:
    """`N. ` for a paragraph in an automatic Word list, counting per list and level."""
    ppr = paragraph._p.pPr
    num = ppr.numPr if ppr is not None else None
    if num is None or num.numId is None:
        return ""
    key = (str(num.numId.val), str(num.ilvl.val if num.ilvl is not None else 0))
    counters[key] = counters.get(key, 0) + 1
    return f"{counters[key]}. "


def extract_text(data: bytes, file: str) -> str:
    """The text of a rules .docx. Raises DocumentError (French, naming the file) for a file
    that is not a Word document or is damaged."""
    document = _open(data, file)
    out: list[str] = []
    counters: dict[tuple[str, str], int] = {}
    glossary_seen = 0
    for paragraph in document.paragraphs:
        lines = [" ".join(part.split()) for part in paragraph.text.split("\n")]
        text = "\n".join(part for part in lines if part)
        lowered = text.lower()
        if lowered == "glossary":
            glossary_seen += 1
        in_glossary = glossary_seen >= 2 and lowered not in ("glossary", "credits")
        if lowered == "credits" and glossary_seen >= 2:
            glossary_seen = 0
        if text and in_glossary and _is_term(paragraph, in_glossary):
            out.append("")
        out.append(_number_prefix(paragraph, counters) + text if text else "")
    return "\n".join(out).strip() + "\n"

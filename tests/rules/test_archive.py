"""Every English edition of ../shared/corpus-en (the 24 of archive/ and the 2 beside it)
ingests whole through `judge ingest`'s own path (store.ingest): each rule line, section
heading, example line and glossary term of the text is in the edition, at its line, with
the right number, date and numbering. The expected figures are computed here from the bytes,
with a decoder and line patterns of this module's own, never the parser's."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pytest

from judge.rules import store
from judge.rules.decode import decode_bytes
from judge.rules.layouts.official import parse
from judge.rules.model import Edition, Rule
from tests.conftest import CORPUS_EN

ARCHIVE = CORPUS_EN / "archive"
# The file names the archive README lists, and the two editions beside it.
ARCHIVE_NAMES = [
    f"en-{d}.txt"
    for d in [
        "2003-03-15",
        "2004-10-01",
        "2005-10-01",
        "2006-07-15",
        "2007-10-01",
        "2008-10-01",
        "2009-10-01",
        "2010-07-16",
        "2012-07-01",
        "2013-07-11",
        "2014-09-26",
        "2015-07-17",
        "2016-09-30",
        "2017-09-25",
        "2018-10-05",
        "2019-07-12",
        "2020-07-03",
        "2021-07-12",
        "2022-10-07",
        "2023-11-17",
        "2024-03-08",
        "2024-08-02",
        "2025-04-04",
        "2025-11-14",
    ]
]
OTHER_NAMES = ["en-2008-07-15.txt", "en-2011-09-30.txt"]
NAMES = ARCHIVE_NAMES + OTHER_NAMES
# The archive README: these editions state a date other than their file name's.
STATED_DATES = {
    "en-2013-07-11.txt": "2013-07-13",
    "en-2014-09-26.txt": "2014-09-25",
    "en-2017-09-25.txt": "2017-09-29",
    "en-2021-07-12.txt": "2021-07-23",
    "en-2024-08-02.txt": "2024-07-30",
}


def archive_path(name: str) -> Path:
    path = (ARCHIVE if name in ARCHIVE_NAMES else CORPUS_EN) / name
    if not path.is_file():
        pytest.skip(f"../shared/corpus-en/archive absent : {path} introuvable")
    return path


# --- the text, read independently of judge.rules.decode and the layout parsers ---------------


def read_lines(path: Path) -> list[str]:
    """The file's lines: BOM-sniffed UTF-16/UTF-8, else UTF-8, else cp1252 (the archive's
    cp1252 files are cp1252 throughout); CRLF, bare CR and LF all end a line."""
    data = path.read_bytes()
    if data.startswith(codecs.BOM_UTF16_LE):
        text = data[2:].decode("utf-16-le")
    elif data.startswith(codecs.BOM_UTF8):
        text = data[3:].decode("utf-8")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252")
    return re.split(r"\r\n|\r|\n", text)


# A rule line: up to three spaces (2009 has one), the number (a stray space after the
# section's dot in 2005-2006: `606. 8b`), then a space, or a capital after the dot
# (`901.4.All` in 2022-2024), or nothing.
RULE_LINE = re.compile(
    r" {0,3}(\d{3})\. ?(\d{1,3})([a-z]{0,2})(?:\.?[ \t]+(\S.*)|\.(?=[A-Z])(.*)|\.?)"
)
HEADING_LINE = re.compile(r"(\d{3}|\d)\.[ \t]+(?!\d)(\S.*)")
STATED = re.compile(r"(?:effective|current) as of ([A-Z][a-z]+) (\d{1,2}),? (\d{4})")
MONTHS = "January February March April May June July August September October November December"


@dataclass(frozen=True)
class TextLine:
    at: int  # 1-based line number
    number: str
    text: str


def dos_lines(path: Path) -> dict[int, str]:
    """A single-byte file's lines read as cp437 (DOS) where that differs from cp1252, by
    1-based number: a few lines of 2006 and 2013 are DOS text (`Dandân`, which cp1252 reads
    `Dandƒn`); either reading is accepted."""
    data = path.read_bytes()
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF8)):
        return {}
    try:
        data.decode("utf-8")
        return {}
    except UnicodeDecodeError:
        pairs = zip(read_lines(path), re.split(r"\r\n|\r|\n", data.decode("cp437")), strict=True)
    return {i: dos for i, (line, dos) in enumerate(pairs, 1) if dos != line}


class Text:
    """What the text of one edition holds, from its lines."""

    def __init__(self, path: Path) -> None:
        self.lines = read_lines(path)
        self.dos = dos_lines(path)
        marks = [s.strip() for s in self.lines]
        # The contents end with their own "Credits" line; the rules run to the next
        # "Glossary", the glossary to the last "Credits".
        self.rules_from = marks.index("Credits") + 1
        self.glossary_at = marks.index("Glossary", self.rules_from)
        self.glossary_to = len(marks) - 1 - marks[::-1].index("Credits")

    def same(self, at: int, parsed: str, read: str) -> bool:
        """Whether `parsed` is `read`, the end of line `at`, in either reading of it."""
        dos = self.dos.get(at, "").rstrip()
        return parsed == read or (len(parsed) == len(read) and dos.endswith(parsed))

    def _region(self) -> range:
        return range(self.rules_from, self.glossary_at)

    @cached_property
    def rules(self) -> list[TextLine]:
        out = []
        for i in self._region():
            m = RULE_LINE.fullmatch(self.lines[i])
            if m:
                number = f"{m.group(1)}.{int(m.group(2))}{m.group(3)}"
                body = m.group(4) or m.group(5) or ""
                out.append(TextLine(i + 1, number, body.strip()))
        return out

    @cached_property
    def headings(self) -> list[TextLine]:
        out = []
        for i in self._region():
            m = HEADING_LINE.fullmatch(self.lines[i])
            if m:
                out.append(TextLine(i + 1, m.group(1), m.group(2).strip()))
        return out

    def examples(self, start: int, end: int) -> list[int]:
        """1-based numbers of the `Example:` lines between two 0-based indices."""
        return [i + 1 for i in range(start, end) if self.lines[i].strip().startswith("Example")]

    @cached_property
    def glossary_terms(self) -> list[TextLine]:
        """A term: a line at the margin after a blank line (or the heading), with a line
        under it; indented lines after a blank line continue an entry (2003-2008)."""
        out = []
        for i in range(self.glossary_at + 1, self.glossary_to):
            line, above = self.lines[i], self.lines[i - 1]
            below = self.lines[i + 1] if i + 1 < len(self.lines) else ""
            if line.strip() and not line[0].isspace() and not above.strip() and below.strip():
                out.append(TextLine(i + 1, "", line.strip()))
        return out

    @cached_property
    def stated_date(self) -> str | None:
        for line in self.lines[:30]:
            m = STATED.search(line)
            if m:
                month = MONTHS.split().index(m.group(1)) + 1
                return f"{m.group(3)}-{month:02d}-{int(m.group(2)):02d}"
        return None

    @cached_property
    def numbering(self) -> str | None:
        titles = {(h.number, h.text) for h in self.headings}
        old = ("420", "State-Based Effects") in titles
        new = ("704", "State-Based Actions") in titles
        return None if old == new else ("pre2009" if old else "modern")


_TEXTS: dict[str, Text] = {}
_INGESTED: dict[str, store.IngestResult] = {}


def text_of(name: str) -> Text:
    if name not in _TEXTS:
        _TEXTS[name] = Text(archive_path(name))
    return _TEXTS[name]


@pytest.fixture(scope="session")
def archive_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("archive-home")


Ingested = Callable[[str], store.IngestResult]


@pytest.fixture
def ingested(archive_home: Path) -> Ingested:
    """`ingested(name)`: the edition `judge ingest` makes of the file, once per session."""

    def get(name: str) -> store.IngestResult:
        if name not in _INGESTED:
            _INGESTED[name] = store.ingest(archive_path(name), home=archive_home)
        return _INGESTED[name]

    return get


def _edition(ingested: Ingested, name: str) -> Edition:
    return ingested(name).edition


def _by_line(ed: Edition) -> dict[int, Rule]:
    return {r.source.line: r for r in ed.rules.values() if r.source is not None}


# --- all ingest whole -------------------------------------------------------------------------


def test_the_archive_holds_the_files_listed() -> None:
    if not ARCHIVE.is_dir():
        pytest.skip(f"../shared/corpus-en/archive absent : {ARCHIVE} introuvable")
    assert sorted(p.name for p in ARCHIVE.glob("*.txt")) == ARCHIVE_NAMES


@pytest.mark.parametrize("name", NAMES)
def test_every_rule_line_is_a_rule(name: str, ingested: Ingested) -> None:
    text, ed = text_of(name), _edition(ingested, name)
    assert len(text.rules) > 500
    assert ed.rule_count == len(text.rules)
    by_line = _by_line(ed)
    renumbered = {i.number for i in ed.issues if i.kind == "duplicate_fixed"}
    for line in text.rules:
        rule = by_line.get(line.at)
        assert rule is not None and rule.kind in ("rule", "subrule"), (line, rule)
        assert rule.number == line.number or rule.number in renumbered, (line, rule.number)
        assert rule.paragraphs and text.same(line.at, rule.paragraphs[0].text, line.text), line
    parsed = [r for r in ed.rules.values() if r.kind in ("rule", "subrule") and r.paragraphs]
    assert sorted(r.source.line for r in parsed if r.source) == [t.at for t in text.rules]
    assert not [i for i in ed.issues if i.kind == "unparsed"]


@pytest.mark.parametrize("name", NAMES)
def test_every_heading_is_a_section_or_chapter(name: str, ingested: Ingested) -> None:
    text, ed = text_of(name), _edition(ingested, name)
    by_line = _by_line(ed)
    assert len(text.headings) > 50
    for line in text.headings:
        rule = by_line.get(line.at)
        assert rule is not None and (rule.number, rule.title) == (line.number, line.text), line
    parsed = [r for r in ed.rules.values() if r.kind in ("section", "chapter") and r.source]
    assert len(parsed) == len(text.headings)


@pytest.mark.parametrize("name", NAMES)
def test_every_example_belongs_to_the_rule_above(name: str, ingested: Ingested) -> None:
    text, ed = text_of(name), _edition(ingested, name)
    by_line = _by_line(ed)
    starts = [t.at for t in text.rules] + [t.at for t in text.headings]
    expected = text.examples(text.rules_from, text.glossary_at)
    assert expected
    for at in expected:
        owner = by_line[max(s for s in starts if s < at)]
        kept = [p for p in owner.paragraphs if p.source.line == at]
        assert [p.kind for p in kept] == ["example"], (at, owner.number)
        assert text.same(at, kept[0].text, text.lines[at - 1].strip()), at
    in_rules = [p for r in ed.rules.values() for p in r.paragraphs if p.kind == "example"]
    assert len(in_rules) == len(expected)


@pytest.mark.parametrize("name", NAMES)
def test_every_line_of_the_rules_is_kept(name: str, ingested: Ingested) -> None:
    """Each other line between the contents and the glossary (continuations, examples, a
    heading's text) is a paragraph of the rule or heading above it, word for word."""
    text, ed = text_of(name), _edition(ingested, name)
    starts = {t.at for t in text.rules} | {t.at for t in text.headings}
    kept = {p.source.line: (r.source, p.text) for r in ed.rules.values() for p in r.paragraphs}
    owner = min(starts)  # the contents may end after "Credits" ("Questions?" in 2003)
    for at in range(owner, text.glossary_at + 1):
        line = text.lines[at - 1].strip()
        if at in starts:
            owner = at
        elif line:
            source, paragraph = kept.pop(at)
            assert source and source.line == owner and text.same(at, paragraph, line), at
    # What remains: each rule's first paragraph, on its own line.
    assert all(source and source.line == at for at, (source, _) in kept.items())


@pytest.mark.parametrize("name", NAMES)
def test_the_glossary_is_whole(name: str, ingested: Ingested) -> None:
    text, ed = text_of(name), _edition(ingested, name)
    terms = text.glossary_terms
    assert len(terms) > 200
    assert [(g.term, g.source.line) for g in ed.glossary] == [(t.text, t.at) for t in terms]
    examples = text.examples(text.glossary_at, text.glossary_to)
    kept = [p.source.line for g in ed.glossary for p in g.paragraphs if p.kind == "example"]
    assert kept == examples
    # Every other line is a paragraph of the entry of the term above it, word for word.
    kept = {p.source.line: (g.source.line, p.text) for g in ed.glossary for p in g.paragraphs}
    term_at = {t.at for t in terms}
    owner = 0
    for at in range(terms[0].at, text.glossary_to + 1):
        line = text.lines[at - 1].strip()
        if at in term_at:
            owner = at
        elif line:
            entry, paragraph = kept.pop(at)
            assert entry == owner and text.same(at, paragraph, line), at
    assert not kept


@pytest.mark.parametrize("name", NAMES)
def test_id_date_and_numbering_come_from_the_text(name: str, ingested: Ingested) -> None:
    text, ed = text_of(name), _edition(ingested, name)
    stated = text.stated_date
    assert stated is not None
    assert stated == STATED_DATES.get(name, name[3:13])
    assert (ed.id, ed.date, ed.language) == (f"en-{stated}", stated, "en")
    assert text.numbering == ("pre2009" if stated < "2009-10-01" else "modern")
    assert ed.numbering == text.numbering


def test_the_archive_covers_every_encoding_and_line_end() -> None:
    """The files above include each shape the decoder must read (so the tests cover it)."""
    shapes: set[str] = set()
    for name in ARCHIVE_NAMES:
        data = archive_path(name).read_bytes()
        if data.startswith(codecs.BOM_UTF16_LE):
            shapes.add("utf-16-le-bom")
            data = data[2:].decode("utf-16-le").encode("utf-8")
        elif data.startswith(codecs.BOM_UTF8):
            shapes.add("utf-8-bom")
        elif max(data) < 0x80:
            shapes.add("ascii")
        else:
            try:
                data.decode("utf-8")
                shapes.add("utf-8")
            except UnicodeDecodeError:
                shapes.add("cp1252")
        if re.search(rb"\r(?!\n)", data):
            shapes.add("bare-cr")
        if b"\r\n" in data:
            shapes.add("crlf")
    assert shapes >= {"utf-16-le-bom", "utf-8-bom", "ascii", "cp1252", "bare-cr", "crlf"}


def test_utf16_edition_is_whole(ingested: Ingested) -> None:
    name = "en-2016-09-30.txt"
    assert archive_path(name).read_bytes().startswith(codecs.BOM_UTF16_LE)
    ed = _edition(ingested, name)
    assert ed.id == "en-2016-09-30" and ed.rule_count == len(text_of(name).rules) > 2000
    assert "lethal damage" in ed.rules["704.5g"].text


# --- the parser fixes these files needed (no ../shared needed) ---------------------------------

_DOC = """Magic: The Gathering Comprehensive Rules

These rules are effective as of October 7, 2022.

Contents

6. Multiplayer Rules
606. Two-Headed Giant
607. Emperor
Glossary
Credits

6. Multiplayer Rules

606. Two-Headed Giant

606.1. Winning and losing.

606.1a If a team's life total is 0 or less, the team loses the game.

606. 1b Players win and lose the game only as a team, not as individuals.

606.1c If a player concedes, his or her team loses the game.

607. Emperor

607.1. The Emperor variant involves two teams.

607.2.All players on a team sit together.
Example: An example of 607.2.

607.3. Once all players have kept their opening hands, the game begins.

Glossary

Team
A group of players.

Credits

Nobody.
"""


def test_a_stray_space_in_a_rule_number() -> None:
    """2005, 2006: `606. 8b` is rule 606.8b, not a second section 606 (which hid 607)."""
    doc = parse(_DOC, "t.txt")
    by_number = {r.number: r for r in doc.rules}
    assert [p.text for p in by_number["606.1b"].paragraphs] == [
        "Players win and lose the game only as a team, not as individuals."
    ]
    assert by_number["607"].title == "Emperor"
    assert doc.issues == []


def test_no_space_after_a_rule_number() -> None:
    """2022-2024: `901.4.All plane…` is rule 901.4, not text of the rule above."""
    doc = parse(_DOC, "t.txt")
    rule = next(r for r in doc.rules if r.number == "607.2")
    assert [(p.kind, p.text) for p in rule.paragraphs] == [
        ("text", "All players on a team sit together."),
        ("example", "Example: An example of 607.2."),
    ]
    assert [p.text for r in doc.rules if r.number == "607.1" for p in r.paragraphs] == [
        "The Emperor variant involves two teams."
    ]


def test_a_section_title_with_a_number_stays_a_section() -> None:
    """Only the next number in sequence is joined: `607. 2 Players` after 606.1c is 607."""
    doc = parse(_DOC.replace("607. Emperor\n\n607.1.", "607. 2 Players\n\n607.1."), "t.txt")
    assert next(r for r in doc.rules if r.number == "607").title == "2 Players"


_GLOSSARY_2003 = """Expansion Symbol
The small icon printed below the right edge of the illustration.
     The expansion symbols to date are:

Expansions and Editions

     Arabian Nights(r) [symbol]

     Antiquities(r) [symbol]

Face-Down
See rule 504.
"""


def test_a_heading_inside_a_glossary_entry() -> None:
    """2003: "Expansion Symbol" lists the sets under headings of its own, each between blank
    lines and followed by indented lines: they are not glossary terms."""
    doc = parse(_DOC.replace("Team\nA group of players.\n", _GLOSSARY_2003), "t.txt")
    assert [g.term for g in doc.glossary] == ["Expansion Symbol", "Face-Down"]
    assert [p.text for p in doc.glossary[0].paragraphs][2:] == [
        "Expansions and Editions",
        "Arabian Nights(r) [symbol]",
        "Antiquities(r) [symbol]",
    ]


def test_a_dos_line_in_a_single_byte_file() -> None:
    """2006, 2013: a few lines are DOS (cp437) text in a cp1252 or ASCII file. Each line
    that cp1252 plainly misreads (ƒ, a Latin-1 sign inside a word) and cp437 reads as
    letters is cp437; the others stay cp1252."""
    lines = [
        "Those cards are Dandân, El-Hajjâj, Ghazbán Ogre, Junún Efreet.".encode("cp437"),
        "It’s a “legend rule” – see rule 704.5j. Æther Storm, 50 ¢.".encode("cp1252"),
        b"Plain ASCII.",
    ]
    assert decode_bytes(b"\r\n".join(lines), "t.txt").split("\n") == [
        "Those cards are Dandân, El-Hajjâj, Ghazbán Ogre, Junún Efreet.",
        "It’s a “legend rule” – see rule 704.5j. Æther Storm, 50 ¢.",
        "Plain ASCII.",
    ]


def test_a_dos_file_reads_its_ambiguous_lines_as_dos() -> None:
    """2013: `Æther` alone reads as cp1252 too (`’ther`); beside a line only cp437 reads,
    and with no line only cp1252 reads, it is DOS text as well."""
    dos = ["Dandân, El-Hajjâj.", "Abbey Matron; Æther Storm; Aliban's Tower."]
    data = b"\r\n".join([b"Plain ASCII.", *(line.encode("cp437") for line in dos)])
    assert decode_bytes(data, "t.txt").split("\n") == ["Plain ASCII.", *dos]
    # Alone, the ambiguous line keeps the cp1252 reading (most single-byte files).
    assert (
        decode_bytes(dos[1].encode("cp437"), "t.txt")
        == "Abbey Matron; ’ther Storm; Aliban's Tower."
    )

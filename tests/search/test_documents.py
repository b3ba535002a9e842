"""The view's documents as its tables hold them (`Documents`: a `DocInfo` made when read) and
the documents of a rule found from the tables' codes (`OpenedIndex.documents_of`)."""

from __future__ import annotations

from array import array

import pytest

from judge.search.index import DocInfo, Documents
from judge.search.query import Searcher


def _documents(edition_of: list[int], kinds: bytes) -> Documents:
    n = len(edition_of)
    return Documents(
        ["fr-2024", "en-2011"],
        array("H", edition_of),
        ["704.5a", "704.5"],
        array("I", [i % 2 for i in range(n)]),
        kinds,
        bytes([i % 2 for i in range(n)]),
        array("I", range(n)),
    )


def test_a_document_is_read_from_the_tables() -> None:
    docs = _documents([0, 1, 1], bytes([0, 2, 3]))
    assert len(docs) == 3
    assert docs[1] == DocInfo("en-2011", "704.5", "title", "en", 1)
    assert list(docs) == [docs[0], docs[1], docs[2]] == docs[0:3]
    assert docs[-1] == DocInfo("en-2011", "704.5a", "glossary", "fr", 2)
    assert docs.kind_codes.tolist() == [0, 2, 3]
    assert docs.edition_index.tolist() == [0, 1, 1]
    # the places of the copies of a result, from the same columns
    assert docs.places([2, 0, 2]) == [(d.edition, d.rule) for d in (docs[2], docs[0], docs[2])]
    assert docs.places(iter([1])) == [("en-2011", "704.5")] and docs.places([]) == []


@pytest.mark.parametrize(
    ("edition_of", "kinds"),
    [([0, 2], bytes([0, 0])), ([0, 1], bytes([0, 9])), ([0, 1], bytes([0]))],
)
def test_a_code_no_table_names_is_refused(edition_of: list[int], kinds: bytes) -> None:
    with pytest.raises(ValueError, match="incohérente"):
        _documents(edition_of, kinds)


def test_the_documents_of_a_rule_are_those_of_its_tables(en_searcher: Searcher) -> None:
    opened = en_searcher._opened
    docs = opened.documents
    expected: dict[tuple[str, str], list[int]] = {}
    for d, info in enumerate(docs):
        if info.kind != "glossary":
            expected.setdefault((info.edition, info.rule), []).append(d)
    assert len(expected) > 3000
    for (edition, rule), found in expected.items():
        assert opened.documents_of(edition, rule).tolist() == found
    assert opened.documents_of("fr-2024", "no such rule").tolist() == []
    assert opened.documents_of("no such edition", "704.5a").tolist() == []
    glossary = next(info for info in docs if info.kind == "glossary")
    assert opened.documents_of(glossary.edition, glossary.rule).tolist() == []

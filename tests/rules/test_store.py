"""Ingesting documents into the store: ids, refusal to overwrite, bad input, atomicity."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.cli import main
from judge.rules import store
from judge.rules.index import load_index
from tests.conftest import EN_FILES, require_corpus_en

MINI = """Magic: The Gathering Comprehensive Rules

These rules are effective as of June 7, 2024.

Contents

7. Additional Rules
704. State-Based Actions
Glossary
Credits

7. Additional Rules

704. State-Based Actions

704.1. State-based actions are game actions that happen automatically.

704.5. The state-based actions are as follows:

704.5a If a player has 0 or less life, that player loses the game.

704.5aa If a permanent has two-letter numbering, it still parses. See rule 704.5a.

Glossary

Legend Rule
A state-based action. See rule 704.5j.

Credits

Nobody.
"""


def snapshot(root: Path) -> dict[str, bytes]:
    if not root.exists():
        return {}
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    path = tmp_path / "mini.txt"
    path.write_text(MINI, encoding="utf-8")
    return path


def test_ingest_derives_id_from_date(tmp_home: Path, mini: Path) -> None:
    result = store.ingest(mini)
    assert result.edition.id == "en-2024-06-07"
    assert (store.editions_dir() / "en-2024-06-07" / "edition.json").is_file()
    index = load_index()
    rule = index.lookup("704.5aa", "en-2024-06-07")
    assert rule.parent == "704.5" and rule.references[0].target == "704.5a"
    assert rule.source is not None and rule.source.file == "mini.txt"


def test_refuses_overwrite_without_replace(tmp_home: Path, mini: Path) -> None:
    store.ingest(mini)
    before = snapshot(tmp_home)
    with pytest.raises(store.StoreError, match="--replace"):
        store.ingest(mini)
    assert snapshot(tmp_home) == before
    assert store.ingest(mini, replace=True).replaced


def test_shipped_ids_are_reserved(
    tmp_home: Path, mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", str(mini), "--edition", "fr-2024"]) == 2
    assert "livrée avec le corpus" in capsys.readouterr().err
    assert snapshot(tmp_home) == {}


def test_invalid_id(tmp_home: Path, mini: Path) -> None:
    with pytest.raises(store.StoreError, match="Identifiant d'édition invalide"):
        store.ingest(mini, edition_id="../../etc")


BAD_INPUTS = {
    "vide.txt": b"",
    "binaire.bin": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4,
    "sans-regles.txt": "Un simple texte.\nSans aucune règle numérotée.\n".encode(),
    "tronque.txt": MINI.split("704.1.")[0].encode(),
    "coupe.txt": MINI.split("704.5aa")[0].encode(),
    "encodage.txt": b"\xff\xfe\x00\xd8\x00\xd8 bad surrogates" * 3,
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_is_a_french_error_and_changes_nothing(
    name: str, tmp_home: Path, tmp_path: Path, mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", str(mini)]) == 0
    before = snapshot(tmp_home)
    path = tmp_path / name
    path.write_bytes(BAD_INPUTS[name])
    capsys.readouterr()
    assert main(["ingest", str(path), "--edition", "en-test"]) == 2
    err = capsys.readouterr().err
    assert name in err and "Traceback" not in err
    assert err.startswith("Erreur : ")
    assert snapshot(tmp_home) == before


def test_missing_path(tmp_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", str(tmp_path / "absent.txt")]) == 2
    err = capsys.readouterr().err
    assert "absent.txt" in err and "n'existe pas" in err


def test_failure_in_the_middle_leaves_the_store_as_it_was(
    tmp_home: Path, mini: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.ingest(mini)
    before = snapshot(tmp_home)

    def half_write(folder: Path, meta: object, data: bytes) -> None:
        (folder / "document.txt").write_bytes(data[: len(data) // 2])
        raise OSError("disque plein (simulé)")

    monkeypatch.setattr(store, "_write_edition", half_write)
    with pytest.raises(store.StoreError, match="disque plein"):
        store.ingest(mini, replace=True)
    assert snapshot(tmp_home) == before
    assert not [p for p in store.editions_dir().iterdir() if store._leftover(p.name)]


def test_failure_while_swapping_restores_the_old_edition(
    tmp_home: Path, mini: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.ingest(mini)
    before = snapshot(tmp_home)
    real_replace = os.replace
    calls = []

    def failing_replace(src: object, dst: object) -> None:
        calls.append((src, dst))
        if len(calls) == 2:  # the old edition is moved aside, the new one fails to land
            raise OSError("panne simulée")
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(store.os, "replace", failing_replace)
    with pytest.raises(store.StoreError, match="panne simulée"):
        store.ingest(mini, replace=True)
    monkeypatch.setattr(store.os, "replace", real_replace)
    assert snapshot(tmp_home) == before
    assert load_index().lookup("704.5a", "en-2024-06-07").text.startswith("If a player")


def test_english_editions_ingest_and_print(
    tmp_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_corpus_en()
    for path in EN_FILES.values():
        assert main(["ingest", str(path)]) == 0
    out = capsys.readouterr().out
    assert "en-2011-09-30" in out and "en-2008-07-15" in out
    assert main(["rule", "420.5e", "--edition", "en-2008-07-15"]) == 0
    out = capsys.readouterr().out
    assert "legendary permanents with the same name are in play, all are put into" in out
    assert main(["rule", "704.5g", "--edition", "en-2011-09-30"]) == 0
    out = capsys.readouterr().out
    assert "that creature has been dealt lethal damage and is destroyed" in out


def test_a_damaged_stored_edition_does_not_block_the_others(
    tmp_home: Path, mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store.ingest(mini)
    (store.editions_dir() / "en-2024-06-07" / "edition.json").write_text("{bad", "utf-8")
    assert main(["rule", "704.5g", "--edition", "fr-2024"]) == 0
    err = capsys.readouterr().err
    assert "Édition importée ignorée" in err and "n'est pas un JSON valide (ligne 1" in err
    assert main(["check"]) == 1
    assert "ÉCHEC" in capsys.readouterr().out


def test_impossible_date_is_refused(tmp_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "fevrier.txt"
    path.write_text(MINI.replace("June 7, 2024", "February 31, 2024"), encoding="utf-8")
    with pytest.raises(store.StoreError, match="n'existe pas"):
        store.ingest(path)
    assert store.ingest(path, edition_id="en-2024-02-test").edition.id == "en-2024-02-test"


def test_forcing_another_format_warns(tmp_home: Path) -> None:
    from judge.rules.index import CORPUS_DIR

    old = CORPUS_DIR / "fr-pre2009" / "420-408-effets-et-chronologie.txt"
    result = store.ingest(old, edition_id="fr-force", layout="official")
    assert result.warnings and "inline_pre2009" in result.warnings[0]
    assert not store.ingest(old, edition_id="fr-auto").warnings


def test_a_stored_edition_that_no_longer_parses_is_left_out(
    tmp_home: Path, mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store.ingest(mini)
    (store.editions_dir() / "en-2024-06-07" / "document.txt").write_bytes(b"")
    index = load_index()
    assert "en-2024-06-07" not in {e.id for e in index.editions}
    assert any("en-2024-06-07" in w and "vide" in w for w in index.warnings)
    assert main(["rule", "704.5g"]) == 0
    assert "Attention : Édition importée ignorée : en-2024-06-07" in capsys.readouterr().err


def test_an_example_glued_after_a_guillemet_is_an_example(tmp_home: Path) -> None:
    """fr-2011's 118.9 runs `… »Exemple : Un joueur contrôle…` together: the example is the
    rule's example, not the end of its text (shipped, and ingested again)."""
    from judge.rules.index import CORPUS_DIR

    doc = CORPUS_DIR / "fr-2011" / "118-points-de-vie.txt"
    store.ingest(doc, edition_id="fr-2011-copie")
    lines = doc.read_text("utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "118.9 Certaines" in text)
    index = load_index()
    for edition in ("fr-2011", "fr-2011-copie"):
        rule = index.lookup("118.9", edition)
        assert rule.text.endswith("gagne des points de vie, … »"), rule.text[-60:]
        examples = [p.text for p in rule.paragraphs if p.kind == "example"]
        assert len(examples) == 1 and examples[0].startswith("Exemple : Un joueur contrôle")
        assert rule.source is not None and rule.source.line == line

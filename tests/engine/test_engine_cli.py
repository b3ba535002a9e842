"""`judge sba`: text and JSON output, and bad board files (exit status 2, a French message
on stderr, never a traceback)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge.cli import sba

BOARDS = Path(__file__).resolve().parents[2] / "corpus" / "boards"


def call(
    board: Path | str,
    capsys: pytest.CaptureFixture[str],
    ruleset: str | None = None,
    as_json: bool = False,
) -> tuple[int, str, str]:
    status = sba.run(argparse.Namespace(board=str(board), ruleset=ruleset, json=as_json))
    out, err = capsys.readouterr()
    return status, out, err


def test_text_output_quotes_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = call(BOARDS / "704-8-louveteau.json", capsys)
    assert status == 0
    assert "Passe 1" in out
    assert "704.5f" in out and "endurance -1" in out
    # the rule's own text, from the fr-2024 edition of the index
    assert "Si une créature a une endurance inférieure ou égale à 0" in out
    assert "Capacités déclenchées" in out
    assert "Plateau final" in out


def test_text_output_old_rules(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = call(BOARDS / "regle-des-legendes.json", capsys, ruleset="fr-pre2009")
    assert status == 0
    assert "420.5e" in out
    assert "ils sont tous mis dans les cimetières de leurs propriétaires" in out


def test_text_output_reports_choices(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = call(BOARDS / "regle-des-legendes-choix-attendu.json", capsys)
    assert status == 0
    assert "Choix attendus" in out
    assert "Alice (704.5j) doit choisir" in out


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = call(BOARDS / "zero-vie-et-bibliotheque-vide.json", capsys, as_json=True)
    assert status == 0
    data = json.loads(out)
    assert {"ruleset", "passes", "triggers", "losers", "choices_needed", "board"} <= set(data)
    (action,) = data["passes"][0]["actions"]
    assert action == {
        "rule": "704.5a",
        "kind": "lose_game",
        "player": "Alice",
        "why": action["why"],
        "also": ["704.5b"],
    }
    assert "0 point de vie" in action["why"]
    assert data["losers"] == ["Alice"]
    assert data["board"]["players"][0]["lost"] is True
    assert data["rules"]["704.5a"].startswith("Si un joueur a 0 point de vie ou moins")


def test_compact_board_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plateau.txt"
    path.write_text("player Alice life=0\nplayer Bob\n", encoding="utf-8")
    status, out, _ = call(path, capsys, as_json=True)
    assert status == 0
    assert json.loads(out)["losers"] == ["Alice"]


def test_warnings_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    path.write_text('{"players": [{"name": "A", "vies": 3}]}', encoding="utf-8")
    status, out, _ = call(path, capsys, as_json=True)
    assert status == 0
    assert any("vies" in w for w in json.loads(out)["warnings"])


BAD = {
    "absent.json": None,
    "syntax.json": '{"players": [{"name": "A"}',
    "type.json": '{"players": [{"name": "A"}], "permanents": [{"id": "x", "controller": "A", '
    '"types": ["creature"], "toughness": "2"}]}',
    "noid.json": '{"players": [{"name": "A"}], "permanents": [{"controller": "A"}]}',
    "dup.json": '{"players": [{"name": "A"}], "permanents": [{"id": "x", "controller": "A"}, '
    '{"id": "x", "controller": "A"}]}',
    "attach.json": '{"players": [{"name": "A"}], "permanents": [{"id": "x", "controller": "A", '
    '"attached_to": "y"}]}',
    "cycle.json": '{"players": [{"name": "A"}], "permanents": [{"id": "x", "controller": "A", '
    '"attached_to": "y"}, {"id": "y", "controller": "A", "attached_to": "x"}]}',
    "negative.json": '{"players": [{"name": "A", "poison": -2}]}',
    "ruleset.json": '{"ruleset": "fr-1999", "players": [{"name": "A"}]}',
    "compact.txt": "player A\nperm x controller=A creature 1/1 vole\n",
    "binary.json": "\udcff",
    "choice.json": '{"players": [{"name": "A"}], "permanents": [{"id": "a", "name": "L", '
    '"controller": "A", "types": ["creature"], "supertypes": ["legendary"], "toughness": 1}, '
    '{"id": "b", "name": "L", "controller": "A", "types": ["creature"], "supertypes": '
    '["legendary"], "toughness": 1}], "choices": [{"rule": "704.5j", "keep": "a"}, '
    '{"rule": "704.5j", "keep": "b"}]}',
    "stack-source.txt": "player A\nplayer B\nstack ghost ability=x controller=A\n",
    "stack-controller.txt": "player A\nperm g controller=A creature 1/1\n"
    "stack g ability=x controller=Zed\n",
}
WORDS = {
    "absent.json": "introuvable",
    "syntax.json": "JSON invalide",
    "type.json": "« toughness »",
    "noid.json": "« id »",
    "dup.json": "en double",
    "attach.json": "« attached_to »",
    "cycle.json": "cycle",
    "negative.json": "« poison »",
    "ruleset.json": "« ruleset »",
    "compact.txt": "vole",
    "binary.json": "UTF-8",
    "choice.json": "un seul",
    "stack-source.txt": "stack[0] (source « ghost ») : champ « source » : « ghost » n'existe pas",
    "stack-controller.txt": "(source « g ») : champ « controller » : joueur « Zed » inconnu",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_board_files(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    content = BAD[name]
    if content is not None:
        path.write_bytes(content.encode("utf-8", "surrogateescape"))
    status, out, err = call(path, capsys)
    assert status == 2
    assert out == ""
    assert err.startswith("Erreur")
    assert WORDS[name] in err
    assert "Traceback" not in err


def test_unknown_ruleset_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = call(BOARDS / "regle-des-legendes.json", capsys, ruleset="fr-2011")
    assert status == 2
    assert "--ruleset" in err and "fr-2011" in err


def test_add_parser_builds_the_subcommand() -> None:
    parser = argparse.ArgumentParser(prog="judge")
    sub = parser.add_subparsers()
    sba.add_parser(sub)
    args = parser.parse_args(["sba", "plateau.json", "--ruleset", "fr-pre2009", "--json"])
    assert (args.board, args.ruleset, args.json, args.func) == (
        "plateau.json",
        "fr-pre2009",
        True,
        sba.run,
    )


def test_python_m_judge_sba(tmp_path: Path) -> None:
    board = BOARDS / "troll-a-deux-tetes.json"
    done = subprocess.run(
        [sys.executable, "-m", "judge", "sba", str(board), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(json.loads(done.stdout)["losers"]) == ["Alice", "Bob"]
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "judge", "sba", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"Erreur : {bad} : JSON invalide ligne 1, colonne 2 : ")


def test_judge_cli_wires_sba() -> None:
    from judge.cli import build_parser

    args = build_parser().parse_args(["sba", "plateau.json", "--json"])
    assert args.func is sba.run


DIGITS = "9" * 5000
HOSTILE = {
    "deep.json": '{"players":' + "[" * 100_000 + "]" * 100_000 + "}",
    "bigint.json": '{"players":[{"name":"A","life":' + DIGITS + "}]}",
    "bigint.txt": f"player A life={DIGITS}\n",
    "bigpt.txt": f"player A\nperm x controller=A creature {DIGITS}/1\n",
    "quote.txt": 'player "A\n',
    "json.json": "{'players': []}",
    "types.json": '{"players": [{"name": "A"}], "permanents": [{"id": "x", "controller": "A", '
    '"types": "creature", "toughness": 1}]}',
    "counters.txt": "player A\nperm x controller=A creature 1/1 counters=+1/+1\n",
}
HOSTILE_WORDS = {
    "deep.json": "trop imbriqué",
    "bigint.json": "players[0] « A » : champ « life » : nombre trop grand (5000 chiffres",
    "bigint.txt": "champ « life » : nombre trop grand",
    "bigpt.txt": "champ « power » : nombre trop grand",
    "quote.txt": "ligne 1 : guillemets non fermés",
    "json.json": "nom de champ entre guillemets attendu",
    "types.json": "« x » : champ « types » : une liste de chaînes attendue",
    "counters.txt": "champ « counters » : « +1/+1 » sans nombre",
}
ENGLISH = ("Traceback", "Error", "Expecting", "closing", "quotation", "Is a directory", "digits")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_board_files(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_text(HOSTILE[name], encoding="utf-8")
    status, out, err = call(path, capsys)
    assert (status, out) == (2, "")
    assert err.startswith("Erreur")
    assert HOSTILE_WORDS[name] in err
    for word in ENGLISH:
        assert word not in err


def test_a_directory_is_not_a_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = call(tmp_path, capsys)
    assert (status, out) == (2, "")
    assert err == f"Erreur : {tmp_path} : est un dossier, pas un fichier\n"


def test_unused_choices_are_warned_in_both_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(
        "player A\nplayer B\nperm x controller=A creature 1/1\nchoice 704.5j keep=x\n"
        "other cmd zone=graveyard owner=A commander moved_since_last_check\n"
        "choice 704.6d commander=cmd to_command_zone=true\n",
        encoding="utf-8",
    )
    status, out, _ = call(path, capsys, as_json=True)
    assert status == 0
    warnings = json.loads(out)["warnings"]
    assert any(w.startswith("choices[0] (704.5j, « x »)") for w in warnings)
    assert any(w.startswith("choices[1] (704.6d, « cmd »)") for w in warnings)
    status, out, _ = call(path, capsys)
    assert status == 0
    assert "Avertissement : choices[0] (704.5j, « x ») : « x » n'est pas légendaire" in out
    assert "Avertissement : choices[1] (704.6d, « cmd ») :" in out


def test_pending_in_the_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.txt"
    path.write_text(
        "variant commander\nplayer A\n"
        "player B life=0 drew_from_empty_library loss_replacement=Miroir loss_replacement.life=20\n"
        "other cmd zone=exile owner=A commander moved_since_last_check\n",
        encoding="utf-8",
    )
    status, out, _ = call(path, capsys)
    assert status == 0
    assert "A (704.6d) doit choisir de mettre cmd dans la zone de commandement ou de le " in out
    assert "laisser en exil" in out
    assert "704.5a, 704.5b, 704.7 — joueur B : défaite remplacée" in out
    assert "perd la partie" not in out

"""Rulesets built from an edition of the rule index (issue 12, item 5): a check runs only if
its rule exists in that edition, found by its wording and cited by the edition's number;
704.5s before and after the chapter-ability change; 704.5z only where it exists."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from judge.cli import main, sba
from judge.engine import (
    RULESETS,
    BoardError,
    Ruleset,
    board_to_dict,
    load_board,
    parse_compact,
    resolve,
    ruleset_from_edition,
)
from judge.rules.model import Edition, Paragraph, Rule, Source
from judge.rules.numbers import kind_of, parent
from tests.conftest import CORPUS_EN
from tests.engine.engine_helpers import TWO, actions, all_notes, board

# Wordings quoted from the official files (../shared/corpus-en/archive).
SAGA_2024 = (
    "If the number of lore counters on a Saga permanent is greater than or equal to its final "
    "chapter number and it isn't the source of a chapter ability that has triggered but not yet "
    "left the stack, that Saga's controller sacrifices it."
)
SAGA_2025 = (
    "If the number of lore counters on a Saga permanent with one or more chapter abilities is "
    "greater than or equal to its final chapter number and it isn't the source of a chapter "
    "ability that has triggered but not yet left the stack, that Saga's controller sacrifices it."
)
SPEED = (
    "If a player controls a permanent with start your engines! and that player has no speed, "
    "that player's speed becomes 1."
)
LEGEND_2011 = (
    "If two or more legendary permanents with the same name are on the battlefield, all are put "
    'into their owners\' graveyards. This is called the "legend rule."'
)
PLANESWALKER_2011 = (
    "If two or more planeswalkers that share a planeswalker type are on the battlefield, all "
    'are put into their owners\' graveyards. This is called the "planeswalker uniqueness rule."'
)
LIFE = "If a player has 0 or less life, that player loses the game."
TOUGHNESS = "If a creature has toughness 0 or less, it's put into its owner's graveyard."


def edition(ident: str, texts: dict[str, str]) -> Edition:
    """A small English edition: these rules, their parents, children in this order."""
    numbers = list(texts)
    for n in list(numbers):
        p = parent(n)
        while p is not None and p not in numbers:
            numbers.insert(0, p)
            p = parent(p)
    src = Source("document.txt", 1)
    rules = {}
    for n in numbers:
        paras = (Paragraph(texts[n], "en", src),) if n in texts else ()
        children = tuple(c for c in numbers if parent(c) == n)
        rules[n] = Rule(ident, n, kind_of(n), None, paras, parent(n), children, src)
    return Edition(ident, ident, "en", ident[3:], ident[3:7], "modern", 2025, rules, (), (), ())


def with_saga(rs: Ruleset, compact: str) -> list[list[str]]:
    return actions(resolve(board(TWO + compact), rs))


NO_CHAPTERS = "perm u name=Saga controller=Alice enchantment Saga final_chapter=0\n"
DONE = "perm s name=Saga controller=Alice enchantment Saga final_chapter=3 counters=lore:3\n"


@pytest.mark.parametrize(
    ("wording", "compact", "expected"),
    [
        (SAGA_2024, NO_CHAPTERS, [["704.5s sacrifice u"]]),
        (SAGA_2025, NO_CHAPTERS, [[]]),  # a pass with only its "why not"
        (SAGA_2024, DONE, [["704.5s sacrifice s"]]),
        (SAGA_2025, DONE, [["704.5s sacrifice s"]]),
    ],
    ids=["2024-no-chapter", "2025-no-chapter", "2024-done", "2025-done"],
)
def test_saga_follows_the_wording_of_its_edition(
    wording: str, compact: str, expected: list[list[str]]
) -> None:
    rs = ruleset_from_edition(edition("en-2025-01-01", {"704.5s": wording}))
    assert with_saga(rs, compact) == expected


def test_a_saga_without_chapter_abilities_says_why_it_stays() -> None:
    rs = ruleset_from_edition(edition("en-2025-11-14", {"704.5s": SAGA_2025}))
    res = resolve(board(TWO + NO_CHAPTERS), rs)
    assert all_notes(res) == {"704.5s not_applicable u"}


SPEEDY = 'perm car name=Bolide controller=Alice creature 2/2 keywords="start your engines!"\n'


@pytest.mark.parametrize(("has_rule", "speed"), [(True, 1), (False, None)])
def test_speed_only_where_704_5z_exists(has_rule: bool, speed: int | None) -> None:
    texts = {"704.5a": LIFE, **({"704.5z": SPEED} if has_rule else {})}
    rs = ruleset_from_edition(edition("en-2025-11-14", texts))
    res = resolve(board(TWO + SPEEDY), rs)
    alice = next(p for p in res.final.players if p.name == "Alice")
    assert alice.speed == speed
    assert actions(res) == ([["704.5z set_speed Alice"]] if has_rule else [])


def test_a_player_with_a_speed_keeps_it() -> None:
    rs = ruleset_from_edition(edition("en-2025-11-14", {"704.5z": SPEED}))
    text = "player Alice speed=3\nplayer Bob\n" + SPEEDY
    assert actions(resolve(board(text), rs)) == []


def test_letters_follow_the_edition_and_unknown_rules_are_listed() -> None:
    """2011: the legend rule is 704.5k and puts every copy into the graveyard; 704.5j is the
    planeswalker uniqueness rule, which no check models."""
    ed = edition(
        "en-2011-09-30",
        {"704.5f": TOUGHNESS, "704.5j": PLANESWALKER_2011, "704.5k": LEGEND_2011},
    )
    rs = ruleset_from_edition(ed)
    assert [c.rule for c in rs.checks] == ["704.5f", "704.5k"]
    assert rs.unmodelled == ("704.5j",)
    legends = (
        "perm a name=Isamaru controller=Alice creature legendary 2/2\n"
        "perm b name=Isamaru controller=Bob creature legendary 2/2\n"
    )
    res = resolve(board(TWO + legends), rs)
    assert actions(res) == [["704.5k put_into_graveyard a", "704.5k put_into_graveyard b"]]
    assert any("704.5j" in w for w in res.warnings)
    assert res.edition == "en-2011-09-30"


def test_a_rule_absent_from_the_edition_never_runs() -> None:
    rs = ruleset_from_edition(edition("en-2025-11-14", {"704.5a": LIFE}))
    dead = "perm z name=Ours controller=Alice creature 2/0\n"
    assert actions(resolve(board(TWO + dead), rs)) == []


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_shipped_editions_give_the_shipped_rulesets(name: str) -> None:
    from judge import open_judge

    built = ruleset_from_edition(open_judge().edition(name))
    shipped = RULESETS[name]
    assert [(c.rule, c.name) for c in built.checks] == [(c.rule, c.name) for c in shipped.checks]
    assert (built.loop_rule, built.same_result_rule, built.lki_rule) == (
        shipped.loop_rule,
        shipped.same_result_rule,
        shipped.lki_rule,
    )


def test_an_edition_without_704_or_420_has_no_ruleset() -> None:
    with pytest.raises(BoardError, match="ni la règle 704 ni la règle 420"):
        ruleset_from_edition(edition("en-2025-11-14", {"118.1": "Each player has a life total."}))


# --- through the CLI, with an ingested English edition -------------------------------------


@pytest.fixture(scope="module")
def english_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from judge import ingest

    path = CORPUS_EN / "archive" / "en-2025-11-14.txt"
    if not path.is_file():
        pytest.fail(f"{path} introuvable (../shared/corpus-en)")
    home = tmp_path_factory.mktemp("home-en")
    ingest(path, home=home)
    return home


def _sba(board_file: Path, ruleset: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = sba.run(argparse.Namespace(board=str(board_file), ruleset=ruleset, json=True))
    out, err = capsys.readouterr()
    return status, out or err


def test_cli_runs_an_english_edition_and_states_it(
    english_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("JUDGE_HOME", str(english_home))
    path = tmp_path / "saga.txt"
    path.write_text(TWO + NO_CHAPTERS + DONE, encoding="utf-8")
    status, out = _sba(path, "en-2025-11-14", capsys)
    assert status == 0, out
    data = json.loads(out)
    assert data["ruleset"] == "en-2025-11-14"
    assert data["edition"] == "en-2025-11-14"
    assert data["board"]["ruleset"] == "en-2025-11-14"  # the final board names what it ran
    assert [a["object"] for a in data["passes"][0]["actions"]] == ["s"]
    assert "one or more chapter abilities" in data["rules"]["704.5s"]
    status, out = _sba(path, "fr-2024", capsys)
    assert json.loads(out)["edition"] == "fr-2024"
    assert {a["object"] for a in json.loads(out)["passes"][0]["actions"]} == {"s", "u"}


def test_cli_refuses_an_unknown_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.txt"
    path.write_text(TWO, encoding="utf-8")
    status, err = _sba(path, "en-1999-01-01", capsys)
    assert status == 2
    assert err.startswith("Erreur : --ruleset « en-1999-01-01 » inconnu")
    status, err = _sba(path, "fr-2011", capsys)
    assert status == 2
    assert "ni la règle 704 ni la règle 420" in err


def test_the_gallery_saga_under_the_2025_wording(
    english_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """corpus/boards/saga-sans-chapitre-704-5s: sacrificed under fr-2024, kept under the
    November 2025 wording."""
    monkeypatch.setenv("JUDGE_HOME", str(english_home))
    path = Path(__file__).resolve().parents[2] / "corpus/boards/saga-sans-chapitre-704-5s.json"
    status, out = _sba(path, "en-2025-11-14", capsys)
    assert status == 0, out
    data = json.loads(out)
    assert [a["object"] for p in data["passes"] for a in p["actions"]] == ["histoire"]
    assert [p["id"] for p in data["board"]["permanents"]] == ["urza"]


# --- a board's own `ruleset` field naming an edition ------------------------------------------


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`judge ARGV`, as the command line runs it."""
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("form", ["compact", "json"])
def test_a_board_names_an_english_edition_in_its_ruleset_field(
    form: str,
    english_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`ruleset` in the file may name an edition of the store, as --ruleset may: under the
    November 2025 wording a Saga without chapter abilities stays; the option still wins."""
    monkeypatch.setenv("JUDGE_HOME", str(english_home))
    compact = "ruleset en-2025-11-14\n" + TWO + NO_CHAPTERS + DONE
    path = tmp_path / "saga.txt"
    path.write_text(compact, encoding="utf-8")
    if form == "json":
        path = tmp_path / "saga.json"
        path.write_text(json.dumps(board_to_dict(load_board(parse_compact(compact)).board)))
        assert json.loads(path.read_text())["ruleset"] == "en-2025-11-14"
    status, out, err = _cli(["sba", str(path), "--json"], capsys)
    assert status == 0, err
    data = json.loads(out)
    assert (data["ruleset"], data["edition"]) == ("en-2025-11-14", "en-2025-11-14")
    assert [a["object"] for p in data["passes"] for a in p["actions"]] == ["s"]
    assert "one or more chapter abilities" in data["rules"]["704.5s"]
    assert data["board"]["ruleset"] == "en-2025-11-14"  # read back, it runs the same
    status, out, err = _cli(["sba", str(path), "--ruleset", "fr-2024", "--json"], capsys)
    assert status == 0, err
    assert {a["object"] for a in json.loads(out)["passes"][0]["actions"]} == {"s", "u"}
    status, out, err = _cli(["sba", str(path)], capsys)
    assert status == 0, err
    assert "règles de l'édition en-2025-11-14" in out


@pytest.mark.parametrize(
    ("ruleset", "words"),
    [
        # the shape of an edition's id, but no such edition in the store
        ("en-1999-01-01", "jeu de règles « en-1999-01-01 » inconnu"),
        # neither a shipped ruleset nor an edition's id: refused when the file is read
        ("Règles 2024", "« Règles 2024 » n'est ni un jeu de règles livré"),
    ],
)
def test_an_unknown_ruleset_field_is_refused_naming_the_field(
    ruleset: str,
    words: str,
    english_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("JUDGE_HOME", str(english_home))
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"ruleset": ruleset, "players": [{"name": "A"}]}))
    status, out, err = _cli(["sba", str(path)], capsys)
    assert status == 2
    assert out == ""
    assert err.startswith(f"Erreur dans le plateau {path} : ")
    assert "champ « ruleset »" in err and words in err
    assert "Traceback" not in err
    if ruleset.startswith("en-"):
        assert "en-2025-11-14" in err  # the editions that can be named are listed


def test_the_library_lists_and_builds_the_rulesets_of_the_store(english_home: Path) -> None:
    """What the app's sandbox page calls: `Judge.rulesets()` lists the shipped rulesets and
    every edition with rule 704 or 420; `Judge.ruleset(id)` builds one; `Judge.resolve`
    follows a board's own `ruleset` field."""
    from judge import RulesetView, UnknownRuleset, open_judge

    with open_judge(english_home) as judge:
        views = judge.rulesets()
        assert all(isinstance(v, RulesetView) for v in views)
        assert [v.name for v in views[:2]] == list(RULESETS)
        english = next(v for v in views if v.name == "en-2025-11-14")
        assert english.to_dict() == {
            "name": "en-2025-11-14",
            "label": "règles de l'édition en-2025-11-14",
            "edition": "en-2025-11-14",
            "language": "en",
            "shipped": False,
        }
        assert judge.ruleset_names() == tuple(v.name for v in views)
        for name in judge.ruleset_names():
            assert judge.ruleset(name).name == name
        # an edition without rule 704 or 420 is not listed
        listed = set(judge.ruleset_names())
        assert all(judge.ruleset(e.id) for e in judge.editions() if e.id in listed)
        assert judge.ruleset("en-2025-11-14") is judge.ruleset("en-2025-11-14")  # built once
        with pytest.raises(UnknownRuleset) as caught:
            judge.ruleset("en-1999-01-01")
        assert caught.value.field == "ruleset"
        assert caught.value.known == judge.ruleset_names()
        loaded = load_board(parse_compact("ruleset en-2025-11-14\n" + TWO + NO_CHAPTERS + DONE))
        res = judge.resolve(loaded).resolution
        assert (res.ruleset, res.edition) == ("en-2025-11-14", "en-2025-11-14")
        assert [a.subject for a in res.actions] == ["s"]
        assert [a.subject for a in judge.resolve(loaded, "fr-2024").resolution.actions] == [
            "s",
            "u",
        ]

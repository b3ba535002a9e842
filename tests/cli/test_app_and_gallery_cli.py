"""`judge app` (the streamlit command it runs) and `judge sba NAME` (a board of the gallery by
name). The installed versions run in tests/test_packaging.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge import gallery
from judge.cli import app, main
from tests.conftest import ROOT


def test_app_runs_the_installed_script_with_the_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    launched: list[list[str]] = []
    monkeypatch.setattr(app, "launch", lambda argv: launched.append(argv) or 0)
    assert main(["app", "--port", "8765", "--address", "127.0.0.1"]) == 0
    (argv,) = launched
    assert argv[:2] == ["run", str(ROOT / "ui" / "app.py")]
    options = dict(zip(argv[2::2], argv[3::2], strict=True))
    themes = {k: v for k, v in options.items() if k.startswith("--theme.")}
    assert themes["--theme.dark.backgroundColor"] == "#0e1117"
    assert len(themes) == 34
    assert {k: v for k, v in options.items() if k not in themes} == {
        "--server.headless": "true",
        "--browser.gatherUsageStats": "false",
        "--client.toolbarMode": "viewer",
        "--server.maxUploadSize": "20",
        "--server.fileWatcherType": "none",
        "--client.showErrorDetails": "none",
        "--server.port": "8765",
        "--server.address": "127.0.0.1",
    }


def test_app_settings_are_those_of_the_checkout() -> None:
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    flat: dict[str, str] = {}

    def walk(prefix: str, table: dict[str, object]) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(f"{prefix}{key}.", value)
            else:
                flat[f"{prefix}{key}"] = (
                    str(value).lower() if isinstance(value, bool) else str(value)
                )

    walk("", config)
    assert flat.items() <= dict(app.SETTINGS).items()


def test_app_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["app", "--port", "70000"]) == 2
    assert "--port 70000 invalide" in capsys.readouterr().err


def test_app_refuses_an_unknown_address_and_a_port_in_use(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    launched: list[list[str]] = []
    monkeypatch.setattr(app, "launch", lambda argv: launched.append(argv) or 0)
    assert main(["app", "--address", "300.1.1.1"]) == 2
    assert "--address 300.1.1.1 : adresse inconnue" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["app", "--port", str(port), "--address", "127.0.0.1"]) == 2
    assert f"--port {port} : le port n'est pas libre sur 127.0.0.1" in capsys.readouterr().err
    assert launched == []
    # free again: the server may start
    assert main(["app", "--port", str(port), "--address", "127.0.0.1"]) == 0
    assert len(launched) == 1


def test_sba_finds_a_gallery_board_by_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no such file here: the name is looked up in the gallery
    assert gallery()["704-8-louveteau"] == ROOT / "corpus" / "boards" / "704-8-louveteau.json"
    assert main(["sba", "704-8-louveteau", "--json"]) == 0
    by_name = json.loads(capsys.readouterr().out)
    assert main(["sba", str(ROOT / "corpus" / "boards" / "704-8-louveteau.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_name
    assert main(["sba", "704-8-louveteau.json"]) == 0
    assert "704.5f" in capsys.readouterr().out


def test_sba_unknown_name_lists_the_close_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["sba", "regle-des-legende"]) == 2
    err = capsys.readouterr().err
    assert "n'est ni un fichier ni un plateau de la galerie" in err
    assert "plateaux proches : regle-des-legendes" in err
    assert main(["sba", "zzz"]) == 2
    assert "aucun nom proche" in capsys.readouterr().err
    # A path with a folder keeps the file's own message.
    assert main(["sba", "nulle/part.json"]) == 2
    assert "introuvable" in capsys.readouterr().err


def test_app_runs_streamlit_in_this_process_and_gives_its_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from streamlit.web import cli as streamlit_cli

    seen: list[tuple[list[str], str]] = []
    warmed: list[int] = []
    codes = iter([None, 3])

    def fake_main(args: list[str], prog_name: str) -> None:
        seen.append((args, prog_name))
        raise SystemExit(next(codes))

    monkeypatch.setattr(streamlit_cli, "main", fake_main)
    monkeypatch.setattr(app, "warm_when_served", lambda: warmed.append(1))
    assert app.launch(["run", "ui/app.py"]) == 0
    assert app.launch(["run", "ui/app.py"]) == 3
    assert seen == [(["run", "ui/app.py"], "streamlit")] * 2 and warmed == [1, 1]


def test_the_store_is_opened_once_the_server_is_up_not_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from streamlit import runtime

    from ui import resources

    # The server's states as `judge app` meets them: no runtime, then starting, then up.
    states = iter([None, None, "INITIAL", "INITIAL", "NO_SESSIONS_CONNECTED"])
    now: list[str | None] = [None]
    asked: list[str | None] = []

    def exists() -> bool:
        now[0] = next(states, "NO_SESSIONS_CONNECTED")
        asked.append(now[0])
        return now[0] is not None

    monkeypatch.setattr(runtime, "exists", exists)
    monkeypatch.setattr(
        runtime, "get_instance", lambda: SimpleNamespace(state=SimpleNamespace(name=now[0]))
    )
    warmed: list[list[str | None]] = []
    monkeypatch.setattr(resources, "warm", lambda: warmed.append(list(asked)))
    thread = app.warm_when_served(poll=0.001)
    thread.join(10)
    assert not thread.is_alive()
    assert warmed == [[None, None, "INITIAL", "INITIAL", "NO_SESSIONS_CONNECTED"]]


def test_a_server_stopped_while_starting_is_not_warmed(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from streamlit import runtime

    from ui import resources

    states = iter(["INITIAL", "STOPPED"])
    now = SimpleNamespace(name="INITIAL")

    def exists() -> bool:
        now.name = next(states, "STOPPED")
        return True

    monkeypatch.setattr(runtime, "exists", exists)
    monkeypatch.setattr(runtime, "get_instance", lambda: SimpleNamespace(state=now))
    warmed: list[int] = []
    monkeypatch.setattr(resources, "warm", lambda: warmed.append(1))
    thread = app.warm_when_served(poll=0.001)
    thread.join(10)
    assert not thread.is_alive() and warmed == []


def test_a_message_streamlit_exits_with_is_shown(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from streamlit.web import cli as streamlit_cli

    def refuses(args: list[str], prog_name: str) -> None:
        raise SystemExit("option refusée")

    monkeypatch.setattr(streamlit_cli, "main", refuses)
    monkeypatch.setattr(app, "warm_when_served", lambda: None)
    assert app.launch(["run", "ui/app.py"]) == 1
    assert "option refusée" in capsys.readouterr().err

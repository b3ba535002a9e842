"""`judge app [--port N] [--address A]`: start the installed app (`streamlit run` of the
ui/app.py installed beside this package, in this process) from any folder and any install
(checkout, editable, wheel, `--user`), the store opened while the browser loads the page. The
settings of the checkout's .streamlit/config.toml are passed on the command line, so that they
hold wherever the app is started from."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import threading
import time
from pathlib import Path

# .streamlit/config.toml, for an app started from any folder (a test keeps them equal).
SETTINGS = (
    ("server.headless", "true"),  # no browser opened, no e-mail prompt
    ("browser.gatherUsageStats", "false"),
    ("client.toolbarMode", "viewer"),  # no "Deploy" button nor developer menu
    ("server.maxUploadSize", "20"),  # MiB, as judge.rules.store.MAX_BYTES
    ("server.fileWatcherType", "none"),  # no look at every module's file after each run
    ("client.showErrorDetails", "none"),  # no traceback (nor file path) shown to the judges
    # Both themes' colours, each pair at a contrast of at least 4.5:1 (tests/ui/test_contrast.py)
    ("theme.light.backgroundColor", "#ffffff"),
    ("theme.light.secondaryBackgroundColor", "#f0f2f6"),
    ("theme.light.textColor", "#31333f"),
    ("theme.light.redBackgroundColor", "#ffdede"),
    ("theme.light.greenBackgroundColor", "#d6f5dc"),
    ("theme.light.blueBackgroundColor", "#dbe9ff"),
    ("theme.light.orangeBackgroundColor", "#ffe8cc"),
    ("theme.light.yellowBackgroundColor", "#fff3bf"),
    ("theme.light.violetBackgroundColor", "#ece3fb"),
    ("theme.light.grayBackgroundColor", "#e8e9ec"),
    ("theme.light.redTextColor", "#a01818"),
    ("theme.light.greenTextColor", "#17692a"),
    ("theme.light.blueTextColor", "#1c4f9c"),
    ("theme.light.orangeTextColor", "#8a4500"),
    ("theme.light.yellowTextColor", "#6b5300"),
    ("theme.light.violetTextColor", "#5b2a9e"),
    ("theme.light.grayTextColor", "#4b4d57"),
    ("theme.dark.backgroundColor", "#0e1117"),
    ("theme.dark.secondaryBackgroundColor", "#262730"),
    ("theme.dark.textColor", "#fafafa"),
    ("theme.dark.redBackgroundColor", "#5c1a1a"),
    ("theme.dark.greenBackgroundColor", "#183f22"),
    ("theme.dark.blueBackgroundColor", "#1a3357"),
    ("theme.dark.orangeBackgroundColor", "#4d2e0a"),
    ("theme.dark.yellowBackgroundColor", "#463c0a"),
    ("theme.dark.violetBackgroundColor", "#3a2458"),
    ("theme.dark.grayBackgroundColor", "#33353d"),
    ("theme.dark.redTextColor", "#ffb3b3"),
    ("theme.dark.greenTextColor", "#a6e9b5"),
    ("theme.dark.blueTextColor", "#b3d1ff"),
    ("theme.dark.orangeTextColor", "#ffcf99"),
    ("theme.dark.yellowTextColor", "#ffe98a"),
    ("theme.dark.violetTextColor", "#dcc8ff"),
    ("theme.dark.grayTextColor", "#d5d6db"),
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "app",
        help="ouvrir l'application (streamlit)",
        description="Démarre l'application installée (streamlit run ui/app.py), depuis "
        "n'importe quel dossier. L'adresse s'affiche dans le terminal ; Ctrl+C l'arrête.",
    )
    p.add_argument("--port", metavar="N", type=int, default=None, help="port (par défaut : 8501)")
    p.add_argument(
        "--address",
        metavar="A",
        default=None,
        help="adresse d'écoute (par défaut : toutes ; 127.0.0.1 pour ce seul ordinateur)",
    )
    p.set_defaults(func=run, quick_exit=False)  # the server stops on its own


def app_script() -> Path | None:
    """The installed ui/app.py: beside the `judge` package (wheel, --user, checkout), else
    wherever the `ui` package is importable from (an editable install's finder)."""
    beside = Path(__file__).resolve().parents[2] / "ui" / "app.py"
    if beside.is_file():
        return beside
    spec = importlib.util.find_spec("ui")
    if spec is None or spec.origin is None:
        return None
    found = Path(spec.origin).parent / "app.py"
    return found if found.is_file() else None


def streamlit_command(script: Path, port: int | None, address: str | None) -> list[str]:
    """The arguments of streamlit's command line (`streamlit run …`) for the app."""
    argv = ["run", str(script)]
    options = [*SETTINGS]
    if port is not None:
        options.append(("server.port", str(port)))
    if address is not None:
        options.append(("server.address", address))
    for name, value in options:
        argv += [f"--{name}", value]
    return argv


def run(args: argparse.Namespace) -> int:
    if args.port is not None and not 0 < args.port < 65536:
        print(f"Erreur : --port {args.port} invalide (de 1 à 65535)", file=sys.stderr)
        return 2
    script = app_script()
    if script is None:
        print(
            "Erreur : application introuvable (ui/app.py n'est pas installé à côté de judge)",
            file=sys.stderr,
        )
        return 2
    if importlib.util.find_spec("streamlit") is None:
        print("Erreur : streamlit n'est pas installé (pip install streamlit)", file=sys.stderr)
        return 2
    refused = unusable(args.address, args.port)
    if refused is not None:
        print(f"Erreur : {refused}", file=sys.stderr)
        return 2
    return launch(streamlit_command(script, args.port, args.address))


def unusable(address: str | None, port: int | None) -> str | None:
    """Why the server could not listen on `address`:`port` (None: it can, or nothing was
    asked), in French, before Streamlit starts: its own messages are in English, or a
    system error that names neither."""
    import socket  # only here: the other commands do not listen

    host = address if address is not None else "0.0.0.0"
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        return f"--address {address} : adresse inconnue de ce système ({exc})"
    if port is None:  # Streamlit takes the next free port after 8501 by itself
        return None
    family, kind, proto, _name, where = found[0]
    with socket.socket(family, kind, proto) as probe:
        # as the server will (uvicorn): a port left in TIME_WAIT is free, a listening one not
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(where)
        except OSError as exc:
            return f"--port {port} : le port n'est pas libre sur {host} ({exc.strerror or exc})"
    return None


def launch(argv: list[str]) -> int:
    """Run streamlit's command line `argv` in this process (a signal sent to `judge app`
    reaches the server), the store opened meanwhile (`warm_when_served`)."""
    from streamlit.web import cli as streamlit_cli

    warm_when_served()
    try:
        streamlit_cli.main(args=argv, prog_name="streamlit")
    except SystemExit as stopped:  # click's way out, Ctrl+C included
        code = stopped.code
        if isinstance(code, str):  # a message instead of a status, as Python would show it
            print(code, file=sys.stderr)
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


def warm_when_served(poll: float = 0.02) -> threading.Thread:
    """Start a thread that waits for the server to be up, then opens the store's Judge and
    its search index and answers a search (`ui.resources.warm`): while the browser loads
    the page (a second or so), what the first page reads gets ready (the imports, the
    indexes, built if need be). Started before the server, it would only slow its start."""

    def wait_then_warm() -> None:
        from streamlit import runtime

        while not runtime.exists() or runtime.get_instance().state.name == "INITIAL":
            time.sleep(poll)
        if runtime.get_instance().state.name in ("STOPPING", "STOPPED"):
            return  # stopped while starting (Ctrl+C): nothing to get ready for
        from ui import resources

        resources.warm()

    thread = threading.Thread(target=wait_then_warm, name="judge-warm", daemon=True)
    thread.start()
    return thread

"""What keeps the app fast (issue 13, item 9), checked without a clock: a search's first run
does not import what only other pages need; the rule's text goes out before the concordance
is read; the concordance of the first rule page is built while the results are read."""

from __future__ import annotations

import ast
import html
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from judge import Judge, JudgeError, Rule, RuleView
from judge.rules import store
from tests.ui.conftest import ROOT, heading, open_page, shown
from tests.ui.server import streamlit_server
from ui import links

# Modules a search does not need: the board engine (sandbox) and the concordance (rule pages,
# diffs), 0.3 s of imports on a busy machine.
NOT_FOR_A_SEARCH = ("judge.engine", "judge.rules.concordance")


def test_the_modules_every_page_imports_leave_out_the_sandbox_and_the_concordance() -> None:
    code = (
        "import sys\n"
        "import ui.links, ui.render, ui.resources\n"
        "from judge import Hit, Judge, JudgeError, SearchResult, fr\n"
        f"print(sorted(m for m in sys.modules if m.startswith({NOT_FOR_A_SEARCH!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_the_rule_text_is_shown_before_the_concordance_is_read(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: Judge, rule: Rule) -> RuleView:
        raise JudgeError("concordance illisible")

    monkeypatch.setattr(Judge, "view", broken)
    open_page(app, links.REGLE, regle="704.5g", edition="fr-2024")
    assert "Sous-règle 704.5g" in heading(app)
    text = shown(app)
    assert "a subi des blessures mortelles et est détruite" in text
    assert "concordance illisible" in text


def test_a_search_prepares_the_first_rule_page_in_the_background(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, str]] = []
    view = Judge.view

    def recorded(self: Judge, rule: Rule) -> RuleView:
        seen.append((threading.current_thread().name, rule.number))
        return view(self, rule)

    monkeypatch.setattr(Judge, "view", recorded)
    open_page(app, links.RECHERCHE, q="contact mortel")
    for thread in threading.enumerate():
        if thread.name == "judge-prepare":
            thread.join(60)
    assert ("judge-prepare", "704.5h") in seen, seen


def first_page_in_a_fresh_process(home: Path, before: str, shown: str) -> list[str]:
    """Run the app's first page (a search) in a new interpreter: `before` runs first, then
    the words of `shown` (an expression) are printed with whether the page has results."""
    code = (
        "import os, sys\n"
        f"os.environ['JUDGE_HOME'] = {str(home)!r}\n"
        f"{before}"
        "from streamlit.testing.v1 import AppTest\n"
        f"at = AppTest.from_file({str(ROOT / 'ui' / 'app.py')!r}, default_timeout=60)\n"
        "at.query_params['q'] = 'poison'\n"
        "at.run()\n"
        "assert not at.exception, at.exception\n"
        f"print({shown}, len(at.get('flex_container')) > 0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.split() or [out.stderr]


def test_the_first_page_of_a_process_skips_streamlits_repl_check(tmp_path: Path) -> None:
    # inspect.stack() on the first element of a process: 0.05 to 0.1 s for a warning that
    # `streamlit run` never gives. A fresh process, since the check is once per process.
    before = (
        "from streamlit import env_util\n"
        "calls = []\n"
        "real = env_util.is_repl\n"
        "env_util.is_repl = lambda: calls.append(1) or real()\n"
    )
    assert first_page_in_a_fresh_process(tmp_path, before, "len(calls)") == ["0", "True"]


def test_the_favicon_is_the_emoji_without_streamlits_emoji_catalogue(tmp_path: Path) -> None:
    # An emoji string as page_icon makes Streamlit load (and compile a regex of) every emoji;
    # the same emoji as an SVG in ASCII does not. A fresh process: the catalogue stays loaded.
    loaded = "'streamlit.emojis' in sys.modules"
    assert first_page_in_a_fresh_process(tmp_path, "", loaded) == ["False", "True"]
    favicon = ast.literal_eval(
        next(
            node.value
            for node in ast.parse((ROOT / "ui" / "app.py").read_text(encoding="utf-8")).body
            if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "FAVICON"
        )
    )
    assert favicon.isascii() and favicon.startswith("<svg ")
    assert re.findall(r"<text[^>]*>(.*)</text>", html.unescape(favicon)) == ["⚖️"]


def test_judge_app_builds_what_the_first_page_reads_before_any_session(tmp_path: Path) -> None:
    # No browser, no session: once the server is up, `judge app` opens the store and builds
    # the search index of an empty home all the same, while a browser would load the page.
    home = tmp_path / "home"
    views = store.cache_dir(home) / "search" / "views"
    with streamlit_server(home):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(views.glob("*.bin")):
            time.sleep(0.2)
        assert list(views.glob("*.bin")), "index de recherche non construit"

"""Start `judge app` (streamlit, ui/app.py) on a free local port; drive it with Debian's
Chromium.

Shared by tests/ui/test_browser.py and tests/bench/bench_app.py."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright absent (pip install playwright ; aucun navigateur à télécharger)"
    if not CHROMIUM.is_file():
        return f"Chromium absent ({CHROMIUM}) : apt-get install chromium"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> float:
    """Seconds until `/_stcore/health` answers ok."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit s'est arrêté (code {proc.returncode})")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as resp:
                if resp.status == 200:
                    return time.perf_counter() - start
        except OSError:
            pass
        time.sleep(0.05)
    raise TimeoutError(f"{url}/_stcore/health ne répond pas après {timeout:.0f} s")


@contextlib.contextmanager
def streamlit_server(
    home: Path, log: Path | None = None, started: Callable[[int], None] | None = None
) -> Iterator[tuple[str, float]]:
    """(base URL, seconds from launch to healthy). The server reads JUDGE_HOME=`home`;
    `started(pid)` is told the server's process id (a bench reads its CPU time)."""
    port = free_port()
    env = {**os.environ, "JUDGE_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    # As the README starts it: `judge app` (the checkout's settings, the store opened while
    # the browser loads the page).
    cmd = [sys.executable, "-m", "judge", "app", "--port", str(port), "--address", "127.0.0.1"]
    out = log.open("wb") if log else subprocess.DEVNULL
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    if started is not None:
        started(proc.pid)
    try:
        healthy = wait_healthy(url, proc)
        yield url, healthy
    finally:
        # Only the process group this function started.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        if log and hasattr(out, "close"):
            out.close()


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium browser (playwright's Browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


def wait_idle(page: Any, timeout: float = 20_000) -> None:
    """Wait until the app has finished its script run (no 'running' status widget)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            return app && app.getAttribute('data-test-script-state') !== 'running'
                && !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]');
        }""",
        timeout=timeout,
    )

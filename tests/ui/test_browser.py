"""The app in a real browser: Debian's Chromium, headless, driven by Playwright, against
`streamlit run ui/app.py` on 127.0.0.1. Screenshots of every page go to
test-output/browser/ (kept after the run; the folder is ignored by git)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from judge.rules import store
from tests.ui.conftest import EVIL_DOC
from tests.ui.server import ROOT, browser_missing, chromium, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

_missing = browser_missing()
if _missing:
    pytest.skip(_missing, allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

SHOTS = ROOT / "test-output" / "browser"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("browser-home")
    doc = home.parent / "piege.txt"
    doc.write_text(EVIL_DOC, encoding="utf-8")
    store.ingest(doc, edition_id="fr-2011-piege", home=home)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with streamlit_server(home, log=SHOTS / "streamlit.log") as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    pg = context.new_page()
    dialogs: list[str] = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    pg.set_default_timeout(20_000)
    yield pg
    context.close()
    assert not dialogs, f"une boîte de dialogue s'est ouverte : {dialogs}"


def shot(page: Page, name: str) -> Path:
    wait_idle(page)
    # Elements load their code lazily: let the chunks arrive and paint before the picture.
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    # The app scrolls inside its own container: grow the window to the content for the picture.
    size = page.viewport_size or {"width": 1280, "height": 900}
    height = page.evaluate(
        "() => Math.max(...Array.from(document.querySelectorAll('*'), e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": size["width"], "height": min(int(height) + 120, 12_000)})
    page.wait_for_timeout(400)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
    return path


def main_area(page: Page) -> Any:
    return page.get_by_test_id("stMain")


def heading(page: Page) -> Any:
    return main_area(page).locator("h2").first


def test_search_open_rule_and_follow_a_reference(server: str, page: Page) -> None:
    page.goto(server)
    box = page.get_by_label("Rechercher")
    box.fill("contact mortel")
    box.press("Enter")
    result = main_area(page).get_by_role("link", name=re.compile(r"704\.5h"))
    expect(result).to_be_visible()
    expect(main_area(page).locator("strong", has_text="contact").first).to_be_visible()
    shot(page, "1-recherche-contact-mortel")
    result.click()
    expect(heading(page)).to_contain_text("704.5h")
    expect(main_area(page)).to_contain_text("contact mortel")
    expect(page).to_have_url(re.compile(r"regle=704\.5h&edition=fr-2024"))
    shot(page, "2-regle-704.5h")
    # On to 704.5c with the number box, then its reference to 704.6b.
    # The pickers fold away under the rule (phone first): open them.
    main_area(page).get_by_text("Autre règle ou autre édition").click()
    number = page.get_by_label("Numéro de règle")
    number.fill("704.5c")
    number.press("Enter")
    expect(heading(page)).to_contain_text("704.5c")
    ref = main_area(page).get_by_role("link", name=re.compile(r"704\.6b —"))
    ref.hover()
    expect(page.get_by_test_id("stTooltipContent")).to_contain_text("Actions basées sur un état")
    ref.click()
    expect(heading(page)).to_contain_text("704.6b")
    expect(page).to_have_url(re.compile(r"regle=704\.6b"))
    shot(page, "3-regle-704.6b-reference-suivie")


def test_gallery_board_runs(server: str, page: Page) -> None:
    page.goto(f"{server}/bac-a-sable")
    expect(main_area(page)).to_contain_text("Bac à sable")
    main_area(page).get_by_test_id("stSelectbox").filter(has_text="Galerie").click()
    page.get_by_role("option", name="704-8-louveteau").click()
    # A board of the gallery runs as soon as it is chosen: its verdict comes first.
    expect(main_area(page).locator(".st-key-bac-verdict-fr-2024")).to_contain_text(
        "Aucun joueur ne perd la partie."
    )
    expect(page).to_have_url(re.compile(r"plateau=704-8-louveteau"))
    expect(main_area(page)).to_contain_text("Passe 1")
    expect(main_area(page)).to_contain_text("Capacités déclenchées mises sur la pile")
    expect(main_area(page)).to_contain_text("immortalité (undying) ne se déclenche pas")
    link = main_area(page).get_by_role("link", name=re.compile(r"^704\.5f$"))
    expect(link).to_be_visible()
    shot(page, "4-bac-a-sable-704.8")
    link.click()
    expect(heading(page)).to_contain_text("704.5f")


def test_compare_page(server: str, page: Page) -> None:
    page.goto(f"{server}/comparer?regle=420.5e&de=fr-pre2009&vers=fr-2024")
    expect(main_area(page)).to_contain_text("420.5e → 704.5j")
    expect(main_area(page)).to_contain_text("Déplacée")
    shot(page, "5-comparer-420.5e")


def test_typed_markup_shows_as_text(server: str, page: Page) -> None:
    page.goto(server)
    box = page.get_by_label("Rechercher")
    box.fill("<img src=x onerror=alert(1)> **gras**")
    box.press("Enter")
    expect(main_area(page)).to_contain_text("Absent des règles")
    assert main_area(page).locator("img[src='x']").count() == 0


def test_deep_link_and_reference(server: str, page: Page) -> None:
    page.goto(f"{server}/?regle=704.5c&edition=fr-2024")
    expect(heading(page)).to_contain_text("704.5c")
    expect(main_area(page)).to_contain_text("dix marqueurs poison")
    shot(page, "6-lien-direct-704.5c")
    # The reference to 704.6b: title on hover, one click to the rule.
    ref = main_area(page).get_by_role("link", name=re.compile(r"^.*704\.6b —"))
    ref.click()
    expect(heading(page)).to_contain_text("704.6b")
    expect(page).to_have_url(re.compile(r"regle=704\.6b"))
    shot(page, "7-lien-direct-704.6b")


def test_document_markup_shows_as_text(server: str, page: Page) -> None:
    page.goto(f"{server}/?regle=100.1&edition=fr-2011-piege")
    body = main_area(page)
    expect(body).to_contain_text('<script>alert("xss")</script>')
    expect(body).to_contain_text("**toujours**")
    expect(body).to_contain_text("[un lien](javascript:alert(1))")
    expect(body).to_contain_text(":red[rouge] <b>gras</b>")
    markdown = body.get_by_test_id("stMarkdownContainer")
    assert markdown.locator("script").count() == 0
    assert markdown.locator("b, strong:has-text('toujours'), a[href^='javascript']").count() == 0
    assert body.locator(".katex").count() == 0
    shot(page, "8-document-piege-en-texte")
    page.goto(f"{server}/?regle=100.1a&edition=fr-2011-piege")
    expect(main_area(page)).to_contain_text("# Pas un titre")
    assert main_area(page).locator("h1:has-text('Pas un titre')").count() == 0


def test_corpus_page(server: str, page: Page) -> None:
    page.goto(f"{server}/corpus")
    expect(main_area(page)).to_contain_text("Rapport de qualité")
    expect(main_area(page)).to_contain_text("fr-2011-piege")
    shot(page, "9-corpus")


LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


OFFLINE_PATHS = [
    # Every page of the app (ui/links.py's PAGES), empty and with a view to show.
    "/",
    "/?q=contact+mortel",
    "/?regle=704.5g&edition=fr-2024",
    "/regle",
    "/regle?regle=704.7&edition=fr-2024",
    "/comparer",
    "/comparer?regle=420.5e&de=fr-pre2009&vers=fr-2024",
    "/nouveautes",
    "/nouveautes?de=fr-pre2009&vers=fr-2024&section=704",
    "/bac-a-sable",
    "/bac-a-sable?plateau=704-8-louveteau",
    "/corpus",
]


def test_every_page_is_checked_offline() -> None:
    from ui import links

    checked = {urlsplit(p).path.strip("/") for p in OFFLINE_PATHS}
    assert {page.url_path for page in links.PAGES} <= checked


@pytest.mark.parametrize("path", OFFLINE_PATHS)
def test_no_request_leaves_the_machine(server: str, browser: Any, path: str) -> None:
    # On the floor there may be no network: nothing (favicon, icon font) is fetched from the
    # internet, no console error, and the page says it is in French.
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    outside: list[str] = []
    errors: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        host = urlsplit(url).hostname or ""
        if url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    failed: list[str] = []
    pg.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    pg.set_default_timeout(20_000)
    try:
        pg.goto(server + path)
        wait_idle(pg)
        pg.wait_for_load_state("networkidle")
        pg.wait_for_timeout(500)
        # The script that sets it runs once the page's elements are drawn: on a busy
        # machine that can come after the network is idle.
        with contextlib.suppress(PlaywrightTimeout):
            pg.wait_for_function("() => document.documentElement.lang === 'fr'", timeout=15_000)
        lang = pg.evaluate("() => document.documentElement.lang")
    finally:
        context.close()
    assert not outside, outside
    # Opened on a page's own address (/comparer), Streamlit's client first looks for its
    # server under that path (/comparer/_stcore/health, then host-config: 404), then at the
    # root: its own probe, and the browser logs each 404. Nothing else may fail.
    probes = [
        f for f in failed if re.search(r" https?://[^/]+/[^/]+/_stcore/(health|host-config)$", f)
    ]
    assert failed == probes, failed
    not_found = "Failed to load resource: the server responded with a status of 404"
    rest = [e for e in errors if not e.startswith(not_found)]
    assert not rest, errors
    assert len(errors) - len(rest) <= len(probes), errors
    assert lang == "fr"

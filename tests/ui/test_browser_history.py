"""The browser's history follows the app: Back, Forward and reload give the same screen.

Every view keeps its state in the URL (`?q=…`, `?regle=…`): a search, then a click on a
result, then Back and Forward, each screen checked by its content and its URL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.server import browser_missing, chromium, streamlit_server

pytestmark = pytest.mark.browser

_missing = browser_missing()
if _missing:
    pytest.skip(_missing, allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("browser-history-home")
    with streamlit_server(home) as (url, _):
        yield url


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
        pg = context.new_page()
        pg.set_default_timeout(20_000)
        yield pg
        context.close()


def _main(page: Page) -> Any:
    return page.get_by_test_id("stMain")


def _search_screen(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"/\?q=contact\+mortel$"))
    expect(page.get_by_label("Rechercher")).to_have_value("contact mortel")
    expect(_main(page).get_by_role("link", name=re.compile(r"704\.5h"))).to_be_visible()
    expect(_main(page).locator("h1").first).to_contain_text("Recherche")


def _rule_screen(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"/regle\?regle=704\.5h&edition=fr-2024$"))
    expect(_main(page).locator("h2").first).to_contain_text("704.5h")
    expect(_main(page)).to_contain_text("contact mortel")


def test_back_and_forward_between_a_search_and_a_rule(server: str, page: Page) -> None:
    page.goto(server)
    box = page.get_by_label("Rechercher")
    box.fill("contact mortel")
    box.press("Enter")
    _search_screen(page)
    _main(page).get_by_role("link", name=re.compile(r"704\.5h")).click()
    _rule_screen(page)
    page.go_back()
    _search_screen(page)
    page.go_forward()
    _rule_screen(page)
    # A reload and a shared link give the same screens.
    page.reload()
    _rule_screen(page)
    page.goto(f"{server}/?q=contact+mortel")
    _search_screen(page)


def test_each_search_is_a_step_of_the_history(server: str, page: Page) -> None:
    page.goto(server)
    box = page.get_by_label("Rechercher")
    box.fill("poison")
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"\?q=poison$"))
    box.fill("contact mortel")
    box.press("Enter")
    _search_screen(page)
    page.go_back()
    expect(page).to_have_url(re.compile(r"\?q=poison$"))
    expect(page.get_by_label("Rechercher")).to_have_value("poison")
    expect(_main(page)).to_contain_text("704.5c")
    page.go_forward()
    _search_screen(page)


@pytest.mark.parametrize(("scheme", "page_rgb", "red_rgb"), [
    ("light", "rgb(255, 255, 255)", "rgb(255, 222, 222)"),
    ("dark", "rgb(14, 17, 23)", "rgb(92, 26, 26)"),
])  # fmt: skip
def test_each_theme_shows_its_own_diff_colours(
    server: str, scheme: str, page_rgb: str, red_rgb: str
) -> None:
    # .streamlit/config.toml's [theme.light] and [theme.dark] (tests/ui/test_contrast.py):
    # the browser's preference picks one, and a deletion shows on its opaque background.
    with chromium() as browser:
        context = browser.new_context(color_scheme=scheme, locale="fr-FR")
        pg = context.new_page()
        pg.set_default_timeout(20_000)
        pg.goto(f"{server}/comparer?regle=420.5e&de=fr-pre2009&vers=fr-2024")
        struck = _main(pg).locator("del, s").first
        expect(struck).to_be_visible()
        app = pg.get_by_test_id("stApp")
        expect(app).to_have_css("background-color", page_rgb)
        mark = struck.locator("xpath=..")
        expect(mark).to_have_css("background-color", red_rgb)
        context.close()


def _compare_screen(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"/comparer\?regle=420\.5e&de=fr-pre2009&vers=fr-2024$"))
    expect(_main(page)).to_contain_text("420.5e → 704.5j")


def _changes_screen(page: Page, section: str) -> None:
    expect(page).to_have_url(
        re.compile(rf"/nouveautes\?de=fr-pre2009&vers=fr-2024(&section={section})?$")
    )
    expect(_main(page).locator(".st-key-nouveautes-liste")).to_be_visible()
    if section:
        expect(_main(page)).to_contain_text(f"Section {section} seulement.")


def _board_screen(page: Page, name: str, verdict: str) -> None:
    expect(page).to_have_url(re.compile(rf"/bac-a-sable\?plateau={re.escape(name)}$"))
    expect(_main(page).locator(".st-key-bac-verdict-fr-2024")).to_contain_text(verdict)


def test_back_and_forward_through_compare_changes_and_sandbox(server: str, page: Page) -> None:
    # Comparer → the rule it links to → Back: the same comparison.
    page.goto(f"{server}/comparer?regle=420.5e&de=fr-pre2009&vers=fr-2024")
    _compare_screen(page)
    _main(page).get_by_role("link", name=re.compile(r"fr-2024 · 704\.5j")).click()
    expect(page).to_have_url(re.compile(r"/regle\?regle=704\.5j&edition=fr-2024$"))
    page.go_back()
    _compare_screen(page)
    # Nouveautés: a section typed in the form is a step of the history.
    page.goto(f"{server}/nouveautes?de=fr-pre2009&vers=fr-2024")
    _changes_screen(page, "")
    _main(page).get_by_test_id("stExpander").first.click()
    section = page.get_by_label("Section")
    section.fill("704")
    section.press("Enter")
    _changes_screen(page, "704")
    page.go_back()
    _changes_screen(page, "")
    page.go_forward()
    _changes_screen(page, "704")
    # Bac à sable: each board of the gallery has its address, and its verdict at once.
    page.goto(f"{server}/bac-a-sable?plateau=704-8-louveteau")
    _board_screen(page, "704-8-louveteau", "Aucun joueur ne perd la partie.")
    _main(page).get_by_text("Modifier le plateau").click()
    _main(page).get_by_test_id("stSelectbox").filter(has_text="Galerie").click()
    # The list shows its first boards only: typing filters it (25 boards now).
    page.keyboard.type("regle-des-legendes-choix")
    # the one option left is the focused one: Enter chooses it (a click could land on an
    # option the list, still filtering on a busy machine, has just replaced: seen in CI)
    expect(page.get_by_role("option")).to_have_count(1)
    expect(page.get_by_role("option", name="regle-des-legendes-choix-attendu")).to_be_visible()
    page.keyboard.press("Enter")
    _board_screen(page, "regle-des-legendes-choix-attendu", "Un choix est attendu")
    page.go_back()
    _board_screen(page, "704-8-louveteau", "Aucun joueur ne perd la partie.")
    page.go_forward()
    _board_screen(page, "regle-des-legendes-choix-attendu", "Un choix est attendu")


@pytest.mark.parametrize("rounds", [5])
def test_search_rule_back_again_and_again(server: str, page: Page, rounds: int) -> None:
    # A judge's loop, several times in one visit: each search, each rule is one step of the
    # history, and Back from the rule gives its search (the rule page once wrote its address
    # a second time, racing the link's own step: Back then stayed on the rule).
    queries = [("poison", "704.5c"), ("contact mortel", "704.5h"), ("704.5g", "704.5g")]
    page.goto(server)
    for n in range(rounds):
        query, rule = queries[n % len(queries)]
        box = page.get_by_label("Rechercher")
        box.fill(query)
        box.press("Enter")
        first = _main(page).locator(".st-key-recherche-premier")
        link = first.get_by_role("link", name=re.compile(rf"^{re.escape(rule)} —"))
        expect(link).to_be_visible()
        length = page.evaluate("history.length")
        link.click()
        expect(_main(page).locator("h2").first).to_contain_text(rule)
        expect(page).to_have_url(re.compile(rf"/regle\?regle={re.escape(rule)}&"))
        assert page.evaluate("history.length") == length + 1
        page.go_back()
        expect(page).to_have_url(re.compile(r"/\?q="))
        expect(page.get_by_label("Rechercher")).to_have_value(query)

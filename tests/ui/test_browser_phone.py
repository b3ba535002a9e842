"""Phone first: on a 390×844 screen (and on 1366×900) what each page is for — the rule's
text, the first result, the diff, the sandbox's verdict, the list of changes — starts in the
upper half of the first screen, without scrolling, and nothing needs a sideways swipe. The
reference graph's nodes open their rule and its labels are legible on a phone (≥ 14 px).

The y position of each text is printed (`pytest -s`) and saved in
test-output/browser/first-screen.json."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.server import ROOT, browser_missing, chromium, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

_missing = browser_missing()
if _missing:
    pytest.skip(_missing, allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

OUT = ROOT / "test-output" / "browser"
SIZES = {"telephone": (390, 844), "portable": (1366, 900)}
# Each page, and where the text it is for starts (a keyed container of the page).
PAGES = {
    "Recherche": ("/?q=contact+mortel", ".st-key-recherche-premier"),
    "Règle": ("/regle?regle=704.5g&edition=fr-2024", ".st-key-regle-texte"),
    "Comparer": (
        "/comparer?regle=420.5e&de=fr-pre2009&vers=fr-2024",
        ".st-key-comparer-premiere del",
    ),
    "Nouveautés": ("/nouveautes?de=fr-pre2009&vers=fr-2024", ".st-key-nouveautes-liste"),
    "Bac à sable": ("/bac-a-sable?plateau=704-8-louveteau", ".st-key-bac-verdict-fr-2024"),
}
# The text starts in the upper half of the first screen: half a screen of it is read
# without scrolling (the Règle page started at y = 589 of 844).
SHARE = 0.5
MIN_LABEL_PX = 14


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("browser-phone-home")
    OUT.mkdir(parents=True, exist_ok=True)
    with streamlit_server(home) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def positions() -> Iterator[dict[str, dict[str, float]]]:
    found: dict[str, dict[str, float]] = {}
    yield found
    (OUT / "first-screen.json").write_text(json.dumps(found, ensure_ascii=False, indent=2))


def _open(browser: Any, size: str) -> tuple[Any, Page]:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    page = context.new_page()
    # The first page of a fresh store builds its indexes: on a busy machine, a minute.
    page.set_default_timeout(60_000)
    return context, page


def _settled(page: Page, selector: str) -> Any:
    """The element, once the page has finished its run and its lazily loaded parts."""
    target = page.locator(selector).first
    expect(target).to_be_visible()
    wait_idle(page, timeout=60_000)
    page.wait_for_load_state("networkidle")
    return target


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(PAGES))
def test_the_text_is_on_the_first_screen(
    server: str, browser: Any, positions: dict[str, dict[str, float]], name: str, size: str
) -> None:
    path, selector = PAGES[name]
    context, page = _open(browser, size)
    try:
        page.goto(server + path)
        target = _settled(page, selector)
        box = target.bounding_box()
        overflow = page.evaluate(
            """() => { const m = document.querySelector('[data-testid="stMain"]');
                       return m.scrollWidth - m.clientWidth; }"""
        )
    finally:
        context.close()
    assert box is not None
    height = SIZES[size][1]
    positions.setdefault(name, {})[size] = round(box["y"])
    print(f"{name} ({size}) : y = {box['y']:.0f} px sur {height}")
    assert 0 <= box["y"] <= SHARE * height, (name, box)
    assert overflow <= 0, f"{name} : {overflow} px à faire défiler de côté"


def test_the_neighbourhood_is_legible_and_each_node_opens_its_rule(
    server: str, browser: Any
) -> None:
    context, page = _open(browser, "telephone")
    try:
        page.goto(f"{server}/regle?regle=704.7&edition=fr-2024")
        graph = _settled(page, ".st-key-voisinage")
        node = graph.get_by_role("link", name=re.compile(r"^704\.5a$"))
        expect(node).to_be_visible()
        sizes = graph.locator("a, p").evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert sizes and min(sizes) >= MIN_LABEL_PX, sizes
        node.click()
        expect(page).to_have_url(re.compile(r"regle=704\.5a&edition=fr-2024"))
        expect(page.get_by_test_id("stMain").locator("h2").first).to_contain_text("704.5a")
    finally:
        context.close()


# The sandbox's three editable tables, in the page's order, and their groups of columns.
TABLES = ("joueurs", "permanents", "zones")


def _table_overflow(page: Page, table: str, group: int) -> int:
    """How far an editable table, showing its group of columns number `group`, scrolls
    sideways (its grid's scroll width beyond its client width), in px."""
    editor = page.locator(f'[class*="st-key-bac-{table}-"][class*="-{group} "]')
    grid = editor.locator(".dvn-scroller")
    expect(grid).to_be_visible()
    width: int = grid.evaluate("e => e.scrollWidth - e.clientWidth")
    return width


def test_the_sandbox_tables_fit_a_phone_in_each_group_of_columns(server: str, browser: Any) -> None:
    from ui.views.bac_a_sable import ALL_COLUMNS, COLUMN_GROUPS

    context, page = _open(browser, "telephone")
    found: dict[str, int] = {}
    try:
        page.goto(f"{server}/bac-a-sable?plateau=704-8-louveteau")
        _settled(page, ".st-key-bac-verdict-fr-2024")
        page.get_by_text("Modifier le plateau").click()
        for table in TABLES:
            pills = page.locator(f".st-key-bac-colonnes-{table}")
            for n, group in enumerate(COLUMN_GROUPS[table]):
                pills.get_by_role("radio", name=group, exact=True).click()
                wait_idle(page, timeout=60_000)
                page.wait_for_timeout(300)  # the grid lays out its new columns
                found[f"{table} / {group}"] = _table_overflow(page, table, n)
        # « Toutes » is wider than a phone: the measure sees a table that scrolls.
        page.locator(".st-key-bac-colonnes-permanents").get_by_role(
            "radio", name=ALL_COLUMNS, exact=True
        ).click()
        wait_idle(page, timeout=60_000)
        page.wait_for_timeout(300)
        everything = _table_overflow(page, "permanents", len(COLUMN_GROUPS["permanents"]))
    finally:
        context.close()
    print(f"défilement de côté des tableaux (px) : {found} ; toutes les colonnes : {everything}")
    assert everything > 0, "la mesure ne voit pas un tableau plus large que l'écran"
    too_wide = {k: v for k, v in found.items() if v > 0}
    assert not too_wide, f"tableaux à faire défiler de côté sur un téléphone : {too_wide}"

"""Readable in a hall: every colour pair the app shows has a WCAG AA contrast (≥ 4.5:1), in
the light theme and in the dark one (.streamlit/config.toml), and a diff says what changed
without colour as well."""

from __future__ import annotations

import re
import tomllib

import pytest

from tests.ui.conftest import ROOT
from ui.render import DIFF_LEGEND, DIFF_MARKS, diff_inline, diff_sides, plain

CONFIG = ROOT / ".streamlit" / "config.toml"
AA = 4.5
# Streamlit's own dark background: the dark theme must hold against it.
STREAMLIT_DARK = "#0e1117"
_DIRECTIVE = re.compile(r":(red|orange|yellow|green|blue|violet|gray)(-background|-badge)?\[")


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of `#rrggbb`."""
    value = colour.lstrip("#")
    assert re.fullmatch(r"[0-9a-fA-F]{6}", value), f"couleur non opaque : {colour}"

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(value[i : i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_formula() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def _used() -> set[tuple[str, str]]:
    """(colour, kind) of every colour directive in the app's code and the diff renderer."""
    used = {(c, "-background") for c, _ in DIFF_MARKS.values() for c in [c.split("-")[0]]}
    for path in (ROOT / "ui").rglob("*.py"):
        used |= set(_DIRECTIVE.findall(path.read_text(encoding="utf-8")))
    return used


def _pairs(theme: dict[str, str]) -> list[tuple[str, str, str]]:
    text, page = theme["textColor"], theme["backgroundColor"]
    pairs = [("texte / fond", text, page), ("texte / fond secondaire", text,
             theme["secondaryBackgroundColor"])]  # fmt: skip
    for colour, kind in sorted(_used()):
        back = theme[f"{colour}BackgroundColor"]
        fore = theme[f"{colour}TextColor"]
        if kind == "-background":  # the theme's text on a highlight
            pairs.append((f"texte / {colour}-background", text, back))
        elif kind == "-badge":
            pairs.append((f"{colour}-badge", fore, back))
        else:  # coloured text on the page
            pairs.append((f":{colour}[…]", fore, page))
    return pairs


@pytest.mark.parametrize("name", ["light", "dark"])
def test_every_colour_pair_passes_aa(name: str) -> None:
    theme = tomllib.loads(CONFIG.read_text(encoding="utf-8"))["theme"][name]
    if name == "dark":
        assert theme["backgroundColor"] == STREAMLIT_DARK
    assert _used() >= {("red", "-background"), ("green", "-background"), ("blue", "-background")}
    low = [
        f"{label} : {fore} sur {back} = {contrast(fore, back):.2f}"
        for label, fore, back in _pairs(theme)
        if contrast(fore, back) < AA
    ]
    assert not low, low


def _ops() -> list[object]:
    from judge.rules.concordance.diff import DiffOp, DiffPart

    return [
        DiffPart(DiffOp.DELETE, "il "),
        DiffPart(DiffOp.INSERT, "ce joueur "),
        DiffPart(DiffOp.EQUAL, "perd la partie"),
    ]


def test_deletions_and_insertions_differ_without_colour() -> None:
    def colourless(markdown: str) -> str:
        return re.sub(r":(?:red|green|blue)-background\[", "[", markdown)

    old, new = diff_sides(_ops())
    assert "~~" in colourless(old) and "**" not in colourless(old)
    assert "**" in colourless(new) and "~~" not in colourless(new)
    inline = colourless(diff_inline(_ops()))
    assert "[~~il~~]" in inline and "[**ce joueur**]" in inline
    assert {style for _, style in DIFF_MARKS.values()} == {"~~", "**", "*"}
    legend = plain(colourless(DIFF_LEGEND))
    assert "~~supprimé~~" in legend and "**ajouté**" in legend

"""Defects an audit found: typos in an effect's filter, a 616.1 choice that names an Aura
without umbra armor."""

from __future__ import annotations

import pytest

from judge.engine import BoardError, load_board, parse_compact


def _warnings(text: str) -> tuple[str, ...]:
    return load_board(parse_compact(text)).warnings


def test_typos_in_an_effect_filter_warn_as_on_a_permanent() -> None:
    text = (
        "player A\nperm s controller=A artifact\n"
        "effect e source=s layer=7c affects.types=creeture affects.colors=plaid effect.power=1\n"
    )
    w = _warnings(text)
    assert any("affects : type « creeture » inconnu" in x for x in w), w
    assert any("affects : couleur « plaid » inconnue" in x for x in w), w
    good = text.replace("creeture", "creature").replace("plaid", "green")
    assert _warnings(good) == ()

"""`--json` output goes through orjson and must stay byte for byte what json.dumps(indent=2,
ensure_ascii=False) writes (the golden files were recorded with it)."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.cli.rules import print_json

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def written(data: Any, capsys: pytest.CaptureFixture[str]) -> str:
    print_json(data)
    return capsys.readouterr().out


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_the_same_bytes_as_json(data: Any) -> None:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print_json(data)
    assert buf.getvalue() == json.dumps(data, ensure_ascii=False, indent=2) + "\n"


@pytest.mark.parametrize(
    "data",
    [
        {"score": 1e-05, "tiny": 5e-324},
        [float("nan"), float("inf")],
        {"big": 2**65},
        {1: "clé entière", "é": "\u2028"},
        {"confidence": 0.807, "links": [[], {}]},
    ],
)
def test_values_orjson_writes_otherwise(data: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert written(data, capsys) == json.dumps(data, ensure_ascii=False, indent=2) + "\n"

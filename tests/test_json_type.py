"""Errors about JSON name its types as JSON does: `null`, not Python's `NoneType`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tui.core.json_type import json_type


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("{}", "object"),
        ("[1, 2]", "array"),
        ('"a"', "string"),
        ("1", "number"),
        ("1.5", "number"),
        ("true", "boolean"),
        ("null", "null"),
    ],
)
def test_each_json_value_is_named_as_json_names_its_type(text: str, name: str) -> None:
    assert json_type(json.loads(text)) == name


def test_a_value_json_cannot_hold_keeps_python_s_name() -> None:
    value: Any = {1, 2}
    assert json_type(value) == "set"

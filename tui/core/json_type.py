"""What JSON calls a value's type, for errors about JSON a person or a program wrote."""

from __future__ import annotations

from typing import Any


def json_type(value: Any) -> str:
    """`object`, `array`, `string`, `number`, `boolean` or `null`: the name JSON gives the
    type of `value` as `json.loads` returns it (Python's own name for anything else)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    return type(value).__name__

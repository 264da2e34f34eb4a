"""What JSON calls a value's type, for errors about JSON a person or a program wrote."""

from __future__ import annotations

import math
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


def not_json(value: Any) -> str | None:
    """Where in `value` there is what JSON cannot carry, and what: `b: object is no JSON
    type`, `a.1: nan is no JSON number`; None when it is all JSON data (objects with
    text keys, arrays, text, finite numbers, booleans, null). Printed with `default=str`,
    such a value would be read back as something else, or not at all."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if not isinstance(key, str):
                    return f"{path + ': ' if path else ''}the key {key!r} is not text"
                stack.append((inner, f"{path}.{key}" if path else key))
        elif isinstance(item, list | tuple):
            stack.extend((inner, f"{path}.{n}" if path else str(n)) for n, inner in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            return f"{path or 'the value'}: {item} is no JSON number"
        elif not isinstance(item, str | int | float | bool | None):
            return f"{path or 'the value'}: {type(item).__name__} is no JSON type"
    return None

"""An answer held to its kind's `content_type` as the JSON it travels as, strictly: a number
where the type has a number, `true` or `false` where it has a bool, text in the type's own
format where it has a date, an enum, a UUID. On its own, pydantic's lax mode took `true` and
`"3"` for an integer and a number of seconds for a date: answers no dialog gives, which the
asker got as if someone had."""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter
from pydantic_core import PydanticSerializationError, to_json


def check_strictly(adapter: TypeAdapter[Any], content: Any) -> None:
    """Raise `ValidationError` unless `content`, as its JSON, is what `adapter`'s type is in
    JSON, by pydantic's strict rules; a whole number written as a float (4.0) is an integer,
    as JSON Schema and the forms take it. Content no JSON can carry is left to the check that
    says so (`check_sendable`)."""
    try:
        # Under the names the type reads it by: a model's aliases.
        text = to_json(content, by_alias=True, inf_nan_mode="constants")
    except PydanticSerializationError:
        return
    whole = json.loads(text, parse_float=_whole_as_integer)
    adapter.validate_json(json.dumps(whole), strict=True)


def _whole_as_integer(number: str) -> int | float:
    value = float(number)
    return int(value) if value.is_integer() else value

"""How big a request may be: checked on the raw data, before anything else reads it.

A request comes from agents and local clients this machine does not control. Over a limit it
is refused with a message naming the limit, at once: a 3 MiB question would freeze the screen
that draws it, and JSON nested thousands deep would exhaust Python's recursion.
"""

from __future__ import annotations

from typing import Any

MAX_TEXT = 256 * 1024
"""Characters of text in one request, all its strings (keys too) together."""

MAX_BODY = 4 * MAX_TEXT
"""Bytes one HTTP request to the inbox may carry (1 MiB): room for a request at the text
limit, JSON-escaped; `serve` answers a larger one 413, and `elicit-tui hook` sends none."""

MAX_ITEMS = 10_000
"""Entries in one list or object: options, questions, schema properties, arguments."""

MAX_PROPERTIES = 256
"""Properties of one form schema: fields a person fills in one dialog."""

MAX_DEPTH = 32
"""Lists and objects inside each other (metadata, tool arguments, a schema)."""

MAX_TIMEOUT = 30 * 24 * 3600.0
"""Seconds a request may wait at most (30 days); `None` waits forever."""


_LARGEST_NUMBER_BITS = 1024


class LimitError(ValueError):
    """A request is over one of the limits above; the message names it."""


def check_size(data: Any) -> None:
    """Raise `LimitError` if `data` (JSON-like) is over a limit, naming where; never recurses.

    Counts every string (keys included) toward `MAX_TEXT`, every container's length toward
    `MAX_ITEMS`, and the depth of containers toward `MAX_DEPTH`; refuses integers no float holds.
    """
    text = 0
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            text += len(value)
            if text > MAX_TEXT:
                raise LimitError(
                    f"{_where(path)}: the request has more than {MAX_TEXT // 1024} KiB of text "
                    "(the limit)"
                )
        elif isinstance(value, int) and value.bit_length() > _LARGEST_NUMBER_BITS:
            # Python cannot even print an int of 5,000 digits; no float holds one past 1e308.
            raise LimitError(f"{_where(path)}: the number is too large (beyond 1e308)")
        elif isinstance(value, dict | list | tuple):
            if len(path) >= MAX_DEPTH:
                raise LimitError(
                    f"{_where(path)}: lists and objects nested more than {MAX_DEPTH} deep "
                    "(the limit)"
                )
            if len(value) > MAX_ITEMS:
                raise LimitError(f"{_where(path)}: {len(value)} entries; the limit is {MAX_ITEMS}")
            if isinstance(value, dict):
                stack.extend((key, path) for key in value)
                stack.extend((item, (*path, str(key))) for key, item in value.items())
            else:
                stack.extend((item, (*path, index)) for index, item in enumerate(value))


def _where(path: tuple[str | int, ...]) -> str:
    shown = ".".join(str(part) for part in path[:8])
    return (shown + (".…" if len(path) > 8 else "")) or "request"

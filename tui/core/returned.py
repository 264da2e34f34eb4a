"""What an agent returned, as text a person is shown: on the main screen and in a transcript."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Returned = str | dict[str, str] | None
"""None for None; a non-empty mapping's keys and values as text; anything else its repr."""


def returned_text(value: Any) -> Returned:
    """`value`, returned by an agent, as it is shown (see `Returned`); a value in a mapping
    that is a string is shown as it is, any other value as its repr. An `ElicitationResult`
    (`elicit-tui ask`'s agent returns one) is said as it would be to a model."""
    from tui.core.models import ElicitationResult  # loaded already, wherever one is returned

    if value is None:
        return None
    if isinstance(value, ElicitationResult):
        return value.to_llm_text()
    if isinstance(value, Mapping) and value:
        return {
            str(key): item if isinstance(item, str) else safe_repr(item)
            for key, item in value.items()
        }
    return safe_repr(value)


def safe_repr(value: Any) -> str:
    """`repr(value)`, or a placeholder naming its type when its `__repr__` raises."""
    try:
        return repr(value)
    except Exception as error:
        # The failure's message may quote what the object holds: only its type is shown.
        return f"<{type(value).__name__} object; its repr raised {type(error).__name__}>"


class RecordedReturn:
    """A value returned by an agent that was recorded as text: its repr is that text."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

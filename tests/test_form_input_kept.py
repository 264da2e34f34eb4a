"""A form's input keeps what was typed or pasted into it, whatever the field's type or
length, and says with its ✖ message what is wrong with it, refusing the form until fixed:
nothing is cut, changed or dropped unsaid."""

from __future__ import annotations

from typing import Any

import pytest
from asking import burst
from test_form_modal import Session, form, showing
from textual import events
from textual.widgets import Input

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "title": "Code", "maxLength": 5},
        "num": {"type": "integer", "title": "Num", "maximum": 100},
        "age": {"type": "integer", "title": "Age", "default": 30},
        "ratio": {"type": "number", "title": "Ratio"},
    },
}


def shown(s: Session, name: str) -> tuple[Any, str | None]:
    """What the field called `name` holds, and its message."""
    return s.value(name), s.error(name)


async def refused(s: Session) -> None:
    """Submit, and see the form stay with the person."""
    await s.pilot.press("ctrl+s")
    await s.pilot.pause()
    assert s.results == []
    assert s.modal_error().startswith("Fix ")


@pytest.mark.parametrize(
    ("keys", "name", "kept", "message"),
    [
        # Cut at 5: 'abcde', with no word of it.
        (tuple("abcdefgh"), "code", "abcdefgh", "at most 5 characters"),
        # The point was dropped: 15 was sent.
        (("tab", *"1.5"), "num", "1.5", "must be a whole number"),
        # Typed over the default, the point dropped: 2530.
        (("tab", "tab", *"2.5"), "age", "2.5", "must be a whole number"),
        (("tab", "tab", "tab", *"1,5"), "ratio", "1,5", "must be a number"),
    ],
)
async def test_what_is_typed_is_kept_and_its_fault_shown(
    keys: tuple[str, ...], name: str, kept: str, message: str
) -> None:
    async with showing(form(SCHEMA)) as s:
        burst(s.app, *keys)
        await s.pilot.pause()
        assert shown(s, name) == (kept, message)
        await refused(s)
        assert shown(s, name) == (kept, message)


@pytest.mark.parametrize(
    ("tabs", "name", "pasted", "message"),
    [
        # Dropped whole: the field stayed empty.
        (0, "code", "pastedvaluetoolong", "at most 5 characters"),
        (1, "num", "2.5", "must be a whole number"),
    ],
)
async def test_what_is_pasted_is_kept_and_its_fault_shown(
    tabs: int, name: str, pasted: str, message: str
) -> None:
    async with showing(form(SCHEMA)) as s:
        await s.pilot.press(*["tab"] * tabs)
        focused = s.app.focused
        assert isinstance(focused, Input)
        focused.post_message(events.Paste(pasted))
        await s.pilot.pause()
        assert shown(s, name) == (pasted, message)
        await refused(s)


async def test_once_fixed_the_form_answers_what_was_typed() -> None:
    async with showing(form(SCHEMA)) as s:
        burst(s.app, *"abcdefgh", "backspace", "backspace", "backspace", "tab", *"42", "ctrl+s")
        result = await s.answered()
    assert result.content == {"code": "abcde", "num": 42, "age": 30}

"""Keys are applied in the order they arrive, also when they arrive all at once.

Every test here presses its keys with no pause between them: with Pilot (which waits only for
the app to look idle) and with every key posted before the app handles the first (`burst`), as a
terminal delivers keys pasted, typed by tmux or expect, or sent over a slow link.
"""

from __future__ import annotations

from asking import SENDERS, Send, answer

TEXT = {"kind": "text", "message": "Service name?", "default": "billing-api"}

THREE_FIELDS = {
    "kind": "form",
    "message": "Burst",
    "requestedSchema": {
        "type": "object",
        "properties": {
            name: {"type": "string", "default": name.upper() * 3} for name in ("a", "b", "c")
        },
    },
}

WHO = {
    "kind": "form",
    "message": "Who?",
    "requestedSchema": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "city": {"type": "string"}},
        "required": ["name", "city"],
    },
}

LONG_LIST = {
    "kind": "choice",
    "message": "Pick one",
    "options": [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta",
        "eta", "theta", "iota", "kappa", "lambda", "mu",
    ],
}  # fmt: skip

CHECKLIST = {"kind": "multi_choice", "message": "Which?", "options": ["auth", "jobs", "metrics"]}


@SENDERS
async def test_typed_text_then_enter_accepts_the_typed_text(send: Send) -> None:
    keys = ("ctrl+u", *"payments-api", "enter")

    result = await answer(TEXT, keys, send)

    assert (result.action, result.content) == ("accept", "payments-api")


@SENDERS
async def test_typing_over_the_selected_default_replaces_it(send: Send) -> None:
    keys = ("backspace", "backspace", *"payments-api", "enter")

    result = await answer(TEXT, keys, send)

    assert result.content == "payments-api"


@SENDERS
async def test_cursor_keys_and_backspaces_edit_the_default_in_order(send: Send) -> None:
    keys = ("end", "backspace", "backspace", "backspace", *"payments", "enter")

    result = await answer(TEXT, keys, send)

    assert result.content == "billing-payments"


@SENDERS
async def test_each_field_of_a_form_gets_the_keys_typed_after_its_tab(send: Send) -> None:
    keys = ("ctrl+u", "tab", "ctrl+u", "tab", "ctrl+u", "ctrl+s")

    result = await answer(THREE_FIELDS, keys, send)

    assert (result.action, result.content) == ("accept", {})


@SENDERS
async def test_enter_on_the_last_field_submits_what_was_typed_before_it(send: Send) -> None:
    keys = (*"Ada", "tab", *"Paris", "enter")

    result = await answer(WHO, keys, send)

    assert (result.action, result.content) == ("accept", {"name": "Ada", "city": "Paris"})


@SENDERS
async def test_filter_then_enter_accepts_the_first_option_the_filter_shows(send: Send) -> None:
    result = await answer(LONG_LIST, (*"kap", "enter"), send)

    assert result.content == "kappa"


@SENDERS
async def test_space_toggles_the_option_the_arrows_moved_to(send: Send) -> None:
    result = await answer(CHECKLIST, ("down", "down", "space", "enter"), send)

    assert result.content == ["metrics"]

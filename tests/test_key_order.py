"""Keys are applied in the order they arrive, also when they arrive all at once.

Every test here presses its keys with no pause between them: with Pilot (which waits only for
the app to look idle) and with every key posted before the app handles the first (`burst`), as a
terminal delivers keys pasted, typed by tmux or expect, or sent over a slow link.
"""

from __future__ import annotations

import asyncio

from app_driver import SIZE, wait_for_modal
from asking import SENDERS, Asker, Send, answer
from textual import events

from tui.app.app import ElicitationApp
from tui.core.models import parse_request
from tui.core.queue import ElicitationQueue

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


async def test_a_key_passed_up_as_the_app_closes_its_screens_is_dropped() -> None:
    # As `run_test` ends an app, Textual closes every screen while the app still handles
    # what it was sent: a key a widget passed up then crashed the app (ScreenStackError).
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(CHECKLIST)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        app._running = False  # what Textual's shutdown does first, then:
        await app._close_all()
        key = events.Key("x", "x")
        key._set_forwarded()  # as a widget that had it passes it up
        assert app.post_message(key)
        await asyncio.sleep(0.05)
    assert app._exception is None

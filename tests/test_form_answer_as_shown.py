"""A form answers what it holds as the person left it, the same whichever way the answer
travels: in the asker's process, or from `attach` (and the browser) through the inbox. An
optional field the person emptied is left out, one left untouched gives its default, and
a field answers what it shows (a switch "no" is false)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from asking import Asker, post_all_at_once
from mcp_test_server import EMPTIABLE_SCHEMA
from running_inbox import running_inbox
from test_mcp_client import EMPTY_EVERY_FIELD
from test_remote_front_end import attached_app
from textual.pilot import Pilot

from tui.app.app import ElicitationApp
from tui.core.models import ElicitationResult, FormRequest
from tui.core.queue import ElicitationQueue
from widgets.form import FormModal

Answering = Callable[[FormRequest], Any]
"""Shows `request` in an app and yields a pilot and a way to wait for what the asker got."""


@asynccontextmanager
async def in_process(
    request: FormRequest,
) -> AsyncIterator[tuple[Pilot[Any], Callable[[], Awaitable[ElicitationResult]]]]:
    asker = Asker(request)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:

        async def result() -> ElicitationResult:
            await wait_for(pilot, lambda: bool(asker.results))
            return asker.results[0]

        yield pilot, result


@asynccontextmanager
async def through_the_inbox(
    request: FormRequest,
) -> AsyncIterator[tuple[Pilot[Any], Callable[[], Awaitable[ElicitationResult]]]]:
    with running_inbox() as inbox:
        future = inbox.inbox.submit(request)
        front_end, app = attached_app(inbox)
        try:
            async with app.run_test(size=SIZE) as pilot:

                async def result() -> ElicitationResult:
                    await wait_for(pilot, future.done)
                    return future.result()

                yield pilot, result
        finally:
            front_end.close()


WAYS = pytest.mark.parametrize("showing", [in_process, through_the_inbox])


async def answer(showing: Any, schema: dict[str, Any], keys: tuple[str, ...]) -> Any:
    request = FormRequest(message="Anything to change?", requested_schema=schema)
    async with showing(request) as (pilot, result):
        modal = await wait_for_modal(pilot, "Anything to change?")
        assert isinstance(modal, FormModal)
        await wait_for(pilot, lambda: modal.complete)
        await post_all_at_once(pilot, keys)
        answered = await result()
    assert answered.action == "accept"
    return answered.content


@WAYS
async def test_optional_fields_emptied_are_left_out(showing: Any) -> None:
    # Through the inbox, the answer's check filled each with its default.
    assert await answer(showing, EMPTIABLE_SCHEMA, (*EMPTY_EVERY_FIELD, "ctrl+s")) == {}


@WAYS
async def test_optional_fields_untouched_give_their_defaults(showing: Any) -> None:
    content = await answer(showing, EMPTIABLE_SCHEMA, ("ctrl+s",))
    assert content == {"nick": "bob", "tags": ["x"], "color": "r", "n": 5}


SWITCHES = {
    "type": "object",
    "properties": {
        "optional": {"type": "boolean", "title": "Optional"},
        "required": {"type": "boolean", "title": "Required"},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}},
    },
    "required": ["required", "tags"],
}
"""Switches and a checklist without defaults: each shows an answer (no, nothing ticked)."""


@WAYS
async def test_switches_and_checklists_untouched_answer_what_they_show(showing: Any) -> None:
    # The optional switch showed "no" and was left out.
    content = await answer(showing, SWITCHES, ("ctrl+s",))
    assert content == {"optional": False, "required": False, "tags": []}


def test_answering_with_the_defaults_answers_as_the_untouched_form_does() -> None:
    # "no default for required fields": cancelled where the form answers false and [].
    queue = ElicitationQueue(policy="accept_defaults")
    result = queue.ask(FormRequest(message="Anything?", requested_schema=SWITCHES))
    assert (result.action, result.content) == (
        "accept",
        {"optional": False, "required": False, "tags": []},
    )

"""The MCP client bridge, end to end: an MCPServer's tool elicits, the person answers in the app.

Every test runs on both protocol generations the SDK speaks: 2025-11-25 ("legacy", the
server sends `elicitation/create`) and 2026-07-28 (the tool returns `input_required` and
`mcp.Client` retries with the answers).
"""

from __future__ import annotations

import asyncio
import warnings
from types import SimpleNamespace
from typing import Any

import mcp_test_server
import pytest
from app_driver import app_answering, wait_for, wait_for_modal
from mcp import Client, ClientSession, MCPError
from mcp.client._memory import InMemoryTransport
from mcp_test_server import TYPED_SCHEMA, server
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    CallToolResult,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
)

from tui import (
    ElicitationQueue,
    ElicitationResult,
    FormRequest,
    QueueEvent,
    ScriptedResponder,
)
from tui.core.models import UrlRequest
from tui.mcp.client import elicitation_callback, request_from_params
from widgets.base import ElicitationModal

MODES = ["legacy", "2026-07-28"]
FALLBACK = "tests"
"""The `source` given to the callback; a 2026-07-28 session adopted without discovery has no
server name, so requests show this instead."""

DEFAULTS = {"guests": 2, "budget": 50, "vegan": False, "size": "small", "note": "none"}


pytestmark = pytest.mark.usefixtures("opened")
"""No test here starts a real browser."""


async def call(queue: ElicitationQueue, mode: str, tool: str, **arguments: Any) -> CallToolResult:
    """Call `tool` on the test server, answering its elicitations through `queue`."""
    callback = elicitation_callback(queue, source=FALLBACK)
    async with Client(server, mode=mode, elicitation_callback=callback) as client:
        try:
            return await client.call_tool(tool, arguments)
        except MCPError as error:
            refused = error
    # raised out here: raised inside, the client's task groups would wrap it
    raise refused


def asker(mode: str) -> str:
    return "test-elicitor" if mode == "legacy" else FALLBACK


# -- form mode ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_a_form_answered_in_the_app_reaches_the_tool_typed(mode: str) -> None:
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(call(queue, mode, "form", case="typed"))
        modal = await wait_for_modal(pilot, "Who is coming?")
        assert isinstance(modal.request, FormRequest)
        assert modal.request.source == asker(mode)
        assert modal.request.requested_schema == TYPED_SCHEMA
        await pilot.press(*"Ann", "enter", "ctrl+u", "4", "ctrl+s")
        result = await asyncio.wait_for(task, 10)
    answer = result.structured_content
    assert answer == {
        "q": {"action": "accept", "content": {"name": "Ann", **DEFAULTS, "guests": 4}}
    }
    assert type(answer["q"]["content"]["guests"]) is int


EMPTY_EVERY_FIELD = ("end", "ctrl+u", "tab", "1", "tab", "0", "tab", "end", "ctrl+u")
"""Keys that empty each field of the "emptiable" form: the text, the tick, the pick, the number."""


@pytest.mark.parametrize("mode", MODES)
async def test_fields_emptied_in_the_app_reach_the_tool_left_out(mode: str) -> None:
    # The bridge filled them with their defaults: the server got what the person removed.
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(call(queue, mode, "form", case="emptiable"))
        await wait_for_modal(pilot, "Anything to change?")
        await pilot.press(*EMPTY_EVERY_FIELD, "ctrl+s")
        result = await asyncio.wait_for(task, 10)
    assert result.structured_content == {"q": {"action": "accept", "content": {}}}


@pytest.mark.parametrize("mode", MODES)
async def test_fields_left_untouched_in_the_app_reach_the_tool_as_their_defaults(
    mode: str,
) -> None:
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(call(queue, mode, "form", case="emptiable"))
        await wait_for_modal(pilot, "Anything to change?")
        await pilot.press("ctrl+s")
        result = await asyncio.wait_for(task, 10)
    defaults = {"nick": "bob", "tags": ["x"], "color": "r", "n": 5}
    assert result.structured_content == {"q": {"action": "accept", "content": defaults}}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("key", "action"), [("ctrl+n", "decline"), ("escape", "cancel")])
async def test_decline_and_cancel_reach_the_tool_as_such(mode: str, key: str, action: str) -> None:
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(call(queue, mode, "form", case="typed"))
        await wait_for_modal(pilot, "Who is coming?")
        await pilot.press(key)
        result = await asyncio.wait_for(task, 10)
    assert result.structured_content == {"q": {"action": action}}


@pytest.mark.parametrize("mode", MODES)
async def test_several_elicitations_at_once_queue_and_are_answered_in_turn(mode: str) -> None:
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(call(queue, mode, "two_forms"))
        await wait_for(pilot, lambda: len(queue.pending()) == 2)
        first = await wait_for_modal(pilot)
        first_asked = first.request
        await wait_for(pilot, lambda: first.waiting == 1)
        await pilot.press("ctrl+s")
        second = await wait_for_modal(pilot, next(r.message for r in queue.pending()))
        assert second.request.id != first_asked.id
        await pilot.press("ctrl+n")
        result = await asyncio.wait_for(task, 10)
    answers = result.structured_content
    assert answers is not None
    # both were asked at once, so either may have been shown first
    assert sorted((a["action"], a.get("content")) for a in answers.values()) == [
        ("accept", DEFAULTS),
        ("decline", None),
    ]


# -- URL mode ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_consent_opens_the_link_and_accepts(mode: str, opened: list[str]) -> None:
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(call(queue, mode, "link", url="https://example.com/sign-in"))
        modal = await wait_for_modal(pilot, "Sign in, please")
        assert isinstance(modal.request, UrlRequest)
        assert opened == []
        await pilot.press("enter")
        result = await asyncio.wait_for(task, 10)
    assert result.structured_content == {"q": {"action": "accept"}}
    assert opened == ["https://example.com/sign-in"]


@pytest.mark.parametrize("mode", MODES)
async def test_declining_a_link_opens_nothing(mode: str, opened: list[str]) -> None:
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(call(queue, mode, "link", url="https://example.com/sign-in"))
        await wait_for_modal(pilot, "Sign in, please")
        await pilot.press("ctrl+n")
        result = await asyncio.wait_for(task, 10)
    assert result.structured_content == {"q": {"action": "decline"}}
    assert opened == []


# -- what cannot be shown ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("tool", "arguments", "why"),
    [
        ("form", {"case": "nested"}, "requested_schema: property 'address': nested objects"),
        ("form", {"case": "blank"}, "message: message must not be blank"),
        ("link", {"url": "example.com/sign-in"}, "url: url 'example.com/sign-in' has no scheme"),
    ],
)
async def test_what_cannot_be_shown_is_an_invalid_params_error_and_the_app_goes_on(
    mode: str, tool: str, arguments: dict[str, Any], why: str
) -> None:
    async with app_answering() as (queue, pilot):
        with pytest.raises(MCPError) as refused:
            await call(queue, mode, tool, **arguments)
        assert refused.value.code == INVALID_PARAMS
        assert refused.value.message.startswith("elicit-tui cannot show this elicitation: ")
        assert why in refused.value.message
        assert not isinstance(pilot.app.screen, ElicitationModal)
        # still answering: the next elicitation is shown and answered
        task = asyncio.create_task(call(queue, mode, "form", case="defaults"))
        await wait_for_modal(pilot, "How many?")
        await pilot.press("ctrl+s")
        result = await asyncio.wait_for(task, 10)
    assert result.structured_content == {"q": {"action": "accept", "content": DEFAULTS}}


async def test_malformed_params_are_refused_by_the_sdk_and_the_app_goes_on() -> None:
    # only a 2025-11-25 server sends its own requests; at 2026-07-28 the SDK server refuses
    # to return malformed input requests at all
    async with app_answering() as (queue, pilot):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pydantic warns serializing the broken params
            with pytest.raises(MCPError) as refused:
                await call(queue, "legacy", "malformed")
        assert (refused.value.code, refused.value.message) == (
            INVALID_PARAMS,
            "Invalid request parameters",
        )
        assert queue.pending() == []
        assert pilot.app.is_running


# -- answers from other front ends -------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_untouched_fields_take_their_defaults_before_the_check(mode: str) -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Who is coming?": {"name": "Bo"}})
    result = await call(queue, mode, "form", case="typed")
    assert result.structured_content == {
        "q": {"action": "accept", "content": {"name": "Bo", **DEFAULTS}}
    }


@pytest.mark.parametrize("mode", MODES)
async def test_an_answer_outside_the_schema_is_not_sent(mode: str) -> None:
    queue = ElicitationQueue()

    def careless_front_end(event: QueueEvent) -> None:
        # It answers without checking the schema; the queue checks, and refuses it.
        if event.type == "requested":
            answer = ElicitationResult(action="accept", content={"name": "Bo", "guests": 99})
            queue.respond(event.request.id, answer)

    queue.subscribe(careless_front_end)
    with pytest.raises(MCPError) as refused:
        await call(queue, mode, "form", case="typed")
    assert refused.value.code == INTERNAL_ERROR
    assert "property 'guests': 99 is greater than the maximum of 9" in refused.value.message


async def test_the_callback_serves_a_bare_client_session() -> None:
    queue = ElicitationQueue(policy="accept_defaults")
    callback = elicitation_callback(queue, source=FALLBACK)
    async with (
        InMemoryTransport(server._lowlevel_server) as (read, write),
        ClientSession(read, write, elicitation_callback=callback) as session,
    ):
        await session.initialize()
        result = await session.call_tool("form", {"case": "defaults"})
    assert result.structured_content == {"q": {"action": "accept", "content": DEFAULTS}}


def test_params_become_requests_of_their_kind() -> None:
    form = request_from_params(
        ElicitRequestFormParams(message="Who?", requested_schema=TYPED_SCHEMA), source="srv"
    )
    assert isinstance(form, FormRequest)
    assert (form.message, form.source, form.metadata) == ("Who?", "srv", {"mcp": {"mode": "form"}})
    link = request_from_params(
        ElicitRequestURLParams(message="Go", url="https://example.com", elicitation_id="e1")
    )
    assert isinstance(link, UrlRequest)
    assert (link.url, link.source) == ("https://example.com", None)
    assert link.metadata == {"mcp": {"mode": "url", "elicitation_id": "e1"}}


async def test_a_password_field_reaches_the_server_as_its_value() -> None:
    queue = ElicitationQueue()
    schema = {"type": "object", "properties": {"token": {"type": "string", "format": "password"}}}
    ScriptedResponder(
        queue, {"Token?": lambda request: request.finish_content({"token": "s3cret"})}
    )
    callback = elicitation_callback(queue, source="srv")
    context = SimpleNamespace(session=SimpleNamespace(server_info=None))
    params = ElicitRequestFormParams(message="Token?", requested_schema=schema)

    answer = await callback(context, params)  # type: ignore[arg-type]

    assert answer.content == {"token": "s3cret"}  # type: ignore[union-attr]


# -- 2026-07-28: several inputs in one input_required round ------------------------------


async def test_a_form_and_a_link_in_one_round_are_answered_and_the_state_echoed(
    opened: list[str],
) -> None:
    mcp_test_server.ROUNDS.clear()
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(call(queue, "2026-07-28", "form_and_link"))
        # both inputs of the round reach the queue at once
        await wait_for(pilot, lambda: len(queue.pending()) == 2)
        assert {type(r) for r in queue.pending()} == {FormRequest, UrlRequest}
        for _ in range(2):
            modal = await wait_for_modal(pilot)
            await pilot.press("ctrl+s" if isinstance(modal.request, FormRequest) else "enter")
            await wait_for(pilot, lambda m=modal: pilot.app.screen is not m)
        result = await asyncio.wait_for(task, 10)
    # one round of questions, one retry that carried both answers and the state unchanged
    assert mcp_test_server.ROUNDS == [([], None), (["form", "link"], mcp_test_server.STATE)]
    assert result.structured_content == {
        "form": {"action": "accept", "content": DEFAULTS},
        "link": {"action": "accept"},
        "rounds": 2,
    }
    assert opened == ["https://example.com/sign-in"]

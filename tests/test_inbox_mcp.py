"""The MCP tool `elicit` of a real `serve --headless`, called with the official MCP SDK client."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from inbox_process import InboxProcess, running_inbox
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, Implementation


@pytest.fixture
def inbox() -> Iterator[InboxProcess]:
    with running_inbox() as running:
        yield running


async def call(
    inbox: InboxProcess, arguments: dict[str, Any], mode: str = "auto"
) -> CallToolResult:
    info = Implementation(name="claude-code", version="1")
    async with (
        httpx2.AsyncClient(headers=inbox.headers, timeout=httpx2.Timeout(30)) as http,
        Client(
            streamable_http_client(inbox.base + "/mcp", http_client=http),
            client_info=info,
            mode=mode,
        ) as client,
    ):
        return await client.call_tool("elicit", arguments)


async def answered(
    inbox: InboxProcess, arguments: dict[str, Any], content: Any
) -> tuple[CallToolResult, dict[str, Any]]:
    """Call `elicit` and answer the request it makes with `content`, as a front end would."""
    calling = asyncio.create_task(call(inbox, arguments))
    (pending,) = await asyncio.to_thread(inbox.wait_pending, 1)
    response = await asyncio.to_thread(
        inbox.answer, pending["id"], {"action": "accept", "content": content}
    )
    assert response.status_code == 200, response.text
    return await calling, pending


async def test_a_long_choice_passes_through_whole(inbox: InboxProcess) -> None:
    options = [f"region-{n:02}" for n in range(60)]
    arguments = {"kind": "choice", "message": "Which region?", "options": options}
    result, pending = await answered(inbox, arguments, "region-42")

    assert [option["label"] for option in pending["options"]] == options
    assert pending["source"] == "client 1, said it is claude-code"
    assert not result.is_error
    assert result.structured_content == {"action": "accept", "content": "region-42", "reason": None}
    assert result.content[0].text == 'The user answered: "region-42"'  # type: ignore[union-attr]


async def test_questions_keep_their_previews_and_any_number_of_options(
    inbox: InboxProcess,
) -> None:
    options = [{"label": f"plan {n}", "preview": f"# Plan {n}\n\nsteps"} for n in range(7)]
    arguments = {
        "kind": "questions",
        "message": "Pick a plan",
        "questions": [{"question": "Which plan?", "options": options}],
    }
    result, pending = await answered(inbox, arguments, {"answers": {"Which plan?": "plan 5"}})

    assert pending["questions"][0]["options"][5]["preview"] == "# Plan 5\n\nsteps"
    assert result.structured_content is not None
    assert result.structured_content["content"]["answers"] == {"Which plan?": "plan 5"}


async def test_a_tool_approval_and_a_form_are_askable(inbox: InboxProcess) -> None:
    approval = {
        "kind": "tool_approval",
        "message": "Run the tests?",
        "tool_name": "shell",
        "tool_call_id": "t1",
        "arguments": {"command": "pytest -q"},
        "folder": "/work/app",
    }
    allowed, pending = await answered(inbox, approval, {"scope": "once"})
    form = {
        "kind": "form",
        "message": "Port?",
        "requested_schema": {"type": "object", "properties": {"port": {"type": "integer"}}},
    }
    filled, _ = await answered(inbox, form, {"port": 8080})

    assert (pending["id"], pending["folder"]) == ("toolApproval:t1", "/work/app")
    assert allowed.structured_content == {
        "action": "accept",
        "content": {"scope": "once"},
        "reason": None,
    }
    assert filled.structured_content is not None
    assert filled.structured_content["content"] == {"port": 8080}


async def test_a_malformed_request_is_a_tool_error_with_the_parse_request_text(
    inbox: InboxProcess,
) -> None:
    result = await call(
        inbox, {"kind": "choice", "message": "Which?", "options": ["a"], "default": "z"}
    )

    assert result.is_error
    assert result.content[0].text == (  # type: ignore[union-attr]
        "invalid request:\n  choice.default: 'z' is not one of the options: 'a'"
    )
    assert inbox.pending() == []


async def test_a_secret_without_a_keyring_entry_is_refused(inbox: InboxProcess) -> None:
    result = await call(inbox, {"kind": "secret", "message": "Token?"})

    assert result.is_error
    assert "store: a secret asked through MCP must name the keyring entry" in (
        result.content[0].text  # type: ignore[union-attr]
    )
    assert inbox.pending() == []


@pytest.mark.parametrize(
    "stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["ctrl-c", "sigterm", "hangup"]
)
async def test_stopping_the_inbox_answers_agents_on_both_protocols_closed(
    inbox: InboxProcess, stop: signal.Signals
) -> None:
    # The 2025-11-25 call got "SSE stream ended without a response": the stop signal ended
    # its response stream before its answer (and the client's next request) went out.
    question = {"kind": "text", "message": "Name?"}
    calls = [asyncio.create_task(call(inbox, question, mode)) for mode in ("legacy", "2026-07-28")]
    await asyncio.to_thread(inbox.wait_pending, 2)
    await asyncio.to_thread(inbox.stop, stop)
    results = await asyncio.gather(*calls)

    closed = {"action": "cancel", "content": None, "reason": "closed"}
    assert [result.structured_content for result in results] == [closed, closed]
    assert "ERROR" not in inbox.output

"""An MCP server for the bridge's tests: tools that elicit what a test needs, well-formed or not.

Import `server` to connect in-process, or run this file to serve it on stdio. Each tool
sends raw elicitations, so a test sees exactly the content the client returned (typed as
JSON), on 2025-11-25 sessions (`elicitation/create`) and 2026-07-28 ones (`input_required`).
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from typing import Any

from mcp import UrlElicitationRequiredError
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types import (
    INVALID_PARAMS,
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    TextContent,
)
from mcp_types.version import is_version_at_least
from pydantic import BaseModel

server = MCPServer("test-elicitor")

TYPED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 1},
        "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 9, "default": 2},
        "budget": {"type": "number", "title": "Budget", "default": 50},
        "vegan": {"type": "boolean", "title": "Vegan", "default": False},
        "size": {"type": "string", "title": "Size", "enum": ["small", "large"], "default": "small"},
        "note": {"type": "string", "title": "Note", "default": "none"},
    },
    "required": ["name"],
}

EMPTIABLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "nick": {"type": "string", "title": "Nickname", "default": "bob"},
        "tags": {
            "type": "array",
            "title": "Tags",
            "items": {"type": "string", "enum": ["x", "y"]},
            "default": ["x"],
        },
        "color": {"type": "string", "title": "Color", "enum": ["r", "g"], "default": "r"},
        "n": {"type": "integer", "title": "Count", "default": 5},
    },
}
"""Optional fields, each with a default a person may empty."""

FORMS: dict[str, tuple[str, dict[str, Any]]] = {
    "typed": ("Who is coming?", TYPED_SCHEMA),
    "defaults": ("How many?", {"type": "object", "properties": TYPED_SCHEMA["properties"]}),
    "emptiable": ("Anything to change?", EMPTIABLE_SCHEMA),
    "nested": (
        "Where do you live?",
        {
            "type": "object",
            "properties": {
                "address": {"type": "object", "properties": {"street": {"type": "string"}}}
            },
        },
    ),
    "blank": ("   ", {"type": "object", "properties": {"name": {"type": "string"}}}),
    "password": (
        "Your password?",
        {"type": "object", "properties": {"pw": {"type": "string", "format": "password"}}},
    ),
}
"""Form elicitations by case: a message and a requested schema."""


class Nested(BaseModel):
    street: str


def _modern(ctx: Context) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, "2026-07-28")


async def _elicit(
    ctx: Context, requests: dict[str, ElicitRequestParams]
) -> dict[str, ElicitResult] | InputRequiredResult:
    """Ask every request at once: one input_required round (2026), or concurrent requests."""
    if _modern(ctx):
        responses = ctx.input_responses or {}
        answers = {
            key: answer
            for key in requests
            if isinstance(answer := responses.get(key), ElicitResult)
        }
        if len(answers) == len(requests):
            return answers
        return InputRequiredResult(
            input_requests={key: ElicitRequest(params=params) for key, params in requests.items()}
        )
    metadata = ServerMessageMetadata(related_request_id=ctx.request_id)
    results = await asyncio.gather(
        *(
            ctx.session.send_request(ElicitRequest(params=params), ElicitResult, metadata=metadata)
            for params in requests.values()
        )
    )
    return dict(zip(requests, results, strict=True))


def _outcome(answers: dict[str, ElicitResult]) -> dict[str, Any]:
    return {key: answer.model_dump(exclude_none=True) for key, answer in answers.items()}


@server.tool()
async def form(ctx: Context, case: str = "typed") -> dict[str, Any] | InputRequiredResult:
    """Elicit the form of `case` (see FORMS) and return the answer exactly as it came."""
    message, schema = FORMS[case]
    answers = await _elicit(
        ctx, {"q": ElicitRequestFormParams(message=message, requested_schema=schema)}
    )
    return answers if isinstance(answers, InputRequiredResult) else _outcome(answers)


@server.tool()
async def two_forms(ctx: Context) -> dict[str, Any] | InputRequiredResult:
    """Elicit two forms at the same time."""
    schema = FORMS["defaults"][1]
    answers = await _elicit(
        ctx,
        {
            "first": ElicitRequestFormParams(message="First question", requested_schema=schema),
            "second": ElicitRequestFormParams(message="Second question", requested_schema=schema),
        },
    )
    return answers if isinstance(answers, InputRequiredResult) else _outcome(answers)


@server.tool()
async def link(ctx: Context, url: str) -> dict[str, Any] | InputRequiredResult:
    """Ask for consent to open `url` (URL mode) and return the answer."""
    params = ElicitRequestURLParams(message="Sign in, please", url=url)
    if not _modern(ctx):
        params.elicitation_id = "sign-in-1"
    answers = await _elicit(ctx, {"q": params})
    return answers if isinstance(answers, InputRequiredResult) else _outcome(answers)


ROUNDS: list[tuple[list[str], str | None]] = []
"""What each `form_and_link` request carried: its input response keys and request state."""

STATE = "opaque/state+1=="
"""The request state `form_and_link` hands out and expects back byte for byte."""


@server.tool()
async def form_and_link(ctx: Context) -> dict[str, Any] | InputRequiredResult:
    """2026-07-28 only: ask for a form and a link in one input_required round, with state.

    Returns the answers once both come back with the state echoed exactly; otherwise asks
    (again), as the spec has a server do when inputs are missing.
    """
    responses = ctx.input_responses or {}
    ROUNDS.append((sorted(responses), ctx.request_state))
    answers = {k: a for k, a in responses.items() if isinstance(a, ElicitResult)}
    if ctx.request_state == STATE and set(answers) == {"form", "link"}:
        return {**_outcome(answers), "rounds": len(ROUNDS)}
    return InputRequiredResult(
        input_requests={
            "form": ElicitRequest(
                params=ElicitRequestFormParams(
                    message="How many?", requested_schema=FORMS["defaults"][1]
                )
            ),
            "link": ElicitRequest(
                params=ElicitRequestURLParams(
                    message="Sign in, please", url="https://example.com/sign-in"
                )
            ),
        },
        request_state=STATE,
    )


SIGN_INS = {
    "github-1": ("Connect your GitHub account", "https://github.example/connect?e=github-1"),
    "calendar-1": ("Connect your calendar", "https://calendar.example/connect?e=calendar-1"),
}
"""The links `linked_accounts` needs visited, by elicitation id."""

_refused: list[int] = []


@server.tool()
async def linked_accounts(ctx: Context, complete: list[str] | None = None) -> dict[str, Any]:
    """Refuse with -32042 (two sign-in links) the first time; succeed when retried.

    On refusing, report an elicitation nobody asked for as complete, then each id of
    `complete`: as if the person had finished those sign-ins in the browser.
    """
    if not _refused:
        _refused.append(1)
        session = ctx.session

        async def report() -> None:
            await asyncio.sleep(0.3)
            for elicitation_id in ["unknown-9", *(complete or [])]:
                await session.send_elicit_complete(elicitation_id)

        _background.add(task := asyncio.get_running_loop().create_task(report()))
        task.add_done_callback(_background.discard)
        raise UrlElicitationRequiredError(
            [
                ElicitRequestURLParams(message=message, url=url, elicitation_id=elicitation_id)
                for elicitation_id, (message, url) in SIGN_INS.items()
            ]
        )
    return {"connected": sorted(SIGN_INS), "attempts": len(_refused) + 1}


_background: set[asyncio.Task[None]] = set()


POEM = "roses are red\nviolets *are* blue\n\n# not a heading\n    indented & <b>kept</b>"


@server.tool()
def poem() -> CallToolResult:
    """Return plain text with line breaks, blank lines and characters markdown would take."""
    return CallToolResult(content=[TextContent(type="text", text=POEM)])


@server.tool()
def protocol_error() -> str:
    """Fail the call with a JSON-RPC error (invalid params), not a tool error."""
    raise MCPError(INVALID_PARAMS, "no calls today")


@server.tool()
async def malformed(ctx: Context) -> str:
    """Send an elicitation/create whose params lack the message (2025-11-25 only)."""
    params = ElicitRequestFormParams.model_construct(mode="form", requested_schema={})
    await ctx.session.send_request(ElicitRequest(params=params), ElicitResult)
    return "unreachable: the client must refuse the request"


@server.tool()
def crash() -> str:
    """Die at once, in the middle of the call."""
    print("test-elicitor: falling over now", file=sys.stderr, flush=True)
    os._exit(3)


@server.tool()
async def crash_while_asking(ctx: Context) -> dict[str, Any] | InputRequiredResult:
    """Die half a second from now, while the person is being asked."""
    print("test-elicitor: about to fall over", file=sys.stderr, flush=True)
    threading.Timer(0.5, os._exit, args=(3,)).start()
    return await form(ctx, "defaults")


@server.tool()
async def nested_arguments(home: Nested) -> str:
    """A tool whose input schema no form fits (a nested object)."""
    return f"lives on {home.street}"


if __name__ == "__main__":
    server.run()

"""Tool calls a server refuses until the person has been to some links (2025-11-25, -32042).

A server that needs the person to do something in the browser first (sign in to a third
party, pay) answers `tools/call` with a `URLElicitationRequiredError` listing URL-mode
elicitations. `call_tool` offers each link through the queue (the URL consent modal), then
retries the call: at once when the server has sent `notifications/elicitation/complete` for
every link, else when the person says they are done. `ElicitationCompletions` is the
session's `message_handler` that hears those notifications; it ignores any for elicitations
it is not waiting for, or that are already complete.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
from mcp import Client
from mcp.client.session import IncomingMessage
from mcp.shared.exceptions import MCPError
from mcp_types import (
    URL_ELICITATION_REQUIRED,
    CallToolResult,
    ElicitCompleteNotification,
    ElicitRequestURLParams,
)
from pydantic import TypeAdapter, ValidationError

from tui.core.models import ChoiceRequest, ElicitationResult, UrlRequest
from tui.core.options import Option
from tui.core.queue import ElicitationQueue

__all__ = ["COMPLETED", "ElicitationCompletions", "call_tool"]

COMPLETED = "elicitation_complete"
"""The reason the "retry" question ends with when the server reports every link done."""

_RETRY = "retry"

_ELICITATIONS = TypeAdapter(list[ElicitRequestURLParams])


class ElicitationCompletions:
    """Hears `notifications/elicitation/complete` for the elicitations a call waits on."""

    def __init__(self) -> None:
        self._awaited: dict[str, anyio.Event] = {}

    async def __call__(self, message: IncomingMessage) -> None:
        """The session's `message_handler`: marks an awaited elicitation complete."""
        if isinstance(message, ElicitCompleteNotification):
            done = self._awaited.get(message.params.elicitation_id)
            if done is not None:
                done.set()

    @contextmanager
    def awaiting(self, ids: list[str]) -> Iterator[dict[str, anyio.Event]]:
        """Listen for the completion of `ids` inside the block; afterwards they count as finished."""
        events = {elicitation_id: anyio.Event() for elicitation_id in ids}
        self._awaited.update(events)
        try:
            yield events
        finally:
            for elicitation_id in ids:
                self._awaited.pop(elicitation_id, None)


async def call_tool(
    client: Client,
    queue: ElicitationQueue,
    completions: ElicitationCompletions,
    name: str,
    arguments: dict[str, Any],
    *,
    asker: str,
) -> CallToolResult:
    """`client.call_tool`, taking the person through the links of a -32042 and retrying.

    Raises the server's `MCPError` when the call fails otherwise, or when the person declines
    a link or cancels the wait (the call stays refused).
    """
    while True:
        try:
            return await client.call_tool(name, arguments)
        except MCPError as error:
            if error.code != URL_ELICITATION_REQUIRED:
                raise
            if not await _through_links(queue, completions, _elicitations(error), name, asker):
                raise


def _elicitations(error: MCPError) -> list[ElicitRequestURLParams]:
    data = error.data if isinstance(error.data, dict) else {}
    try:
        elicitations = _ELICITATIONS.validate_python(data.get("elicitations"))
    except ValidationError as problem:
        raise MCPError(
            URL_ELICITATION_REQUIRED,
            f"{error.message} (its list of links is malformed: "
            f"{problem.errors(include_url=False)[0]['msg']})",
        ) from None
    if not elicitations or any(e.elicitation_id is None for e in elicitations):
        raise MCPError(
            URL_ELICITATION_REQUIRED,
            f"{error.message} (it names no links, or a link without an elicitationId)",
        )
    return elicitations


async def _through_links(
    queue: ElicitationQueue,
    completions: ElicitationCompletions,
    elicitations: list[ElicitRequestURLParams],
    tool: str,
    asker: str,
) -> bool:
    """Offer every link, then wait for the server or the person; True to retry the call."""
    ids = [str(e.elicitation_id) for e in elicitations]
    with completions.awaiting(ids) as done:
        for number, elicitation in enumerate(elicitations, start=1):
            try:
                request = UrlRequest(
                    message=elicitation.message,
                    url=elicitation.url,
                    title=f"{tool} needs you in the browser ({number} of {len(elicitations)})",
                    source=asker,
                    metadata={"mcp": {"mode": "url", "elicitation_id": elicitation.elicitation_id}},
                )
            except ValidationError as problem:
                why = problem.errors(include_url=False)[0]["msg"].removeprefix("Value error, ")
                raise MCPError(
                    URL_ELICITATION_REQUIRED, f"{tool} needs a link elicit-tui cannot show: {why}"
                ) from None
            if not (await queue.ask_async(request)).accepted:
                return False
        if all(event.is_set() for event in done.values()):
            return True
        answer = await _wait_for_the_links(queue, list(done.values()), tool, asker)
        return answer.reason == COMPLETED or (answer.accepted and answer.content == _RETRY)


async def _wait_for_the_links(
    queue: ElicitationQueue, done: list[anyio.Event], tool: str, asker: str
) -> ElicitationResult:
    """Ask the person to say when they are done; the question ends itself when the server says so."""
    waiting = ChoiceRequest(
        message=f"Retry {tool} when you have finished in the browser",
        description="It is retried by itself as soon as the server reports every link done.",
        source=asker,
        options=[
            Option(label="Retry now", value=_RETRY),
            Option(label=f"Give up on {tool}", value="give_up"),
        ],
    )
    answer = queue.submit(waiting)
    async with anyio.create_task_group() as group:

        async def until_completed() -> None:
            for event in done:
                await event.wait()
            queue.cancel(waiting.id, reason=COMPLETED)

        group.start_soon(until_completed)
        result = await asyncio.wrap_future(answer)
        group.cancel_scope.cancel()
    return result

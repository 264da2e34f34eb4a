"""The front ends' side of the inbox's HTTP API: hear of requests over SSE, answer by POST.

`GET /v1/events?front_end=NAME` streams one `requested` event per waiting request (oldest
first), then every event as it happens, with a `: keepalive` comment every `KEEPALIVE`
seconds. While a stream is open its front end counts as present; closing it answers nothing.
`POST /v1/requests/{id}/answer` answers; the first answer wins, later ones get 409 naming
who answered and when. `POST /v1/cancel-all` cancels everything that waits (`closed`). On a
stream asked for by a signed request, each event carries the inbox's proof in a `proof:`
field (which event streams that know no such field skip).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request as HTTPRequest
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tui.approvals.rules import refused_rule
from tui.core.json_type import json_type
from tui.core.queue import Answered, QueueEvent
from tui.core.signed_request import PROOF_HEADER, SIGNER_SCOPE_KEY, AnswerSigner
from tui.inbox.http_api import BadInput, read_json
from tui.inbox.inbox import EntryExists, Inbox, Outcome, clock
from tui.inbox.masked_requests import masked_request_json, masked_result_json, unmasked_answer
from tui.inbox.wire import InvalidAnswer, answer_from_json
from tui.secrets.redaction import registered

KEEPALIVE = 15.0
"""Seconds between two keepalive comments on an idle event stream."""

_HEARD = tuple[QueueEvent, str | None] | None
"""An event and who answered it; None ends the stream (the inbox closed)."""

UNHEARD_EVENTS = 1000
"""Events a front end may be behind by: one further behind is let go (its stream ends)."""


def front_end_routes(inbox: Inbox, *, keepalive: float = KEEPALIVE) -> list[Route]:
    """The routes front ends call, on `inbox`."""

    async def events(http: HTTPRequest) -> Response:
        if inbox.closed:
            # Its server still stopping: a front end reconnecting is told so, not handed a
            # stream that ends at once, which it would take for the inbox being back.
            return JSONResponse({"error": "the inbox is shutting down"}, status_code=503)
        signer: AnswerSigner | None = http.scope.get(SIGNER_SCOPE_KEY)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        if signer is not None:
            headers[PROOF_HEADER] = signer.stream_proof(200)
        return StreamingResponse(
            _stream(inbox, keepalive, signer), media_type="text/event-stream", headers=headers
        )

    async def answer(http: HTTPRequest) -> Response:
        request_id = http.path_params["id"]
        try:
            data = await read_json(http)
            name = _front_end_name(data)
        except BadInput as error:
            return JSONResponse({"error": str(error)}, status_code=422)
        request = inbox.waiting(request_id)
        if request is None:
            outcome = inbox.outcome(request_id)
            if outcome is None:
                return JSONResponse({"error": f"no request {request_id!r} here"}, status_code=404)
            return _conflict(outcome)
        try:
            result = answer_from_json(request, unmasked_answer(request, data.get("result")))
        except InvalidAnswer as error:
            return JSONResponse({"error": str(error)}, status_code=422)
        if (refusal := refused_rule(request, result)) is not None:
            return JSONResponse({"error": refusal}, status_code=422)
        # Before the keyring takes a secret's value: nothing this inbox writes shows it again.
        result = registered(request, result)
        # The keyring may block; the request may end meanwhile, and then this answer loses.
        try:
            result = await asyncio.to_thread(inbox.stored, request, result, name)
        except EntryExists as exists:
            return JSONResponse({"error": str(exists), "problem": "exists"}, status_code=422)
        # An "always" the approvals file cannot keep is answered as what holds, for the session.
        result = await asyncio.to_thread(inbox.approvals.kept, request, result)
        outcome = inbox.answer(request, result, name)
        if outcome is not None:
            return _conflict(outcome)
        return JSONResponse({"applied": True, "result": masked_result_json(request, result)})

    async def cancel_all(http: HTTPRequest) -> Response:
        return JSONResponse({"cancelled": inbox.cancel_all("closed")})

    return [
        Route("/v1/events", events, methods=["GET"]),
        Route("/v1/requests/{id:path}/answer", answer, methods=["POST"]),
        Route("/v1/cancel-all", cancel_all, methods=["POST"]),
    ]


def _front_end_name(data: dict[str, Any]) -> str:
    """The name an answer's body gives its front end ("a front end" without one); raises
    `BadInput` for a field the body has no place for, or a name that is no text."""
    unknown = set(data) - {"result", "front_end"}
    if unknown:
        raise BadInput(f"unknown field {sorted(unknown)[0]!r}: the body is {{result, front_end}}")
    front_end = data.get("front_end")
    if front_end is not None and not isinstance(front_end, str):
        raise BadInput(
            f"front_end must be the front end's name as text, not {json_type(front_end)}"
        )
    return front_end if front_end and front_end.strip() else "a front end"


async def _stream(
    inbox: Inbox, keepalive: float, signer: AnswerSigner | None
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    heard: asyncio.Queue[_HEARD] = asyncio.Queue()
    behind = False

    def hear(item: _HEARD) -> None:
        # A front end that reads nothing (stopped, as by Ctrl+Z) would have every event
        # kept for it, without end: far enough behind, it is let go. It hears what waits
        # again as it reconnects, as `attach` does.
        nonlocal behind
        if heard.qsize() < UNHEARD_EVENTS:
            heard.put_nowait(item)
        else:
            behind = True

    def put(item: _HEARD) -> None:
        # Called by the queue in any thread with its lock held: hand over, never raise
        # (the loop may have closed: the stream is over anyway).
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(hear, item)

    stop_hearing_close = inbox.on_close(lambda: put(None))
    # Subscribing replays a `requested` event for every request already waiting.
    unsubscribe = inbox.queue.subscribe(lambda event: put((event, inbox.answerer(event))))
    inbox.front_ends += 1
    sent = 0
    try:
        while not behind:
            try:
                item = await asyncio.wait_for(heard.get(), keepalive)
            except TimeoutError:
                yield ": keepalive\n\n"
                continue
            if item is None:
                return
            event, answered_by = item
            data = json.dumps(event_json(event, answered_by))
            proof = "" if signer is None else f"proof: {signer.part_proof(sent, data)}\n"
            sent += 1
            yield f"event: {event.type}\ndata: {data}\n{proof}\n"
    finally:
        inbox.front_ends -= 1
        unsubscribe()
        stop_hearing_close()


def event_json(event: QueueEvent, answered_by: str | None) -> dict[str, Any]:
    """The data of one SSE message; no secret and no sensitive answer leaves the inbox this way."""
    deadline_in = None if event.deadline is None else max(0.0, event.deadline - time.monotonic())
    return {
        "type": event.type,
        "request": masked_request_json(event.request),
        "result": None if event.result is None else masked_result_json(event.request, event.result),
        "deadline_in": deadline_in,
        "at": event.at,
        "answered_by": answered_by,
    }


def _conflict(outcome: Outcome) -> Response:
    by = outcome.answered_by
    reason = outcome.result.reason
    message = (
        Answered(by, outcome.at, outcome.result.action).describe()
        if by is not None
        else f"ended ({reason or outcome.result.action}) at {clock(outcome.at)}"
    )
    return JSONResponse(
        {
            "applied": False,
            "answered_by": by if by is not None else reason,
            "at": outcome.at,
            "message": message,
        },
        status_code=409,
    )

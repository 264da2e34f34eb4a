"""The askers' side of the inbox's HTTP API: post a request, wait for its result, withdraw it.

`POST /v1/requests` queues a request and returns its id and its key (with `?wait=S`, it first
waits up to S seconds for the result, as a long poll does); `GET /v1/requests/{id}/result?wait=S`
long-polls for the result, its secrets revealed only to the holder of the key (`&key=KEY`); `POST /v1/ask` does both on one connection, held until the
answer (a space a second meanwhile, so a stopped inbox is noticed); `DELETE /v1/requests/{id}`
withdraws; `GET /v1/requests` lists what waits; `GET /v1/rules` lists the approval rules in
force (this session's and the "always" ones), `DELETE /v1/rules?tool=NAME` (or `?all=1`, with
`pattern` and `folder` to narrow it) forgets this session's. A request is validated once, here, by
`parse_request`: a malformed one is answered 422 with its error text and never shown.
An asker whose connection drops while it waits (a killed process) withdraws its request.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request as HTTPRequest
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tui.core.json_type import json_type
from tui.core.limits import LimitError
from tui.core.models import Request, parse_request
from tui.core.validation_text import describe_validation_error
from tui.inbox.heartbeating import Heartbeating
from tui.inbox.inbox import Inbox
from tui.inbox.masked_requests import masked_json, masked_request_json
from tui.inbox.waiting import until_done, until_done_or_gone
from tui.inbox.wire import result_json

MAX_WAIT = 60.0
"""Seconds one long poll may wait at most; the asker polls again."""

WITHDRAWN = "cancelled_by_agent"


class BadInput(ValueError):
    """The body is not a request the inbox can queue; the message says why (422)."""


def asker_routes(inbox: Inbox) -> list[Route]:
    """The routes askers call, answering from `inbox`."""

    async def create(http: HTTPRequest) -> Response:
        try:
            wait = _wait(http)
            request, timeout = await _read_request(http)
            future = inbox.submit(request, timeout)
        except (BadInput, LimitError) as error:
            return JSONResponse({"error": str(error)}, status_code=422)
        except ValueError as error:  # the id waits already
            return JSONResponse({"error": str(error)}, status_code=409)
        # Waiting on the connection that brought the request: an asker killed before its
        # first long poll would otherwise leave the request waiting for nobody.
        if (
            not future.done()
            and wait > 0
            and await until_done_or_gone(http, future, wait) == "gone"
        ):
            inbox.queue.cancel(request.id, WITHDRAWN)
            return Response(status_code=204)
        if not (wait > 0 and future.done()):
            return JSONResponse({"id": request.id, "key": inbox.result_key(request.id)}, 201)
        inbox.forget(request.id)
        return _result(request.id, future.result())

    async def result(http: HTTPRequest) -> Response:
        request_id = http.path_params["id"]
        future = inbox.future(request_id)
        if future is None:
            return _unknown(request_id)
        try:
            wait = _wait(http)
        except BadInput as error:
            return JSONResponse({"error": str(error)}, status_code=422)
        if (
            not future.done()
            and wait > 0
            and await until_done_or_gone(http, future, wait) == "gone"
        ):
            inbox.queue.cancel(request_id, WITHDRAWN)
            return Response(status_code=204)
        if not future.done():
            return Response(status_code=204)
        if not _holds_key(http, inbox.result_key(request_id)):
            # Anyone may see how it ended, as front ends do; its secrets are its asker's.
            return JSONResponse({"id": request_id, "result": masked_json(future.result())})
        inbox.forget(request_id)
        return _result(request_id, future.result())

    async def ask(http: HTTPRequest) -> Response:
        try:
            request, timeout = await _read_request(http)
            future = inbox.submit(request, timeout)
        except (BadInput, LimitError) as error:
            return JSONResponse({"error": str(error)}, status_code=422)
        except ValueError as error:
            return JSONResponse({"error": str(error)}, status_code=409)

        async def answer() -> dict[str, Any]:
            try:
                await until_done(future, None)
            except asyncio.CancelledError:  # the asker hung up
                inbox.queue.cancel(request.id, WITHDRAWN)
                raise
            finally:
                inbox.forget(request.id)
            return _result_json(request.id, future.result())

        return Heartbeating(answer(), http)

    async def withdraw(http: HTTPRequest) -> Response:
        request_id = http.path_params["id"]
        return JSONResponse({"withdrawn": inbox.queue.cancel(request_id, WITHDRAWN)})

    async def rules(http: HTTPRequest) -> Response:
        return JSONResponse(
            {"rules": [rule.model_dump(mode="json") for rule in inbox.approvals.rules()]}
        )

    async def revoke(http: HTTPRequest) -> Response:
        asked = http.query_params
        unknown = set(asked) - {"tool", "pattern", "folder", "all"}
        if unknown:
            return _bad(f"unknown parameter {sorted(unknown)[0]!r}: tool, pattern, folder, all")
        tool = asked.get("tool") or None
        if (tool is None) == (asked.get("all") != "1"):
            return _bad("name the rules' tool (?tool=NAME) or revoke them all (?all=1)")
        try:
            revoked = inbox.approvals.revoke_session(
                tool, asked.get("pattern"), asked.get("folder")
            )
        except ValidationError as error:
            return _bad(describe_validation_error(error))
        return JSONResponse({"revoked": [rule.model_dump(mode="json") for rule in revoked]})

    async def listing(http: HTTPRequest) -> Response:
        pending = inbox.queue.pending()
        return JSONResponse(
            {"waiting": len(pending), "pending": [masked_request_json(r) for r in pending]}
        )

    return [
        Route("/v1/requests", create, methods=["POST"]),
        Route("/v1/requests", listing, methods=["GET"]),
        # `{id:path}`: an id may hold a `/`, sent percent-encoded (`wire.request_path`).
        Route("/v1/requests/{id:path}/result", result, methods=["GET"]),
        Route("/v1/requests/{id:path}", withdraw, methods=["DELETE"]),
        Route("/v1/ask", ask, methods=["POST"]),
        Route("/v1/rules", rules, methods=["GET"]),
        Route("/v1/rules", revoke, methods=["DELETE"]),
    ]


def _wait(http: HTTPRequest) -> float:
    """The seconds `?wait=S` asks to wait for a result, within 0 to `MAX_WAIT` (0 without)."""
    try:
        return min(max(float(http.query_params.get("wait", "0")), 0.0), MAX_WAIT)
    except ValueError:
        raise BadInput("wait must be a number of seconds") from None


async def read_json(http: HTTPRequest) -> dict[str, Any]:
    """The request body as a JSON object; raises `BadInput` saying what is wrong with it."""
    body = await http.body()
    try:
        data = json.loads(body)
    except RecursionError:
        raise BadInput("the body nests lists and objects too deep to read") from None
    except ValueError as error:
        raise BadInput(f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise BadInput(f"the body must be a JSON object, not {json_type(data)}")
    return data


async def _read_request(http: HTTPRequest) -> tuple[Request, float | None]:
    data = await read_json(http)
    unknown = set(data) - {"request", "timeout"}
    if unknown:
        raise BadInput(f"unknown field {sorted(unknown)[0]!r}: the body is {{request, timeout}}")
    fields = data.get("request")
    if not isinstance(fields, dict):
        raise BadInput('the body must carry the request as an object: {"request": {...}}')
    timeout = data.get("timeout")
    if timeout is not None:
        # The request's own field checks the timeout, in its own words.
        fields = {**fields, "timeout": timeout}
    try:
        request = parse_request(fields)
    except ValidationError as error:
        raise BadInput(describe_validation_error(error)) from None
    return request, request.timeout if timeout is not None else None


def _result(request_id: str, result: Any) -> Response:
    return JSONResponse(_result_json(request_id, result))


def _result_json(request_id: str, result: Any) -> dict[str, Any]:
    return {"id": request_id, "result": result_json(result, reveal_secrets=True)}


def _holds_key(http: HTTPRequest, key: str | None) -> bool:
    """Whether the call gives `key`, the one its request's creation answered (`?key=`)."""
    given = http.query_params.get("key")
    return key is not None and given is not None and hmac.compare_digest(given, key)


def _bad(problem: str) -> Response:
    return JSONResponse({"error": problem}, status_code=422)


def _unknown(request_id: str) -> Response:
    return JSONResponse({"error": f"no request {request_id!r} here"}, status_code=404)

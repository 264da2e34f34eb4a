"""`RemoteQueue`: the asker's half of `ElicitationQueue`, for an inbox in another process.

`ask`, `ask_async`, `submit` and `ask_form` behave as the in-process queue's do, so an agent
moves to the inbox by changing the line that makes its queue. A daemon thread asks each
request on one connection, held until the answer. Cancelling the future (or the task
awaiting `ask_async`, or Ctrl+C in `ask`) withdraws the request; an asker process that dies,
at whatever moment, drops that connection, which withdraws it too. If the inbox cannot be reached, or vanishes
while a request waits, the result is `cancel` with the reason `inbox_unreachable`: never a
hang, never a traceback; if what answers did not prove it holds the token (another program
on the inbox's port), `inbox_not_proven`. Requests are signed with the token, never carry it
(`tui.core.signed_request`). Only the standard library speaks HTTP here.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import Future
from http.client import HTTPException
from typing import Any

from pydantic import BaseModel

from tui.core.models import ElicitationResult, FormRequest, Request, parse_request
from tui.core.request_base import checked_timeout, require_request
from tui.core.signed_request import PROOF_HEADER, NotProven, SignedRequest
from tui.inbox.discovery import InboxAddress, find_inbox
from tui.inbox.door_refusal import DOOR, door_refusal
from tui.inbox.held_call import Abandoned, held_call, json_object
from tui.inbox.wire import (
    check_sendable_request,
    request_json,
    request_path,
    result_from_json,
)

INBOX_UNREACHABLE = "inbox_unreachable"
"""The reason of a `cancel` when the inbox could not be reached, or went away mid-wait."""

INBOX_NOT_PROVEN = "inbox_not_proven"
"""The reason of a `cancel` when what answered did not prove it is the inbox: its answer,
whatever it said, is not used."""

INBOX_REFUSED = "inbox_refused"
"""The reason of a `cancel` when the inbox turned the request away (a wrong token, a clash)."""

SILENCE = 30.0
"""Seconds without a byte from the inbox (which sends a space a second while a question
waits) after which the asker takes it to be gone: stopped (Ctrl+Z) for longer than a
moment, or its machine unreachable."""

TIMEOUT_GRACE = 5.0
"""Seconds past a question's own timeout that its asker waits for the inbox's word of it:
an asker never waits out the whole `SILENCE` for a question meant to end sooner."""

CONNECT_TIMEOUT = 10.0
"""Seconds any other call to the inbox may take."""

# Never through a proxy: the inbox is on this machine.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class InboxRefusedError(ValueError):
    """The inbox refused the request: invalid (`status` 422), too large (413), or its id
    already waiting (409); the message is its error text. Any other status but a refused
    token's (a wrong path, another server on the port) says so, naming it."""

    def __init__(self, error: str, status: int) -> None:
        super().__init__(error)
        self.status = status


class RemoteQueue:
    """Asks through the inbox at `url` (see `tui.inbox.discovery.find_inbox` for the defaults)."""

    def __init__(self, url: str | None = None, token: str | None = None):
        self.address: InboxAddress = find_inbox(url, token)
        """The inbox asked, and the token sent."""
        self.refusal: str | None = None
        """Why the inbox's door last turned a question away (`INBOX_REFUSED`), for a person."""

    def submit(self, request: Request, timeout: float | None = None) -> Future[ElicitationResult]:
        """Send `request` to the inbox and return a future of its result (never blocks).

        Cancelling the future withdraws the request. A `timeout` out of bounds raises
        `pydantic.ValidationError` at once, and a request holding a `SecretStr` (which would
        arrive as its mask) `tui.inbox.wire.SecretInRequest`, a ValueError; a request the
        inbox refuses as invalid makes the future raise `InboxRefusedError`.
        """
        require_request(request)
        check_sendable_request(request)
        timeout = checked_timeout(timeout)
        future: Future[ElicitationResult] = Future()
        future.add_done_callback(
            lambda done: self._withdraw_soon(request.id) if done.cancelled() else None
        )
        threading.Thread(
            target=self._follow,
            args=(request, timeout, future),
            name=f"elicit-remote-{request.id}",
            daemon=True,
        ).start()
        return future

    def ask(self, request: Request, timeout: float | None = None) -> ElicitationResult:
        """Send `request` and block until it is answered, cancelled or timed out.

        Interrupted (Ctrl+C), it withdraws the request before the interrupt goes on.
        """
        future = self.submit(request, timeout)
        try:
            return future.result()
        except BaseException:
            if future.cancel():
                self.cancel(request.id)
            raise

    async def ask_async(self, request: Request, timeout: float | None = None) -> ElicitationResult:
        """Send `request` and await its result; cancelling the task withdraws the request."""
        import asyncio

        return await asyncio.wrap_future(self.submit(request, timeout))

    def ask_form(
        self,
        model: type[BaseModel],
        *,
        message: str,
        timeout: float | None = None,
        **fields: Any,
    ) -> ElicitationResult:
        """Ask for `model`'s fields as a form, as `ElicitationQueue.ask_form` does."""
        return self.ask(FormRequest.from_model(model, message=message, **fields), timeout)

    def cancel(self, request_id: str, reason: str = "cancelled_by_agent") -> bool:
        """Withdraw a waiting request; True if it was still waiting. (The inbox records the
        reason `cancelled_by_agent` whatever `reason` says.)"""
        try:
            status, body = self._call("DELETE", request_path(request_id))
        except OSError:
            return False
        return status == 200 and bool(body.get("withdrawn"))

    def pending(self) -> list[Request]:
        """The requests waiting in the inbox, oldest first (empty if it cannot be reached)."""
        try:
            status, body = self._call("GET", "/v1/requests")
        except OSError:
            return []
        return [parse_request(data) for data in body.get("pending", [])] if status == 200 else []

    # -- internals ----------------------------------------------------------------

    def _follow(
        self, request: Request, timeout: float | None, future: Future[ElicitationResult]
    ) -> None:
        """Ask `request` and put its result into `future`; a fault no answer covers
        is raised from the future, never left with the asker waiting on it for ever."""
        try:
            self._ask(request, timeout, future)
        except Exception as error:
            if not future.done() and (future.running() or future.set_running_or_notify_cancel()):
                future.set_exception(error)

    def _ask(
        self, request: Request, timeout: float | None, future: Future[ElicitationResult]
    ) -> None:
        # One connection, held until the answer: an asker that dies at any moment hangs up,
        # and the inbox withdraws its question.
        body = json.dumps({"request": request_json(request), "timeout": timeout}).encode()
        try:
            status, answer = held_call(
                self.address,
                "/v1/ask",
                body,
                silence=SILENCE if timeout is None else min(SILENCE, timeout + TIMEOUT_GRACE),
                wanted=lambda: not future.done(),
            )
        except Abandoned:  # cancelled: hanging up withdrew it, had `cancel` not yet
            return
        except NotProven:
            _settle(future, _cancelled(INBOX_NOT_PROVEN))
            return
        except (OSError, HTTPException):
            _settle(future, _cancelled(INBOX_UNREACHABLE))
            return
        if status in (409, 413, 422):
            if future.set_running_or_notify_cancel():
                future.set_exception(InboxRefusedError(str(answer.get("error")), status))
        elif status == 200 and isinstance(answer.get("result"), dict):
            _settle(future, result_from_json(request, answer["result"]))
        elif status == 200:  # the inbox went away before its answer was whole
            _settle(future, _cancelled(INBOX_UNREACHABLE))
        elif status in (401, 403):  # the token
            self.refusal = door_refusal(self.address, status, answer)
            _settle(future, _cancelled(INBOX_REFUSED))
        elif status in DOOR and future.set_running_or_notify_cancel():
            future.set_exception(
                InboxRefusedError(door_refusal(self.address, status, answer), status)
            )
        elif future.set_running_or_notify_cancel():
            where = self.address.base
            future.set_exception(
                InboxRefusedError(
                    f"{where} answered HTTP {status}: is an elicit-tui inbox (`elicit-tui serve`)"
                    " there, at this URL?",
                    status,
                )
            )

    def _withdraw_soon(self, request_id: str) -> None:
        # Off the caller's thread: it may be an event loop that must not block.
        threading.Thread(target=self.cancel, args=(request_id,), daemon=True).start()

    def _call(self, method: str, path: str) -> tuple[int, dict[str, Any]]:
        return inbox_call(self.address, method, path)


def inbox_call(
    address: InboxAddress,
    method: str,
    path: str,
    *,
    timeout: float = CONNECT_TIMEOUT,
) -> tuple[int, dict[str, Any]]:
    """The status and JSON body of one call without a body (GET, DELETE) to the inbox at
    `address`; raises OSError if it cannot be reached within `timeout` seconds (`NotProven`
    if what answers did not prove it is the inbox)."""
    signed = SignedRequest(address.token, method, urllib.parse.urlsplit(address.base).path + path)
    call = urllib.request.Request(address.base + path, headers=signed.headers, method=method)
    try:
        with _OPENER.open(call, timeout=timeout) as response:
            status, proof, body = (
                response.status,
                response.headers.get(PROOF_HEADER),
                response.read(),
            )
    except urllib.error.HTTPError as error:
        with error:
            status, proof, body = error.code, error.headers.get(PROOF_HEADER), error.read()
    return status, json_object(signed.answer(address.base, status, proof, body))


def _cancelled(reason: str) -> ElicitationResult:
    return ElicitationResult(action="cancel", reason=reason)


def _settle(future: Future[ElicitationResult], result: ElicitationResult) -> None:
    if future.set_running_or_notify_cancel():
        future.set_result(result)

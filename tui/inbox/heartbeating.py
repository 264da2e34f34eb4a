"""`Heartbeating`: the inbox's answer to a call held open until the answer (`/v1/ask`, a
hook's call): its status at once, a space every `HEARTBEAT` seconds while the answer is
worked out (JSON may start with spaces), then the answer as JSON. A caller that hears
nothing for a few seconds knows the inbox is stopped (Ctrl+Z, SIGSTOP); a caller that hangs
up cancels the work, which withdraws its question. To a signed call the answer comes sealed
with the inbox's proof (`tui.core.signed_request`): its headers leave before it is known.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from starlette.requests import Request as HTTPRequest
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from tui.core.signed_request import PROOF_HEADER, SIGNER_SCOPE_KEY, AnswerSigner
from tui.inbox.held_call import HEARTBEAT
from tui.inbox.waiting import until_disconnected


class Heartbeating(Response):
    """`200`, then spaces while `answer` runs, then what it returns as JSON."""

    def __init__(self, answer: Coroutine[Any, Any, dict[str, Any]], http: HTTPRequest) -> None:
        self.status_code = 200
        self.media_type = "application/json"
        self.background = None
        # No Content-Length (the body is not known yet): it goes chunked.
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        self._signer: AnswerSigner | None = http.scope.get(SIGNER_SCOPE_KEY)
        if self._signer is not None:
            headers[PROOF_HEADER] = self._signer.stream_proof(200)
        self.init_headers(headers)
        self._answer = answer
        self._http = http

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        running = asyncio.ensure_future(self._answer)
        gone = asyncio.ensure_future(until_disconnected(self._http))
        try:
            while not running.done():
                await asyncio.wait(
                    {running, gone}, timeout=HEARTBEAT, return_when=asyncio.FIRST_COMPLETED
                )
                if gone.done():
                    return
                if not running.done():
                    await send({"type": "http.response.body", "body": b" ", "more_body": True})
            body = JSONResponse(running.result()).body  # as the inbox's other answers
            if self._signer is not None:
                body = self._signer.sealed(bytes(body))
            await send({"type": "http.response.body", "body": body})
        finally:
            running.cancel()
            gone.cancel()

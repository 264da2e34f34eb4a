"""Waiting on the event loop for a request's future, and noticing when the asker hangs up."""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import Future
from typing import Literal

from starlette.requests import Request as HTTPRequest

from tui.core.models import ElicitationResult


async def until_done(future: Future[ElicitationResult], seconds: float | None) -> bool:
    """Wait up to `seconds` (None: for ever) for `future`; True if it is done.

    Never cancels `future`: giving up waiting is not withdrawing the request.
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle() -> None:
        if not done.done():
            done.set_result(None)

    def wake(_: Future[ElicitationResult]) -> None:
        # The loop may have closed: then nobody is waiting any more.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle)

    future.add_done_callback(wake)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done, seconds)
    return future.done()


async def until_disconnected(http: HTTPRequest) -> None:
    """Return once the client has closed its connection (the body was read already)."""
    while (await http.receive())["type"] != "http.disconnect":
        pass


Waited = Literal["done", "timeout", "gone"]
"""How a wait ended: the future is done, the time ran out, or the client hung up first."""


async def until_done_or_gone(
    http: HTTPRequest, future: Future[ElicitationResult], seconds: float | None
) -> Waited:
    """Wait for `future` as `until_done`, giving up when the client disconnects first."""
    waiting = asyncio.ensure_future(until_done(future, seconds))
    gone = asyncio.ensure_future(until_disconnected(http))
    try:
        await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
        gone.cancel()
    if future.done():
        return "done"
    return "gone" if gone.done() and not gone.cancelled() else "timeout"

"""Asking a framework's pending questions all at once, and stopping the run on a cancel."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import Future

from tui.core.models import ElicitationResult, Request
from tui.core.queue import ElicitationQueue


class RunCancelled(Exception):
    """The person cancelled a question or an approval (Escape, quit, timeout), so the run stops.

    `request` is what was asked and `result` how it ended (`result.reason` says why when the
    person did not: `timeout`, `closed`, ...).
    """

    def __init__(self, request: Request, result: ElicitationResult) -> None:
        why = f" ({result.reason})" if result.reason else ""
        super().__init__(f"the person cancelled {request.message!r}{why}")
        self.request = request
        self.result = result


def ask_all(queue: ElicitationQueue, requests: Sequence[Request]) -> list[ElicitationResult]:
    """Queue every request at once and block for their results, in order.

    A cancelled one raises `RunCancelled`, and the ones still waiting are withdrawn. A request
    whose id is already waiting on the queue (another run asking about a tool call with the
    same id) raises ValueError, and the ones queued before it are withdrawn.
    """
    futures: list[Future[ElicitationResult]] = []
    try:
        for request in requests:
            futures.append(queue.submit(request))
        return [_checked(r, f.result()) for r, f in zip(requests, futures, strict=True)]
    finally:
        _withdraw(futures)


async def ask_all_async(
    queue: ElicitationQueue, requests: Sequence[Request]
) -> list[ElicitationResult]:
    """`ask_all` without blocking the event loop."""
    futures: list[Future[ElicitationResult]] = []
    try:
        for request in requests:
            futures.append(queue.submit(request))
        return [
            _checked(r, await asyncio.wrap_future(f))
            for r, f in zip(requests, futures, strict=True)
        ]
    finally:
        _withdraw(futures)


def _checked(request: Request, result: ElicitationResult) -> ElicitationResult:
    if result.action == "cancel":
        raise RunCancelled(request, result)
    return result


def _withdraw(futures: list[Future[ElicitationResult]]) -> None:
    for future in futures:
        future.cancel()

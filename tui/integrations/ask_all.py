"""Asking a framework's pending questions all at once, and stopping the run on a cancel."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait

from tui.core.models import ElicitationResult, Request
from tui.core.queue import ElicitationQueue

Check = Callable[[Request, ElicitationResult], None]
"""Called with a request and its result as the result comes; raises to stop the run."""


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


def ask_all(
    queue: ElicitationQueue, requests: Sequence[Request], check: Check | None = None
) -> list[ElicitationResult]:
    """Queue every request at once and block until all are answered; their results, in order.

    A result that ends the run raises as soon as it comes, whatever is still waiting before
    it, and the ones still waiting are withdrawn: a cancel raises `RunCancelled`, and
    `check(request, result)`, if given, may raise for any other. A request whose id is
    already waiting on the queue (another run asking about a tool call with the same id)
    raises ValueError, and the ones queued before it are withdrawn.
    """
    asked: dict[Future[ElicitationResult], Request] = {}
    try:
        for request in requests:
            asked[queue.submit(request)] = request
        waiting = set(asked)
        while waiting:
            done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            _check(asked, done, check)
        return [future.result() for future in asked]
    finally:
        _withdraw(asked)


async def ask_all_async(
    queue: ElicitationQueue, requests: Sequence[Request], check: Check | None = None
) -> list[ElicitationResult]:
    """`ask_all` without blocking the event loop."""
    asked: dict[Future[ElicitationResult], Request] = {}
    try:
        for request in requests:
            asked[queue.submit(request)] = request
        waiting = {asyncio.wrap_future(future): future for future in asked}
        while waiting:
            done, _ = await asyncio.wait(set(waiting), return_when=asyncio.FIRST_COMPLETED)
            for wrapper in done:
                # Raised below from the queue's own future; its copy here, left unread,
                # would be logged as "Future exception was never retrieved".
                wrapper.exception()
            _check(asked, {waiting.pop(future) for future in done}, check)
        return [future.result() for future in asked]
    finally:
        _withdraw(asked)


def _check(
    asked: dict[Future[ElicitationResult], Request],
    done: Collection[Future[ElicitationResult]],
    check: Check | None,
) -> None:
    """Raises for the first of `done`, in the order asked, whose result ends the run."""
    for future, request in asked.items():
        if future not in done:
            continue
        result = future.result()
        if result.action == "cancel":
            raise RunCancelled(request, result)
        if check is not None:
            check(request, result)


def _withdraw(futures: Collection[Future[ElicitationResult]]) -> None:
    for future in futures:
        future.cancel()

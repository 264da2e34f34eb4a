"""A front end that ends the second question an agent asks and leaves the first waiting, to
see an adapter's run stop without the first answered."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tui.core.models import ElicitationResult, Request
from tui.core.queue import ElicitationQueue, QueueEvent

HANG_GUARD = 30.0
"""Seconds a run may go on before the test gives up on it (a run that never stops)."""


class EndsTheSecond:
    """Answers the second request asked with `ending`, never the first; keeps what was asked
    (`asked`) and how each request ended (`ended`, by id)."""

    def __init__(self, queue: ElicitationQueue, ending: ElicitationResult) -> None:
        self.queue = queue
        self.ending = ending
        self.asked: list[Request] = []
        self.ended: dict[str, ElicitationResult] = {}
        queue.subscribe(self._on_event)

    def _on_event(self, event: QueueEvent) -> None:
        if event.type == "requested":
            self.asked.append(event.request)
            if len(self.asked) == 2:
                self.queue.respond(event.request.id, self.ending)
        elif event.result is not None:
            self.ended[event.request.id] = event.result

    def run(self, agent: Callable[[], Any]) -> BaseException | None:
        """Runs `agent` in a thread of its own; the error it stopped with, or None. A run still
        waiting after `HANG_GUARD` seconds has its queue closed, and the test fails."""
        with ThreadPoolExecutor(1) as pool:
            running = pool.submit(agent)
            try:
                return running.exception(timeout=HANG_GUARD)
            except TimeoutError:
                raise AssertionError(
                    "the run did not stop; it waits for the first question"
                ) from None
            finally:
                self.queue.close()  # a run still waiting stops, so the thread ends

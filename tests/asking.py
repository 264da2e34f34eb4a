"""For tests of the agent-harness dialogs: an agent that asks, keys sent in a burst, and a
command that asks, ended from outside."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

from textual import events

from tui.app.app import ElicitationApp
from tui.core.models import ElicitationResult, Request
from tui.core.queue import ElicitationQueue


class Asker:
    """An agent that asks its requests one after another and keeps every result."""

    def __init__(self, *requests: Request) -> None:
        self.requests = list(requests)
        self.results: list[ElicitationResult] = []

    def __call__(self, queue: ElicitationQueue) -> str:
        for request in self.requests:
            self.results.append(queue.ask(request))
        return "done"


def burst(app: ElicitationApp, *keys: str) -> None:
    """Send `keys` all at once, as a fast typist or a terminal multiplexer does."""
    for key in keys:
        character = " " if key == "space" else key if len(key) == 1 else None
        app.post_message(events.Key(key, character))


def ended_by(process: subprocess.Popen[str], act: Callable[[], None]) -> str:
    """Do `act` (a signal sent, an inbox stopped), then wait for `process` to end; what it
    printed on stdout. Killed if it has not ended in 15 s: the test then fails on its status."""
    try:
        act()
        out, _ = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    return out

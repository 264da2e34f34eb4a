"""For tests of the agent-harness dialogs: an agent that asks, keys sent in a burst, and a
command that asks, ended from outside."""

from __future__ import annotations

import subprocess
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from textual import events
from textual.pilot import Pilot

from tui.app.app import ElicitationApp
from tui.core.models import ElicitationResult, Request, parse_request
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


Send = Callable[[Pilot[Any], tuple[str, ...]], Awaitable[None]]
"""How a test sends its keys: `press` (Pilot) or `post_all_at_once`."""


async def press(pilot: Pilot[Any], keys: tuple[str, ...]) -> None:
    await pilot.press(*keys)


async def post_all_at_once(pilot: Pilot[Any], keys: tuple[str, ...]) -> None:
    app = pilot.app
    assert isinstance(app, ElicitationApp)
    burst(app, *keys)


SENDERS = pytest.mark.parametrize("send", [press, post_all_at_once], ids=["pilot", "burst"])
"""Runs a test once with each way of sending keys, with no pause between them."""


async def answer(data: dict[str, Any], keys: tuple[str, ...], send: Send) -> ElicitationResult:
    """Show `data`, send `keys` the way `send` does, and return what the agent received."""
    asker = Asker(parse_request(data))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await send(pilot, keys)
        await wait_for(pilot, lambda: bool(asker.results))
    return asker.results[0]


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

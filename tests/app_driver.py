"""Driving the real app from a test: running it beside the test's own calls, and waiting until
something is on screen, with a time limit."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from tui.app.app import ElicitationApp
from tui.core.queue import ElicitationQueue
from widgets.base import ElicitationModal

SIZE = (80, 24)


def error_line(modal: ElicitationModal[Any]) -> str:
    """What the modal's error line says: "" while it is hidden, or before it is first
    mounted (by the first thing it has to say)."""
    found = modal.query("#error")
    error = found.first(Static) if found else None
    return str(error.content) if error is not None and error.has_class("visible") else ""


def screen_text(app: App[Any]) -> str:
    """Every character on the app's screen, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def wait_for(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until `condition()` holds; fail the test if it never does."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)


async def settled_text(pilot: Pilot[Any], timeout: float = 10.0) -> str:
    """The screen's text once two reads 0.05 s apart agree: a layout that changes its own
    width (a scrollbar coming as text wraps) is read once it has stopped."""
    deadline = time.monotonic() + timeout
    text = screen_text(pilot.app)
    while True:
        await pilot.pause(0.05)
        again = screen_text(pilot.app)
        if again == text or time.monotonic() > deadline:
            return again
        text = again


async def wait_for_modal(
    pilot: Pilot[Any], message: str | None = None, timeout: float = 10.0
) -> ElicitationModal[Any]:
    """The modal on screen once there is one (asking `message`, if given)."""

    def shown() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, ElicitationModal) and (
            message is None or screen.request.message == message
        )

    await wait_for(pilot, shown, timeout)
    modal = pilot.app.screen
    assert isinstance(modal, ElicitationModal)
    return modal


@asynccontextmanager
async def app_answering() -> AsyncIterator[tuple[ElicitationQueue, Pilot[Any]]]:
    """The app, running, with its queue; the test's own calls run beside it on the same loop."""
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        yield queue, pilot

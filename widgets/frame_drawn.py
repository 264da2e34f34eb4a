"""Waiting for the screen to draw a change before acting on it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol, runtime_checkable

from textual.widget import Widget

LONGEST_WAIT = 0.5
"""Seconds after which the action goes ahead undrawn: an app shutting down drops the call
that would have said the frame was drawn."""


@runtime_checkable
class PickWatcher(Protocol):
    """An app that wants the screen in which a digit's row is drawn highlighted, before the
    dialog acts on it (a renderer: it draws its frames from screens it takes, not from what
    the terminal was sent)."""

    def pick_drawn(self) -> None:
        """The picked row is drawn; the dialog acts on it when this returns."""


async def frame_drawn(widget: Widget) -> None:
    """Return once the screen of `widget` has drawn what was changed before the call: a row a
    digit highlights, then answers with, is on the terminal (and in a recording of it) before
    the dialog closes."""
    drawn: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def said_drawn() -> None:
        if not drawn.done():  # not given up on
            drawn.set_result(None)

    if widget.call_after_refresh(said_drawn):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(drawn, LONGEST_WAIT)
        if isinstance(widget.app, PickWatcher):  # a renderer takes its screen as it is now
            widget.app.pick_drawn()

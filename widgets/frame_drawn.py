"""Waiting for the screen to draw a change before acting on it."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol, runtime_checkable

from textual.widget import Widget

LONGEST_WAIT = 2.0
"""Seconds after which the action goes ahead undrawn however busy the machine: a frame that
slow is not coming."""

_CHECK_EVERY = 0.05
"""Seconds between checks, while it waits, that a frame may still come (`_may_draw`)."""


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
        give_up = time.monotonic() + LONGEST_WAIT
        # On a busy machine a frame can take more than a few tenths of a second: the row
        # is still to be seen before the dialog closes.
        while not drawn.done() and _may_draw(widget) and time.monotonic() < give_up:
            await asyncio.wait({drawn}, timeout=_CHECK_EVERY)
        if isinstance(widget.app, PickWatcher):  # a renderer takes its screen as it is now
            widget.app.pick_drawn()


def _may_draw(widget: Widget) -> bool:
    """False once the app is exiting or the screen of `widget` is closing: the call that would
    say the frame was drawn is then dropped."""
    app = widget.app
    return widget.is_running and not (widget._closing or app._closing or app._exit)

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

_FRAME = 1 / 60
"""Seconds to wait before asking for the frame again, when an update batch held it back."""


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
    give_up = time.monotonic() + LONGEST_WAIT
    asked = False
    while _may_draw(widget) and time.monotonic() < give_up:
        drawn = await _after_refresh(widget, give_up)
        if drawn is None:
            break  # the screen is closing: no frame of it is coming
        asked = True
        if drawn:
            break
        # Textual runs the callbacks held for after a refresh at once, undrawn, while an
        # update batch is open (a footer rebuilding its keys holds one across its mounts).
        await asyncio.sleep(_FRAME)
    if asked and isinstance(widget.app, PickWatcher):  # a renderer takes its screen now
        widget.app.pick_drawn()


async def _after_refresh(widget: Widget, give_up: float) -> bool | None:
    """Refresh the screen of `widget` and wait for Textual's call after it: True if a frame
    was drawn before the call (or the wait is over: `give_up` passed, the screen closing),
    False if an update batch kept it from being drawn, None if the screen can no longer be
    refreshed."""
    called: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def said_drawn() -> None:
        if not called.done():  # not given up on
            called.set_result(not widget.app._batch_count)

    # The whole screen, at once: a changed widget tells the screen only once that widget's
    # own messages are handled, which can come after the screen has run its callbacks.
    widget.screen.refresh()
    if not widget.call_after_refresh(said_drawn):
        return None
    # On a busy machine a frame can take more than a few tenths of a second: the row is
    # still to be seen before the dialog closes.
    while not called.done() and _may_draw(widget) and time.monotonic() < give_up:
        await asyncio.wait({called}, timeout=_CHECK_EVERY)
    return called.result() if called.done() else True


def _may_draw(widget: Widget) -> bool:
    """False once the app is exiting or the screen of `widget` is closing: the call that would
    say the frame was drawn is then dropped."""
    app = widget.app
    return widget.is_running and not (widget._closing or app._closing or app._exit)

"""Waiting for the screen to draw a change before acting on it."""

from __future__ import annotations

import asyncio

from textual.widget import Widget


async def frame_drawn(widget: Widget) -> None:
    """Return once the screen of `widget` has drawn what was changed before the call: a row a
    digit highlights, then answers with, is on the terminal (and in a recording of it) before
    the dialog closes."""
    drawn = asyncio.get_running_loop().create_future()
    if widget.call_after_refresh(drawn.set_result, None):
        await drawn

"""The garbage collector held while a question is drawn, so that it appears first.

A program that embeds the app holds what it holds: an agent framework, its clients, the
history of a conversation. A full collection walks all of it, 50 to 100 ms in a program of a
few hundred thousand objects, and one falls due every so often as objects are made. Building
a dialog makes many, so it is often the dialog that sets one off, and the question then
appears that much later. Held from the moment the app starts to show a question until that
question's first frame is written, a collection that falls due meanwhile runs just after it:
while the person reads the question, not before they can. Nothing is lost: nothing is
collected for those few milliseconds, and everything is collected as before afterwards.

A collector the program has turned off itself is left off: the app holds only one that runs.
"""

from __future__ import annotations

import asyncio
import gc

HOLD_AT_MOST = 1.0
"""Seconds after which a hold ends by itself, whatever became of the question: a dialog is
drawn in milliseconds, and the collector must never stay off for long."""


class CollectorHold:
    """Turns the garbage collector off from `hold()` until `release()`, if it was on; call
    both in the thread that runs the event loop."""

    def __init__(self) -> None:
        self._holding = False
        self._time_limit: asyncio.TimerHandle | None = None

    @property
    def holding(self) -> bool:
        """Whether this hold turned the collector off and has not turned it on again."""
        return self._holding

    def hold(self) -> None:
        """Turn the collector off until `release()`, or for `HOLD_AT_MOST` seconds at most;
        nothing if it is off already."""
        if self._holding or not gc.isenabled():
            return
        gc.disable()
        self._holding = True
        self._time_limit = asyncio.get_running_loop().call_later(HOLD_AT_MOST, self.release)

    def release(self) -> None:
        """Turn the collector on again if `hold()` turned it off; calling it again does nothing."""
        if self._time_limit is not None:
            self._time_limit.cancel()
            self._time_limit = None
        if self._holding:
            self._holding = False
            gc.enable()

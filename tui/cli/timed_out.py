"""A question's timeout outside any app (`ask --plain`): SIGALRM raises `TimedOut` in the main
thread, through the blocking read of the answer (a line, a hidden one), as the dialog's
countdown ends its question."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn


class TimedOut(BaseException):
    """The time `timed_out_after` allowed ran out (not an Exception: no handler of a
    prompt's own takes it for a wrong answer)."""


@contextmanager
def timed_out_after(seconds: float | None) -> Iterator[None]:
    """While the block runs, `TimedOut` is raised in the main thread once `seconds` have
    passed; None (or a system without interval timers): never."""
    if seconds is None or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(_signal: int, _frame: FrameType | None) -> NoReturn:
        raise TimedOut

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

"""SIGTERM (`kill`, `timeout`) while a command waits for an answer outside any app: raised in
the main thread, as Ctrl+C raises KeyboardInterrupt, so the command ends as it does for Ctrl+C,
saying so (by default the process ended at once, printing nothing)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn


class Terminated(BaseException):
    """SIGTERM arrived while `sigterm_raises` was in force."""


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """While the block runs, SIGTERM raises `Terminated` in the main thread."""

    def terminate(_signal: int, _frame: FrameType | None) -> NoReturn:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)

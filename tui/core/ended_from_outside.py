"""Ctrl+C (SIGINT), SIGTERM (`kill`, `timeout`) and SIGHUP (a terminal window closed) while
a command works with no app of its own on the terminal: a render, a recording, a wait for an
answer. Each raises `EndedFromOutside` in the main thread, so the command unwinds as for an
error (its temporary folders removed, no file left half written), says so, and exits as a
shell reports a command that signal ended (130, 143, 129). By default SIGTERM and SIGHUP end
the process on the spot, leaving its temporary folders behind, and Ctrl+C a traceback."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

ENDING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that ask a command to end (Windows has no SIGHUP)."""


class EndedFromOutside(BaseException):
    """Signal `number` arrived while `signals_raise` was in force."""

    def __init__(self, number: int) -> None:
        super().__init__(f"ended by {signal.Signals(number).name}")
        self.number = number

    @property
    def status(self) -> int:
        """The exit status a shell gives a command this signal ended (128 + its number)."""
        return 128 + self.number

    @property
    def says(self) -> str:
        """How the command says it ended: "interrupted" (Ctrl+C), "ended by SIGTERM"."""
        return "interrupted" if self.number == signal.SIGINT else str(self)


@contextmanager
def signals_raise(
    numbers: tuple[int, ...] = ENDING, *, instead: Callable[[int], None] | None = None
) -> Iterator[None]:
    """While the block runs, each signal of `numbers` raises `EndedFromOutside` in the main
    thread; or, with `instead`, calls it with the signal's number (for a block that runs an
    event loop, which an exception raised at any point would leave half stopped).

    A signal the process ignores stays ignored: `nohup` (SIGHUP), a job a script started in
    the background (SIGINT). Off the main thread, where no handler can be set, it changes
    nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handle(number: int, _frame: FrameType | None) -> None:
        if instead is None:
            _raise(number)
        instead(number)

    taken = [number for number in numbers if signal.getsignal(number) is not signal.SIG_IGN]
    before = {number: signal.signal(number, handle) for number in taken}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def _raise(number: int) -> NoReturn:
    raise EndedFromOutside(number)

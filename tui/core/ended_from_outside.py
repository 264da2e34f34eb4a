"""Ctrl+C (SIGINT), SIGTERM (`kill`, `timeout`) and SIGHUP (a terminal window closed) while
a command works with no app of its own on the terminal: a render, a recording, a wait for an
answer. Each raises `EndedFromOutside` in the main thread, so the command unwinds as for an
error (its temporary folders removed, no file left half written) and says so. By default
SIGTERM and SIGHUP end the process on the spot, leaving its temporary folders behind, and
Ctrl+C a traceback."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any

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
    def says(self) -> str:
        """How the command says it ended: "interrupted" (Ctrl+C), "ended by SIGTERM"."""
        return "interrupted" if self.number == signal.SIGINT else str(self)


@dataclass
class _Command:
    """What the `signals_raise` blocks of the command running share."""

    blocks: int = 0
    """How many blocks are in force (one may run within another)."""
    ending: int | None = None
    """The signal that the blocks took, once one came: the command is ending."""
    holding: bool = False
    """True while a step no signal may cut runs (`_uncut`)."""
    held: int | None = None
    """The signal that came during that step: sent again once the step is done."""


_COMMAND = _Command()


@contextmanager
def signals_raise(
    numbers: tuple[int, ...] = ENDING, *, instead: Callable[[int], None] | None = None
) -> Iterator[None]:
    """While the block runs, each signal of `numbers` raises `EndedFromOutside` in the main
    thread; or, with `instead`, calls it with the signal's number (for a block that runs an
    event loop, which an exception raised at any point would leave half stopped).

    Only the first signal is taken: those after it, until the outermost block ends, are
    ignored, so that a second Ctrl+C does not cut short what the first one cleans up (a
    temporary folder being removed, a child process waited for). A signal the process
    ignores stays ignored: `nohup` (SIGHUP), a job a script started in the background
    (SIGINT). Off the main thread, where no handler can be set, it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handle(number: int, _frame: FrameType | None) -> None:
        if _COMMAND.holding:
            if _COMMAND.held is None:
                _COMMAND.held = number
            return
        if _COMMAND.ending is not None:
            return
        _COMMAND.ending = number
        if instead is None:
            raise EndedFromOutside(number)
        instead(number)

    if not _COMMAND.blocks:
        _COMMAND.ending = None  # a new command's first block: nothing is ending yet
    _COMMAND.blocks += 1
    before: dict[int, Any] = {}
    try:
        for number in numbers:
            if signal.getsignal(number) is not signal.SIG_IGN:
                before[number] = signal.signal(number, handle)
        yield
    finally:
        _COMMAND.blocks -= 1
        with _uncut():  # (one arriving meanwhile goes to the handler put back)
            for number, handler in before.items():
                signal.signal(number, handler)


@contextmanager
def temporary_folder(prefix: str) -> Iterator[str]:
    """A new temporary folder named `prefix`..., removed with what it holds as the block ends,
    also where one of `ENDING` arrives as it is made: raised between the folder made and its
    removal set up, `EndedFromOutside` would leave it behind. Held back until then."""
    import tempfile  # with the first command that needs a folder

    with contextlib.ExitStack() as removal:
        with _uncut():
            folder = removal.enter_context(tempfile.TemporaryDirectory(prefix=prefix))
        yield folder


@contextmanager
def _uncut() -> Iterator[None]:
    """Run the block whole: a signal a `signals_raise` block takes while it runs is sent
    again once it is done, to the handler then in force (the block's, or the one a block
    ending put back). (Holding the signal back in the process would not do: another thread,
    whose mask is its own, takes it, and Python runs its handler in the main thread at once.)"""
    _COMMAND.holding = True
    try:
        yield
    finally:
        _COMMAND.holding = False
        held, _COMMAND.held = _COMMAND.held, None
        if held is not None:
            signal.raise_signal(held)


def end_as_by_default(number: int) -> None:
    """End the process as signal `number` ends one by default: a shell then sees a command
    that signal ended, and a script's loop stops at Ctrl+C (one that exits 130 instead has,
    to the shell, handled it, and the loop goes on). Returns where that does not end it
    (Windows, which has no such signals to send; a container's first process)."""
    if os.name == "nt":
        return
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)

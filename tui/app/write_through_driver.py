"""Textual's full-screen Linux driver, each write made to the terminal at once, by the thread
that makes it."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, TextIO

from textual.drivers.linux_driver import LinuxDriver


class WriteThroughDriver(LinuxDriver):
    """`LinuxDriver`, whose writes go to the terminal as they are made instead of through a
    queue that a writer thread empties.

    Queued, a frame reaches the terminal only once the writer thread holds the interpreter's
    lock (the GIL), which the UI thread, busy with what comes after the frame, hands over
    only every 5 ms: a question's first frame, drawn while the app was still laying out its
    main screen or building a dialog ahead, reached the terminal 5 to 10 ms after it was
    made. Textual's inline driver writes as this one does.

    The UI thread writes the frames; the thread that reads keys writes too (its answers to
    the terminal's queries), hence the lock.

    A terminal that has gone without hanging the app up (a pseudo-terminal that was not its
    controlling terminal, closed by whoever held it) fails every write: nothing can be drawn
    on it any more, and writes are dropped from then on. Raised, the first failure would stop
    the app's exit half way, before the thread that reads keys is told to end, and the app
    could not end at all, SIGTERM included.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._file is None:
            raise RuntimeError("no standard error stream to draw on")
        self._terminal: TextIO = self._file
        self._write_lock = threading.Lock()
        self._terminal_gone = False

    def write(self, data: str) -> None:
        with self._write_lock:
            if self._terminal_gone:
                return
            try:
                self._terminal.write(data)
                self._terminal.flush()
            except OSError:
                self._terminal_gone = True

    def _get_terminal_size(self) -> tuple[int, int]:
        # Textual asks standard output, which a program that prints its answer may have sent
        # to a file (`python agent.py > answer.txt`): the screen was then taken as 80x24,
        # whatever the terminal's size. The terminal drawn on (standard error) knows it.
        stdout = sys.__stdout__
        if stdout is not None and stdout.isatty():
            return super()._get_terminal_size()
        try:
            size = os.get_terminal_size(self._terminal.fileno())
        except (OSError, ValueError):
            return super()._get_terminal_size()
        return size.columns or 80, size.lines or 24

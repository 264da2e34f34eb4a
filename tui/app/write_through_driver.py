"""Textual's full-screen Linux driver, each write made to the terminal at once, by the thread
that makes it."""

from __future__ import annotations

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
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._file is None:
            raise RuntimeError("no standard error stream to draw on")
        self._terminal: TextIO = self._file
        self._write_lock = threading.Lock()

    def write(self, data: str) -> None:
        with self._write_lock:
            self._terminal.write(data)
            self._terminal.flush()

"""`elicit-tui ask` on a pseudo-terminal, and its screen as a terminal emulator shows it."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

REPO = Path(__file__).resolve().parent.parent


class AskOnAPty:
    """`elicit-tui ask ARGS` on a `rows` x 80 pseudo-terminal (`child`), sized by it, not by
    what an app run headless left in the environment; `screen` is what it has drawn, once read.
    Leaving its `with` block ends the process if it still runs."""

    def __init__(self, *args: str, rows: int = 24) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "tui.cli", "ask", *args],
            dimensions=(rows, 80),
            cwd=str(REPO),
            env={
                **{k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}},
                "TERM": "xterm-256color",  # what pyte reads, whatever the shell's terminal
            },
            timeout=20,
        )
        self.screen = pyte.Screen(80, rows)
        self._stream = pyte.ByteStream(self.screen)

    def __enter__(self) -> AskOnAPty:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.child.close(force=True)

    @property
    def text(self) -> str:
        """The screen's lines, as they are."""
        return "\n".join(self.screen.display)

    def read(self, seconds: float) -> str:
        """The screen once what the app drew in the next `seconds` is read."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self._read_some()
        return self.text

    def shows(self, drawn: Callable[[], bool], timeout: float = 10) -> bool:
        """Whether `drawn()` is true of the screen within `timeout` seconds, read meanwhile."""
        deadline = time.monotonic() + timeout
        while not drawn():
            if time.monotonic() > deadline:
                return False
            self._read_some()
        return True

    def _read_some(self) -> None:
        with contextlib.suppress(pexpect.TIMEOUT):
            self._stream.feed(self.child.read_nonblocking(65536, timeout=0.1))

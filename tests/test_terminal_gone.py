"""An app whose terminal has gone without hanging it up (a pseudo-terminal that is not its
controlling terminal, closed by whoever held it; or its own, with SIGHUP ignored) ends by
itself, exit status 129, instead of reading the closed terminal for ever."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def read_until(controller: int, text: bytes, timeout: float = 30) -> None:
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen:
        assert time.monotonic() < deadline, f"never saw {text!r}"
        if select.select([controller], [], [], 0.5)[0]:
            seen += os.read(controller, 65536)


def test_the_app_ends_by_itself_once_its_terminal_has_gone(tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    app = subprocess.Popen(
        [sys.executable, "-m", "tui.cli.main", "demo"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        cwd=REPO,
        env={
            **os.environ,
            "TERM": "xterm-256color",
            "ELICIT_TUI_BELL": "0",
            "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config"),
        },
        start_new_session=True,  # its own session, the pty not its controlling terminal
    )
    os.close(terminal)
    try:
        read_until(controller, b"billing-api")  # the demo's first question is on screen
        os.close(controller)  # the terminal is gone; no SIGHUP comes

        # Not a success: ended as a shell reports a command a hangup ended.
        assert app.wait(timeout=10) == 129
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()


ON_ITS_TERMINAL = """\
import fcntl, signal, sys, termios
fcntl.ioctl(2, termios.TIOCSCTTY, 0)  # the pty is its controlling terminal, as in a login
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup: closing it hangs nobody up
sys.argv[0] = "elicit-tui"
from tui.cli.entry import main
main()
"""
"""`elicit-tui ARGS` as the console script runs it, on a terminal that hangs nobody up."""


@contextmanager
def ask_whose_terminal_goes(
    *args: str, shown: bytes, answer_on_terminal: bool
) -> Iterator[subprocess.Popen[bytes]]:
    """`elicit-tui ask ARGS` on a pty, its answer printed there or to a pipe; the pty is
    closed once `shown` is on it."""
    controller, terminal = pty.openpty()
    ask = subprocess.Popen(
        [sys.executable, "-c", ON_ITS_TERMINAL, "ask", *args],
        stdin=terminal,
        stdout=terminal if answer_on_terminal else subprocess.PIPE,
        stderr=terminal,
        cwd=REPO,
        env={**os.environ, "TERM": "xterm-256color", "ELICIT_TUI_BELL": "0"},
        start_new_session=True,
    )
    os.close(terminal)
    try:
        read_until(controller, shown)
        os.close(controller)
        yield ask
    finally:
        if ask.poll() is None:
            ask.kill()
            ask.wait()
        if ask.stdout is not None:
            ask.stdout.close()


def test_ask_ends_by_itself_when_its_terminal_goes_away_unhung() -> None:
    with ask_whose_terminal_goes(
        "choice", "Zebra?", "-o", "a", shown=b"Zebra?", answer_on_terminal=False
    ) as ask:
        # It used to read the closed terminal for ever, a processor core at full load.
        assert ask.wait(timeout=10) == 129
        assert ask.stdout is not None
        assert json.loads(ask.stdout.read()) == {
            "action": "cancel",
            "content": None,
            "reason": "hung_up",
        }


def test_ask_printing_its_answer_on_the_terminal_that_went_away_still_says_hung_up() -> None:
    # Its answer cannot be printed there: exit 1 (a traceback's) would read as "declined".
    with ask_whose_terminal_goes(
        "confirm", "Deploy?", shown=b"Deploy?", answer_on_terminal=True
    ) as ask:
        assert ask.wait(timeout=10) == 129

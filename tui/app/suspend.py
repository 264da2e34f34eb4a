"""Ctrl+Z for the app: the process stops as a shell command does, and `fg` brings it back."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

from rich.control import Control
from textual.app import App
from textual.geometry import Offset


def suspend(app: App[Any]) -> None:
    """Give the terminal back to the shell and stop the process until it is continued in the
    foreground (`fg`), then take the terminal again and draw `app` afresh, full screen or
    inline. Does nothing where the app has no terminal of its own to give back (headless).

    The stop and the return are done here rather than by the driver's signal handlers, so
    the terminal is taken back once the process is in the foreground again.
    """
    driver = app._driver
    if driver is None or not (driver.can_suspend or driver.is_inline):
        return
    app._suspend_signal()
    with driver.no_automatic_restart():
        if driver.is_inline:
            stop_until_continued(lambda: _leave_inline(app), driver.start_application_mode)
        else:
            stop_until_continued(driver.suspend_application_mode, driver.resume_application_mode)
    app._resume_signal()
    app.refresh(layout=True)


def _leave_inline(app: App[Any]) -> None:
    """Give the lines an inline app is drawn on back to the shell, cleared.

    Textual leaves the terminal's cursor on a text field's caret (where an input method
    shows what is being composed), and its inline driver clears the screen from the cursor
    down: the cursor goes back to the app's top first, or the lines above the caret would
    stay on the shell's screen. The next frame, drawn where the shell left the cursor after
    `fg`, then starts from there.
    """
    driver = app._driver
    assert driver is not None
    # Textual has no public API for either: where its last frame left the cursor.
    x, y = app._previous_cursor_position
    driver.write(Control.move(-x, -y).segment.text)
    app._previous_cursor_position = Offset(0, 0)
    driver.stop_application_mode()


def stop_until_continued(release: Callable[[], None], retake: Callable[[], None]) -> None:
    """Do what Ctrl+Z does to a shell command: give the terminal back as it was before the
    app (`release`), stop the process with SIGTSTP, and, once the shell has continued it in
    the foreground (`fg`), take the terminal again (`retake`).

    Continued in the background (`bg`), the process stops again as any job that needs its
    terminal does, until it is brought to the foreground. Signal handlers that the driver
    installed are out of the way meanwhile, so the stop happens here, in this call, and the
    terminal is taken back exactly once. Returns once the process runs in the foreground
    again; the caller then draws the app afresh.
    """
    release()
    handlers = {number: signal.getsignal(number) for number in (signal.SIGTSTP, signal.SIGCONT)}
    try:
        for number in handlers:
            signal.signal(number, signal.SIG_DFL)
        # SIGTSTP, not SIGSTOP: the shell reports the job as stopped from the keyboard.
        os.kill(os.getpid(), signal.SIGTSTP)
        while not _in_foreground():
            os.kill(os.getpid(), signal.SIGSTOP)
    finally:
        for number, handler in handlers.items():
            if handler is not None:
                signal.signal(number, handler)
    retake()


def _in_foreground() -> bool:
    """Whether this process's group owns the terminal on descriptor 0 (True without one)."""
    try:
        return os.tcgetpgrp(0) == os.getpgrp()
    except OSError:
        return True

"""The app as a shell job: Ctrl+Z stops the process as it stops a shell command, `fg` brings
it back; a stop that came from outside (SIGSTOP) is recovered from the same way, and `kill`
(SIGTERM) ends the app as quitting does, the terminal given back as it was."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType
from typing import Any

from rich.control import Control
from textual.app import App
from textual.geometry import Offset

from tui.core.ended_from_outside import end_as_by_default


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
    app (`release`), stop the process and its job (its process group) with SIGTSTP, and,
    once the shell has continued it in the foreground (`fg`), take the terminal again
    (`retake`).

    Continued in the background (`bg`), the process stops again as any job that needs its
    terminal does, until it is brought to the foreground. Signal handlers that the driver
    installed are out of the way meanwhile, so the stop happens here, in this call, and the
    terminal is taken back exactly once. Returns once the process runs in the foreground
    again; the caller then draws the app afresh.
    """
    release()
    with _default_signals(signal.SIGTSTP, signal.SIGCONT, signal.SIGTERM):
        # SIGTSTP, not SIGSTOP: the shell reports the job as stopped from the keyboard. To the
        # whole process group, as the terminal sends it: run from a script, the script stops
        # too and the shell sees its job stopped; stopped alone, the shell would wait on the
        # script for ever and keep the terminal from the person, `fg` and Ctrl+C going nowhere.
        os.killpg(os.getpgrp(), signal.SIGTSTP)
        while not in_foreground():
            os.kill(os.getpid(), signal.SIGSTOP)
    retake()


@contextlib.contextmanager
def _default_signals(*numbers: signal.Signals) -> Iterator[None]:
    """The default actions for `numbers` meanwhile, the handlers before put back after.

    SIGTERM among them, a stopped job that is killed (`kill %1`: SIGTERM, then SIGCONT) ends
    as the kernel ends it, not by a Python handler, which runs only once the main thread
    checks for signals: it could first stop the process again, the SIGTERM pending forever.
    The shell has the terminal then, which the process leaves as it is."""
    handlers = {number: signal.getsignal(number) for number in numbers}
    try:
        for number in numbers:
            signal.signal(number, signal.SIG_DFL)
        yield
    finally:
        for number, handler in handlers.items():
            if handler is not None:
                signal.signal(number, handler)


def in_foreground() -> bool:
    """Whether this process's group owns the terminal on descriptor 0 (True without one)."""
    try:
        return os.tcgetpgrp(0) == os.getpgrp()
    except OSError:
        return True


TERMINATED_STATUS = 128 + signal.SIGTERM
"""The exit status after SIGTERM, as a shell reports a command it ended (143)."""

HUNG_UP_STATUS = 128 + signal.SIGHUP
"""The exit status once the terminal has gone, as a shell reports a command a hangup ended
(129)."""


def handle_signals_from_outside(
    app: App[Any],
    *,
    stop_requested: Callable[[], None],
    terminated: Callable[[], Awaitable[None]] | None,
) -> Callable[[], None]:
    """Take SIGTERM, SIGTSTP and SIGCONT over for `app` while it runs, from Textual's handlers
    and the default ones; returns the function that puts the handlers before back. Headless,
    or off the main thread, it changes nothing.

    SIGTERM (`kill`, `timeout`) calls `terminated`, if given, in the app's loop: by default
    the process ended at once, the terminal left as the app had set it (on the alternate
    screen, reading mouse moves, the cursor hidden) and the questions' askers not told. Out of
    the terminal's foreground (stopped, or in the background) it still ends the process at
    once.

    On a terminal of its own, SIGTSTP from outside (`kill -TSTP`; the keyboard's Ctrl+Z
    reaches the app as a key) is taken as Ctrl+Z is: `stop_requested`, in the app's loop.
    SIGCONT after a stop that the app did not make (SIGSTOP) goes to `_continued`. Textual's
    handler started a second reader of keys there, beside the first: the keys typed after it
    went to one or the other, some lost.
    """
    if app.is_headless or threading.current_thread() is not threading.main_thread():
        return lambda: None
    loop = asyncio.get_running_loop()
    pending = False

    def retake() -> None:
        nonlocal pending
        try:
            _continued(app)
        finally:
            pending = False

    def on_continue(_signal: int, _frame: FrameType | None) -> None:
        nonlocal pending
        if not pending:  # one retake at a time, however many continues came
            pending = True
            loop.call_soon_threadsafe(retake)

    def on_stop(_signal: int, _frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(stop_requested)

    handlers: dict[signal.Signals, Callable[[int, FrameType | None], None]] = {}
    if terminated is not None:
        handlers[signal.SIGTERM] = _on_terminate(app, loop, terminated)
    driver = app._driver
    if driver is not None and (driver.can_suspend or driver.is_inline):
        handlers[signal.SIGTSTP] = on_stop
        handlers[signal.SIGCONT] = on_continue
    before = {number: signal.signal(number, handler) for number, handler in handlers.items()}

    def restore() -> None:
        for number, handler in before.items():
            signal.signal(number, handler)

    return restore


def _on_terminate(
    app: App[Any], loop: asyncio.AbstractEventLoop, terminated: Callable[[], Awaitable[None]]
) -> Callable[[int, FrameType | None], None]:
    """The SIGTERM handler: `terminated` in the app's loop."""

    def on_terminate(_signal: int, _frame: FrameType | None) -> None:
        if not in_foreground():
            end_as_by_default(signal.SIGTERM)
            return
        loop.call_soon_threadsafe(app.call_later, terminated)

    return on_terminate


def _continued(app: App[Any]) -> None:
    """After a stop from outside: continued in the background, stop again until `fg`, as
    `stop_until_continued` does; in the foreground, take the terminal back if the shell had
    it meanwhile, and draw the app afresh.

    A shell that stopped the job set the terminal's modes for itself (lines, echo) and wrote
    its prompt where the app was drawn: the app then gives the terminal up and takes it
    again, as after Ctrl+Z, with a fresh reader of keys. A process that was only paused
    finds the terminal as it left it; its reader still has the keys typed meanwhile, read
    in order.
    """
    with _default_signals(signal.SIGTERM):
        while not in_foreground():
            os.kill(os.getpid(), signal.SIGSTOP)
    driver = app._driver
    if driver is None:
        return
    if _still_raw():
        app.refresh()
        return
    if driver.is_inline:
        driver.stop_application_mode()
        # Drawn afresh from where the shell left the cursor, not where the last frame did.
        app._previous_cursor_position = Offset(0, 0)
        driver.start_application_mode()
    else:
        driver.suspend_application_mode()
        driver.resume_application_mode()
    app.refresh(layout=True)


def _still_raw() -> bool:
    """Whether the terminal on descriptor 0 is still in the app's modes: keys one at a time,
    not echoed (True without a terminal: there is nothing to take back)."""
    import termios  # POSIX only, as stops and continues are

    try:
        local_modes = termios.tcgetattr(0)[3]
    except termios.error:
        return True
    return not local_modes & (termios.ICANON | termios.ECHO)

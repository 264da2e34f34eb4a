"""Noticing that the app's terminal has gone, so that the app ends as quitting does.

SIGHUP (a terminal window closed, an SSH connection dropped) would end the `elicit-tui`
command's process on the spot, its askers told nothing, a transcript left without the
requests' ends, a replay's keyring folder left behind: in the command's process it ends the
app as a terminal gone unannounced does, below; `kill -HUP` with the terminal still there,
as SIGTERM does (the terminal given back as it was). Stopped or in the background, the
process still ends on the spot, as for SIGTERM (see `tui.app.suspend`). Ignored (`nohup`),
it stays ignored.

A terminal closed while SIGHUP is ignored (`nohup`), or a pseudo-terminal that is not the
process's controlling one closed by whoever held it, hangs nobody up: Textual's reader of
keys then reads the end of its input at once, again and again, for ever, a processor core
at full load and the app never ending. A thread here polls the terminal for a hang-up only
(never for input: the keys stay the reader's) and has the app end, what it still draws
going to the null device.

A browser tab's front end (`elicit-tui web`) has pipes to `web` for a terminal: keys and
messages come on standard input, the screen goes out on standard output. Textual's web
driver stops reading keys at the end of its input and the app runs on, unseen, for ever
(`web` killed, its process ended by SIGKILL or a crash): the same thread watches both pipes
and the app ends the same way once `web` has closed either.
"""

from __future__ import annotations

import asyncio
import os
import select
import signal
import stat
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

from textual.app import App

from tui.app.suspend import in_foreground
from tui.core.ended_from_outside import end_as_by_default
from tui.core.hung_up import drop_output, has_hung_up

POLL_MS = 250
"""How long one poll waits before the thread checks whether it is still wanted."""


def watch_for_hang_up(
    app: App[Any], hung_up: Callable[[], Awaitable[None]], *, take_sighup: bool
) -> Callable[[], None]:
    """Call `hung_up` in `app`'s loop once the terminal it reads keys from hangs up (for a
    browser tab: once either pipe to `web` is closed at the other end); returns the function
    that stops watching. Headless, or without `poll()` (Windows), it watches nothing.

    With `take_sighup` (the command's own process, on the main thread), SIGHUP in the
    terminal's foreground calls `hung_up` too while the app runs, instead of ending the
    process at once, unless it is ignored."""
    driver = app._driver
    if not hasattr(select, "poll") or driver is None:
        return lambda: None
    if driver.is_web:
        watched = [fd for fd in (0, 1) if _is_pipe(fd)]

        def drop() -> None:
            drop_output(fd for fd in (1, 2) if _is_pipe(fd))

    else:
        fileno = getattr(driver, "fileno", None)
        if not isinstance(fileno, int) or not os.isatty(fileno):
            return lambda: None
        watched = [fileno]

        def drop() -> None:
            # Nothing can be drawn any more, and a failed write (EIO) would stop the app's
            # exit half way, the reader of keys never told to end.
            terminal = os.fstat(fileno).st_rdev
            drop_output(fd for fd in (1, 2) if _device(fd) == terminal)

    if not watched:
        return lambda: None
    loop = asyncio.get_running_loop()
    stopped = threading.Event()
    lock = threading.Lock()
    gone = False

    def hang_up() -> None:
        nonlocal gone
        # Once; a second caller waits until the output goes to the null device. Taken by this
        # module's thread, or in the main thread by SIGHUP's handler, which the main thread
        # never holds it under (only a browser tab's writes take it there, and its app has
        # no such handler).
        with lock:
            if gone or stopped.is_set():
                return
            gone = True
            drop()
        loop.call_soon_threadsafe(app.call_later, hung_up)

    def watch() -> None:
        # A pipe's reading end hangs up once no one can write to it, its writing end errs
        # once no one reads.
        while not stopped.is_set():
            if has_hung_up(watched, POLL_MS):
                hang_up()
                return

    if driver.is_web and callable(write := getattr(driver, "_write", None)):
        # A frame written before the thread saw `web` go would fail (EPIPE) in the dialog
        # being drawn, and a failed dialog is cancelled in the inbox: the hang-up comes first.
        def write_or_hang_up(data: bytes) -> Any:
            try:
                return write(data)
            except BrokenPipeError:
                hang_up()
                return write(data)  # to the null device now

        driver._write = write_or_hang_up  # type: ignore[attr-defined]

    threading.Thread(target=watch, name="elicit-hang-up-watch", daemon=True).start()
    on_main_thread = threading.current_thread() is threading.main_thread()
    if driver.is_web or not take_sighup or not on_main_thread:
        return stopped.set
    if signal.getsignal(signal.SIGHUP) is not signal.SIG_DFL:
        return stopped.set  # ignored, as under `nohup`, or handled by whoever runs the app

    def on_sighup(_signal: int, _frame: FrameType | None) -> None:
        if has_hung_up(watched):
            hang_up()  # the terminal is gone: what is left to draw goes to the null device
        elif in_foreground():
            # `kill -HUP` with the terminal still there: it is given back as it was.
            loop.call_soon_threadsafe(app.call_later, hung_up)
        else:
            end_as_by_default(signal.SIGHUP)  # the shell has the terminal

    before = signal.signal(signal.SIGHUP, on_sighup)

    def stop() -> None:
        stopped.set()
        signal.signal(signal.SIGHUP, before)

    return stop


def _is_pipe(fd: int) -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(fd).st_mode)
    except OSError:  # closed
        return False


def _device(fd: int) -> int | None:
    """The device `fd` is open on (None: closed)."""
    try:
        return os.fstat(fd).st_rdev
    except OSError:
        return None

"""Run a full-screen UI on the controlling terminal while the process's own streams are elsewhere."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

_STANDARD_FDS = (0, 1, 2)


class NoTerminalError(OSError):
    """The process has no controlling terminal (`/dev/tty` cannot be opened), so nobody can answer."""


CANNOT_DRAW = "this terminal cannot draw the full-screen TUI (TERM=dumb)"
"""Why a full-screen command refuses a terminal that draws nothing but lines of text."""


def cannot_draw() -> bool:
    """Whether the terminal says it shows lines of text alone (`TERM=dumb`): a full-screen
    UI's cursor moves and colours would reach it as escape sequences."""
    return os.environ.get("TERM") == "dumb"


def check_terminal() -> None:
    """Raise `NoTerminalError` unless the process has a controlling terminal: a command that
    will need one says so before it does anything else."""
    os.close(_open_terminal())


def _open_terminal() -> int:
    try:
        return os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError as error:
        raise NoTerminalError(
            f"no terminal to show the question on (/dev/tty: {error.strerror})"
        ) from None


@contextmanager
def streams_on_terminal() -> Iterator[TextIO]:
    """Point file descriptors 0, 1 and 2 at the controlling terminal for the block, then restore them.

    Textual reads keys from stdin, sizes the screen from stdout and draws on stderr; with this,
    `cmd | elicit-tui ask ... > answer.json` still shows the UI and takes keys on the terminal,
    and what is printed after the block goes where the caller redirected it. Yields the
    process's own stderr, for what must go there from within the block (an app's report as
    it exits). Raises `NoTerminalError` when there is no controlling terminal.
    """
    terminal = _open_terminal()
    _flush_standard_streams()
    saved = {fd: _duplicate(fd) for fd in _STANDARD_FDS}
    try:
        for fd in _STANDARD_FDS:
            os.dup2(terminal, fd)
        own_stderr = saved[2]
        if own_stderr is None:  # started with it closed: nothing to say there
            yield sys.stderr
        else:
            stream = os.fdopen(os.dup(own_stderr), "w", encoding="utf-8", errors="replace")
            try:
                yield stream
            finally:
                # What it could not write, to a terminal gone meanwhile, is for nobody now.
                with contextlib.suppress(OSError):
                    stream.close()
    finally:
        _flush_standard_streams()
        for fd, copy in saved.items():
            if copy is None:
                os.close(fd)
            else:
                os.dup2(copy, fd)
                os.close(copy)
        os.close(terminal)


def _duplicate(fd: int) -> int | None:
    """A copy of `fd` to restore later, or None if the process started with it closed."""
    try:
        return os.dup(fd)
    except OSError:
        return None


def _flush_standard_streams() -> None:
    # Python's buffers must reach the descriptor they were written for before it is repointed.
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is not None:
            stream.flush()

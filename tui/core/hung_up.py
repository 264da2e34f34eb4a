"""Telling that a terminal (or a pipe) has hung up, and sending what would still be written to
it to the null device instead: a write there fails (EIO, EPIPE) and would stop a program's
exit half way."""

from __future__ import annotations

import contextlib
import os
import select
from collections.abc import Iterable


def has_hung_up(fds: Iterable[int], wait_ms: int = 0) -> bool:
    """Whether any of `fds` has hung up or errs, waiting up to `wait_ms` for it. Asks for no
    events: only a hang-up or an error is reported (never input, which stays its reader's).
    Without `poll()` (Windows), False."""
    if not hasattr(select, "poll"):
        return False
    poller = select.poll()
    for fd in fds:
        poller.register(fd, 0)
    return bool(poller.poll(wait_ms))


def drop_output(fds: Iterable[int]) -> None:
    """Point each of `fds` (standard output, error) at the null device."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in fds:
            with contextlib.suppress(OSError):  # closed
                os.dup2(null, fd)
    finally:
        os.close(null)


def drop_hung_up_output() -> None:
    """Point standard output and error, where they have hung up, at the null device."""
    drop_output(fd for fd in (1, 2) if _open(fd) and has_hung_up([fd]))


def _open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True

"""The token a starting `serve` answers to, so that two inboxes run from one config folder
never lock each other's clients out.

The config folder's `serve-token` holds one token, and every client given none reads it. A
serve that starts while no other from the folder runs writes a new one there, as before. One
that starts while another runs takes that one's token instead of writing its own: a second
inbox (on another port, for a test) would otherwise leave the first one's hooks, askers and
front ends with a token it refuses, and, once it exited, with a dead inbox's token.

Every running serve holds a shared lock on `serve-token.lock` for as long as it runs; a
starting one that gets it exclusively knows that none runs. Where the system has no such
lock (Windows), each start writes its own token, as before.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tui.core.config_folder import TOKEN_FILE
from tui.mcp.auth import new_token, save_token

_HELD: list[int] = []
"""The lock's descriptor, kept open (and so the lock held) until the process exits."""


def claim_token(folder: Path, wanted: str | None) -> tuple[str, str]:
    """The token this serve answers to (`wanted`, given with `--token`, else the running
    inboxes' or a new one) and a note on where clients find it. Raises OSError if the
    config folder cannot be written."""
    path = folder / TOKEN_FILE
    with _running_serves(folder) as alone:
        running = None if alone else _read(path)
        if running is None:
            token = wanted or new_token()
            save_token(token, folder)
            # The path on a line of its own: wrapped in the TUI's notice, nothing hangs.
            return token, f"Also saved, readable by you only:\n{path}"
    if wanted is None or wanted == running:
        return running, f"The token of the inbox already running from this folder, in:\n{path}"
    return wanted, (
        f"Not saved: the inbox already running from this config folder keeps its token in\n{path}"
    )


def drop_token(folder: Path) -> None:
    """Remove the token an earlier inbox saved, for a serve that answers without one: clients
    would sign with it, and this inbox could not prove it holds it. Left to an inbox from the
    same folder still running, whose clients read it. Raises OSError if it cannot be removed."""
    with _running_serves(folder) as alone:
        if alone:
            (folder / TOKEN_FILE).unlink(missing_ok=True)


@contextmanager
def _running_serves(folder: Path) -> Iterator[bool]:
    """Join the folder's running serves for good (their shared lock); yields True if none
    ran, the lock then held exclusively for the block, so that none reads a token half written."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): as if alone
        yield True
        return
    folder.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(folder / f"{TOKEN_FILE}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    _HELD.append(descriptor)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:  # another serve runs: shared once it has written its token
        fcntl.flock(descriptor, fcntl.LOCK_SH)
        yield False
        return
    try:
        yield True
    finally:
        fcntl.flock(descriptor, fcntl.LOCK_SH)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None

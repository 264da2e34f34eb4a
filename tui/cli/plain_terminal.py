"""The terminal plain mode talks on: `/dev/tty`, apart from stdin and stdout, which stay free
for the request piped in and the answer printed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TextIO


@contextmanager
def plain_streams(stdin: TextIO, stderr: TextIO) -> Iterator[tuple[TextIO, TextIO]]:
    """Where plain prompts go: the terminal (`/dev/tty`) if there is one, else stdin and stderr.

    stdout stays for the answer alone, so `x=$(elicit-tui ask ... --plain)` still works.
    """
    with ExitStack() as opened:
        try:
            # Opened once to read and once to write: a text file open for both ("r+") must be
            # seekable, and a terminal is not.
            tty_in = opened.enter_context(open("/dev/tty", encoding="utf-8"))
            tty_out = opened.enter_context(open("/dev/tty", "w", encoding="utf-8"))
        except OSError:
            yield stdin, stderr
            return
        yield tty_in, tty_out

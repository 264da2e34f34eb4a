"""The terminal plain mode talks on: `/dev/tty`, apart from stdin and stdout, which stay free
for the request piped in and the answer printed; a line read from it as a person ends it, with
Enter or with Ctrl+D (the end of input), a secret's line without echo; and what was typed and
not read dropped once a question ends without it."""

from __future__ import annotations

import codecs
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from types import FrameType
from typing import TextIO

LONGEST_READ = 65536
"""More than a terminal gives in one read: its longest line (4096 bytes on Linux)."""


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


def read_line(inp: TextIO) -> str | None:
    """The next line of `inp` without its newline; None once the input has ended, also where a
    line ends without a newline: Ctrl+D pressed after typing, a pipe's last line cut short."""
    if inp.isatty():
        # One read of a terminal gives a line, or what was typed before Ctrl+D, without the
        # newline; readline() would wait for a second Ctrl+D and take that text for a line.
        typed = os.read(inp.fileno(), LONGEST_READ).decode(inp.encoding, "replace")
    else:
        typed = inp.readline()
    return typed.rstrip("\r\n") if typed.endswith("\n") else None


def discard_typed(inp: TextIO) -> None:
    """Drop what was typed on the terminal `inp` and not yet read, as the dialog does on exit."""
    if inp.isatty():
        import termios  # POSIX only, as a terminal's modes are

        termios.tcflush(inp.fileno(), termios.TCIFLUSH)


def read_hidden(tty: TextIO, continued: Callable[[bool], None]) -> str | None:
    """A line typed on the terminal `tty` without echo, without its newline; None where Ctrl+D
    ended the input, also after typing.

    The terminal's own line editing is off, so each key is read as it comes: erase (Backspace)
    and kill (Ctrl+U) are done here, and Ctrl+C and Ctrl+Z still signal. Stopped (Ctrl+Z) and
    continued in the foreground (`fg`), echo is turned off again, the shell having turned it
    on, and `continued` is called with whether text was typed before the stop (it is kept).
    """
    import termios  # POSIX only, as a terminal's modes are
    from tty import CC, LFLAG

    fd = tty.fileno()
    shell_modes = termios.tcgetattr(fd)
    keys = shell_modes[CC]
    hidden = [*shell_modes[:CC], list(keys)]
    hidden[LFLAG] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN)
    hidden[CC][termios.VMIN], hidden[CC][termios.VTIME] = 1, 0
    decoder = codecs.getincrementaldecoder(tty.encoding)("replace")
    typed: list[str] = []

    def resume(_signal: int, _frame: FrameType | None) -> None:
        # Continued in the background, it is stopped again as it reads, until `fg`.
        if os.tcgetpgrp(fd) == os.getpgrp():
            termios.tcsetattr(fd, termios.TCSADRAIN, hidden)
            continued(bool(typed))

    previous = signal.signal(signal.SIGCONT, resume)
    termios.tcsetattr(fd, termios.TCSADRAIN, hidden)
    try:
        while (key := os.read(fd, 1)) not in (b"", keys[termios.VEOF]):
            if key in (b"\n", b"\r"):
                return "".join(typed)
            if key in (keys[termios.VERASE], b"\b"):
                typed[-1:] = []
            elif key == keys[termios.VKILL]:
                typed.clear()
            elif character := decoder.decode(key):  # "" inside a character of several bytes
                typed.append(character)
        return None
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, shell_modes)
        signal.signal(signal.SIGCONT, previous)

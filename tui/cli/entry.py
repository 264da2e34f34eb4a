"""The `elicit-tui` console script: the command loaded with the garbage collector held, in a
process marked as the command's own (its app's objects are set aside once it is set up)."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import NoReturn, TextIO

from tui.cli.pydantic_plugins import skip_pydantic_plugins
from tui.core.ended_from_outside import EndedFromOutside, end_as_by_default
from tui.core.loading import loading_modules, mark_command_process


def main() -> NoReturn:
    """Entry point of the `elicit-tui` console script."""
    mark_command_process()
    skip_pydantic_plugins()
    try:
        with loading_modules():
            run_command = _command(sys.argv[1:2])
        status = run_command()
        if sys.stdout is not None:  # (closed: `elicit-tui hook ... >&-`)
            sys.stdout.flush()
    except (KeyboardInterrupt, EndedFromOutside) as ended:
        # Ctrl+C, SIGTERM or SIGHUP that the command did not answer for (it has said what it
        # left undone, if anything): the process ends as that signal ends one, so a shell
        # sees what ended it, and a script's loop stops at Ctrl+C. No traceback.
        number = ended.number if isinstance(ended, EndedFromOutside) else signal.SIGINT
        signal.signal(number, signal.SIG_DFL)  # a second one, while output is written out
        _flush_quietly(sys.stdout, sys.stderr)
        end_as_by_default(number)
        status = 128 + number
    except BrokenPipeError:
        # Whoever read the output has gone (`elicit-tui secrets list | head -1`): stop with
        # the status a shell gives a command ended by SIGPIPE, not with a traceback, and
        # leave nothing for the interpreter to flush into the closed pipe on its way out.
        to_null_device(sys.stdout)
        status = 128 + signal.SIGPIPE
    except OSError as error:
        if error.errno != errno.EIO:
            raise
        # Output to a terminal that has gone (`ask`'s answer, after the app ended because
        # its terminal went away): nobody can read it, and a traceback's exit status 1 would
        # say "declined". The status a shell gives a command a hangup ended, as the app's.
        to_null_device(sys.stdout, sys.stderr)
        status = 128 + signal.SIGHUP
    sys.exit(status)


def _flush_quietly(*streams: TextIO | None) -> None:
    """Write out what `streams` hold, if they still can be (a terminal gone cannot; a closed
    descriptor has no stream)."""
    for stream in streams:
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.flush()


def to_null_device(*streams: TextIO) -> None:
    """Send what is still written to `streams` (on the way out too) to the null device."""
    null = os.open(os.devnull, os.O_WRONLY)
    for stream in streams:
        os.dup2(null, stream.fileno())
    os.close(null)


OWN_PARSERS = {"ask": "tui.cli.ask", "hook": "tui.cli.hook"}
"""Commands that read every argument after their name with a parser of their own, by module."""


def _command(first: list[str]) -> Callable[[], int]:
    """The command named by the first argument. A command with a parser of its own loads only
    its own modules: a permission hook runs on every tool call (and every other command's
    parser would load pydantic first), and `ask`'s question should appear at once. Every other
    command goes through the `elicit-tui` parser."""
    module = OWN_PARSERS.get(first[0]) if first else None
    if module is not None:
        run_own: Callable[[Sequence[str]], int] = import_module(module).main
        return lambda: run_own(sys.argv[2:])
    from tui.cli.main import main as run_parsed

    return run_parsed

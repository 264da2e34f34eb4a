"""The `elicit-tui` console script: the command loaded with the garbage collector held, in a
process marked as the command's own (its app's objects are set aside once it is set up)."""

from __future__ import annotations

import errno
import os
import signal
import sys
from collections.abc import Callable
from typing import NoReturn, TextIO

from tui.core.loading import loading_modules, mark_command_process


def main() -> NoReturn:
    """Entry point of the `elicit-tui` console script."""
    mark_command_process()
    with loading_modules():
        run_command = _command(sys.argv[1:2])
    try:
        status = run_command()
        sys.stdout.flush()
    except BrokenPipeError:
        # Whoever read the output has gone (`elicit-tui secrets list | head -1`): stop with
        # the status a shell gives a command ended by SIGPIPE, not with a traceback, and
        # leave nothing for the interpreter to flush into the closed pipe on its way out.
        _to_null_device(sys.stdout)
        status = 128 + signal.SIGPIPE
    except OSError as error:
        if error.errno != errno.EIO:
            raise
        # Output to a terminal that has gone (`ask`'s answer, after the app ended because
        # its terminal went away): nobody can read it, and a traceback's exit status 1 would
        # say "declined". The status a shell gives a command a hangup ended, as the app's.
        _to_null_device(sys.stdout, sys.stderr)
        status = 128 + signal.SIGHUP
    sys.exit(status)


def _to_null_device(*streams: TextIO) -> None:
    """Send what is still written to `streams` (on the way out too) to the null device."""
    null = os.open(os.devnull, os.O_WRONLY)
    for stream in streams:
        os.dup2(null, stream.fileno())
    os.close(null)


def _command(first: list[str]) -> Callable[[], int]:
    """The command named by the first argument: a permission hook loads only its own modules
    (a CLI runs it on every tool call, and every other command's parser would load pydantic
    first); every other command goes through the `elicit-tui` parser."""
    if first == ["hook"]:
        from tui.cli.hook import main as run_hook

        return lambda: run_hook(sys.argv[2:])
    from tui.cli.main import main as run_parsed

    return run_parsed

"""The `elicit-tui` console script: the command loaded with the garbage collector held, in a
process marked as the command's own (its app's objects are set aside once it is set up)."""

from __future__ import annotations

import os
import signal
import sys
from typing import NoReturn

from tui.core.loading import loading_modules, mark_command_process


def main() -> NoReturn:
    """Entry point of the `elicit-tui` console script."""
    mark_command_process()
    with loading_modules():
        from tui.cli.main import main as run_command
    try:
        status = run_command()
        sys.stdout.flush()
    except BrokenPipeError:
        # Whoever read the output has gone (`elicit-tui secrets list | head -1`): stop with
        # the status a shell gives a command ended by SIGPIPE, not with a traceback, and
        # leave nothing for the interpreter to flush into the closed pipe on its way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 128 + signal.SIGPIPE
    sys.exit(status)

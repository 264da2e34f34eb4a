"""`elicit-tui` started as a shell starts a command: SIGHUP at its default action, whatever
this test run inherited (started under `nohup`, it is ignored, and a child keeps an ignored
signal ignored)."""

from __future__ import annotations

import signal
import sys

ELICIT_TUI = [
    sys.executable,
    "-c",
    "import signal, sys; signal.signal(signal.SIGHUP, signal.SIG_DFL); "
    "sys.argv[0] = 'elicit-tui'; from tui.cli.entry import main; main()",
]
"""`elicit-tui` as its console script runs it, SIGHUP at its default."""


def hangups_at_default() -> None:
    """For `preexec_fn`: SIGHUP at its default in the child."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

"""The `elicit-tui` console script: the command loaded with the garbage collector held."""

from __future__ import annotations

import sys
from typing import NoReturn

from tui.cli.loading import loading_modules


def main() -> NoReturn:
    """Entry point of the `elicit-tui` console script."""
    with loading_modules():
        from tui.cli.main import main as run_command
    sys.exit(run_command())

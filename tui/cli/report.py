"""The lines a command reports as it ends (`replay`, `render`): on standard output when all
went well, else on standard error; what a transcript holds (its questions, ids, answers) is
printed as it is, never acted on by the terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from tui.core.terminal_text import literal_text


def print_report(lines: list[str], code: int, outputs: Iterable[Path] = ()) -> None:
    """Print `lines`; on standard error if `code` says something went wrong, or if one of
    `outputs` is the file standard output goes to (`--cast /dev/stdout > demo.cast`), which
    a line after it would spoil."""
    stream = (
        sys.stderr if code or any(_is_standard_output(path) for path in outputs) else sys.stdout
    )
    for line in lines:
        print(literal_text(line), file=stream)


def _is_standard_output(path: Path) -> bool:
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):  # no such file; stdout closed or None
        return False

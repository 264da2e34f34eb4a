"""The lines a command reports as it ends (`replay`, `render`): on standard output when all
went well, else on standard error; what a transcript holds (its questions, ids, answers) is
printed as it is, never acted on by the terminal."""

from __future__ import annotations

import sys

from tui.core.terminal_text import literal_text


def print_report(lines: list[str], code: int) -> None:
    stream = sys.stderr if code else sys.stdout
    for line in lines:
        print(literal_text(line), file=stream)

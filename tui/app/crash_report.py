"""What the app prints when it crashes: the traceback, with no local variables and no secret."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from tui.core.terminal_text import literal_text
from tui.secrets.redaction import REDACTOR

if TYPE_CHECKING:
    from rich.traceback import Trace, Traceback


def crash_report() -> Traceback:
    """The exception being handled as a Rich traceback, safe to print on the terminal.

    Textual's own report shows every frame's local variables, and a frame that was checking a
    form holds the typed password in one. Here locals are left out and every registered secret
    (in any spelling) is scrubbed from the exception messages and notes, which may quote an
    agent's text: their control characters are shown, not acted on by the terminal.
    """
    # Rich's traceback renderer (and Pygments behind it) loads only when something crashed.
    import rich
    from rich.traceback import Traceback

    error_type, error, trace = sys.exc_info()
    if error_type is None or error is None:
        raise RuntimeError("crash_report() is called while an exception is handled")
    extracted = Traceback.extract(error_type, error, trace, show_locals=False)
    _scrub(extracted)
    return Traceback(extracted, width=None, suppress=[rich])


def _scrub(trace: Trace) -> None:
    for stack in trace.stacks:
        stack.exc_value = _safe(stack.exc_value)
        stack.notes = [_safe(note) for note in stack.notes]
        if stack.syntax_error is not None:
            stack.syntax_error.msg = _safe(stack.syntax_error.msg)
            stack.syntax_error.line = _safe(stack.syntax_error.line)
        for group_member in stack.exceptions:
            _scrub(group_member)


def _safe(text: str) -> str:
    return literal_text(REDACTOR.scrub(text))

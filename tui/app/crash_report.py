"""What the app prints when it crashes: the traceback, with no local variables and no secret."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from widgets.literal import shown

if TYPE_CHECKING:
    from rich.traceback import Trace, Traceback


def crash_report(error: BaseException | None = None) -> Traceback:
    """`error`, or the exception being handled, as a Rich traceback, safe to print on the
    terminal.

    Textual's own report shows every frame's local variables, and a frame that was checking a
    form holds the typed password in one. Here locals are left out and every registered secret
    (in any spelling) is scrubbed from the exception messages and notes, which may quote an
    agent's text: their control characters are shown, not acted on by the terminal.
    """
    # Rich's traceback renderer (and Pygments behind it) loads only when something crashed.
    import rich
    from rich.traceback import Traceback

    if error is None:
        error = sys.exc_info()[1]
    if error is None:
        raise RuntimeError("crash_report() is called with an error or while one is handled")
    extracted = Traceback.extract(type(error), error, error.__traceback__, show_locals=False)
    _scrub(extracted)
    return Traceback(extracted, width=None, suppress=[rich])


def _scrub(trace: Trace) -> None:
    for stack in trace.stacks:
        stack.exc_value = shown(stack.exc_value)
        stack.notes = [shown(note) for note in stack.notes]
        if stack.syntax_error is not None:
            stack.syntax_error.msg = shown(stack.syntax_error.msg)
            stack.syntax_error.line = shown(stack.syntax_error.line)
        for group_member in stack.exceptions:
            _scrub(group_member)

"""Which dialog an error came from (a dialog that fails ends its own question, not the app),
and what the app prints of such errors as it exits."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text
from textual._context import active_message_pump

from tui.app.crash_report import crash_report
from tui.core.error_text import error_text
from widgets.base import ElicitationModal
from widgets.literal import shown


def modal_of(node: object) -> ElicitationModal[Any] | None:
    """The modal `node` is or is inside (None: neither)."""
    while node is not None:
        if isinstance(node, ElicitationModal):
            return node
        node = getattr(node, "_parent", None)
    return None


def failing_modal() -> ElicitationModal[Any] | None:
    """The modal an error being handled by Textual came from: the one the widget whose
    message, timer or worker raised it is in (None: not a modal's, an error of the app)."""
    return modal_of(active_message_pump.get(None))


class FailedDialogs:
    """The dialogs that failed, printed as the app exits: the first one's traceback (where
    a kind's author looks first), then a line for each of the others; and the kinds whose
    dialog could not be had at all, a line each (the notice on screen is gone by then, and
    `elicit-tui ask` exits before anyone could read it)."""

    def __init__(self) -> None:
        self._first: list[Segment] | None = None
        self._others: list[str] = []
        self._unshown: list[str] = []

    def __bool__(self) -> bool:
        return self._first is not None or bool(self._unshown)

    def add_unshown(self, kind: str, why: str) -> None:
        """Keep why a `kind` request had no dialog to show it: `why` (once, however many)."""
        line = shown(f"Cannot show {kind!r} requests: {why}")
        if line not in self._unshown:
            self._unshown.append(line)

    def add(self, kind: str, error: BaseException, console: Console) -> None:
        """Keep the report of `error`, raised by the dialog of a `kind` request; the
        traceback is rendered now (no locals, no secret), not kept alive with its frames."""
        if self._first is None:
            self._first = list(console.render(crash_report(error), console.options))
        else:
            self._others.append(shown(f"{kind!r} dialog: {error_text(error)}"))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self._first or ()
        if self._others:
            more = len(self._others)
            yield Segment(f"\n{more} more dialog{'s' if more > 1 else ''} failed:\n")
            for line in self._others:
                yield Text(f"  {line}")
        # Text, not segments: wrapped at the terminal's width, never cut at its edge.
        yield from map(Text, self._unshown)

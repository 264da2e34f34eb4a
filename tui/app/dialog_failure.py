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
    dialog could not be had at all, or whose check of an answer raised, a line each (the
    notice on screen is gone by then, and `elicit-tui ask` exits before anyone could read
    it)."""

    def __init__(self) -> None:
        self._first: list[Segment] | None = None
        self._others: list[str] = []
        self._lines: list[str] = []
        """Why kinds had no dialog, and what their checks raised: a line each."""

    def __bool__(self) -> bool:
        return self._first is not None or bool(self._lines)

    def add_unshown(self, kind: str, why: str) -> None:
        """Keep why a `kind` request had no dialog to show it: `why` (once, however many)."""
        self._add_line(f"Cannot show {kind!r} requests: {why}")

    def add_failed_check(self, kind: str, detail: str) -> None:
        """Keep what the check of a `kind` request's answer raised, `detail` (once): the
        person was told only that the answer could not be checked."""
        self._add_line(f"The check of a {kind!r} answer failed: {detail}")

    def _add_line(self, text: str) -> None:
        line = shown(text)
        if line not in self._lines:
            self._lines.append(line)

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
        yield from map(Text, self._lines)

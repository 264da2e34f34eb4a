"""The main screen's panel saying what the agent is doing, what it returned, or how it failed."""

from __future__ import annotations

import traceback
from typing import Any

from rich.console import Group, RenderableType
from rich.highlighter import ReprHighlighter
from rich.text import Text
from textual.widgets import Static

from tui.secrets.redaction import REDACTOR


class AgentStatus(Static):
    """Idle, running, finished with a value, or failed with an exception (shown, not fatal).

    What the agent returned or raised is shown with every secret answered so far scrubbed.
    """

    summary: str = ""
    """The status in one plain line, as shown in its first line."""

    def _show(self, state: str, heading: str, *details: RenderableType) -> None:
        heading = REDACTOR.scrub(heading)
        self.summary = heading
        self.set_classes(state)
        self.update(Group(Text(heading), *details) if details else Text(heading))

    def show_idle(self) -> None:
        self._show("idle", "No agent attached: queued requests appear as they come")

    def show_running(self, name: str) -> None:
        self._show("running", f"● Agent {name} is running")

    def show_finished(self, value: Any) -> None:
        if value is None:
            self._show("finished", "✔ Agent finished")
        else:
            # One wrapped paragraph, not one line per key: the timeline below must stay in view.
            returned = ReprHighlighter()(Text(REDACTOR.scrub(safe_repr(value))))
            self._show("finished", "✔ Agent finished and returned:", returned)

    def show_failed(self, error: BaseException) -> None:
        trace = "".join(traceback.format_exception(error)[-6:]).rstrip()
        self._show(
            "failed",
            f"✖ Agent failed: {error_text(error)}",
            Text(REDACTOR.scrub(trace), style="dim"),
        )


def safe_repr(value: Any) -> str:
    """`repr(value)`, or a placeholder naming its type when its `__repr__` raises."""
    try:
        return repr(value)
    except Exception as error:
        # The failure's message may quote what the object holds: only its type is shown.
        return f"<{type(value).__name__} object; its repr raised {type(error).__name__}>"


def error_text(error: BaseException) -> str:
    """`Type: message` for an exception, even one whose `__str__` raises."""
    try:
        message = str(error)
    except Exception as failure:
        message = f"<its message could not be read: {type(failure).__name__}>"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__

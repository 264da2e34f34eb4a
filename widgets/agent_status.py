"""The main screen's panel saying what the agent is doing, what it returned, or how it failed."""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.highlighter import ReprHighlighter
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tui.core.returned import returned_text
from widgets.literal import shown


class AgentStatus(Static):
    """Idle, running, serving, finished with a value, or failed with an exception (shown, not fatal).

    What the agent returned or raised is shown with every secret answered so far scrubbed.
    """

    summary: str = ""
    """The status in plain text, as its heading shows it."""

    def _show(
        self, state: str, heading: str, *details: RenderableType, whole: bool = False
    ) -> None:
        """Show `heading` over `details`: on one line, cut with an ellipsis, unless `whole`
        (then it wraps)."""
        heading = shown(heading)
        self.summary = heading
        self.set_classes(state)
        # Cut, a status keeps to its line: the waiting count beside it stays level with it.
        line = Text(heading) if whole else Text(heading, no_wrap=True, overflow="ellipsis")
        self.update(Group(line, *details) if details else line)

    def show_idle(self) -> None:
        self._show("idle", "No agent attached: queued requests appear as they come")

    def show_running(self, name: str) -> None:
        self._show("running", f"● Agent {name} is running")

    def show_activity(self, text: str) -> None:
        """What the running agent says it is doing."""
        self._show("running", f"● {text}")

    def show_serving(self, url: str, connections: int) -> None:
        """An MCP server is listening at `url`, with `connections` open from its clients."""
        open_ = f"{connections} connection{'' if connections == 1 else 's'}"
        self._show("running", f"◉ Serving MCP at {url} · {open_}")

    def show_attached(self, url: str, name: str, connected: bool) -> None:
        """This front end answers the inbox at `url` as `name`; `connected` False: reconnecting."""
        if connected:
            self._show("running", f"◉ Attached to {url} as {name}")
        else:
            self._show("idle", f"◌ Reconnecting to {url}…")

    def show_stopping(self, name: str) -> None:
        self._show("running", f"◌ Quitting: waiting for agent {name} to return (Ctrl+Q: quit now)")

    def show_finished(self, value: Any) -> None:
        text = returned_text(value)
        if text is None:
            self._show("finished", "✔ Agent finished")
        elif isinstance(text, dict):
            self._show("finished", "✔ Agent finished and returned:", answers_table(text))
        else:
            # One wrapped paragraph, not one line per key: the timeline below must stay in view.
            returned = ReprHighlighter()(Text(shown(text)))
            self._show("finished", "✔ Agent finished and returned:", returned)

    def show_failed(self, error: BaseException) -> None:
        """The error in full, then the last calls that led to it (not the error again)."""
        lines = traceback.format_exception(error)
        said = traceback.format_exception_only(error)
        if lines[-len(said) :] == said:
            del lines[-len(said) :]
        trace = "".join(lines[-5:]).rstrip()
        details = [Text(shown(trace), style="dim")] if trace else []
        self._show("failed", f"✖ Agent failed: {error_text(error)}", *details, whole=True)


def answers_table(value: Mapping[str, str]) -> Table:
    """Keys and values (`returned_text`'s) as two columns, each value on its own line(s),
    scrubbed."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for key, item in value.items():
        table.add_row(Text(shown(key)), Text(shown(item)))
    return table


def error_text(error: BaseException) -> str:
    """`Type: message` for an exception, even one whose `__str__` raises."""
    try:
        message = str(error)
    except Exception as failure:
        message = f"<its message could not be read: {type(failure).__name__}>"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__

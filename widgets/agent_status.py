"""The main screen's panel saying what the agent is doing, what it returned, or how it failed."""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.highlighter import ReprHighlighter
from rich.table import Table
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

from tui.core.error_text import RecordedFailure, error_text
from tui.core.returned import returned_text
from widgets.literal import shown

SUMMARY_SHARE = 1 / 3
"""Of the screen's height, what the table of what the agent returned may take with its
heading however many rows the timeline under it has; more where the timeline leaves more."""


class AgentStatus(Static):
    """Idle, running, serving, finished with a value, or failed with an exception (shown, not fatal).

    What the agent returned or raised is shown with every secret answered so far scrubbed.
    """

    summary: str = ""
    """The status in plain text, as its heading shows it."""

    _returned: Mapping[str, str] | None = None
    """What the agent returned, as a table's keys and values, while the status shows it."""

    def _show(
        self,
        state: str,
        heading: str,
        *details: RenderableType,
        whole: bool = False,
        returned: Mapping[str, str] | None = None,
    ) -> None:
        """Show `heading` over `details`: on one line, cut with an ellipsis, unless `whole`
        (then it wraps); `returned`: the table of what the agent returned is among them."""
        heading = shown(heading)
        self.summary = heading
        self._returned = returned
        self.set_classes(state)
        # Cut, a status keeps to its line: the waiting count beside it stays level with it.
        # (In a Group, as Textual draws a lone Text by its own rules, wrapping it.)
        line = Text(heading) if whole else Text(heading, no_wrap=True, overflow="ellipsis")
        self.update(Group(line, *details))

    def show_idle(self) -> None:
        self._show("idle", "No agent attached: queued requests appear as they come")

    def show_running(self, name: str) -> None:
        self._show("running", f"● Agent {name} is running")

    def show_activity(self, text: str) -> None:
        """What the running agent says it is doing."""
        self._show("running", f"● {text}")

    def show_serving(self, url: str, connections: int, front_ends: int = 0) -> None:
        """An MCP server is listening at `url`, with `connections` open from its clients,
        `front_ends` of them front ends attached (`attach`, `web`) to its inbox: said apart."""
        if front_ends:
            others = max(0, connections - front_ends)
            open_ = f"{_counted(front_ends, 'front end')} attached · {others} other connection"
            open_ += "" if others == 1 else "s"
        else:
            open_ = _counted(connections, "connection")
        self._show("running", f"◉ Serving MCP at {url} · {open_}")

    def show_served(self, url: str) -> None:
        """A replayed session of an inbox that served MCP at `url`: its questions came from
        other processes, and no agent of its own ran."""
        self._show("running", f"◉ Serving MCP at {url}")

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
            self._show_returned(text)
        else:
            # One wrapped paragraph, not one line per key: the timeline below must stay in view.
            returned = ReprHighlighter()(Text(shown(text)))
            self._show("finished", "✔ Agent finished and returned:", returned)

    def _show_returned(self, returned: Mapping[str, str]) -> None:
        """The table of what the agent returned, as many of its rows as fit its share of the
        screen, then a line naming the rest."""
        lines = max(2, self._room() - 1)
        width = self.content_size.width or self.app.size.width
        table = answers_table(returned, self.app.console, width, lines)
        self._show("finished", "✔ Agent finished and returned:", table, returned=returned)

    def _room(self) -> int:
        """The lines the status may take: what the widgets under its bar (the timeline) leave
        of the screen's main area, at least `SUMMARY_SHARE` of the screen, and never more
        than the bar's own `max-height`."""
        share = int(self.app.size.height * SUMMARY_SHARE)
        bar = self.parent
        if bar is None or not isinstance(main := bar.parent, Widget):
            return share
        needed = sum(widget.virtual_size.height for widget in main.children if widget is not bar)
        room = max(share, main.size.height - needed)
        if (cap := bar.styles.max_height) is not None:
            room = min(room, int(cap.resolve(main.size, self.app.size)))
        return room

    def on_resize(self) -> None:
        if self._returned is not None:
            self._show_returned(self._returned)

    def show_failed(self, error: BaseException) -> None:
        """The error in full, then the last calls that led to it (not the error again); a
        replayed failure without them (the replay's own are not the agent's)."""
        if isinstance(error, RecordedFailure):
            self._show("failed", f"✖ Agent failed: {error_text(error)}", whole=True)
            return
        lines = traceback.format_exception(error)
        said = traceback.format_exception_only(error)
        if lines[-len(said) :] == said:
            del lines[-len(said) :]
        trace = "".join(lines[-5:]).rstrip()
        details = [Text(shown(trace), style="dim")] if trace else []
        self._show("failed", f"✖ Agent failed: {error_text(error)}", *details, whole=True)


def answers_table(
    value: Mapping[str, str], console: Console, width: int, lines: int
) -> RenderableType:
    """Keys and values (`returned_text`'s) as two columns, each value on its own line(s),
    scrubbed, in at most `lines` lines of `width` cells: the rows that fit, then
    "+N more: key, key, …" on one line."""
    rows = [(Text(shown(key)), Text(shown(item))) for key, item in value.items()]
    key_width = max(cell_len(key.plain) for key, _ in rows)
    options = console.options.update_width(width)
    heights: list[int] = []
    for row in rows:
        if sum(heights) > lines:
            break
        heights.append(len(console.render_lines(_grid([row], key_width), options, pad=False)))
    if sum(heights) <= lines and len(heights) == len(rows):
        return _grid(rows, key_width)
    kept = 0
    while kept < len(heights) and sum(heights[: kept + 1]) <= lines - 1:
        kept += 1
    left = ", ".join(key.plain for key, _ in rows[kept:])
    more = Text(f"+{len(rows) - kept} more: {left}", style="dim", no_wrap=True, overflow="ellipsis")
    return Group(_grid(rows[:kept], key_width), more) if kept else more


def _grid(rows: list[tuple[Text, Text]], key_width: int) -> Table:
    """`rows` of a key and its value, the keys in a column `key_width` cells wide."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True, width=key_width)
    table.add_column(overflow="fold")
    for key, item in rows:
        table.add_row(key, item)
    return table


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"

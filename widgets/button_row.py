"""Buttons side by side, or one under another where the row is too narrow for them all."""

from __future__ import annotations

from textual import events
from textual.containers import Horizontal
from textual.widgets import Button


class ButtonRow(Horizontal):
    """A row of buttons that stacks them, with the class `-stacked`, while their widths side
    by side are more than it has: beside each other they were cut at its right edge. (The
    stacking is styled where it is used: CSS of its own would be parsed as a dialog first
    shows one, keys typed then waiting for it.)"""

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width:
            self.set_class(self.side_by_side_width() > event.size.width, "-stacked")

    def side_by_side_width(self) -> int:
        """The cells the buttons take beside each other: each its label on one line, with its
        edges (at least its least width), and its margins."""
        width = 0
        for button in self.query_children(Button):
            styles = button.styles
            least = styles.min_width.cells if styles.min_width is not None else None
            own = button.get_content_width(self.size, self.app.size) + styles.gutter.width
            width += max(own, least or 0) + styles.margin.width
        return width

"""A mark where a box that scrolls cuts text off: its last row in view ends in …."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

if TYPE_CHECKING:
    from textual.geometry import Region

ELLIPSIS = "…"


class CutMark:
    """Mixed into a widget in a box that scrolls (its parent): while more of the box is below
    its bottom edge, the row of this widget that the edge cuts under ends in `…`, after its
    last character (or in place of the row's last, if full); a blank row there, the row of
    text above it. Without it, a question or an argument cut there read as whole:
    `"command": "uv run pytest` and nothing more.

    Not a widget itself: Textual takes a widget's CSS type and component classes from its
    first widget base, which must stay the widget it is mixed into (`Static`, `OptionList`)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        assert isinstance(self, Widget)
        lines: list[Strip] = super().render_lines(crop)  # type: ignore[misc]
        box = self.parent
        if not isinstance(box, Widget) or crop.x or box.scroll_y >= box.max_scroll_y:
            return lines
        # The row the box's bottom edge cuts under, counted from this widget's top.
        view = box.scrollable_content_region.height
        last = round(box.scroll_y) + view - 1 - self.virtual_region.y
        if not crop.y <= last < crop.bottom:
            return lines
        # A blank row there (between paragraphs) takes no mark: the text above it in view does.
        top = max(crop.y, round(box.scroll_y) - self.virtual_region.y)
        while last > top and not lines[last - crop.y].text.strip():
            last -= 1
        right = crop.width - self.styles.gutter.right
        marked = list(lines)
        marked[last - crop.y] = _ending_in_ellipsis(lines[last - crop.y], right)
        return marked


class CutText(CutMark, Static):
    """A `Static` whose row cut by the bottom edge of the box it scrolls in ends in …."""


def _ending_in_ellipsis(row: Strip, right: int) -> Strip:
    """`row` with … after its last character, or on the cell before `right` if it is full."""
    text = row.text.rstrip()
    at = min(cell_len(text), right - 1)
    if at < 0:
        return row
    style = next(iter(row.crop(at - 1, at)), Segment("")).style if at else None
    return Strip.join([row.crop(0, at), Strip([Segment(ELLIPSIS, style)]), row.crop(at + 1)])

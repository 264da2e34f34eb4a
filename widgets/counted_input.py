"""A one-line `Input` that shows a count at its right end, after what is typed (a batch's
filter: how many options it lets through)."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.geometry import Region, Spacing
from textual.reactive import reactive
from textual.strip import Strip
from textual.widgets import Input

from widgets.ellipsis_input import EllipsisInput


class CountedInput(EllipsisInput):
    """An `Input` that draws `count` ("(3 of 12)") in its right padding, which grows to hold it:
    the text typed scrolls before it, never under it. An empty count draws nothing."""

    COMPONENT_CLASSES: ClassVar[set[str]] = Input.COMPONENT_CLASSES | {"counted-input--count"}
    """
    | Class | Description |
    | :- | :- |
    | `counted-input--count` | The count (its color and style, on the input's background). |
    """

    count: reactive[str] = reactive("")
    """What the right end shows; "" for nothing."""

    def watch_count(self, count: str) -> None:
        # A cell of padding, the count, a cell after it; without a count, as wide as the left.
        top, _, bottom, left = self.styles.padding
        self.styles.padding = Spacing(top, cell_len(count) + 2 if count else left, bottom, left)

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        count = self.count
        width = self.outer_size.width
        start = width - cell_len(count) - 1
        if not count or not lines or crop.y > 0 or crop.right <= start:
            return lines
        drawn = self._count_strip(count, width - start)
        first = lines[0]
        before = first.crop(0, max(0, start - crop.x))
        lines[0] = Strip.join([before, drawn.crop(max(0, crop.x - start), crop.right - start)])
        return lines

    def _count_strip(self, count: str, cells: int) -> Strip:
        """`count` padded to `cells`, in its component style on the input's background."""
        background = self.background_colors[1]
        styles = self.get_component_styles("counted-input--count")
        color = background + styles.color
        style = self.rich_style + RichStyle(color=color.rich_color) + styles.text_style
        strip = Strip([Segment(count, style)]).crop_extend(0, cells, style)
        for line_filter in self.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        return strip

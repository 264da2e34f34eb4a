"""A one-line `Input` that draws its own label to its left, as a label and an input side by
side would be drawn, in one widget."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Input

from widgets.ellipsis_input import EllipsisInput


class LabelledInput(EllipsisInput):
    """An `Input` whose label (a batch's `Other` and `Note`, a tool approval's deny reason) is
    drawn in its left padding.

    Its CSS gives it a left padding one cell wider than the label column: the label fills
    the column, in its component style over the background the input is drawn on (not the
    input's own), and the last cell pads the text as an input's padding does. It looks as a
    `Label` and an `Input` in a `Horizontal` do, but is one widget to mount, style and lay
    out instead of three: a batch's first frame has two such lines, and a Deny mounts one
    while the keys typed after it wait. A click on the label focuses the input and leaves its
    cursor where it was.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = Input.COMPONENT_CLASSES | {"labelled-input--label"}
    """
    | Class | Description |
    | :- | :- |
    | `labelled-input--label` | The label (its color; the background is the one under the input). |
    """

    def __init__(self, label: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.label = label

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if event.get_content_offset_capture(self).x < 0:
            # On the label: the field takes the focus, the cursor stays where it was (Input
            # would put it on a character scrolled off to the left, or start a selection).
            event.prevent_default()

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        column = self.styles.padding.left - 1
        if crop.x >= column or not lines:
            return lines
        label = self._label_strip(column).crop(crop.x, min(column, crop.right))
        return [
            Strip.join([label, line.crop(label.cell_length)]) if y == 0 else line
            for y, line in enumerate(lines, crop.y)
        ]

    def _label_strip(self, column: int) -> Strip:
        """The label padded (or cut) to `column` cells, on the background under the input."""
        base_background, _ = self.background_colors
        styles = self.get_component_styles("labelled-input--label")
        color = styles.color
        if styles.auto_color:
            # `$text-muted` is "auto 60%": text that contrasts with what it is drawn on, as
            # Textual draws it (taken as it is, white at 60%, unread on a light theme).
            color = base_background.get_contrast_text(color.a)
        color = base_background + color
        style = (
            RichStyle(color=color.rich_color, bgcolor=base_background.rich_color)
            + styles.text_style
        )
        strip = Strip([Segment(self.label, style)]).crop_extend(0, column, style)
        for line_filter in self.get_line_filters():
            strip = strip.apply_filter(line_filter, base_background)
        return strip

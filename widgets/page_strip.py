"""A batch's tab strip in one widget: a label per page, the page shown underlined."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.content import Content
from textual.css.styles import RulesMap
from textual.message import Message
from textual.renderables.bar import Bar
from textual.strip import Strip
from textual.visual import RenderOptions
from textual.widget import Widget

PADDING = 1
"""Blank cells either side of a label, as a tab's."""


class PageStrip(Widget):
    """The labels side by side over a bar, the shown page's label bold and underlined on the
    bar; clicking a label (or the bar under it) asks for its page (`Chosen`).

    It looks as Textual's `Tabs` do, drawn by one widget in two lines instead of a dozen
    widgets (a tab each, and the containers and underline around them): a batch's first frame
    mounts, styles and lays out each of those. Nothing here takes the focus: keys belong to
    the page under the strip.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "page-strip--label",
        "page-strip--label-shown",
        "page-strip--label-hover",
        "page-strip--bar",
    }
    """
    | Class | Description |
    | :- | :- |
    | `page-strip--label` | A page's label. |
    | `page-strip--label-shown` | The label of the page shown. |
    | `page-strip--label-hover` | The label under the mouse. |
    | `page-strip--bar` | The bar: its color underlines the page shown, its background the rest. |
    """

    class Chosen(Message):
        """Page `page` was clicked."""

        def __init__(self, strip: PageStrip, page: int) -> None:
            super().__init__()
            self.strip = strip
            self.page = page

        @property
        def control(self) -> PageStrip:
            return self.strip

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._labels: list[Content] = []
        self._shown: int | None = None
        self._hover: int | None = None

    def show(self, labels: Sequence[Content], shown: int | None) -> None:
        """Label the pages `labels`, with page `shown` (None: none) underlined."""
        labels = list(labels)
        if labels != self._labels or shown != self._shown:
            self._labels = labels
            self._shown = shown
            self.refresh()

    @property
    def labels(self) -> list[Content]:
        return list(self._labels)

    @property
    def shown(self) -> int | None:
        """The page underlined, if any."""
        return self._shown

    def _extents(self) -> list[tuple[int, int]]:
        """Each label's first cell and the cell after it."""
        extents = []
        start = 0
        for label in self._labels:
            extents.append((start + PADDING, start + PADDING + label.cell_length))
            start += label.cell_length + 2 * PADDING
        return extents

    def page_at(self, x: int) -> int | None:
        """The page whose label (with its padding) covers column `x`, if any."""
        for page, (start, end) in enumerate(self._extents()):
            if start - PADDING <= x < end + PADDING:
                return page
        return None

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.visual_style.rich_style
        if y == 0:
            line = self._labels_line()
        elif y == 1:
            line = self._bar_line(width)
        else:
            return Strip.blank(width, base)
        return line.crop_extend(0, width, base)

    def _labels_line(self) -> Strip:
        # The widget's styles answer the rule lookups, as Textual passes them to a visual.
        options = RenderOptions(self._get_style, cast("RulesMap", self.styles))
        parts = []
        for page, label in enumerate(self._labels):
            names = ["page-strip--label"]
            if page == self._hover:
                names.append("page-strip--label-hover")
            if page == self._shown:
                names.append("page-strip--label-shown")
            style = self.get_visual_style(*names)
            pad = Strip.blank(PADDING, style.rich_style)
            parts += [pad, *label.render_strips(label.cell_length, 1, style, options), pad]
        return Strip.join(parts)

    def _bar_line(self, width: int) -> Strip:
        bar_style = self.get_component_rich_style("page-strip--bar")
        extents = self._extents()
        shown = extents[self._shown] if self._shown is not None else (0, 0)
        bar = Bar(
            highlight_range=shown,
            highlight_style=RichStyle.from_color(bar_style.color),
            background_style=RichStyle.from_color(bar_style.bgcolor),
        )
        console = self.app.console
        [segments] = console.render_lines(bar, console.options.update_width(width), pad=False)
        return Strip(Segment.apply_style(segments, self.visual_style.rich_style), width)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        page = self.page_at(event.x)
        if page is not None:
            self.post_message(self.Chosen(self, page))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self.page_at(event.x))

    def on_leave(self) -> None:
        self._set_hover(None)

    def _set_hover(self, page: int | None) -> None:
        if page != self._hover:
            self._hover = page
            self.refresh()

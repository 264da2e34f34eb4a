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

CUT = "…"
"""Drawn over the first or last cell where labels too wide for the strip are cut."""


class PageStrip(Widget):
    """The labels side by side over a bar, the shown page's label lit (bold and underlined
    without colours) and underlined on the bar; clicking a label (or the bar under it) asks
    for its page (`Chosen`). Labels wider than the strip are scrolled to put the shown one in
    the middle, `…` where they are cut.

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
    | `page-strip--label` | A page's label, and the `…` where labels are cut. |
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
        """Each label's first cell and the cell after it, from the first label's padding."""
        extents = []
        start = 0
        for label in self._labels:
            extents.append((start + PADDING, start + PADDING + label.cell_length))
            start += label.cell_length + 2 * PADDING
        return extents

    def _scrolled(self, extents: list[tuple[int, int]], width: int) -> int:
        """The columns of labels scrolled off to the left: none where they all fit, else as
        many as put the shown label in the middle, as far as the labels go."""
        total = extents[-1][1] + PADDING if extents else 0
        if total <= width or self._shown is None:
            return 0
        start, end = extents[self._shown]
        return max(0, min((start + end - width) // 2, total - width))

    def page_at(self, x: int) -> int | None:
        """The page whose label (with its padding) is drawn at column `x`, if any."""
        extents = self._extents()
        x += self._scrolled(extents, self.size.width)
        for page, (start, end) in enumerate(extents):
            if start - PADDING <= x < end + PADDING:
                return page
        return None

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.visual_style.rich_style
        extents = self._extents()
        scrolled = self._scrolled(extents, width)
        if y == 0:
            return self._labels_line(scrolled, width).crop_extend(0, width, base)
        if y == 1:
            bar = self._bar_line(extents, scrolled + width)
            return bar.crop_extend(scrolled, scrolled + width, base)
        return Strip.blank(width, base)

    def _labels_line(self, scrolled: int, width: int) -> Strip:
        """The labels in view, `…` over the first or last cell where more are cut off."""
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
        labels = Strip.join(parts)
        line = labels.crop(scrolled, scrolled + width)
        cut = Strip([Segment(CUT, self.get_visual_style("page-strip--label").rich_style)], 1)
        if scrolled:
            line = Strip.join([cut, line.crop(1, width)])
        if scrolled + width < labels.cell_length:
            line = Strip.join([line.crop(0, width - 1), cut])
        return line

    def _bar_line(self, extents: list[tuple[int, int]], width: int) -> Strip:
        bar_style = self.get_component_rich_style("page-strip--bar")
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

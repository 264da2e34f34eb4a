"""A container whose height is its content's, but at most a share of the screen's height."""

from __future__ import annotations

from typing import ClassVar

from textual.geometry import Size
from textual.widget import Widget


class ScreenShare(Widget):
    """Mixed in after a container class: at most `SHARE` of the screen's height, less
    `reserved` rows, and as high as its content otherwise; what it holds scrolls within that
    (a child's `max-height: 100%`, or the container's own scrolling).

    Not `max-height: 40vh` in CSS: measuring the height of a parent whose height is its
    content's, Textual leaves a relative max-height out. The parent is then as tall as the
    content uncut, with blank rows once the content is laid out cut, and a dialog is judged
    too tall for the screen when it is not.

    After the container class, not before: Textual takes CSS (and the container's own, such
    as its layout) from the first base class only."""

    SHARE: ClassVar[float]
    reserved = 0
    """Rows of the share given to a widget beside this one (a filter line above it)."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        content = super().get_content_height(container, viewport, width)
        return min(content, int(viewport.height * self.SHARE) - self.reserved)

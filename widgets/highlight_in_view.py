"""Keep a list's highlighted option on screen when the dialog's body hides part of the list."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import OptionList


def scroll_to_highlight(body: Widget, options: OptionList) -> None:
    """Scroll `body`, a scrolling container that holds `options`, so that the highlighted
    option is within it.

    A list scrolls itself to its highlight, but it can be taller than the room the body has
    for it (a short terminal, a long description above the list): the body then hides part
    of the list, and the highlight could move there unseen. Read from the last layout.
    """
    highlighted = options.highlighted
    if highlighted is None or not (options.is_mounted and body.is_mounted):
        return
    # Textual has no public API for where an option's lines are in its list.
    try:
        line = options._index_to_line[highlighted]
        rows = options._heights[highlighted]
    except (KeyError, IndexError):
        return
    top = (
        options.content_region.y
        + line
        - round(options.scroll_y)
        - body.content_region.y
        + round(body.scroll_y)
    )
    body.scroll_to_region(Region(0, top, 1, rows), animate=False, immediate=True)

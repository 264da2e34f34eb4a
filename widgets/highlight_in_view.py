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
    region = highlight_region(body, options)
    if region is not None:
        body.scroll_to_region(region, animate=False, immediate=True)


def highlight_region(body: Widget, options: OptionList) -> Region | None:
    """Where the highlighted option of `options` is in `body`, a scrolling container that
    holds them (its rows from the top of the body's content), as last laid out; None with
    no highlight."""
    highlighted = options.highlighted
    if highlighted is None or not (options.is_mounted and body.is_mounted):
        return None
    # Textual has no public API for where an option's lines are in its list.
    try:
        line = options._index_to_line[highlighted]
        rows = options._heights[highlighted]
    except (KeyError, IndexError):
        return None
    top = (
        options.content_region.y
        + line
        - round(options.scroll_y)
        - body.content_region.y
        + round(body.scroll_y)
    )
    return Region(0, top, 1, rows)

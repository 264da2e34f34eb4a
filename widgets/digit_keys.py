"""What a digit typed on a list does: text for a long list's filter when its options hold it
(ports, versions), else the number of an option, only if that number is on screen."""

from __future__ import annotations

import re
from collections.abc import Iterable

from textual.errors import NoWidget
from textual.widgets import OptionList

DIGITS = frozenset("123456789")
"""The digits that can pick an option by its number ("0" numbers none)."""


def digits_after(text: str, haystacks: Iterable[str]) -> frozenset[str]:
    """The digits 1–9 that follow `text` somewhere in `haystacks`, in any case: the digits a
    filter holding `text` would still match something with ("8" among ports for "", "2"
    after "us-0" in "us-02")."""
    # One string searched once: a list of 100,000 words is read in a few milliseconds. A
    # typed text holds no newline, so no match runs from one haystack into the next.
    folded = "\n".join(haystacks).casefold()
    if not text:
        return frozenset(digit for digit in DIGITS if digit in folded)
    # Looked for at every position (a lookahead takes up nothing): "1" then "2" in "112".
    return frozenset(re.findall(f"(?={re.escape(text.casefold())}([1-9]))", folded))


def number_in_view(options: OptionList, index: int) -> bool:
    """Whether option `index` shows its number on screen: its first line, where the number
    is drawn, within the list's scrolled window and not hidden by what holds the list (a
    dialog's body scrolled).

    A list not laid out yet (keys typed as its dialog opens) will show its highlighted
    option: its numbers are in view if that one is numbered.
    """
    try:
        visible = options.screen.find_widget(options).visible_region
    except NoWidget:
        highlighted = options.highlighted
        return highlighted is None or highlighted < len(DIGITS)
    # Textual has no public API for where an option's lines are in its list.
    options._update_lines()
    try:
        line = options._index_to_line[index]
    except (KeyError, IndexError):
        return False
    area = options.content_region.intersection(visible)
    y = options.content_region.y + line - round(options.scroll_y)
    return area.y <= y < area.bottom

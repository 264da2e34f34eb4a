"""A SelectionList whose ticks read without colour: ☑ ticked, ☐ not, as everywhere in the app."""

from __future__ import annotations

from typing import ClassVar

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.strip import Strip
from textual.widgets import OptionList, SelectionList
from textual.widgets.option_list import OptionDoesNotExist

from widgets.contrast import READABLE, contrast_ratio

TICKED, UNTICKED = "☑", "☐"
"""The marks of a ticked and an unticked option, in checklists, forms and question batches."""

PICKED, NOT_PICKED = "●", "○"
"""The marks of the picked option of a pick-one list and of the others."""


class Checklist(SelectionList[str]):
    """Options with a `☑`/`☐` before each: the state shows in the glyph, not only its colour;
    the footer offers Space to tick. An option longer than its line wraps, the rest of it
    under its first character."""

    DEFAULT_CSS = """
    Checklist {
        text-wrap: wrap;
        text-overflow: fold;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "select", "Tick")]
    """
    | Key(s) | Description |
    | :- | :- |
    | space | Tick or untick the highlighted option. |
    """

    def _on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # A highlight can arrive after the options were replaced (the modal was reloaded with
        # the next question): SelectionList's own handler, run after this one unless
        # prevented, would look its index up in the new options.
        if event.option_index >= self.option_count:
            event.stop()
            event.prevent_default()

    def _get_left_gutter_width(self) -> int:
        return len(TICKED) + 1

    def render_line(self, y: int) -> Strip:
        # OptionList's line, not SelectionList's: that one draws a coloured ▐X▌ either way.
        line = OptionList.render_line(self, y)
        try:
            index, line_in_option = self._lines[self.scroll_offset.y + y]
            selection = self.get_option_at_index(index)
        except (IndexError, OptionDoesNotExist):
            return line
        underlying = next(iter(line)).style or self.rich_style
        if line_in_option:
            # An option's wrapped line: its mark is on its first line.
            return Strip([Segment(" " * self._get_left_gutter_width(), underlying), *line])
        ticked = selection.value in self._selected
        # Ticked in the theme's success colour where it reads on the row (not on the
        # highlighted row's shade, nor on a light theme's grey); else, and unticked, in the
        # text's own (the button's unticked colour is meant for a filled ▐X▌ and all but
        # vanishes as a glyph). The glyph tells the two apart either way.
        color = underlying.color
        success = self.get_component_rich_style("selection-list--button-selected").color
        if ticked and _reads_on(success, underlying.bgcolor):
            color = success
        mark_style = Style(color=color, bgcolor=underlying.bgcolor, meta={"option": index})
        return Strip(
            [
                Segment(TICKED if ticked else UNTICKED, mark_style),
                Segment(" ", underlying),
                *line,
            ]
        )


class NumberedChecklist(Checklist):
    """A form's checklist, its first nine rows numbered: 1–9 tick or untick the row of that
    number and move the cursor there, as in a list of choices."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(n), f"toggle_number({n})", "Tick", show=n == 1, key_display="1-9")
        for n in range(1, 10)
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | 1-9 | Tick or untick the numbered option. |
    """

    def action_toggle_number(self, number: int) -> None:
        if number <= self.option_count:
            self.highlighted = number - 1
            self.toggle(self.get_option_at_index(number - 1))


def _reads_on(color: Color | None, background: Color | None) -> bool:
    """Whether a mark in `color` can be told from `background` (unknown colours: yes)."""
    if color is None or background is None:
        return color is not None
    return contrast_ratio(color, background) >= READABLE

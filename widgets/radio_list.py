"""A form's pick-one list, whose cursor is its choice."""

from __future__ import annotations

from textual.strip import Strip
from textual.widgets import OptionList


class RadioList(OptionList):
    """An `OptionList` whose highlighted option is the one chosen (None: none is).

    Focused with nothing chosen, it draws its cursor on the first row all the same, so the
    person sees where they are; that chooses nothing: Down picks that row, Up the last.
    """

    def render_line(self, y: int) -> Strip:
        line = self.scroll_offset.y + y
        if self.highlighted is None and self.has_focus and line < len(self._lines):
            index, offset = self._lines[line]
            if index == 0:
                style = self.get_visual_style(
                    "option-list--option", "option-list--option-highlighted"
                )
                return self._get_option_render(self.options[0], style)[offset]
        return super().render_line(y)

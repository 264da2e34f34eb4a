"""A form's pick-one list, whose cursor is its choice."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.strip import Strip
from textual.widgets import OptionList


class RadioList(OptionList):
    """An `OptionList` whose highlighted option is the one chosen (None: none is).

    Focused with nothing chosen, it draws its cursor on the first row all the same, so the
    person sees where they are; that chooses nothing: Down or Space picks that row, Up the
    last. 1–9 pick the option of that number, as in a list of choices; 0 the row that
    stands for no value, "(none)", which leads the list of an optional pick (its id is None).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(str(n), f"pick({n})", "Pick", show=n == 1, key_display="1-9")
            for n in range(1, 10)
        ),
        Binding("0", "pick(0)", "None", show=False),
        Binding("space", "pick_shown", "Pick", show=False),
    ]

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

    def action_pick(self, number: int) -> None:
        """Pick the row numbered `number`, if there is one."""
        index = number if self._leads_with_none() else number - 1
        if 0 <= index < self.option_count:
            self.highlighted = index

    def _leads_with_none(self) -> bool:
        return bool(self.option_count) and self.get_option_at_index(0).id is None

    def action_pick_shown(self) -> None:
        """Pick the row the cursor is drawn on: the first, while nothing is picked."""
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

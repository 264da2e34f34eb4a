"""A checklist that stays quick with 100,000 options: its entries build their prompts when first
drawn, and it measures them by their text (see `widgets.long_lists`)."""

from __future__ import annotations

from textual.widgets.option_list import Option as ListOption
from textual.widgets.selection_list import Selection

from widgets.checklist import Checklist
from widgets.long_lists import LazyPrompt, PromptBuilder, TextMeasuredList


class LazySelection(LazyPrompt, Selection[str]):
    """A checklist entry of one line whose prompt is built when first drawn."""

    def __init__(self, cells: int, build: PromptBuilder, value: str, initial_state: bool) -> None:
        """`cells`: the width of the entry's one line, as `build` draws it."""
        # Selection.__init__ would build the prompt now; set what it sets, without that.
        ListOption.__init__(self, "")
        self._value = value
        self._initial_state = initial_state
        self.line_cells = [cells]
        self._build = build


class LongSelectionList(Checklist, TextMeasuredList):
    """A SelectionList that measures `LazySelection`s by their text instead of laying them out."""

    @property
    def built_count(self) -> int:
        """How many option prompts have been built so far."""
        return sum(not isinstance(o, LazyPrompt) or o.built for o in self.options)

"""Option lists that stay quick with 100,000 options.

Textual's `OptionList` lays out every prompt to learn its height, several times per layout.
Here a prompt is built only when its row is first drawn, and a row's height comes from the
width of its lines: a prompt whose lines all fit is as many rows as it has lines; only a
line wider than the list is laid out (wrapped) by Textual to count its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from rich.cells import cell_len
from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Size
from textual.visual import VisualType
from textual.widgets import OptionList
from textual.widgets.option_list import Option as ListOption
from textual.widgets.selection_list import Selection

from widgets.checklist import Checklist

PromptBuilder = Callable[[], Content]
"""Builds an option's prompt, the first time the option is drawn."""


class _LazyPrompt(ListOption):
    """The prompt is built by `_build` on first use; `line_cells` are its lines' widths."""

    line_cells: list[int]
    _build: PromptBuilder | None

    @property
    def prompt(self) -> VisualType:
        if self._build is not None:
            self._prompt, self._build = self._build(), None
        return self._prompt

    @property
    def built(self) -> bool:
        """Whether the prompt has been built (the option has been drawn or measured)."""
        return self._build is None


class LazyOption(_LazyPrompt):
    """An option whose prompt is built when first drawn; `lines` is its text, line by line."""

    def __init__(self, lines: Sequence[str], build: PromptBuilder, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.line_cells = [cell_len(line) for line in lines]
        self._build = build


class LazySelection(_LazyPrompt, Selection[str]):
    """A checklist entry of one line whose prompt is built when first drawn."""

    def __init__(self, line: str, build: PromptBuilder, value: str, initial_state: bool) -> None:
        # Selection.__init__ would build the prompt now; set what it sets, without that.
        ListOption.__init__(self, "")
        self._value = value
        self._initial_state = initial_state
        self.line_cells = [cell_len(line)]
        self._build = build


def _rows(option_list: OptionList, option: ListOption, width: int) -> int:
    """How many rows `option` takes at `width` cells, without laying out lines that fit."""
    if isinstance(option, _LazyPrompt) and max(option.line_cells, default=0) <= width:
        return max(1, len(option.line_cells))
    return option_list._get_visual(option).get_height(cast(RulesMap, option_list.styles), width)


def content_height(option_list: OptionList, width: int) -> int:
    """The height of every option at `width`, dividers between them included."""
    padding = option_list.get_component_styles("option-list--option").padding.width
    options = option_list.options
    rows = sum(_rows(option_list, option, width - padding) for option in options)
    dividers = sum(option._divider for option in options[:-1])
    return rows + dividers


def update_lines(option_list: OptionList) -> None:
    """OptionList's line map (which option each row shows), counted with `_rows`."""
    region = option_list.scrollable_content_region
    if not region:
        return
    cache = option_list._line_cache
    lines = cache.lines
    options = option_list.options
    next_index = lines[-1][0] + 1 if lines else 0
    width = region.width - option_list._get_left_gutter_width()
    if next_index < len(options):
        padding = option_list.get_component_styles("option-list--option").padding.width
        for index, option in enumerate(options[next_index:], next_index):
            cache.index_to_line[index] = len(lines)
            count = _rows(option_list, option, width - padding) + option._divider
            cache.heights[index] = count
            lines.extend((index, line) for line in range(count))
    last_divider = bool(options) and options[-1]._divider
    virtual_size = Size(width, len(lines) - last_divider)
    if virtual_size != option_list.virtual_size:
        option_list.virtual_size = virtual_size
        option_list._scroll_update(virtual_size)


class LongOptionList(OptionList):
    """An OptionList that measures `LazyOption`s by their text instead of laying them out."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return content_height(self, width)

    def _update_lines(self) -> None:
        update_lines(self)

    @property
    def built_count(self) -> int:
        """How many option prompts have been built so far."""
        return sum(not isinstance(o, _LazyPrompt) or o.built for o in self.options)


class LongSelectionList(Checklist):
    """A SelectionList that measures `LazySelection`s by their text instead of laying them out."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return content_height(self, width)

    def _update_lines(self) -> None:
        update_lines(self)

    @property
    def built_count(self) -> int:
        """How many option prompts have been built so far."""
        return sum(not isinstance(o, _LazyPrompt) or o.built for o in self.options)

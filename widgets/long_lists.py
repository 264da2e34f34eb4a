"""Option lists that stay quick with 100,000 options (the checklist built on this is in
`widgets.long_selection_list`).

Textual's `OptionList` makes an object per option up front, lays out every prompt to learn
its height (several times per layout), and keeps a tuple per screen line. Here:

* `LongOptionList.show_rows` takes the options' texts and a function that makes option `i`;
  an option is made the first time anything reads it (drawing its row, moving onto it), so a
  question shows after making the rows on screen, not one object per option.
* A row's height comes from the width of its lines: a row whose lines all fit is as many
  screen lines as it has lines; only a line wider than the list is laid out by Textual. When
  every text is one line of printable ASCII, that is known for all rows at once.
* `LineMap` answers "which option is on line y" from the rows' first lines in one array
  (a `range` when every row is one line), in place of Textual's tuple per line.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import accumulate
from typing import Any, TypeVar, cast, overload

from rich.cells import cell_len
from textual.css.styles import RulesMap
from textual.geometry import Size
from textual.visual import Visual, VisualType
from textual.widgets import OptionList
from textual.widgets.option_list import Option as ListOption

PromptBuilder = Callable[[], Visual]
"""Builds an option's prompt, the first time the option is drawn."""

RowMaker = Callable[[int], ListOption]
"""Makes the option at an index, the first time it is read."""

T = TypeVar("T")


class LazyPrompt(ListOption):
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


class _View(Sequence[T]):
    """A sequence whose item `i` is `item(indexes[i])`, computed when read; a slice is a
    view too. Negative indexes and IndexError work as in a list."""

    def __init__(self, item: Callable[[int], T], indexes: range) -> None:
        self._item = item
        self._indexes = indexes

    def __len__(self) -> int:
        return len(self._indexes)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return _View(self._item, self._indexes[index])
        return self._item(self._indexes[index])


class LazyRows(_View[ListOption]):
    """Options made on first read: option `i` is `make(i)`, its text `texts[i]`.

    A text is what the option shows, its lines split at newlines, each line drawn after
    `indent` cells (a number or a margin): enough to know the option's height unmade.
    The options have no ids and no dividers.
    """

    def __init__(self, texts: Sequence[str], make: RowMaker, indent: int = 0) -> None:
        super().__init__(self._option, range(len(texts)))
        self.texts = texts
        self._make = make
        self._indent = indent
        self.made: dict[int, ListOption] = {}
        """The options made so far, by index."""
        self.index_of: dict[ListOption, int] = {}
        """The index of each option made so far (what OptionList keeps as `_option_to_index`)."""
        self._widest_line: int | None = None
        self._heights: dict[int, Sequence[int]] = {}

    def _option(self, index: int) -> ListOption:
        option = self.made.get(index)
        if option is None:
            option = self.made[index] = self._make(index)
            self.index_of[option] = index
        return option

    def heights(self, width: int, measure: Callable[[ListOption], int]) -> Sequence[int]:
        """Each option's height in lines at `width` cells; `measure` lays out an option whose
        text does not fit (and so makes it)."""
        heights = self._heights.get(width)
        if heights is None:
            heights = self._heights[width] = self._measure_all(width, measure)
        return heights

    def _measure_all(self, width: int, measure: Callable[[ListOption], int]) -> Sequence[int]:
        if self._widest_line is None:
            joined = "".join(self.texts)
            # printable ASCII: one line each, as many cells as characters
            simple = joined.isascii() and joined.isprintable()
            self._widest_line = max(map(len, self.texts), default=0) if simple else -1
        if self._widest_line >= 0 and self._widest_line + self._indent <= width:
            return _Ones(len(self))
        return [self._height(i, text, width, measure) for i, text in enumerate(self.texts)]

    def _height(
        self, index: int, text: str, width: int, measure: Callable[[ListOption], int]
    ) -> int:
        lines = text.split("\n")
        if max(map(cell_len, lines)) + self._indent <= width:
            return len(lines)
        return measure(self[index])


class _Ones(_View[int]):
    """`count` ones: the heights of options that are one line each."""

    def __init__(self, count: int) -> None:
        super().__init__(lambda _: 1, range(count))


class LineMap:
    """OptionList's line cache from the options' heights, without a tuple per line.

    Textual's OptionList reads `lines[y]` (the option on line y and the line within it),
    `heights[i]` and `index_to_line[i]` (option i's height and first line) and calls
    `clear()`; `fill` sets them from the heights (dividers counted in).
    """

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.starts: Sequence[int] = range(1)
        """Each option's first line, then the line after the last option."""
        self.filled: tuple[int, int] | None = None
        """The option count and width the map was filled for, or None."""

    def fill(self, heights: Sequence[int], width: int) -> None:
        if isinstance(heights, _Ones):
            self.starts = range(len(heights) + 1)
        else:
            self.starts = array("q", accumulate(heights, initial=0))
        self.filled = (len(heights), width)

    @property
    def lines(self) -> Sequence[tuple[int, int]]:
        return _View(self._line, range(self.starts[-1]))

    @property
    def heights(self) -> Mapping[int, int]:
        return _Lookup(lambda index: self.starts[index + 1] - self.starts[index], self.count)

    @property
    def index_to_line(self) -> Mapping[int, int]:
        return _Lookup(self.starts.__getitem__, self.count)

    @property
    def count(self) -> int:
        """How many options the map holds."""
        return len(self.starts) - 1

    def _line(self, y: int) -> tuple[int, int]:
        index = bisect_right(self.starts, y) - 1
        return index, y - self.starts[index]


class _Lookup(Mapping[int, int]):
    """`value(i)` for `i` in `range(count)`; KeyError for any other key, as in a dict."""

    def __init__(self, value: Callable[[int], int], count: int) -> None:
        self._value = value
        self._count = count

    def __getitem__(self, index: int) -> int:
        if not 0 <= index < self._count:
            raise KeyError(index)
        return self._value(index)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[int]:
        return iter(range(self._count))


def _option_padding(option_list: OptionList) -> int:
    return option_list.get_component_styles("option-list--option").padding.width


def _rows(option_list: OptionList, option: ListOption, width: int) -> int:
    """How many rows `option` takes at `width` cells, without laying out lines that fit."""
    if isinstance(option, LazyPrompt) and max(option.line_cells, default=0) <= width:
        return max(1, len(option.line_cells))
    return _layout_rows(option_list, option, width)


def _layout_rows(option_list: OptionList, option: ListOption, width: int) -> int:
    """How many rows Textual lays `option` out in at `width` cells."""
    return option_list._get_visual(option).get_height(cast(RulesMap, option_list.styles), width)


def option_heights(option_list: OptionList, width: int) -> Sequence[int]:
    """The height of each option at `width` cells (its padding taken off), dividers included."""
    width -= _option_padding(option_list)
    options = option_list._options
    if isinstance(options, LazyRows):
        return options.heights(width, lambda option: _layout_rows(option_list, option, width))
    return [_rows(option_list, option, width) + option._divider for option in options]


def _last_divider(options: Sequence[ListOption]) -> bool:
    """Whether the last option has a divider under it (not drawn: nothing follows)."""
    return not isinstance(options, LazyRows) and bool(options) and options[-1]._divider


def content_height(option_list: OptionList, width: int) -> int:
    """The height of every option at `width`, dividers between them included."""
    heights = option_heights(option_list, width)
    total = len(heights) if isinstance(heights, _Ones) else sum(heights)
    return total - _last_divider(option_list._options)


def update_lines(option_list: OptionList) -> None:
    """OptionList's line map (which option each line shows), counted with `option_heights`."""
    region = option_list.scrollable_content_region
    if not region:
        return
    line_map = cast(LineMap, option_list._line_cache)
    width = region.width - option_list._get_left_gutter_width()
    options = option_list._options
    if line_map.filled != (len(options), width):
        line_map.fill(option_heights(option_list, width), width)
    virtual_size = Size(width, len(line_map.lines) - _last_divider(options))
    if virtual_size != option_list.virtual_size:
        option_list.virtual_size = virtual_size
        option_list._scroll_update(virtual_size)


class TextMeasuredList(OptionList):
    """An OptionList whose rows are measured by their text and found by `LineMap`, not laid
    out one by one by Textual. A SelectionList takes it as its second base: Textual's CSS
    type names follow only the first."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._line_cache = cast(Any, LineMap())

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return content_height(self, width)

    def _update_lines(self) -> None:
        update_lines(self)


class LongOptionList(TextMeasuredList):
    """An OptionList of `LazyRows` (see `show_rows`), measured by their text.

    The rest of OptionList's API works too: adding, removing or replacing options first makes
    every option (as OptionList would have up front).
    """

    def show_rows(self, texts: Sequence[str], make: RowMaker, indent: int = 0) -> None:
        """Show `len(texts)` options in place of those shown: option `i` is `make(i)`, made
        when first read; `texts` and `indent` are as `LazyRows` takes them."""
        rows = LazyRows(texts, make, indent)
        self._clear_all()
        self._options = cast("list[ListOption]", rows)
        self._option_to_index = rows.index_of
        self.highlighted = None
        self.scroll_y = 0
        if self.is_mounted:
            self.refresh(layout=self.styles.auto_dimensions)
            self._update_lines()

    def _clear_all(self) -> None:
        self._options = []
        self._option_to_index = {}
        self._id_to_option = {}
        self._line_cache.clear()
        self._option_render_cache.clear()

    def _make_all(self) -> None:
        """Turn lazy rows into the list of options OptionList's own methods work on."""
        rows = self._options
        if isinstance(rows, LazyRows):
            self._options = list(rows)
            self._option_to_index = rows.index_of
            self._line_cache.clear()

    def set_options(self, options: Any) -> LongOptionList:
        self._clear_all()
        return super().set_options(options)

    def clear_options(self) -> LongOptionList:
        self._clear_all()
        return super().clear_options()

    def add_options(self, new_options: Any) -> LongOptionList:
        self._make_all()
        return super().add_options(new_options)

    def _remove_option(self, option: ListOption) -> LongOptionList:
        self._make_all()
        return super()._remove_option(option)

    def _replace_option_prompt(self, index: int, prompt: VisualType) -> None:
        self._make_all()
        super()._replace_option_prompt(index, prompt)

    @property
    def built_count(self) -> int:
        """How many options have been made so far."""
        options = self._options
        return len(options.made) if isinstance(options, LazyRows) else len(options)

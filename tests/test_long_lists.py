"""Long option lists lay out, scroll and move exactly as Textual's OptionList does, making
only the options they draw."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option as ListOption

from tui.core.options import Option
from widgets.choice import INDENT, option_prompt, row_text
from widgets.long_lists import LazyRows, LineMap, LongOptionList

OPTIONS = [
    Option(label="plain"),
    Option(label="with a description", description="dimmed beneath"),
    Option(label="two\nlines", description="and\ntwo more"),
    Option(label="a label long enough to wrap in a list this narrow, word after word"),
    Option(label="wide 漢字 characters, 漢字 again and again 漢字 漢字"),
    Option(label="tab\there"),
    *(Option(label=f"option {n}") for n in range(40)),
]


def prompt(index: int) -> Content:
    return option_prompt(index + 1, OPTIONS[index])


class Side(App[None]):
    """Textual's OptionList and a LongOptionList of the same options, side by side."""

    CSS = "OptionList { width: 30; height: 10; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield OptionList(*(ListOption(prompt(i)) for i in range(len(OPTIONS))), id="stock")
            long = LongOptionList(id="long")
            long.show_rows([row_text(o) for o in OPTIONS], self.make, indent=len(INDENT))
            long.highlighted = 0  # as OptionList does for options it is made with
            yield long

    def make(self, index: int) -> ListOption:
        return ListOption(prompt(index))


def layout(option_list: OptionList) -> tuple[Any, ...]:
    return (
        list(option_list._lines),
        [option_list._index_to_line[i] for i in range(option_list.option_count)],
        [option_list._heights[i] for i in range(option_list.option_count)],
        option_list.virtual_size,
        option_list.outer_size,
        option_list.highlighted,
        option_list.scroll_offset,
    )


@pytest.mark.parametrize(
    "keys",
    [
        [],
        ["down"] * 5,
        ["pagedown", "pagedown", "up"],
        ["end", "pageup"],
        ["up"],  # wraps to the last
        ["end", "down", "home", "pagedown"],
    ],
)
async def test_a_long_list_lays_out_and_moves_like_textual_s(keys: list[str]) -> None:
    app = Side()
    async with app.run_test(size=(80, 24)) as pilot:
        stock = app.query_one("#stock", OptionList)
        long = app.query_one("#long", LongOptionList)
        for key in keys:
            for option_list in (stock, long):
                option_list.focus()
                await pilot.press(key)
        await pilot.pause()
        assert layout(long) == layout(stock)
        picked, expected = long.highlighted_option, stock.highlighted_option
        assert picked is not None and expected is not None
        assert str(picked.prompt) == str(expected.prompt)
        drawn = [long.render_line(y).text for y in range(long.size.height)]
        assert drawn == [stock.render_line(y).text for y in range(stock.size.height)]


async def test_only_the_options_read_are_made() -> None:
    made: list[int] = []

    def make(index: int) -> ListOption:
        made.append(index)
        return ListOption(f"option {index}")

    class OneList(App[None]):
        def compose(self) -> ComposeResult:
            long = LongOptionList()
            long.show_rows([f"option {n}" for n in range(100_000)], make)
            yield long

    app = OneList()
    async with app.run_test(size=(80, 24)) as pilot:
        long = app.query_one(LongOptionList)
        long.focus()
        await pilot.pause()
        assert long.option_count == 100_000
        assert long.virtual_size.height == 100_000
        assert 0 < long.built_count <= long.size.height
        await pilot.press("end")
        await pilot.pause()
        assert long.highlighted == 99_999
        assert long.built_count <= 2 * long.size.height
        assert sorted(made) == sorted(set(made))  # each option made once


async def test_adding_to_lazy_rows_makes_them_all_and_goes_on_as_an_option_list() -> None:
    class OneList(App[None]):
        def compose(self) -> ComposeResult:
            long = LongOptionList()
            long.show_rows(["a", "b"], lambda i: ListOption("ab"[i]))
            yield long

    app = OneList()
    async with app.run_test(size=(80, 24)) as pilot:
        long = app.query_one(LongOptionList)
        long.add_option(ListOption("c", id="c"))
        long.replace_option_prompt_at_index(0, "A")
        await pilot.pause()
        assert [str(o.prompt) for o in long.options] == ["A", "b", "c"]
        assert long.get_option_index("c") == 2
        assert list(long._lines) == [(0, 0), (1, 0), (2, 0)]
        long.set_options(["x"])
        await pilot.pause()
        assert [str(o.prompt) for o in long.options] == ["x"]


def test_lazy_rows_index_and_slice_like_a_list() -> None:
    rows = LazyRows(["a", "b", "c", "d"], lambda i: ListOption("abcd"[i]))
    assert [str(o.prompt) for o in rows[1:3]] == ["b", "c"]
    assert [str(o.prompt) for o in reversed(rows[:2])] == ["b", "a"]
    assert str(rows[-1].prompt) == "d"
    assert sorted(rows.made) == [0, 1, 2, 3]
    assert rows[2] is rows[2]
    with pytest.raises(IndexError):
        rows[4]


def test_a_line_map_finds_the_option_on_each_line() -> None:
    line_map = LineMap()
    line_map.fill([1, 3, 2], width=10)
    assert list(line_map.lines) == [(0, 0), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]
    assert line_map.lines[-1] == (2, 1)
    assert [line_map.heights[i] for i in range(3)] == [1, 3, 2]
    assert [line_map.index_to_line[i] for i in range(3)] == [0, 1, 4]
    with pytest.raises(KeyError):
        line_map.index_to_line[3]
    with pytest.raises(IndexError):
        line_map.lines[6]
    line_map.clear()
    assert len(line_map.lines) == 0
    assert line_map.filled is None

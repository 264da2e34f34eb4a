"""A screen as a grid of cells (character, colours, style), read from a running Textual app."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rich.cells import split_graphemes
from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.app import App

from tui.app.screenshot import mask_line, screen_console, screen_update
from tui.secrets.redaction import Redactor

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Cell:
    """One screen cell. `char` is "" for the right half of a wide character."""

    char: str
    fg: RGB
    bg: RGB
    bold: bool = False
    italic: bool = False
    underline: bool = False


Row = tuple[Cell, ...]
Grid = tuple[Row, ...]


def grid_text(grid: Grid) -> str:
    """The characters of `grid`, one line per row, trailing spaces kept."""
    return "\n".join("".join(cell.char for cell in row) for row in grid)


def screen_grid(app: App[Any], redactor: Redactor, default: tuple[RGB, RGB]) -> Grid:
    """The app's screen as it is drawn now, every registered secret masked.

    `default` is the (foreground, background) for cells whose style names no colour.
    """
    width, height = app.size
    console = screen_console(app)
    update = screen_update(app)
    blank = Cell(" ", *default)
    if update is None:
        return tuple(tuple(blank for _ in range(width)) for _ in range(height))
    segments = console.render(update, console.options)
    rows: list[Row] = []
    for line in Segment.split_lines(segments):
        row: list[Cell] = []
        for segment in mask_line(line, redactor):
            if segment.control:
                continue
            row += text_cells(segment.text, segment.style, default)
        row = row[:width] + [blank] * (width - len(row))
        rows.append(tuple(row))
        if len(rows) == height:
            break
    rows += [tuple(blank for _ in range(width))] * (height - len(rows))
    return tuple(rows)


def text_cells(text: str, style: Style | None, default: tuple[RGB, RGB]) -> list[Cell]:
    """A cell per character of `text` (two for a wide one) in `style`; `default` is the
    (foreground, background) where the style names no colour."""
    fg = _rgb(style.color if style else None, default[0])
    bg = _rgb(style.bgcolor if style else None, default[1])
    bold = bool(style and style.bold)
    italic = bool(style and style.italic)
    underline = bool(style and style.underline)
    if style and style.reverse:
        fg, bg = bg, fg
    if style and style.dim:
        fg = blend(fg, bg, 0.5)
    cells: list[Cell] = []
    # A cell per grapheme, as wide as the app laid it out: a family emoji joined by ZWJs is
    # one glyph of two cells, not three of two each (the row's borders pushed right).
    spans, _width = split_graphemes(text)
    for start, end, width in spans:
        if width == 0:
            continue
        cells.append(_cell(text[start:end], fg, bg, bold, italic, underline))
        cells += [_cell("", fg, bg, bold, italic, underline)] * (width - 1)
    return cells


@lru_cache(maxsize=1 << 16)
def _cell(char: str, fg: RGB, bg: RGB, bold: bool, italic: bool, underline: bool) -> Cell:
    """One cell object for each look: a render keeps every screen of the session, and a
    screen is thousands of cells in a few looks."""
    return Cell(char, fg, bg, bold, italic, underline)


def _rgb(color: RichColor | None, default: RGB) -> RGB:
    if color is None or color.is_default:
        return default
    triplet = color.get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


def blend(color: RGB, other: RGB, share: float) -> RGB:
    """`color` moved `share` (0 to 1) of the way towards `other`."""
    return (
        round(color[0] + (other[0] - color[0]) * share),
        round(color[1] + (other[1] - color[1]) * share),
        round(color[2] + (other[2] - color[2]) * share),
    )

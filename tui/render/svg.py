"""An animated SVG: every distinct screen once, as text, shown in turn by CSS keyframes.

The screens are stacked in one strip; a `steps` animation moves the strip so the screen of
the moment is in view. Text stays text (searchable, sharp at any zoom) in DejaVu Sans Mono,
named first with the usual monospace fonts after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from xml.sax.saxutils import escape

from tui.render.cells import RGB, Cell, Grid, Row
from tui.render.frames import Frame
from tui.render.shapes import BLOCKS, CELL_HEIGHT, CELL_WIDTH, LINES, ROUND_CORNERS

SHAPES = frozenset(BLOCKS) | frozenset(LINES) | frozenset(ROUND_CORNERS)
"""Characters drawn as shapes, not text."""

SPANNING = frozenset(
    char for char, (x0, _y0, x1, _y1) in BLOCKS.items() if (x0, x1) == (0, 8)
) | frozenset("─━")
"""Shapes that fill their cell's width: a run of them is drawn as one."""

FONT_FAMILY = "'DejaVu Sans Mono', 'Menlo', 'Consolas', monospace"


def svg_text(frames: Sequence[Frame]) -> str:
    """The SVG document of `frames`, looping forever."""
    screens: list[Grid] = []
    index: dict[Grid, int] = {}
    for frame in frames:
        if frame.grid not in index:
            index[frame.grid] = len(screens)
            screens.append(frame.grid)
    columns, rows = len(screens[0][0]), len(screens[0])
    width, height = columns * CELL_WIDTH, rows * CELL_HEIGHT
    colours: dict[RGB, str] = {}
    body = [_screen(grid, number * height, colours) for number, grid in enumerate(screens)]
    total = sum(frame.duration for frame in frames)
    keyframes = []
    for frame in frames:
        percent = 100 * frame.start / total
        keyframes.append(f"{percent:.4f}%{{transform:translateY(-{index[frame.grid] * height}px)}}")
    styles = "".join(f".{name}{{fill:{_hex(rgb)}}}" for rgb, name in colours.items())
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n'
        f"<style>text{{font-family:{FONT_FAMILY};font-size:16px;white-space:pre}}"
        f".b{{font-weight:bold}}.i{{font-style:italic}}.u{{text-decoration:underline}}"
        f"{styles}"
        f"@keyframes roll{{{''.join(keyframes)}}}"
        f".strip{{animation:roll {total:.3f}s steps(1,end) infinite}}</style>\n"
        f'<clipPath id="view"><rect width="{width}" height="{height}"/></clipPath>\n'
        f'<g clip-path="url(#view)"><g class="strip">\n{"".join(body)}</g></g>\n</svg>\n'
    )


def _screen(grid: Grid, top: int, colours: dict[RGB, str]) -> str:
    parts = [f'<g transform="translate(0,{top})">']
    for number, row in enumerate(grid):
        parts += _backgrounds(row, number * CELL_HEIGHT, colours)
    for number, row in enumerate(grid):
        parts += _shapes(row, number * CELL_HEIGHT, colours)
        parts += _texts(row, number * CELL_HEIGHT, colours)
    parts.append("</g>\n")
    return "".join(parts)


def _backgrounds(row: Row, y: int, colours: dict[RGB, str]) -> list[str]:
    parts = []
    for start, end in _runs(row, lambda other, first: other.bg == first.bg):
        parts.append(
            f'<rect class="{_class(row[start].bg, colours)}" x="{start * CELL_WIDTH}" y="{y}" '
            f'width="{(end - start) * CELL_WIDTH}" height="{CELL_HEIGHT}"/>'
        )
    return parts


def _texts(row: Row, y: int, colours: dict[RGB, str]) -> list[str]:
    """Runs of same-styled text, each placed at its column (spaces only move the next run)."""
    parts = []
    for column, end in _runs(row, _same_text):
        cell = row[column]
        if cell.char in (" ", "") or cell.char in SHAPES:
            continue
        text = [other.char for other in row[column:end]]
        classes = [_class(cell.fg, colours)]
        classes += [name for flag, name in ((cell.bold, "b"), (cell.italic, "i")) if flag]
        classes += ["u"] if cell.underline else []
        # Each character at its own cell: the font's advance need not be the cell's width.
        xs = " ".join(str(x * CELL_WIDTH) for x in range(column, end) if row[x].char)
        parts.append(
            f'<text class="{" ".join(classes)}" x="{xs}" y="{y + 15}">'
            f"{escape(''.join(text))}</text>"
        )
    return parts


def _shapes(row: Row, y: int, colours: dict[RGB, str]) -> list[str]:
    """Block elements and box-drawing lines as shapes, so they join up in any font."""
    parts = []
    # A run of the same spanning character is one shape; any other character stands alone.
    for column, end in _runs(
        row,
        lambda other, first: (
            first.char in SPANNING and (other.char, other.fg) == (first.char, first.fg)
        ),
    ):
        cell = row[column]
        left = column * CELL_WIDTH
        name = _class(cell.fg, colours)
        if cell.char in BLOCKS:
            x0, y0, x1, y1 = BLOCKS[cell.char]
            width = (x1 - x0) * CELL_WIDTH / 8 + (end - column - 1) * CELL_WIDTH
            parts.append(
                f'<rect class="{name}" x="{left + x0 * CELL_WIDTH / 8:g}" '
                f'y="{y + y0 * CELL_HEIGHT / 8:g}" width="{width:g}" '
                f'height="{(y1 - y0) * CELL_HEIGHT / 8:g}"/>'
            )
        elif cell.char in LINES:
            weight = LINES[cell.char][1]
            if cell.char in SPANNING:
                parts.append(
                    f'<rect class="{name}" x="{left}" y="{y + CELL_HEIGHT // 2}" '
                    f'width="{(end - column) * CELL_WIDTH}" height="{weight}"/>'
                )
            else:
                parts += _arms(LINES[cell.char], left, y, name)
        elif cell.char in ROUND_CORNERS:
            parts.append(_corner(ROUND_CORNERS[cell.char], left, y, cell.fg))
    return parts


def _arms(arms: tuple[int, int, int, int], left: int, top: int, name: str) -> list[str]:
    middle_x, middle_y = left + CELL_WIDTH // 2, top + CELL_HEIGHT // 2
    up, east, down, west = arms
    boxes = []
    if up:
        boxes.append((middle_x, top, up, middle_y - top + up))
    if down:
        boxes.append((middle_x, middle_y, down, top + CELL_HEIGHT - middle_y))
    if west:
        boxes.append((left, middle_y, middle_x - left + west, west))
    if east:
        boxes.append((middle_x, middle_y, left + CELL_WIDTH - middle_x, east))
    return [
        f'<rect class="{name}" x="{x}" y="{y}" width="{width}" height="{height}"/>'
        for x, y, width, height in boxes
    ]


def _corner(arms: tuple[int, int, int, int], left: int, top: int, fg: RGB) -> str:
    """A rounded corner: a curve from one arm's end to the other's through the cell's middle."""
    middle_x, middle_y = left + CELL_WIDTH // 2 + 0.5, top + CELL_HEIGHT // 2 + 0.5
    up, east, _down, _west = arms
    vertical = (middle_x, top) if up else (middle_x, top + CELL_HEIGHT)
    horizontal = (left + CELL_WIDTH, middle_y) if east else (left, middle_y)
    return (
        f'<path d="M{horizontal[0]:g} {horizontal[1]:g}Q{middle_x:g} {middle_y:g} '
        f'{vertical[0]:g} {vertical[1]:g}" fill="none" stroke="{_hex(fg)}"/>'
    )


def _runs(row: Row, joins: Callable[[Cell, Cell], bool]) -> Iterator[tuple[int, int]]:
    """The row cut into runs, left to right, as (first column, column after the run): a run is
    a cell and the cells after it that `joins(cell, first)` accepts, `first` its first cell."""
    start = 0
    while start < len(row):
        end = start + 1
        while end < len(row) and joins(row[end], row[start]):
            end += 1
        yield start, end
        start = end


def _same_text(cell: Cell, first: Cell) -> bool:
    """True if `cell` continues a run of text begun by `first` (styled alike, no space or shape)."""
    return (
        first.char not in ("", " ")
        and first.char not in SHAPES
        and cell.char not in (" ", *SHAPES)
        and _same(cell, first)
    )


def _same(cell: Cell, first: Cell) -> bool:
    return (cell.fg, cell.bold, cell.italic, cell.underline) == (
        first.fg,
        first.bold,
        first.italic,
        first.underline,
    )


def _class(rgb: RGB, colours: dict[RGB, str]) -> str:
    if rgb not in colours:
        colours[rgb] = f"c{len(colours)}"
    return colours[rgb]


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)

"""Draws cell grids as pixels with Pillow, in the DejaVu Sans Mono shipped with the package.

Block elements and box-drawing lines are drawn as shapes, not glyphs, so borders join up
with no gaps at any cell height. The same grid always gives the same pixels.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib.resources import files

from PIL import Image, ImageDraw, ImageFont

from tui.render.cells import RGB, Cell, Grid
from tui.render.shapes import BLOCKS, CELL_HEIGHT, CELL_WIDTH, FONT_SIZE, LINES, ROUND_CORNERS

FONT_FILES = {
    (False, False): "DejaVuSansMono.ttf",
    (True, False): "DejaVuSansMono-Bold.ttf",
    (False, True): "DejaVuSansMono-Oblique.ttf",
    (True, True): "DejaVuSansMono-BoldOblique.ttf",
}
"""The font of each (bold, italic)."""

_STAND_INS = {"⭘": "○", "⏱": "◷", "⛔": "⊘"}
"""Characters DejaVu has no glyph for, drawn as the nearest one it has."""


class Drawings:
    """Draws the screens of a run's outputs, and keeps the characters drawn in them that the
    font has no glyph for (drawn as a box: `missing`). No image is kept: a writer draws a
    frame when it needs it and lets it go, so a long session's frames never fill memory."""

    def __init__(self) -> None:
        self.missing: set[str] = set()

    def image(self, grid: Grid) -> Image.Image:
        self.missing |= {cell.char for row in grid for cell in row if not _drawable(cell.char)}
        return draw_grid(grid)


def grid_size(grid: Grid) -> tuple[int, int]:
    """The pixel size a grid is drawn at."""
    return len(grid[0]) * CELL_WIDTH, len(grid) * CELL_HEIGHT


def draw_grid(grid: Grid) -> Image.Image:
    """`grid` as an RGB image, `CELL_WIDTH` x `CELL_HEIGHT` pixels per cell."""
    image = Image.new("RGB", grid_size(grid))
    draw = ImageDraw.Draw(image)
    for number, row in enumerate(grid):
        top = number * CELL_HEIGHT
        start = 0
        for column in range(1, len(row) + 1):
            if column == len(row) or row[column].bg != row[start].bg:
                box = (start * CELL_WIDTH, top, column * CELL_WIDTH - 1, top + CELL_HEIGHT - 1)
                draw.rectangle(box, fill=row[start].bg)
                start = column
        for column, cell in enumerate(row):
            if cell.char not in ("", " "):
                wide = column + 1 < len(row) and row[column + 1].char == ""
                _draw_cell(image, draw, cell, column * CELL_WIDTH, top, wide)
    return image


def _draw_cell(
    image: Image.Image, draw: ImageDraw.ImageDraw, cell: Cell, left: int, top: int, wide: bool
) -> None:
    char = cell.char
    if char in BLOCKS:
        x0, y0, x1, y1 = BLOCKS[char]
        box = (
            left + x0 * CELL_WIDTH // 8,
            top + y0 * CELL_HEIGHT // 8,
            left + x1 * CELL_WIDTH // 8 - 1,
            top + y1 * CELL_HEIGHT // 8 - 1,
        )
        draw.rectangle(box, fill=cell.fg)
    elif char in LINES:
        _draw_lines(draw, LINES[char], left, top, cell.fg)
    elif char in ROUND_CORNERS:
        _draw_round(draw, ROUND_CORNERS[char], left, top, cell.fg)
    elif char in CONTROL_PICTURES:
        image.paste(cell.fg, (left, top), _control_picture(CONTROL_PICTURES[char]))
    else:
        mask = _glyph(_STAND_INS.get(char, char), cell.bold, cell.italic, wide)
        image.paste(cell.fg, (left, top), mask)
    if cell.underline:
        line = top + CELL_HEIGHT - 3
        draw.line((left, line, left + CELL_WIDTH * (2 if wide else 1) - 1, line), fill=cell.fg)


def _draw_lines(
    draw: ImageDraw.ImageDraw, arms: tuple[int, int, int, int], left: int, top: int, fg: RGB
) -> None:
    middle_x, middle_y = left + CELL_WIDTH // 2, top + CELL_HEIGHT // 2
    right, bottom = left + CELL_WIDTH - 1, top + CELL_HEIGHT - 1
    up, east, down, west = arms
    if up:
        _bar(draw, middle_x, top, middle_x, middle_y, up, fg)
    if down:
        _bar(draw, middle_x, middle_y, middle_x, bottom, down, fg)
    if west:
        _bar(draw, left, middle_y, middle_x, middle_y, west, fg)
    if east:
        _bar(draw, middle_x, middle_y, right, middle_y, east, fg)


def _bar(
    draw: ImageDraw.ImageDraw, x0: int, y0: int, x1: int, y1: int, weight: int, fg: RGB
) -> None:
    grow = weight - 1  # a heavy line is one pixel wider, to the right and below
    draw.rectangle(
        (x0, y0, x1 + (grow if x0 == x1 else 0), y1 + (grow if y0 == y1 else 0)), fill=fg
    )


def _draw_round(
    draw: ImageDraw.ImageDraw, arms: tuple[int, int, int, int], left: int, top: int, fg: RGB
) -> None:
    """A rounded corner: a quarter circle joining the two arms at the cell's middle lines."""
    middle_x, middle_y = left + CELL_WIDTH // 2, top + CELL_HEIGHT // 2
    radius = CELL_WIDTH // 2 - 1  # the arc ends on the cell's edge, where the next line goes on
    up, east, down, _west = arms
    # The circle's centre sits `radius` from the middle lines, on the side of the arms.
    centre_x = middle_x + radius if east else middle_x - radius
    centre_y = middle_y - radius if up else middle_y + radius
    box = (centre_x - radius, centre_y - radius, centre_x + radius, centre_y + radius)
    start = {(0, 1): 180, (0, 0): 270, (1, 1): 90, (1, 0): 0}[(up, east)]
    draw.arc(box, start, start + 90, fill=fg)
    if up:
        draw.rectangle((middle_x, top, middle_x, centre_y), fill=fg)
    if down:
        draw.rectangle((middle_x, centre_y, middle_x, top + CELL_HEIGHT - 1), fill=fg)
    if east:
        draw.rectangle((centre_x, middle_y, left + CELL_WIDTH - 1, middle_y), fill=fg)
    else:
        draw.rectangle((left, middle_y, centre_x, middle_y), fill=fg)


@lru_cache(maxsize=4096)
def _glyph(char: str, bold: bool, italic: bool, wide: bool) -> Image.Image:
    """The coverage mask of one character in its cell (two cells when wide)."""
    font = _font(bold, italic)
    mask = Image.new("L", (CELL_WIDTH * (2 if wide else 1), CELL_HEIGHT))
    ascent, descent = font.getmetrics()
    ImageDraw.Draw(mask).text((0, (CELL_HEIGHT - ascent - descent) // 2), char, font=font, fill=255)
    return mask


CONTROL_PICTURES = {
    chr(0x2400 + code): name
    for code, name in enumerate(
        [
            "NUL",
            "SOH",
            "STX",
            "ETX",
            "EOT",
            "ENQ",
            "ACK",
            "BEL",
            "BS",
            "HT",
            "LF",
            "VT",
            "FF",
            "CR",
            "SO",
            "SI",
            "DLE",
            "DC1",
            "DC2",
            "DC3",
            "DC4",
            "NAK",
            "SYN",
            "ETB",
            "CAN",
            "EM",
            "SUB",
            "ESC",
            "FS",
            "GS",
            "RS",
            "US",
            "SP",
            "DEL",
        ]
    )
}
"""Unicode's pictures of control characters (the app shows ESC as ␛), which DejaVu has no
glyph for: each drawn as its letters, small and stepping down its cell, as fonts draw them."""


@lru_cache(maxsize=64)
def _control_picture(name: str) -> Image.Image:
    """The coverage mask of a control character's picture: its abbreviation's letters."""
    font = ImageFont.truetype(io.BytesIO(_font_data(False, False)), CONTROL_PICTURE_SIZE)
    mask = Image.new("L", (CELL_WIDTH, CELL_HEIGHT))
    draw = ImageDraw.Draw(mask)
    _, top, _, bottom = font.getbbox("E")
    room = CELL_HEIGHT - (bottom - top)  # the letters' tops range over it
    steps = max(len(name) - 1, 1)
    for place, letter in enumerate(name):
        x = place * (CELL_WIDTH - CONTROL_PICTURE_WIDTH) // steps
        draw.text((x, place * room // steps - top), letter, font=font, fill=255)
    return mask


CONTROL_PICTURE_SIZE = 8
"""The font size of a control picture's letters: three fit a cell, stepping down it."""

CONTROL_PICTURE_WIDTH = 5
"""The pixels one of those letters is wide."""


@lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    """Whether `char` is drawn as itself: a shape, a picture, or a glyph the font has."""
    if char in ("", " ") or char in BLOCKS or char in LINES or char in ROUND_CORNERS:
        return True
    if char in CONTROL_PICTURES:
        return True
    char = _STAND_INS.get(char, char)
    missing = _glyph("\U0010fffd", False, False, False)  # a private character: no glyph
    return _glyph(char, False, False, False).tobytes() != missing.tobytes()


def _font_data(bold: bool, italic: bool) -> bytes:
    return (files("tui.render") / "fonts" / FONT_FILES[bold, italic]).read_bytes()


@lru_cache(maxsize=4)
def _font(bold: bool, italic: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(_font_data(bold, italic)), FONT_SIZE)

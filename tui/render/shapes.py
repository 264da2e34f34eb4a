"""The cell size and the characters drawn as shapes, not glyphs, in every picture of a
render: block elements and box-drawing lines (the pixels and the SVG alike)."""

from __future__ import annotations

FONT_SIZE = 16
CELL_WIDTH = 10
CELL_HEIGHT = 20
"""Pixels per cell at `FONT_SIZE`: DejaVu Sans Mono advances 9.6 pixels and is 19 tall."""

# Each block element as the part of its cell it fills: (left, top, right, bottom) in eighths.
BLOCKS: dict[str, tuple[int, int, int, int]] = {
    "▀": (0, 0, 8, 4),
    "▁": (0, 7, 8, 8),
    "▂": (0, 6, 8, 8),
    "▃": (0, 5, 8, 8),
    "▄": (0, 4, 8, 8),
    "▅": (0, 3, 8, 8),
    "▆": (0, 2, 8, 8),
    "▇": (0, 1, 8, 8),
    "█": (0, 0, 8, 8),
    "▉": (0, 0, 7, 8),
    "▊": (0, 0, 6, 8),
    "▋": (0, 0, 5, 8),
    "▌": (0, 0, 4, 8),
    "▍": (0, 0, 3, 8),
    "▎": (0, 0, 2, 8),
    "▏": (0, 0, 1, 8),
    "▐": (4, 0, 8, 8),
    "▔": (0, 0, 8, 1),
    "▕": (7, 0, 8, 8),
}

# Each box-drawing line as its arms: up, right, down, left; 1 light, 2 heavy.
LINES: dict[str, tuple[int, int, int, int]] = {
    "─": (0, 1, 0, 1),
    "│": (1, 0, 1, 0),
    "━": (0, 2, 0, 2),
    "┃": (2, 0, 2, 0),
    "┌": (0, 1, 1, 0),
    "┐": (0, 0, 1, 1),
    "└": (1, 1, 0, 0),
    "┘": (1, 0, 0, 1),
    "├": (1, 1, 1, 0),
    "┤": (1, 0, 1, 1),
    "┬": (0, 1, 1, 1),
    "┴": (1, 1, 0, 1),
    "┼": (1, 1, 1, 1),
    "┏": (0, 2, 2, 0),
    "┓": (0, 0, 2, 2),
    "┗": (2, 2, 0, 0),
    "┛": (2, 0, 0, 2),
    "╴": (0, 0, 0, 1),
    "╵": (1, 0, 0, 0),
    "╶": (0, 1, 0, 0),
    "╷": (0, 0, 1, 0),
    "╸": (0, 0, 0, 2),
    "╹": (2, 0, 0, 0),
    "╺": (0, 2, 0, 0),
    "╻": (0, 0, 2, 0),
}

ROUND_CORNERS = {"╭": (0, 1, 1, 0), "╮": (0, 0, 1, 1), "╰": (1, 1, 0, 0), "╯": (1, 0, 0, 1)}

"""An asciicast v2 recording drawn from the frames: a full redraw per frame, a marker per chapter."""

from __future__ import annotations

import json
from collections.abc import Sequence

from tui.render.cells import Cell, Grid
from tui.render.frames import Frame
from tui.render.script import Chapter

CLEAR = "\x1b[2J"
"""Erases the whole screen (`asciinema play` draws the cast on the terminal as it is)."""


def cast_text(frames: Sequence[Frame], chapters: Sequence[Chapter], title: str) -> str:
    """The cast: a header, then each frame's screen and each chapter's marker at its time."""
    columns, rows = len(frames[0].grid[0]), len(frames[0].grid)
    header = {"version": 2, "width": columns, "height": rows, "title": title}
    header["env"] = {"TERM": "xterm-256color"}
    events: list[tuple[float, int, str, str]] = []
    for number, frame in enumerate(frames):
        # The first on a cleared screen: a player in a terminal draws on what it shows.
        events.append((frame.start, 1, "o", (CLEAR if number == 0 else "") + _screen(frame.grid)))
    for chapter in chapters:
        events.append((chapter.start, 0, "m", chapter.name))
    events.sort(key=lambda event: (event[0], event[1]))
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [
        json.dumps([round(at, 6), kind, text], ensure_ascii=False) for at, _, kind, text in events
    ]
    return "\n".join(lines) + "\n"


def _screen(grid: Grid) -> str:
    """ANSI that draws `grid` from the top-left corner, truecolour."""
    parts = ["\x1b[?25l\x1b[H"]
    style: tuple[object, ...] | None = None
    for number, row in enumerate(grid):
        if number:
            parts.append("\r\n")
        for cell in row:
            if not cell.char:
                continue
            wanted = (cell.fg, cell.bg, cell.bold, cell.italic, cell.underline)
            if wanted != style:
                parts.append(_sgr(cell))
                style = wanted
            parts.append(cell.char)
    parts.append("\x1b[0m")
    return "".join(parts)


def _sgr(cell: Cell) -> str:
    codes = ["0"]
    codes += ["1"] if cell.bold else []
    codes += ["3"] if cell.italic else []
    codes += ["4"] if cell.underline else []
    codes.append("38;2;{};{};{}".format(*cell.fg))
    codes.append("48;2;{};{};{}".format(*cell.bg))
    return f"\x1b[{';'.join(codes)}m"

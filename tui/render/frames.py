"""The frames of an output: each captured screen held until the next change, keys and
captions drawn over it, frames shorter than the fps cap merged into the next."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import pairwise

from rich.cells import cell_len, set_cell_size
from rich.style import Style

from tui.render.captions import Cue
from tui.render.capture import Capture, LaterScreen, Theme
from tui.render.cells import Cell, Grid, Row, text_cells
from tui.render.script import Script
from widgets.key_badge import WIDTH as BADGE_WIDTH

KEY_SECONDS = 1.0
"""How long a key stays in its badge (unless the next key comes first)."""

END_SECONDS = 3.0
"""How long the last screen (the agent's outcome) is held after the session's end, whatever
the speed and the longest pause: long enough to read it before a GIF starts again."""

BOLD = Style(bold=True)


@dataclass(frozen=True)
class Frame:
    """A screen shown from `start` for `duration` seconds."""

    start: float
    duration: float
    grid: Grid


@dataclass(frozen=True)
class Overlays:
    """What is drawn over the captured screens."""

    show_keys: bool = False
    captions: tuple[Cue, ...] | None = None
    """None: no caption line; a tuple (maybe empty): a caption line under the screen."""


def compose(
    script: Script, captured: Capture, overlays: Overlays, fps: float | None = None
) -> list[Frame]:
    """The frames of the whole output, in order, none shorter than 1/`fps` seconds."""
    total = script.duration + END_SECONDS
    cut = {chapter.number for chapter in script.chapters if chapter.cut}
    keys = [
        (step.at, step.label)
        for step in script.steps
        if overlays.show_keys and step.label is not None and step.chapter not in cut
    ]
    cues = overlays.captions or ()
    shown = _screens_in_time(script, captured)
    marks = {0.0, total, *(at for at, _grid in shown)}
    # A badge goes a second after its key, unless the next key has replaced it by then.
    following = [at for at, _label in keys[1:]] + [total] * bool(keys)
    marks |= {
        at + KEY_SECONDS
        for (at, _), then in zip(keys, following, strict=True)
        if at + KEY_SECONDS < then
    }
    marks |= {cue.start for cue in cues} | {cue.end for cue in cues}
    times = sorted(mark for mark in marks if 0 <= mark <= total)
    frames: list[Frame] = []
    for start, end in pairwise(times):
        grid = _screen_at(shown, start)
        label = _key_at(keys, start)
        if label is not None:
            grid = _with_badge(grid, label, captured.theme)
        if overlays.captions is not None:
            text = next((cue.text for cue in cues if cue.start <= start < cue.end), "")
            grid = (*grid, _caption_row(text, len(grid[0]), captured.theme))
        frames.append(Frame(round(start, 6), round(end - start, 6), grid))
    return _merged(_capped(frames, fps))


def _screens_in_time(script: Script, captured: Capture) -> list[tuple[float, Grid]]:
    """Each captured screen and when the output shows it, in order: a step's at its time, one
    between two steps (a notice gone) as far between their times as it came in the session."""
    later: dict[int, list[LaterScreen]] = {}
    for screen in captured.later:
        later.setdefault(screen.step, []).append(screen)
    steps = script.steps
    shown: list[tuple[float, Grid]] = []
    for index, (step, grid) in enumerate(zip(steps, captured.screens, strict=True)):
        shown.append((step.at, grid))
        for screen in later.get(index, []):
            following = steps[index + 1]
            share = (screen.recorded - step.recorded) / (following.recorded - step.recorded)
            shown.append((round(step.at + share * (following.at - step.at), 6), screen.grid))
    return shown


def _screen_at(shown: list[tuple[float, Grid]], at: float) -> Grid:
    """The last screen of `shown` (in time order) whose time has come at `at`, else the
    first."""
    come = bisect_right(shown, at, key=_time)
    return shown[max(come - 1, 0)][1]


def _key_at(keys: list[tuple[float, str]], at: float) -> str | None:
    """The label of the last key of `keys` (in time order) pressed by `at`, while its badge
    shows."""
    pressed = bisect_right(keys, at, key=_time)
    if not pressed:
        return None
    when, label = keys[pressed - 1]
    return label if at < when + KEY_SECONDS else None


def _time(timed: tuple[float, object]) -> float:
    return timed[0]


def _with_badge(grid: Grid, label: str, theme: Theme) -> Grid:
    """`grid` with the key badge in its bottom-right corner, on the row above the footer, as
    the app's."""
    height, width = len(grid), len(grid[0])
    left, top = max(0, width - BADGE_WIDTH - 1), max(0, height - 2)
    text = _cut(label, BADGE_WIDTH - 4)
    padding = BADGE_WIDTH - cell_len(text)
    middle = " " * (padding // 2) + text + " " * (padding - padding // 2)
    badge = text_cells(middle, BOLD, (theme.on_accent, theme.accent))
    rows = list(grid)
    row = list(rows[top])
    row[left : left + len(badge)] = badge[: width - left]
    rows[top] = tuple(row[:width])
    return tuple(rows)


def _caption_row(text: str, width: int, theme: Theme) -> Row:
    colours = (theme.foreground, theme.panel)
    cells = text_cells(f" {_cut(text, width - 2)}", None, colours)
    cells += [Cell(" ", *colours)] * (width - len(cells))
    return tuple(cells)


def _cut(text: str, cells: int) -> str:
    """`text` in at most `cells` cells (a wide character takes two), cut with … if wider."""
    if cell_len(text) <= cells:
        return text
    return set_cell_size(text, cells - 1).rstrip() + "…"


def _capped(frames: list[Frame], fps: float | None) -> list[Frame]:
    """Frames shorter than 1/`fps` are dropped, the next one starting in their place."""
    if not fps:
        return frames
    shortest = 1 / fps
    kept: list[Frame] = []
    start: float | None = None
    for index, frame in enumerate(frames):
        begin = frame.start if start is None else start
        last = index == len(frames) - 1
        if frame.start + frame.duration - begin < shortest and not last:
            start = begin
            continue
        kept.append(Frame(begin, round(frame.start + frame.duration - begin, 6), frame.grid))
        start = None
    return kept


def _merged(frames: list[Frame]) -> list[Frame]:
    """Consecutive frames with the same screen as one."""
    merged: list[Frame] = []
    for frame in frames:
        if merged and merged[-1].grid == frame.grid:
            last = merged[-1]
            merged[-1] = Frame(last.start, round(last.duration + frame.duration, 6), last.grid)
        else:
            merged.append(frame)
    return merged

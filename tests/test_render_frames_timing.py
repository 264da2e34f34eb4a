"""When an output shows each captured screen and each key's badge: a screen from its step's
time until the next one's, a badge for a second after its key unless the next key replaces
it first, and the last screen held after the end."""

from __future__ import annotations

from tui.render.capture import Capture, Theme
from tui.render.cells import Cell, Grid, grid_text
from tui.render.frames import END_SECONDS, KEY_SECONDS, Overlays, compose
from tui.render.script import Script, Step
from tui.transcript.records import KeyPress

BLACK = (0, 0, 0)
THEME = Theme(BLACK, BLACK, (255, 165, 0), BLACK, BLACK)


def _screen(letter: str) -> Grid:
    row = tuple(Cell(letter, BLACK, BLACK) for _ in range(20))
    return (row, row, row)


def _key(at: float, char: str) -> Step:
    return Step("key", at, 1, "r1", KeyPress(t=at, key=char, char=char), at=at)


def test_each_screen_and_badge_is_shown_for_its_time_and_no_longer() -> None:
    steps = [
        Step("start", 0.0, 0),
        Step("request", 0.5, 1, "r1", at=0.5),
        _key(1.0, "x"),
        _key(1.5, "y"),  # before x's second is up: y's badge replaces it
        _key(4.0, "z"),
        Step("end", 6.0, 1, at=6.0),
    ]
    screens = [_screen(letter) for letter in "abcdef"]
    captured = Capture(screens, THEME, [], "")
    frames = compose(Script(steps, [], 6.0), captured, Overlays(show_keys=True))

    shown = [(frame.start, frame.duration, grid_text(frame.grid)) for frame in frames]
    times = [(start, duration) for start, duration, _ in shown]
    assert times == [
        (0.0, 0.5),
        (0.5, 0.5),
        (1.0, 0.5),
        (1.5, KEY_SECONDS),
        (2.5, 1.5),
        (4.0, KEY_SECONDS),
        (5.0, 1.0),
        (6.0, END_SECONDS),
    ]
    texts = [text for _, _, text in shown]
    assert [text[0] for text in texts] == list("abcddeef")
    badges = [("x" in text, "y" in text, "z" in text) for text in texts]
    assert badges == [
        (False, False, False),
        (False, False, False),
        (True, False, False),
        (False, True, False),
        (False, False, False),
        (False, False, True),
        (False, False, False),
        (False, False, False),
    ]

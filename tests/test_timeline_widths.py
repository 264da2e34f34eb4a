"""The timeline's rows are drawn at their columns' final widths from the moment they are
added, not once the table is next idle: a frame taken in between (a render settling, a
live frame) showed every cell cut to the width of its column's name ("12:…", "cho…")."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tui.core.models import ChoiceRequest, ElicitationResult, TextRequest
from widgets.timeline import Timeline


def at_noon(_at: float) -> str:
    return "12:00:00"


class TimelineApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Timeline(at_noon, redraw_delay=0)


def row_text(timeline: Timeline, row: int) -> str:
    """What line `row` of the table (0: its header) draws now, without waiting for anything."""
    return timeline.render_line(row).text


async def test_rows_are_drawn_at_the_columns_widths_before_the_table_is_idle() -> None:
    app = TimelineApp()
    async with app.run_test(size=(80, 24)) as pilot:
        timeline = app.query_one(Timeline)
        await pilot.pause()
        first = TextRequest(id="a", message="Name?")
        timeline.add_request(first, at=0)
        timeline.resolve(first, ElicitationResult(action="accept", content="Ada"))
        await pilot.pause()
        assert "12:00:00" in row_text(timeline, 1)
        # A wider outcome widens its column: every row is drawn again, and is read at once.
        second = ChoiceRequest(id="b", message="Framework?", options=["FastAPI", "Django"])
        timeline.add_request(second, at=1)
        timeline.resolve(second, ElicitationResult(action="accept", content="FastAPI"))
        lines = [row_text(timeline, row) for row in range(3)]
    assert "outcome" in lines[0] and "…" not in lines[0], lines
    assert "12:00:00  text" in lines[1] and "Ada" in lines[1] and "Name?" in lines[1], lines
    assert "choice" in lines[2] and "FastAPI" in lines[2] and "Framework?" in lines[2], lines


async def test_a_longer_question_than_any_before_is_drawn_whole_where_it_fits() -> None:
    app = TimelineApp()
    async with app.run_test(size=(80, 24)) as pilot:
        timeline = app.query_one(Timeline)
        await pilot.pause()
        for n, message in enumerate(["Name?", "Which framework shall I scaffold?"]):
            request = TextRequest(id=str(n), message=message)
            timeline.add_request(request, at=n)
            timeline.resolve(request, ElicitationResult(action="accept", content="Ada"))
            await pilot.pause()
        line = row_text(timeline, 2)
    assert "Which framework shall I scaffold?" in line, line

"""On a small screen, text that a box cuts at its bottom edge ends in … on the last row in
view: a question, a count under a field, a tool call's arguments, an answer's hint. Cut
without it, "Which web" or `"command": "uv run pytest` read as all there was."""

from __future__ import annotations

from app_driver import screen_text, settled_text, wait_for, wait_for_modal
from secret_session import asking_app

from tui.cli import demo
from tui.core.models import ChoiceRequest, Request, TextRequest

FRAMEWORK = ChoiceRequest(
    source="setup-agent",
    message="Which web framework should billing-api use?",
    options=["FastAPI", "Django"],
)


async def _rows(request: Request, size: tuple[int, int], *keys: str) -> list[str]:
    """The dialog's rows as shown at `size`, after `keys`, without its frame and scrollbars."""
    app, _ = asking_app(request)
    async with app.run_test(size=size) as pilot:
        modal = await wait_for_modal(pilot)
        if keys:  # Shift+Down scrolls the question once it is in its box, made as it is laid out
            await wait_for(pilot, lambda: bool(modal.query("#message-box")))
        await pilot.press(*keys)
        # Read once laid out: a loaded run read "framework shoul…", wrapped before the
        # question's scrollbar took its column.
        return [row.strip("│ ▁▂▃▄▅▆▇█") for row in (await settled_text(pilot)).splitlines()]


async def test_a_question_cut_by_its_box_ends_in_an_ellipsis_until_scrolled_to_its_end() -> None:
    rows = await _rows(FRAMEWORK, (20, 10))
    assert rows[2:4] == ["Which web", "framework…"]

    rows = await _rows(FRAMEWORK, (20, 10), *["shift+down"] * 6)
    assert rows[2:4] == ["billing-api", "use?"]


async def test_a_count_cut_under_a_field_ends_in_an_ellipsis() -> None:
    rows = await _rows(TextRequest(message="Name?", min_length=3, max_length=30), (20, 10))
    [count] = [row for row in rows if row.startswith("0/30")]
    assert count.endswith("…")


async def test_a_tool_calls_arguments_and_answers_cut_end_in_an_ellipsis() -> None:
    rows = await _rows(demo.tests_approval("call-1", "uv run pytest -q"), (40, 12))
    assert '"command": "uv run pytest…' in rows
    assert any(row.startswith("1 Allow once") and row.endswith("…") for row in rows)


async def test_a_notice_on_a_narrow_screen_takes_its_width_and_is_read_whole() -> None:
    app, _ = asking_app(FRAMEWORK)
    async with app.run_test(size=(20, 10), notifications=True) as pilot:
        await wait_for_modal(pilot)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: bool(app.screen.query("Toast")))
        await pilot.pause()
        words = " ".join(screen_text(app).translate({ord("│"): " ", ord("▌"): " "}).split())
    # Half the width, it was a column of 6 cells: "Press / Ctrl+Q / to / quit;", cut by the
    # screen's bottom edge with nothing to say so.
    assert "Press Ctrl+Q to quit; questions still open are cancelled." in words


async def test_a_blank_row_at_the_cut_puts_the_ellipsis_after_the_text_above_it() -> None:
    # A blank line between paragraphs (a diff's blank line) showed "…" alone at the box's
    # left edge, a mark that reads as text of its own.
    spaced = ChoiceRequest(message="Which web\n\nframework should billing-api use?", options=["A"])
    rows = await _rows(spaced, (20, 10))
    assert rows[2:4] == ["Which web…", ""]

"""A digit that answers with the option it numbers first draws the highlight on that option:
a recording of the terminal shows which one was picked, not the first row, then the next
screen."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from app_driver import wait_for, wait_for_modal
from secret_session import asking_app
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import OptionList

from tui.core.models import (
    ChoiceRequest,
    Question,
    QuestionsRequest,
    Request,
    ToolApprovalRequest,
)

CHOICE = ChoiceRequest(message="Which region?", options=["eu-west-1", "us-east-1", "ap-south-1"])
APPROVAL = ToolApprovalRequest(
    tool_name="shell", arguments={"command": "uv run pytest -q"}, tool_call_id="call-1"
)
BATCH = QuestionsRequest(
    message="Storage",
    questions=[Question(question="Encrypt the files?", header="Encryption", options=["Yes", "No"])],
)


PICKS = pytest.mark.parametrize(
    ("request_", "digit", "row", "content"),
    [
        (CHOICE, "3", 2, "ap-south-1"),
        (APPROVAL, "2", 1, {"scope": "session"}),
        (BATCH, "2", 1, {"answers": {"Encrypt the files?": "No"}, "notes": {}}),
    ],
    ids=["choice", "tool approval", "question batch"],
)


async def rows_drawn(app: App[Any], pilot: Pilot[Any]) -> list[int | None]:
    """The row each frame sent to the terminal shows highlighted, while the dialog is up."""
    modal = await wait_for_modal(pilot)
    options = modal.query_one(OptionList)
    display = app._display
    drawn: list[int | None] = []

    def record(screen: Any, renderable: Any) -> None:
        if renderable is not None and screen is modal:
            drawn.append(options.highlighted)
        display(screen, renderable)

    app._display = record  # type: ignore[method-assign]
    return drawn


@PICKS
@pytest.mark.parametrize("batch_open", [False, True], ids=["no batch open", "a batch open"])
async def test_the_picked_row_is_drawn_highlighted_before_the_dialog_closes(
    request_: Request, digit: str, row: int, content: Any, batch_open: bool
) -> None:
    # The footer builds its keys after the dialog's first frame, in an update batch held
    # across its mounts: a digit typed at once came while Textual drew nothing and ran at
    # once what waits for a refresh, so the dialog closed without the row drawn.
    app, results = asking_app(request_)
    async with app.run_test(size=(80, 24)) as pilot:
        drawn = await rows_drawn(app, pilot)
        held = asyncio.Event()

        async def hold_a_batch() -> None:
            with app.batch_update():
                held.set()
                await asyncio.sleep(0.3)

        holder = asyncio.create_task(hold_a_batch()) if batch_open else None
        if holder is not None:
            await held.wait()
        await pilot.press(digit)
        await wait_for(pilot, lambda: bool(results))
        if holder is not None:
            await holder

    assert [result.content for result in results] == [content]
    assert row in drawn

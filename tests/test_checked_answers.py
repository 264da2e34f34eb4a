"""An answer given in a dialog is held to the request's own rules (`check_content`, its
`content_type`), as an answer given over the inbox or by a script is: content the request
refuses keeps the dialog open, saying why, and never reaches the agent."""

from __future__ import annotations

import datetime

from answer_kinds import DueRequest, LabelRequest
from app_driver import SIZE, error_line, wait_for, wait_for_modal
from failing_kinds import BrokenRequest

from tui import ElicitationApp, ElicitationQueue, ElicitationResult
from tui.core.models import ChoiceRequest


def asking(*requests: object) -> tuple[ElicitationApp, list[ElicitationResult]]:
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        for request in requests:
            results.append(queue.ask(request))  # type: ignore[arg-type]

    return ElicitationApp(ElicitationQueue(), agent, input_grace=0), results


async def test_a_date_the_request_refuses_keeps_the_dialog_open_saying_why() -> None:
    # The dialog's own date check passed it, and the agent got 2024-01-05.
    app, results = asking(DueRequest(message="Due when?", earliest=datetime.date(2024, 6, 1)))
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Due when?")
        await pilot.press(*"2024-01-05", "enter")
        await wait_for(pilot, lambda: error_line(modal) == "2024-01-05 is before 2024-06-01")
        assert app.screen is modal
        assert results == []
        await pilot.press(*["backspace"] * 10, *"2024-07-01", "enter")
        await wait_for(pilot, lambda: bool(results))
    assert results == [ElicitationResult(action="accept", content=datetime.date(2024, 7, 1))]


async def test_content_of_another_type_than_the_kind_s_is_refused_and_can_be_cancelled() -> None:
    # The agent got the int 2 for a kind whose answers are strings.
    app, results = asking(
        LabelRequest(message="Label?"), ChoiceRequest(message="Next?", options=["a"])
    )
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Label?")
        await pilot.press("o", "k", "enter")
        await wait_for(pilot, lambda: error_line(modal) == "Input should be a valid string")
        assert results == []
        await pilot.press("escape")
        await wait_for_modal(pilot, "Next?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(results) == 2)
    assert results == [
        ElicitationResult(action="cancel"),
        ElicitationResult(action="accept", content="a"),
    ]


async def test_a_check_content_that_raises_any_error_refuses_the_answer_as_the_inbox_does() -> None:
    app, results = asking(BrokenRequest(message="Broken?", where="check"))
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Broken?")
        await pilot.press("o", "k", "enter")
        await wait_for(pilot, lambda: bool(error_line(modal)))
        assert error_line(modal) == (
            "checking the answer raised DialogBroke: broke in check asking 'Broken?'"
            " (check_content refuses an answer by raising ValueError)"
        )
        assert app.screen is modal
        assert not modal.failed
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: bool(results))
    assert results == [ElicitationResult(action="decline")]

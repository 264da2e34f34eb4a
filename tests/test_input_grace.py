"""The grace period after a modal appears ignores clicks as it ignores keys."""

from __future__ import annotations

from typing import Any

from app_driver import SIZE, wait_for, wait_for_modal
from textual import events
from textual.pilot import Pilot, _get_mouse_message_arguments
from textual.widget import Widget
from textual.widgets import OptionList

from tui import ElicitationApp, ElicitationQueue, ElicitationResult, parse_request

APPROVAL = {
    "kind": "tool_approval",
    "tool_name": "shell",
    "summary": "Run rm -rf build",
    "arguments": {"command": "rm -rf build"},
    "tool_call_id": "call_1",
}


async def click(pilot: Pilot[Any], widget: Widget, offset: tuple[int, int]) -> None:
    """Press and release the mouse over `widget` as a terminal does: through the app's events.

    `Pilot.click` hands its events to the screen directly, past the app; a terminal's go
    through the app, which turns a press and release into a click.
    """
    # A terminal's events name no widget: the app finds the one under the mouse.
    arguments = {**_get_mouse_message_arguments(widget, offset, button=1), "widget": None}
    pilot.app.post_message(events.MouseDown(**arguments))
    pilot.app.post_message(events.MouseUp(**arguments))
    await pilot.pause()


async def test_a_click_in_the_grace_period_does_not_answer_and_one_after_it_does() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=3.0)
    async with app.run_test(size=SIZE) as pilot:
        future = queue.submit(parse_request(APPROVAL))
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: modal.is_mounted)
        choices = modal.query_one("#choices", OptionList)
        await wait_for(pilot, lambda: choices.region.height > 0)  # laid out: where to click
        # The list's first row (no border above it) is "Allow once".
        assert not modal.armed
        await click(pilot, choices, (4, 0))
        await pilot.pause(0.1)
        assert not future.done(), "a click as the approval appeared answered it"

        await wait_for(pilot, lambda: modal.armed)
        assert not future.done(), "a click as the approval appeared answered it"
        await click(pilot, choices, (4, 0))
        await wait_for(pilot, future.done)
    assert future.result() == ElicitationResult(action="accept", content={"scope": "once"})

"""The answer being given is in view as the question opens, however long its description."""

from __future__ import annotations

from typing import Any

import pytest
from app_driver import SIZE, wait_for
from asking import burst
from textual import events
from textual.widget import Widget
from textual.widgets import Static

from tui import ElicitationApp, ElicitationQueue, parse_request
from widgets.base import ElicitationModal


def _visible(widget: Widget) -> bool:
    """Whether all of `widget` is on screen, inside every container that scrolls it."""
    region = widget.region
    return all(
        ancestor.region.contains_region(region)
        for ancestor in widget.ancestors
        if isinstance(ancestor, Widget) and ancestor.region.size.area
    )


@pytest.mark.parametrize(
    "request_data",
    [
        {"kind": "text", "default": "plan-a"},
        {"kind": "secret"},
        {"kind": "multi_choice", "options": ["a", "b", "c"]},
        {
            "kind": "questions",
            "questions": [
                {"question": "How should users sign in?", "options": ["OAuth", "Magic links"]},
                {"question": "CI?", "multi_select": True, "options": ["Tests", "Lint"]},
            ],
        },
    ],
    ids=lambda data: data["kind"],
)
@pytest.mark.parametrize("lines", [20, 30, 60])
async def test_the_focused_answer_is_in_view_under_a_long_description(
    request_data: dict[str, Any], lines: int
) -> None:
    # With 30 paragraphs of description, a text field showed its top border only: the
    # person typed blind, replacing a default they never saw.
    description = "\n\n".join(f"line {i}: " + "word " * 5 for i in range(lines))
    request = parse_request(
        {
            **request_data,
            "message": "Review the plan below, then answer.",
            "description": description,
        }
    )
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        queue.submit(request)
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        for _ in range(5):
            await pilot.pause()
        focused = app.focused
        assert focused is not None
        await wait_for(pilot, lambda: _visible(focused))


async def test_a_summary_ending_in_a_space_is_not_shown_twice() -> None:
    # A summary ending in white space differed from the message made of it: it was shown a
    # second time beside the tool, and a long one pushed the tool's name out of view.
    summary = "Deploy everything now. " * 3
    request = parse_request(
        {"kind": "tool_approval", "tool_name": "deploy", "tool_call_id": "c1", "summary": summary}
    )
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        queue.submit(request)
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.pause()
        assert str(app.screen.query_one("#tool", Static).render()) == "⚙ deploy"


@pytest.mark.parametrize("multiline", [False, True])
async def test_the_answer_scrolled_away_to_read_comes_back_as_it_is_typed_into(
    multiline: bool,
) -> None:
    # Shift+Up to read the description's top, then typing: the keys went into a field out of
    # view, typed blind.
    description = "\n\n".join(f"line {i}: " + "word " * 5 for i in range(30))
    request = parse_request(
        {"kind": "text", "message": "Name it.", "description": description, "multiline": multiline}
    )
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        queue.submit(request)
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        focused = app.focused
        assert focused is not None
        await wait_for(pilot, lambda: _visible(focused))
        for _ in range(5):
            await pilot.pause()  # laid out: the person reads, then scrolls
        if multiline:  # Shift+Up selects in a text area: read with the mouse wheel
            body = app.screen.query_one("#body")
            x, y = body.region.center
            for _ in range(20):
                app.post_message(
                    events.MouseScrollUp(body, x, y, 0, -1, 0, False, False, False, x, y)
                )
            await pilot.pause()
        else:
            await pilot.press(*["shift+up"] * 8)
        await wait_for(pilot, lambda: not _visible(focused))
        await pilot.press("x")
        await wait_for(pilot, lambda: _visible(focused))
        if not multiline:
            # and it stays where the person put it while nothing is typed
            await pilot.press(*["shift+up"] * 8)
            for _ in range(3):
                await pilot.pause()
            assert not _visible(focused)


PLAN = "\n".join(f"- line {n} of the plan" for n in range(1, 31))
"""A description of 30 lines: the body scrolls under it at 80x24."""


async def _scrolled_after(request_data: dict[str, Any], keys: tuple[str, ...]) -> float:
    """Where the body of a question with a long description stands once `keys`, sent at once
    when it has opened, have moved the focus on and the dialog has settled."""
    request = parse_request({**request_data, "message": "About the plan.", "description": PLAN})
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        queue.submit(request)
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        body = app.screen.query_one("#body")
        for _ in range(5):
            await pilot.pause()  # laid out, a batch's later questions mounted: the person answers
        first = app.focused
        burst(app, *keys)
        await wait_for(pilot, lambda: app.focused is not first)
        for _ in range(10):
            await pilot.pause()
        return body.scroll_y


BATCH = {
    "kind": "questions",
    "questions": [
        {"question": "Which region?", "options": ["eu", "us", "asia"]},
        {"question": "Which size?", "options": ["small", "large"]},
    ],
}
FORM = {
    "kind": "form",
    "schema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name"},
            "size": {"type": "string", "title": "Size"},
        },
    },
}


@pytest.mark.parametrize(
    ("request_data", "moving_on"), [(BATCH, "1"), (FORM, "tab")], ids=["batch-pick", "form-tab"]
)
async def test_shift_up_typed_behind_a_key_that_moves_on_scrolls_from_where_it_went(
    request_data: dict[str, Any], moving_on: str
) -> None:
    # A key that moves on (a pick to the batch's next question, Tab to the next field) brings
    # what it moved to into view once laid out: Shift+Up typed right behind it was read
    # first, and so undone.
    settled = await _scrolled_after(request_data, (moving_on,))
    keys = (moving_on, "shift+up", "shift+up", "shift+up")
    assert await _scrolled_after(request_data, keys) == settled - 3

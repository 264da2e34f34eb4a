"""Keys in long lists with a filter (a choice's, a batch question's): the highlighted option
stays highlighted as the filter changes.

Keys are pressed with no pause between them, with Pilot and all posted at once (`burst`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from asking import Asker, burst
from textual.pilot import Pilot

from tui import ElicitationApp, ElicitationQueue, ElicitationResult, parse_request

Send = Callable[[Pilot[Any], tuple[str, ...]], Awaitable[None]]


async def press(pilot: Pilot[Any], keys: tuple[str, ...]) -> None:
    await pilot.press(*keys)


async def post_all_at_once(pilot: Pilot[Any], keys: tuple[str, ...]) -> None:
    app = pilot.app
    assert isinstance(app, ElicitationApp)
    burst(app, *keys)


SENDERS = pytest.mark.parametrize("send", [press, post_all_at_once], ids=["pilot", "burst"])


async def answer(data: dict[str, Any], keys: tuple[str, ...], send: Send) -> ElicitationResult:
    """Show `data`, send `keys` the way `send` does, and return what the agent received."""
    asker = Asker(parse_request(data))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await send(pilot, keys)
        await wait_for(pilot, lambda: bool(asker.results))
    return asker.results[0]


REGIONS = [
    *("eu-west-1", "eu-west-2", "eu-west-3", "eu-north-1", "eu-south-1"),
    *("us-east-1", "us-east-2", "us-west-1", "us-west-2", "ap-south-1"),
]
REGION = {"kind": "choice", "message": "Which region?", "options": REGIONS, "default": "us-west-2"}

MANY = {
    "kind": "choice",
    "message": "Which one?",
    "options": [f"region-{n:05}" for n in range(10_000)],
    "default": "region-05000",
}

# -- the highlight as the filter changes -----------------------------------------------------


@SENDERS
async def test_the_default_is_highlighted_again_once_the_filter_is_cleared(send: Send) -> None:
    assert (await answer(REGION, (*"ap", "escape", "enter"), send)).content == "us-west-2"
    assert (await answer(MANY, ("z", "backspace", "enter"), send)).content == "region-05000"


@SENDERS
async def test_the_highlighted_option_stays_while_the_filter_shows_it(send: Send) -> None:
    # us-west-2 is the 4th "us" shown; the first was highlighted instead.
    assert (await answer(REGION, (*"us", "enter"), send)).content == "us-west-2"
    # a filter that hides it highlights its first match
    assert (await answer(REGION, (*"us-e", "enter"), send)).content == "us-east-1"


@SENDERS
async def test_the_option_moved_to_while_filtering_stays_once_it_is_cleared(send: Send) -> None:
    keys = (*"eu", "down", "escape", "enter")
    assert (await answer(REGION, keys, send)).content == "eu-west-2"
    keys = (*"eu", "down", "backspace", "backspace", "enter")
    assert (await answer(REGION, keys, send)).content == "eu-west-2"


# -- a batch's long lists --------------------------------------------------------------------


def batch(*questions: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "questions", "questions": list(questions)}


AREAS = {
    "question": "Which area?",
    "allow_other": False,
    "options": [f"{area}-{n}" for area in ("eu", "us", "ap", "sa") for n in (1, 2, 3)],
}


@SENDERS
async def test_a_batch_keeps_the_highlighted_option_as_its_filter_changes(send: Send) -> None:
    # us-2 moved to; "ap" hides it, clearing the filter shows it highlighted again; Enter in
    # the filter goes to the options, Enter there answers
    keys = ("down", "down", "down", "down", *"ap", "escape", "enter", "enter")
    assert (await answer(batch(AREAS), keys, send)).content["answers"] == {"Which area?": "us-2"}
    keys = ("down", "down", "down", "down", *"-2", "enter", "enter")
    assert (await answer(batch(AREAS), keys, send)).content["answers"] == {"Which area?": "us-2"}

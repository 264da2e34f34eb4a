"""The footer says what each key does now, in one word for one thing: Enter on a button names
the button, Escape in a filter typed clears it, every checklist ticks; while an answer is on
its way, no key of the dialog is offered."""

from __future__ import annotations

from typing import Any

from app_driver import SIZE, wait_for, wait_for_modal
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from tui import ElicitationApp, ElicitationQueue
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    FormRequest,
    MultiChoiceRequest,
    QuestionsRequest,
    Request,
    UrlRequest,
)
from widgets.base import ElicitationModal

DEPLOY = ConfirmationRequest(message="Deploy?", yes_label="Deploy", no_label="Not yet")
REGIONS = [
    f"{area}-{n}" for area in ("us-west", "us-east", "eu-west", "ap-south") for n in (1, 2, 3)
]
REGION = ChoiceRequest(message="Which region?", options=REGIONS)
BATCH = QuestionsRequest(
    message="Where to?",
    questions=[
        {"question": "Which region?", "header": "Region", "options": REGIONS},
        {"question": "Which size?", "header": "Size", "options": ["small", "large"]},
    ],
)
BATCH_TICKS = QuestionsRequest(
    message="What to run?",
    questions=[
        {
            "question": "Which checks?",
            "header": "Checks",
            "options": ["tests", "lint"],
            "multi_select": True,
        },
        {"question": "Where?", "header": "Where", "options": ["local", "CI"]},
    ],
)
SIGN_IN = UrlRequest(message="Sign in to connect your calendar", url="https://example.com/oauth")


def footer(app: ElicitationApp) -> str:
    """The keys the footer shows, as it shows them."""
    return "  ".join(
        f"{key.key_display} {key.description}"
        for key in app.screen.query(FooterKey)
        if key.display and not key.has_class("-command-palette")
    )


async def shown(
    pilot: Pilot[Any], app: ElicitationApp, queue: ElicitationQueue, request: Request
) -> None:
    queue.submit(request)
    await wait_for_modal(pilot, request.message)
    await wait_for(pilot, lambda: bool(app.screen.query(FooterKey)))


async def test_enter_on_a_button_is_named_after_the_button() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, app, queue, DEPLOY)
        await wait_for(pilot, lambda: footer(app).startswith("⏎ Not yet  "))
        keys = list(app.screen.query(FooterKey))
        await pilot.press("left")
        await wait_for(pilot, lambda: footer(app).startswith("⏎ Deploy  "))
        # Only what the key says changed: the same keys, relabelled, nothing mounted.
        assert list(app.screen.query(FooterKey)) == keys
        await pilot.press("n")

        await shown(pilot, app, queue, SIGN_IN)
        await wait_for(pilot, lambda: footer(app).startswith("⏎ Open in browser  "))
        await pilot.press("tab")
        await wait_for(pilot, lambda: footer(app).startswith("⏎ Decline  "))


async def test_while_an_answer_is_on_its_way_the_dialogs_keys_show_disabled() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, app, queue, DEPLOY)
        modal = app.screen
        assert isinstance(modal, ElicitationModal)
        keys = list(modal.query(FooterKey))
        modal.sending = True  # as where the answer travels to an inbox
        await wait_for(pilot, lambda: disabled(app) == ["⏎", "y", "n", "esc", "^n"])
        modal.sending = False  # not sent: to be answered again
        await wait_for(pilot, lambda: disabled(app) == [])
        assert list(modal.query(FooterKey)) == keys  # relabelled, nothing mounted


def disabled(app: ElicitationApp) -> list[str]:
    """The keys the footer shows disabled."""
    return [key.key_display for key in app.screen.query(FooterKey) if key.has_class("-disabled")]


async def test_escape_in_a_filter_typed_says_it_clears_it() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, app, queue, REGION)
        assert "esc Cancel" in footer(app)
        await pilot.press(*"us")
        await wait_for(pilot, lambda: "esc Clear filter" in footer(app))
        await pilot.press("escape")  # clears the filter; the next Escape cancels
        await wait_for(pilot, lambda: "esc Cancel" in footer(app))
        await pilot.press("escape")

        # A batch's filter: Enter there goes to the options, Escape clears what is typed.
        await shown(pilot, app, queue, BATCH)
        await pilot.press("slash")
        await wait_for(pilot, lambda: footer(app).startswith("⏎ Go to options  "))
        assert "esc Cancel" in footer(app) and "/ Filter" not in footer(app)
        await pilot.press("u")
        await wait_for(pilot, lambda: "esc Clear filter" in footer(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: footer(app).startswith("⏎ Next  / Filter  "))


async def test_y_and_n_are_named_after_the_buttons_they_press() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, app, queue, DEPLOY)
        await wait_for(pilot, lambda: "  y Deploy  n Not yet  " in footer(app))
        keys = list(app.screen.query(FooterKey))
        await pilot.press("y")
        # The next confirmation, other labels: the same keys, relabelled, nothing mounted.
        await shown(pilot, app, queue, ConfirmationRequest(message="Go on?", default=True))
        await wait_for(pilot, lambda: footer(app).startswith("⏎ Yes  y Yes  n No  "))
        assert list(app.screen.query(FooterKey)) == keys


async def test_every_checklist_offers_space_and_1_to_9_as_tick() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, app, queue, MultiChoiceRequest(message="Which?", options=["a", "b"]))
        await wait_for(pilot, lambda: "  space Tick  1-9 Tick  a All/none  " in footer(app))
        await pilot.press("enter")

        checks = {"type": "array", "title": "Checks", "items": {"enum": ["tests", "lint"]}}
        form = FormRequest(
            message="Which checks?",
            requested_schema={"type": "object", "properties": {"checks": checks}},
        )
        await shown(pilot, app, queue, form)
        await wait_for(pilot, lambda: footer(app).startswith("⏎ Submit  space Tick  "))
        await pilot.press("escape")

        # A batch's pick-any question ticks with its numbers too.
        await shown(pilot, app, queue, BATCH_TICKS)
        await wait_for(pilot, lambda: "  space Tick  1-9 Tick  " in footer(app))
        await pilot.press("tab")
        await wait_for(pilot, lambda: "  1-9 Pick  " in footer(app))
        assert "space Tick" not in footer(app)

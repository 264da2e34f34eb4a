"""The footer says what each key does now, in one word for one thing: Enter on a button names
the button, Escape in a filter typed clears it, every checklist ticks; while an answer is on
its way, no key of the dialog is offered."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from app_driver import SIZE, wait_for, wait_for_modal
from textual.pilot import Pilot
from textual.widgets import Switch
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


@asynccontextmanager
async def running() -> AsyncIterator[Pilot[Any]]:
    """The app, running on a queue of its own."""
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        yield pilot


async def shown(pilot: Pilot[Any], request: Request) -> None:
    """Ask `request`, and return once its dialog shows its keys."""
    app = pilot.app
    assert isinstance(app, ElicitationApp)
    app.queue.submit(request)
    await wait_for_modal(pilot, request.message)
    await wait_for(pilot, lambda: bool(pilot.app.screen.query(FooterKey)))


def footer(pilot: Pilot[Any]) -> str:
    """The keys the footer shows, as it shows them."""
    return "  ".join(
        f"{key.key_display} {key.description}"
        for key in pilot.app.screen.query(FooterKey)
        if key.display and not key.has_class("-command-palette")
    )


def disabled(pilot: Pilot[Any]) -> list[str]:
    """The keys the footer shows disabled."""
    keys = pilot.app.screen.query(FooterKey)
    return [key.key_display for key in keys if key.has_class("-disabled")]


async def test_enter_on_a_button_is_named_after_the_button() -> None:
    async with running() as pilot:
        await shown(pilot, DEPLOY)
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Not yet  "))
        keys = list(pilot.app.screen.query(FooterKey))
        await pilot.press("left")
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Deploy  "))
        # Only what the key says changed: the same keys, relabelled, nothing mounted.
        assert list(pilot.app.screen.query(FooterKey)) == keys
        await pilot.press("n")

        await shown(pilot, SIGN_IN)
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Open in browser  "))
        await pilot.press("tab")
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Decline  "))


async def test_while_an_answer_is_on_its_way_the_dialogs_keys_show_disabled() -> None:
    async with running() as pilot:
        await shown(pilot, DEPLOY)
        modal = pilot.app.screen
        assert isinstance(modal, ElicitationModal)
        keys = list(modal.query(FooterKey))
        modal.sending = True  # as where the answer travels to an inbox
        await wait_for(pilot, lambda: disabled(pilot) == ["⏎", "y", "n", "esc", "^n"])
        modal.sending = False  # not sent: to be answered again
        await wait_for(pilot, lambda: disabled(pilot) == [])
        assert list(modal.query(FooterKey)) == keys  # relabelled, nothing mounted


async def test_escape_in_a_filter_typed_says_it_clears_it() -> None:
    async with running() as pilot:
        await shown(pilot, REGION)
        assert "esc Cancel" in footer(pilot)
        await pilot.press(*"us")
        await wait_for(pilot, lambda: "esc Clear filter" in footer(pilot))
        await pilot.press("escape")  # clears the filter; the next Escape cancels
        await wait_for(pilot, lambda: "esc Cancel" in footer(pilot))
        await pilot.press("escape")

        # A batch's filter: Enter there goes to the options, Escape clears what is typed.
        await shown(pilot, BATCH)
        await pilot.press("slash")
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Go to options  "))
        assert "esc Cancel" in footer(pilot) and "/ Filter" not in footer(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: "esc Clear filter" in footer(pilot))
        await pilot.press("enter")
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Next  / Filter  "))


async def test_y_and_n_are_named_after_the_buttons_they_press() -> None:
    async with running() as pilot:
        await shown(pilot, DEPLOY)
        await wait_for(pilot, lambda: "  y Deploy  n Not yet  " in footer(pilot))
        keys = list(pilot.app.screen.query(FooterKey))
        await pilot.press("y")
        # The next confirmation, other labels: the same keys, relabelled, nothing mounted.
        await shown(pilot, ConfirmationRequest(message="Go on?", default=True))
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Yes  y Yes  n No  "))
        assert list(pilot.app.screen.query(FooterKey)) == keys


async def test_every_checklist_offers_space_and_1_to_9_as_tick() -> None:
    async with running() as pilot:
        await shown(pilot, MultiChoiceRequest(message="Which?", options=["a", "b"]))
        await wait_for(pilot, lambda: "  space Tick  1-9 Tick  a All/none  " in footer(pilot))
        await pilot.press("enter")

        checks = {"type": "array", "title": "Checks", "items": {"enum": ["tests", "lint"]}}
        form = FormRequest(
            message="Which checks?",
            requested_schema={"type": "object", "properties": {"checks": checks}},
        )
        await shown(pilot, form)
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Submit  space Tick  "))
        await pilot.press("escape")

        # A batch's pick-any question ticks with its numbers too.
        await shown(pilot, BATCH_TICKS)
        await wait_for(pilot, lambda: "  space Tick  1-9 Tick  " in footer(pilot))
        await pilot.press("tab")
        await wait_for(pilot, lambda: "  1-9 Pick  " in footer(pilot))
        assert "space Tick" not in footer(pilot)


async def test_a_forms_yes_no_field_offers_space_and_space_flips_it() -> None:
    # Enter goes to the next field; nothing said how to turn "no" into "yes".
    https = {"type": "boolean", "title": "HTTPS"}
    form = FormRequest(
        message="Serve?", requested_schema={"type": "object", "properties": {"https": https}}
    )
    async with running() as pilot:
        await shown(pilot, form)
        await wait_for(pilot, lambda: footer(pilot).startswith("⏎ Submit  space Yes/no  "))
        switch = pilot.app.screen.query_one(Switch)
        assert switch.has_focus and not switch.value
        await pilot.press("space")
        await wait_for(pilot, lambda: switch.value)


async def test_tab_skips_a_question_unanswered_and_goes_on_from_one_answered() -> None:
    async with running() as pilot:
        await shown(pilot, BATCH_TICKS)
        await wait_for(pilot, lambda: "  tab Skip  " in footer(pilot))
        await pilot.press("1")  # ticked: answered
        await wait_for(pilot, lambda: "  tab Next  " in footer(pilot))
        await pilot.press("tab", "2", "left")  # the last question, answered, from Review
        await wait_for(pilot, lambda: "  tab Next  " in footer(pilot))

"""A secret answered earlier and echoed by the agent in the text of a later question (its
options, placeholder, field titles, tool call, link) is shown as •••, never as itself; what
the person picks still answers with the agent's own value."""

from __future__ import annotations

from typing import Any

import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from asking import Asker, burst
from textual.pilot import Pilot

from tui.app.app import ElicitationApp
from tui.core.models import (
    ChoiceRequest,
    FormRequest,
    MultiChoiceRequest,
    QuestionsRequest,
    Request,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
    UrlRequest,
)
from tui.core.queue import ElicitationQueue
from tui.secrets.redaction import MASK

CANARY = "canary-echo-5d21"

ECHOED: list[Request] = [
    ChoiceRequest(message="Which key?", options=[f"key {CANARY}", "none"]),
    ChoiceRequest(
        message="Which of many?",
        options=[{"label": f"key {CANARY}", "description": f"made from {CANARY}"}]
        + [f"other {n}" for n in range(12)],
    ),
    MultiChoiceRequest(
        message="Which keys?", options=[{"label": f"key {CANARY}", "description": CANARY}, "b"]
    ),
    TextRequest(message="Name?", placeholder=f"like {CANARY}"),
    TextRequest(message="Header?", default=f"Bearer {CANARY}"),
    TextRequest(message="Script?", default=f"export KEY={CANARY}\n", multiline=True),
    SecretRequest(message="Another?", placeholder=f"not {CANARY}"),
    FormRequest(
        message="Settings?",
        requested_schema={
            "type": "object",
            "properties": {
                "mode": {
                    "type": "string",
                    "title": f"Mode for {CANARY}",
                    "description": f"how {CANARY} is used",
                    "oneOf": [{"const": "a", "title": f"use {CANARY}"}, {"const": "b"}],
                },
                "header": {"type": "string", "default": f"Bearer {CANARY}"},
            },
        },
    ),
    FormRequest(
        message="Which region?",
        requested_schema={
            "type": "object",
            "properties": {
                "region": {
                    "type": "string",
                    "default": "r0",
                    "oneOf": [{"const": "r0", "title": f"region of {CANARY}"}]
                    + [{"const": f"r{n}", "title": f"region {n}"} for n in range(1, 30)],
                },
            },
        },
    ),
    QuestionsRequest(
        message="Batch?",
        questions=[
            {
                "question": f"Keep {CANARY}?",
                "header": "Keep",
                "options": [
                    {"label": f"yes {CANARY}", "description": f"keeps {CANARY}"},
                    {"label": "no", "description": "drops it"},
                ],
            }
        ],
    ),
    ToolApprovalRequest(
        tool_name="curl",
        summary=f"fetch with {CANARY}",
        arguments={"header": f"Bearer {CANARY}"},
        diff=f"--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-KEY=old\n+KEY={CANARY}\n",
        tool_call_id="call-1",
    ),
    ToolApprovalRequest(
        tool_name="shell",
        arguments={"command": f"curl -H 'Bearer {CANARY}' example.com"},
        remember={"argument": "command", "pattern": f"curl -H 'Bearer {CANARY}' *"},
        tool_call_id="call-2",
    ),
    UrlRequest(message="Open it?", url=f"https://example.com/?token={CANARY}"),
    UrlRequest(message="Sign in?", url=f"https://admin:{CANARY}@{CANARY}.example.com/"),
    SecretRequest(message="Store it?", store={"service": "deploy", "username": CANARY}),
    QuestionsRequest(
        message="Which plan?",
        questions=[
            {
                "question": "Which plan?",
                "header": "Plan",
                "options": [
                    {"label": "a", "description": "first", "preview": f"uses {CANARY}"},
                    {"label": "b", "description": "second", "preview": "plain"},
                ],
            }
        ],
    ),
]


def after_a_secret(*requests: Request) -> tuple[Asker, ElicitationApp]:
    """An app whose agent first asks for a secret, then `requests`."""
    asker = Asker(SecretRequest(message="API key?"), *requests)
    return asker, ElicitationApp(ElicitationQueue(), asker, input_grace=0)


async def answer_the_secret(pilot: Pilot[Any], app: ElicitationApp, secret: str = CANARY) -> None:
    await wait_for_modal(pilot, "API key?")
    burst(app, *secret, "enter")


@pytest.mark.parametrize("echoed", ECHOED, ids=lambda r: r.kind)
async def test_a_question_echoing_a_secret_answered_earlier_shows_it_masked(
    echoed: Request,
) -> None:
    asker, app = after_a_secret(echoed)
    async with app.run_test(size=SIZE) as pilot:
        await answer_the_secret(pilot, app)
        await wait_for_modal(pilot, echoed.message)
        await pilot.pause()
        shown = screen_text(app)
        burst(app, "escape")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert CANARY not in shown
    assert MASK in shown


async def test_the_option_picked_under_a_mask_answers_with_the_agents_own_value() -> None:
    asker, app = after_a_secret(
        ChoiceRequest(message="Which key?", options=[f"key {CANARY}", "none"]),
    )
    async with app.run_test(size=SIZE) as pilot:
        await answer_the_secret(pilot, app)
        await wait_for_modal(pilot, "Which key?")
        burst(app, "1")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert asker.results[1].content == f"key {CANARY}"


async def test_a_tool_call_holding_a_secret_is_not_opened_in_the_editor() -> None:
    call = ToolApprovalRequest(
        tool_name="curl", arguments={"header": f"Bearer {CANARY}"}, tool_call_id="call-1"
    )
    asker, app = after_a_secret(call)
    async with app.run_test(size=SIZE) as pilot:
        await answer_the_secret(pilot, app)
        modal = await wait_for_modal(pilot, call.message)
        burst(app, "e")
        await wait_for(pilot, lambda: "cannot be edited" in screen_text(app))
        shown = screen_text(app)
        editing = modal.has_class("editing")
        burst(app, "1")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert not editing and CANARY not in shown
    assert asker.results[1].content == {"scope": "once"}  # allowed as asked, secret and all


async def test_a_tool_call_an_inbox_sent_masked_is_not_opened_in_the_editor() -> None:
    """A secret answered in another front end reaches this one masked by the inbox: edited,
    the call would run with `•••` in its place."""
    call = ToolApprovalRequest(
        tool_name="curl", arguments={"header": f"Bearer {MASK}"}, tool_call_id="call-1"
    )
    asker = Asker(call)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, call.message)
        burst(app, "e")
        await wait_for(pilot, lambda: "cannot be edited" in screen_text(app))
        editing = modal.has_class("editing")
        burst(app, "1")
        await wait_for(pilot, lambda: bool(asker.results))
    assert not editing
    assert asker.results[0].content == {"scope": "once"}


DEFAULTS: list[tuple[Request, list[str], object]] = [
    (TextRequest(message="Header?", default=f"Bearer {CANARY}"), ["enter"], f"Bearer {CANARY}"),
    (TextRequest(message="Header?", default=f"Bearer {CANARY}"), [*"x", "enter"], "x"),
    (
        TextRequest(message="Script?", default=f"KEY={CANARY}", multiline=True),
        ["ctrl+s"],
        f"KEY={CANARY}",
    ),
    (
        FormRequest(
            message="Header?",
            requested_schema={
                "type": "object",
                "properties": {"header": {"type": "string", "default": f"Bearer {CANARY}"}},
            },
        ),
        ["ctrl+s"],
        {"header": f"Bearer {CANARY}"},
    ),
]


@pytest.mark.parametrize(
    ("request_", "keys", "expected"),
    DEFAULTS,
    ids=["text-kept", "text-changed", "multiline-kept", "form-kept"],
)
async def test_a_default_shown_masked_answers_with_itself_unless_it_is_changed(
    request_: Request, keys: list[str], expected: object
) -> None:
    asker, app = after_a_secret(request_)
    async with app.run_test(size=SIZE) as pilot:
        await answer_the_secret(pilot, app)
        await wait_for_modal(pilot, request_.message)
        await pilot.pause()
        shown = screen_text(app)
        burst(app, *keys)
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert CANARY not in shown and MASK in shown
    assert asker.results[1].content == expected


async def test_a_batchs_tabs_and_review_show_an_echoed_secret_masked() -> None:
    batch = QuestionsRequest(
        message="Batch?",
        questions=[
            {
                "question": f"Keep {CANARY}?",
                "header": CANARY[:12],
                "options": [{"label": f"yes {CANARY}"}, {"label": "no"}],
            },
            {
                "question": "Region?",
                "header": "Region",
                "options": [{"label": "eu"}, {"label": "us"}],
            },
        ],
    )
    asker, app = after_a_secret(batch)
    async with app.run_test(size=SIZE) as pilot:
        await answer_the_secret(pilot, app, CANARY[:12])  # the header is the secret answered
        await wait_for_modal(pilot, "Batch?")
        burst(app, "1", "1")
        await wait_for(pilot, lambda: "Enter submits" in screen_text(app))
        review = screen_text(app)
        burst(app, "enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert CANARY[:12] not in review and MASK in review
    assert asker.results[1].content["answers"] == {
        f"Keep {CANARY}?": f"yes {CANARY}",
        "Region?": "eu",
    }

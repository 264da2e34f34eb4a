"""The grace period after a modal appears ignores clicks as it ignores keys; keys typed on as
the question in front changes without the person's doing wait for a pause in the typing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from running_inbox import running_inbox
from textual import events
from textual.pilot import Pilot, _get_mouse_message_arguments
from textual.widget import Widget
from textual.widgets import OptionList

from tui import (
    ChoiceRequest,
    ElicitationApp,
    ElicitationQueue,
    ElicitationResult,
    TextRequest,
    parse_request,
)
from tui.app.typing_hold import TYPED_THROUGH_GRACES
from tui.core.models import Request
from tui.front_ends.remote import RemoteFrontEnd
from widgets.base import ElicitationModal
from widgets.timeline import Timeline
from widgets.timeline_entry import TimelineEntry

TYPED_THROUGH_PAUSE = TYPED_THROUGH_GRACES * 0.2
"""The pause in typing asked for after a change under it, with the usual grace of 0.2 s."""

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


async def test_a_click_as_a_question_closes_opens_no_timeline_row_and_one_after_it_does() -> None:
    # A double click on an answer: the second click landed on the timeline row under it,
    # which opened, and the next question came over it.
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=3.0)
    async with app.run_test(size=SIZE) as pilot:
        timeline = app.query_one(Timeline)
        future = queue.submit(ChoiceRequest(message="Pick?", options=["a", "b"]))
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: modal.armed)
        await pilot.press("enter")
        await wait_for(pilot, lambda: future.done() and timeline.row_count == 1)
        assert app.screen is app.screen_stack[0]
        await click(pilot, timeline, (2, 1))
        await pilot.pause(0.1)
        assert not isinstance(app.screen, TimelineEntry), "a click as the question closed"

        await pilot.pause(3.0)  # past the grace
        await click(pilot, timeline, (2, 1))
        await wait_for(pilot, lambda: isinstance(app.screen, TimelineEntry))


@pytest.mark.parametrize("first_kind", ["choice", "tool_approval"])
async def test_a_key_handed_to_one_question_never_acts_on_the_next(first_kind: str) -> None:
    # Keys typed in one burst: the first answers, the second is handed to the same dialog
    # and is still on its way up from the list when the answer (sent to an inbox, or given
    # elsewhere) comes back and the next question is shown, in that dialog reloaded (a
    # choice after a choice) or in another (a choice after an approval, whose 1 allows).
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        shown = (
            parse_request(APPROVAL)
            if first_kind == "tool_approval"
            else ChoiceRequest(message="Deploy?", options=["yes", "no"])
        )
        queue.submit(shown)
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: app.focused is not None and app.focused.screen is modal)
        unseen = queue.submit(ChoiceRequest(message="Drop the database?", options=["yes", "no"]))
        target = app.focused
        assert target is not None
        key = events.Key("1", "1")
        app.handing_out(key)  # its turn came while the first question was in front
        queue.respond(shown.id, ElicitationResult(action="cancel"), "browser 1")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ElicitationModal)
                and app.screen.request.message == "Drop the database?"
            ),
        )
        target._forward_event(key)  # up from the first question's list, as Textual sends it
        await pilot.pause(0.2)
        assert not unseen.done(), "a key typed for one question answered the next, unseen"
        await pilot.press("2")
        await wait_for(pilot, unseen.done)
    assert unseen.result() == ElicitationResult(action="accept", content="no")


KEYS_HELD = "Keys are ignored until you stop typing for 1 s: read it, then answer."


async def allowed_only_after_a_pause(pilot: Pilot[Any], approval: Future[Any]) -> list[str]:
    """Check that the keys typed so far left `approval` unanswered, and that "1" allows it
    once the typing has paused; returns the notices up while the keys were held."""
    await pilot.pause(0.3)
    assert not approval.done(), "keys typed for another question answered this one, unread"
    notices = [str(notice.message) for notice in pilot.app._notifications]
    await asyncio.sleep(TYPED_THROUGH_PAUSE)  # the person stops, and reads
    await pilot.press("1")
    await wait_for(pilot, approval.done)
    assert approval.result() == ElicitationResult(action="accept", content={"scope": "once"})
    return notices


def withdraw(queue: ElicitationQueue, request: Request) -> object:
    return queue.cancel(request.id)


TYPED_THROUGH = [
    ("withdrawn", withdraw),
    (
        "answered elsewhere",
        lambda queue, request: queue.respond(
            request.id, ElicitationResult(action="accept", content="2"), "browser"
        ),
    ),
]


@pytest.mark.parametrize(
    "end", [end for _, end in TYPED_THROUGH], ids=[n for n, _ in TYPED_THROUGH]
)
async def test_keys_typed_on_as_the_question_ends_elsewhere_wait_for_a_pause(
    end: Callable[[ElicitationQueue, Request], object],
) -> None:
    # Someone typing an answer whose question ended under their fingers (withdrawn by its
    # agent, answered in another front end, timed out) typed on into the next question once
    # its 0.2 s grace was over: the `3` of "3 times" allowed a waiting call, always.
    queue = ElicitationQueue()
    app = ElicitationApp(queue)  # the grace a person gets: 0.2 s
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        typed_in = TextRequest(message="How many retries?")
        queue.submit(typed_in)
        approval = queue.submit(parse_request(APPROVAL))
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: modal.armed)
        for key in "about":
            await pilot.press(key)
            await asyncio.sleep(0.1)
        end(queue, typed_in)
        for key in [*"3 times", "enter"]:  # typed on, a key every 0.1 s
            await asyncio.sleep(0.1)
            await pilot.press(key)
        # Said in the notice of how the question ended: one notice over the call, not two.
        [notice] = await allowed_only_after_a_pause(pilot, approval)
        assert notice.startswith("Withdrawn by the agent: " if end is withdraw else "Answered")
        assert notice.endswith(": How many retries?\n" + KEYS_HELD)


async def test_a_question_appearing_while_keys_are_typed_waits_for_a_pause() -> None:
    # Typing on the main screen (into the wrong window, say) as a question arrives: the keys
    # after its grace answered it.
    queue = ElicitationQueue()
    app = ElicitationApp(queue)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        approval = None
        for n, key in enumerate("yes 3 yes 1"):
            await pilot.press(key)
            await asyncio.sleep(0.1)
            if n == 2:
                approval = queue.submit(parse_request(APPROVAL))
        assert approval is not None
        await pilot.press("enter")
        notices = await allowed_only_after_a_pause(pilot, approval)
    assert notices == ["The question changed as you typed.\n" + KEYS_HELD]


async def test_after_answering_the_next_question_takes_keys_after_its_grace_alone() -> None:
    # The person's own answer changed the question: they know it did, and a quick answer to
    # the next one is not held up.
    queue = ElicitationQueue()
    app = ElicitationApp(queue)
    async with app.run_test(size=SIZE) as pilot:
        first = queue.submit(ChoiceRequest(message="Deploy?", options=["yes", "no"]))
        second = queue.submit(ChoiceRequest(message="Where?", options=["eu", "us"]))
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: modal.armed)
        await pilot.press("1")
        await wait_for(pilot, first.done)
        await asyncio.sleep(0.3)  # past the next question's grace, well short of the pause
        await pilot.press("2")
        await wait_for(pilot, second.done)
    assert second.result() == ElicitationResult(action="accept", content="us")


async def test_typing_ahead_into_the_grace_holds_the_rest_of_the_keys_until_a_pause() -> None:
    # "n" for the first question, "n" for the second, then Enter, typed ahead: the second
    # "n" came in the next question's grace and was ignored, and the Enter after it answered
    # that question with its default (in a browser, "Delete the backup?" -> Yes).
    queue = ElicitationQueue()
    app = ElicitationApp(queue)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        first = queue.submit(parse_request({"kind": "confirmation", "message": "Migrate?"}))
        approval = queue.submit(parse_request(APPROVAL))
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: modal.armed)
        # Typed at once, as a terminal reads them: the second "n" before the approval showed.
        for key in [events.Key("n", "n"), events.Key("n", "n"), events.Key("enter", "\r")]:
            app.post_message(key)
        await wait_for(pilot, first.done)
        notices = await allowed_only_after_a_pause(pilot, approval)
    assert first.result().content is False
    # Not "the question changed": the person changed it, by answering.
    assert notices == [
        "A key came as this question appeared, too soon to be meant for it.\n" + KEYS_HELD
    ]


@pytest.mark.parametrize(
    ("request_data", "typed"),
    [
        ({"kind": "choice", "message": "Wipe which?", "options": ["staging", "prod"]}, "cd ~"),
        ({"kind": "secret", "message": "API key?"}, "git status"),
        ({"kind": "confirmation", "message": "Drop the table?"}, "yarn build"),
    ],
    ids=["choice", "secret", "confirmation"],
)
async def test_esc_and_keys_at_once_read_as_alt_answer_nothing(
    request_data: dict[str, Any], typed: str
) -> None:
    # Esc, then the next shell command typed at once (tmux holds an Esc until the next key):
    # read as Alt+c, "d ~" and Enter, it answered "staging"; a secret got "git status"
    # appended and was accepted; "yarn" answered the confirmation No with its "n".
    queue = ElicitationQueue()
    app = ElicitationApp(queue)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        asked = queue.submit(parse_request(request_data))
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: modal.armed)
        if request_data["kind"] == "secret":
            await pilot.press(*"sk-live-123")
        # As a terminal's parser reads them: Alt with the first key's character, then the rest.
        burst = [events.Key(f"alt+{typed[0]}", typed[0])]
        burst += [events.Key(key if key != " " else "space", key) for key in typed[1:]]
        for key in [*burst, events.Key("enter", "\r")]:
            app.post_message(key)
        await pilot.pause(0.3)
        assert not asked.done(), asked.result()
        notices = [str(notice.message) for notice in app._notifications]
        assert notices[-1] == (
            "Esc came with the next key at once, read as Alt: keys are ignored until you stop "
            "typing for 1 s. Press Esc alone to cancel."
        )
        await asyncio.sleep(TYPED_THROUGH_PAUSE)
        await pilot.press("escape")
        await wait_for(pilot, asked.done)
    assert asked.result().action == "cancel"


class SlowInbox(RemoteFrontEnd):
    """An inbox over a slow link: each answer's reply comes `REPLY_AFTER` seconds after it."""

    REPLY_AFTER = 0.25

    def respond(
        self, request_id: str, result: ElicitationResult, front_end: str | None = None
    ) -> bool:
        time.sleep(self.REPLY_AFTER)
        return super().respond(request_id, result, front_end)


async def test_attached_enter_after_enter_answers_each_question_as_the_inboxs_own_tui_does() -> (
    None
):
    # A key every 0.35 s, each after the person's own answer: attached, the next question
    # shows only once the inbox replies, so the next key fell in its 0.2 s grace and held
    # every key after it ("The question changed as you typed"); the inbox's TUI took them all.
    from tui.app.attach_app import AttachApp

    with running_inbox() as inbox:
        asked = [
            inbox.inbox.submit(ChoiceRequest(message=f"Fast {n}?", options=["a", "b"]))
            for n in range(4)
        ]
        front_end = SlowInbox(inbox.url, inbox.token, "terminal 1")
        front_end.connect()
        app = AttachApp(front_end)  # the grace a person gets: 0.2 s
        try:
            async with app.run_test(size=SIZE, notifications=True) as pilot:
                modal = await wait_for_modal(pilot, "Fast 0?")
                await wait_for(pilot, lambda: modal.armed)
                for _ in asked:
                    await pilot.press("enter")
                    await asyncio.sleep(0.35)
                await wait_for(pilot, lambda: asked[-1].done() or bool(list(app._notifications)))
                assert [str(notice.message) for notice in app._notifications] == []
        finally:
            front_end.close()
    assert [future.result().content for future in asked] == ["a"] * 4


async def test_attached_a_key_typed_while_the_answer_is_sent_holds_what_follows_it() -> None:
    # "2" typed as the answer was on its way, for the question to come, is lost (the answer
    # is given); the Enter after it, as that question appears, would answer its default.
    from tui.app.attach_app import AttachApp

    with running_inbox() as inbox:
        first = inbox.inbox.submit(ChoiceRequest(message="Keep?", options=["a", "b"]))
        second = inbox.inbox.submit(ChoiceRequest(message="Next?", options=["a", "b"]))
        front_end = SlowInbox(inbox.url, inbox.token, "terminal 1")
        front_end.connect()
        app = AttachApp(front_end)
        try:
            async with app.run_test(size=SIZE, notifications=True) as pilot:
                modal = await wait_for_modal(pilot, "Keep?")
                await wait_for(pilot, lambda: modal.armed)
                await pilot.press("enter")
                await wait_for(pilot, lambda: modal.sending)
                await pilot.press("2")
                await wait_for_modal(pilot, "Next?")
                await pilot.press("enter")
                await pilot.pause(0.3)
                await pilot.press("enter")  # and again, still typing on
                await pilot.pause(0.3)
                assert first.done()
                assert not second.done(), "an Enter typed on after a lost key answered unread"
                assert [str(notice.message) for notice in app._notifications] == [
                    "A key came as this question appeared, too soon to be meant for it.\n"
                    + KEYS_HELD
                ]
        finally:
            front_end.close()


async def test_no_key_is_for_a_question_taken_to_show_until_it_has_appeared() -> None:
    # Taken from the modals built ahead, a question appears as its screen resumes; a busy
    # machine can put that off for longer than the grace, and a key read meanwhile, at a
    # question not on screen yet, was taken for it.
    question = ChoiceRequest(message="Keep?", options=["a", "b"])
    app = ElicitationApp(ElicitationQueue(), input_grace=0.2)
    async with app.run_test(size=SIZE) as pilot:
        modal = app._modals.take(question)
        assert not modal.appeared
        assert not modal.armed_for(time.monotonic() + 10)
        app.push_screen(modal)
        await wait_for(pilot, lambda: modal.appeared)
        assert not modal.armed  # then the grace
        await wait_for(pilot, lambda: modal.armed)
        assert not modal.armed_for(modal.shown_at - 0.01)  # read before it appeared

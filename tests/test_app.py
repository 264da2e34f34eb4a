"""The real app, driven with Pilot: an agent thread asks, the keyboard answers."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from app_driver import screen_text, wait_for
from pydantic import SecretStr
from rich.console import RenderableType
from textual import events
from textual.screen import Screen
from textual.widgets import Input

from tui import ElicitationApp, ElicitationQueue, ElicitationResult, TextRequest, parse_request
from tui.app.app import QUOTED_LENGTH
from widgets.base import ElicitationModal
from widgets.timeline import Timeline

SIZE = (80, 24)


def one_question(data: dict[str, Any], results: list[ElicitationResult]) -> Callable[..., str]:
    """An agent that asks `data` once, keeps the result, and returns 'done'."""

    def agent(queue: ElicitationQueue) -> str:
        results.append(queue.ask(parse_request(data)))
        return "done"

    return agent


async def answer(data: dict[str, Any], *keys: str) -> ElicitationResult:
    """Show `data` in the app, press `keys`, and return what the agent received."""
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(data, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press(*keys)
        await wait_for(pilot, lambda: bool(results))
    return results[0]


CHOICE = {
    "kind": "choice",
    "message": "Which database?",
    "options": ["Postgres", {"label": "SQLite", "value": "sqlite", "description": "a file"}],
    "default": "sqlite",
}
MULTI = {
    "kind": "multi_choice",
    "message": "Which features?",
    "options": ["auth", "metrics", "jobs"],
    "default": ["metrics"],
    "min_selected": 1,
    "max_selected": 2,
}
TEXT = {"kind": "text", "message": "Service name?", "min_length": 3}
MULTILINE = {"kind": "text", "message": "Release notes?", "multiline": True}
SECRET = {"kind": "secret", "message": "API key?", "min_length": 4}
CONFIRM = {"kind": "confirmation", "message": "Deploy now?", "default": True}
FORM = {
    "kind": "form",
    "message": "Deployment",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 2},
            "replicas": {"type": "integer", "minimum": 1, "maximum": 5, "default": 2},
            "ratio": {"type": "number"},
            "public": {"type": "boolean", "default": False},
            "tier": {"type": "string", "enum": ["free", "pro"], "default": "free"},
        },
        "required": ["name", "replicas"],
    },
}


@pytest.mark.parametrize(
    ("data", "keys", "content"),
    [
        (CHOICE, ["enter"], "sqlite"),
        (CHOICE, ["up", "enter"], "Postgres"),
        (CHOICE, ["1"], "Postgres"),
        (MULTI, ["1", "enter"], ["auth", "metrics"]),
        (MULTI, ["down", "space", "3", "enter"], ["jobs"]),
        (TEXT, ["a", "p", "i", "enter"], "api"),
        (MULTILINE, ["a", "enter", "b", "ctrl+s"], "a\nb"),
        (CONFIRM, ["enter"], True),
        (CONFIRM, ["n"], False),
        (CONFIRM, ["right", "enter"], False),
        (
            FORM,
            ["w", "e", "b", "enter", "backspace", "3", "enter", "0", ".", "5", "ctrl+s"],
            {"name": "web", "replicas": 3, "ratio": 0.5, "public": False, "tier": "free"},
        ),
    ],
    ids=[
        "choice-default",
        "choice-arrow",
        "choice-digit",
        "multi-digit",
        "multi-space",
        "text",
        "multiline",
        "confirm-default",
        "confirm-n",
        "confirm-arrow",
        "form",
    ],
)
async def test_keyboard_accept_gives_typed_content(
    data: dict[str, Any], keys: list[str], content: Any
) -> None:
    result = await answer(data, *keys)
    assert result.action == "accept"
    assert result.content == content
    assert type(result.content) is type(content)


async def test_secret_comes_back_as_secret_str() -> None:
    result = await answer(SECRET, "s", "k", "-", "1", "enter")
    assert result.action == "accept"
    assert isinstance(result.content, SecretStr)
    assert result.content.get_secret_value() == "sk-1"


@pytest.mark.parametrize("data", [CHOICE, MULTI, TEXT, MULTILINE, SECRET, CONFIRM, FORM])
async def test_escape_cancels_and_ctrl_n_declines(data: dict[str, Any]) -> None:
    assert (await answer(data, "escape")).action == "cancel"
    assert (await answer(data, "ctrl+n")).action == "decline"


async def test_invalid_input_keeps_modal_open_and_text() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(TEXT, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press("a", "b", "enter")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ElicitationModal)
        assert "at least 3" in str(modal.query_one("#error").render())
        assert modal.query_one(Input).value == "ab"
        assert not results
        await pilot.press("c", "enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == "abc"


async def test_a_paste_longer_than_the_field_shows_its_end_and_the_cursor() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(TEXT, results), input_grace=0)
    pasted = "word " * 400
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        field = app.focused
        assert isinstance(field, Input)
        app.post_message(events.Paste(pasted))
        await wait_for(pilot, lambda: field.value == pasted)
        await pilot.pause()
        # The cursor, after the text's end, is in view (an Input draws one cell more than
        # its width for it), not the text's first cells.
        assert field.scroll_x > 0
        assert 0 <= field._cursor_offset - field.scroll_x <= field.scrollable_content_region.width
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == pasted


async def test_a_paste_of_several_lines_into_a_one_line_field_is_refused_saying_so() -> None:
    # Only its first line went in, without a word: the answer lost the rest unseen.
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(TEXT, results), input_grace=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        field = app.focused
        assert isinstance(field, Input)
        app.post_message(events.Paste("line one\nline two\r\nline three"))
        app.post_message(events.Paste("one line\n"))  # copied with its line break: kept
        await wait_for(pilot, lambda: bool(app._notifications))
        await pilot.pause()
        assert field.value == "one line"
        [notice] = [str(n.message) for n in app._notifications]
        assert notice == "This field takes one line; the paste had 3, and was left out."
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == "one line"


async def test_text_past_a_field_s_limit_is_left_out_saying_so() -> None:
    # Keys typed past `max_length` and a paste that would pass it were dropped with a bell
    # most terminals keep silent: the answer was cut unseen.
    results: list[ElicitationResult] = []
    short = {"kind": "text", "message": "Code?", "max_length": 10}
    app = ElicitationApp(ElicitationQueue(), one_question(short, results), input_grace=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        field = app.focused
        assert isinstance(field, Input)
        app.post_message(events.Paste("x" * 20))
        await wait_for(pilot, lambda: bool(app._notifications))
        await pilot.press(*"abcdefghijklmnopqrst")
        await wait_for(pilot, lambda: len(app._notifications) == 2)
        await pilot.pause()
        assert [str(n.message) for n in app._notifications] == [
            "This field takes at most 10 characters; the paste had 20, and was left out.",
            "This field takes at most 10 characters; what was typed past them was left out.",
        ]
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == "abcdefghij"


async def test_multi_choice_bounds_are_enforced_with_a_message() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(MULTI, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press("a", "enter")
        await pilot.pause()
        assert "at most 2" in str(app.screen.query_one("#error").render())
        await pilot.press("a", "enter")
        await pilot.pause()
        assert "at least 1" in str(app.screen.query_one("#error").render())
        await pilot.press("2", "enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == ["metrics"]


async def test_many_options_filter_by_typing() -> None:
    options = [f"region-{name}" for name in ("north", "south", "east", "west")] + [
        f"zone-{n}" for n in range(8)
    ]
    data = {"kind": "choice", "message": "Where?", "options": options}
    assert (await answer(data, "w", "e", "s", "enter")).content == "region-west"
    # Digits pick by the number shown beside the filtered options: zone-2 is third...
    assert (await answer(data, "z", "o", "n", "e", "3")).content == "zone-2"
    # ... unless an option holds the filter's text followed by the digit: then it filters,
    # and so does a 0, which no option is numbered.
    assert (
        await answer(data, "x", "y", "backspace", "backspace", "2", "enter")
    ).content == "zone-2"
    numbered = {
        "kind": "choice",
        "message": "Where?",
        "options": [f"zone-{n:02}-{side}" for n in range(1, 13) for side in ("eu", "us")],
    }
    assert (await answer(numbered, *"08-us", "enter")).content == "zone-08-us"
    assert (await answer(numbered, *"-1", "2", "-e", "enter")).content == "zone-12-eu"
    assert (await answer(numbered, *"us", "3")).content == "zone-03-us"


async def test_a_filter_changed_clears_what_was_said_of_the_last_one() -> None:
    options = [f"zone-{n}" for n in range(12)]
    data = {"kind": "choice", "message": "Where?", "options": options}
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(data, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press("x", "enter")
        await pilot.pause()
        error = app.screen.query_one("#error")
        assert "Nothing matches" in str(error.render())
        await pilot.press("backspace")
        await pilot.pause()
        assert str(error.render()) == ""
        await pilot.press("x", "enter", "escape")
        await pilot.pause()
        assert str(error.render()) == ""
        await pilot.press("3", "enter")  # a digit the options hold filters
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == "zone-3"


async def test_keys_in_the_grace_period_are_ignored() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(CONFIRM, results), input_grace=0.3)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press("n")
        await pilot.pause(0.1)
        assert not results, "a key pressed as the modal appeared answered it"
        # Once the grace is over and the typing after it has paused (five graces).
        await pilot.pause(1.6)
        await pilot.press("y")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content is True


async def test_requests_are_shown_one_at_a_time_in_arrival_order() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        futures = [
            queue.submit(parse_request({"kind": "confirmation", "message": f"Q{n}?"}))
            for n in range(3)
        ]
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        modal = app.screen
        assert isinstance(modal, ElicitationModal)
        assert modal.request.message == "Q0?"
        assert "2 more waiting" in str(modal.query_one("#meta").render())
        for n in range(3):
            await wait_for(
                pilot,
                lambda n=n: (
                    isinstance(app.screen, ElicitationModal)
                    and app.screen.request.message == f"Q{n}?"
                ),
            )
            await pilot.press("y")
        await wait_for(pilot, lambda: all(f.done() for f in futures))
    assert [f.result().content for f in futures] == [True, True, True]


async def test_timeout_closes_the_modal_with_a_notification() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        # Long enough for the modal to be shown first on a loaded machine, short for a test.
        future = queue.submit(parse_request({**CONFIRM, "timeout": 2}))
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        assert "⏱" in str(app.screen.query_one("#meta").render())
        await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationModal))
        assert future.result() == ElicitationResult(action="cancel", reason="timeout")
        await wait_for(pilot, lambda: any("Timed out" in n.message for n in app._notifications))


async def test_agent_cancel_closes_the_modal() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        request = parse_request(CHOICE)
        future = queue.submit(request)
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        queue.cancel(request.id)
        await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationModal))
        assert future.result().reason == "cancelled_by_agent"
        await wait_for(pilot, lambda: any("Withdrawn" in n.message for n in app._notifications))


async def test_a_long_question_ended_elsewhere_is_quoted_on_one_short_line() -> None:
    # The notice quoted the whole question: one of 3,000 characters covered the right half
    # of an 80x24 screen, over the call shown next, its text cut with no ellipsis.
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        request = TextRequest(message="Long:\n" + "W" * 3000 + " END")
        queue.submit(request)
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        queue.respond(request.id, ElicitationResult(action="decline"), "browser")
        await wait_for(pilot, lambda: bool(app._notifications))
        [notice] = list(app._notifications)
        assert notice.message.startswith("Declined in browser at ")
        assert notice.message.endswith(": Long: ⏎ " + "W" * (QUOTED_LENGTH - 9) + "…")


async def test_questions_ending_here_one_after_another_share_one_notice() -> None:
    # Each "Withdrawn by the agent" notice stacked over the question shown next for 5 s.
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        asked = [TextRequest(message=f"Q{n}?") for n in range(4)]
        for request in asked:
            queue.submit(request)
        for request in asked[:3]:
            await wait_for(pilot, lambda r=request: getattr(app.screen, "request", None) == r)
            queue.cancel(request.id)
        await wait_for(pilot, lambda: getattr(app.screen, "request", None) == asked[3])
        await pilot.pause()
        assert [n.message for n in app._notifications] == [
            "Withdrawn by the agent: Q2? (and 2 more before it)"
        ]


async def test_quit_with_pending_requests_unblocks_every_agent_thread() -> None:
    queue = ElicitationQueue()
    results: list[ElicitationResult] = []
    lock = threading.Lock()

    def ask_one(n: int) -> None:
        result = queue.ask(parse_request({"kind": "text", "message": f"Q{n}?"}))
        with lock:
            results.append(result)

    threads = [threading.Thread(target=ask_one, args=(n,), daemon=True) for n in range(5)]
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        for thread in threads:
            thread.start()
        await wait_for(pilot, lambda: len(queue.pending()) == 5)
        await pilot.press("ctrl+q")
    started = time.monotonic()
    for thread in threads:
        thread.join(timeout=1.0)
    assert time.monotonic() - started < 1.0
    assert not any(thread.is_alive() for thread in threads)
    assert results == [ElicitationResult(action="cancel", reason="closed")] * 5
    assert queue.closed


async def test_q_on_the_main_screen_quits_and_returns_the_agent_result() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(CONFIRM, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press("y")
        await wait_for(pilot, lambda: app.agent_result == "done")
        await pilot.press("q")
        await pilot.pause()
    assert app.return_value == "done"


async def test_agent_exception_is_shown_not_fatal() -> None:
    def failing_agent(queue: ElicitationQueue) -> None:
        queue.ask(parse_request(CONFIRM))
        raise RuntimeError("the deploy target is unreachable")

    app = ElicitationApp(ElicitationQueue(), failing_agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press("y")
        status = app.query_one("#agent-status")
        await wait_for(pilot, lambda: status.has_class("failed"))
        assert "RuntimeError: the deploy target is unreachable" in status.summary
        assert app.is_running
        # Kept for the program that ran the app: `run()` returns None either way.
        assert isinstance(app.agent_error, RuntimeError) and app.agent_result is None


async def test_an_async_agent_function_is_run_to_its_end() -> None:
    # It was called and never awaited: no question, and "returned: <coroutine object …>".
    async def agent(queue: ElicitationQueue) -> str:
        answer = await queue.ask_async(parse_request(CONFIRM))
        return f"confirmed: {answer.content}"

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press("y")
        await wait_for(pilot, lambda: app.agent_result is not None)
    assert app.agent_result == "confirmed: True" and app.agent_error is None


async def test_a_failure_is_said_once_in_full_over_the_calls_that_led_to_it() -> None:
    failure = RuntimeError("the deploy target deploy.billing.internal:443 is unreachable")

    def failing_agent(queue: ElicitationQueue) -> None:
        raise failure

    app = ElicitationApp(ElicitationQueue(), failing_agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        status = app.query_one("#agent-status")
        await wait_for(pilot, lambda: status.has_class("failed"))
        await pilot.pause()
        shown = screen_text(app)
    assert shown.count("RuntimeError") == 1, shown
    assert "deploy.billing.internal:443 is" in shown and "unreachable" in shown
    assert "raise failure" in shown  # the call that raised it


async def test_timeline_records_requests_and_outcomes() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), one_question(SECRET, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        # The title bar follows once the modal has painted.
        await wait_for(pilot, lambda: app.sub_title.startswith("question waiting"))
        await pilot.press("h", "u", "n", "t", "e", "r", "2", "enter")
        await wait_for(pilot, lambda: bool(results))
        timeline = app.query_one(Timeline)
        # The table is redrawn once its rows stop changing (REDRAW_DELAY).
        await wait_for(pilot, lambda: timeline.row_count > 0)
        row = timeline.cells(next(iter(timeline.rows)).value or "")
        assert list(row.values())[1:] == ["secret", "✔ •••", "API key?"]
        assert "hunter2" not in " ".join(row.values())


class DialogsUndrawn(ElicitationApp):
    """Writes no frame of a dialog until `drawing` is set: as if its first frame were late."""

    drawing = False

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        if self.drawing or not isinstance(screen, ElicitationModal):
            super()._display(screen, renderable)


async def test_the_main_screen_news_waits_for_the_question_to_be_drawn() -> None:
    """The header's "question waiting" (and the timeline's row) are made once the dialog's
    first frame is written, never before it, however many refreshes come first: made before,
    they would make the question wait."""
    queue = ElicitationQueue()
    app = DialogsUndrawn(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        queue.submit(parse_request(CHOICE))
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        for _ in range(5):
            app.refresh()
            await pilot.pause(0.02)
        assert app.sub_title == ""
        app.drawing = True
        app.screen.refresh()
        await wait_for(pilot, lambda: app.sub_title == "question waiting: Which database?")


@pytest.mark.parametrize("delay", [0, 0.002, 0.01])
async def test_quitting_while_a_modal_mounts_is_clean(delay: float) -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        future = queue.submit(parse_request(CHOICE))
        await asyncio.sleep(delay)
        await app.action_quit()
        await pilot.pause(0.1)
    assert future.result() == ElicitationResult(action="cancel", reason="closed")


async def test_ask_blocks_in_a_thread_running_its_own_loop_but_not_in_the_app_s() -> None:
    queue = ElicitationQueue()
    results: list[ElicitationResult] = []

    async def async_hook_calling_sync_code() -> None:
        results.append(queue.ask(parse_request(CONFIRM)))

    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        with pytest.raises(RuntimeError, match="event-loop thread of a front end"):
            queue.ask(parse_request(TEXT))
        other = threading.Thread(target=asyncio.run, args=(async_hook_calling_sync_code(),))
        other.start()
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press("y")
        await wait_for(pilot, lambda: bool(results))
        other.join(timeout=5)
    assert results == [ElicitationResult(action="accept", content=True)]


async def test_the_notice_of_a_question_ended_elsewhere_goes_at_the_first_key_the_next_takes() -> (
    None
):
    # At 40x12, "Answered in browser at …" covered the right half of the question shown next,
    # its last option with it, for all of its 5 s, keys pressed in that question or not.
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=(40, 12), notifications=True) as pilot:
        second = TextRequest(message="Second: which branch?")
        queue.submit(second)
        third = queue.submit(
            parse_request(
                {"kind": "choice", "message": "Third?", "options": ["restart", "leave it be"]}
            )
        )
        await wait_for(pilot, lambda: getattr(app.screen, "request", None) == second)
        queue.respond(second.id, ElicitationResult(action="accept", content="main"), "browser")
        await wait_for(pilot, lambda: getattr(app.screen, "request", None) != second)
        await wait_for(pilot, lambda: bool(app._notifications))
        [notice] = list(app._notifications)
        assert notice.message.startswith("Answered in browser at ")
        await pilot.press("down")
        await pilot.pause()
        assert list(app._notifications) == []
        assert "2 leave it be" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, third.done)
    assert third.result().content == "leave it be"

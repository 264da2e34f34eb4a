"""Quitting the full app: Ctrl+Q from anywhere, Ctrl+C says how, and the agent's value survives."""

from __future__ import annotations

import asyncio
import contextlib
import io
import threading
from typing import Any

import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from asking import Asker

from tui import ElicitationApp, ElicitationQueue, ElicitationResult, TextRequest, parse_request
from widgets.agent_status import AgentStatus

CONFIRM = {"kind": "confirmation", "message": "Deploy now?"}


def waiting_agent(results: list[ElicitationResult]) -> Any:
    """An agent that asks once, and returns what it makes of the answer."""

    def agent(queue: ElicitationQueue) -> str:
        result = queue.ask(parse_request(CONFIRM))
        results.append(result)
        return f"stopped: {result.reason}" if not result.accepted else "deployed"

    return agent


async def test_ctrl_q_in_a_modal_quits_even_in_the_input_grace() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), waiting_agent(results), input_grace=60)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running)
    assert results == [ElicitationResult(action="cancel", reason="closed")]


@pytest.mark.parametrize(
    "data",
    [
        CONFIRM,
        {"kind": "text", "message": "Name?"},
        {"kind": "choice", "message": "Which?", "options": ["a", "b"]},
    ],
)
async def test_every_modal_footer_shows_ctrl_q(data: dict[str, Any]) -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(data)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        # What the modal's footer lists: its active bindings that are shown.
        shown = {
            key: active.binding.description
            for key, active in modal.active_bindings.items()
            if active.binding.show
        }
        assert shown.get("ctrl+q") == "Quit"


async def test_ctrl_c_in_a_modal_says_how_to_quit_as_on_the_main_screen() -> None:
    app = ElicitationApp(ElicitationQueue(), waiting_agent([]), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: any("Ctrl+Q" in n.message for n in app._notifications))
        assert app.screen is modal, "Ctrl+C answered or closed the question"
        app.clear_notifications()
        modal.dismiss(ElicitationResult(action="cancel"))
        await wait_for(pilot, lambda: app.screen is app.default_screen)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: any("Ctrl+Q" in n.message for n in app._notifications))
        assert app.is_running


async def test_quitting_while_the_agent_waits_returns_the_agent_s_value() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), waiting_agent(results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running)
    assert app.return_value == "stopped: closed"


async def test_an_agent_that_never_returns_does_not_keep_the_app_from_quitting() -> None:
    stuck = threading.Event()

    def agent(queue: ElicitationQueue) -> None:
        queue.ask(parse_request(CONFIRM))
        stuck.wait()

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: "Quitting" in app.query_one(AgentStatus).summary)
        await wait_for(pilot, lambda: not app.is_running)
    assert app.return_value is None
    stuck.set()


def test_exit_racing_the_agent_s_return_is_clean_and_keeps_its_value() -> None:
    """A request times out, the agent returns at once, and the person quits in that instant."""
    for _ in range(50):
        apps: list[ElicitationApp] = []

        def agent(queue: ElicitationQueue, apps: list[ElicitationApp] = apps) -> str:
            queue.ask(TextRequest(message="Name?", timeout=0.01))
            apps[0].simulate_key("ctrl+q")
            return "agent value"

        app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
        apps.append(app)
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            value = app.run(headless=True, size=SIZE)

        assert (value, app.return_code, errors.getvalue()) == ("agent value", 0, "")


async def test_leaving_the_app_as_the_agent_returns_raises_nothing() -> None:
    for _ in range(50):
        done = threading.Event()

        def agent(queue: ElicitationQueue, done: threading.Event = done) -> str:
            queue.ask(TextRequest(message="Name?", timeout=0.01))
            done.set()
            return "agent value"

        app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
        async with app.run_test(size=SIZE):
            while not done.is_set():
                await asyncio.sleep(0.001)


async def test_the_title_names_the_question_on_screen_after_each_answer() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        for n in range(3):
            queue.submit(parse_request({"kind": "confirmation", "message": f"Q{n}?"}))
        for n in range(3):
            await wait_for_modal(pilot, f"Q{n}?")
            # The title follows the modal's first frame (it is drawn under the modal).
            await wait_for(pilot, lambda n=n: app.sub_title == f"question waiting: Q{n}?")
            await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is app.default_screen and app.sub_title == "")


@pytest.mark.parametrize("turns", range(6))
async def test_exiting_as_a_modal_mounts_lets_it_mount_first(turns: int) -> None:
    # The request arrives, then the app is told to exit a few event-loop turns later: while
    # the modal is pushed, composed or mounting. Its on_mount must not find its widgets gone.
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE):
        answer = queue.submit(parse_request({"kind": "choice", "message": "x?", "options": ["a"]}))
        for _ in range(turns):
            await asyncio.sleep(0)
        app.exit("bye")
        await asyncio.sleep(0.3)
    assert app.return_value == "bye"
    assert answer.result(timeout=1) == ElicitationResult(action="cancel", reason="closed")

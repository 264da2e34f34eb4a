"""The garbage collector is held while a question is drawn and runs again once it is on
screen; a collector the program turned off stays off, and one held is never left off."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from asking import Asker
from textual._compositor import CompositorUpdate
from textual.screen import Screen

from tui.app import collector_hold
from tui.app.app import ElicitationApp
from tui.app.collector_hold import CollectorHold
from tui.core.models import ChoiceRequest, FormRequest, TextRequest
from tui.core.queue import ElicitationQueue
from widgets.choice import ChoiceModal


@pytest.fixture(autouse=True)
def collector_left_on() -> Iterator[None]:
    """Each test starts with the collector on, and leaves it on for the next."""
    assert gc.isenabled()
    yield
    gc.enable()


def watch_frames(app: ElicitationApp) -> list[tuple[str, bool]]:
    """Each frame the app writes from now on: its text, and whether the collector was on."""
    frames: list[tuple[str, bool]] = []
    display = app._display

    def watched(screen: Screen[Any], update: Any) -> None:
        if isinstance(update, CompositorUpdate):
            frames.append(("".join(update.render_segments(app.console)), gc.isenabled()))
        display(screen, update)

    app._display = watched  # type: ignore[method-assign]
    return frames


def collector_on(frames: list[tuple[str, bool]], text: str) -> list[bool]:
    """For each frame with `text` in it: whether the collector was on as it was written."""
    return [on for shown, on in frames if text in shown]


@pytest.mark.parametrize(
    "request_",
    [
        ChoiceRequest(message="Which region?", options=["eu-west", "us-east"]),
        TextRequest(message="Which region?", placeholder="eu-west"),
        FormRequest(
            message="Which region?",
            requested_schema={
                "type": "object",
                "properties": {"region": {"type": "string", "title": "eu-west"}},
            },
        ),
    ],
    ids=["choice", "text", "form"],
)
async def test_the_collector_is_held_until_the_question_is_drawn(request_: Any) -> None:
    asker = Asker(request_)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    frames = watch_frames(app)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(collector_on(frames, "Which region?")))
        # The first frame with the question was drawn with the collector held...
        assert collector_on(frames, "Which region?")[0] is False
        # ...and it runs again once that frame is out, before anything is answered.
        await wait_for(pilot, gc.isenabled)
        assert not asker.results
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: len(asker.results) == 1)
    assert gc.isenabled()


async def test_each_question_of_many_holds_it_and_lets_it_go() -> None:
    asker = Asker(*(TextRequest(message=f"Question {n}?") for n in range(3)))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    frames = watch_frames(app)
    async with app.run_test(size=SIZE) as pilot:
        for n in range(3):
            await wait_for_modal(pilot, f"Question {n}?")
            await pilot.press("x", "enter")
            await wait_for(pilot, lambda n=n: len(asker.results) == n + 1)
    assert [result.content for result in asker.results] == ["x", "x", "x"]
    for n in range(3):
        # Each question's frames: the first drawn held, the collector on again in a later one.
        on = collector_on(frames, f"Question {n}?")
        assert on[0] is False
        assert True in on[1:]
    assert gc.isenabled()


async def test_a_collector_the_program_turned_off_stays_off() -> None:
    gc.disable()
    asker = Asker(ChoiceRequest(message="Which region?", options=["eu-west", "us-east"]))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    frames = watch_frames(app)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Which region?")
        await wait_for(pilot, lambda: bool(collector_on(frames, "eu-west")))
        await pilot.pause(0.05)
        assert not gc.isenabled()
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 1)
    assert asker.results[0].content == "eu-west"
    assert not gc.isenabled()


async def test_the_collector_runs_again_after_a_dialog_fails_to_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(self: ChoiceModal) -> Any:
        raise RuntimeError("the dialog could not be built")

    monkeypatch.setattr(ChoiceModal, "compose_body", broken)
    # Within the test, never by its time limit.
    monkeypatch.setattr(collector_hold, "HOLD_AT_MOST", 60.0)
    asker = Asker(ChoiceRequest(message="Which region?", options=["eu-west", "us-east"]))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(asker.results))
        # The dialog's failure ended its question, not the app, and not the collector.
        assert gc.isenabled()
        assert app.is_running
    assert asker.results[0].reason == "dialog_failed: choice (RuntimeError)"


async def test_a_hold_ends_by_itself_if_no_frame_ever_comes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(collector_hold, "HOLD_AT_MOST", 0.05)
    hold = CollectorHold()
    hold.hold()
    assert hold.holding and not gc.isenabled()
    await asyncio.sleep(0.2)
    assert not hold.holding and gc.isenabled()
    # Released early, its time limit no longer ends a later hold.
    hold.hold()
    hold.release()
    monkeypatch.setattr(collector_hold, "HOLD_AT_MOST", 10.0)
    hold.hold()
    await asyncio.sleep(0.2)
    assert hold.holding and not gc.isenabled()
    hold.release()
    hold.release()
    assert gc.isenabled()


async def test_the_collector_runs_again_when_the_app_ends_holding_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(collector_hold, "HOLD_AT_MOST", 60.0)
    app = ElicitationApp(ElicitationQueue())
    async with app.run_test(size=SIZE):
        app._collector.hold()  # as if a question were being built as the app ends
        held = not gc.isenabled()
    assert held
    assert gc.isenabled()

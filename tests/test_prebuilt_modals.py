"""An app left idle builds a modal of each common request shape ahead: the first question of
each is then shown by reloading it, exactly as the next ones are, and nothing is left behind
when a question comes before the modal of its shape is built."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from asking import Asker, burst
from pydantic import SecretStr

import tui.app.app as app_module
from tui.app.app import ElicitationApp
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    MultiChoiceRequest,
    Question,
    QuestionsRequest,
    Request,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
)
from tui.core.queue import ElicitationQueue
from widgets.base import ElicitationModal
from widgets.modal_pool import ModalPool
from widgets.multi_choice import MultiChoiceModal
from widgets.questions import QuestionsModal


class LateAsker(Asker):
    """An Asker that starts asking once `go` is set."""

    def __init__(self, *requests: Request) -> None:
        super().__init__(*requests)
        self.go = threading.Event()

    def __call__(self, queue: ElicitationQueue) -> str:
        self.go.wait(10)
        return super().__call__(queue)


BUILT_AHEAD = 9
"""Modals an idle app builds ahead: one of each common shape (see the first test)."""


def modals_of(app: ElicitationApp) -> set[ElicitationModal[Any]]:
    """Every modal the app holds, shown or kept."""
    return {s for s in app._installed_screens.values() if isinstance(s, ElicitationModal)}


BATCH = QuestionsRequest(
    message="Set up the service",
    questions=[
        Question(question="Which framework?", header="Framework", options=["Flask", "Django"]),
        Question(
            question="Which features?",
            header="Features",
            options=["Auth", "Cache", "Metrics"],
            multi_select=True,
            allow_other=False,
        ),
        Question(question="Which licence?", options=["MIT", "Apache-2.0"]),
    ],
)
"""A batch whose first question is of the shape built ahead, and whose others are not."""


async def test_the_first_question_of_each_common_kind_is_shown_in_a_modal_built_while_idle() -> (
    None
):
    asker = LateAsker(
        ChoiceRequest(message="Region?", options=["eu", "us"]),
        TextRequest(message="Service name?"),
        ConfirmationRequest(message="Deploy?"),
        MultiChoiceRequest(message="Which?", options=["a", "b", "c"]),
        SecretRequest(message="API key?"),
        ChoiceRequest(message="Zone?", options=[f"zone {n}" for n in range(12)]),
        ToolApprovalRequest(message="Drop it?", tool_name="drop_table", tool_call_id="call-1"),
        BATCH,
        MultiChoiceRequest(message="Which ports?", options=[str(n) for n in range(8000, 8012)]),
    )
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app._prebuilt)
        built = modals_of(app)
        asker.go.set()
        shown = []
        listed = []
        for request, keys in zip(
            asker.requests,
            [
                ["down"],
                [*"payments"],
                ["tab"],
                ["space"],
                [*"s3cret"],
                ["down", "down"],
                ["4", *"not today"],
                ["2", "down", "space", "enter", "enter"],
                ["down", "space"],
            ],
            strict=True,
        ):
            modal = await wait_for_modal(pilot, request.message)
            shown.append(modal)
            if isinstance(modal, MultiChoiceModal):
                listed.append(modal.checklist.option_count)  # nothing of its first filling
            burst(app, *keys, "enter")
        await wait_for(pilot, lambda: len(asker.results) == len(asker.requests))
        after = modals_of(app)
    assert set(shown) == built == after
    assert listed == [3, 12]
    contents = [r.content for r in asker.results]
    secret = contents.pop(4)
    assert isinstance(secret, SecretStr) and secret.get_secret_value() == "s3cret"
    assert contents == [
        "us",
        "payments",
        True,
        ["a"],
        "zone 2",
        {"reason": "not today"},
        {
            "answers": {
                "Which framework?": "Django",
                "Which features?": ["Cache"],
                "Which licence?": "MIT",
            },
            "notes": {},
        },
        ["8001"],
    ]


async def test_a_question_asked_at_once_is_shown_and_no_modal_is_left_over_once_idle() -> None:
    asker = Asker(
        ChoiceRequest(message="Region?", options=["eu", "us"]),
        TextRequest(message="Service name?"),
    )
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Region?")
        await pilot.press("enter")
        await wait_for_modal(pilot, "Service name?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
        await wait_for(pilot, lambda: app._prebuilt)
        await pilot.pause()
        kept = modals_of(app)
        idle = set(app._modals._idle.values())
        running = [m for m in kept if m.is_running]
    assert [r.content for r in asker.results] == ["eu", ""]
    # One modal per shape, every one of them ready to be reloaded, none forgotten running.
    assert kept == idle
    assert len(running) == len(kept) == BUILT_AHEAD


class FirstFrameHeld(ElicitationApp):
    """Holds back the app's call to build ahead after its first frame until the test makes
    it: as when the first question is answered within that frame, before the call comes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.held: list[Callable[[], object]] = []

    def call_after_refresh(
        self, callback: Callable[..., object], *args: Any, **kwargs: Any
    ) -> bool:
        if getattr(callback, "__self__", None) is self and callback.__name__.startswith(
            "_prebuild"
        ):
            self.held.append(callback)
            return True
        return super().call_after_refresh(callback, *args, **kwargs)


async def test_a_first_question_answered_before_the_first_frame_s_call_leaves_building_to_idle() -> (
    None
):
    asker = Asker(ChoiceRequest(message="Region?", options=["eu", "us"]))
    app = FirstFrameHeld(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Region?")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: len(asker.results) == 1 and app._shown is None)
        [after_first_frame] = app.held
        after_first_frame()
        await pilot.pause()
        # The wait for the app to be idle, begun by the answer, goes on: nothing is built
        # beside the agent's next question if it comes within that wait.
        building_at_once = app._prebuilding
        kept_meanwhile = len(modals_of(app))
        await wait_for(pilot, lambda: app._prebuilt)
        kept_once_idle = len(modals_of(app))
    assert asker.results[0].content == "us"
    assert (building_at_once, kept_meanwhile, kept_once_idle) == (False, 1, BUILT_AHEAD)


COMMON = [
    ChoiceRequest(message="Region?", options=["eu-west", "us-east"], default="us-east"),
    ChoiceRequest(message="Zone?", options=[f"zone {n}" for n in range(12)]),
    TextRequest(message="Service name?", placeholder="e.g. payments", max_length=20),
    ConfirmationRequest(message="Deploy?", yes_label="Ship it", no_label="Hold"),
    MultiChoiceRequest(message="Which?", options=["auth", "cache", "metrics"], default=["cache"]),
    SecretRequest(message="API key?"),
    ToolApprovalRequest(
        tool_name="deploy", arguments={"env": "staging", "replicas": 3}, tool_call_id="call-1"
    ),
    BATCH,
]


class FreshModalsApp(ElicitationApp):
    prebuilds_modals = False


@pytest.mark.parametrize("request_", COMMON, ids=lambda r: f"{r.kind}-{r.message}")
async def test_a_question_shown_by_a_modal_built_and_drawn_ahead_looks_as_in_a_fresh_modal(
    request_: Request,
) -> None:
    shown = []
    for app_class in (ElicitationApp, FreshModalsApp):
        asker = LateAsker(request_)
        app = app_class(ElicitationQueue(), asker, input_grace=0)
        async with app.run_test(size=SIZE) as pilot:
            if app.prebuilds_modals:
                await wait_for(pilot, lambda app=app: app._prebuilt)
                built = modals_of(app)
            asker.go.set()
            modal = await wait_for_modal(pilot, request_.message)
            await pilot.pause()
            shown.append(screen_text(app))
            burst(app, "escape")
            await wait_for(pilot, lambda asker=asker: len(asker.results) == 1)
        if app.prebuilds_modals:
            assert modal in built
    ahead, fresh = shown
    assert ahead == fresh
    assert request_.message in ahead


async def test_the_common_modals_are_built_from_the_first_frame_on_without_a_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Only the start can set the building off: the wait after an answer never ends here.
    monkeypatch.setattr(app_module, "PREBUILD_AFTER_IDLE", 3600.0)
    asker = LateAsker(TextRequest(message="Service name?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app._prebuilt)
        built = modals_of(app)
        asker.go.set()
        modal = await wait_for_modal(pilot, "Service name?")
        burst(app, *"api", "enter")
        await wait_for(pilot, lambda: len(asker.results) == 1)
    assert len(built) == BUILT_AHEAD
    assert modal in built
    assert asker.results[0].content == "api"


async def test_a_batch_built_ahead_builds_its_later_questions_only_once_shown() -> None:
    # Built while idle they could hold up whichever question comes first; shown, they come
    # after the batch's first frame.
    asker = LateAsker(BATCH)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app._prebuilt)
        for _ in range(5):
            await pilot.pause()
        (built,) = [m for m in modals_of(app) if isinstance(m, QuestionsModal)]
        while_idle = [pane.is_attached for pane in built.panes]
        asker.go.set()
        modal = await wait_for_modal(pilot, BATCH.message)
        await wait_for(pilot, lambda: all(pane.is_mounted for pane in modal.panes))
        burst(app, "escape")
        await wait_for(pilot, lambda: len(asker.results) == 1)
    assert while_idle == [True, False]
    assert modal is built


async def test_a_question_asked_while_a_modal_is_built_ahead_is_shown_before_the_next_is_begun(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_module, "PREBUILD_AFTER_IDLE", 0.05)
    queue = ElicitationQueue()
    posted = threading.Event()
    queue.subscribe(lambda event: posted.set())
    asker = Asker(TextRequest(message="Service name?"))
    begun: list[Request] = []
    shown_after: list[int] = []
    prebuild = ModalPool.prebuild

    async def ask_meanwhile(pool: ModalPool, request: Request) -> None:
        begun.append(request)
        if len(begun) == 1:
            # The question is posted to the app before the first modal built ahead is mounted.
            threading.Thread(target=asker, args=(queue,), daemon=True).start()
            while not posted.is_set():
                await asyncio.sleep(0.001)
        await prebuild(pool, request)

    monkeypatch.setattr(ModalPool, "prebuild", ask_meanwhile)
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Service name?")
        shown_after.append(len(begun))
        burst(app, *"api", "enter")
        await wait_for(pilot, lambda: len(asker.results) == 1)
        # The rest are built once the app has been idle again.
        await wait_for(pilot, lambda: app._prebuilt)
        kept = modals_of(app)
    assert shown_after == [1]
    assert asker.results[0].content == "api"
    assert len(kept) == BUILT_AHEAD
    assert modal in kept  # the one answered is kept for its shape, none built beside it


async def test_a_question_that_arrives_while_a_modal_mounts_is_taken_up_and_shown_before_it_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_module, "PREBUILD_AFTER_IDLE", 0.05)
    queue = ElicitationQueue()
    answer: list[Future[ElicitationResult]] = []
    events: list[tuple[str, ElicitationModal[Any]]] = []
    mounting_when_taken: list[bool] = []
    prebuild, draw_ahead, take = ModalPool.prebuild, ModalPool.draw_ahead, ModalPool.take

    async def ask_meanwhile(pool: ModalPool, made: Request) -> ElicitationModal[Any] | None:
        built = asyncio.ensure_future(prebuild(pool, made))
        if not answer:
            await asyncio.sleep(0)  # the first modal, a short choice, starts mounting
            assert pool.building is not None and not pool.building.is_mounted
            events.append(("building", pool.building))
            # Not a choice: shown in a modal of its own, composed while the first mounts.
            answer.append(queue.submit(TextRequest(message="Service name?")))
        return await built

    def taking(pool: ModalPool, request: Request, **kwargs: Any) -> ElicitationModal[Any]:
        # While the first still mounts: the app goes on handling its messages meanwhile.
        mounting_when_taken.append(pool.building is not None and not pool.building.is_mounted)
        return take(pool, request, **kwargs)

    async def drawing(pool: ModalPool, modal: ElicitationModal[Any]) -> None:
        events.append(("drawn", modal))
        await draw_ahead(pool, modal)

    monkeypatch.setattr(ModalPool, "prebuild", ask_meanwhile)
    monkeypatch.setattr(ModalPool, "take", taking)
    monkeypatch.setattr(ModalPool, "draw_ahead", drawing)
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Service name?")
        events.append(("shown", modal))
        burst(app, *"api", "enter")
        await wait_for(pilot, lambda: answer[0].done())
        # The rest are built, and the first drawn, once the app has been idle again.
        await wait_for(pilot, lambda: app._prebuilt)
    first = events[0][1]
    assert mounting_when_taken == [True]
    assert events[:2] == [("building", first), ("shown", modal)]
    assert ("drawn", first) in events[2:]
    assert answer[0].result().content == "api"


async def test_an_app_that_exits_while_it_builds_a_modal_exits_cleanly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prebuild = ModalPool.prebuild

    async def exit_meanwhile(pool: ModalPool, request: Request) -> None:
        building = asyncio.ensure_future(prebuild(pool, request))
        await asyncio.sleep(0)  # the modal is installed and starts mounting
        assert pool.building is not None and not pool.building.is_mounted
        app.exit("bye")
        await building

    monkeypatch.setattr(ModalPool, "prebuild", exit_meanwhile)
    app = ElicitationApp(ElicitationQueue())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: not app.is_running, timeout=5)
    assert app.return_value == "bye"
    assert app._exception is None


async def test_an_app_shut_down_while_it_builds_a_modal_shuts_down_cleanly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prebuild = ModalPool.prebuild
    started = asyncio.Event()

    async def signal_start(pool: ModalPool, request: Request) -> None:
        building = asyncio.ensure_future(prebuild(pool, request))
        await asyncio.sleep(0)  # the modal is installed and starts mounting
        started.set()
        await building

    monkeypatch.setattr(ModalPool, "prebuild", signal_start)
    app = ElicitationApp(ElicitationQueue())
    async with app.run_test(size=SIZE):
        await started.wait()
    # Leaving run_test shuts the app down at once (no exit()), under the modal's mounting.
    assert app._exception is None

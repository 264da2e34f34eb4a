"""The queue: blocking and async asks, answers from other threads, timeouts, policies, races."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from queue import Queue
from typing import Any, Literal

import pytest

from tui import (
    ElicitationQueue,
    ElicitationResult,
    QueueEvent,
    RemoteQueue,
    Request,
    parse_request,
)

WAIT = 5.0
"""A generous bound for anything that should happen "at once": only reached on failure."""

ASKERS = 50


def text_request(message: str = "Your name?", **fields: Any) -> Request:
    return parse_request({"kind": "text", "message": message, **fields})


def accept(content: Any) -> ElicitationResult:
    return ElicitationResult(action="accept", content=content)


class Recorder:
    """A subscriber that keeps every event, and lets a test wait for one."""

    def __init__(self) -> None:
        self.events: list[QueueEvent] = []
        self._inbox: Queue[QueueEvent] = Queue()

    def __call__(self, event: QueueEvent) -> None:
        self.events.append(event)
        self._inbox.put(event)

    def next(self, type: str) -> QueueEvent:
        """The next event of `type` (earlier events of other types are skipped)."""
        deadline = time.monotonic() + WAIT
        while True:
            event = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            if event.type == type:
                return event

    def of(self, type: str, request_id: str | None = None) -> list[QueueEvent]:
        return [
            e
            for e in list(self.events)
            if e.type == type and (request_id is None or e.request.id == request_id)
        ]


class Asker(threading.Thread):
    """An agent thread that calls `queue.ask` once and keeps what came back."""

    def __init__(
        self, queue: ElicitationQueue, request: Request, timeout: float | None = None
    ) -> None:
        super().__init__(daemon=True)
        self.queue = queue
        self.request = request
        self.timeout = timeout
        self.result: ElicitationResult | None = None
        self.error: BaseException | None = None
        self.elapsed: float | None = None

    def run(self) -> None:
        started = time.monotonic()
        try:
            self.result = self.queue.ask(self.request, timeout=self.timeout)
        except BaseException as error:
            self.error = error
        self.elapsed = time.monotonic() - started

    def finish(self) -> ElicitationResult:
        """Wait for the ask to return and give its result."""
        self.join(WAIT)
        assert not self.is_alive(), "the asking thread is still blocked"
        assert self.error is None, self.error
        assert self.result is not None
        return self.result


class ThreadedResponder:
    """A front end answering from its own worker threads, never the thread that asked."""

    def __init__(
        self,
        queue: ElicitationQueue,
        answer: Callable[[Request], ElicitationResult],
        workers: int = 1,
    ) -> None:
        self.queue = queue
        self.answer = answer
        self.answered: list[tuple[str, bool, str]] = []
        self._lock = threading.Lock()
        self._inbox: Queue[Request | None] = Queue()
        self._workers = [threading.Thread(target=self._work, daemon=True) for _ in range(workers)]
        for worker in self._workers:
            worker.start()
        self.unsubscribe = queue.subscribe(self._on_event)

    def _on_event(self, event: QueueEvent) -> None:
        if event.type == "requested":
            self._inbox.put(event.request)

    def _work(self) -> None:
        while (request := self._inbox.get()) is not None:
            counted = self.queue.respond(request.id, self.answer(request))
            with self._lock:
                self.answered.append((request.id, counted, threading.current_thread().name))

    def stop(self) -> None:
        self.unsubscribe()
        for _ in self._workers:
            self._inbox.put(None)
        for worker in self._workers:
            worker.join(WAIT)


@pytest.fixture
def queue() -> Iterator[ElicitationQueue]:
    queue = ElicitationQueue()
    yield queue
    # No test may leave an agent thread (or a timer) waiting on it.
    queue.close()


@pytest.fixture
def recorder(queue: ElicitationQueue) -> Recorder:
    recorder = Recorder()
    queue.subscribe(recorder)
    return recorder


# -- asking and answering ------------------------------------------------------------


def test_ask_blocks_until_another_thread_responds(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    request = text_request()
    asker = Asker(queue, request)
    asker.start()

    requested = recorder.next("requested")
    asker.join(0.05)
    assert asker.is_alive(), "ask() returned before anyone answered"

    answer = accept("Ada")
    assert requested.request is request
    assert queue.respond(request.id, answer) is True

    assert asker.finish() is answer
    assert queue.pending() == []


def test_ask_returns_a_decline(queue: ElicitationQueue) -> None:
    responder = ThreadedResponder(queue, lambda _: ElicitationResult(action="decline"))
    try:
        result = queue.ask(text_request())
    finally:
        responder.stop()

    assert result.action == "decline"
    assert result.content is None


def test_submit_returns_a_future_resolved_by_respond(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    request = text_request()

    future = queue.submit(request)

    assert isinstance(future, Future)
    assert not future.done()
    assert queue.pending() == [request]

    answer = accept("Ada")
    queue.respond(request.id, answer)

    assert future.result(timeout=WAIT) is answer


def test_pending_lists_waiting_requests_oldest_first(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    first, second, third = text_request("one"), text_request("two"), text_request("three")
    for request in (first, second, third):
        queue.submit(request)

    queue.respond(second.id, accept("2"))

    assert queue.pending() == [first, third]


def test_second_respond_is_ignored(queue: ElicitationQueue, recorder: Recorder) -> None:
    request = text_request()
    future = queue.submit(request)
    first = accept("first")

    assert queue.respond(request.id, first) is True
    assert queue.respond(request.id, accept("second")) is False

    assert future.result(timeout=WAIT) is first
    assert len(recorder.of("resolved", request.id)) == 1


def test_respond_to_unknown_id_is_false(queue: ElicitationQueue, recorder: Recorder) -> None:
    assert queue.respond("no-such-id", accept("x")) is False
    assert recorder.events == []


def test_cancel_resolves_with_cancelled_by_agent(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    request = text_request()
    asker = Asker(queue, request)
    asker.start()
    recorder.next("requested")

    assert queue.cancel(request.id) is True

    result = asker.finish()
    assert (result.action, result.reason) == ("cancel", "cancelled_by_agent")
    assert queue.cancel(request.id) is False
    assert queue.respond(request.id, accept("late")) is False


def test_cancel_with_a_reason(queue: ElicitationQueue, recorder: Recorder) -> None:
    request = text_request()
    future = queue.submit(request)

    queue.cancel(request.id, reason="superseded")

    assert future.result(timeout=WAIT) == ElicitationResult(action="cancel", reason="superseded")


def test_cancel_unknown_id_is_false(queue: ElicitationQueue) -> None:
    assert queue.cancel("no-such-id") is False


def test_duplicate_pending_id_is_refused(queue: ElicitationQueue, recorder: Recorder) -> None:
    first = text_request("one", id="same")
    future = queue.submit(first)

    with pytest.raises(ValueError, match="'same'"):
        queue.submit(text_request("two", id="same"))

    assert queue.pending() == [first]
    assert not future.done()
    assert len(recorder.of("requested")) == 1


def test_an_id_can_be_reused_once_resolved(queue: ElicitationQueue, recorder: Recorder) -> None:
    queue.submit(text_request("one", id="same"))
    queue.respond("same", accept("1"))

    future = queue.submit(text_request("two", id="same"))
    queue.respond("same", accept("2"))

    assert future.result(timeout=WAIT).content == "2"


def test_cancelling_the_future_withdraws_the_request(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    request = text_request()
    future = queue.submit(request)
    assert future.cancel()

    assert queue.respond(request.id, accept("late")) is False

    assert future.cancelled()
    assert queue.pending() == []
    withdrawn = ElicitationResult(action="cancel", reason="cancelled_by_agent")
    assert [e.result for e in recorder.of("resolved", request.id)] == [withdrawn]


# -- asyncio -------------------------------------------------------------------------


async def test_ask_async_is_answered_from_another_thread(queue: ElicitationQueue) -> None:
    asking_thread = threading.current_thread().name
    responder = ThreadedResponder(queue, lambda r: accept(f"answer to {r.message}"))
    try:
        result = await queue.ask_async(text_request("Your name?"))
    finally:
        responder.stop()

    assert result == accept("answer to Your name?")
    assert [counted for _, counted, _ in responder.answered] == [True]
    assert responder.answered[0][2] != asking_thread


async def asked_async(
    queue: ElicitationQueue, recorder: Recorder, request: Request
) -> asyncio.Task[ElicitationResult]:
    """The task awaiting `ask_async(request)`, once the queue has told of the request; the
    loop is given up to 10,000 turns to get there."""
    task = asyncio.create_task(queue.ask_async(request))
    ticks = 0
    while not recorder.of("requested"):
        await asyncio.sleep(0)
        ticks += 1
        assert ticks < 10_000
    return task


async def test_ask_async_does_not_block_the_event_loop(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    request = text_request()
    task = await asked_async(queue, recorder, request)

    # The loop keeps running while the request waits; another thread answers it.
    await asyncio.sleep(0.01)
    assert not task.done()
    threading.Thread(target=queue.respond, args=(request.id, accept("Ada"))).start()

    assert await asyncio.wait_for(task, WAIT) == accept("Ada")


async def test_cancelling_the_awaiting_task_cancels_the_request(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    request = text_request()
    task = await asked_async(queue, recorder, request)

    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert queue.pending() == []
    [resolved] = recorder.of("resolved", request.id)
    assert resolved.result == ElicitationResult(action="cancel", reason="cancelled_by_agent")
    assert queue.respond(request.id, accept("late")) is False


async def test_ask_async_times_out(queue: ElicitationQueue, recorder: Recorder) -> None:
    result = await asyncio.wait_for(queue.ask_async(text_request(), timeout=0.05), WAIT)

    assert (result.action, result.reason) == ("cancel", "timeout")


async def test_ask_on_the_event_loop_thread_of_a_subscribed_front_end_is_refused(
    queue: ElicitationQueue,
) -> None:
    front_end = Recorder()
    unsubscribe = queue.subscribe(front_end)  # from this thread, while its loop runs

    with pytest.raises(RuntimeError, match="ask_async"):
        queue.ask(text_request())

    assert queue.pending() == []
    assert front_end.events == []
    unsubscribe()


def test_ask_from_a_thread_running_its_own_event_loop_blocks_until_answered(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    results: list[ElicitationResult] = []

    async def async_callback_calling_sync_code() -> None:
        results.append(queue.ask(text_request()))

    asker = threading.Thread(target=asyncio.run, args=(async_callback_calling_sync_code(),))
    asker.start()
    requested = recorder.next("requested")
    queue.respond(requested.request.id, accept("Ada"))
    asker.join(timeout=5)

    assert results == [accept("Ada")]


async def test_an_observer_on_a_loop_thread_does_not_keep_that_thread_from_asking(
    queue: ElicitationQueue,
) -> None:
    queue.subscribe(Recorder(), front_end=False)  # it never answers: blocking cannot starve it
    queue.policy = "decline"

    assert queue.ask(text_request()).action == "decline"


async def test_a_loop_thread_may_ask_again_once_its_front_end_unsubscribed(
    queue: ElicitationQueue,
) -> None:
    queue.subscribe(Recorder())()
    queue.policy = "decline"

    assert queue.ask(text_request()).action == "decline"


# -- timeouts ------------------------------------------------------------------------


def test_request_timeout_cancels_with_timeout(queue: ElicitationQueue, recorder: Recorder) -> None:
    request = text_request(timeout=0.05)
    asker = Asker(queue, request)
    asker.start()

    result = asker.finish()

    assert (result.action, result.reason) == ("cancel", "timeout")
    assert asker.elapsed is not None
    assert 0.04 <= asker.elapsed < WAIT
    assert queue.pending() == []
    [resolved] = recorder.of("resolved", request.id)
    assert resolved.result == result
    assert queue.respond(request.id, accept("too late")) is False


def test_ask_timeout_overrides_the_request_timeout(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    request = text_request(timeout=3600)
    asker = Asker(queue, request, timeout=0.05)
    asker.start()

    result = asker.finish()

    assert (result.action, result.reason) == ("cancel", "timeout")
    assert asker.elapsed is not None
    assert asker.elapsed < WAIT


def test_a_longer_ask_timeout_overrides_a_short_request_timeout(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    request = text_request(timeout=0.05)

    future = queue.submit(request, timeout=3600)

    requested = recorder.next("requested")
    assert requested.deadline is not None
    assert requested.deadline - requested.monotonic > 3000
    queue.respond(request.id, accept("Ada"))
    assert future.result(timeout=WAIT) == accept("Ada")


def test_answer_before_the_timeout_wins(queue: ElicitationQueue, recorder: Recorder) -> None:
    request = text_request(timeout=60)
    future = queue.submit(request)

    assert queue.respond(request.id, accept("Ada")) is True

    assert future.result(timeout=WAIT) == accept("Ada")
    assert len(recorder.of("resolved", request.id)) == 1


# -- close ---------------------------------------------------------------------------


def test_close_resolves_every_pending_request_with_closed(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    askers = [Asker(queue, text_request(f"question {i}")) for i in range(5)]
    for asker in askers:
        asker.start()
    for _ in askers:
        recorder.next("requested")

    queue.close()

    for asker in askers:
        result = asker.finish()
        assert (result.action, result.reason) == ("cancel", "closed")
    assert queue.closed
    assert queue.pending() == []
    assert len(recorder.of("resolved")) == len(askers)


def test_close_also_ends_requests_waiting_without_a_front_end() -> None:
    queue = ElicitationQueue(policy="wait")
    future = queue.submit(text_request())

    queue.close()

    assert future.result(timeout=WAIT) == ElicitationResult(action="cancel", reason="closed")


def test_after_close_new_requests_resolve_at_once_with_closed(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    queue.close()

    future = queue.submit(text_request())
    result = queue.ask(text_request())

    assert future.done()
    assert future.result() == ElicitationResult(action="cancel", reason="closed")
    assert result == ElicitationResult(action="cancel", reason="closed")
    assert queue.pending() == []


def test_close_unblocks_every_agent_even_if_a_subscriber_fails_on_resolved(
    caplog: pytest.LogCaptureFixture,
) -> None:
    queue = ElicitationQueue(policy="wait")
    futures = [queue.submit(text_request(f"question {i}")) for i in range(3)]

    def broken(event: QueueEvent) -> None:
        if event.type == "resolved":
            raise RuntimeError("the front end died")

    queue.subscribe(broken)

    queue.close()  # a failing subscriber is logged, never raised into the closer

    assert sum("subscriber failed" in r.getMessage() for r in caplog.records) == 3
    for future in futures:
        assert future.result(timeout=WAIT) == ElicitationResult(action="cancel", reason="closed")
    assert queue.pending() == []


def test_close_twice_is_harmless(queue: ElicitationQueue) -> None:
    queue.close()
    queue.close()

    assert queue.closed


# -- events --------------------------------------------------------------------------


def test_subscriber_gets_requested_then_resolved_with_timestamps(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    wall_before, mono_before = time.time(), time.monotonic()
    request = text_request()
    future = queue.submit(request)
    answer = accept("Ada")
    queue.respond(request.id, answer)
    wall_after, mono_after = time.time(), time.monotonic()

    requested, resolved = recorder.events
    assert (requested.type, resolved.type) == ("requested", "resolved")
    assert requested.request is request and resolved.request is request
    assert requested.result is None
    assert resolved.result is answer
    assert future.result() is answer
    assert wall_before <= requested.at <= resolved.at <= wall_after
    assert mono_before <= requested.monotonic <= resolved.monotonic <= mono_after


def test_a_subscriber_coming_later_hears_when_a_waiting_request_was_asked(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    queue.submit(text_request())
    asked = recorder.next("requested").at
    time.sleep(0.05)
    later: list[QueueEvent] = []
    queue.subscribe(later.append)
    assert [(e.type, e.at) for e in later] == [("requested", asked)]


def test_requested_event_has_no_deadline_without_a_timeout(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    queue.submit(text_request())

    assert recorder.next("requested").deadline is None


def test_requested_event_deadline_follows_the_request_timeout(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    queue.submit(text_request(timeout=30))

    event = recorder.next("requested")
    assert event.deadline is not None
    assert event.monotonic + 29 < event.deadline <= event.monotonic + 30


def test_requested_event_deadline_follows_the_ask_timeout(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    queue.submit(text_request(), timeout=20)

    event = recorder.next("requested")
    assert event.deadline is not None
    assert event.monotonic + 19 < event.deadline <= event.monotonic + 20


def test_subscribe_replays_requests_already_waiting() -> None:
    queue = ElicitationQueue(policy="wait")
    first, second = text_request("one"), text_request("two", timeout=60)
    futures = [queue.submit(first), queue.submit(second)]

    recorder = Recorder()
    queue.subscribe(recorder)

    assert [(e.type, e.request) for e in recorder.events] == [
        ("requested", first),
        ("requested", second),
    ]
    assert recorder.events[0].deadline is None
    assert recorder.events[1].deadline is not None
    queue.respond(first.id, accept("1"))
    queue.respond(second.id, accept("2"))
    assert [f.result(timeout=WAIT).content for f in futures] == ["1", "2"]
    queue.close()


def test_unsubscribe_stops_events(queue: ElicitationQueue) -> None:
    recorder = Recorder()
    other = Recorder()
    unsubscribe = queue.subscribe(recorder)
    queue.subscribe(other)

    unsubscribe()
    request = text_request()
    queue.submit(request)
    queue.respond(request.id, accept("Ada"))

    assert recorder.events == []
    assert [e.type for e in other.events] == ["requested", "resolved"]
    unsubscribe()


def test_every_subscriber_gets_every_event(queue: ElicitationQueue) -> None:
    recorders = [Recorder(), Recorder(), Recorder()]
    for recorder in recorders:
        queue.subscribe(recorder)

    request = text_request()
    queue.submit(request)
    queue.cancel(request.id)

    for recorder in recorders:
        assert [(e.type, e.request.id) for e in recorder.events] == [
            ("requested", request.id),
            ("resolved", request.id),
        ]


def test_subscriber_raising_on_requested_makes_ask_raise_and_leaves_nothing_pending(
    queue: ElicitationQueue,
) -> None:
    boom = RuntimeError("the front end is gone")

    def broken(event: QueueEvent) -> None:
        if event.type == "requested":
            raise boom

    unsubscribe = queue.subscribe(broken)
    request = text_request(id="fragile", timeout=60)

    with pytest.raises(RuntimeError) as raised:
        queue.ask(request)

    assert raised.value is boom
    assert queue.pending() == []
    unsubscribe()
    # The id is free again: nothing of the failed request was left behind.
    assert queue.submit(text_request(id="fragile")).result(timeout=WAIT).action == "cancel"


def test_subscriber_raising_makes_submit_future_carry_the_exception(
    queue: ElicitationQueue,
) -> None:
    def broken(event: QueueEvent) -> None:
        raise KeyError("no modal for this kind")

    queue.subscribe(broken)

    future = queue.submit(text_request())

    assert isinstance(future.exception(timeout=WAIT), KeyError)
    assert queue.pending() == []


# -- policies without a front end ----------------------------------------------------


def test_default_policy_cancels_with_no_front_end() -> None:
    queue = ElicitationQueue()

    result = queue.ask(text_request())

    assert queue.policy == "cancel"
    assert result == ElicitationResult(action="cancel", reason="no_front_end")
    assert queue.pending() == []


def test_decline_policy_declines() -> None:
    queue = ElicitationQueue(policy="decline")

    result = queue.ask(text_request())

    assert (result.action, result.reason) == ("decline", "no_front_end")


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "text", "message": "Name?", "default": "Ada"},
        {"kind": "text", "message": "Name?"},
        {"kind": "choice", "message": "Pick", "options": ["a", "b"], "default": "b"},
        {"kind": "choice", "message": "Pick", "options": ["a", "b"]},
        {"kind": "multi_choice", "message": "Pick", "options": ["a", "b"], "default": ["a"]},
        {"kind": "confirmation", "message": "Sure?", "default": True},
        {
            "kind": "form",
            "message": "Deploy",
            "schema": {
                "type": "object",
                "properties": {"name": {"type": "string", "default": "api"}},
            },
        },
    ],
    ids=lambda data: f"{data['kind']}-{'default' if 'default' in data else 'plain'}",
)
def test_accept_defaults_policy_accepts_the_default_content(data: dict[str, Any]) -> None:
    queue = ElicitationQueue(policy="accept_defaults")
    request = parse_request(data)

    result = queue.ask(request)

    assert result.action == "accept"
    assert result.content == request.default_content()
    assert result.reason == "no_front_end"


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "secret", "message": "API key?"},
        {"kind": "text", "message": "Name?", "min_length": 3},
        {"kind": "multi_choice", "message": "Pick", "options": ["a", "b", "c"], "min_selected": 2},
    ],
    ids=["secret", "text-min_length", "multi_choice-min_selected"],
)
def test_accept_defaults_policy_cancels_what_has_no_default_a_person_could_give(
    data: dict[str, Any],
) -> None:
    queue = ElicitationQueue(policy="accept_defaults")

    result = queue.ask(parse_request(data))

    assert (result.action, result.reason) == ("cancel", "no_front_end")
    assert result.content is None


class ShadeRequest(Request):
    """A shade, by default plum; its own check knows teal only, and raises KeyError."""

    kind: Literal["shade_test"] = "shade_test"

    def default_content(self) -> str:
        return "plum"

    def check_content(self, content: Any) -> str:
        return {"teal": "#008080"}[content]


def test_accept_defaults_policy_cancels_a_default_whose_check_raises_any_error() -> None:
    # The asker got the KeyError: a check that raises refuses, as a ValueError does.
    queue = ElicitationQueue(policy="accept_defaults")

    result = queue.ask(ShadeRequest(message="Shade?"))

    assert result == ElicitationResult(action="cancel", reason="no_front_end")


def test_wait_policy_keeps_the_request_until_a_front_end_answers() -> None:
    queue = ElicitationQueue(policy="wait")
    request = text_request()
    asker = Asker(queue, request)
    asker.start()

    deadline = time.monotonic() + WAIT
    while not queue.pending():
        assert time.monotonic() < deadline
        time.sleep(0.001)
    asker.join(0.05)
    assert asker.is_alive()

    responder = ThreadedResponder(queue, lambda r: accept(f"late answer to {r.message}"))
    try:
        assert asker.finish() == accept("late answer to Your name?")
    finally:
        responder.stop()
        queue.close()


def test_policy_applies_again_after_the_last_subscriber_leaves(queue: ElicitationQueue) -> None:
    unsubscribe = queue.subscribe(Recorder())
    pending = queue.submit(text_request())
    assert not pending.done()

    unsubscribe()

    result = queue.ask(text_request())
    assert result == ElicitationResult(action="cancel", reason="no_front_end")


# -- observers -----------------------------------------------------------------------


def test_an_observer_leaves_the_policy_in_charge_and_sees_both_events() -> None:
    queue = ElicitationQueue(policy="accept_defaults")
    observer = Recorder()
    queue.subscribe(observer, front_end=False)
    request = text_request(default="Ada")

    result = queue.ask(request, timeout=WAIT)

    assert (result.action, result.content, result.reason) == ("accept", "Ada", "no_front_end")
    assert [(e.type, e.request.id) for e in observer.events] == [
        ("requested", request.id),
        ("resolved", request.id),
    ]
    assert observer.events[1].result == result
    assert queue.pending() == []


def test_with_an_observer_and_a_front_end_the_front_end_answers() -> None:
    queue = ElicitationQueue(policy="accept_defaults")
    observer = Recorder()
    queue.subscribe(observer, front_end=False)
    responder = ThreadedResponder(queue, lambda r: accept("from the front end"))
    try:
        result = queue.ask(text_request(default="Ada"))
    finally:
        responder.stop()

    assert result == accept("from the front end")
    assert [e.type for e in observer.events] == ["requested", "resolved"]
    assert observer.events[1].result == result


def test_the_policy_returns_when_only_observers_are_left() -> None:
    queue = ElicitationQueue(policy="decline")
    queue.subscribe(Recorder(), front_end=False)
    unsubscribe = queue.subscribe(Recorder())
    waiting = queue.submit(text_request())
    assert not waiting.done()

    unsubscribe()

    assert queue.ask(text_request()) == ElicitationResult(action="decline", reason="no_front_end")


def test_a_failing_observer_is_logged_and_changes_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    queue = ElicitationQueue(policy="accept_defaults")

    def broken(event: QueueEvent) -> None:
        raise RuntimeError("observer bug")

    queue.subscribe(broken, front_end=False)
    result = queue.ask(text_request(default="Ada"))

    assert (result.action, result.content) == ("accept", "Ada")
    assert sum("an observer failed" in r.getMessage() for r in caplog.records) == 2


def test_an_observer_subscribing_late_hears_of_requests_already_waiting() -> None:
    queue = ElicitationQueue(policy="wait")
    request = text_request()
    queue.submit(request)
    observer = Recorder()

    queue.subscribe(observer, front_end=False)

    assert [(e.type, e.request.id) for e in observer.events] == [("requested", request.id)]
    queue.close()
    assert [e.type for e in observer.events] == ["requested", "resolved"]


# -- concurrency ---------------------------------------------------------------------


def test_fifty_threads_asking_at_once_each_get_their_own_answer(queue: ElicitationQueue) -> None:
    recorder = Recorder()
    queue.subscribe(recorder)
    responder = ThreadedResponder(queue, lambda r: accept(f"answer to {r.message}"), workers=4)
    start = threading.Barrier(ASKERS)
    results: dict[int, list[ElicitationResult]] = {i: [] for i in range(ASKERS)}
    errors: list[BaseException] = []

    def agent(i: int) -> None:
        try:
            start.wait(WAIT)
            results[i].append(queue.ask(text_request(f"question {i}")))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=agent, args=(i,), daemon=True) for i in range(ASKERS)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT)
    finally:
        responder.stop()

    assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    for i, got in results.items():
        assert got == [accept(f"answer to question {i}")]
    answered_ids = [request_id for request_id, _, _ in responder.answered]
    assert len(answered_ids) == len(set(answered_ids)) == ASKERS
    assert all(counted for _, counted, _ in responder.answered)
    resolved_ids = [e.request.id for e in recorder.of("resolved")]
    assert sorted(resolved_ids) == sorted(answered_ids)
    assert queue.pending() == []


@pytest.mark.parametrize("attempt", range(25))
def test_racing_responds_and_cancels_resolve_exactly_once(
    queue: ElicitationQueue, recorder: Recorder, attempt: int
) -> None:
    request = text_request(id=f"race-{attempt}")
    future = queue.submit(request)
    racers = 8
    start = threading.Barrier(racers)
    answers = [accept(f"answer {k}") for k in range(racers)]
    outcomes: list[tuple[int, bool]] = []
    outcomes_lock = threading.Lock()

    def racer(k: int) -> None:
        start.wait(WAIT)
        # Odd racers withdraw the request, even ones answer it.
        counted = queue.cancel(request.id) if k % 2 else queue.respond(request.id, answers[k])
        with outcomes_lock:
            outcomes.append((k, counted))

    threads = [threading.Thread(target=racer, args=(k,), daemon=True) for k in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)

    assert len(outcomes) == racers
    winners = [k for k, counted in outcomes if counted]
    assert len(winners) == 1
    [winner] = winners
    result = future.result(timeout=WAIT)
    if winner % 2:
        assert result == ElicitationResult(action="cancel", reason="cancelled_by_agent")
    else:
        assert result is answers[winner]
    [resolved] = recorder.of("resolved", request.id)
    assert resolved.result is result


def test_close_racing_with_responds_resolves_each_request_exactly_once(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    requests = [text_request(f"question {i}") for i in range(ASKERS)]
    futures = [queue.submit(request) for request in requests]
    start = threading.Barrier(ASKERS + 1)
    counted: list[bool] = []

    def answer(request: Request) -> None:
        start.wait(WAIT)
        counted.append(queue.respond(request.id, accept(request.message)))

    def close() -> None:
        start.wait(WAIT)
        queue.close()

    threads = [threading.Thread(target=answer, args=(r,), daemon=True) for r in requests]
    threads.append(threading.Thread(target=close, daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)

    assert queue.pending() == []
    resolved = recorder.of("resolved")
    assert sorted(e.request.id for e in resolved) == sorted(r.id for r in requests)
    by_id = {e.request.id: e.result for e in resolved}
    for request, future in zip(requests, futures, strict=True):
        result = future.result(timeout=WAIT)
        assert result is by_id[request.id]
        assert result in (
            accept(request.message),
            ElicitationResult(action="cancel", reason="closed"),
        )
    assert counted.count(True) == sum(1 for e in resolved if e.result.action == "accept")


def test_timeouts_racing_with_responds_resolve_exactly_once(
    queue: ElicitationQueue, recorder: Recorder
) -> None:
    requests = [text_request(f"question {i}", timeout=0.01) for i in range(ASKERS)]
    futures = [queue.submit(request) for request in requests]

    def answer(request: Request) -> None:
        time.sleep(0.01)
        queue.respond(request.id, accept(request.message))

    threads = [threading.Thread(target=answer, args=(r,), daemon=True) for r in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    results = [future.result(timeout=WAIT) for future in futures]

    resolved = recorder.of("resolved")
    assert sorted(e.request.id for e in resolved) == sorted(r.id for r in requests)
    for request, result in zip(requests, results, strict=True):
        assert result in (
            accept(request.message),
            ElicitationResult(action="cancel", reason="timeout"),
        )
    assert queue.pending() == []


# -- import cost ---------------------------------------------------------------------


def test_importing_tui_does_not_import_textual() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", "import tui, sys; assert 'textual' not in sys.modules"],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert completed.returncode == 0, completed.stderr


def test_asking_every_kind_does_not_import_textual() -> None:
    script = """
import sys
import tui
queue = tui.ElicitationQueue(policy="accept_defaults")
for data in [
    {"kind": "text", "message": "t"},
    {"kind": "choice", "message": "c", "options": ["a"]},
    {"kind": "multi_choice", "message": "m", "options": ["a"]},
    {"kind": "secret", "message": "s"},
    {"kind": "confirmation", "message": "y"},
    {"kind": "form", "message": "f", "schema": {"type": "object", "properties": {}}},
]:
    queue.ask(tui.parse_request(data)).to_llm_text()
assert "textual" not in sys.modules, sorted(m for m in sys.modules if "textual" in m)
"""
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )

    assert completed.returncode == 0, completed.stderr


def test_every_subscriber_sees_requested_before_resolved_when_one_answers_at_once() -> None:
    queue = ElicitationQueue()

    def instant_answer(event: QueueEvent) -> None:
        if event.type == "requested":
            queue.respond(event.request.id, accept("now"))

    queue.subscribe(instant_answer)
    recorder = Recorder()
    queue.subscribe(recorder)

    assert queue.ask(text_request()) == accept("now")
    assert [event.type for event in recorder.events] == ["requested", "resolved"]


def test_a_subscriber_failing_on_requested_fails_the_ask_and_tells_the_others() -> None:
    queue = ElicitationQueue()
    recorder = Recorder()
    queue.subscribe(recorder)

    def broken(event: QueueEvent) -> None:
        if event.type == "requested":
            raise LookupError("no answer for this")

    queue.subscribe(broken)

    with pytest.raises(LookupError, match="no answer for this"):
        queue.ask(text_request())
    assert [event.type for event in recorder.events] == ["requested", "resolved"]
    assert recorder.events[-1].result == ElicitationResult(
        action="cancel", reason="front_end_error"
    )
    assert queue.pending() == []


@pytest.mark.parametrize("given", [{"kind": "text", "message": "x"}, None, "Name?"])
def test_asking_something_that_is_no_request_says_what_to_pass(given: Any) -> None:
    # It raised AttributeError: 'dict' object has no attribute 'id'.
    with pytest.raises(TypeError, match="a request object is asked, like TextRequest") as wrong:
        ElicitationQueue().ask(given)
    assert ("tui.parse_request" in str(wrong.value)) == isinstance(given, dict)
    with pytest.raises(TypeError, match="a request object is asked"):
        RemoteQueue("http://127.0.0.1:9", token="t").submit(given)

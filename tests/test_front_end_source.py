"""The in-process queue as a front-end source: who answered first, and when, decided once."""

from __future__ import annotations

import threading
import time

from tui import ElicitationQueue, ElicitationResult, parse_request
from tui.core.front_end import FrontEndSource
from tui.core.queue import Answered, QueueEvent
from tui.front_ends.remote import RemoteFrontEnd

CHOICE = {"kind": "choice", "message": "Which?", "options": ["a", "b"]}


def test_both_sources_are_front_end_sources() -> None:
    sources: list[FrontEndSource] = [
        ElicitationQueue(),
        RemoteFrontEnd("http://127.0.0.1:1/mcp", None, "t"),
    ]
    assert len(sources) == 2


def test_the_resolved_event_names_the_front_end_that_answered() -> None:
    queue = ElicitationQueue()
    events: list[QueueEvent] = []
    queue.subscribe(events.append)
    future = queue.submit(parse_request(CHOICE))
    request_id = events[0].request.id
    assert queue.answered(request_id) is None
    assert queue.respond(request_id, ElicitationResult(action="accept", content="a"), "browser 1")
    assert future.result().content == "a"
    assert events[-1].answered_by == "browser 1"
    answered = queue.answered(request_id)
    assert answered is not None and answered.by == "browser 1"
    clock = time.strftime("%H:%M", time.localtime(answered.at))
    assert not queue.respond(request_id, ElicitationResult(action="accept", content="b"), "t2")
    assert queue.refusal(request_id) == f"answered in browser 1 at {clock}"


def test_an_end_without_a_front_end_is_said_so() -> None:
    queue = ElicitationQueue()
    queue.subscribe(lambda event: None)
    future = queue.submit(parse_request(CHOICE))
    request_id = queue.pending()[0].id
    queue.cancel(request_id)
    assert future.result().reason == "cancelled_by_agent"
    assert queue.refusal(request_id).startswith("it ended at ")


def race(queue: ElicitationQueue, request_id: str, names: list[str]) -> list[str]:
    """Let every front end in `names` answer at the same moment; returns whose answers counted."""
    barrier = threading.Barrier(len(names))
    applied: list[str] = []

    def answer(name: str) -> None:
        barrier.wait()
        if queue.respond(request_id, ElicitationResult(action="accept", content="a"), name):
            applied.append(name)

    threads = [threading.Thread(target=answer, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return applied


def test_many_answers_at_once_count_once() -> None:
    queue = ElicitationQueue()
    queue.subscribe(lambda event: None)
    for _ in range(50):
        future = queue.submit(parse_request(CHOICE))
        request_id = queue.pending()[0].id
        applied = race(queue, request_id, [f"fe {i}" for i in range(4)])
        assert len(applied) == 1
        answered = queue.answered(request_id)
        assert answered is not None and answered.by == applied[0]
        assert future.result().content == "a"


def test_an_answer_is_described_by_where_it_was_given_and_here_for_its_own_front_end() -> None:
    answered = Answered("browser 1", time.mktime((2026, 11, 24, 14, 2, 0, 0, 0, -1)))
    assert answered.describe() == "answered in browser 1 at 14:02"
    assert answered.describe(here="terminal 7") == "answered in browser 1 at 14:02"
    assert answered.describe(here="browser 1") == "answered here at 14:02"
    assert Answered(None, answered.at).describe(here="browser 1") == "it ended at 14:02"

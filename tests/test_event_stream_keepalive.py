"""An idle event stream carries keepalive comments, and a front end whose stream went silent
(no byte past its deadline, the connection still open) notices and reconnects by itself."""

from __future__ import annotations

import asyncio
import http.client
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from front_end_processes import CuttableProxy, HeadlessInbox
from running_inbox import running_inbox

from tui import TextRequest, parse_request
from tui.core.queue import ElicitationQueue, QueueEvent
from tui.front_ends.remote import RECONNECTED, RECONNECTING, RemoteFrontEnd
from tui.inbox import events
from tui.inbox.events import KEEPALIVE
from tui.inbox.inbox import Inbox


def keepalives(url: str, token: str, count: int) -> list[float]:
    """Seconds from opening an idle event stream to each of its first `count` keepalives."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=KEEPALIVE + 10)
    try:
        connection.request(
            "GET",
            "/v1/events?front_end=watcher",
            headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"},
        )
        response = connection.getresponse()
        assert response.status == 200
        opened = time.monotonic()
        seen: list[float] = []
        while len(seen) < count:
            line = response.readline()
            assert line, "the stream ended"
            assert not line.startswith((b"event:", b"data:")), line
            if line.strip() == b": keepalive":
                seen.append(time.monotonic() - opened)
        return seen
    finally:
        connection.close()


def settle(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


def test_an_idle_stream_of_the_inbox_gets_a_keepalive_at_the_documented_15_seconds(
    inbox: HeadlessInbox,
) -> None:
    assert KEEPALIVE == 15.0  # the interval WIRE.md and the README give
    (first,) = keepalives(inbox.url, inbox.token, 1)
    assert KEEPALIVE - 0.5 <= first <= KEEPALIVE + 1.5


def test_keepalives_keep_coming_at_the_interval_while_the_stream_stays_idle() -> None:
    with running_inbox(keepalive=0.25) as inbox:
        seen = keepalives(inbox.url, inbox.token, 4)
    gaps = [later - earlier for earlier, later in zip([0.0, *seen], seen, strict=False)]
    assert all(0.2 <= gap <= 0.6 for gap in gaps), gaps


def test_a_front_end_reconnects_when_its_stream_goes_silent_past_the_deadline() -> None:
    with running_inbox(keepalive=0.2) as inbox:
        port = int(inbox.url.rsplit(":", 1)[1])
        proxy = CuttableProxy(("127.0.0.1", port))
        front_end = RemoteFrontEnd(proxy.url, inbox.token, "terminal 1", stale_after=1.0)
        statuses: list[str] = []
        events: list[QueueEvent] = []
        front_end.on_status = statuses.append
        front_end.connect()
        front_end.subscribe(events.append)
        try:
            # Idle but alive: the keepalives reset the deadline, again and again.
            time.sleep(2.5)
            assert statuses == []
            proxy.freeze()  # the connection stays open; no byte comes through any more
            frozen_at = time.monotonic()
            settle(lambda: RECONNECTING in statuses, timeout=5)
            assert time.monotonic() - frozen_at >= 0.9
            settle(lambda: RECONNECTED in statuses, timeout=5)
            # The fresh stream carries questions again.
            inbox.inbox.submit(parse_request({"kind": "text", "message": "Still there?"}))
            settle(lambda: any(e.request.message == "Still there?" for e in events), timeout=5)
        finally:
            front_end.close()
            proxy.close()


async def test_a_front_end_that_reads_nothing_is_let_go_once_far_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A stopped `attach` (Ctrl+Z) had every event kept for it, without end: the inbox grew
    # from 77 to 538 MB. Far enough behind, its stream ends; reconnecting, it hears again
    # what waits.
    monkeypatch.setattr(events, "UNHEARD_EVENTS", 5)
    inbox = Inbox(ElicitationQueue(policy="wait"))
    inbox.queue.submit(TextRequest(id="first", message="First?"))
    stream = events._stream(inbox, keepalive=60, signer=None)
    first = await anext(stream)  # it hears the first; then it reads no more, for a while
    for n in range(20):
        inbox.queue.submit(TextRequest(id=f"q{n}", message=f"Question {n}?"))
    await asyncio.sleep(0.1)
    heard = [item async for item in stream]  # it ends: let go, what it had not read dropped

    assert '"id": "first"' in first
    assert heard == [] and inbox.front_ends == 0
    inbox.close()


def test_a_front_end_does_not_say_it_reconnected_to_an_inbox_shutting_down() -> None:
    # Stopping `serve` with a question waiting closed the inbox before its server: attach
    # reconnected to the closing inbox, whose stream ended at once, and said "Reconnected to
    # the inbox." between two "Lost the inbox".
    with running_inbox() as inbox:
        front_end = RemoteFrontEnd(inbox.url, inbox.token, "terminal 1")
        statuses: list[str] = []
        front_end.on_status = statuses.append
        front_end.connect()
        inbox.queue.submit(TextRequest(message="pending q"))
        inbox.inbox.close()
        settle(lambda: RECONNECTING in statuses, 10)
        time.sleep(1.5)  # the first three tries to reconnect: 0.1, 0.25 and 0.5 s apart
        front_end.close()
    assert statuses == [RECONNECTING]

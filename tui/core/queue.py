"""The one place agents and front ends meet: thread-safe, and ignorant of Textual."""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from tui.core.content_check import (
    ContentNotJSON,
    ContentRefused,
    checked_content,
    validation_problems,
)
from tui.core.models import ElicitationResult, FormRequest, Request, delivered, flagged
from tui.core.request_base import checked_timeout, require_request

Policy = Literal["cancel", "accept_defaults", "decline", "wait"]
"""What happens to a request while no front end is subscribed."""

EventType = Literal["requested", "resolved"]

_log = logging.getLogger(__name__)


def _runs_event_loop() -> bool:
    # No loop can run where asyncio was never imported; an agent that only blocks in
    # `ask()` need not load it (a third of the import of this module).
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@dataclass(frozen=True)
class QueueEvent:
    """Something that happened to a request; `result` is set on `resolved`."""

    type: EventType
    request: Request
    result: ElicitationResult | None = None
    deadline: float | None = None
    """On `requested`: the `time.monotonic()` reading at which the request times out."""
    at: float = field(default_factory=time.time)
    """Wall-clock time (seconds since the epoch)."""
    monotonic: float = field(default_factory=time.monotonic)
    """A monotonic clock reading, for measuring latencies."""
    answered_by: str | None = None
    """On `resolved`: the name of the front end whose answer it was (None: no front end's,
    e.g. a timeout, the asker withdrawing, a remembered rule, the policy)."""


def _local_clock(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at))


@dataclass(frozen=True)
class Answered:
    """How a request stopped waiting: which front end answered (None if none did) and when."""

    by: str | None
    at: float
    """Wall-clock time (seconds since the epoch)."""
    action: str = "accept"
    """What the front end did: `accept` (answered), `decline` or `cancel`."""

    def describe(self, here: str | None = None, clock: Callable[[float], str] | None = None) -> str:
        """In words for the person: "answered in browser 1 at 14:02" (local time, or as
        `clock` tells it; "declined", "cancelled" for those), or "answered here at 14:02"
        told to the front end named `here` of its own answer."""
        when = (clock or _local_clock)(self.at)
        if self.by is None:
            return f"it ended at {when}"
        done = _DONE.get(self.action, "answered")
        if self.by == here:
            return f"{done} here at {when}"
        return f"{done} in {self.by} at {when}"


_DONE = {"accept": "answered", "decline": "declined", "cancel": "cancelled"}


ANSWERS_KEPT = 4096
"""How many ended requests the queue remembers who answered, to say so to a late answer."""


Subscriber = Callable[[QueueEvent], None]


@dataclass(frozen=True, eq=False)
class _Subscription:
    callback: Subscriber
    front_end: bool


@dataclass
class _Pending:
    request: Request
    future: Future[ElicitationResult]
    deadline: float | None = None
    timer: threading.Timer | None = None
    at: float = field(default_factory=time.time)
    """When it was asked (wall clock): what a front end subscribing later is told."""


class ElicitationQueue:
    """Requests in, answers out. Agents `ask`; front ends `subscribe` and `respond`.

    Subscribers are called synchronously, in the thread that caused the event, with
    the queue's lock held: they must not block, and every subscriber sees every event
    in the same order, even when one answers a request while hearing of it. Observers
    (`subscribe(..., front_end=False)`) see the same events but never count as a front
    end, so the policy still answers while they are the only ones listening.
    """

    def __init__(self, policy: Policy = "cancel") -> None:
        self.policy: Policy = policy
        self._lock = threading.RLock()
        self._pending: dict[str, _Pending] = {}
        self._subscribers: list[_Subscription] = []
        self._closed = False
        self._events: deque[QueueEvent] = deque()
        self._dispatching = False
        self._answered: OrderedDict[str, Answered] = OrderedDict()
        """Who ended the latest requests and when, oldest first (at most `ANSWERS_KEPT`)."""
        self._loop_threads: list[int] = []
        """The threads whose event loop runs a subscriber: blocking one of them deadlocks it."""

    # -- agent side ---------------------------------------------------------------

    def submit(self, request: Request, timeout: float | None = None) -> Future[ElicitationResult]:
        """Queue `request` and return a future of its result (never blocks).

        `timeout` overrides the request's; out of bounds (inf, NaN, over 30 days) it raises
        `pydantic.ValidationError`, as the request's own field would.
        """
        require_request(request)
        timeout = checked_timeout(timeout)
        future: Future[ElicitationResult] = Future()
        with self._lock:
            if self._closed:
                future.set_result(ElicitationResult(action="cancel", reason="closed"))
                return future
            if request.id in self._pending:
                raise ValueError(f"a request with id {request.id!r} is already waiting")
            if not self._subscribers and self.policy != "wait":
                # Nobody to tell and nobody to answer: the policy answers at once.
                future.set_result(self._policy_result(request))
                return future
            seconds = timeout if timeout is not None else request.timeout
            deadline = None if seconds is None else time.monotonic() + seconds
            pending = _Pending(request, future, deadline)
            self._pending[request.id] = pending
            # Cancelling the future (directly, or the task awaiting ask_async) withdraws the request.
            future.add_done_callback(
                lambda done: self.cancel(request.id) if done.cancelled() else None
            )
            self._emit(QueueEvent("requested", request, deadline=deadline, at=pending.at))
            if not self._has_front_end() and self.policy != "wait":
                # Observers have heard of the request; with nobody to answer it, the policy does.
                self._resolve(request.id, self._policy_result(request))
            elif seconds is not None and request.id in self._pending:
                pending.timer = threading.Timer(seconds, self._expire, args=(request.id,))
                pending.timer.daemon = True
                pending.timer.start()
        return future

    def ask(self, request: Request, timeout: float | None = None) -> ElicitationResult:
        """Queue `request` and block this thread until it is answered, cancelled or timed out.

        Refused on the event-loop thread of a front end subscribed to this queue (the UI's),
        which could then never show the request. Any other thread may block, also one that
        runs an event loop of its own (an async callback calling synchronous code): that loop
        then waits with it, the caller's choice.
        """
        with self._lock:
            front_end_thread = threading.get_ident() in self._loop_threads
        if front_end_thread:
            raise RuntimeError(
                "ElicitationQueue.ask() was called from the event-loop thread of a front end "
                "subscribed to this queue (the UI thread?) and would deadlock it; use "
                "`await queue.ask_async(...)` or `queue.submit(...)` there"
            )
        return self.submit(request, timeout).result()

    def ask_form(
        self,
        model: type[BaseModel],
        *,
        message: str,
        timeout: float | None = None,
        **fields: Any,
    ) -> ElicitationResult:
        """Ask for `model`'s fields as a form and block until answered.

        On accept the result's content is a `model` instance. `fields` go to the request
        (`title`, `description`, `source`, ...). A model outside the form subset raises
        `SchemaError` before anything is asked.
        """
        return self.ask(FormRequest.from_model(model, message=message, **fields), timeout)

    async def ask_async(self, request: Request, timeout: float | None = None) -> ElicitationResult:
        """Queue `request` and await its result without blocking the event loop."""
        import asyncio

        return await asyncio.wrap_future(self.submit(request, timeout))

    def cancel(self, request_id: str, reason: str = "cancelled_by_agent") -> bool:
        """Withdraw a waiting request; True if it was still waiting."""
        return self._resolve(request_id, ElicitationResult(action="cancel", reason=reason))

    # -- front-end side -----------------------------------------------------------

    def subscribe(self, subscriber: Subscriber, *, front_end: bool = True) -> Callable[[], None]:
        """Receive events from now on (and `requested` for every request already waiting).

        A front end (the default) is there to answer: while one is subscribed, requests wait
        for it instead of being answered by the policy. An observer (`front_end=False`:
        a logger, a transcript, metrics) sees every `requested` and `resolved` event and
        changes nothing; if it raises, the error is logged and the request goes on.
        A front end subscribing from a thread that runs an event loop makes `ask()` refuse
        that thread while subscribed: the loop answers, it must not block.
        Returns a function that unsubscribes.
        """
        subscription = _Subscription(subscriber, front_end)
        loop_thread = threading.get_ident() if front_end and _runs_event_loop() else None
        with self._lock:
            self._subscribers.append(subscription)
            if loop_thread is not None:
                self._loop_threads.append(loop_thread)
            for pending in list(self._pending.values()):
                # Asked when it was, not now: a front end attached later shows the same time.
                event = QueueEvent(
                    "requested", pending.request, deadline=pending.deadline, at=pending.at
                )
                self._deliver(subscription, event)

        def unsubscribe() -> None:
            with self._lock:
                if subscription in self._subscribers:
                    self._subscribers.remove(subscription)
                    if loop_thread is not None:
                        self._loop_threads.remove(loop_thread)

        return unsubscribe

    def respond(
        self, request_id: str, result: ElicitationResult, front_end: str | None = None
    ) -> bool:
        """Answer a waiting request; True if this answer counted (later ones are ignored).

        `front_end` names who answered; the `resolved` event carries it to every front end.
        The first answer wins, decided under the queue's lock: of two answers given at once,
        exactly one returns True.

        An accepted answer is held to its request's rules first, as the inbox holds one from a
        front end elsewhere: `ContentRefused` (a ValueError) says why it is no answer to the
        request, `ContentNotJSON` (a TypeError) that JSON cannot carry it; the request goes
        on waiting.
        """
        if result.action == "accept":
            with self._lock:
                pending = self._pending.get(request_id)
            if pending is not None:
                # Checked, and given as it was: an approval's check makes no content "once".
                checked_content(pending.request, result.content)
        return self._resolve(request_id, result, answered_by=front_end)

    def respond_as_recorded(
        self, request_id: str, result: ElicitationResult, front_end: str | None = None
    ) -> bool:
        """Answer as `respond` does, with a result as a transcript holds it, unchecked: its
        secrets and sensitive content masked (`•••`), which no check would take. For a replay,
        where the keys that gave an answer were not recorded or were pressed elsewhere."""
        return self._resolve(request_id, result, answered_by=front_end, as_recorded=True)

    def answered(self, request_id: str) -> Answered | None:
        """Who ended a request that no longer waits, and when; None if the queue does not
        know (still waiting, never seen, or ended longer ago than the last `ANSWERS_KEPT`)."""
        with self._lock:
            return self._answered.get(request_id)

    def refusal(self, request_id: str) -> str:
        """Why an answer to `request_id` was not applied, in words for the person."""
        answered = self.answered(request_id)
        return "it was no longer waiting" if answered is None else answered.describe()

    def pending(self) -> list[Request]:
        """The requests still waiting, oldest first."""
        with self._lock:
            return [p.request for p in self._pending.values()]

    def is_pending(self, request_id: str) -> bool:
        """True while the request with this id waits for an answer."""
        with self._lock:
            return request_id in self._pending

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self, reason: str = "closed") -> None:
        """Refuse new requests and end every waiting one with `cancel` / `reason`."""
        with self._lock:
            self._closed = True
            waiting = list(self._pending)
        for request_id in waiting:
            self._resolve(request_id, ElicitationResult(action="cancel", reason=reason))

    # -- internals ----------------------------------------------------------------

    def _expire(self, request_id: str) -> None:
        self._resolve(request_id, ElicitationResult(action="cancel", reason="timeout"))

    def _resolve(
        self,
        request_id: str,
        result: ElicitationResult,
        error: Exception | None = None,
        answered_by: str | None = None,
        as_recorded: bool = False,
    ) -> bool:
        with self._lock:
            pending = self._pending.get(request_id)
            if pending is None:
                return False
            # As the asker receives it, and flagged before anyone hears of it: every later
            # reader (observers, transcripts, timelines, reprs) keeps a sensitive answer hidden.
            result = _as_delivered(pending.request, result, as_recorded)
            del self._pending[request_id]
            event = QueueEvent("resolved", pending.request, result, answered_by=answered_by)
            self._answered[request_id] = Answered(answered_by, event.at, result.action)
            if len(self._answered) > ANSWERS_KEPT:
                self._answered.popitem(last=False)
            if pending.timer is not None:
                pending.timer.cancel()
            # Wake the asker first: the event below is bookkeeping for the front ends.
            # An asker that cancelled its future gets no result, but front ends still hear of it.
            if pending.future.set_running_or_notify_cancel():
                if error is None:
                    pending.future.set_result(result)
                else:
                    pending.future.set_exception(error)
            self._emit(event)
        return True

    def _emit(self, event: QueueEvent) -> None:
        """Deliver `event` to every subscriber, after any event still being delivered."""
        self._events.append(event)
        if self._dispatching:
            # A subscriber caused this event; the loop below delivers it next, in order.
            return
        self._dispatching = True
        try:
            while self._events:
                current = self._events.popleft()
                for subscription in list(self._subscribers):
                    self._deliver(subscription, current)
        finally:
            self._dispatching = False

    def _deliver(self, subscription: _Subscription, event: QueueEvent) -> None:
        try:
            subscription.callback(event)
        except Exception as error:
            if subscription.front_end:
                self._subscriber_failed(event, error)
            else:
                _log.exception(
                    "an observer failed on the %s event of %s", event.type, event.request.id
                )

    def _has_front_end(self) -> bool:
        return any(subscription.front_end for subscription in self._subscribers)

    def _subscriber_failed(self, event: QueueEvent, error: Exception) -> None:
        if event.type == "requested":
            # A front end that cannot take the request must not leave the asker waiting:
            # the asker gets the error (a scripted responder's "no answer for ...").
            failed = ElicitationResult(action="cancel", reason="front_end_error")
            self._resolve(event.request.id, failed, error)
        else:
            # An answer has been given; a failing subscriber must not raise into whoever gave it.
            _log.exception("a subscriber failed on the resolved event of %s", event.request.id)

    def _policy_result(self, request: Request) -> ElicitationResult:
        if self.policy == "decline":
            return ElicitationResult(action="decline", reason="no_front_end")
        if self.policy == "accept_defaults":
            try:
                # Checked as any answer is: no default a person could not have given.
                content = checked_content(request, request.default_content())
            except (
                ValueError,
                ContentNotJSON,
            ):  # none, or one the check refused (`ContentRefused`)
                pass
            else:
                return ElicitationResult(action="accept", content=content, reason="no_front_end")
        return ElicitationResult(action="cancel", reason="no_front_end")


def _as_delivered(
    request: Request, result: ElicitationResult, as_recorded: bool
) -> ElicitationResult:
    """`result` as `delivered` makes it; content it cannot type is refused (`ContentRefused`,
    the request still waiting: a kind's `check_content` took what its `content_type` does
    not), or given as it is where a transcript recorded it."""
    try:
        return delivered(request, result)
    except ValidationError as error:
        if as_recorded:
            # A recorded answer holds its secrets masked (•••), which its type may not take.
            return flagged(request, result)
        raise ContentRefused(validation_problems(error)) from None

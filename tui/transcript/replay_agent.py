"""Stands in for the recorded agent: asks the same requests at the same pace, checks the results."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import suppress
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from tui.core.error_text import RecordedFailure
from tui.core.models import ElicitationResult, Request
from tui.core.queue import ElicitationQueue, Policy
from tui.core.returned import RecordedReturn, Returned
from tui.transcript.reader import Transcript
from tui.transcript.records import (
    KeysRecord,
    RequestRecord,
    ResultRecord,
    RulesRevoked,
    Scrub,
    SessionEnd,
    result_json,
)
from tui.transcript.timing import Timing

STALL_SECONDS = 10.0
"""How much longer than recorded a replayed request may wait for its answer before it is
given up (a modal no recorded key can answer would otherwise hold the replay forever)."""

TRANSCRIPT_ENDED = "transcript_ended"
"""The reason a replayed request is withdrawn with when the transcript has no result for it."""

UNATTENDED_POLICIES: dict[str, Policy] = {
    "accept": "accept_defaults",
    "decline": "decline",
    "cancel": "cancel",
}
"""The queue policy that gave a result of each action when no front end was there."""

AGENT_REASONS = frozenset({"cancelled_by_agent"})
"""Results the agent caused, not the person: the replay causes them the same way."""

ENDED_WITHOUT_KEYS = AGENT_REASONS | {"closed", "interrupted", "terminated", "hung_up"}
"""Results no key of the person's gave, which the replay gives the same way: those the agent
caused, and a request open when the person quit, or ended `elicit-tui ask` otherwise (Ctrl+C,
`kill`, the terminal gone): a modal left open would wait for keys that never come, and the
replay would never end."""


def _as_recorded(returned: Returned) -> Any:
    """A value the main screen shows as the recorded agent's return was shown."""
    return RecordedReturn(returned) if isinstance(returned, str) else returned


@dataclass(frozen=True)
class Mismatch:
    """A replayed result that differs from the recorded one."""

    request: Request
    recorded: dict[str, Any]
    replayed: dict[str, Any] | None

    def describe(self) -> str:
        got = "no result" if self.replayed is None else _brief(self.replayed)
        return (
            f"{self.request.kind} request {self.request.id!r} ({self.request.message!r}): "
            f"recorded {_brief(self.recorded)}, replayed {got}"
        )


@dataclass
class ReplayAgent:
    """An agent (call it with the queue) that re-asks `transcript`'s requests.

    Each request is submitted the recorded time after the event before it; each recorded
    result is waited for and compared. The session ends the recorded time after the last event,
    returning what the agent returned, or raising `RecordedFailure` where it failed.
    """

    transcript: Transcript
    scrub: Scrub
    timing: Timing = field(default_factory=Timing)
    stop: threading.Event = field(default_factory=threading.Event)
    results: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Every replayed result (masked like a transcript's), in the order they came."""
    mismatches: list[Mismatch] = field(default_factory=list)
    checked: set[str] = field(default_factory=set)
    """The ids of the requests whose result has been checked (or given up on)."""
    unanswered: list[Request] = field(default_factory=list)
    """Requests the transcript has no result for (it was cut short, by a crash or while the
    session still ran): withdrawn as it ends, where nobody would answer them."""
    revoke: Callable[[list[dict[str, Any]]], None] | None = None
    """Given, it revokes the rules a transcript recorded as revoked (their JSON form) in the
    replay's own approval rules, when the recording did."""
    wait_until: Callable[[float], bool] | None = None
    """Given, it replaces the clock: called with each event's recorded time (seconds since
    the session began) before the event, it returns once the event may happen, True if the
    replay was stopped. A renderer steps through the session with it, faster than real time."""

    def __call__(self, queue: ElicitationQueue) -> Any:
        futures: dict[str, Future[ElicitationResult]] = {}
        unattended = {
            record.id: record.result["action"]
            for record in self.transcript.records
            if isinstance(record, ResultRecord) and record.result.get("reason") == "no_front_end"
        }
        typing_takes: dict[str, float] = {}  # request id: how long its keys take to replay
        previous = 0.0
        for record in self.transcript.records:
            if isinstance(record, KeysRecord):
                # Written as the answer came, it is no step of the agent's: the wait for that
                # answer runs from the step before, and the app replays the keys meanwhile.
                times = self.timing.schedule(key.t for key in record.keys)
                typing_takes[record.id] = times[-1] if times else 0.0
                continue
            if isinstance(record, RequestRecord):
                if self._sleep(previous, record.t):
                    break
                request = self.transcript.requests[str(record.request["id"])]
                if request.id in unattended:
                    # Recorded with nobody to answer (`mcp --auto`): the same policy answers again.
                    policy = UNATTENDED_POLICIES[unattended[request.id]]
                    futures[request.id] = ElicitationQueue(policy).submit(request)
                else:
                    futures[request.id] = queue.submit(request)
            elif isinstance(record, ResultRecord):
                if record.by is not None:
                    # Answered in another front end, whose keys no transcript has: as it did.
                    self._sleep(previous, record.t)
                    queue.respond_as_recorded(record.id, recorded_result(record), record.by)
                elif record.result.get("reason") in ENDED_WITHOUT_KEYS:
                    self._sleep(previous, record.t)
                    queue.cancel(record.id, str(record.result["reason"]))
                wait = max(self.timing.pause(record.t - previous), typing_takes.get(record.id, 0))
                self._check(queue, record, futures.get(record.id), wait)
            elif isinstance(record, RulesRevoked):
                if self._sleep(previous, record.t):
                    break
                if self.revoke is not None:
                    self.revoke(record.rules)
            elif isinstance(record, SessionEnd):
                self._sleep(previous, record.t)
                break
            previous = record.t
        self._withdraw_unanswered(queue, futures, typing_takes)
        if self.transcript.failed is not None:
            raise RecordedFailure(self.transcript.failed)
        return _as_recorded(self.transcript.returned)

    def summary(self, *, edited: bool = False) -> str:
        """How the results came out: all as recorded, or how many differ (`edited`: how many
        an edit file changed, as it meant to)."""
        checked = len(self.checked)
        results = f"{checked} result{'' if checked == 1 else 's'}"
        if self.mismatches:
            differ = "as edited" if edited else "differ from the transcript"
            summary = f"{len(self.mismatches)} of {results} {differ}"
        else:
            summary = f"{results}, all as recorded"
        if self.unanswered:
            count = len(self.unanswered)
            summary += (
                f"; {count} request{'' if count == 1 else 's'} the transcript ends before answering"
            )
        return summary

    def _withdraw_unanswered(
        self,
        queue: ElicitationQueue,
        futures: dict[str, Future[ElicitationResult]],
        typing_takes: dict[str, float],
    ) -> None:
        """Give the requests with no recorded result the time their recorded keys take (a
        transcript cut in its result's line has them), then withdraw those still waiting."""
        answered = {r.id for r in self.transcript.records if isinstance(r, ResultRecord)}
        for request_id, future in futures.items():
            if request_id in answered:
                continue
            if request_id in typing_takes:
                with suppress(FutureTimeout):
                    future.result(typing_takes[request_id] + STALL_SECONDS)
            if not future.done():
                self.unanswered.append(self.transcript.requests[request_id])
                queue.cancel(request_id, TRANSCRIPT_ENDED)

    def ended(self, request_id: str) -> bool:
        """Whether the replay is done with a request: its result checked, or it withdrawn."""
        return request_id in self.checked or any(r.id == request_id for r in self.unanswered)

    def __post_init__(self) -> None:
        self._pressed = sorted(t for times in self.transcript.key_times().values() for t in times)

    def _sleep(self, previous: float, until: float) -> bool:
        """Wait the replayed length of the recorded pause from `previous` to `until`, as a
        render plays it: each key pressed meanwhile starts a pause of its own (`max_pause`
        shortens each), so the typing in a question answered elsewhere is replayed before
        that answer comes. True if the replay was stopped."""
        if self.wait_until is not None:
            return self.wait_until(until) or self.stop.is_set()
        marks = [previous, *(t for t in self._pressed if previous < t < until), until]
        return self.stop.wait(sum(self.timing.pause(b - a) for a, b in pairwise(marks)))

    def _check(
        self,
        queue: ElicitationQueue,
        record: ResultRecord,
        future: Future[ElicitationResult] | None,
        wait: float,
    ) -> None:
        request = self.transcript.requests.get(record.id)
        if request is None or future is None:
            return
        try:
            self._compare(queue, record, request, future, wait)
        finally:
            self.checked.add(record.id)

    def _compare(
        self,
        queue: ElicitationQueue,
        record: ResultRecord,
        request: Request,
        future: Future[ElicitationResult],
        wait: float,
    ) -> None:
        """Wait for the replayed answer `wait` seconds, as long as it took in the replay's
        time, plus `STALL_SECONDS`, and compare it with the recorded one."""
        try:
            result = future.result(wait + STALL_SECONDS)
        except FutureTimeout:
            queue.cancel(record.id, "replay_stalled")
            self.mismatches.append(Mismatch(request, record.result, None))
            return
        replayed = result_json(result, self.scrub)
        self.results.append((record.id, replayed))
        if replayed != record.result:
            self.mismatches.append(Mismatch(request, record.result, replayed))


def recorded_result(record: ResultRecord) -> ElicitationResult:
    """The result `record` holds, as it was given (its secrets as masked)."""
    result = record.result
    return ElicitationResult(
        action=result["action"], content=result.get("content"), reason=result.get("reason")
    )


def _brief(result: dict[str, Any]) -> str:
    parts = [str(result.get("action"))]
    if result.get("content") is not None:
        parts.append(repr(result["content"]))
    if result.get("reason"):
        parts.append(f"({result['reason']})")
    return " ".join(parts)

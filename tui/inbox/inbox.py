"""The inbox: the queue every asker reaches, with who answered what, and the keyring writes.

Askers from other processes submit here (the HTTP API, MCP); front ends in other processes
answer here. The first answer wins, decided once under the queue's lock; a later one is told
who won and when. A secret a front end answers for a request with `store` goes to this
machine's keyring, and the asker gets only the reference.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from tui.approvals.rules import ApprovalPolicy
from tui.core.models import (
    AUTO_APPROVED,
    KEYRING_UNAVAILABLE,
    ElicitationResult,
    Request,
    SecretRequest,
)
from tui.core.queue import ElicitationQueue, QueueEvent
from tui.inbox.wire import request_json
from tui.transcript.writer import TranscriptWriter

REMEMBERED = 10_000
"""Requests whose outcome (and an unfetched result) the inbox keeps after they end."""

RULES = "approval rules"
"""Who answered a tool approval that a remembered rule allowed."""

_NOBODY_REASONS = frozenset(
    {"timeout", "closed", "cancelled_by_agent", "disconnected", "no_front_end", "front_end_error"}
)
"""Reasons of results no front end gave: the request ended without anyone answering it."""


class EntryExists(Exception):
    """A secret's answer would replace a keyring entry: the message says which, and that
    answering again replaces it."""


@dataclass(frozen=True)
class Outcome:
    """How a request ended: who answered (None: nobody, see the result's reason) and when."""

    result: ElicitationResult
    answered_by: str | None
    at: float


class Inbox:
    """Wraps `queue` for askers and front ends in other processes.

    `approvals` holds the rules that answer tool approvals for every asker; it is attached
    here unless `attach_approvals` is False (a TUI in this process attaches it itself). `transcript`, a path, records every request
    and result. `local_front_end` names a front end in this process (the TUI of `serve`):
    what it answers is reported as answered by that name. `serving`, where it serves MCP,
    goes into its transcript's first line.
    """

    def __init__(
        self,
        queue: ElicitationQueue,
        *,
        approvals: ApprovalPolicy | None = None,
        attach_approvals: bool = True,
        transcript: str | Path | None = None,
        local_front_end: str | None = None,
        serving: str | None = None,
    ) -> None:
        self.queue = queue
        self.approvals = approvals if approvals is not None else ApprovalPolicy()
        """The rules in force, shown by `elicit-tui approvals list`."""
        self.local_front_end = local_front_end
        self.front_ends = 0
        """How many front ends elsewhere follow the inbox's events now (`/v1/events`): changed
        in the event loop that serves them only."""
        self._lock = threading.Lock()
        self._answering: dict[str, str] = {}
        self._outcomes: OrderedDict[str, Outcome] = OrderedDict()
        self._futures: dict[str, Future[ElicitationResult]] = {}
        self._result_keys: dict[str, str] = {}
        """Each remembered request's key: who holds it is its asker, and gets its secrets."""
        self._told_entry_exists: set[tuple[str, str]] = set()
        """(request id, front end): told that the keyring entry of the secret it answered
        exists; its next answer replaces the entry."""
        self._on_close: list[Callable[[], None]] = []
        self._closed = False
        self._detach = [queue.subscribe(self._observe, front_end=False)]
        self.transcript = (
            None
            if transcript is None
            else TranscriptWriter(transcript, front_end=local_front_end, serving=serving)
        )
        if self.transcript is not None:
            self._detach.append(self.transcript.attach(queue))
            self._detach.append(self.approvals.when_revoked(self.transcript.revoked))
        if attach_approvals:
            self._detach.append(self.approvals.attach(queue))

    # -- askers -------------------------------------------------------------------

    def submit(self, request: Request, timeout: float | None = None) -> Future[ElicitationResult]:
        """Queue `request` as `ElicitationQueue.submit` does, keeping its future for `result()`.

        A secret to be stored while this machine has no usable keyring is answered
        `cancel`/`keyring_unavailable` at once: nobody types a secret that cannot be kept.
        Raises `LimitError` for a request whose JSON form, what front ends get, is over the
        request limits (queued, it would reach no front end), ValueError for an id already waiting,
        `ValidationError` for a bad timeout.
        """
        type(request).check_limits(request_json(request))
        if isinstance(request, SecretRequest) and request.store is not None:
            from tui.secrets.keyring_store import keyring_status

            if keyring_status() is not None:
                refused: Future[ElicitationResult] = Future()
                refused.set_result(ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE))
                self._remember(request.id, refused)
                return refused
        future = self.queue.submit(request, timeout)
        self._remember(request.id, future)
        return future

    def future(self, request_id: str) -> Future[ElicitationResult] | None:
        """The future of a request submitted here (waiting, or ended recently); None if unknown."""
        with self._lock:
            return self._futures.get(request_id)

    def forget(self, request_id: str) -> None:
        """Drop an ended request's result once its asker has it (a secret must not linger)."""
        with self._lock:
            self._futures.pop(request_id, None)
            self._result_keys.pop(request_id, None)

    def result_key(self, request_id: str) -> str | None:
        """The key that proves the holder asked request `request_id` (None if unknown): given
        to its asker only, it reveals the secrets of the result to the holder alone."""
        with self._lock:
            return self._result_keys.get(request_id)

    # -- front ends ---------------------------------------------------------------

    def answer(self, request: Request, result: ElicitationResult, front_end: str) -> Outcome | None:
        """Answer `request` on behalf of `front_end`; None if this answer counted, else how the
        request had already ended (an earlier answer, a timeout, a withdrawal...).

        Call it from the thread that runs the inbox's front ends (the event loop), so naming
        the answerer and answering happen as one step; pass a secret for the keyring through
        `stored()` first.
        """
        with self._lock:
            self._answering[request.id] = front_end
        try:
            applied = self.queue.respond(request.id, result, front_end)
        finally:
            with self._lock:
                self._answering.pop(request.id, None)
        return None if applied else self.outcome(request.id)

    def stored(
        self, request: Request, result: ElicitationResult, front_end: str
    ) -> ElicitationResult:
        """`result`, given by `front_end`, with a secret meant for the keyring stored there and
        replaced by its reference (`cancel`/`keyring_unavailable` if the keyring refuses it).

        An entry of that name is not replaced at once: `EntryExists` says so, and the next
        answer of the same front end to the same request replaces it (its person was told).
        Blocks on the keyring: call it off the event loop, and only while the request waits.
        """
        from tui.secrets.keyring_store import KeyringError, with_secret_stored

        told = (request.id, front_end)
        with self._lock:
            replace = told in self._told_entry_exists
        try:
            return with_secret_stored(request, result, replace=replace)
        except KeyringError as error:
            if error.problem != "exists":
                return ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE)
            with self._lock:
                self._told_entry_exists.add(told)
            raise EntryExists(f"{error} Answer again to replace it; cancel to keep it.") from None

    def waiting(self, request_id: str) -> Request | None:
        """The request with this id if it waits for an answer, else None."""
        return next((r for r in self.queue.pending() if r.id == request_id), None)

    def outcome(self, request_id: str) -> Outcome | None:
        """How the request with this id ended, if it did recently; None if it waits or is unknown."""
        with self._lock:
            return self._outcomes.get(request_id)

    def answerer(self, event: QueueEvent) -> str | None:
        """Who gave the result of a `resolved` event (None for `requested`, or if nobody did)."""
        if event.type != "resolved":
            return None
        outcome = self.outcome(event.request.id)
        return None if outcome is None else outcome.answered_by

    def cancel_all(self, reason: str = "closed") -> int:
        """Cancel every waiting request with `reason`; returns how many were waiting."""
        return sum(self.queue.cancel(request.id, reason) for request in self.queue.pending())

    @property
    def closed(self) -> bool:
        """True once the inbox has closed (its server may still be stopping)."""
        with self._lock:
            return self._closed

    def on_close(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` once the inbox closes (at once if it has closed); returns a
        function that stops that."""
        with self._lock:
            closed = self._closed
            if not closed:
                self._on_close.append(callback)
        if closed:
            # A front end reconnecting while the server stops: its stream ends, not waits on.
            callback()

        def remove() -> None:
            with self._lock:
                if callback in self._on_close:
                    self._on_close.remove(callback)

        return remove

    def close(self) -> None:
        """Answer every waiting asker `cancel`/`closed`, end the event streams, stop recording."""
        self.queue.close()
        with self._lock:
            self._closed = True
            callbacks, self._on_close = self._on_close, []
        for callback in callbacks:
            callback()
        for detach in self._detach:
            detach()
        self._detach = []
        if self.transcript is not None:
            self.transcript.close()

    # -- internals ----------------------------------------------------------------

    def _remember(self, request_id: str, future: Future[ElicitationResult]) -> None:
        with self._lock:
            self._futures[request_id] = future
            self._result_keys[request_id] = secrets.token_urlsafe(16)
            while len(self._futures) > REMEMBERED:
                oldest = next(iter(self._futures))
                if not self._futures[oldest].done():
                    break
                del self._futures[oldest]
                self._result_keys.pop(oldest, None)

    def _observe(self, event: QueueEvent) -> None:
        # Called with the queue's lock held, before any front end hears of the result.
        if event.type != "resolved" or event.result is None:
            return
        result = event.result
        with self._lock:
            by = self._answering.get(event.request.id)
            if by is None and result.reason == AUTO_APPROVED:
                by = RULES
            elif by is None and result.reason not in _NOBODY_REASONS:
                by = self.local_front_end
            self._outcomes[event.request.id] = Outcome(result, by, event.at)
            if self._told_entry_exists:
                self._told_entry_exists = {
                    told for told in self._told_entry_exists if told[0] != event.request.id
                }
            while len(self._outcomes) > REMEMBERED:
                self._outcomes.popitem(last=False)


def clock(at: float) -> str:
    """`at` (epoch seconds) as local HH:MM, for messages like "answered in attach at 09:12"."""
    return time.strftime("%H:%M", time.localtime(at))

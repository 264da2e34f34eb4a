"""Writes a session's transcript as it happens: one JSON line per event, flushed at once."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from tui.core.error_text import error_text
from tui.core.front_end import FrontEndSource
from tui.core.queue import QueueEvent
from tui.core.returned import returned_text
from tui.secrets.redaction import REDACTOR, Redactor
from tui.transcript.records import (
    VERSION,
    KeyPress,
    KeysRecord,
    RequestRecord,
    ResultRecord,
    RulesRevoked,
    SessionEnd,
    SessionStart,
    request_json,
    result_json,
    scrubbed,
)
from tui.transcript.scrubbed_keys import scrubbed_keys


class TranscriptWriter:
    """Records one session in `path` (replaced if it exists).

    `attach(queue)` records every request and result the queue sees; the front end adds
    the keys pressed in each modal with `keys()`, the owner of the approval rules each
    revocation of them with `revoked()`. A result another front end than
    `front_end` (the one recording the keys) gave is written with its name. Every line is
    flushed as it is written, so a crash loses nothing already answered. Safe to call from any
    thread.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        agent: str | None = None,
        title: str | None = None,
        redactor: Redactor = REDACTOR,
        front_end: str | None = None,
        serving: str | None = None,
    ) -> None:
        self.path = Path(path)
        self._front_end = front_end
        self._redactor = redactor
        self._lock = threading.Lock()
        self._file: IO[str] | None = _owner_only(self.path)
        self._started = time.monotonic()
        started = datetime.now(UTC).isoformat(timespec="seconds")
        header = SessionStart(v=VERSION, started=started, agent=agent, title=title, serving=serving)
        self._write(header.model_dump_json(exclude_none=True))

    def attach(self, queue: FrontEndSource) -> Callable[[], None]:
        """Record `queue`'s events from now on, as an observer; returns a function that stops it."""
        return queue.subscribe(self.record_event, front_end=False)

    def record_event(self, event: QueueEvent) -> None:
        """Write a queue event: the request in full, or the result with its secrets masked."""
        t = self._since_start(event.monotonic)
        scrub = self._redactor.scrub
        if event.type == "requested":
            line = RequestRecord(t=t, request=request_json(event.request, scrub))
            self._write(line.model_dump_json())
        elif event.result is not None:
            by = event.answered_by if event.answered_by != self._front_end else None
            result = result_json(event.result, scrub)
            record = ResultRecord(t=t, id=event.request.id, result=result, by=by)
            self._write(record.model_dump_json(exclude={"by"} if by is None else None))

    def revoked(self, rules: list[dict[str, Any]]) -> None:
        """Write that the approval rules `rules` (their JSON form) were revoked, every known
        secret scrubbed from them."""
        record = RulesRevoked(
            t=self._since_start(time.monotonic()), rules=scrubbed(rules, self._redactor.scrub)
        )
        self._write(record.model_dump_json())

    def keys(
        self,
        request_id: str,
        presses: Sequence[KeyPress],
        secret_lengths: dict[str, int] | None = None,
    ) -> None:
        """Write the keys pressed while `request_id` was shown: those into a secret's field
        masked by the caller, a secret typed or pasted into any other field scrubbed here."""
        keys = scrubbed_keys(presses, self._redactor)
        record = KeysRecord(
            t=self._since_start(time.monotonic()),
            id=request_id,
            keys=keys,
            secret_lengths=secret_lengths or {},
            scrubbed=keys != list(presses) or None,
        )
        self._write(record.model_dump_json(exclude_none=True))

    def close(self, returned: Any = None, failed: BaseException | None = None) -> None:
        """Write the end of the session, with what the agent `returned` (None: nothing, or
        not yet) or the error it `failed` with, and close the file; later events are ignored."""
        with self._lock:
            if self._file is None:
                return
        text = returned_text(returned)
        scrub = self._redactor.scrub
        if isinstance(text, dict):
            text = {scrub(key): scrub(item) for key, item in text.items()}
        elif text is not None:
            text = scrub(text)
        error = None if failed is None else scrub(error_text(failed))
        end = SessionEnd(t=self._since_start(time.monotonic()), returned=text, failed=error)
        self._write(end.model_dump_json(exclude_none=True))
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def _since_start(self, monotonic: float) -> float:
        return round(max(0.0, monotonic - self._started), 3)

    def _write(self, line: str) -> None:
        with self._lock:
            if self._file is None:
                return
            self._file.write(line + "\n")
            self._file.flush()


def _owner_only(path: Path) -> IO[str]:
    """`path`, emptied and open for writing, readable by its owner only: a transcript holds
    every question and the person's answers, the tool calls they allowed and their reasons."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a file there before keeps its mode otherwise
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise

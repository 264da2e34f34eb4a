"""Presses a transcript's keys again, each at its recorded time after its modal appeared."""

from __future__ import annotations

import asyncio
import contextlib
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.keys import _character_to_key
from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed

from tui.app.key_order import KeyOrderApp
from tui.app.key_recorder import find_field
from tui.app.steady_frames import is_quiet, steady_cursors
from tui.app.stoppable_pilot import StoppablePilot
from tui.core.models import ElicitationResult, FormRequest, SecretRequest, flagged
from tui.transcript.reader import Transcript
from tui.transcript.records import KeyPress, KeysRecord, ResultRecord
from tui.transcript.replay_agent import recorded_result
from tui.transcript.timing import Timing
from widgets.base import ElicitationModal

DUMMY_CHARACTER = "x"
"""What each character of a secret is replayed as (the literal parts of a pattern stay)."""

POLL_SECONDS = 0.005

REACTION_SECONDS = 0.1
"""A key recorded this long or longer after the one before it was typed in answer to what
that one did; keys closer together came as one burst (a paste, a held key, keys sent at
once), and are pressed as they came."""


def dummy_secret(length: int, pattern: str | None = None) -> str:
    """A fixed stand-in of `length` characters; it fits `pattern` (`sk-...`) where it can."""
    if not pattern or "..." not in pattern:
        return DUMMY_CHARACTER * length
    parts = pattern.split("...")
    gaps = len(parts) - 1
    fill = length - sum(len(part) for part in parts)
    if fill < gaps:
        return DUMMY_CHARACTER * length
    widths = [fill // gaps + (1 if index < fill % gaps else 0) for index in range(gaps)]
    pieces = [parts[0]]
    for width, part in zip(widths, parts[1:], strict=True):
        pieces += [DUMMY_CHARACTER * width, part]
    return "".join(pieces)


def replays(modal: ElicitationModal[Any], record: KeysRecord, press: KeyPress) -> bool:
    """Whether a replay presses `press` (one of `record`'s keys) again in `modal`, as
    `KeysRecord.replays` says; the last key of a dialog of one's own whose masked field was
    typed into gives the recorded answer instead: the dummy typed there is one only a secret's
    or a form's field is sure to take, a kind's own check may refuse it (a token that must
    start with ok-)."""
    if not record.replays(press):
        return False
    if press is not record.keys[-1] or isinstance(modal.request, SecretRequest | FormRequest):
        return True
    return all(key.masked is None for key in record.keys)


@dataclass
class KeyPlayer:
    """An auto pilot for the app: waits for each recorded modal and presses its keys.

    `resolved(id)` says whether a request has ended (then its modal will not come).
    With `svg_dir`, writes a masked SVG of each modal just before its last key (as it appears,
    for one without keys: answered in another front end), numbered in the order shown.
    """

    transcript: Transcript
    resolved: Callable[[str], bool]
    timing: Timing = field(default_factory=Timing)
    svg_dir: Path | None = None
    answer: Callable[[ElicitationModal[Any], ElicitationResult], None] | None = None
    """Answers a modal with its recorded result where its keys do not give it (see
    `KeysRecord.replays`)."""
    errors: list[float] = field(default_factory=list)
    """For each key: replayed minus planned time after its modal appeared, in seconds."""
    svgs: list[Path] = field(default_factory=list)

    _pilot: StoppablePilot = field(default_factory=StoppablePilot, init=False, repr=False)

    async def drive(self, pilot: Pilot[Any]) -> None:
        await self._pilot.run(self._drive(pilot))

    def stop(self) -> None:
        """Press no more keys and wait for no more modals: the app is ending (see
        `StoppablePilot`)."""
        self._pilot.stop()

    async def _drive(self, pilot: Pilot[Any]) -> None:
        app = pilot.app
        plans = {r.id: r for r in self.transcript.records if isinstance(r, KeysRecord)}
        for number, request_id in enumerate(self.transcript.shown_order(), start=1):
            modal = await self._wait_for_modal(app, request_id)
            if self._pilot.stopped:
                return
            if modal is None:
                continue
            if request_id in plans:
                await self._play(pilot, modal, plans[request_id], number)
            elif self.svg_dir is not None:
                # Answered in another front end: no key here, its modal shown all the same.
                await self._screenshot(pilot, modal, number)

    def error_summary(self) -> str:
        """The timing error of the replayed keys, median and max, in milliseconds."""
        if not self.errors:
            return "no keys replayed"
        absolute = [abs(error) * 1000 for error in self.errors]
        return (
            f"{len(absolute)} key{'' if len(absolute) == 1 else 's'} replayed, timing error median {statistics.median(absolute):.1f} ms, "
            f"max {max(absolute):.1f} ms"
        )

    async def _wait_for_modal(self, app: App[Any], request_id: str) -> ElicitationModal[Any] | None:
        while not (self.resolved(request_id) or self._pilot.stopped):
            screen = app.screen
            if (
                isinstance(screen, ElicitationModal)
                and screen.request.id == request_id
                and screen.is_current
                and screen.is_mounted
            ):
                steady_cursors(app)
                return screen
            await asyncio.sleep(POLL_SECONDS)
        return None

    async def _play(
        self, pilot: Pilot[Any], modal: ElicitationModal[Any], record: KeysRecord, number: int
    ) -> None:
        app = pilot.app
        # A modal mounts some widgets after it appears (a long form's fields): keys wait for them.
        await pilot.pause()
        planned = self.timing.schedule(press.t for press in record.keys)
        # What each secret field holds, counted here from the last time the app settled while
        # only a secret's characters have been pressed since (a burst may not have reached
        # the field yet); None after any other key (Backspace, ←): the field must say.
        held: dict[str, int] | None = {}
        for index, (press, at) in enumerate(zip(record.keys, planned, strict=True)):
            if self._pilot.stopped:
                return
            if self.svg_dir is not None and index == len(record.keys) - 1:
                await self._screenshot(pilot, modal, number)
            if index and press.t - record.keys[index - 1].t >= REACTION_SECONDS:
                # Typed once the person saw what the key before did: that is over and drawn
                # first, however long it takes here (a keyring's answer, on a loaded machine).
                await self._settled(pilot)
                if await self._work_done(modal):
                    await self._settled(pilot)
                held = {}
            delay = modal.shown_at + at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if not modal.is_current or self._pilot.stopped:
                return
            if not replays(modal, record, press):
                # Its key not recorded (a sensitive answer), or its keys typing the mask for
                # a secret, or a dummy the kind may refuse: the recorded answer is given.
                if index + 1 == len(planned):
                    self.answer_as_recorded(modal)
                    await self._settled(pilot)
                continue
            if press.masked is None:
                held = None
                event = self.event_for(modal, record, press)
            else:
                if held is None:
                    await self._settled(pilot)
                    held = {}
                name = press.field or ""
                typed = held.get(name)
                if typed is None:
                    typed = self._held(modal, name)
                event = self.event_for(modal, record, press, typed)
                held[name] = typed + press.masked
            if self._pilot.stopped:  # while it waited for the app to settle
                return
            self.errors.append(event.time - modal.shown_at - at)
            app.post_message(event)
            if index + 1 == len(planned):
                await self._settled(pilot)
            elif await self._settle(pilot, until=modal.shown_at + planned[index + 1]):
                held = {}
        if self.svg_dir is not None and not record.keys:
            await self._screenshot(pilot, modal, number)

    def answer_as_recorded(self, modal: ElicitationModal[Any]) -> None:
        """Answer `modal` with the result its transcript holds (after keys it does not
        replay, see `KeysRecord.replays`)."""
        request = modal.request
        recorded = next(
            (
                r
                for r in self.transcript.records
                if isinstance(r, ResultRecord) and r.id == request.id
            ),
            None,
        )
        if recorded is not None and self.answer is not None:
            self.answer(modal, flagged(request, recorded_result(recorded)))

    async def _settle(self, pilot: Pilot[Any], until: float) -> bool:
        """Wait as a person waits to see what a key did (`_settled`), but never past `until`,
        when the next key is due: keys that came in a burst (a paste, a held key, keys sent
        at once) go in one as they came, not each once the last has settled. Whether the app
        settled in time."""
        left = until - time.monotonic()
        if left <= 0:
            return False
        try:
            await asyncio.wait_for(self._settled(pilot), left)
        except TimeoutError:
            return False
        return True

    @staticmethod
    async def _settled(pilot: Pilot[Any]) -> None:
        """Return once the key just pressed is handled, drawn and its animations are over."""
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    def event_for(
        self,
        modal: ElicitationModal[Any],
        record: KeysRecord,
        press: KeyPress,
        typed: int | None = None,
    ) -> events.Key | events.Paste:
        """The event that presses `press` again in `modal`; a secret's keys as its dummy,
        from where the field is: `typed` characters in, else what it holds now."""
        if press.masked is None:
            if press.paste is not None:
                return events.Paste(press.paste)
            return events.Key(press.key or "", press.char)
        name = press.field or ""
        pattern = modal.request.pattern if isinstance(modal.request, SecretRequest) else None
        dummy = dummy_secret(record.secret_lengths.get(name, 0), pattern)
        if typed is None:
            typed = self._held(modal, name)
        text = (dummy[typed:] + DUMMY_CHARACTER * press.masked)[: press.masked]
        if press.paste is not None:
            return events.Paste(text)
        return events.Key(_character_to_key(text) if not text.isalnum() else text, text)

    @staticmethod
    async def _work_done(modal: ElicitationModal[Any]) -> bool:
        """Wait for the work a key started in `modal` to end (a secret being saved to the
        keyring); whether there was any. On a loaded machine it may not have ended by the next
        key's recorded time, and that key, reaching the fields locked meanwhile, was lost."""
        running = [w for w in modal.app.workers if w.node is modal and not w.is_finished]
        for worker in running:
            with contextlib.suppress(WorkerFailed, WorkerCancelled):
                await worker.wait()
        return bool(running)

    @staticmethod
    def _held(modal: ElicitationModal[Any], name: str) -> int:
        """The characters the secret field `name` of `modal` holds now."""
        widget = find_field(modal, name)
        return len(widget.value) if widget is not None else 0

    async def _screenshot(
        self, pilot: Pilot[Any], modal: ElicitationModal[Any], number: int
    ) -> None:
        assert self.svg_dir is not None
        app = pilot.app
        steady_cursors(app)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        while isinstance(app, KeyOrderApp) and not is_quiet(app):
            await pilot.pause()
        if not modal.is_current or self._pilot.stopped:
            return
        # A kind may be named anything (`acme/card`): a file name holds it made safe.
        kind = re.sub(r"[^\w.-]", "_", modal.request.kind, flags=re.ASCII)
        path = self.svg_dir / f"{number:02d}-{kind}.svg"
        path.write_text(app.export_screenshot(), encoding="utf-8")
        self.svgs.append(path)

"""A session as a render plays it: each event's recorded and output time, and its chapters."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from tui.core.one_line import one_line
from tui.core.terminal_text import literal_line
from tui.render.edits import ChapterEdit, Edits
from tui.transcript.reader import Transcript
from tui.transcript.records import KeyPress, KeysRecord, RequestRecord, ResultRecord, SessionEnd
from tui.transcript.replay_agent import AGENT_REASONS
from tui.transcript.timing import Timing
from widgets.key_badge import key_label

NAME_WIDTH = 60
"""Chapter names longer than this are cut, with an ellipsis."""

NO_EDIT = ChapterEdit()

BURST_GAP = 0.03
"""Keys recorded closer together than this seconds came in one burst (a terminal multiplexer,
an expect script, keys typed while the app was busy): faster than any person types."""

KEY_HOLD = 0.1
"""Seconds the screen after a key of a burst shows: a burst is drawn key by key, not all in
one frame. Keys a person typed keep their own pace, scaled as every pause is."""

StepKind = Literal["start", "request", "key", "cancel", "end"]
"""A "cancel" ends a request without its keys: the agent withdrew it, it timed out, or
another front end answered it."""


@dataclass(frozen=True)
class Step:
    """One event the screen may change at. `at` is seconds into the output."""

    kind: StepKind
    recorded: float
    chapter: int
    """The chapter shown when it happens: 0 before the first question."""
    request_id: str | None = None
    press: KeyPress | None = None
    keys: KeysRecord | None = None
    at: float = 0.0

    @property
    def label(self) -> str | None:
        """How the key is shown in the output: `⏎`, `a`, `ctrl+s`, `•` in a secret; None for
        no key, or one kept only as its time (`hidden`: it would tell a sensitive answer)."""
        press = self.press
        if press is None or press.hidden:
            return None
        if press.masked is not None:
            return "•" if press.paste is None else "paste •••"
        if press.paste is not None:
            return "paste"
        return key_label(press.key, press.char)


@dataclass(frozen=True)
class Chapter:
    """One question: `start` and `end` are seconds into the output."""

    number: int
    request_id: str
    name: str
    start: float
    end: float
    cut: bool


@dataclass(frozen=True)
class Script:
    steps: list[Step]
    chapters: list[Chapter]
    duration: float
    """Seconds from the start to the session's end, as the output plays it."""

    @property
    def shown_chapters(self) -> list[Chapter]:
        """The chapters the outputs show (the cut ones left out)."""
        return [chapter for chapter in self.chapters if not chapter.cut]


def chapter_name(transcript: Transcript, request_id: str) -> str:
    """A request's title, else its message, on one line and at most `NAME_WIDTH` long, each
    control character as its picture: a name goes into a cast's markers, a video's chapters,
    the caption line, which a player hands to a terminal as they are."""
    request = transcript.requests[request_id]
    return literal_line(one_line(request.title or request.message, NAME_WIDTH))


def build_script(transcript: Transcript, timing: Timing, edits: Edits | None = None) -> Script:
    """Every step of `transcript` in order, timed as the output plays it."""
    edits = edits or Edits()
    shown_at = transcript.shown_at()
    order = list(shown_at)
    pressed_at = transcript.key_times()
    unattended = {
        r.id
        for r in transcript.records
        if isinstance(r, ResultRecord) and r.result.get("reason") == "no_front_end"
    }
    starts = list(shown_at.values())

    def chapter_at(t: float) -> int:
        return sum(1 for start in starts if start <= t)

    steps: list[Step] = [Step("start", 0.0, 0)]
    end = 0.0
    for record in transcript.records:
        if isinstance(record, RequestRecord):
            request_id = str(record.request["id"])
            if request_id not in unattended:
                steps.append(Step("request", record.t, chapter_at(record.t), request_id))
        elif isinstance(record, KeysRecord) and record.id in shown_at:
            number = order.index(record.id) + 1
            for press, t in zip(record.keys, pressed_at[record.id], strict=True):
                steps.append(Step("key", t, number, record.id, press, record))
        elif isinstance(record, ResultRecord) and (
            record.by is not None or record.result.get("reason") in AGENT_REASONS
        ):
            steps.append(Step("cancel", record.t, chapter_at(record.t), record.id))
        elif isinstance(record, SessionEnd):
            end = record.t
        end = max(end, record.t)
    steps.append(Step("end", end, chapter_at(end)))
    steps.sort(key=lambda step: step.recorded)
    timed = _timed(steps, timing, edits)
    duration = timed[-1].at
    chapters: list[Chapter] = []
    for number, request_id in enumerate(order, start=1):
        inside = [step.at for step in timed if step.chapter == number]
        chapters.append(
            Chapter(
                number,
                request_id,
                chapter_name(transcript, request_id),
                start=min(inside, default=duration),
                end=duration,
                cut=edits.chapters.get(number, NO_EDIT).cut,
            )
        )
    for index in range(len(chapters) - 1):
        following = chapters[index + 1]
        chapters[index] = replace(chapters[index], end=following.start)
    return Script(timed, chapters, duration)


def _timed(steps: list[Step], timing: Timing, edits: Edits) -> list[Step]:
    timed: list[Step] = []
    at = previous = 0.0
    showing = 0
    after_key = False
    for step in steps:
        # A pause belongs to the chapter on screen during it: the one of the step before.
        edit = edits.chapters.get(showing, NO_EDIT)
        showing = step.chapter
        if edit.cut:
            pause = 0.0
        else:
            pause = timing.pause((step.recorded - previous) / edit.speed)
            if edits.max_idle is not None:
                pause = min(pause, edits.max_idle)
            if after_key and step.recorded - previous < BURST_GAP:
                pause = max(pause, KEY_HOLD)
        after_key = step.kind == "key"
        at += pause
        previous = step.recorded
        timed.append(replace(step, at=round(at, 6)))
    return timed

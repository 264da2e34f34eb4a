"""Runs a replay headless, step by step, and captures the screen after each step settles.

The agent waits on a stepped clock instead of sleeping, and keys are pressed as soon as the
screen before them has settled: a session renders in less time than it took, and every
frame is the same on every run.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from textual.color import Color
from textual.notifications import Notification, Notify
from textual.pilot import Pilot
from textual.worker import WorkerFailed

from tui.app.key_player import KeyPlayer, replays
from tui.app.replay_app import ReplayApp
from tui.app.steady_frames import is_quiet, steady_cursors
from tui.app.stoppable_pilot import StoppablePilot
from tui.core.ended_from_outside import EndedFromOutside, signals_raise
from tui.core.queue import QueueEvent
from tui.render.cells import RGB, Grid, screen_grid
from tui.render.script import Script, Step
from tui.secrets.memory_keyring import memory_keyring
from tui.secrets.redaction import REDACTOR
from tui.transcript.reader import Transcript
from tui.transcript.records import RequestRecord
from tui.transcript.replay_agent import Mismatch
from widgets.base import ElicitationModal

SETTLE_ROUNDS = 50
"""At most this many quiet refreshes are waited for the screen to stop changing after a step."""

STABLE_ROUNDS = 3
"""A screen drawn the same this many more times in a row is taken as settled."""

WALL_TIMEOUT = 24 * 3600.0
"""A notice's timeout on the wall clock in a render: never reached, its time being kept on
the session's clock."""

WAIT_SECONDS = 20.0
"""How long a step may wait for the app (a modal to appear, the agent to finish)."""

PICK_SECONDS = 0.4
"""How long the output shows the row a digit picked, highlighted, before what the digit did
(live it is on screen for a frame: enough for a terminal recording, not for a viewer)."""

ANSWER_SECONDS = 5.0
"""How long a modal's last recorded key may take to end its request (a recorded last key
need not end it, as when the session was quit)."""


@dataclass(frozen=True)
class Theme:
    """The colours of the theme the app ran with, for what the outputs draw around it."""

    foreground: RGB
    background: RGB
    accent: RGB
    panel: RGB
    on_accent: RGB
    """The app's `$text` on the accent colour: the key badge's label."""


@dataclass(frozen=True)
class LaterScreen:
    """A screen that changed between two steps, at no step of its own: a notice's time was
    up (see `RenderApp.end_notices`)."""

    step: int
    """The index of the step it came after."""
    recorded: float
    """When, in seconds since the session began."""
    grid: Grid


@dataclass
class Capture:
    """What a render run saw: one screen per step of the script, those between steps, the
    theme, the mismatches."""

    screens: list[Grid]
    theme: Theme
    mismatches: list[Mismatch]
    summary: str
    later: list[LaterScreen] = field(default_factory=list)


class SteppedClock:
    """The agent's clock: an event at recorded time t may happen once the clock reaches t."""

    def __init__(self) -> None:
        self._now = 0.0
        self._stopped = False
        self._changed = threading.Condition()

    def advance(self, t: float) -> None:
        with self._changed:
            self._now = max(self._now, t)
            self._changed.notify_all()

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()

    def wait_until(self, t: float) -> bool:
        """Block until the clock reaches `t`; True if it was stopped instead."""
        with self._changed:
            self._changed.wait_for(lambda: self._stopped or self._now >= t)
            return self._stopped


class RenderApp(ReplayApp):
    """A replay app that stays open when the agent finishes, until the renderer closes it.

    Its notices go, and its countdowns count, by the session's clock, as they did live, not
    the wall clock's: the render steps through the session faster than it happened."""

    def __init__(self, transcript: Transcript, clock: SteppedClock, theme: str) -> None:
        super().__init__(transcript, theme=theme)
        self.replay_agent.wait_until = clock.wait_until
        self.clock = clock
        self.agent_done = asyncio.Event()
        self.seen: set[str] = set()
        """`requested:ID` and `resolved:ID` for each queue event the app has handled."""
        self.now = 0.0
        """The recorded time of the step being drawn (seconds since the session began): what
        a countdown counts by, so each frame shows the time left as it was at that moment.
        The replay runs through the session faster than it was recorded, and by the clock
        every frame showed the time left as the question appeared."""
        self._asked_at = {
            str(record.request["id"]): record.t
            for record in transcript.records
            if isinstance(record, RequestRecord)
        }
        self._notice_ends: dict[str, tuple[Notification, float]] = {}
        """Each notice shown, by identity, and when its time is up on the session's clock."""
        self.picked: Grid | None = None
        """The screen in which a digit's row was last drawn highlighted, before its dialog
        acted on it (taken by `pick_drawn`; the renderer clears it)."""

    def pick_drawn(self) -> None:
        """A digit's row is drawn highlighted (see `frame_drawn`): that screen is taken now,
        as the dialog closes or moves on as soon as this returns."""
        steady_cursors(self)
        theme = _theme(self)
        self.picked = screen_grid(self, REDACTOR, (theme.foreground, theme.background))

    def _show_next(self) -> None:
        super()._show_next()
        shown = self._shown
        if shown is not None and shown.deadline is not None and shown.request.timeout is not None:
            asked_at = self._asked_at.get(shown.request.id, self.now)
            shown.count_down(asked_at + shown.request.timeout, lambda: self.now)

    def show_time(self, recorded: float) -> None:
        """The step recorded at `recorded` is about to be drawn: the countdown in front shows
        the time left then."""
        self.now = recorded
        if self._shown is not None:
            self._shown.tick()

    def _on_notify(self, event: Notify) -> None:
        notification = event.notification
        self._notice_ends[notification.identity] = (notification, self.now + notification.timeout)
        notification.timeout = WALL_TIMEOUT
        super()._on_notify(event)

    def next_notice_end(self) -> float | None:
        """When the first notice still shown is up on the session's clock (None: none is)."""
        shown = [end for notice, end in self._notice_ends.values() if notice in self._notifications]
        return min(shown, default=None)

    def end_notices(self, now: float) -> None:
        """Take away each notice whose time is up at `now` on the session's clock."""
        for identity, (notice, end) in list(self._notice_ends.items()):
            if end <= now:
                del self._notice_ends[identity]
                self._unnotify(notice)

    def _request_arrived(self, event: QueueEvent) -> None:
        super()._request_arrived(event)
        self.seen.add(f"requested:{event.request.id}")

    def _request_resolved(self, event: QueueEvent) -> None:
        super()._request_resolved(event)
        self.seen.add(f"resolved:{event.request.id}")

    def on_unmount(self) -> None:
        self.clock.stop()

    def agent_ended(self, value: Any) -> None:
        """Stay open: the renderer exits once it has the last frame."""
        self.agent_done.set()


def capture(
    transcript: Transcript,
    script: Script,
    size: tuple[int, int],
    theme: str,
    *,
    edited: bool = False,
) -> Capture:
    """Replay `transcript` headless at `size` in `theme`; one screen per step of `script`,
    and one for each notice that goes between steps. Ended by Ctrl+C, SIGTERM or SIGHUP, the
    replay stops where it is and this raises `EndedFromOutside`. `edited`: an edit file
    changed its results, and its summary says so."""
    clock = SteppedClock()
    app = RenderApp(transcript, clock, theme)
    screens: list[Grid] = []
    later: list[LaterScreen] = []
    colours: list[Theme] = []

    ended: list[int] = []
    pilot_steps = StoppablePilot()

    def end(number: int) -> None:
        """Ctrl+C, SIGTERM or SIGHUP, in the main thread: the steps stop (or never start)
        and the app exits; `EndedFromOutside` is raised once it has."""
        ended.append(number)
        pilot_steps.stop()

    async def drive(pilot: Pilot[Any]) -> None:
        try:
            await pilot_steps.run(_drive(pilot, app, script, screens, later, colours, pilot_steps))
        finally:
            clock.stop()
            app.exit()  # as after the last step

    with (
        memory_keyring(usable=not transcript.keyring_was_unusable),
        signals_raise(instead=end),
    ):
        app.run(headless=True, size=size, auto_pilot=drive)
    if ended:
        raise EndedFromOutside(ended[0])
    if len(screens) != len(script.steps):
        raise RuntimeError(
            f"the replay stopped after {len(screens)} of {len(script.steps)} steps; "
            "run `elicit-tui replay FILE` to see why"
        )
    agent = app.replay_agent
    mismatches = list(agent.mismatches)
    return Capture(screens, colours[0], mismatches, agent.summary(edited=edited), later)


async def _drive(
    pilot: Pilot[Any],
    app: RenderApp,
    script: Script,
    screens: list[Grid],
    later: list[LaterScreen],
    colours: list[Theme],
    pilot_steps: StoppablePilot,
) -> None:
    """Play `script`'s steps, capturing the screen after each, until they are done or
    `pilot_steps` is stopped."""
    player = KeyPlayer(app.replay_agent.transcript, app._resolved, answer=app.answer_as_recorded)
    theme = _theme(app)
    colours.append(theme)
    default = (theme.foreground, theme.background)
    for index, step in enumerate(script.steps):
        if pilot_steps.stopped:
            return
        app.now = step.recorded
        app.end_notices(step.recorded)
        if step.kind == "request":
            app.clock.advance(step.recorded)
            await _until(partial(_seen, app, f"requested:{step.request_id}"))
        elif step.kind == "cancel":
            app.clock.advance(step.recorded)
            await _until(partial(_seen, app, f"resolved:{step.request_id}"))
        elif step.kind == "key":
            assert step.press is not None and step.keys is not None
            modal = await _modal(app, str(step.request_id))
            last = step.press is step.keys.keys[-1]
            if modal is not None and not replays(modal, step.keys, step.press):
                if last:  # keys that do not give the answer (see `replays`): the recorded one
                    player.answer_as_recorded(modal)
            elif modal is not None:
                app.post_message(player.event_for(modal, step.keys, step.press))
            if modal is not None and last:
                # The answer: its frame is the screen once the app has handled the result.
                await _until(partial(_seen, app, f"resolved:{step.request_id}"), strict=False)
        elif step.kind == "end":
            app.clock.advance(step.recorded)
            await asyncio.wait_for(app.agent_done.wait(), WAIT_SECONDS)
        app.show_time(step.recorded)
        screen = await _settled(pilot, app, default)
        following = script.steps[index + 1].recorded if index + 1 < len(script.steps) else None
        picked, app.picked = app.picked, None
        if picked is not None and following is not None:
            # A digit's row drawn highlighted before its answer: shown as the key is pressed,
            # what the answer did a moment later.
            when = _after_pick(step, script.steps[index + 1])
            app.end_notices(when)
            app.show_time(when)
            later.append(LaterScreen(index, when, await _settled(pilot, app, default)))
            screen = picked
        screens.append(screen)
        # A notice whose time is up before the next step goes at that time, in a screen of
        # its own. (After the last step, the session had ended: what is shown then stays.)
        while following is not None and (end := app.next_notice_end()) is not None:
            if end >= following:
                break
            app.end_notices(end)
            app.show_time(end)
            later.append(LaterScreen(index, end, await _settled(pilot, app, default)))


def _after_pick(step: Step, following: Step) -> float:
    """When (on the session's clock) the output goes from a digit's highlighted row, pressed
    at `step`, to what the digit did: `PICK_SECONDS` into the output, at most halfway to the
    step after."""
    shown = following.at - step.at
    share = min(PICK_SECONDS / shown, 0.5) if shown > 0 else 0.5
    return step.recorded + share * (following.recorded - step.recorded)


async def _settled(pilot: Pilot[Any], app: RenderApp, default: tuple[RGB, RGB]) -> Grid:
    """The screen once the app is quiet and `STABLE_ROUNDS` refreshes in a row draw the same.

    Each round lets every pending message of the app and its screen be handled and then
    refreshes the screen, without waiting for the process to look idle (which costs 20 ms
    or more a time): the replay's steps come as fast as the app can draw them. A round
    counts only once the app is quiet (see `is_quiet`): how long a key or a preview takes to
    land depends on the machine's speed, the frame must not."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_SECONDS
    previous: Grid | None = None
    same = rounds = 0
    while rounds < SETTLE_ROUNDS:
        await app.animator.wait_until_complete()
        await _workers_done(app)
        await pilot.pause(0)
        steady_cursors(app)
        if not is_quiet(app):
            if loop.time() > deadline:
                raise TimeoutError("the replayed app did not settle after a step")
            same, previous = 0, None
            await asyncio.sleep(0.001)
            continue
        rounds += 1
        grid = screen_grid(app, REDACTOR, default)
        same = same + 1 if grid == previous else 0
        if same == STABLE_ROUNDS:
            return grid
        previous = grid
    assert previous is not None
    return previous


async def _workers_done(app: RenderApp) -> None:
    """Wait for the app's workers to end (a secret being saved to the keyring).

    A worker started with `exit_on_error=False` hands its failure to whoever started it (the
    secret modal says why the keyring refused, and offers a way out): that is a screen to draw,
    not a failed render. Any other worker's failure is raised."""
    for worker in list(app.workers):
        try:
            await worker.wait()
        except WorkerFailed:
            if worker.exit_on_error:
                raise


def _seen(app: RenderApp, event: str) -> bool:
    return event in app.seen


async def _until(condition: Callable[[], bool], *, strict: bool = True) -> None:
    """Wait for `condition`; after `WAIT_SECONDS`, raise `TimeoutError` if `strict`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (WAIT_SECONDS if strict else ANSWER_SECONDS)
    while not condition():
        if loop.time() > deadline:
            if not strict:
                return
            raise TimeoutError("the replayed app did not get the next request in time")
        await asyncio.sleep(0.001)


async def _modal(app: RenderApp, request_id: str) -> ElicitationModal[Any] | None:
    """The modal of `request_id` once it is in front, or None if the request has ended."""
    found: list[ElicitationModal[Any]] = []

    def in_front() -> bool:
        screen = app.screen
        if (
            isinstance(screen, ElicitationModal)
            and screen.request.id == request_id
            and screen.is_current
            and screen.is_mounted
        ):
            found.append(screen)
            return True
        return f"resolved:{request_id}" in app.seen

    await _until(in_front)
    return found[0] if found else None


def _theme(app: RenderApp) -> Theme:
    variables = app.get_css_variables()

    def rgb(name: str) -> RGB:
        return Color.parse(variables[name]).rgb

    accent = Color.parse(variables["accent"])
    return Theme(
        foreground=rgb("foreground"),
        background=rgb("background"),
        accent=accent.rgb,
        panel=rgb("panel"),
        # `$text` is "auto 87%": the contrasting text, 87% over what it is drawn on.
        on_accent=(accent + accent.get_contrast_text(0.87)).rgb,
    )

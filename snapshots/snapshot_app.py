"""Builds apps for snapshot tests, with the clock, countdown, theme and cursor blink pinned."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tui.app.app import ElicitationApp
from tui.core.models import Request
from tui.core.queue import ElicitationQueue
from widgets.base import ElicitationModal
from widgets.form import FormModal

FIXED_TIME = "12:00:00"

Ready = Callable[[Pilot[Any]], Awaitable[None]]


class PinnedCountdownApp(ElicitationApp):
    """An app whose questions count down from their whole timeout and stay there: a
    screenshot taken more than a second after a question was asked (a busy machine, a
    question shown after another) reads the same."""

    def _show_next(self) -> None:
        super()._show_next()
        shown = self._shown
        if shown is not None and shown.deadline is not None and shown.request.timeout is not None:
            asked_at = shown.deadline - shown.request.timeout
            shown.count_down(shown.deadline, lambda: asked_at)


def modal_app(*requests: Request, theme: str = "textual-dark") -> tuple[ElicitationApp, Ready]:
    """An app that will show `requests` (the first as a modal), and a `run_before` that queues them.

    The clock, the countdown, the theme, the cursor blink and animations are pinned so the
    SVG is the same on every run.
    """
    queue = ElicitationQueue()
    app = PinnedCountdownApp(queue, input_grace=0, time_label=lambda _at: FIXED_TIME)

    async def ready(pilot: Pilot[Any]) -> None:
        app.theme = theme
        # A field focused by Tab scrolls into view at once, not over frames the screenshot races.
        app.animation_level = "none"
        for request in requests:
            queue.submit(request)
        if requests:
            await modal_settled(pilot)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    return app, ready


async def modal_settled(pilot: Pilot[Any]) -> None:
    """Return once a modal is in front, built whole, its answer field focused and its cursor
    pinned: on a busy machine each of these comes a few messages after the modal is."""
    app = pilot.app
    for _ in range(100):
        await pilot.pause(0.01)
        if isinstance(app.screen, ElicitationModal):
            break
    # A long form mounts its fields after the first screenful: keys go to the whole form.
    for _ in range(100):
        if not isinstance(app.screen, FormModal) or app.screen.complete:
            break
        await pilot.pause(0.01)
    # The answer's field is mounted with a modal made for its request, and draws its cursor
    # once it has handled its Focus event: both can come after a screenshot taken at once.
    for _ in range(100):
        focused = app.screen.focused
        if focused is not None and focused.has_focus:
            break
        await pilot.pause(0.01)
    await pilot.pause()
    for field in app.screen.query(Input).results():
        field.cursor_blink = False
    for area in app.screen.query(TextArea).results():
        area.cursor_blink = False

"""The app behind `elicit-tui ask`: one request, its modal, its result returned."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from tui.app.app import ElicitationApp
from tui.core.models import ElicitationResult, Request
from tui.core.queue import ElicitationQueue


def _ask_once(request: Request, queue: ElicitationQueue) -> ElicitationResult:
    return queue.ask(request)


class AskApp(ElicitationApp):
    """Shows `request` and exits with its `ElicitationResult`.

    It is an `ElicitationApp` whose agent asks the one request, so timeouts, the input grace
    period and the modal are the same as in the full app. Run inline (`run(inline=True)`),
    only the dialog shows, under the shell's prompt and as tall as its content; full screen,
    the dialog fills the screen. `run()` returns None when the person quits the app instead
    of answering (the request then ends with `cancel`/`closed`).
    """

    keeps_secrets_in_memory = False

    def __init__(
        self,
        request: Request,
        *,
        input_grace: float = 0.2,
        transcript: str | Path | None = None,
        bell: bool | None = None,
    ) -> None:
        super().__init__(
            ElicitationQueue(),
            partial(_ask_once, request),
            agent_name=request.source or "elicit-tui ask",
            title=request.title or "elicit-tui ask",
            input_grace=input_grace,
            exit_when_agent_done=True,
            transcript=transcript,
            bell=bell,
        )

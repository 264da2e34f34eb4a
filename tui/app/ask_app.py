"""The app behind `elicit-tui ask`: one request, its modal, its result returned."""

from __future__ import annotations

from functools import partial
from pathlib import Path, PurePath
from typing import ClassVar

from textual.binding import Binding, BindingType

from styles import APP_CSS
from tui.app.app import ElicitationApp
from tui.core.models import ElicitationResult, Request
from tui.core.queue import ElicitationQueue

INTERRUPTED = ElicitationResult(action="cancel", reason="interrupted")
"""What Ctrl+C ends the request with."""

TERMINATED = ElicitationResult(action="cancel", reason="terminated")
"""What SIGTERM (`kill`, `timeout`) ends the request with."""

HUNG_UP = ElicitationResult(action="cancel", reason="hung_up")
"""What the terminal going away ends the request with."""


def _ask_once(request: Request, queue: ElicitationQueue) -> ElicitationResult:
    return queue.ask(request)


class AskApp(ElicitationApp):
    """Shows `request` and exits with its `ElicitationResult`.

    It is an `ElicitationApp` whose agent asks the one request, so timeouts, the input grace
    period and the modal are the same as in the full app. Run inline (`run(inline=True)`),
    only the dialog shows, under the shell's prompt and as tall as its content; full screen,
    the dialog fills the screen. Quitting instead of answering ends the request with
    `cancel`/`closed`; Ctrl+C, as in other shell commands, with `cancel`/`interrupted`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "Interrupt", show=False, priority=True),
        Binding("ctrl+z", "suspend", "Suspend", show=False, priority=True),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | ctrl+c | End the request with `cancel`/`interrupted` and exit. |
    | ctrl+z | Stop the process, as in other shell commands; `fg` shows the question again. |
    """

    CSS_PATH: ClassVar[list[str | PurePath]] = [APP_CSS]
    """One kind's dialog: its own sheets come with it (`styles.add_sheets`)."""

    keeps_secrets_in_memory = False
    prebuilds_modals = False  # one question: nothing to build ahead for
    shows_main_screen = False  # only the dialog shows, inline or full screen

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

    async def action_interrupt(self) -> None:
        await self._end_with(INTERRUPTED)

    async def terminated(self) -> None:
        await self._end_with(TERMINATED)

    async def hung_up(self) -> None:
        await self._end_with(HUNG_UP)

    async def _end_with(self, ended: ElicitationResult) -> None:
        """End the request with `ended`, as the queue (and so a transcript) records it too,
        and exit with it."""
        await self._stop_asking(ended.reason or "closed")
        self.exit_once(ended)

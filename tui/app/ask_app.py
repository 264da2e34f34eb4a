"""The app behind `elicit-tui ask`: one request, its modal, its result returned."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.control import Control
from textual.binding import Binding, BindingType
from textual.geometry import Offset

from tui.app.app import ElicitationApp
from tui.app.terminal import stop_until_continued
from tui.core.models import ElicitationResult, Request
from tui.core.queue import ElicitationQueue

INTERRUPTED = ElicitationResult(action="cancel", reason="interrupted")
"""What Ctrl+C ends the request with."""


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

    def action_suspend(self) -> None:
        """Ctrl+Z: give the terminal back to the shell and stop until continued (`fg`).

        The stop and the return are done here rather than by the driver's signal handlers,
        so the terminal is taken back once the process is in the foreground again, and the
        dialog is drawn afresh, full screen or inline.
        """
        driver = self._driver
        if driver is None or not (driver.can_suspend or driver.is_inline):
            return
        self._suspend_signal()
        with driver.no_automatic_restart():
            if driver.is_inline:
                stop_until_continued(self._leave_inline, driver.start_application_mode)
            else:
                stop_until_continued(
                    driver.suspend_application_mode, driver.resume_application_mode
                )
        self._resume_signal()
        self.refresh(layout=True)

    def _leave_inline(self) -> None:
        """Give the lines the dialog is drawn on back to the shell, cleared.

        Textual leaves the terminal's cursor on a text field's caret (where an input method
        shows what is being composed), and its inline driver clears the screen from the
        cursor down: the cursor goes back to the dialog's top first, or the lines above the
        caret would stay on the shell's screen. The next frame, drawn where the shell left
        the cursor after `fg`, then starts from there.
        """
        driver = self._driver
        assert driver is not None
        # Textual has no public API for either: where its last frame left the cursor.
        x, y = self._previous_cursor_position
        driver.write(Control.move(-x, -y).segment.text)
        self._previous_cursor_position = Offset(0, 0)
        driver.stop_application_mode()

    async def action_interrupt(self) -> None:
        await self._stop_asking()
        self.exit_once(INTERRUPTED)

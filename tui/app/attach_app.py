"""The app behind `elicit-tui attach`: the full TUI answering an inbox in another process."""

from __future__ import annotations

import contextlib
import time
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.notifications import Notification

from tui.app.app import ElicitationApp
from tui.app.key_order import is_text_field
from tui.app.second_press import SecondPress
from tui.core.waiting_questions import the_questions
from tui.front_ends.remote import RECONNECTED, RECONNECTING, RemoteFrontEnd
from widgets.agent_status import AgentStatus


class AttachApp(ElicitationApp):
    """Shows the questions of the inbox `front_end` reaches, as the inbox's own TUI would.

    `front_end` must be connected already (so a refused token never opens the app). Quitting
    answers nothing: the questions stay in the inbox for the next front end. Ctrl+X twice asks
    the inbox to cancel every waiting request.
    """

    keeps_secrets_in_memory = False

    QUIT_NOTE = "Press Ctrl+Q to quit; the questions stay waiting in the inbox."

    CANCEL_ALL_WITHIN = 5.0
    """Seconds in which a second Ctrl+X cancels every waiting question: one press, a slip
    (Ctrl+X leaves nano, cuts elsewhere), only says what a second would do."""

    UNTIL_RECONNECTED = 24 * 60 * 60.0
    """Seconds the notice of the lost inbox may stay up: reconnecting withdraws it, and till
    then the questions shown may have ended, their askers gone, unknown to this front end."""

    _lost: Notification | None = None
    """The notice that the inbox is lost, while it is up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        # Priority: a question's dialog in front hides the app's other keys.
        Binding("ctrl+x", "cancel_all", "Cancel all", show=False, priority=True),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | q | Quit; the questions stay waiting in the inbox. |
    | ctrl+x | Twice: cancel every question waiting in the inbox (reason `closed`); in a text field, cut. |
    """

    def __init__(
        self,
        front_end: RemoteFrontEnd,
        *,
        input_grace: float = 0.2,
        bell: bool | None = None,
        notify_command: str | None = None,
    ) -> None:
        super().__init__(
            front_end,
            front_end_name=front_end.name,
            title=f"elicit-tui · {front_end.name} · {front_end.base}",
            input_grace=input_grace,
            bell=bell,
            notify_command=notify_command,
        )
        self.front_end = front_end
        self._cancel_all = SecondPress(self.CANCEL_ALL_WITHIN)

    def on_mount(self) -> None:
        self.front_end.on_status = self._connection_changed
        # After the app's own on_mount, which shows "no agent attached".
        self.call_later(self._show_connection, True)

    def _connection_changed(self, text: str) -> None:
        # The reader thread: hand over to the UI thread (none once the app has stopped).
        with contextlib.suppress(RuntimeError):
            self.call_from_thread(self._connection_news, text)

    def _connection_news(self, text: str) -> None:
        if not self.is_running:
            return
        self._show_connection(text == RECONNECTED)
        if text == RECONNECTING:
            if self._lost is None:
                self._lost = self._notice(text, severity="warning", timeout=self.UNTIL_RECONNECTED)
        elif text == RECONNECTED:
            if self._lost is not None:
                self._unnotify(self._lost)
                self._lost = None
            self.notify(text)
        else:
            self.notify(text, severity="error", timeout=30)

    def _show_connection(self, connected: bool) -> None:
        for status in self.query(AgentStatus):
            status.show_attached(self.front_end.base, self.front_end.name, connected)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_all":
            # In a text field Ctrl+X cuts, as everywhere: what is typed there never cancels.
            return self.focused is None or not is_text_field(self.focused)
        return super().check_action(action, parameters)

    def action_cancel_all(self) -> None:
        """Ask the inbox to cancel every waiting request, at a second Ctrl+X."""
        if not self._cancel_all.pressed():
            waiting = len(self.front_end.pending())
            self.notify(
                f"Press Ctrl+X again to cancel {the_questions(waiting)} waiting in the inbox, "
                "every agent's.",
                title="Cancel every question?",
                severity="warning",
                timeout=self.CANCEL_ALL_WITHIN,
            )
            return
        # The person's doing: the questions it closes did not end under their fingers.
        self._typing.answered(time.monotonic())
        count = self.front_end.cancel_all()
        if count is None:
            self.notify("The inbox could not be reached.", severity="error")
        else:
            self.notify(f"Cancelled {count} waiting question{'' if count == 1 else 's'}.")

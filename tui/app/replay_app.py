"""The app as a replay runs it: a transcript's agent and keys, and nothing that varies by run."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.console import RenderableType
from textual.screen import Screen

from tui.app.app import ElicitationApp
from tui.app.key_player import KeyPlayer
from tui.app.messages import AgentFailed, AgentFinished
from tui.app.steady_frames import steady_cursors
from tui.approvals.rules import ApprovalPolicy
from tui.core.models import ElicitationResult, UrlRequest
from tui.core.queue import ElicitationQueue
from tui.secrets.redaction import REDACTOR
from tui.transcript.reader import Transcript
from tui.transcript.records import ResultRecord
from tui.transcript.replay_agent import ReplayAgent
from tui.transcript.timing import Timing
from widgets.base import ElicitationModal

FIXED_TIME = "12:00:00"
"""The timeline's clock in a replay, so two replays draw the same frames."""


class ReplayApp(ElicitationApp):
    """Re-enacts `transcript`: no bell, no animation, no cursor blink, a fixed clock and theme.

    Remembered approval rules of the person's config are not used (only the session's own),
    so the replay decides as the recording did. Run it with `auto_pilot=app.player.drive`.
    """

    timeline_redraw_delay: ClassVar[float] = 0.0
    """A timeline row is drawn in the frame its answer lands in, not after a wall-clock
    delay: two replays (and two renders) draw the same frames."""
    prebuilds_modals: ClassVar[bool] = False
    """No modal built ahead after a wall-clock wait either: a replay's steps never share the
    app with work whose timing depends on the machine."""

    def __init__(
        self,
        transcript: Transcript,
        *,
        timing: Timing | None = None,
        theme: str = "textual-dark",
        show_keys: bool = False,
        svg_dir: Path | None = None,
        record_to: Path | None = None,
    ) -> None:
        timing = timing or Timing()
        self.replay_agent = ReplayAgent(transcript, REDACTOR.scrub, timing)
        self._replayed = ElicitationQueue()
        super().__init__(
            self._replayed,
            self.replay_agent,
            input_grace=0,
            agent_name=transcript.agent or "replay",
            title=transcript.title or "elicit-tui replay",
            time_label=lambda _at: FIXED_TIME,
            approvals=ApprovalPolicy(persistent=False),
            transcript=record_to,
            show_keys=show_keys,
        )
        # The rules its answers give, revoked where the recording's were.
        self.replay_agent.revoke = self.approvals.revoke_recorded
        self.player = KeyPlayer(
            transcript, self._resolved, timing, svg_dir, answer=self.answer_as_recorded
        )
        self.animation_level = "none"
        self._theme_name = theme

    def on_mount(self) -> None:
        self.theme = self._theme_name
        if self._without_agent:
            # After the app's own on_mount, which says the replay's agent is running.
            self.call_later(self._show_without_agent)

    @property
    def _without_agent(self) -> bool:
        """Whether no agent ran in the recorded app: an inbox's (`serve`), its askers other
        processes, or an app whose queue other threads asked. Its replay shows none running,
        finishing or failing."""
        return self.replay_agent.transcript.agent is None

    def _show_without_agent(self) -> None:
        serving = self.replay_agent.transcript.serving
        status = self._agent_status()
        if status is not None and serving is not None:
            status.show_served(serving)
        elif status is not None:
            status.show_idle()

    def answer_as_recorded(self, modal: ElicitationModal[Any], result: ElicitationResult) -> None:
        """Answer `modal` with `result` as its transcript holds it, where the keys that gave it
        were not recorded (a sensitive request's): as the person's answer given here."""
        request = modal.request
        self._answers_sent.add(request.id)
        modal.sending = True  # its own answer on its way: closed without a notice
        self._replayed.respond_as_recorded(request.id, result, self.front_end_name)

    def link_opened(self, request: UrlRequest) -> bool:
        """Whether the recording's browser opened `request`'s link, for its dialog to answer:
        a transcript may come from anyone, and a replay of it opens no link."""
        recorded = next(
            (
                r.result.get("content")
                for r in self.replay_agent.transcript.records
                if isinstance(r, ResultRecord) and r.id == request.id
            ),
            None,
        )
        return recorded is not False

    def exit(
        self, result: Any = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        # Quit, SIGTERM, a hang-up: the keys still to come are not pressed, nor their modals
        # waited for (the app waits for its auto pilot before it ends: seconds, mid-typing).
        super().exit(result, return_code, message)
        self.player.stop()

    async def _stop_asking(self, reason: str = "closed") -> None:
        await super()._stop_asking(reason)
        # Quitting: the replayed agent stops waiting for the next recorded request and
        # returns now, not once quitting's grace for an agent has passed (a second, each time).
        self.replay_agent.stop.set()

    def on_unmount(self) -> None:
        # Whatever is still waiting ends with the app; the agent must not outlive it.
        self.replay_agent.stop.set()

    def on_agent_finished(self, message: AgentFinished) -> None:
        if self._without_agent:
            message.prevent_default()  # no agent finished: the status stays as serve's was
        self.agent_ended(message.value)

    def on_agent_failed(self, message: AgentFailed) -> None:
        self.agent_ended(None)

    def agent_ended(self, value: Any) -> None:
        """Exit, returning `value`, once the main screen, its status showing the outcome,
        has been drawn, so a recording ends on it. The last answer's modal may still be in
        front as the news comes: a refresh then is the modal's, and exiting after it left
        the main screen undrawn, its status still saying the agent was running."""
        main = self.screen_stack[0]

        def exit_when_in_front(screen: Screen[object]) -> None:
            if screen is main:
                self.screen_change_signal.unsubscribe(self)
                self.call_after_refresh(self.exit, value)

        if self.screen is main:
            self.call_after_refresh(self.exit, value)
        else:
            self.screen_change_signal.subscribe(self, exit_when_in_front)

    def bell(self) -> None:
        """A replay is silent."""

    def _resolved(self, request_id: str) -> bool:
        return self.replay_agent.ended(request_id)

    def _show_next(self) -> None:
        super()._show_next()
        self.call_after_refresh(steady_cursors, self)

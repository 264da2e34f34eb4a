"""The Textual front end: shows queued requests one modal at a time and runs the agent."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from pydantic import TypeAdapter
from rich.console import RenderableType
from rich.segment import Segments
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.driver import Driver
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from styles import ALL_CSS
from tui.app.collector_hold import CollectorHold
from tui.app.crash_report import crash_report
from tui.app.dialog_failure import FailedDialogs, failing_modal, modal_of
from tui.app.hang_up import watch_for_hang_up
from tui.app.key_order import KeyOrderApp, Typed
from tui.app.key_recorder import KeyRecorder, secret_lengths
from tui.app.messages import AgentActivity, AgentFailed, AgentFinished, QueueEventPosted
from tui.app.rendered_lines import release_rendered_lines
from tui.app.screenshot import masked_screenshot, screenshot_directory
from tui.app.suspend import (
    HUNG_UP_STATUS,
    TERMINATED_STATUS,
    handle_signals_from_outside,
    suspend,
)
from tui.app.textual_log import TEXTUAL_LOG_IGNORED, textual_log_stopped
from tui.app.typing_hold import JUST_CLOSED, TYPED_THROUGH_GRACES, TypingHold
from tui.approvals.rules import ApprovalPolicy
from tui.core.error_text import error_text
from tui.core.front_end import (
    AnswerNeedsConfirming,
    AnswerNotSent,
    AnswerUnconfirmed,
    FrontEndSource,
)
from tui.core.loading import is_command_process, set_aside_once_set_up
from tui.core.models import (
    ENDED_UNSEEN,
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    MultiChoiceRequest,
    Question,
    QuestionOption,
    QuestionsRequest,
    Request,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
    dialog_failed,
    unsupported,
)
from tui.core.one_line import one_line
from tui.core.options import Option
from tui.core.queue import Answered, ElicitationQueue, QueueEvent
from tui.front_ends.notify import (
    BurstLimiter,
    Notice,
    notice_for,
    run_notify_command,
    terminal_notification,
)
from tui.secrets.redaction import REDACTOR, install_log_redaction, registered
from widgets.base import ElicitationModal
from widgets.key_badge import KeyBadge, key_label
from widgets.key_footer import KeyFooter
from widgets.literal import shown
from widgets.main_screen import MainScreen
from widgets.modal_pool import ModalPool
from widgets.style_context import style_context

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from tui.transcript.writer import TranscriptWriter

    # Loaded with the main screen: `elicit-tui ask` shows none, and loads none of them.
    from widgets.agent_status import AgentStatus
    from widgets.secret import SecretModal
    from widgets.timeline import TimeLabel, Timeline

Agent = Callable[[ElicitationQueue], Any]
"""A callable that asks through the queue; it runs in a thread of its own."""

_log = logging.getLogger(__name__)

BELL_VARIABLE = "ELICIT_TUI_BELL"
"""Set to 0 (or "off", "no", "false") to keep the terminal bell quiet when a question arrives."""

_CLICKS = (events.MouseDown, events.MouseUp, events.Click)
"""Mouse events the input grace period after a modal appears ignores, as it ignores keys."""

_ENDED_WITHOUT_USER = {
    "timeout": "Timed out",
    "cancelled_by_agent": "Withdrawn by the agent",
    "closed": "Closed",
    ENDED_UNSEEN: "Ended while this front end was away",
}

PREBUILD_AFTER_IDLE = 1.0
"""Seconds with no question shown, once one has been answered, before the app builds the
common modals left unbuilt: an agent that asks again right after an answer never meets a
modal being built."""

QUIT_KEYS = frozenset({"ctrl+q", "ctrl+c", "ctrl+z"})
"""Keys the input grace never drops: quitting (or stopping, in `elicit-tui ask`) is never an
answer to the question on screen."""

QUOTED_LENGTH = 100
"""The most characters of a question a notice about it quotes, on one line: a notice sits
over the question shown next."""


def _quoted(request: Request) -> str:
    return one_line(request.message, QUOTED_LENGTH)


FAILURE_NOTICE_LENGTH = 160
"""Characters of a failed dialog's error its notice shows."""

UNSHOWN_NOTICE_LENGTH = 180
"""Characters of the notice that a question cannot be shown: at 80x24 its toast, 40 columns
wide, stays clear of the input of a short question shown next."""

KIND_NOTICE_LENGTH = 40
"""Characters of a kind's name (quoted) that notice shows: a kind may be called anything."""

AGENT_EXIT_GRACE = 1.0
"""Seconds quitting waits for the agent to return once its questions are closed, at most:
long enough for the agent's return value to become the app's, short enough to feel instant."""


NARROW_SCREEN = 50
"""Columns under which a notice takes the screen's whole width: half of it fits few words."""


class ElicitationApp(KeyOrderApp[Any]):
    """Answers the requests of a `FrontEndSource` with modals, in arrival order.

    The source is an `ElicitationQueue` in this process, or an inbox elsewhere
    (`RemoteFrontEnd`); the app shows both alike. `front_end_name` is how other front ends
    name this one when it answers first ("answered in terminal at 14:02").

    `agent`, if given, is called with the queue in a daemon thread; its return value
    (or exception) is shown on the main screen and is the app's return value. It needs an
    `ElicitationQueue`: an agent runs where its queue is.
    `approvals` answers tool approvals a remembered rule covers (a fresh `ApprovalPolicy()`
    if None: session rules in memory, "always" rules from the config folder); only on an
    `ElicitationQueue`: a remote inbox applies its own rules, for every front end.
    `transcript`, a file path, records the session there as JSON lines (see `tui.transcript`):
    every request, every result and the keys pressed in each modal, secrets left out.
    `show_keys` shows each key pressed in a badge, for recordings.
    `bell` rings the terminal bell when a question arrives (None: unless `$ELICIT_TUI_BELL`
    is 0). While the app does not have focus, a question arriving also shows a desktop
    notification through the terminal (where it has one: see `tui.front_ends.notify`) and
    runs `notify_command`, if given, with the question in its environment; a burst of
    questions makes one notification and one summary.
    """

    CSS_PATH = ALL_CSS
    TITLE = "elicit-tui"

    keeps_secrets_in_memory: ClassVar[bool] = True
    """Whether a secret the keyring refused may be kept in memory for this run: only where
    the agent runs in this process, and so can use the value."""

    timeline_redraw_delay: ClassVar[float | None] = None
    """How long the timeline waits for its rows to stop changing before it redraws them
    (None: the timeline's own `REDRAW_DELAY`)."""

    shows_main_screen: ClassVar[bool] = True
    """Whether the app composes its main screen (title, agent status, timeline, keys): an app
    that only ever shows its modal (`elicit-tui ask`) builds none of it."""

    prebuilds_modals: ClassVar[bool] = True
    """Whether the app builds a modal of each common request shape while it is idle, so that
    the first question of each is shown as fast as the next ones."""

    not_stopped_because: ClassVar[str | None] = None
    """None: Ctrl+Z stops the process, as it stops a shell command, until `fg`. Else why it
    does not, said on screen instead: where stopping the process would stop more than this
    front end (the inbox of `elicit-tui serve`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        # Not a priority binding: in a text area (a multiline answer, a tool call's editor)
        # Ctrl+Z undoes, as in any editor.
        Binding("ctrl+z", "suspend", "Suspend", show=False),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | q | Quit; every request still waiting is cancelled (reason `closed`). |
    | ctrl+z | Stop the process as a shell command stops; `fg` brings it back as it was. |
    """

    def __init__(
        self,
        queue: FrontEndSource,
        agent: Agent | None = None,
        *,
        front_end_name: str = "terminal",
        agent_name: str | None = None,
        title: str | None = None,
        input_grace: float = 0.2,
        exit_when_agent_done: bool = False,
        time_label: TimeLabel | None = None,
        approvals: ApprovalPolicy | None = None,
        transcript: str | Path | None = None,
        show_keys: bool = False,
        bell: bool | None = None,
        notify_command: str | None = None,
        serving: str | None = None,
    ) -> None:
        super().__init__()
        if agent is not None and not isinstance(queue, ElicitationQueue):
            raise TypeError("an agent runs in this process: give the app an ElicitationQueue")
        self.queue = queue
        self.front_end_name = front_end_name
        """This front end's name, sent with its answers."""
        self.agent = agent
        self.agent_name: str = agent_name or str(getattr(agent, "__name__", "agent"))
        if title:
            self.title = title
        self.input_grace = input_grace
        self.exit_when_agent_done = exit_when_agent_done
        self._time_label = time_label
        self._waiting: deque[QueueEvent] = deque()
        self._main_screen_news: list[Callable[[], None]] = []
        """Updates of the main screen held back until the modal in front has painted."""
        self._shown: ElicitationModal[Any] | None = None
        self._shown_drawn = False
        """Whether the modal shown has written its first frame (see `_display`)."""
        self._collector = CollectorHold()
        """Held from showing a question until its first frame (see `tui.app.collector_hold`)."""
        self._until_asked: list[Notification] = []
        """Notices the next question shown withdraws (`notify(until_asked=True)`)."""
        self._ended_notice: tuple[Notification, int] | None = None
        """The notice of the last questions that ended here without this front end's answer,
        and how many it counts."""
        self._failure_notice: tuple[Notification, int] | None = None
        """The notice of the last dialog that failed, and how many failed in a row."""
        self._unshown_notice: tuple[Notification, int] | None = None
        """The notice of the last question that could not be shown, and how many in a row."""
        self._nothing_to_send: str | None = None
        """The request whose modal the app closes with nothing left to send: it ended without
        this front end, or the answer given here was sent already."""
        self._answers_sent: set[str] = set()
        """The requests this front end has sent an answer to, until it hears how they ended:
        another front end may have taken its name, and answered instead."""
        self._left_to_others: set[str] = set()
        """The requests waiting in an inbox elsewhere that this front end cannot show."""
        self._typing = TypingHold(TYPED_THROUGH_GRACES * input_grace)
        self._closed_at = float("-inf")
        """When the last question shown closed (monotonic): the keys that come in the pause
        after it, before the next appears, were typed ahead for that one (see `accepts_key`)."""
        self._sent_at = float("-inf")
        """When the answer last sent to an inbox elsewhere was given."""
        self._replied_answer_at: float | None = None
        """When the answer the modal in front closes with, on the inbox's reply, was given:
        the question shown next takes it as its `_grace_from`."""
        self._grace_from: float | None = None
        """When the answer the question in front was shown after, on the inbox's reply to it,
        was given: its grace counts from then (see `_modal_unarmed`)."""
        self._modals = ModalPool(self, input_grace=input_grace)
        self._failed_dialogs = FailedDialogs()
        self._unsubscribe: Callable[[], None] | None = None
        self.approvals = approvals if approvals is not None else ApprovalPolicy()
        self._detach_approvals: Callable[[], None] | None = None
        self._uninstall_log_redaction: Callable[[], None] | None = None
        self._restore_signal_handlers: Callable[[], None] | None = None
        self._stop_hang_up_watch: Callable[[], None] | None = None
        self._asking_stopped = False
        """Whether `_stop_asking` has run: the app is ending."""
        self.ring_bell = bell_wanted() if bell is None else bell
        """Whether a question arriving rings the terminal bell."""
        self.notify_command = notify_command
        self._notices = BurstLimiter(self._send_notice, waiting=lambda: len(self.queue.pending()))
        self.agent_result: Any = None
        """What the agent returned, once it has; also the app's return value on quit."""
        self.agent_error: BaseException | None = None
        """What the agent raised, if it did (the main screen shows it; `run()` returns None)."""
        self.show_keys = show_keys
        self.key_recorder = KeyRecorder()
        self.transcript: TranscriptWriter | None = None
        if transcript is not None:
            # Loaded only for a transcript: `elicit-tui ask`'s question appears without it.
            from tui.transcript.writer import TranscriptWriter

            self.transcript = TranscriptWriter(
                transcript,
                agent=None if agent is None else self.agent_name,
                title=self.title,
                front_end=front_end_name,
                serving=serving,
            )
        self._detach_transcript: Callable[[], None] | None = None
        self._detach_revocations: Callable[[], None] | None = None
        self._agent_thread: threading.Thread | None = None
        self._quitting = False
        self._exiting = False
        self._prebuilt = not self.prebuilds_modals
        """True once every common modal is built (or none is to be)."""
        self._prebuilding = False
        self._prebuild_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        if not self.shows_main_screen:
            return
        from textual.widgets import Header

        from widgets.agent_status import AgentStatus
        from widgets.timeline import Timeline

        yield Header()
        with Vertical(id="main"):
            with Horizontal(id="status-bar"):
                yield AgentStatus(id="agent-status")
                yield Static(id="waiting-count")
            yield Timeline(self._time_label, redraw_delay=self.timeline_redraw_delay, id="timeline")
        yield KeyFooter()

    def _agent_status(self) -> AgentStatus | None:
        """The main screen's agent status line; None without a main screen."""
        if not self.shows_main_screen:
            return None
        from widgets.agent_status import AgentStatus

        return self.query_one(AgentStatus)

    def _timeline(self) -> Timeline | None:
        """The main screen's timeline; None without a main screen."""
        if not self.shows_main_screen:
            return None
        from widgets.timeline import Timeline

        return self.query_one(Timeline)

    def get_default_screen(self) -> Screen[Any]:
        return MainScreen()

    def get_driver_class(self) -> type[Driver]:
        # Esc and the keys typed on at once read as Alt, however the bytes arrive.
        from tui.app.alt_keys import install

        install()
        driver = super().get_driver_class()
        if driver.__module__ != "textual.drivers.linux_driver":
            return driver  # Windows, or the one `$TEXTUAL_DRIVER` names (the web's)
        # Each frame on the terminal as soon as it is made (see the driver's docstring).
        from tui.app.write_through_driver import WriteThroughDriver

        return WriteThroughDriver

    def on_mount(self) -> None:
        if isinstance(main := self.screen_stack[0], MainScreen):
            # Its widgets were styled as they mounted, for the app as it is now.
            main.styled_for = style_context(self)
        # Secrets answered from now on are scrubbed from every log record (see tui.secrets.redaction).
        self._uninstall_log_redaction = install_log_redaction()
        if textual_log_stopped():
            self._notice(TEXTUAL_LOG_IGNORED, severity="warning")
        self._restore_signal_handlers = handle_signals_from_outside(
            self,
            stop_requested=self.action_suspend,
            # A program that runs the app keeps SIGTERM as it had it: it may end the process.
            terminated=self.terminated if is_command_process() else None,
        )
        self._stop_hang_up_watch = watch_for_hang_up(
            self, self.hung_up, take_sighup=is_command_process()
        )
        self._update_waiting()
        if self.transcript is not None:
            self._detach_transcript = self.transcript.attach(self.queue)
            self._detach_revocations = self.approvals.when_revoked(self.transcript.revoked)
        # Subscribe before the agent starts, so its first question finds a front end;
        # subscribing also replays requests that were already waiting.
        self._unsubscribe = self.queue.subscribe(self._on_queue_event)
        if isinstance(self.queue, ElicitationQueue):
            # After the app: requests already waiting that a rule answers still reach the timeline.
            self._detach_approvals = self.approvals.attach(self.queue)
        # Whoever asks: the app's agent, another thread of this program with the queue, or
        # the thread that reads an inbox elsewhere; each validates what it asks or receives.
        _load_validation()
        # Right after the first frame, which does not wait for them; a question asked at once
        # comes before it and stops them until the app has been idle for a while.
        self.call_after_refresh(self._prebuild_after_first_frame)
        agent = self.agent if isinstance(self.queue, ElicitationQueue) else None
        if (status := self._agent_status()) is not None:
            if agent is None:
                status.show_idle()
            else:
                status.show_running(self.agent_name)
        if agent is not None:
            # A daemon thread, not a Textual worker: an agent that never returns must not block exit.
            self._agent_thread = threading.Thread(
                target=self._run_agent,
                args=(agent, self.queue),
                name="elicit-agent",
                daemon=True,
            )
            self._agent_thread.start()

    def on_unmount(self) -> None:
        self._collector.release()
        self._notices.close()
        self._close_queue()
        if self._uninstall_log_redaction is not None:
            self._uninstall_log_redaction()
            self._uninstall_log_redaction = None
        if self._restore_signal_handlers is not None:
            self._restore_signal_handlers()
            self._restore_signal_handlers = None
        if self._stop_hang_up_watch is not None:
            self._stop_hang_up_watch()
            self._stop_hang_up_watch = None
        if self._detach_transcript is not None:
            self._detach_transcript()
            self._detach_transcript = None
        if self._detach_revocations is not None:
            self._detach_revocations()
            self._detach_revocations = None
        if self.transcript is not None:
            self.transcript.close(self.agent_result, self.agent_error)
        # The secrets were registered for this run only; the redactor holds them in plain text.
        REDACTOR.clear()
        release_rendered_lines()

    def _close_queue(self, reason: str = "closed") -> None:
        if self._detach_approvals is not None:
            self._detach_approvals()
            self._detach_approvals = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if isinstance(self.queue, ElicitationQueue):
            self.queue.close(reason)
        else:  # an inbox elsewhere keeps its questions for the next front end
            self.queue.close()

    async def action_quit(self) -> None:
        """Quit, returning the agent's value: every waiting request ends with `cancel`/`closed`,
        and the agent, woken by that, gets up to `AGENT_EXIT_GRACE` seconds to return.
        Quitting again while it does quits at once."""
        await self._stop_asking()
        agent = self._agent_thread
        if self._quitting or agent is None or not agent.is_alive():
            self._exit_with_agent_result()
            return
        self._quitting = True
        if (status := self._agent_status()) is not None:
            status.show_stopping(self.agent_name)
        self.set_timer(AGENT_EXIT_GRACE, self._exit_with_agent_result)

    async def _stop_asking(self, reason: str = "closed") -> None:
        """End every waiting request with `cancel`/`reason` (a request from elsewhere, with
        `closed`), ready for the app to exit."""
        if self._shown is not None and not self._asking_stopped:
            # Shown when the app quit: its keys are written as an answered one's are, so that
            # a replay, a render and its chapters show it too. Once: a second end (SIGHUP,
            # then the terminal gone) has none left, and its empty record would replace them.
            self._write_keys(self._shown.request, quitting=True)
        self._asking_stopped = True
        # Close first, so every waiting agent thread wakes before the UI goes away.
        self._close_queue(reason)
        shown = self._shown
        if shown is not None and not shown.is_mounted:
            # Exiting while a modal mounts would pull its widgets from under its on_mount.
            await shown._mounted_event.wait()

    def _exit_with_agent_result(self) -> None:
        self.exit_once(self.agent_result)

    def exit_once(self, result: Any, return_code: int = 0) -> None:
        """Exit returning `result`, unless an exit is under way already: its result stands."""
        if not self._exiting:
            self._exiting = True
            self.exit(result, return_code)

    async def terminated(self) -> None:
        """What SIGTERM (`kill`) does in the `elicit-tui` command: quit at once, as a second
        Ctrl+Q does, the terminal given back as it was; the command's exit status is then
        143, as for a command a shell ended with SIGTERM."""
        await self._stop_asking()
        self.exit_once(self.agent_result, TERMINATED_STATUS)

    async def hung_up(self) -> None:
        """What the terminal going away does (see `tui.app.hang_up`): quit as SIGTERM does,
        every waiting request cancelled with reason `closed`; the exit status is 129."""
        await self._stop_asking()
        self.exit_once(self.agent_result, HUNG_UP_STATUS)

    def exit(
        self, result: Any = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Exit the app; no modal is shown from now on, and one still mounting (shown, or
        built ahead) is let finish first, as taking its widgets away under its `on_mount`
        would crash the app."""
        self._exiting = True
        mounting = [
            modal
            for modal in (self._shown, self._modals.building)
            if modal is not None and modal.is_attached and not modal.is_mounted
        ]
        if mounting:
            self.run_worker(self._exit_once_mounted(mounting, result, return_code, message))
        else:
            super().exit(result, return_code, message)

    async def _exit_once_mounted(
        self,
        mounting: list[ElicitationModal[Any]],
        result: Any,
        return_code: int,
        message: RenderableType | None,
    ) -> None:
        for modal in mounting:
            await modal._mounted_event.wait()
        super().exit(result, return_code, message)

    def action_suspend(self) -> None:
        if self.not_stopped_because is None:
            suspend(self)
        else:
            self.notify(self.not_stopped_because, severity="warning", markup=False)

    QUIT_NOTE = "Press Ctrl+Q to quit; questions still open are cancelled."
    """What Ctrl+C says: how to quit, and what becomes of the questions then."""

    def action_help_quit(self) -> None:
        """Ctrl+C: say how to quit (a terminal's Ctrl+C reaches the app as a key)."""
        self.notify(self.QUIT_NOTE, title="Do you want to quit?", markup=False)

    # -- other threads -> UI thread ------------------------------------------------------

    def _on_queue_event(self, event: QueueEvent) -> None:
        """Called by the queue in any thread, with its lock held: only post, never block."""
        self.post_message(QueueEventPosted(event))

    def _run_agent(self, agent: Agent, queue: ElicitationQueue) -> None:
        try:
            value = agent(queue)
            if inspect.iscoroutine(value):
                # An `async def` agent: run to its end here, in its own thread's event loop.
                value = asyncio.run(value)
        except BaseException as error:
            self.agent_error = error
            self.post_message(AgentFailed(error))
        else:
            # Before the thread ends: quitting reads it as soon as the thread is done.
            self.agent_result = value
            self.post_message(AgentFinished(value))

    # -- UI thread ----------------------------------------------------------------------

    def on_queue_event_posted(self, message: QueueEventPosted) -> None:
        if not self.is_running or self._exiting:
            return  # shutting down: the screens this would update are being taken apart
        event = message.event
        if event.type == "requested":
            self._request_arrived(event)
        elif event.result is not None:
            self._request_resolved(event)

    def _request_arrived(self, event: QueueEvent) -> None:
        if (timeline := self._timeline()) is not None:
            self._main_screen_news.append(lambda: timeline.add_request(event.request, event.at))
        if not self.queue.is_pending(event.request.id):
            # Answered as it arrived (a rule allowed the call): a row, and nobody called.
            return
        if not self.app_focus:
            self._notices.offer(notice_for(event.request, REDACTOR.scrub))
        self._waiting.append(event)
        if self._shown is None:
            if self.ring_bell:
                self.bell()
            self._typing.question_changed(time.monotonic())
            self._show_next()
        self._update_waiting()

    def _send_notice(self, notice: Notice) -> None:
        """Show `notice` on the desktop; from the rate limiter, in any thread."""
        if threading.get_ident() != self._thread_id:
            with contextlib.suppress(RuntimeError):  # the app has stopped
                self.call_from_thread(self._send_notice, notice)
            return
        if self.app_focus or not self.is_running:
            return  # the person came back meanwhile
        sequence = terminal_notification(notice, os.environ)
        if sequence is not None and not self.is_headless and self._driver is not None:
            # Textual has no API for this: the terminal's own sequence, through its driver.
            self._driver.write(sequence)
        if self.notify_command:
            run_notify_command(self.notify_command, notice)

    def _request_resolved(self, event: QueueEvent) -> None:
        request, result, by = event.request, event.result, event.answered_by
        assert result is not None
        sent_here = request.id in self._answers_sent
        self._answers_sent.discard(request.id)
        self._left_to_others.discard(request.id)
        elsewhere = by is not None and (by != self.front_end_name or not sent_here)
        told = Answered(by, event.at, result.action)
        answered = told.describe(clock=self._time_label) if elsewhere else None
        if (timeline := self._timeline()) is not None:
            self._main_screen_news.append(lambda: timeline.resolve(request, result, answered))
        shown = self._shown
        if shown is not None and shown.request.id == request.id and shown.is_current:
            sending = shown.sending
            # Closed, not answered: what the modal holds was never given, and is not sent.
            self._nothing_to_send = request.id
            shown.close(result)
            if by is not None and (elsewhere or not sending):
                # Answered elsewhere, or here by an answer whose sending had seemed to fail.
                here = self.front_end_name if sent_here else None
                described = told.describe(here=here, clock=self._time_label)
                label = described[0].upper() + described[1:]
            elif by is None:
                label = _ENDED_WITHOUT_USER.get(result.reason or "", "Ended")
            else:
                label = ""  # this front end's answer, heard of before the reply to sending it
                self._replied()
            if label:
                if elsewhere or by is None:  # not this front end's own answer, heard late
                    self._typing.question_changed(time.monotonic())
                # After the close: the notice goes straight to the screen now in front, not
                # to the modal on its way out (one mount and layout fewer in that frame).
                said = f"{label}: {_quoted(request)}"
                self._ended_notice = self._notice_in_a_row(
                    self._ended_notice,
                    lambda count: (
                        said if count == 1 else f"{said} (and {count - 1} more before it)"
                    ),
                    "warning",
                )
        for waiting in list(self._waiting):
            if waiting.request.id == request.id:
                self._waiting.remove(waiting)
        self._update_waiting()

    def _show_next(self) -> None:
        grace_from, self._replied_answer_at = self._replied_answer_at, None
        while self._waiting:
            event = self._waiting.popleft()
            if not self.queue.is_pending(event.request.id):
                # Answered already (a policy, another front end): nothing to ask.
                continue
            try:
                modal = self._modals.take(event.request, deadline=event.deadline)
            except LookupError as error:
                # Never a crash and never a guess. An inbox elsewhere may have front ends that
                # can show the kind: the question is left to them. Here, the agent hears
                # which kind could not be shown.
                kept = not isinstance(self.queue, ElicitationQueue)
                self._say_unshown(event.request, str(error), kept)
                if kept:
                    self._left_to_others.add(event.request.id)
                else:
                    self._failed_dialogs.add_unshown(event.request.kind, str(error))
                    self.queue.respond(event.request.id, unsupported(event.request))
                continue
            except Exception as error:  # a kind's own modal raised as it was made or filled
                self._report_failed_dialog(event.request, error)
                self.queue.respond(event.request.id, dialog_failed(event.request, error))
                continue
            if event.request.kind == "secret":
                # The built-in kind's modal: no kind of a program's own can take its name.
                secret = cast("SecretModal", modal)
                secret.offer_memory = (
                    self.keeps_secrets_in_memory and secret.request.memory_fallback
                )
                # An inbox elsewhere stores secrets in its own machine's keyring.
                secret.stores_here = isinstance(self.queue, ElicitationQueue)
            # A queue in this process takes an answer at once; an inbox elsewhere may take
            # seconds, or never reply: the modal stays, saying so, while a thread sends it.
            modal.send = (
                None
                if isinstance(self.queue, ElicitationQueue)
                else functools.partial(self._send, modal)
            )
            self._shown = modal
            self._grace_from = grace_from
            self._shown_drawn = False
            modal.waiting = len(self._waiting)
            # With the news: applied once the modal has painted its first frame.
            self._main_screen_news.append(
                functools.partial(
                    setattr,
                    self,
                    "sub_title",
                    shown(f"question waiting: {event.request.message}"),
                )
            )
            while self._until_asked:
                self._unnotify(self._until_asked.pop())
            self._collector.hold()
            self.push_screen(
                modal, callback=lambda result, r=event.request: self._answered(r, result)
            )
            return
        self._shown = None
        self._main_screen_news.append(lambda: setattr(self, "sub_title", ""))
        self._prebuild_when_idle()

    def _prebuild_when_idle(self) -> None:
        """Build the common modals not built yet once no question has been shown for
        `PREBUILD_AFTER_IDLE` seconds (each call starts the wait again)."""
        if self._prebuilt:
            return
        if self._prebuild_timer is None:
            self._prebuild_timer = self.set_timer(PREBUILD_AFTER_IDLE, self._prebuild_while_idle)
        else:
            self._prebuild_timer.reset()

    def _prebuild_after_first_frame(self) -> None:
        """Build the common modals from the first frame on, unless a question was shown and
        answered before this call came (within the first frame): the wait for the app to be
        idle has then begun (`_prebuild_when_idle`), and building starts when it ends, not
        beside the agent's next question."""
        if self._prebuild_timer is None:
            self._prebuild_while_idle()

    def _prebuild_while_idle(self) -> None:
        """Build the common modals not built yet, in the background, while nothing is shown."""
        self._prebuild_timer = None
        if self._prebuilt or self._prebuilding or self._shown is not None or self._exiting:
            return
        self._prebuilding = True
        self.run_worker(self._prebuild(), name="prebuild modals", group="prebuild")

    async def _prebuild(self) -> None:
        # One at a time, each mounted before the next starts: a question arriving meanwhile
        # is taken up at once (the one modal being mounted goes on beside it), and stops the
        # rest until the app has been idle again for a while (a new wait, `_prebuild_timer`,
        # begins once it is answered).
        try:
            for request in _common_requests():
                if not await self._may_build():
                    return
                modal = await self._modals.prebuild(request)
                # A question that arrived while the modal mounted is shown before it is drawn.
                if not await self._may_build():
                    return
                if modal is not None:
                    await self._modals.draw_ahead(modal)
            self._prebuilt = True
            set_aside_once_set_up()
        finally:
            self._prebuilding = False

    async def _may_build(self) -> bool:
        """Whether building ahead may go on, once the app has handled what was posted
        meanwhile: not while a question is shown, nor once a new idle wait has begun, nor
        while the app exits."""
        await self._messages_handled()
        return not (self._shown is not None or self._prebuild_timer is not None or self._exiting)

    async def _messages_handled(self) -> None:
        """Return once the app has handled every message posted before this call, such as a
        question that arrived while a modal was being built ahead."""
        # A build ends in the modal's own task, which may finish before the app has reached
        # a question posted meanwhile; this one is posted behind it.
        handled = asyncio.Event()
        self.call_later(handled.set)
        await handled.wait()

    def _answered(self, request: Request, result: ElicitationResult | None) -> None:
        self._closed_at = time.monotonic()
        self._collector.release()
        self._write_keys(request)
        if self._shown is not None:
            forgot = self._modals.give_back(self._shown)
            if forgot is not None:  # a kind's own `forget` raised: the answer stands
                self._report_failed_dialog(request, forgot, " after its answer was given")
        unsent = self._nothing_to_send != request.id
        self._nothing_to_send = None
        if result is not None and unsent:
            self._typing.answered(time.monotonic())
            result = registered(request, result)
            if isinstance(self.queue, ElicitationQueue):
                # An "always" the approvals file cannot keep is answered as what holds.
                result = self.approvals.kept(request, result)
            self._answers_sent.add(request.id)
            if not self.queue.respond(request.id, result, self.front_end_name):
                self._refused(request)
        self._shown = None
        self._show_next()
        self._update_waiting()

    def _send(self, modal: ElicitationModal[Any], result: ElicitationResult) -> None:
        """Send the answer given in `modal` off the UI thread; the modal shows it is sending."""
        self._sent_at = time.monotonic()
        self._typing.answered(self._sent_at)
        self._answers_sent.add(modal.request.id)
        # A daemon thread, not a worker: quitting must not wait for an inbox that never replies.
        threading.Thread(
            target=self._send_answer,
            args=(modal, modal.request, registered(modal.request, result)),
            name=f"answer-{modal.request.id}",
            daemon=True,
        ).start()

    def _send_answer(
        self, modal: ElicitationModal[Any], request: Request, result: ElicitationResult
    ) -> None:
        try:
            applied = self.queue.respond(request.id, result, self.front_end_name)
        except AnswerNotSent as error:
            outcome: bool | AnswerNotSent = error
        else:
            outcome = applied
        with contextlib.suppress(RuntimeError):  # the app has stopped meanwhile
            self.call_from_thread(self._sent, modal, request, result, outcome)

    def _sent(
        self,
        modal: ElicitationModal[Any],
        request: Request,
        result: ElicitationResult,
        outcome: bool | AnswerNotSent,
    ) -> None:
        """The sending of `result` is over: `outcome` is whether it counted, or why it was
        not sent. The modal closes, unless the answer was not sent: it stays to be sent again."""
        if self._shown is not modal or modal.request.id != request.id or not modal.sending:
            return  # closed meanwhile: the request ended, or was answered, elsewhere
        if isinstance(outcome, AnswerNeedsConfirming):
            modal.send_failed(f"⚠ {outcome}")
            return
        if isinstance(outcome, AnswerNotSent):
            said = "Not confirmed" if isinstance(outcome, AnswerUnconfirmed) else "Not sent"
            modal.send_failed(f"✖ {said}: {outcome}. Answer again to retry.")
            return
        if not outcome:
            self._refused(request)
        self._nothing_to_send = request.id
        self._replied()
        modal.close(result)

    def _replied(self) -> None:
        """The inbox has replied to the answer sent: the question shown next counts its grace
        from that answer, unless a key was typed while it was on its way. Such a key, typed
        with the question answered in front (into its field, or dropped), may begin what
        the person types on, which is held as it is when it falls in the grace, the grace
        counting from when the question appears."""
        if self._typing.last_key_at <= self._sent_at:
            self._replied_answer_at = self._sent_at

    def _refused(self, request: Request) -> None:
        """Say that an answer given here was not applied, and why."""
        self._answers_sent.discard(request.id)  # it had ended before
        self.notify(
            f"Not applied, {self.queue.refusal(request.id)}: {_quoted(request)}",
            severity="warning",
            timeout=8,
        )

    def _update_waiting(self) -> None:
        count = len(self._waiting)
        if self._shown is not None:
            self._shown.waiting = count
        shown = 1 if self._shown is not None else 0
        # At once, not with the news: a count of a new width must be laid out, and a screen
        # behind a modal is only repainted, not laid out again.
        if self.shows_main_screen:
            counts = [f"{count + shown} open · {count} waiting"] if count + shown else []
            if self._left_to_others:
                counts.append(f"{len(self._left_to_others)} not shown here")
            self.query_one("#waiting-count", Static).update(" · ".join(counts) or "nothing waiting")
        if self._shown is None:
            # The main screen is in front: show the news now.
            self._show_main_screen_news()
        elif self._shown_drawn:
            self.call_after_refresh(self._show_main_screen_news)
        # Else the news waits for the modal's first frame (`_display`): made before it, it
        # would make the question wait (a refresh can come before the modal's first frame).

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        super()._display(screen, renderable)
        if (
            screen is self._shown
            and not self._shown_drawn
            and renderable is not None
            and not self._batch_count
        ):
            self._shown_drawn = True
            # The question is on screen: a collection that fell due meanwhile may run now,
            # and the main screen's news be made, after what is waiting to be handled.
            self._collector.release()
            self.call_later(self._show_main_screen_news)

    def _show_main_screen_news(self) -> None:
        news, self._main_screen_news = self._main_screen_news, []
        for update in news:
            update()
        if news and self.screen is not self.screen_stack[0] and self.screen.styles.background.a < 1:
            # A screen behind a see-through modal is not repainted on its own: draw it again
            # beneath. Behind an opaque one nothing shows; it is drawn when it comes to the front.
            self.screen.refresh()

    def on_agent_finished(self, message: AgentFinished) -> None:
        if self.exit_when_agent_done or self._quitting:
            self.exit_once(message.value)
        elif self.is_running and (status := self._agent_status()) is not None:
            status.show_finished(message.value)

    def set_activity(self, text: str) -> None:
        """Say what the agent is doing on the status line; callable from any thread."""
        self.post_message(AgentActivity(text))

    def on_agent_activity(self, message: AgentActivity) -> None:
        status = self._agent_status() if self.is_running else None
        if self.agent_result is None and status is not None:
            status.show_activity(message.text)

    def on_agent_failed(self, message: AgentFailed) -> None:
        if self._quitting:
            self._exit_with_agent_result()
        elif self.is_running:
            if (status := self._agent_status()) is not None:
                status.show_failed(message.error)
            self.notify(
                f"The agent failed: {error_text(message.error)}", severity="error", timeout=8
            )

    # -- redaction of what leaves the app ---------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
        until_asked: bool = False,
    ) -> None:
        """Show a notification, with every secret answered so far scrubbed from it and its
        control characters shown, not acted on (see `widgets.literal.shown`).

        Shown literally unless `markup` is set: notifications quote agents' text and errors.
        With `until_asked`, a notice about the app itself (a server's token) that the next
        question shown withdraws: it sits in the bottom right corner, where a tall dialog has
        its choices.
        """
        notification = self._notice(message, title, severity, timeout, markup)
        if until_asked:
            self._until_asked.append(notification)

    def _notice(
        self,
        message: str,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> Notification:
        """`notify`'s notice, posted and returned (to be withdrawn early)."""
        notification = Notification(
            shown(message),
            shown(title),
            severity,
            self.NOTIFICATION_TIMEOUT if timeout is None else timeout,
            markup=markup,
        )
        self.post_message(Notify(notification))
        return notification

    def _handle_exception(self, error: Exception) -> None:
        modal = failing_modal()
        if modal is None or self._exiting:
            super()._handle_exception(error)
        else:
            self._dialog_failed(modal, error)

    async def _dispatch_action(self, namespace: DOMNode, action_name: str, params: Any) -> bool:
        # A binding's action runs in the app's own message loop, which an error would end.
        try:
            return await super()._dispatch_action(namespace, action_name, params)
        except Exception as error:
            modal = modal_of(namespace)
            if modal is None or self._exiting:
                raise
            self._dialog_failed(modal, error)
            return True

    def _dialog_failed(self, modal: ElicitationModal[Any], error: Exception) -> None:
        """Code of `modal` (a handler, an action, its compose or mount) raised `error`: the
        modal closes, its question is cancelled with `dialog_failed` and the app goes on.
        Textual ends a widget's message loop at its error: the modal may be dead already."""
        if modal.failed is not None:
            return  # ended by its first error
        modal.failed = error
        modal.hide_typed_secrets()  # the error may quote one (`int(pin)` raises quoting it)
        self._report_failed_dialog(modal.request, error)
        if modal is not self._shown:
            # Built ahead, or kept idle: no question waits on it.
            self._modals.discard(modal)
            modal.remove()
            return
        if modal not in self.screen_stack:
            return  # answered, on its way out: given back, it is discarded
        # What it opened over itself goes first (Textual's dismiss pops the top screen).
        for above in reversed(self.screen_stack[self.screen_stack.index(modal) + 1 :]):
            above.dismiss()
        modal.dismiss(dialog_failed(modal.request, error))
        self.call_later(self._take_apart, modal)

    def _take_apart(self, modal: ElicitationModal[Any]) -> None:
        """Remove the widgets of failed `modal` if its message loop ended before it began
        (an error in its compose or mount): Textual removes a screen's widgets from that
        loop, and they would run on, unseen, until the app exits."""
        if not modal._running:
            modal.release_unhandled()
        if not modal._running and modal.children:
            self._prune(*modal.children)

    def on_elicitation_modal_check_failed(self, message: ElicitationModal.CheckFailed) -> None:
        # The person read that the answer could not be checked; the error is the developer's.
        kind = message.modal.request.kind
        _log.error("the %r request's check failed: %s", kind, message.detail)
        self._failed_dialogs.add_failed_check(kind, message.detail)

    def _report_failed_dialog(
        self, request: Request, error: BaseException, outcome: str = "; its question was cancelled"
    ) -> None:
        """Say that the dialog of `request` failed with `error`, and its `outcome`: on screen,
        in the log and, with its traceback, as the app exits (where it failed is for the
        kind's author)."""
        kind = request.kind
        # One line: the traceback is printed as the app exits (`FailedDialogs`).
        what = error_text(error)
        _log.error("the %r dialog failed: %s", kind, what)
        # The notice stays short; the whole message is in the log and the exit's report.
        why = one_line(what, FAILURE_NOTICE_LENGTH)
        self._failure_notice = self._notice_in_a_row(
            self._failure_notice,
            lambda count: (
                f"The {kind!r} dialog failed ({why}){outcome}."
                if count == 1
                else f"{count} dialogs failed; the last: the {kind!r} dialog ({why}){outcome}."
            ),
            "error",
        )
        self._failed_dialogs.add(kind, error, self.console)

    def _say_unshown(self, request: Request, error: str, kept: bool) -> None:
        """Say that `request` cannot be shown here, for `error`, and that it was `kept` for
        another front end, or cancelled."""
        kind = one_line(repr(request.kind), KIND_NOTICE_LENGTH)
        outcome = "left waiting for a front end that can" if kept else "cancelled"

        def said(count: int) -> str:
            lead = (
                f"Cannot show {kind} requests here"
                if count == 1
                else f"Cannot show {count} questions here; the last, a {kind} request"
            )
            # The whole error is in the log, and in the exit's report where the app cancels.
            room = UNSHOWN_NOTICE_LENGTH - len(f"{lead} (); {outcome}.")
            return f"{lead} ({one_line(error, room)}); {outcome}."

        self._unshown_notice = self._notice_in_a_row(self._unshown_notice, said, "error")

    def _notice_in_a_row(
        self,
        last: tuple[Notification, int] | None,
        said: Callable[[int], str],
        severity: SeverityLevel,
    ) -> tuple[Notification, int]:
        """Post `said(count)`, in place of `last`, the notice of the same kind and how many
        it counted, while that is up: notices in a row share one, not a stack of them over
        the question shown next. Returns the notice and its count."""
        count = 1
        if last is not None and self._is_up(last[0]):
            self._unnotify(last[0])
            count = last[1] + 1
        return self._notice(said(count), severity=severity), count

    def _is_up(self, notification: Notification) -> bool:
        """Whether `notification` is still shown (a render takes notices away by the session's
        clock, not the wall clock's)."""
        return notification in self._notifications and not notification.has_expired

    def _print_error_renderables(self) -> None:
        super()._print_error_renderables()
        if self._failed_dialogs:
            with contextlib.suppress(OSError):  # stderr was the terminal, and it has gone
                self.error_console.print(self._failed_dialogs)

    def _fatal_error(self) -> None:
        # Textual's report prints every frame's locals, where a typed secret may sit unregistered.
        self.bell()
        report = self.console.render(crash_report(), self.console.options)
        self._exit_renderables.append(Segments(report))
        self._close_messages_no_wait()

    def export_screenshot(self, *, title: str | None = None, simplify: bool = False) -> str:
        """An SVG screenshot of the current screen, every secret answered so far masked."""
        return masked_screenshot(self, REDACTOR, title=title, simplify=simplify)

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """Save a screenshot, secrets masked, in `path`, `$ELICIT_TUI_SCREENSHOT_DIR` or the
        current folder, and say where (or why not); returns the file's path, or None."""
        try:
            folder = screenshot_directory(path)
            saved = self.save_screenshot(filename, str(folder), time_format)
        except OSError as error:
            self.notify(
                f"Screenshot not saved: {error}", title="Screenshot", severity="error", markup=False
            )
            return None
        self.notify(f"Saved screenshot to {saved}", title="Screenshot", markup=False)
        return saved

    def on_resize(self, event: events.Resize) -> None:
        # A notice takes the whole width of a narrow screen, not half (styles/app.tcss).
        self.set_class(event.size.width < NARROW_SCREEN, "-narrow")

    async def on_event(self, event: events.Event) -> None:
        # Clicks made just as a modal appears were meant for what was there before; those
        # made just as it closes (a double click on an answer), for it.
        if isinstance(event, _CLICKS):
            if self._modal_unarmed() or self._just_closed(time.monotonic(), self.input_grace):
                return
            self._at_the_question()
        await super().on_event(event)

    def accepts_key(self, event: Typed) -> bool:
        quitting = isinstance(event, events.Key) and event.key in QUIT_KEYS
        held = self._typing.holds(event.time)
        if held and not quitting:
            if self._typing.first_held():
                self._say_keys_held()
            return False
        # Keys typed just as a modal appears were meant for what was there before; what is
        # typed on after them is held until a pause.
        if not quitting and self._modal_unarmed(event.time):
            self._typing.hold_from(event.time)
            return False
        if not quitting and self._just_closed(event.time):
            self._typing.hold_from(event.time, JUST_CLOSED)
            return False
        if self._escape_run_on(event):
            # Esc and the keys typed on at once (tmux holds an Esc until the next key): the
            # person meant to cancel, and what follows is their next command, no answer.
            self._typing.hold_from(event.time)
            self._typing.first_held()  # said here, in its own words
            self._notice(
                "Esc came with the next key at once, read as Alt: keys are ignored until you "
                f"stop typing for {self._typing.pause:g} s. Press Esc alone to cancel.",
                severity="warning",
            )
            return False
        self._key_seen(event)
        self._at_the_question()
        return True

    def _just_closed(self, at: float, within: float | None = None) -> bool:
        """True if what came at `at` (monotonic) came to the screen behind the questions (the
        main screen, a row opened over it) within `within` seconds (default: the typing
        pause) after a question closed: an Enter typed ahead for the next question would
        open a row there, which that question then comes over and leaves open."""
        within = self._typing.pause if within is None else within
        return not isinstance(self.screen, ElicitationModal) and at - self._closed_at < within

    def _at_the_question(self) -> None:
        """A key or click reached the question in front: the notice of how the one before it
        ended, over it (at 40x12, over half of it), has been seen, and goes."""
        ended = self._ended_notice
        if ended is not None and isinstance(self.screen, ElicitationModal):
            self._ended_notice = None
            self._unnotify(ended[0])

    def _escape_run_on(self, event: Typed) -> bool:
        """Whether `event` is Alt and a character that nothing in front takes as such: how a
        terminal reads Esc with a key typed right after it."""
        return (
            isinstance(event, events.Key)
            and event.key.startswith("alt+")
            and event.character is not None
            and event.character.isprintable()
            and isinstance(self.screen, ElicitationModal)
            and event.key not in self.screen.active_bindings
        )

    def _say_keys_held(self) -> None:
        """Say that keys are held off, in the notice of how the question before ended if it
        is still up: one notice over the question in front, not two."""
        ended = self._ended_notice
        said = f"{self._typing.why}\n{self._typing.notice()}"
        if ended is not None and self._is_up(ended[0]):
            self._unnotify(ended[0])
            said = f"{ended[0].message}\n{self._typing.notice()}"
        self._ended_notice = self._notice(said, severity="warning"), 1

    def showing(self) -> Hashable:
        # A modal reloaded with the next question is not what the keys handed to it saw.
        screen = self.screen
        return (screen, screen.request.id) if isinstance(screen, ElicitationModal) else screen

    def _modal_unarmed(self, typed_at: float | None = None) -> bool:
        """True if what came at `typed_at` (monotonic; default: now) came in the input grace
        period of the modal in front, or before it appeared. A key is judged by when it was
        read, not when its turn came: behind a busy app, typing ahead for the question before
        would otherwise reach this one once its grace had passed.

        Where the answer went to an inbox elsewhere, the next question appears only on its
        reply, and that wait is part of the grace, as if the question had appeared with the
        answer, as it does with a queue in this process: else a steady key a third of a second
        after the one before fell in it. What came before the question appeared is never
        taken for it (see `_replied`)."""
        screen = self.screen
        if not isinstance(screen, ElicitationModal) or self.input_grace <= 0:
            return False
        at = time.monotonic() if typed_at is None else typed_at
        if self._grace_from is not None and screen is self._shown:
            return (
                not screen.appeared
                or at < screen.shown_at
                or at - self._grace_from < self.input_grace
            )
        return not screen.armed_for(at)

    # -- keys, for transcripts and recordings ---------------------------------------------

    def _key_seen(self, event: events.Event) -> None:
        """Record a key or paste reaching a modal; show it in the badge if asked to."""
        if not isinstance(event, events.Key | events.Paste) or event.is_forwarded:
            return  # a forwarded event is one already seen, bubbling back up
        press = self.key_recorder.note(self.screen, event)
        if not self.show_keys:
            return
        if press is not None and press.masked is not None:
            label = "•" if press.paste is None else "paste •••"
        elif isinstance(event, events.Paste):
            label = "paste"
        else:
            label = key_label(event.key, event.character)
        badges = self.screen.query(KeyBadge)
        badge = badges.first() if badges else KeyBadge()
        if not badge.is_attached:
            self.screen.mount(badge)
        badge.show_key(label)

    def _write_keys(self, request: Request, *, quitting: bool = False) -> None:
        presses = self.key_recorder.take(request.id)
        while quitting and presses and presses[-1].key in QUIT_KEYS:
            presses.pop()  # a replay of it would quit the replay there, not at its end
        shown = self._shown
        if self.transcript is None or shown is None or shown.request.id != request.id:
            return
        self.transcript.keys(request.id, presses, secret_lengths(shown))


def _common_requests() -> Iterator[Request]:
    """A request of each shape most questions have, in the order their modals are built:
    a short choice, a long one (filtered by typing), a line of text, a yes/no, a multiple
    choice, a secret not stored, a tool call without a diff, a batch of questions whose
    first is a short pick-one with "Other" (its later questions may be of any shape), and
    last a long multiple choice (files, ports, checks to run).

    Each is made when its turn comes, and made as is (`model_construct`), not validated:
    they are the app's own and never asked, and validating them would build pydantic's
    validators of seven kinds, and load its plugins, on the UI thread, just when a fresh
    process's agent is about to ask its first question."""
    from widgets.list_filter import FILTER_THRESHOLD

    def options(count: int) -> list[Option]:
        # Letters: a long list whose labels hold no digit offers the digit keys, and its
        # footer, built with them, only hides them for a list whose digits go to its filter.
        letters = [chr(ord("a") + n) for n in range(count)]
        return [Option.model_construct(label=letter, value=letter) for letter in letters]

    yield ChoiceRequest.model_construct(message="?", options=options(1))
    yield ChoiceRequest.model_construct(message="?", options=options(FILTER_THRESHOLD))
    yield TextRequest.model_construct(message="?")
    yield ConfirmationRequest.model_construct(message="?")
    yield MultiChoiceRequest.model_construct(message="?", options=options(1))
    yield SecretRequest.model_construct(message="?")
    yield ToolApprovalRequest.model_construct(
        id="toolApproval:-", message="-()", summary="-()", tool_name="-", tool_call_id="-"
    )
    question = Question.model_construct(
        question="?", options=[QuestionOption.model_construct(label="-")]
    )
    yield QuestionsRequest.model_construct(message="?", questions=[question, question])
    yield MultiChoiceRequest.model_construct(message="?", options=options(FILTER_THRESHOLD))


def _load_validation() -> None:
    """Have pydantic load what its first validator needs, here in the UI thread, before any
    other thread validates a request: its plugins, found through `importlib.metadata` in the
    entry points of every installed distribution. Left to the first question's thread while
    the UI thread draws or builds dialogs ahead, that loading crawls (each file it reads hands
    the UI thread the GIL for up to 5 ms): in a fresh process the first question took 0.2 s
    longer to appear. Once per process; nothing to do where a request was validated already."""
    TypeAdapter(bool)


def bell_wanted() -> bool:
    """False when `$ELICIT_TUI_BELL` says no (0, off, no, false); True otherwise."""
    return os.environ.get(BELL_VARIABLE, "1").strip().lower() not in ("0", "off", "no", "false")

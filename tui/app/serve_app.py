"""The app behind `elicit-tui serve`: the TUI, with an MCP server running in its event loop."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from textual import events, on

from tui.app.app import ElicitationApp
from tui.app.second_press import SecondPress
from tui.core.queue import ElicitationQueue
from tui.core.waiting_questions import the_questions
from tui.inbox.asgi import answer_without_delay, inbox_app
from tui.inbox.inbox import Inbox
from tui.mcp.server import PROGRESS_INTERVAL
from tui.secrets.keyring_store import keyring_status
from widgets.agent_status import AgentStatus
from widgets.timeline import Timeline

CLIENTS_REFRESH = 1.0
"""Seconds between two looks at how many connections are open, for the status line."""

LOCAL_FRONT_END = "elicit-tui serve"
"""Who answered, for what this app's own screen answers (told to other front ends)."""

SHUTDOWN_GRACE = 1
"""Seconds the server waits for open streams (an agent's idle SSE stream) before closing them."""


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server that leaves the signals to the app it runs in."""

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class ServeApp(ElicitationApp):
    """Shows the requests of agents calling the MCP server at `url`, which runs while the app does.

    The inbox's HTTP API (`/v1/...`) shares the port: askers in other processes post requests
    there, and front ends in other processes may answer them too (the first answer wins).

    `listener` is a socket already bound (to 127.0.0.1), so a busy port is reported before the
    app starts. Tool calls await the queue in this event loop; when the app quits, the queue
    is closed (every waiting call ends with `cancel`/`closed`) and then the server stops.
    A call that carries a progress token hears from the server every `progress_interval`
    seconds while the person has not answered, so clients that reset their timeout on
    progress keep waiting. The status line says where it serves and how many connections
    clients hold open.
    """

    keeps_secrets_in_memory = False

    QUIT_WITHIN = 5.0
    """Seconds in which a second Ctrl+Q quits while questions wait: quitting cancels every
    one of them, each script that asked it ends, so one press only says so."""

    not_stopped_because = (
        "Ctrl+Z does not stop serve: its inbox, which every agent asks, would stop too. "
        "Ctrl+Q quits."
    )

    def __init__(
        self,
        queue: ElicitationQueue,
        listener: socket.socket,
        *,
        token: str | None,
        token_note: str = "",
        input_grace: float = 0.2,
        transcript: str | Path | None = None,
        progress_interval: float = PROGRESS_INTERVAL,
        notify_command: str | None = None,
    ) -> None:
        host, port = listener.getsockname()[:2]
        self.url = f"http://{host}:{port}/mcp"
        """Where MCP clients connect (streamable HTTP)."""
        super().__init__(
            queue,
            title=f"elicit-tui · MCP on {self.url}",
            front_end_name=LOCAL_FRONT_END,
            input_grace=input_grace,
            transcript=transcript,
            notify_command=notify_command,
            serving=self.url,
        )
        self._listener = listener
        self._quit = SecondPress(self.QUIT_WITHIN)
        answer_without_delay(listener)
        self._token = token
        self._token_note = token_note
        self.refused = 0
        """How many requests were turned away (no or a wrong token, too large)."""
        # The app attaches its rules when it mounts, as every ElicitationApp does.
        self.inbox = Inbox(
            queue,
            approvals=self.approvals,
            attach_approvals=False,
            local_front_end=LOCAL_FRONT_END,
        )
        """The queue as askers and front ends in other processes reach it (`/v1/...`)."""
        app = inbox_app(
            self.inbox,
            token=token,
            refused=self._refuse,
            host=host,
            progress_interval=progress_interval,
        )
        config = uvicorn.Config(
            app,
            log_config=None,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=SHUTDOWN_GRACE,
        )
        self._server = _EmbeddedServer(config)
        self._serving: asyncio.Task[None] | None = None

    def on_mount(self) -> None:
        self._serving = asyncio.create_task(self._server.serve(sockets=[self._listener]))
        self._serving.add_done_callback(self._server_stopped)
        # After the app's own on_mount, which shows "no agent attached".
        self.call_later(self._show_clients)
        self.set_interval(CLIENTS_REFRESH, self._show_clients)
        if keyring_status() is not None:
            # Until the first question too: a notice must not hide what is asked (a tool
            # call's arguments, its scope), and the question that needs a keyring says why.
            # One line: at 80 columns the whole reason took 14, over the timeline and the
            # title bar's URL; serve printed it before the TUI started (`KEYRING_MISSING`).
            self.notify(
                "No keyring: request_secret is refused (see serve's output)",
                severity="warning",
                timeout=30,
                until_asked=True,
            )
        # Shown until the first question, for the person to copy into a client; the terminal
        # got the whole config.
        if self._token is None:
            self.notify(
                "No token: every local process may ask (--no-auth).",
                severity="warning",
                until_asked=True,
            )
        else:
            note = f"\n{self._token_note}" if self._token_note else ""
            # Not the token itself: cut across the notice's lines, it would be copied broken.
            self.notify(
                f"Clients send  Authorization: Bearer TOKEN; `elicit-tui token` prints it.{note}",
                timeout=20,
                until_asked=True,
            )

    async def action_quit(self) -> None:
        """Quit; while questions wait, only at a second press, as quitting cancels them all."""
        waiting = len(self.queue.pending())
        if waiting and not self._quit.pressed():
            self.notify(
                f"Press Ctrl+Q again to quit and cancel {the_questions(waiting)} waiting, "
                "every asker's.",
                title="Quit serve?",
                severity="warning",
                timeout=self.QUIT_WITHIN,
            )
            return
        await super().action_quit()

    @property
    def connections(self) -> int:
        """How many HTTP connections clients hold open to the server now.

        Connections, not sessions: the 2026-07-28 protocol has no sessions to count, and a
        client on either protocol holds at least one connection while it is connected.
        """
        return len(self._server.server_state.connections)

    def _show_clients(self) -> None:
        # The timer may fire once more while the app shuts down, its main screen emptied.
        for status in self.query(AgentStatus):
            status.show_serving(self.url, self.connections, self.inbox.front_ends)

    def _refuse(self, why: str) -> None:
        # In this event loop (uvicorn runs in it): the timeline shows one row, counting.
        self.refused += 1
        self.query_one(Timeline).note_refused(self.refused, why, time.time())

    @on(events.Unmount)
    async def _stop_server(self) -> None:
        # Every waiting asker hears `closed`, and the event streams end, before the server stops.
        self.inbox.close()
        if self._serving is not None and not self._serving.done():
            self._server.should_exit = True
            await self._serving

    def _server_stopped(self, serving: asyncio.Task[None]) -> None:
        if self._server.should_exit or serving.cancelled():
            return
        error = serving.exception()
        why = f": {type(error).__name__}: {error}" if error is not None else ""
        self.notify(f"The MCP server stopped{why}", severity="error", timeout=30)

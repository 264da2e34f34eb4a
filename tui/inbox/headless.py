"""`elicit-tui serve --headless`: the inbox without a TUI; front ends attach over `/v1/events`.

Requests wait (queue policy `wait`) until a front end answers them. Approval rules answer
tool approvals they cover; Ctrl+C, SIGTERM or SIGHUP (its terminal closed) answers every
waiting asker `cancel`/`closed` before the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from types import FrameType

import uvicorn

from tui.core.hung_up import drop_hung_up_output
from tui.core.waiting_questions import the_questions
from tui.inbox.asgi import answer_without_delay, inbox_app
from tui.inbox.inbox import Inbox
from tui.mcp.auth import ASGIApp, Receive, Scope, Send

SHUTDOWN_GRACE = 1
"""Seconds the server gives open streams to finish once the inbox closed."""

QUIET = 0.2
"""Seconds without a POST after which the agents answered `closed` are taken to be done: one
may ask again at once (the Python SDK lists the tools to check the result of a call)."""


class _Posts:
    """An ASGI app that counts the POST requests in flight to `app` (every MCP call is one)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._started = 0
        self._count = 0
        self._none = asyncio.Event()
        self._none.set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        self._started += 1
        self._count += 1
        self._none.clear()
        try:
            await self.app(scope, receive, send)
        finally:
            self._count -= 1
            if not self._count:
                self._none.set()

    async def quiet(self, period: float) -> None:
        """Return once no POST request has been in flight for `period` seconds."""
        while True:
            await self._none.wait()
            started = self._started
            await asyncio.sleep(period)
            if self._started == started:
                return


class _InboxServer(uvicorn.Server):
    """A uvicorn server that answers every waiting asker `closed` before it hears of Ctrl+C.

    uvicorn's handler of Ctrl+C and SIGTERM also ends every SSE stream at once (sse_starlette
    patches it in), and a 2025-11-25 call is answered on the SSE stream of its POST, so the
    inbox closes first, and the signal reaches uvicorn once the agents it answered have been
    quiet for a moment.
    """

    def __init__(self, config: uvicorn.Config, inbox: Inbox, posts: _Posts) -> None:
        super().__init__(config)
        self.inbox = inbox
        self._posts = posts
        self._stopping = False
        self._closing: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """uvicorn's, and SIGHUP too (a terminal window closed, an SSH connection dropped),
        unless it is ignored (`nohup`): it ends the process on the spot, the askers told
        nothing. Raised again once the server has stopped, as uvicorn raises the others."""
        hangup: signal.Signals | None = getattr(signal, "SIGHUP", None)  # (not on Windows)
        if (
            hangup is None
            or threading.current_thread() is not threading.main_thread()
            or signal.getsignal(hangup) is not signal.SIG_DFL
        ):
            with super().capture_signals():
                yield
            return
        signal.signal(hangup, self._hung_up)
        try:
            with super().capture_signals():
                yield
        finally:
            signal.signal(hangup, signal.SIG_DFL)

    def _hung_up(self, sig: int, frame: FrameType | None) -> None:
        # A terminal closed: what is still said (below, and uvicorn's log) goes to the null
        # device, as a write to it fails (EIO) and would stop the server half way.
        drop_hung_up_output()
        self.handle_exit(sig, frame)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._stopping:
            super().handle_exit(sig, frame)  # a second Ctrl+C stops at once
            return
        self._stopping = True
        # A signal handler runs in the loop's thread between two of its steps: close in the loop.
        asyncio.get_running_loop().call_soon_threadsafe(self._close, sig)

    def _close(self, sig: int) -> None:
        self._closing = asyncio.create_task(self._close_then_exit(sig))

    async def _close_then_exit(self, sig: int) -> None:
        waiting = len(self.inbox.queue.pending())
        self.inbox.close()
        try:
            if waiting:
                print(
                    f"elicit-tui serve: stopped; cancelled {the_questions(waiting)} waiting "
                    "(reason `closed`)",
                    file=sys.stderr,
                    flush=True,
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._posts.quiet(QUIET), SHUTDOWN_GRACE)
        finally:
            if sig == getattr(signal, "SIGHUP", None):
                # Raised again once stopped (uvicorn's way), it ends the process as a hangup
                # does; from now on a second one ends it at once, as a second Ctrl+C does.
                signal.signal(sig, signal.SIG_DFL)
            if not self.should_exit:
                super().handle_exit(sig, None)


def run_headless(listener: socket.socket, inbox: Inbox, *, token: str | None) -> int:
    """Serve `inbox` (its queue's policy `wait`) on `listener` until interrupted; returns the
    exit status."""
    host = listener.getsockname()[0]
    answer_without_delay(listener)
    posts = _Posts(inbox_app(inbox, token=token, refused=_refused, host=host))
    config = uvicorn.Config(
        posts,
        log_config=None,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
    )
    # uvicorn raises the Ctrl+C it held back once it has shut down: a normal way to stop.
    with contextlib.suppress(KeyboardInterrupt):
        _InboxServer(config, inbox, posts).run(sockets=[listener])
    return 0


def _refused(why: str) -> None:
    print(f"elicit-tui serve: refused {why}", file=sys.stderr, flush=True)

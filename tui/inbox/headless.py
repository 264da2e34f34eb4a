"""`elicit-tui serve --headless`: the inbox without a TUI; front ends attach over `/v1/events`.

Requests wait (queue policy `wait`) until a front end answers them. Approval rules answer
tool approvals they cover; Ctrl+C or SIGTERM answers every waiting asker `cancel`/`closed`
before the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys

import uvicorn

from tui.inbox.asgi import answer_without_delay, inbox_app
from tui.inbox.inbox import Inbox

SHUTDOWN_GRACE = 1
"""Seconds the server gives open streams to finish once the inbox closed."""


class _InboxServer(uvicorn.Server):
    """A uvicorn server that closes the inbox first, so every waiting asker hears `closed`."""

    def __init__(self, config: uvicorn.Config, inbox: Inbox) -> None:
        super().__init__(config)
        self.inbox = inbox

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.inbox.close()
        # One turn of the loop: the answered long polls write their responses.
        await asyncio.sleep(0.05)
        await super().shutdown(sockets)


def run_headless(listener: socket.socket, inbox: Inbox, *, token: str | None) -> int:
    """Serve `inbox` (its queue's policy `wait`) on `listener` until interrupted; returns the
    exit status."""
    host = listener.getsockname()[0]
    answer_without_delay(listener)
    app = inbox_app(inbox, token=token, refused=_refused, host=host)
    config = uvicorn.Config(
        app,
        log_config=None,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
    )
    # uvicorn raises the Ctrl+C it held back once it has shut down: a normal way to stop.
    with contextlib.suppress(KeyboardInterrupt):
        _InboxServer(config, inbox).run(sockets=[listener])
    return 0


def _refused(why: str) -> None:
    print(f"elicit-tui serve: refused {why}", file=sys.stderr, flush=True)

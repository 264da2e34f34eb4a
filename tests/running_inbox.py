"""An inbox served on a free loopback port in a thread of the test process, for front ends."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import uvicorn

from tui.core.queue import ElicitationQueue
from tui.inbox.asgi import inbox_app
from tui.inbox.inbox import Inbox


@dataclass
class RunningInbox:
    inbox: Inbox
    url: str
    token: str
    refused: list[str] = field(default_factory=list)

    @property
    def queue(self) -> ElicitationQueue:
        return self.inbox.queue


@contextmanager
def running_inbox(token: str = "the-token", keepalive: float = 15.0) -> Iterator[RunningInbox]:
    """Serve a fresh inbox (policy `wait`) until the block ends; yields where and how to reach it."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    inbox = Inbox(ElicitationQueue(policy="wait"))
    running = RunningInbox(inbox, f"http://127.0.0.1:{port}", token)
    app = inbox_app(
        inbox, token=token, refused=running.refused.append, host="127.0.0.1", keepalive=keepalive
    )
    config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False)
    config.timeout_graceful_shutdown = 1
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the inbox did not start")
        time.sleep(0.01)
    try:
        yield running
    finally:
        inbox.close()
        server.should_exit = True
        thread.join(10)
        listener.close()

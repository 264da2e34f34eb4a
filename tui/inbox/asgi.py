"""One ASGI app on one port: the inbox's HTTP API under `/v1/`, the MCP server on `/mcp`.

Both sit behind the same door (`tui.mcp.auth.Guarded`): the bearer token, local Host and
Origin only, and the body-size cap hold on every endpoint alike.
"""

from __future__ import annotations

import socket

from starlette.applications import Starlette

from tui.inbox.events import KEEPALIVE, front_end_routes
from tui.inbox.hook_api import hook_routes
from tui.inbox.http_api import asker_routes
from tui.inbox.inbox import Inbox
from tui.mcp.auth import ASGIApp, Guarded, Receive, Refused, Scope, Send
from tui.mcp.server import PROGRESS_INTERVAL, create_server

API_PREFIX = "/v1/"


def answer_without_delay(listener: socket.socket) -> None:
    """Have connections accepted on `listener` send each write at once (TCP_NODELAY).

    asyncio sets it only on sockets whose protocol number says TCP, which those of
    `socket.create_server` do not; without it a reply on a kept-alive connection (its headers
    and body written apart) waits some 40 ms for the client's delayed ACK. Accepted sockets
    inherit the option from the listener.
    """
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def inbox_app(
    inbox: Inbox,
    *,
    token: str | None,
    refused: Refused,
    host: str,
    progress_interval: float = PROGRESS_INTERVAL,
    keepalive: float = KEEPALIVE,
) -> ASGIApp:
    """The app `serve` runs: `inbox`'s API and its MCP server, refusing what `Guarded` refuses
    (each refusal told to `refused`)."""
    mcp = create_server(inbox.queue, progress_interval=progress_interval).streamable_http_app(
        host=host
    )
    api = Starlette(
        routes=[
            *asker_routes(inbox),
            *hook_routes(inbox),
            *front_end_routes(inbox, keepalive=keepalive),
        ]
    )

    async def route(scope: Scope, receive: Receive, send: Send) -> None:
        # Lifespan events go to the MCP app, whose session manager needs them.
        if scope["type"] == "http" and scope["path"].startswith(API_PREFIX):
            await api(scope, receive, send)
        else:
            await mcp(scope, receive, send)

    return Guarded(route, token, refused)

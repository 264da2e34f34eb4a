"""The door of `elicit-tui serve`: a bearer token, local names only, and a cap on body size.

Any process of any user on the machine can reach 127.0.0.1. Without the token a request is
answered 401 and never reaches the MCP server or the inbox's API, so it never becomes a
question; a body over `MAX_BODY` is answered 413 before it is read, so it cannot stall the
server or the screen. A Host or Origin naming anything but this machine (a web page using DNS
rebinding) is answered 421 or 403.
"""

from __future__ import annotations

import hmac
import os
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from tui.core.config_folder import TOKEN_FILE
from tui.core.limits import MAX_BODY

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""The host names a request may be addressed to (any port)."""

Refused = Callable[[str], None]
"""Told why a request was turned away, to show it to the person."""


def new_token() -> str:
    """A fresh random token (256 bits, URL-safe), never starting with "-": after `--token`
    on a command line, such a token (one in 64) was read as an option."""
    token = secrets.token_urlsafe(32)
    while token.startswith("-"):
        token = secrets.token_urlsafe(32)
    return token


def save_token(token: str, folder: Path) -> Path:
    """Write `token` to `folder`/serve-token, readable by its owner only; returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / TOKEN_FILE
    # Created owner-only, never widened afterwards: no moment where others could read it.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        os.fchmod(file.fileno(), 0o600)
        file.write(token + "\n")
    return path


class Guarded:
    """An ASGI app that lets through only requests bearing `token` (all, if None) and small bodies."""

    def __init__(self, app: ASGIApp, token: str | None, refused: Refused) -> None:
        self._app = app
        self._expected = None if token is None else token.encode()
        self._refused = refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        host = headers.get(b"host", b"").decode("latin-1")
        origin = headers.get(b"origin", b"").decode("latin-1")
        if not _local(host):
            self._refused(f"{scope['method']} {scope['path']} for host {host!r}")
            await _respond(send, 421, "the Host header must name this machine")
            return
        if origin and not (origin.startswith("http://") and _local(origin[len("http://") :])):
            self._refused(f"{scope['method']} {scope['path']} from origin {origin!r}")
            await _respond(send, 403, "the Origin header must name this machine")
            return
        # "Bearer" is a scheme name, which HTTP compares without case; the token is exact.
        scheme, _, given = headers.get(b"authorization", b"").partition(b" ")
        if self._expected is not None and not (
            scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._expected)
        ):
            why = "a wrong token" if b"authorization" in headers else "no token"
            self._refused(f"{scope['method']} {scope['path']} with {why}")
            await _respond(send, 401, "a valid bearer token is required", bearer=True)
            return
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > MAX_BODY:
            self._refused(f"{scope['method']} {scope['path']} of {length.decode()} bytes")
            await _respond(send, 413, f"a request may carry at most {MAX_BODY} bytes")
            return
        await self._app(scope, _capped(receive), send)


def _local(host: str) -> bool:
    """True if `host` (`name` or `name:port`) names this machine."""
    name, colon, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not colon:
        name = host
    elif not port.isdigit():
        return False
    return name in LOCAL_NAMES


def _capped(receive: Receive) -> Receive:
    """`receive`, ending the request as a disconnect once a body (chunked) passes `MAX_BODY`."""
    seen = 0

    async def capped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                return {"type": "http.disconnect"}
        return message

    return capped


async def _respond(send: Send, status: int, error: str, *, bearer: bool = False) -> None:
    body = f'{{"error": "{error}"}}'.encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if bearer:
        headers.append((b"www-authenticate", b'Bearer realm="elicit-tui"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

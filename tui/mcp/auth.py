"""The door of `elicit-tui serve`: the token, local names only, and a cap on body size.

Any process of any user on the machine can reach 127.0.0.1. Without the token a request is
answered 401 and never reaches the MCP server or the inbox's API, so it never becomes a
question; a body over `MAX_BODY` is answered 413 before it is read, so it cannot stall the
server or the screen. A Host or Origin naming anything but this machine (a web page using DNS
rebinding) is answered 421 or 403. The token comes as a bearer token (browsers, MCP clients)
or proven by a signed request (elicit-tui's own clients, `tui.core.signed_request`), whose
answer then proves the inbox holds it too.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from tui.core.config_folder import TOKEN_FILE
from tui.core.limits import MAX_BODY
from tui.core.owner_only_file import write_owner_only
from tui.core.signed_request import (
    NONCE_HEADER,
    PROOF_HEADER,
    SCHEME,
    SIGNER_SCOPE_KEY,
    TIME_HEADER,
    WINDOW,
    AnswerSigner,
    request_mac,
)

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
    path = folder / TOKEN_FILE
    write_owner_only(path, token)
    return path


class Guarded:
    """An ASGI app that lets through only requests bearing or signed with `token` (all, if
    None) and small bodies; the answer to a signed one carries the inbox's proof."""

    def __init__(self, app: ASGIApp, token: str | None, refused: Refused) -> None:
        self._app = app
        self._token = token
        self._expected = None if token is None else token.encode()
        self._refused = refused
        self._nonces: dict[str, float] = {}
        """The nonces of the signed requests let in, each until it can no longer pass the
        time check: oldest first (dicts keep their order)."""

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
        # A scheme name, which HTTP compares without case; the token is exact.
        scheme, _, given = headers.get(b"authorization", b"").partition(b" ")
        token = self._token
        signed = token is not None and scheme.lower() == SCHEME.lower().encode()
        if (
            self._expected is not None
            and not signed
            and not (
                scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._expected)
            )
        ):
            await self._refuse_token(scope, send, b"authorization" in headers)
            return
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > MAX_BODY:
            self._refused(f"{scope['method']} {scope['path']} of {length.decode()} bytes")
            await _respond(send, 413, f"a request may carry at most {MAX_BODY} bytes")
            return
        if token is None or not signed:
            await self._app(scope, _capped(receive), send)
            return
        body = await _whole_body(receive)
        if body is None:
            return  # gone before its body came: nobody to answer
        if len(body) > MAX_BODY:
            self._refused(f"{scope['method']} {scope['path']} of over {MAX_BODY} bytes")
            await _respond(send, 413, f"a request may carry at most {MAX_BODY} bytes")
            return
        nonce = headers.get(NONCE_HEADER.lower().encode(), b"").decode("latin-1")
        if not self._signed_by(token, scope, headers, given.strip(), nonce, body):
            await self._refuse_token(scope, send, True)
            return
        signer = AnswerSigner(token, nonce)
        await self._app(
            {**scope, SIGNER_SCOPE_KEY: signer}, _replayed(body, receive), _proving(send, signer)
        )

    async def _refuse_token(self, scope: Scope, send: Send, given: bool) -> None:
        self._refused(
            f"{scope['method']} {scope['path']} with {'a wrong' if given else 'no'} token"
        )
        await _respond(send, 401, "a valid bearer token is required", bearer=True)

    def _signed_by(
        self,
        token: str,
        scope: Scope,
        headers: dict[bytes, bytes],
        mac: bytes,
        nonce: str,
        body: bytes,
    ) -> bool:
        """Whether the request carries the HMAC only the holder of `token` makes, made within
        `WINDOW` of now, with a nonce not used before."""
        stamp = headers.get(TIME_HEADER.lower().encode(), b"").decode("latin-1")
        now = time.time()
        if not nonce or len(nonce) > 100 or not stamp.isdigit() or abs(now - int(stamp)) > WINDOW:
            return False
        target = scope.get("raw_path") or scope["path"].encode()
        if scope.get("query_string"):
            target += b"?" + scope["query_string"]
        expected = request_mac(token, scope["method"], target.decode("latin-1"), stamp, nonce, body)
        if not hmac.compare_digest(mac, expected.encode()) or nonce in self._nonces:
            return False
        while self._nonces and next(iter(self._nonces.values())) < now:
            del self._nonces[next(iter(self._nonces))]
        # Kept while its time could still pass: `WINDOW` either side of now.
        self._nonces[nonce] = now + 2 * WINDOW
        return True


def _local(host: str) -> bool:
    """True if `host` (`name` or `name:port`) names this machine."""
    name, colon, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not colon:
        name = host
    elif not port.isdigit():
        return False
    return name in LOCAL_NAMES


async def _whole_body(receive: Receive) -> bytes | None:
    """The request's body, which a signed request's HMAC covers, read no further than past
    `MAX_BODY` (sent chunked, it had no length to refuse); None if the client left first."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_BODY or not message.get("more_body", False):
            return b"".join(chunks)


def _replayed(body: bytes, receive: Receive) -> Receive:
    """`receive` for an app, once `body` was read from it: the body first, then the rest
    (a disconnect, which a held call listens for)."""
    first: Message | None = {"type": "http.request", "body": body, "more_body": False}

    async def replayed() -> Message:
        nonlocal first
        if first is None:
            return await receive()
        message, first = first, None
        return message

    return replayed


def _proving(send: Send, signer: AnswerSigner) -> Send:
    """`send`, with the inbox's proof added to an answer sent whole (its status and body
    held until the body is known). An answer that proves itself (`Heartbeating`, the events)
    keeps its own proof header; one streamed that does not (the MCP server's) proves its
    status only: who answers, not what it streams."""
    held: Message | None = None

    async def proving(message: Message) -> None:
        nonlocal held
        if message["type"] == "http.response.start":
            names = {name.lower() for name, _ in message.get("headers", [])}
            if PROOF_HEADER.lower().encode() not in names:
                held = message
                return
        elif message["type"] == "http.response.body" and held is not None:
            start, held = held, None
            if message.get("more_body", False):
                proof = signer.stream_proof(start["status"])
            else:
                proof = signer.proof(start["status"], message.get("body", b""))
            headers = [*start.get("headers", []), (PROOF_HEADER.encode(), proof.encode())]
            await send({**start, "headers": headers})
        await send(message)

    return proving


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

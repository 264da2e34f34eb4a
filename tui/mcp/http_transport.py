"""The streamable HTTP transport of `elicit-tui mcp --url`: it sends the bearer token, if
one is given, or to the inbox signs each request with it (`tui.core.signed_request`), and
keeps the HTTP status of a refused request, which the SDK reports only as "Server returned
an error response"."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from http import HTTPStatus

import httpx2
from mcp.client._transport import TransportStreams
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tui.core.signed_request import PROOF_HEADER, SignedRequest

__all__ = ["HttpRefusals", "http_transport"]


class HttpRefusals:
    """The HTTP error statuses a server answered messages with (POSTs: its other refusals,
    a GET stream it does not offer or a DELETE at the end, are part of the protocol)."""

    def __init__(self) -> None:
        self.statuses: list[int] = []

    async def heard(self, response: httpx2.Response) -> None:
        """An httpx2 response hook: keep the status of a refused message."""
        if response.status_code >= 400 and response.request.method == "POST":
            self.statuses.append(response.status_code)

    def why(self) -> str | None:
        """The last refusal, as a sentence, or None if there was none."""
        if not self.statuses:
            return None
        status = self.statuses[-1]
        try:
            phrase = f"HTTP {status} ({HTTPStatus(status).phrase})"
        except ValueError:
            phrase = f"HTTP {status}"
        if status == HTTPStatus.UNAUTHORIZED:
            return (
                f"{phrase}: it wants a token; give it with --token "
                "(an elicit-tui inbox's token is what `elicit-tui token` prints)"
            )
        return phrase


class _SignedByToken(httpx2.Auth):
    """Signs each request with the inbox's `token` instead of sending it, and lets through
    only an answer that proves the inbox holds it too: one sent whole by its body, a stream
    (the SDK reads it event by event) by its status, which says who answers it."""

    def __init__(self, token: str) -> None:
        self._token = token

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        signed = SignedRequest(
            self._token, request.method, request.url.raw_path.decode(), await request.aread()
        )
        request.headers.update(signed.headers)
        response = yield request
        base = f"{request.url.scheme}://{request.url.netloc.decode()}"
        proof = response.headers.get(PROOF_HEADER)
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            signed.stream(base, response.status_code, proof)
        else:
            signed.answer(base, response.status_code, proof, await response.aread())


@asynccontextmanager
async def http_transport(
    url: str, token: str | None, refusals: HttpRefusals, *, signed: bool = False
) -> AsyncIterator[TransportStreams]:
    """The streams to the server at `url`, each request sending `token` as a bearer token
    (or, if `signed`, signed with it); the status of each request the server refuses goes
    to `refusals`."""
    headers = {} if token is None or signed else {"Authorization": f"Bearer {token}"}
    auth = _SignedByToken(token) if token is not None and signed else None
    async with create_mcp_http_client(headers=headers, auth=auth) as http:
        http.event_hooks["response"].append(refusals.heard)
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams

"""The streamable HTTP transport of `elicit-tui mcp --url`: it sends the bearer token, if
one is given, and keeps the HTTP status of a refused request, which the SDK reports only as
"Server returned an error response"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http import HTTPStatus

import httpx2
from mcp.client._transport import TransportStreams
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

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


@asynccontextmanager
async def http_transport(
    url: str, token: str | None, refusals: HttpRefusals
) -> AsyncIterator[TransportStreams]:
    """The streams to the server at `url`, each request sending `token` as a bearer token;
    the status of each request the server refuses goes to `refusals`."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http:
        http.event_hooks["response"].append(refusals.heard)
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams

"""Hearing that a stdio server went away while nothing of its own waits on it.

A 2026-era server asks its questions in a call's result and is asked again with the answers:
while the person answers, no request waits on the server, and the SDK notices its end only
when the answers are sent. `ending_seen` lets the command hear at once that the server's
output ended (it exited, or crashed), to withdraw the question rather than let it be filled
for nobody.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Generic, TypeVar

import anyio
from mcp.client._transport import ReadStream, Transport, TransportStreams

__all__ = ["ending_seen"]

_Item = TypeVar("_Item")


@asynccontextmanager
async def ending_seen(
    transport: Transport, ended: asyncio.Event
) -> AsyncIterator[TransportStreams]:
    """`transport`'s streams, with `ended` set when the server's output ends."""
    async with transport as (read, write):
        yield _EndWatch(read, ended), write


class _EndWatch(Generic[_Item]):
    """A read stream as it is, but for setting `ended` at its end (not at a close of ours)."""

    def __init__(self, inner: ReadStream[_Item], ended: asyncio.Event) -> None:
        self._inner = inner
        self._ended = ended

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)  # `last_context`, which the SDK looks for

    async def receive(self) -> _Item:
        try:
            return await self._inner.receive()
        except anyio.EndOfStream:
            self._ended.set()
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _EndWatch[_Item]:
        return self

    async def __anext__(self) -> _Item:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _EndWatch[_Item]:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._inner.aclose()

"""A call to the inbox held open until the answer, which the inbox keeps alive with a space
every `HEARTBEAT` seconds (`tui.inbox.heartbeating`): the client of `POST /v1/ask` and of
`POST /v1/hooks/{cli}`. One connection for the whole wait, so an asker that dies hangs up
at whatever moment it dies, and the inbox withdraws its question; the spaces tell a stopped
inbox (Ctrl+Z) from one whose person is still thinking. The call is signed with the token,
and its answer counts only once the inbox proved it holds the token too
(`tui.core.signed_request`). Only the standard library: a hook runs this on every tool call.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from http.client import HTTPConnection, HTTPResponse, HTTPSConnection
from typing import Any
from urllib.parse import urlsplit

from tui.core.signed_request import PROOF_HEADER, SignedRequest
from tui.inbox.discovery import InboxAddress

HEARTBEAT = 1.0
"""Seconds between the spaces the inbox sends while a held call waits."""


class Overdue(Exception):
    """The inbox kept the call past the time the caller gives it."""


class Abandoned(Exception):
    """The caller no longer wants the answer: the call hung up, which withdraws its question."""


def held_call(
    address: InboxAddress,
    path: str,
    body: bytes,
    *,
    silence: float,
    give_up: float | None = None,
    wanted: Callable[[], bool] = lambda: True,
) -> tuple[int, dict[str, Any]]:
    """POST `body` (JSON) to `path` at `address` and read the answer as it comes: its status
    and JSON object ({} if it is none). Raises TimeoutError after `silence` seconds without a
    byte from the inbox, `Overdue` after `give_up` seconds in all, `Abandoned` as soon as a
    byte arrives once `wanted()` is false, `NotProven` if what answers did not prove it is the
    inbox, other OSError or `http.client.HTTPException` if the inbox cannot be reached or
    breaks off."""
    parts = urlsplit(address.base)
    connection_type = HTTPSConnection if parts.scheme == "https" else HTTPConnection
    # Each connect, send and read gives up after `silence`.
    connection = connection_type(parts.hostname or "", parts.port, timeout=silence)
    target = parts.path + path
    signed = SignedRequest(address.token, "POST", target, body)
    headers = {**signed.headers, "Content-Type": "application/json"}
    deadline = None if give_up is None else time.monotonic() + give_up
    try:
        connection.request("POST", target, body, headers)
        response = connection.getresponse()
        answer = _body(response, deadline, wanted)
    finally:
        connection.close()
    proof = response.getheader(PROOF_HEADER)
    return response.status, json_object(signed.answer(address.base, response.status, proof, answer))


def _body(response: HTTPResponse, deadline: float | None, wanted: Callable[[], bool]) -> bytes:
    """`response`'s body, read as it comes, while the caller still wants it and has time."""
    chunks: list[bytes] = []
    while wanted():
        chunk = response.read1(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        if deadline is not None and time.monotonic() > deadline:
            raise Overdue
    raise Abandoned


def json_object(body: bytes) -> dict[str, Any]:
    """`body` as a JSON object; {} if it is anything else."""
    try:
        data = json.loads(body, parse_constant=_not_json)
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _not_json(constant: str) -> Any:
    """`NaN` and `Infinity`, which Python's JSON reader takes: no JSON, so nothing a CLI reads."""
    raise ValueError(f"{constant} is no JSON value")

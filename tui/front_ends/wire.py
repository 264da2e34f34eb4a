"""The JSON forms of results and events on the inbox's HTTP wire (see the README's inbox API)."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, SecretStr

from tui.core.models import ElicitationResult, parse_request
from tui.core.queue import QueueEvent
from tui.core.secret_ref import SecretRef


def result_to_wire(result: ElicitationResult) -> dict[str, Any]:
    """`result` as the JSON a front end posts to the inbox: a secret's value in the clear (the
    request goes to the inbox alone, with the token), a stored secret as its reference."""
    return {"action": result.action, "content": _plain(result.content), "reason": result.reason}


def _plain(content: Any) -> Any:
    if isinstance(content, SecretStr):
        return content.get_secret_value()
    if isinstance(content, SecretRef):
        return {"service": content.service, "username": content.username}
    if isinstance(content, BaseModel):
        return _plain(dict(content))
    if isinstance(content, dict):
        return {key: _plain(value) for key, value in content.items()}
    if isinstance(content, list | tuple):
        return [_plain(value) for value in content]
    return content


def result_from_wire(data: Any) -> ElicitationResult:
    """An `ElicitationResult` from its wire JSON; raises `pydantic.ValidationError` if malformed."""
    return ElicitationResult.model_validate(data)


def event_from_wire(data: dict[str, Any]) -> QueueEvent:
    """A `QueueEvent` from one SSE message's data; raises `ValidationError`/`KeyError`/`ValueError`
    if malformed. The deadline is turned from seconds left into this process's clock."""
    kind = data["type"]
    if kind not in ("requested", "resolved"):
        raise ValueError(f"unknown event type {kind!r}")
    result = data.get("result")
    deadline_in = data.get("deadline_in")
    by = data.get("answered_by")
    return QueueEvent(
        kind,
        parse_request(data["request"]),
        result=None if result is None else result_from_wire(result),
        deadline=None if deadline_in is None else time.monotonic() + float(deadline_in),
        at=float(data.get("at") or time.time()),
        answered_by=by if isinstance(by, str) else None,
    )

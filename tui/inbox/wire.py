"""Requests and results as the inbox's HTTP API carries them (JSON), both ways.

A result is `{"action": ..., "content": ..., "reason": ...}`, with `"sensitive": true` where
the answer holds a secret (typed into a masked field of a dialog of one's own): everyone who
reads it keeps it hidden, as in the process it was typed in. A secret the keyring keeps
travels as its reference `{"service": ..., "username": ...}`; a secret kept nowhere, and any
sensitive answer, travels as its value only to the asker that asked for it, and as
`"**********"` to everyone else (`tui.inbox.masked_requests`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, SecretStr, TypeAdapter, ValidationError

from tui.core.content_check import ContentNotJSON, ContentRefused, checked_content
from tui.core.json_names import fields_by_json_name
from tui.core.models import (
    ElicitationResult,
    FormRequest,
    Request,
    SecretRequest,
    ToolApprovalRequest,
    delivered,
)
from tui.core.secret_ref import SecretRef
from tui.core.strings_in import strings_in
from tui.secrets.redaction import Redactor

_ANY: TypeAdapter[Any] = TypeAdapter(Any)

MASKED = "**********"
"""What a secret's value travels as to everyone but its asker (a `SecretStr` in JSON)."""

MODEL_REFUSED = "model_refused"
"""The start of a result's reason when the form's model refuses the answer given through the
inbox: its validators run only where the model is, the asker's process (a front end checks
the form's schema alone), so they see the answer once the question has ended."""


class InvalidAnswer(ValueError):
    """An answer a person could not have given to this request; the message says why."""


def request_path(request_id: str, action: str = "") -> str:
    """The API path of the request `request_id` (`/v1/requests/ID`), then `/action` if given.

    The id is percent-encoded whole: an agent chooses it, and a `/`, `?`, `#` or `%` in it
    must reach the inbox as part of the id (its routes take an id with `/` in it).
    """
    path = f"/v1/requests/{quote(request_id, safe='')}"
    return f"{path}/{action}" if action else path


class SecretInRequest(ValueError):
    """A request holding a `SecretStr` (a field of a kind of one's own), sent to an inbox in
    another process: as JSON it is `MASKED`, and the dialog there would take that for it."""


def check_sendable_request(request: Request) -> None:
    """Raise `SecretInRequest`, naming the field, if `request` holds a `SecretStr`: sent to
    an inbox, it would arrive as its mask, and no transcript or log may hold its value."""
    for name in type(request).model_fields:
        if any(isinstance(text, SecretStr) for text in strings_in(getattr(request, name))):
            raise SecretInRequest(
                f"{type(request).__name__} holds a SecretStr in its field {name!r}, which"
                f" cannot be sent to an inbox (it would arrive as {MASKED!r}, not its value):"
                " ask it in the process that holds the secret, with an ElicitationQueue, or"
                " send what its dialog needs instead"
            )


def request_json(request: Request) -> dict[str, Any]:
    """`request` as JSON data that `parse_request` reads back into the same request."""
    return request.model_dump(mode="json")


def result_json(result: ElicitationResult, *, reveal_secrets: bool = False) -> dict[str, Any]:
    """`result` as JSON data; typed secrets as their value only with `reveal_secrets`."""
    content = _revealed(result.content) if reveal_secrets else result.content
    if isinstance(content, BaseModel):
        content = fields_by_json_name(content)  # what the asker's model validates back
    data: dict[str, Any] = {
        "action": result.action,
        "content": _ANY.dump_python(content, mode="json"),
        "reason": result.reason,
    }
    if result.sensitive:
        data["sensitive"] = True
    return data


def result_from_json(request: Request, data: dict[str, Any]) -> ElicitationResult:
    """The result an asker gets from the inbox's JSON: a secret as `SecretStr` or `SecretRef`,
    a form made from a model as that model, a sensitive answer (or one to a sensitive
    request) flagged."""
    action, content, reason = data.get("action"), data.get("content"), data.get("reason")
    if action == "accept" and isinstance(request, SecretRequest) and isinstance(content, dict):
        content = SecretRef(**content)
    sensitive = data.get("sensitive") is True
    result = ElicitationResult(action=action, content=content, reason=reason, sensitive=sensitive)
    try:
        return delivered(request, result)
    except ValidationError as refused:  # by a form's model: the question ended, a cancel says why
        why = _model_problems(refused, request, content)
        return ElicitationResult(action="cancel", reason=f"{MODEL_REFUSED}: {why}")


def answer_from_json(request: Request, data: Any) -> ElicitationResult:
    """A front end's answer to `request`, checked as the UI would have given it.

    Raises `InvalidAnswer` naming what is wrong. A tool approval's accept may carry the
    edited call as `"arguments"` beside its scope. `"sensitive": true` keeps the answer
    hidden from everyone but its asker (a dialog's masked field held it); a front end that
    claims it wrongly only hides an answer, so it is taken as said.
    """
    if not isinstance(data, dict):
        raise InvalidAnswer('the result must be an object {"action": ..., "content": ...}')
    fields = {key: data.get(key) for key in ("action", "content", "reason")}
    if "sensitive" in data:
        fields["sensitive"] = data["sensitive"]
    try:
        result = ElicitationResult.model_validate(fields)
    except ValidationError as error:
        raise InvalidAnswer(f"the result is not valid: {_first_problem(error)}") from None
    if result.action != "accept":
        return result
    content = result.content
    if isinstance(request, ToolApprovalRequest) and isinstance(content, dict):
        # Other fields of an accept (a protocol front end's) are left out, not refused.
        shown = {key: content[key] for key in ("scope", "arguments") if key in content}
        content = {"scope": "once", **shown}
    try:
        checked = checked_content(request, content)
    except (ContentRefused, ContentNotJSON) as refused:
        raise InvalidAnswer(f"the answer does not fit the request: {refused}") from None
    return result.model_copy(update={"content": checked})


def _revealed(content: Any) -> Any:
    if isinstance(content, SecretStr):
        return content.get_secret_value()
    if isinstance(content, BaseModel) and not isinstance(content, SecretRef):
        return {key: _revealed(value) for key, value in fields_by_json_name(content).items()}
    if isinstance(content, dict):
        return {key: _revealed(value) for key, value in content.items()}
    return content


def _model_problems(error: ValidationError, request: Request, content: Any) -> str:
    """What the model refused, in a line: each field and its validator's message, with no
    value quoted but where the message quotes one, and the form's secrets scrubbed there."""
    secrets = Redactor()
    if isinstance(request, FormRequest) and isinstance(content, dict):
        for name in request.secret_fields():
            if isinstance(typed := content.get(name), str):
                secrets.register(typed)
    problems = []
    for problem in error.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in problem["loc"])
        message = secrets.scrub(problem["msg"].removeprefix("Value error, "))
        problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems)


def _first_problem(error: ValidationError) -> str:
    problem = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in problem["loc"])
    return f"{where}: {problem['msg']}" if where else problem["msg"]

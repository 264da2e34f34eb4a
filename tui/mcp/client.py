"""The MCP client bridge: a server's elicitations become queue requests, answered by the person.

`elicitation_callback(queue)` is the `elicitation_callback=` of `mcp.Client` and
`mcp.client.ClientSession`. It serves both protocol generations the SDK speaks: a
2025-11-25 session's `elicitation/create` requests, and the elicitations embedded in a
2026-07-28 `input_required` result, which `mcp.Client` retries with the answers. Several
elicitations at once simply queue.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import SecretStr, ValidationError

try:
    from mcp.client.session import ClientRequestContext
    from mcp_types import (
        INTERNAL_ERROR,
        INVALID_PARAMS,
        ElicitRequestFormParams,
        ElicitRequestParams,
        ElicitResult,
        ErrorData,
    )
except ImportError as missing:  # pragma: no cover - depends on what is installed
    raise ImportError(
        "elicit-tui's MCP support needs the `mcp` package: pip install 'elicit-tui[mcp]'",
        name="mcp",
    ) from missing

from tui.core.error_text import error_text
from tui.core.models import ElicitationResult, FormRequest, UrlRequest
from tui.core.queue import ElicitationQueue
from tui.core.schema import validate_content

__all__ = [
    "CANNOT_SHOW",
    "ElicitationCallback",
    "elicitation_callback",
    "request_from_params",
    "to_elicit_result",
]

CANNOT_SHOW = "elicit-tui cannot show this elicitation"
"""How the error answering an elicitation elicit-tui cannot show begins (then: why)."""


class ElicitationCallback(Protocol):
    """An MCP SDK `ElicitationFnT` that also takes no context (None)."""

    async def __call__(
        self, context: ClientRequestContext | None, params: ElicitRequestParams
    ) -> ElicitResult | ErrorData: ...


def elicitation_callback(
    queue: ElicitationQueue, *, source: str | None = None
) -> ElicitationCallback:
    """A callback that asks the person through `queue` (with `ask_async`, never blocking the loop).

    It may be called with a context of None (hosts that have no SDK session); then the
    request's `source` is `source`.

    Form mode becomes a `FormRequest`, URL mode a `UrlRequest`; the server's name is the
    request's `source` when the session knows it, else `source`. Accepted form content is
    checked against the schema. Params elicit-tui
    cannot show (a schema outside the subset, a URL without a scheme, a blank message) are
    answered with an MCP invalid-params error saying why; nothing is shown then.
    """

    async def callback(
        context: ClientRequestContext | None, params: ElicitRequestParams
    ) -> ElicitResult | ErrorData:
        # hosts other than the SDK's sessions may call without a context, or without a name
        server_info = getattr(getattr(context, "session", None), "server_info", None)
        name = getattr(server_info, "name", None)
        asker = name if isinstance(name, str) and name else source
        try:
            request = request_from_params(params, source=asker)
        except ValidationError as error:
            return ErrorData(code=INVALID_PARAMS, message=_refusal(error))
        try:
            result = await queue.ask_async(request)
        except Exception as error:  # from the front end: the server hears of it, not the host
            return ErrorData(code=INTERNAL_ERROR, message=f"no answer: {error_text(error)}")
        return to_elicit_result(request, result)

    return callback


def request_from_params(
    params: ElicitRequestParams, *, source: str | None = None
) -> FormRequest | UrlRequest:
    """The queue request showing one elicitation; `pydantic.ValidationError` if it cannot."""
    if isinstance(params, ElicitRequestFormParams):
        return FormRequest(
            message=params.message,
            requested_schema=params.requested_schema,
            source=source,
            metadata={"mcp": {"mode": "form"}},
        )
    mcp: dict[str, Any] = {"mode": "url"}
    if params.elicitation_id is not None:
        mcp["elicitation_id"] = params.elicitation_id
    return UrlRequest(message=params.message, url=params.url, source=source, metadata={"mcp": mcp})


def to_elicit_result(
    request: FormRequest | UrlRequest, result: ElicitationResult
) -> ElicitResult | ErrorData:
    """The MCP answer to the elicitation `request` showed, once the queue gave `result`.

    Decline and cancel pass through; an accepted form's content is sent as the front end gave
    it (an optional field the person emptied left out), password fields' values as text (not
    `SecretStr`), and is checked against the schema: an answer that does not fit becomes an
    internal-error `ErrorData` saying why.
    """
    if result.action != "accept":
        return ElicitResult(action=result.action)
    if isinstance(request, UrlRequest):
        # URL mode answers consent only; what happens at the link stays out of band
        return ElicitResult(action="accept")
    if not isinstance(result.content, dict):
        return ErrorData(code=INTERNAL_ERROR, message="the answer to a form is not an object")
    schema = request.requested_schema
    # The server asked for the password field itself: it gets the value, not the mask.
    content = {
        name: value.get_secret_value() if isinstance(value, SecretStr) else value
        for name, value in result.content.items()
    }
    try:
        validate_content(schema, content)
    except ValueError as problem:
        return ErrorData(
            code=INTERNAL_ERROR, message=f"the answer does not fit the requested schema: {problem}"
        )
    return ElicitResult(action="accept", content=content)


def _refusal(error: ValidationError) -> str:
    """One line naming what elicit-tui cannot show, like "requested_schema: property 'a': ..."."""
    reasons = []
    for problem in error.errors(include_url=False):
        where = str(problem["loc"][-1]) if problem["loc"] else "request"
        reasons.append(f"{where}: {problem['msg'].removeprefix('Value error, ')}")
    return f"{CANNOT_SHOW}: " + "; ".join(reasons)

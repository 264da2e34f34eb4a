"""pydantic-ai: deferred tool calls and MCP elicitations answered by the person.

`deferred_tool_handler(queue)` is the handler of a `HandleDeferredToolCalls` capability:
every call of a `requires_approval` tool becomes a `ToolApprovalRequest` (allowed once, for
the session or always, and run with the person's edited arguments if they edited it, unless
the tool refuses those, when it does not run and the model reads why; denied with the
person's reason, which the model reads), and every call a tool deferred with
`CallDeferred(kind="question")` becomes the request in its metadata, or the one its arguments
describe. Calls deferred for outside execution are left to the caller. A cancel stops the run
with `RunCancelled`.

`elicitation_handler(queue)` is the `elicitation_handler` of an `MCPToolset`: the server's
form and URL elicitations are asked as elicit-tui's MCP bridge asks them.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from mcp_types import ElicitRequestParams, ElicitResult, ErrorData
from pydantic import BaseModel, SecretStr, ValidationError
from pydantic_ai.exceptions import ModelRetry, ToolFailed
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import (
    DeferredToolRequests,
    DeferredToolResults,
    RunContext,
    ToolApproved,
    ToolDenied,
)

from tui.core.json_names import fields_by_json_name
from tui.core.models import (
    ChoiceRequest,
    ElicitationResult,
    MultiChoiceRequest,
    Request,
    TextRequest,
    ToolApprovalRequest,
    parse_request,
)
from tui.core.queue import ElicitationQueue
from tui.core.secret_ref import SecretRef
from tui.integrations.ask_all import RunCancelled, ask_all_async
from tui.integrations.claude_code import from_ask_user_question
from tui.integrations.kept_secrets import SecretNotKept, only_stored_secrets
from tui.mcp.client import elicitation_callback

__all__ = [
    "RunCancelled",
    "SecretNotKept",
    "deferred_tool_handler",
    "elicitation_handler",
    "question_request",
]

ONLY_THE_MODEL_READS = (
    "only the model would read (a deferred question's answer is the call's result)"
)

SOURCE = "pydantic-ai"

DeferredHandler = Callable[
    [RunContext[Any], DeferredToolRequests], Awaitable[DeferredToolResults | None]
]
ElicitationHandler = Callable[[str, Any, ElicitRequestParams, Any], Awaitable[ElicitResult]]


def deferred_tool_handler(queue: ElicitationQueue) -> DeferredHandler:
    """A handler for `HandleDeferredToolCalls(handler=...)` that asks the person through `queue`.

    All the run's pending approvals and questions are asked at once.
    """

    async def handle(ctx: RunContext[Any], requests: DeferredToolRequests) -> DeferredToolResults:
        source = ctx.agent.name if ctx.agent is not None and ctx.agent.name else SOURCE
        approvals = [
            (call, _approval(call.tool_name, call.args_as_dict(), call, source))
            for call in requests.approvals
        ]
        questions = [
            (
                call,
                question_request(
                    call.args_as_dict(), requests.metadata.get(call.tool_call_id), source
                ),
            )
            for call in requests.calls
            if requests.kind(call.tool_call_id) == "question"
        ]
        asked: list[tuple[ToolCallPart, Request]] = [*approvals, *questions]
        results = await ask_all_async(queue, [request for _, request in asked])
        answers = {
            call.tool_call_id: result for (call, _), result in zip(asked, results, strict=True)
        }
        return requests.build_results(
            approvals={
                call.tool_call_id: await _approval_result(
                    ctx, call, request, answers[call.tool_call_id]
                )
                for call, request in approvals
            },
            calls={
                call.tool_call_id: _for_model(answers[call.tool_call_id]) for call, _ in questions
            },
        )

    return handle


def elicitation_handler(queue: ElicitationQueue) -> ElicitationHandler:
    """An `MCPToolset(elicitation_handler=...)` asking the server's elicitations through `queue`.

    Elicitations elicit-tui cannot show are refused with an error saying why.
    """
    callback = elicitation_callback(queue, source=SOURCE)

    async def handle(
        message: str, response_type: Any, params: ElicitRequestParams, context: Any
    ) -> ElicitResult:
        answer = await callback(context, params)
        if isinstance(answer, ErrorData):
            raise ValueError(answer.message)
        return answer

    return handle


def question_request(
    arguments: Mapping[str, Any], metadata: Mapping[str, Any] | None = None, source: str = SOURCE
) -> Request:
    """What a deferred question call asks: the request in its metadata's `request` (a
    `Request`, or a dict with a `kind`), else its arguments read as a request (with a `kind`),
    a question batch (`questions`), a choice (`question` with `options`, `multi_select` for
    several) or a text question (`question`).

    Raises `pydantic.ValidationError` (or ValueError) naming what is missing or malformed, and
    `SecretNotKept` for a secret typed in: the answer is the call's result, which only the
    model reads (a secret with `store` is asked, the model reading its keyring entry's name).
    """
    return only_stored_secrets(_asked(arguments, metadata, source), ONLY_THE_MODEL_READS)


def _asked(
    arguments: Mapping[str, Any], metadata: Mapping[str, Any] | None, source: str
) -> Request:
    if metadata and "request" in metadata:
        return _metadata_request(metadata["request"], source)
    if "kind" in arguments:
        return parse_request({"source": source, **arguments})
    if isinstance(arguments.get("questions"), list):
        return from_ask_user_question(arguments, source=source)
    message = arguments.get("question") or arguments.get("message")
    if not isinstance(message, str):
        raise ValueError(f"a question call needs a 'question', got {sorted(arguments)}")
    options = arguments.get("options")
    if options:
        kind = MultiChoiceRequest if arguments.get("multi_select") else ChoiceRequest
        return kind(message=message, options=options, source=source)
    return TextRequest(message=message, source=source)


def _metadata_request(given: Any, source: str) -> Request:
    """The request a tool put in its `CallDeferred` metadata; never the call's arguments
    instead, which would ask a secret's question unmasked."""
    if isinstance(given, Request):
        return given if given.source else given.model_copy(update={"source": source})
    if isinstance(given, Mapping):
        return parse_request({"source": source, **given})
    raise ValueError(
        "a question call's metadata 'request' must be an elicit-tui request or a dict with a"
        f" 'kind', not {type(given).__name__}"
    )


def _approval(
    name: str, arguments: dict[str, Any], call: ToolCallPart, source: str
) -> ToolApprovalRequest:
    return ToolApprovalRequest(
        tool_name=name, arguments=arguments, tool_call_id=call.tool_call_id, source=source
    )


async def _approval_result(
    ctx: RunContext[Any],
    call: ToolCallPart,
    request: ToolApprovalRequest,
    answer: ElicitationResult,
) -> ToolApproved | ToolDenied:
    if request.scope_of(answer) is not None:
        # An edited call runs as edited, never as the model asked (None keeps the model's).
        edited = request.edited_arguments(answer)
        if edited is not None and edited != request.arguments:
            refusal = await _edit_refused(ctx, call, edited)
            if refusal is not None:
                return ToolDenied(refusal)
        return ToolApproved(override_args=edited)
    reason = request.denial_reason(answer)
    return ToolDenied(f"Denied by the user: {reason}") if reason else ToolDenied()


async def _edit_refused(
    ctx: RunContext[Any], call: ToolCallPart, edited: dict[str, Any]
) -> str | None:
    """What the model reads when the tool refuses the arguments the person edited its call
    to (the call does not run), or None if the tool takes them. Checked before approving:
    pydantic-ai would tell the model that its own call was invalid, and count it as a retry."""
    if ctx.tool_manager is None:
        return None
    try:
        await ctx.tool_manager.validate_tool_call(
            replace(call, args=edited), approved=True, wrap_validation_errors=False
        )
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in problem['loc']) or 'arguments'}: {problem['msg']}"
            for problem in error.errors(include_url=False)
        )
    except (ModelRetry, ToolFailed) as error:
        problems = error.message
    else:
        return None
    return (
        "The person allowed this call only with edited arguments, which the tool refused"
        f" ({problems}), so it did not run. The edited arguments: "
        + json.dumps(edited, ensure_ascii=False, sort_keys=True)
    )


def _for_model(answer: ElicitationResult) -> Any:
    """What the model reads as the question's result: the answer, never a secret's value nor
    a sensitive answer (that is the asker's alone)."""
    if not answer.accepted or answer.sensitive:
        return answer.to_llm_text()
    content = answer.content
    if isinstance(content, SecretStr | SecretRef):
        return answer.to_llm_text()
    if isinstance(content, BaseModel):
        content = fields_by_json_name(content)  # the names the form asked with
    if isinstance(content, dict):
        return {
            key: "(secret provided, not shown)"
            if isinstance(value, SecretStr | SecretRef)
            else value
            for key, value in content.items()
        }
    return content

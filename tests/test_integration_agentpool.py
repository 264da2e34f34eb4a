"""AgentPool: a real agent on pydantic-ai's FunctionModel, asking through our InputProvider.

AgentPool needs Python 3.13 or newer, so these tests run in a virtualenv of their own
(`.ci/run` makes `.venv-agentpool` with the `agentpool` extra).
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest

if sys.version_info < (3, 13):
    pytest.skip(
        "AgentPool needs Python 3.13: .ci/run tests it in its own virtualenv (.venv-agentpool)",
        allow_module_level=True,
    )
pytest.importorskip("agentpool", reason="the agentpool extra is not installed")

from agentpool import Agent
from agentpool.tasks.exceptions import RunAbortedError, ToolSkippedError
from mcp_types import ElicitRequestFormParams, ElicitResult
from pydantic import BaseModel
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from tui import (
    ElicitationQueue,
    ElicitationResult,
    FormRequest,
    ScriptedResponder,
    TextRequest,
    ToolApprovalRequest,
)
from tui.integrations.agentpool import InputProvider, RunCancelled

RAN: list[str] = []


def shell(command: str) -> str:
    """Run a shell command."""
    RAN.append(command)
    return f"ran {command}"


def _respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    if not any(isinstance(m, ModelResponse) for m in messages):
        return ModelResponse(parts=[ToolCallPart("shell", {"command": "ls"}, tool_call_id="c1")])
    returns = [
        p.content
        for m in messages
        for p in getattr(m, "parts", [])
        if isinstance(p, ToolReturnPart)
    ]
    return ModelResponse(parts=[TextPart(repr(returns))])


async def _stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    for part in _respond(messages, info).parts:
        if isinstance(part, TextPart):
            yield part.content
        elif isinstance(part, ToolCallPart):
            yield {
                0: DeltaToolCall(
                    name=part.tool_name,
                    json_args=json.dumps(part.args),
                    tool_call_id=part.tool_call_id,
                )
            }


async def _run(queue: ElicitationQueue) -> str:
    RAN.clear()
    agent = Agent(
        "ops",
        model=FunctionModel(_respond, stream_function=_stream),
        tools=[shell],
        input_provider=InputProvider(queue),
        tool_confirmation_mode="always",
    )
    async with agent:
        result = await agent.run("list the files")
    return str(result.content)


async def test_an_allowed_tool_call_runs() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"shell": {"scope": "once"}})
    assert await _run(queue) == "['ran ls']"
    request = scripted.asked[0]
    assert isinstance(request, ToolApprovalRequest)
    assert (request.tool_name, request.arguments) == ("shell", {"command": "ls"})


async def test_a_denied_call_is_skipped_and_a_cancel_aborts_the_run() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"shell": ElicitationResult(action="decline")})
    with pytest.raises(ToolSkippedError):
        await _run(queue)
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"shell": ElicitationResult(action="cancel")})
    with pytest.raises(RunAbortedError):
        await _run(queue)
    assert RAN == []


async def test_a_call_allowed_with_edited_arguments_is_skipped_never_run_as_asked() -> None:
    # AgentPool runs a call only with the model's arguments: never the call the person edited.
    queue = ElicitationQueue()
    edited = {"scope": "once", "arguments": {"command": "ls -la"}}
    ScriptedResponder(queue, {"shell": edited})
    with pytest.raises(ToolSkippedError):
        await _run(queue)
    assert RAN == []


class Booking(BaseModel):
    guests: int
    note: str | None = None


async def test_text_and_structured_input_are_asked_as_text_and_form() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"Your name?": "Ada", "Book": {"guests": 3}})
    provider = InputProvider(queue)
    assert await provider.get_input(None, "Your name?") == "Ada"
    assert await provider.get_input(None, "Book", Booking) == Booking(guests=3)
    assert [type(r) for r in scripted.asked] == [TextRequest, FormRequest]
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Book": ElicitationResult(action="cancel")})
    with pytest.raises(RunCancelled):
        await InputProvider(queue).get_input(None, "Book", Booking)


async def test_an_elicitation_gets_an_mcp_answer() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"How many?": {"n": 2}})
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    params = ElicitRequestFormParams(message="How many?", requested_schema=schema)
    answer = await InputProvider(queue).get_elicitation(params)
    assert answer == ElicitResult(action="accept", content={"n": 2})

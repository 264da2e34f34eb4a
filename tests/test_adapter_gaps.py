"""What framework adapters need from the core: pydantic's own schemas as forms, approvals
without a summary, scripted answers by tool name, the MCP callback without a session."""

from __future__ import annotations

from enum import Enum

import pytest
from mcp_types import ElicitRequestFormParams, ElicitResult, ErrorData
from pydantic import BaseModel, SecretStr, TypeAdapter, ValidationError

from tui import (
    ElicitationQueue,
    ElicitationResult,
    FormRequest,
    ScriptedResponder,
    ToolApprovalRequest,
    UnscriptedRequestError,
)
from tui.mcp.client import elicitation_callback, request_from_params, to_elicit_result


class Size(Enum):
    SMALL = "small"
    LARGE = "large"


class Order(BaseModel):
    dish: str
    size: Size = Size.SMALL
    guests: int | None = None
    note: str | None


class Nested(BaseModel):
    order: Order


class Either(BaseModel):
    value: int | str


def test_pydantic_json_schema_of_a_flat_model_becomes_a_form() -> None:
    request = FormRequest(message="Order?", requested_schema=TypeAdapter(Order).json_schema())
    schema = request.requested_schema
    assert "$defs" not in schema
    assert schema["properties"]["size"] == {
        "enum": ["small", "large"],
        "type": "string",
        "default": "small",
        "title": "Size",
    }
    assert schema["properties"]["guests"] == {"type": "integer", "title": "Guests"}
    # `X | None` is optional, even where pydantic lists it as required
    assert schema["required"] == ["dish"]
    with pytest.raises(ValueError, match="no default for required field: 'dish'"):
        request.default_content()


def test_anything_else_outside_the_subset_is_still_refused_by_name() -> None:
    with pytest.raises(ValidationError, match="property 'order': nested objects"):
        FormRequest(message="x", requested_schema=TypeAdapter(Nested).json_schema())
    with pytest.raises(ValidationError, match="property 'value': unions are not supported"):
        FormRequest(message="x", requested_schema=TypeAdapter(Either).json_schema())
    dangling = {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}
    with pytest.raises(ValidationError, match="property 'a': cannot resolve \\$ref"):
        FormRequest(message="x", requested_schema=dangling)
    with pytest.raises(ValidationError, match="keyword 'allOf' is not supported"):
        FormRequest(
            message="x",
            requested_schema={"type": "object", "$defs": {}, "allOf": [], "properties": {}},
        )


def test_a_subset_schema_is_kept_as_given() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert FormRequest(message="x", requested_schema=schema).requested_schema == schema


def test_an_approval_without_a_summary_names_the_call() -> None:
    request = ToolApprovalRequest(
        tool_name="shell", arguments={"command": "pytest -q", "timeout": 30}, tool_call_id="c1"
    )
    assert request.summary == 'shell(command="pytest -q", timeout=30)'
    assert request.message == request.summary
    long = ToolApprovalRequest(
        tool_name="write", arguments={"text": "x\n" * 200}, tool_call_id="c2"
    )
    assert len(long.summary) == 120 and long.summary.endswith("…") and "\n" not in long.summary


def test_scripted_responder_answers_approvals_by_tool_name() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(
        queue,
        {
            "shell": {"scope": "session"},
            "delete": ElicitationResult(action="decline", content={"reason": "never"}),
        },
    )
    shell = queue.ask(ToolApprovalRequest(tool_name="shell", tool_call_id="1"))
    delete = queue.ask(ToolApprovalRequest(tool_name="delete", tool_call_id="2"))
    assert shell.content == {"scope": "session"}
    assert (delete.action, delete.content) == ("decline", {"reason": "never"})
    with pytest.raises(UnscriptedRequestError, match="write"):
        queue.ask(ToolApprovalRequest(tool_name="write", tool_call_id="3"))


SCHEMA = {
    "type": "object",
    "properties": {"token": {"type": "string", "format": "password"}, "n": {"type": "integer"}},
}


async def test_the_mcp_callback_works_without_a_context() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"Token?": {"token": SecretStr("s3cret"), "n": 2}})
    callback = elicitation_callback(queue, source="my-host")
    params = ElicitRequestFormParams(message="Token?", requested_schema=SCHEMA)
    result = await callback(None, params)  # type: ignore[arg-type]
    assert result == ElicitResult(action="accept", content={"token": "s3cret", "n": 2})
    assert scripted.asked[0].source == "my-host"


def test_the_answer_conversion_is_public() -> None:
    params = ElicitRequestFormParams(message="Token?", requested_schema=SCHEMA)
    request = request_from_params(params)
    assert isinstance(request, FormRequest)
    declined = to_elicit_result(request, ElicitationResult(action="decline"))
    assert declined == ElicitResult(action="decline")
    wrong = to_elicit_result(request, ElicitationResult(action="accept", content={"n": "two"}))
    assert isinstance(wrong, ErrorData) and "property 'n'" in wrong.message

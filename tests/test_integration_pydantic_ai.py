"""pydantic-ai: a real Agent on FunctionModel, its deferred calls and MCP elicitations answered."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="the pydantic-ai extra is not installed")

from fastmcp.client.transports import StdioTransport
from pydantic import BaseModel, Field, SecretStr
from pydantic_ai import Agent, CallDeferred
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from stopping_front_end import EndsTheSecond

from tui import (
    ChoiceRequest,
    ElicitationQueue,
    ElicitationResult,
    FormRequest,
    KeyringTarget,
    QuestionsRequest,
    ScriptedResponder,
    SecretRequest,
    ToolApprovalRequest,
)
from tui.approvals.rules import ApprovalPolicy
from tui.integrations.pydantic_ai import (
    RunCancelled,
    SecretNotKept,
    deferred_tool_handler,
    elicitation_handler,
)

CANARY = "sk-canary-3f9a"


def _returns(messages: list[ModelMessage]) -> list[Any]:
    """Every tool result the model was sent, in order."""
    return [
        part.content
        for message in messages
        for part in getattr(message, "parts", [])
        if isinstance(part, ToolReturnPart)
    ]


def scripted_model(*calls: tuple[str, dict[str, Any]]) -> FunctionModel:
    """Makes each call in turn (one model response each), then answers with the tool results."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        made = sum(1 for m in messages if isinstance(m, ModelResponse))
        if made < len(calls):
            name, args = calls[made]
            return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"call{made}")])
        return ModelResponse(parts=[TextPart(repr(_returns(messages)))])

    return FunctionModel(respond)


def _agent(model: FunctionModel, queue: ElicitationQueue) -> Agent[None, str]:
    agent = Agent(
        model, name="helper", capabilities=[HandleDeferredToolCalls(deferred_tool_handler(queue))]
    )

    @agent.tool_plain(requires_approval=True)
    def shell(command: str) -> str:
        return f"ran {command}"

    @agent.tool_plain
    def ask_user(question: str, options: list[str] | None = None) -> str:
        raise CallDeferred(kind="question")

    @agent.tool_plain
    def ask_batch(questions: list[dict[str, Any]]) -> str:
        raise CallDeferred(kind="question")

    @agent.tool_plain
    def ask_secret(message: str) -> str:
        raise CallDeferred(
            kind="question", metadata={"request": {"kind": "secret", "message": message}}
        )

    @agent.tool_plain
    def ask_secret_to_store(message: str) -> str:
        request = {"kind": "secret", "message": message, "store": {"service": "s", "username": "u"}}
        raise CallDeferred(kind="question", metadata={"request": request})

    @agent.tool_plain
    def ask_secret_as_object(message: str) -> str:
        raise CallDeferred(kind="question", metadata={"request": SecretRequest(message=message)})

    @agent.tool_plain
    def ask_secret_to_store_as_object(message: str) -> str:
        request = SecretRequest(message=message, store=KeyringTarget(service="s", username="u"))
        raise CallDeferred(kind="question", metadata={"request": request})

    @agent.tool_plain
    def ask_profile_as_object(message: str) -> str:
        request = FormRequest.from_model(Profile, message=message)
        raise CallDeferred(kind="question", metadata={"request": request})

    @agent.tool_plain
    def ask_with_odd_metadata(message: str) -> str:
        raise CallDeferred(kind="question", metadata={"request": message})

    @agent.tool_plain
    def ask_privately(message: str) -> str:
        request = {"kind": "text", "message": message, "sensitive": True}
        raise CallDeferred(kind="question", metadata={"request": request})

    return agent


def test_an_approved_call_runs_and_a_denied_one_tells_the_model_why() -> None:
    queue = ElicitationQueue()
    answers = {
        'shell(command="ls")': {"scope": "once"},
        'shell(command="rm -rf /")': ElicitationResult(action="decline", content={"reason": "no"}),
    }
    scripted = ScriptedResponder(queue, answers)
    model = scripted_model(("shell", {"command": "ls"}), ("shell", {"command": "rm -rf /"}))
    output = _agent(model, queue).run_sync("tidy up").output
    assert output == repr(["ran ls", "Denied by the user: no"])
    assert all(isinstance(r, ToolApprovalRequest) for r in scripted.asked)
    assert [r.source for r in scripted.asked] == ["helper", "helper"]


IMPOSSIBLE_EDIT = """
from pydantic_ai import Agent
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.models.test import TestModel

from tui import ElicitationQueue, ScriptedResponder
from tui.integrations.pydantic_ai import deferred_tool_handler

queue = ElicitationQueue()
ScriptedResponder(queue, {"shell": {"scope": "session", "arguments": {"command": "pwd"}}})
handler = HandleDeferredToolCalls(deferred_tool_handler(queue))
agent = Agent(TestModel(call_tools=["shell"]), capabilities=[handler])


@agent.tool_plain(requires_approval=True)
def shell(command: str) -> str:
    return command


try:
    agent.run_sync("look")
except Exception as error:
    print(type(error).__name__)
"""
"""A run whose scripted approval is one no person could give (edited arguments for the
session), in a process of its own: what asyncio logs as it ends is on its stderr."""


def test_an_answer_a_script_could_not_give_raises_once_and_leaves_nothing_unretrieved() -> None:
    # asyncio also logged "Future exception was never retrieved" with the whole traceback.
    ran = subprocess.run(
        [sys.executable, "-c", IMPOSSIBLE_EDIT], capture_output=True, text=True, timeout=120
    )
    assert (ran.stdout, ran.stderr) == ("ImpossibleAnswerError\n", "")


def test_an_edited_call_runs_with_the_edited_arguments_only() -> None:
    queue = ElicitationQueue()
    edited = {"scope": "once", "arguments": {"command": "echo safe"}}
    ScriptedResponder(queue, {'shell(command="rm -rf /")': edited})
    output = _agent(scripted_model(("shell", {"command": "rm -rf /"})), queue).run_sync("go").output
    assert output == repr(["ran echo safe"])


def test_edited_arguments_the_tool_refuses_are_reported_as_the_persons_not_run() -> None:
    queue = ElicitationQueue()
    edited = {"scope": "once", "arguments": {"cmd": "echo safe"}}
    ScriptedResponder(queue, {'shell(command="rm -rf /")': edited})
    output = _agent(scripted_model(("shell", {"command": "rm -rf /"})), queue).run_sync("go").output
    assert output == repr(
        [
            "The person allowed this call only with edited arguments, which the tool refused"
            " (command: Field required; cmd: Extra inputs are not permitted), so it did not"
            ' run. The edited arguments: {"cmd": "echo safe"}'
        ]
    )


def test_a_session_approval_is_honoured_on_the_next_call() -> None:
    queue = ElicitationQueue()
    ApprovalPolicy(persistent=False).attach(queue)
    answered: list[str | None] = []
    queue.subscribe(
        lambda e: answered.append(e.result.reason) if e.result else None, front_end=False
    )
    ScriptedResponder(queue, {"shell": {"scope": "session"}})
    model = scripted_model(("shell", {"command": "ls"}), ("shell", {"command": "pwd"}))
    output = _agent(model, queue).run_sync("look").output
    assert output == repr(["ran ls", "ran pwd"])
    assert answered == [None, "auto_approved"]  # the person, then the remembered rule


def test_question_calls_become_requests_of_their_kind_and_secrets_stay_out_of_the_model() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"Which region?": "us", "API key?": SecretStr(CANARY)})
    model = scripted_model(
        ("ask_user", {"question": "Which region?", "options": ["eu", "us"]}),
        ("ask_secret_to_store", {"message": "API key?"}),
    )
    result = _agent(model, queue).run_sync("set up")
    assert [type(r) for r in scripted.asked] == [ChoiceRequest, SecretRequest]
    assert result.output == repr(["us", "The user stored the secret as keyring entry s/u."])
    assert CANARY not in repr(result.all_messages())


def test_a_stored_secret_reaches_the_model_as_the_sentence_naming_its_keyring_entry() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"API key?": SecretStr(CANARY)})
    model = scripted_model(("ask_secret_to_store", {"message": "API key?"}))
    result = _agent(model, queue).run_sync("set up")
    assert result.output == repr(["The user stored the secret as keyring entry s/u."])
    assert CANARY not in repr(result.all_messages())


def test_a_request_object_in_the_metadata_is_asked_as_itself() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"API key?": SecretStr(CANARY)})
    model = scripted_model(("ask_secret_to_store_as_object", {"message": "API key?"}))
    result = _agent(model, queue).run_sync("set up")
    [asked] = scripted.asked
    assert isinstance(asked, SecretRequest) and asked.source == "helper"
    # One the keyring refuses cannot be kept in memory: nothing would hold it.
    assert asked.memory_fallback is False
    assert result.output == repr(["The user stored the secret as keyring entry s/u."])
    assert CANARY not in repr(result.all_messages())


class Profile(BaseModel):
    name: str = Field(alias="fullName")
    replicas: int = Field(validation_alias="count")


def test_a_form_from_a_model_reaches_the_model_under_the_names_it_asked_with() -> None:
    # It read {"name": "Ada", "replicas": 3}: names the form never asked with.
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Who?": {"fullName": "Ada", "count": 3}})
    model = scripted_model(("ask_profile_as_object", {"message": "Who?"}))
    result = _agent(model, queue).run_sync("set up")
    assert result.output == repr([{"fullName": "Ada", "count": 3}])


def test_metadata_holding_no_request_is_refused_not_asked_from_the_arguments() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {})
    model = scripted_model(("ask_with_odd_metadata", {"message": "API key?"}))
    with pytest.raises(ValueError, match="metadata 'request' must be an elicit-tui request"):
        _agent(model, queue).run_sync("set up")
    assert scripted.asked == []


def test_a_batch_question_with_multi_select_takes_several_answers() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"Which extras?": ["auth", "jobs"]})
    question = {
        "question": "Which extras?",
        "header": "Extras",
        "options": [{"label": "auth"}, {"label": "jobs"}, {"label": "cache"}],
        "multi_select": True,
    }
    result = _agent(scripted_model(("ask_batch", {"questions": [question]})), queue).run_sync("go")
    [asked] = scripted.asked
    assert isinstance(asked, QuestionsRequest) and asked.questions[0].multi_select
    assert result.output == repr([{"answers": {"Which extras?": ["auth", "jobs"]}, "notes": {}}])


@pytest.mark.parametrize("tool", ["ask_secret", "ask_secret_as_object", "ask_privately"])
def test_a_secret_only_the_model_would_read_is_refused_before_anyone_is_asked(tool: str) -> None:
    # The answer is the call's result: nothing else would hold the secret, and the model is
    # never told it. It was asked, and the model told "it is held by the program".
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"PIN?": "1234-CANARY"})
    with pytest.raises(SecretNotKept, match="only the model would read"):
        _agent(scripted_model((tool, {"message": "PIN?"})), queue).run_sync("go")
    assert scripted.asked == []


def together(*calls: tuple[str, dict[str, Any]]) -> FunctionModel:
    """Makes every call in one model response (ids call0, call1, ...), then answers "done"."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(isinstance(m, ModelResponse) for m in messages):
            return ModelResponse(parts=[TextPart("done")])
        parts = [ToolCallPart(n, a, tool_call_id=f"call{i}") for i, (n, a) in enumerate(calls)]
        return ModelResponse(parts=parts)

    return FunctionModel(respond)


def test_a_call_id_already_waiting_stops_the_run_and_leaves_none_of_its_questions() -> None:
    queue = ElicitationQueue()
    queue.subscribe(lambda event: None)  # a front end that has not answered yet
    other_run = ToolApprovalRequest(tool_name="shell", tool_call_id="call1")
    queue.submit(other_run)
    model = together(("shell", {"command": "ls"}), ("shell", {"command": "pwd"}))
    with pytest.raises(ValueError, match="'toolApproval:call1' is already waiting"):
        _agent(model, queue).run_sync("look")
    assert [r.id for r in queue.pending()] == [other_run.id]


def test_the_run_stops_at_once_when_a_later_question_is_cancelled() -> None:
    queue = ElicitationQueue()
    front_end = EndsTheSecond(queue, ElicitationResult(action="cancel"))
    model = together(("ask_user", {"question": "First?"}), ("ask_user", {"question": "Second?"}))
    error = front_end.run(lambda: _agent(model, queue).run_sync("ask"))
    first, second = front_end.asked
    assert isinstance(error, RunCancelled) and error.request.id == second.id
    # withdrawn as the run stopped, not left waiting for the person
    assert front_end.ended[first.id] == ElicitationResult(
        action="cancel", reason="cancelled_by_agent"
    )


def test_a_cancel_stops_the_run() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"shell": ElicitationResult(action="cancel")})
    with pytest.raises(RunCancelled):
        _agent(scripted_model(("shell", {"command": "ls"})), queue).run_sync("go")


SERVER = Path(__file__).with_name("mcp_test_server.py")


# pydantic-ai warns so on modern sessions, yet answers their input_required rounds with it
@pytest.mark.filterwarnings("ignore:`elicitation_handler` will never be called")
def test_an_mcp_servers_elicitation_is_answered_through_the_queue() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"Who is coming?": {"name": "Ada", "guests": 3}})
    toolset = MCPToolset(
        StdioTransport(command=sys.executable, args=[str(SERVER)]),
        elicitation_handler=elicitation_handler(queue),
    )
    agent = Agent(scripted_model(("form", {"case": "typed"})), toolsets=[toolset])
    output = agent.run_sync("book").output
    assert isinstance(scripted.asked[0], FormRequest)
    assert scripted.asked[0].source == "test-elicitor"
    assert "'name': 'Ada'" in output and "'guests': 3" in output and "'action': 'accept'" in output

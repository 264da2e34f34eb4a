"""LangGraph: a real compiled graph whose nodes interrupt, answered through the queue."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, TypedDict

import pytest

pytest.importorskip("langgraph", reason="the langgraph extra is not installed")

from app_driver import SIZE, wait_for, wait_for_modal
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
from pydantic import BaseModel, SecretStr
from stopping_front_end import EndsTheSecond
from textual.widgets import Static

from tui import (
    KEYRING_UNAVAILABLE,
    ChoiceRequest,
    ElicitationApp,
    ElicitationQueue,
    ElicitationResult,
    FormRequest,
    ImpossibleAnswerError,
    ScriptedResponder,
    SecretRef,
    TextRequest,
)
from tui.core.queue import QueueEvent
from tui.integrations.langgraph import (
    RunCancelled,
    RunDeclined,
    SecretNotKept,
    arun_graph,
    run_graph,
)
from tui.secrets.memory_keyring import memory_keyring
from widgets.secret import SecretModal


class Booking(BaseModel):
    guests: int
    note: str | None


class Deploy(BaseModel):
    target: str


class State(TypedDict, total=False):
    name: Any
    booking: Any
    region: Any
    deploy: Any


def _graph(*nodes: tuple[str, Any]) -> Any:
    """Nodes run in parallel from START; the graph keeps its checkpoints in memory."""
    builder = StateGraph(State)
    for name, node in nodes:
        builder.add_node(name, node)
        builder.add_edge(START, name)
        builder.add_edge(name, END)
    return builder.compile(checkpointer=InMemorySaver())


def ask_name(state: State) -> State:
    return {"name": interrupt("What is your name?")}


def ask_booking(state: State) -> State:
    return {"booking": interrupt({"message": "Book a table"}, response_schema=Booking)}


def ask_region(state: State) -> State:
    request = ChoiceRequest(message="Which region?", options=["eu", "us"])
    return {"region": interrupt(request.model_dump())}


def test_parallel_interrupts_are_asked_together_and_resumed_in_one_pass() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(
        queue, {"What is your name?": "Ada", "Book a table": {"guests": 4}, "Which region?": "us"}
    )
    graph = _graph(("name", ask_name), ("booking", ask_booking), ("region", ask_region))
    output = run_graph(graph, {}, queue)
    kinds = {type(r).__name__ for r in scripted.asked}
    assert kinds == {"TextRequest", "FormRequest", "ChoiceRequest"}
    assert len(scripted.asked) == 3  # one pass: nothing asked twice
    assert output["name"] == "Ada"
    assert output["booking"] == Booking(guests=4, note=None)
    assert output["region"] == {"action": "accept", "content": "us", "reason": None}


def test_a_response_schema_becomes_a_form_of_the_subset() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"Book a table": {"guests": 2, "note": "window"}})
    output = run_graph(_graph(("booking", ask_booking)), {}, queue)
    form = scripted.asked[0]
    assert isinstance(form, FormRequest) and form.requested_schema["required"] == ["guests"]
    assert output["booking"] == Booking(guests=2, note="window")


def test_a_decline_resumes_with_none_and_a_cancel_stops_the_run() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"What is your name?": ElicitationResult(action="decline")})
    assert run_graph(_graph(("name", ask_name)), {}, queue)["name"] is None
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"What is your name?": ElicitationResult(action="cancel")})
    graph = _graph(("name", ask_name))
    config = {"configurable": {"thread_id": "cancelled"}}
    with pytest.raises(RunCancelled, match="What is your name"):
        run_graph(graph, {}, queue, config)
    # the graph is still waiting at its checkpoint
    assert graph.get_state(config).interrupts[0].value == "What is your name?"


def test_a_declined_form_stops_the_run_and_the_graph_keeps_waiting() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Deploy where?": ElicitationResult(action="decline")})
    graph = _graph(("deploy", ask_deploy))
    config = {"configurable": {"thread_id": "declined"}}
    with pytest.raises(RunDeclined, match=r"declined to answer 'Deploy where\?'") as stopped:
        run_graph(graph, {}, queue, config)
    assert isinstance(stopped.value, RunCancelled) and stopped.value.result.action == "decline"
    assert graph.get_state(config).interrupts[0].value == "Deploy where?"


def ask_deploy(state: State) -> State:
    return {"deploy": interrupt("Deploy where?", response_schema=Deploy)}


@pytest.mark.parametrize(
    ("ask_second", "ending", "stop"),
    [
        (ask_region, ElicitationResult(action="cancel"), RunCancelled),
        (ask_deploy, ElicitationResult(action="decline"), RunDeclined),
    ],
    ids=["cancelled", "declined form"],
)
def test_the_run_stops_at_once_when_a_later_question_ends_it(
    ask_second: Any, ending: ElicitationResult, stop: type[RunCancelled]
) -> None:
    queue = ElicitationQueue()
    front_end = EndsTheSecond(queue, ending)
    graph = _graph(("name", ask_name), ("second", ask_second))
    error = front_end.run(lambda: run_graph(graph, {}, queue))
    first, second = front_end.asked
    assert first.message == "What is your name?"
    assert type(error) is stop and error.request.id == second.id
    # withdrawn as the run stopped, not left waiting for the person
    assert front_end.ended[first.id] == ElicitationResult(
        action="cancel", reason="cancelled_by_agent"
    )


def test_an_id_already_waiting_stops_the_run_and_leaves_none_of_its_questions() -> None:
    def ask(message: str) -> Any:
        return lambda state: {message: interrupt({"kind": "text", "message": message, "id": "x"})}

    queue = ElicitationQueue()
    queue.subscribe(lambda event: None)  # a front end that has not answered yet
    graph = _graph(("name", ask("name")), ("region", ask("region")))
    with pytest.raises(ValueError, match="'x' is already waiting"):
        run_graph(graph, {}, queue)
    assert queue.pending() == []


async def async_ask_name(state: State) -> State:
    await asyncio.sleep(0)  # a node that awaits, as one calling a model does
    return {"name": interrupt("What is your name?")}


async def async_ask_region(state: State) -> State:
    await asyncio.sleep(0)
    request = ChoiceRequest(message="Which region?", options=["eu", "us"])
    return {"region": interrupt(request.model_dump())}


def test_an_async_graph_is_asked_and_resumed_in_one_pass() -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {"What is your name?": "Ada", "Which region?": "eu"})
    graph = _graph(("name", async_ask_name), ("region", async_ask_region))
    output = asyncio.run(arun_graph(graph, {}, queue))
    assert len(scripted.asked) == 2  # one pass: nothing asked twice
    assert output["name"] == "Ada"
    assert output["region"] == {"action": "accept", "content": "eu", "reason": None}


def test_an_async_run_leaves_the_event_loop_free_while_the_person_thinks() -> None:
    """Answered 0.3 s after it is asked: the loop's other tasks run meanwhile."""
    queue = ElicitationQueue()

    def answer_later(event: QueueEvent) -> None:
        if event.type == "requested":
            request_id = event.request.id
            accept = ElicitationResult(action="accept", content="Ada")
            threading.Timer(0.3, queue.respond, (request_id, accept)).start()

    queue.subscribe(answer_later)

    async def run() -> tuple[Any, int]:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        output = await arun_graph(_graph(("name", async_ask_name)), {}, queue)
        ticker.cancel()
        return output, ticks

    output, ticks = asyncio.run(run())
    assert output == {"name": "Ada"}
    assert ticks >= 10


def test_an_async_run_stops_at_once_when_a_later_question_is_cancelled() -> None:
    queue = ElicitationQueue()
    front_end = EndsTheSecond(queue, ElicitationResult(action="cancel"))
    graph = _graph(("name", async_ask_name), ("region", async_ask_region))
    error = front_end.run(lambda: asyncio.run(arun_graph(graph, {}, queue)))
    first, second = front_end.asked
    assert type(error) is RunCancelled and error.request.id == second.id
    assert front_end.ended[first.id] == ElicitationResult(
        action="cancel", reason="cancelled_by_agent"
    )


def test_a_graph_without_interrupts_just_runs() -> None:
    graph = _graph(("name", lambda state: {"name": "fixed"}))
    assert run_graph(graph, {}, ElicitationQueue()) == {"name": "fixed"}


@pytest.mark.parametrize(
    ("node", "run"),
    [
        (ask_name, lambda graph, queue: run_graph(graph, {}, queue)),
        (async_ask_name, lambda graph, queue: asyncio.run(arun_graph(graph, {}, queue))),
    ],
    ids=["run_graph", "arun_graph"],
)
async def test_the_person_answers_the_graph_in_the_app(node: Any, run: Any) -> None:
    queue = ElicitationQueue()
    graph = _graph(("name", node))
    app = ElicitationApp(queue, lambda q: run(graph, q), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "What is your name?")
        assert isinstance(modal.request, TextRequest)
        for key in "Grace":
            await pilot.press(key)
        await pilot.press("enter")
        for _ in range(200):
            if app.agent_result is not None:
                break
            await pilot.pause(0.02)
    assert app.agent_result == {"name": "Grace"}


@pytest.mark.parametrize(
    "value",
    [
        {"kind": "secret", "message": "API key?"},
        {"kind": "text", "message": "PIN?", "sensitive": True},
        {
            "kind": "form",
            "message": "Log in",
            "requested_schema": {
                "type": "object",
                "properties": {"password": {"type": "string", "format": "password"}},
            },
        },
    ],
    ids=["secret", "sensitive", "password field"],
)
def test_a_secret_the_checkpointer_would_keep_is_refused_before_anyone_is_asked(
    value: dict[str, Any],
) -> None:
    graph = _graph(("ask", lambda state: {"name": interrupt(value)}))
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {})
    with pytest.raises(SecretNotKept, match="checkpointer"):
        run_graph(graph, {}, queue)
    assert scripted.asked == []


SECRET_TO_STORE = {
    "kind": "secret",
    "message": "API key?",
    "store": {"service": "s", "username": "u"},
}


def ask_secret(state: State) -> State:
    return {"name": interrupt(SECRET_TO_STORE)}


def test_a_secret_for_the_keyring_never_reaches_the_checkpointer_as_its_value() -> None:
    canary = "sk-CANARY-graph"
    graph = _graph(("ask", ask_secret))
    queue = ElicitationQueue()
    # Stored, as the app stores it: the run goes on with the entry's name, plain data that
    # the checkpoint gives back as it was.
    ScriptedResponder(queue, {"API key?": SecretStr(canary)})
    config = {"configurable": {"thread_id": "stored"}}
    with memory_keyring():
        output = run_graph(graph, {}, queue, config)
        entry = {"service": "s", "username": "u"}
        assert output["name"]["content"] == entry
        checkpointed = graph.get_state(config).values["name"]["content"]
        assert type(checkpointed) is dict and checkpointed == entry
        assert SecretRef(**checkpointed).get().get_secret_value() == canary
    assert canary not in repr(vars(graph.checkpointer))

    # A value the keyring could not take, which a front end other than the app kept in
    # memory all the same: not resumed at all.
    graph = _graph(("ask", ask_secret))
    queue = ElicitationQueue()
    kept = ElicitationResult(action="accept", content=SecretStr(canary), reason=KEYRING_UNAVAILABLE)
    queue.subscribe(lambda e: queue.respond(e.request.id, kept) if e.type == "requested" else None)
    output = run_graph(graph, {}, queue)
    assert output["name"] == {"action": "accept", "content": None, "reason": KEYRING_UNAVAILABLE}
    assert canary not in repr(vars(graph.checkpointer))


def stopped_by(graph: Any, queue: ElicitationQueue) -> Any:
    """The graph's output, or the result that stopped its run."""
    try:
        return run_graph(graph, {}, queue)
    except RunCancelled as stopped:
        return stopped.result


async def test_a_secret_the_keyring_refuses_can_only_be_cancelled(no_keyring: object) -> None:
    graph = _graph(("ask", ask_secret))
    app = ElicitationApp(ElicitationQueue(), lambda q: stopped_by(graph, q), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "API key?")
        assert isinstance(modal, SecretModal)
        await wait_for(pilot, lambda: bool(modal.query("#keyring-warning")))
        warning = modal.query_one("#keyring-warning", Static)
        # Nothing said of keeping it in memory: the graph could not.
        assert str(warning.content) == "⚠ No usable keyring: the secret cannot be saved here."
        await pilot.press(*"sk-CANARY-graph", "enter")
        await wait_for(pilot, lambda: modal.choosing)
        assert not modal.query("#keep-in-memory")
        await pilot.press("enter")  # on the one way out: cancel
        await wait_for(pilot, lambda: app.agent_result is not None)
    assert app.agent_result == ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE)


def test_a_script_cannot_keep_in_memory_what_the_dialog_would_not_offer_to() -> None:
    queue = ElicitationQueue()
    kept = ElicitationResult(action="accept", content="sk-x", reason=KEYRING_UNAVAILABLE)
    ScriptedResponder(queue, {"API key?": kept})
    with pytest.raises(ImpossibleAnswerError, match="memory_fallback=False"):
        run_graph(_graph(("ask", ask_secret)), {}, queue)

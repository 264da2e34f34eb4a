"""LangGraph: run a compiled graph and answer every `interrupt(value)` through the queue.

An interrupt's value decides what is asked: an elicit-tui request (a dict with a `kind`, or a
`Request`) is asked as is and resumed with its result as a dict (`action`, `content`,
`reason`), its content JSON data; a `response_schema` (a pydantic type or JSON Schema)
becomes a form resumed with its content; a string, or anything else, becomes a text question
resumed with the text. A declined text resumes with None. A declined form stops the run with
`RunDeclined`: LangGraph checks the resume value against the `response_schema` inside the
node, where None fails, and a value it accepts would be an answer the person did not give. A
cancel stops the run with `RunCancelled`. The run stops as soon as one of the interrupts
asked together is cancelled or its form declined, withdrawing the others, and sends none of
that pass's answers, so the graph stays interrupted at its checkpoint.

LangGraph writes every resume value to its checkpointer, so an interrupt that asks for a
secret (a secret request without `store`, a form with a password field, a `sensitive`
request) is refused with `SecretNotKept` before anyone is asked; a secret request with
`store` resumes with the keyring entry's name as its content, `{"service": ...,
"username": ...}`, and `SecretRef(**content).get()` reads the secret. If the keyring cannot
store it, the person can only cancel (never keep it in memory). LangGraph checkpoints the
interrupt's value too, and a `Request` object there is a type its serializer does not know,
which it warns it will refuse to read back: interrupt with `request.model_dump(mode="json")`.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from langgraph.types import Command, Interrupt
from pydantic import BaseModel, SecretStr, TypeAdapter
from pydantic_core import to_jsonable_python

from tui.core.models import (
    ElicitationResult,
    FormRequest,
    Request,
    TextRequest,
    parse_request,
)
from tui.core.queue import ElicitationQueue
from tui.integrations.ask_all import Check, RunCancelled, ask_all, ask_all_async
from tui.integrations.kept_secrets import SecretNotKept, only_stored_secrets

__all__ = [
    "RunCancelled",
    "RunDeclined",
    "SecretNotKept",
    "arun_graph",
    "request_for_interrupt",
    "run_graph",
]

SOURCE = "langgraph"


class RunDeclined(RunCancelled):
    """The person declined an interrupt with a `response_schema`, so the run stops as on a
    cancel (a `RunCancelled`, with `request` and `result`)."""

    def __init__(self, request: Request, result: ElicitationResult) -> None:
        super().__init__(request, result)
        self.args = (f"the person declined to answer {request.message!r}",)


def run_graph(
    graph: Any, input: Any, queue: ElicitationQueue, config: Mapping[str, Any] | None = None
) -> Any:
    """Invoke `graph` with `input` and resume it until no interrupt is left; its final output.

    The interrupts raised together (parallel branches) are all asked at once and resumed with
    one `Command(resume={interrupt id: answer})`. Without a `thread_id` in `config`, a new
    one is used. The graph needs a checkpointer, as every interrupting graph does.
    """
    run_config = _run_config(config)
    output = graph.invoke(input, run_config)
    while interrupts := _interrupts(output):
        requests = [request_for_interrupt(i) for i in interrupts]
        answers = ask_all(queue, requests, _stop_on_declined_form(interrupts, requests))
        output = graph.invoke(_resume(interrupts, answers), run_config)
    return output


async def arun_graph(
    graph: Any, input: Any, queue: ElicitationQueue, config: Mapping[str, Any] | None = None
) -> Any:
    """`run_graph` for a graph run on an event loop (async nodes, async tools): `ainvoke`, and
    the questions waited for without blocking the loop."""
    run_config = _run_config(config)
    output = await graph.ainvoke(input, run_config)
    while interrupts := _interrupts(output):
        requests = [request_for_interrupt(i) for i in interrupts]
        check = _stop_on_declined_form(interrupts, requests)
        answers = await ask_all_async(queue, requests, check)
        output = await graph.ainvoke(_resume(interrupts, answers), run_config)
    return output


def _run_config(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """`config` with a new `thread_id` if it has none."""
    run_config = dict(config or {})
    configurable = dict(run_config.get("configurable") or {})
    configurable.setdefault("thread_id", uuid.uuid4().hex)
    run_config["configurable"] = configurable
    return run_config


def _resume(interrupts: list[Interrupt], answers: list[ElicitationResult]) -> Command[Any]:
    """The command that resumes every interrupt of a pass with its answer."""
    resume = {i.id: _resume_value(i, answer) for i, answer in zip(interrupts, answers, strict=True)}
    return Command(resume=resume)


def request_for_interrupt(interrupt: Interrupt) -> Request:
    """The question an interrupt asks (see the module's docstring); ValidationError if
    malformed, `SecretNotKept` if it asks for a secret the checkpointer would keep."""
    value = interrupt.value
    if isinstance(value, BaseModel) and hasattr(value, "kind"):
        request: Request = value  # type: ignore[assignment]
    elif isinstance(value, Mapping) and "kind" in value:
        request = parse_request({"source": SOURCE, **value})
    elif (schema := _json_schema(interrupt)) is not None:
        request = FormRequest(message=_message(value), requested_schema=schema, source=SOURCE)
    else:
        request = TextRequest(message=_message(value), source=SOURCE)
    return only_stored_secrets(request, "LangGraph would write to its checkpointer")


def _json_schema(interrupt: Interrupt) -> dict[str, Any] | None:
    schema = interrupt.response_schema
    if isinstance(schema, type):
        return TypeAdapter(schema).json_schema()
    return schema


def _interrupts(output: Any) -> list[Interrupt]:
    if isinstance(output, Mapping):
        return list(output.get("__interrupt__") or ())
    return []


def _message(value: Any) -> str:
    if isinstance(value, str) and value.strip():
        return value
    if isinstance(value, Mapping):
        for key in ("message", "question", "prompt"):
            if isinstance(value.get(key), str) and value[key].strip():
                return str(value[key])
    return json.dumps(value, default=str) if value is not None else "The graph asks for input"


def _stop_on_declined_form(interrupts: list[Interrupt], requests: list[Request]) -> Check:
    """An `ask_all` check raising `RunDeclined` as soon as the person declines a form asked
    for a `response_schema`."""
    forms = {
        request.id
        for interrupt, request in zip(interrupts, requests, strict=True)
        if interrupt.response_schema is not None and not _is_request(interrupt.value)
    }

    def check(request: Request, result: ElicitationResult) -> None:
        # The Interrupt holds a JSON Schema even for a pydantic type, which LangGraph still
        # checks the resume value against, so whether None would pass cannot be known here.
        if request.id in forms and result.action == "decline":
            raise RunDeclined(request, result)

    return check


def _is_request(value: Any) -> bool:
    """Whether an interrupt's value is an elicit-tui request, asked as itself."""
    return (isinstance(value, BaseModel) and hasattr(value, "kind")) or (
        isinstance(value, Mapping) and "kind" in value
    )


def _resume_value(interrupt: Interrupt, result: ElicitationResult) -> Any:
    """What `interrupt` is resumed with: a result `ask_all` let through (not a cancel, nor a
    declined form)."""
    value = interrupt.value
    if _is_request(value):
        # A secret's value never: the checkpointer writes the resume value down. A stored one
        # is its reference; one a front end kept in memory all the same resumes as None.
        content = None if isinstance(result.content, SecretStr) else result.content
        # JSON data, so the node reads back from any checkpoint what it got (LangGraph reads
        # a type it does not know as a dict, or refuses it, in strict mode)
        return {
            "action": result.action,
            "content": to_jsonable_python(content),
            "reason": result.reason,
        }
    if not result.accepted:
        return None
    content = result.content
    schema = _json_schema(interrupt)
    if isinstance(content, dict) and schema is not None:
        # an `X | None` field pydantic lists as required is optional in the form: left empty, None
        missing = [n for n in schema.get("required", ()) if n not in content]
        content = dict.fromkeys(missing) | content
    return content

"""Bad or huge requests are refused at the model boundary with a ValidationError, never a crash."""

from __future__ import annotations

import contextlib
import json
import math
from typing import Any

import pytest
from app_driver import SIZE, wait_for_modal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tui import ElicitationApp, ElicitationQueue, RemoteQueue, TextRequest, parse_request
from tui.cli.ask import EXIT_INVALID, main
from tui.core.limits import MAX_DEPTH, MAX_ITEMS, MAX_PROPERTIES, MAX_TEXT, MAX_TIMEOUT


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def form(prop: dict[str, Any]) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"n": prop}}
    return {"kind": "form", "message": "Q", "requested_schema": schema}


CRASHERS: dict[str, dict[str, Any]] = {
    "bound 10**400": form({"type": "integer", "maximum": 10**400}),
    "number bound -10**400": form({"type": "number", "minimum": -(10**400)}),
    "maxLength 10**400": form({"type": "string", "maxLength": 10**400}),
    "multi-select default [{}]": form({"type": "array", "items": {"enum": ["a"]}, "default": [{}]}),
    "multi-select default [['a']]": form(
        {"type": "array", "items": {"enum": ["a"]}, "default": [["a"]]}
    ),
    "integer default 10**400": form({"type": "integer", "default": 10**400}),
    "metadata nested 5,000 deep": {"kind": "text", "message": "Q", "metadata": nested(5000)},
    "arguments nested 5,000 deep": {
        "kind": "tool_approval",
        "tool_name": "t",
        "summary": "s",
        "tool_call_id": "c",
        "arguments": nested(5000),
    },
    "timeout inf": {"kind": "text", "message": "Q", "timeout": math.inf},
}


@pytest.mark.parametrize("name", list(CRASHERS))
def test_each_crasher_is_a_validation_error(name: str) -> None:
    with pytest.raises(ValidationError):
        parse_request(CRASHERS[name])


@pytest.mark.parametrize("name", list(CRASHERS))
def test_ask_json_with_each_crasher_exits_3(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = dict(CRASHERS[name])
    deep = next((key for key in ("metadata", "arguments") if "deep" in name and key in data), None)
    if deep is not None:  # written by hand: json.dumps itself would recurse 5,000 deep
        data[deep] = "@"
    text = json.dumps(data).replace('"@"', '{"a": ' * 5000 + "{}" + "}" * 5000)

    code = main(["--json", text])

    assert code == EXIT_INVALID
    assert capsys.readouterr().err.startswith("elicit-tui ask: ")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"kind": "text", "message": "Q", "metadata": {"n": 1' + "0" * 5000 + "}}",
        '{"kind": "text", "message": "Q", "timeout": 1e999}',
    ],
    ids=["nested 100,000 deep", "an integer of 5,000 digits", "timeout 1e999"],
)
def test_ask_json_that_python_cannot_read_exits_3(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--json", text]) == EXIT_INVALID
    assert capsys.readouterr().err.startswith("elicit-tui ask: ")


# -- timeouts -----------------------------------------------------------------------------


@pytest.mark.parametrize("seconds", [math.inf, -math.inf, 1e300, -1.0, 0.0, math.nan])
def test_a_timeout_out_of_bounds_is_refused_with_a_message(seconds: float) -> None:
    with pytest.raises(ValidationError) as refused:
        TextRequest(message="Q", timeout=seconds)

    (problem,) = refused.value.errors()
    assert problem["loc"] == ("timeout",)
    assert "at most 2592000 seconds" in problem["msg"]


@pytest.mark.parametrize("seconds", [math.inf, 1e300, math.nan, -1.0])
def test_the_queue_refuses_a_timeout_out_of_bounds(seconds: float) -> None:
    queue = ElicitationQueue(policy="wait")
    with pytest.raises(ValidationError):
        queue.submit(TextRequest(message="Q"), timeout=seconds)
    assert queue.pending() == []


@pytest.mark.parametrize("seconds", [math.inf, 1e300, math.nan, -1.0, 0])
@pytest.mark.parametrize(
    "queue", [ElicitationQueue(policy="wait"), RemoteQueue("http://127.0.0.1:9", "t")]
)
def test_a_timeout_argument_out_of_bounds_is_named_with_its_bounds(
    queue: ElicitationQueue | RemoteQueue, seconds: float
) -> None:
    # The title was pydantic's: "1 validation error for function-after[_bounded_timeout(),
    # function-before[_not_a_boolean(), float]]", and the text said null for Python's None.
    with pytest.raises(ValidationError) as refused:
        queue.submit(TextRequest(message="Q"), timeout=seconds)
    assert refused.value.title == "timeout"
    (problem,) = refused.value.errors()
    assert problem["msg"] == (
        "Value error, timeout must be greater than 0 and at most 2592000 seconds (30 days),"
        f" not {float(seconds)}; leave it out to wait forever"
    )


def test_ask_with_timeout_inf_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["text", "Q", "--timeout", "inf"]) == EXIT_INVALID
    assert "timeout" in capsys.readouterr().err


async def test_the_longest_timeout_is_honoured_with_a_countdown() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        future = queue.submit(TextRequest(message="Q", timeout=MAX_TIMEOUT))
        modal = await wait_for_modal(pilot)
        await pilot.pause(0.1)
        assert modal.remaining is not None and modal.remaining > MAX_TIMEOUT - 60
        await pilot.press("escape")
        assert future.result(timeout=5).action == "cancel"


# -- limits ----------------------------------------------------------------------------------


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as refused:
        parse_request(data)
    return str(refused.value)


def test_a_question_of_3_mib_is_refused_naming_the_limit() -> None:
    assert "256 KiB of text" in refusal({"kind": "text", "message": "x" * 3 * 1024 * 1024})


def test_text_up_to_the_limit_is_accepted() -> None:
    assert parse_request({"kind": "text", "message": "x" * (MAX_TEXT - 100)})


def test_a_call_s_diff_counts_apart_from_the_arguments_it_repeats() -> None:
    """A patch or an edit's old and new text is in the arguments and again in the diff: each
    may take most of the limit, as the text it repeats may; more than the limit is refused."""
    patch = "+" + "x" * 200_000
    call = {"kind": "tool_approval", "tool_name": "apply_patch", "tool_call_id": "c"}
    call |= {"summary": "s", "arguments": {"command": patch}}
    assert parse_request({**call, "diff": patch})
    assert "256 KiB of text" in refusal({**call, "diff": patch + "x" * MAX_TEXT})
    assert "256 KiB of text" in refusal({**call, "arguments": {"a": patch, "b": patch}})


def test_too_many_options_are_refused_naming_the_limit() -> None:
    options = [str(n) for n in range(MAX_ITEMS + 1)]
    assert f"the limit is {MAX_ITEMS}" in refusal(
        {"kind": "choice", "message": "Q", "options": options}
    )
    assert parse_request({"kind": "choice", "message": "Q", "options": options[:-1]})


def test_too_many_schema_properties_are_refused_naming_the_limit() -> None:
    properties = {f"p{n}": {"type": "string"} for n in range(MAX_PROPERTIES + 1)}
    data = {"kind": "form", "message": "Q", "requested_schema": {"type": "object"}}
    data["requested_schema"]["properties"] = properties
    assert f"at most {MAX_PROPERTIES} (the limit)" in refusal(data)


def test_nesting_deeper_than_the_limit_is_refused_and_up_to_it_accepted() -> None:
    assert f"nested more than {MAX_DEPTH} deep" in refusal(
        {"kind": "text", "message": "Q", "metadata": nested(MAX_DEPTH)}
    )
    assert parse_request({"kind": "text", "message": "Q", "metadata": nested(MAX_DEPTH - 2)})


# -- anything at all -------------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([10**400, -(10**400), 2**63, -1, 0])
    | st.floats()
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value Python's json module can produce, plus ints and floats JSON cannot carry."""

BASES: list[dict[str, Any]] = [
    {"kind": "text", "message": "Q"},
    {"kind": "choice", "message": "Q", "options": ["a", "b"]},
    {"kind": "multi_choice", "message": "Q", "options": ["a", "b"]},
    {"kind": "secret", "message": "Q"},
    {"kind": "confirmation", "message": "Q"},
    form({"type": "string"}),
    {"kind": "questions", "questions": [{"question": "Q?", "options": ["a"]}]},
    {"kind": "tool_approval", "tool_name": "t", "summary": "s", "tool_call_id": "c"},
    {"kind": "url", "message": "Q", "url": "https://example.com"},
]
FIELDS = [
    "kind", "message", "title", "source", "timeout", "metadata", "default", "options",
    "min_selected", "max_selected", "min_length", "max_length", "store", "requested_schema",
    "questions", "arguments", "remember", "url", "yes_label", "multiline", "pattern",
]  # fmt: skip
PROPERTY_KEYS = [
    "type", "enum", "enumNames", "oneOf", "anyOf", "items", "default", "minimum", "maximum",
    "minLength", "maxLength", "minItems", "maxItems", "format", "title", "const",
]  # fmt: skip
TYPES = st.sampled_from(["string", "integer", "number", "boolean", "array", "object"])


def only_validation_errors(data: Any) -> None:
    with contextlib.suppress(ValidationError):
        parse_request(data)


@settings(max_examples=2500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(BASES), st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=3))
def test_any_field_with_any_value_raises_only_validation_error(
    base: dict[str, Any], changes: dict[str, Any]
) -> None:
    only_validation_errors({**base, **changes})


@settings(max_examples=2500, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.dictionaries(st.sampled_from(PROPERTY_KEYS), JSON | TYPES, max_size=5),
    st.sampled_from(PROPERTY_KEYS),
    TYPES,
)
def test_any_schema_property_raises_only_validation_error(
    prop: dict[str, Any], key: str, kind: str
) -> None:
    only_validation_errors(form({"type": kind, **prop}))
    only_validation_errors(form({key: prop}))
    enum = {"type": "array", "items": {"enum": ["a", "b"]}}
    only_validation_errors(form({**enum, **prop}))


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(JSON)
def test_any_json_value_as_a_request_raises_only_validation_error(data: Any) -> None:
    only_validation_errors(data)

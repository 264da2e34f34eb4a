"""Requests and results: parsing every kind, refusing bad input, and rendering answers safely."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pydantic import BaseModel, SecretStr, ValidationError

from tui import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationQueue,
    ElicitationResult,
    FormRequest,
    MultiChoiceRequest,
    Option,
    SecretRef,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
    parse_request,
)

CANARY = "sk-CANARY-7f3a9c21-do-not-leak"
"""A secret value that must never show up in any rendering of a result or request."""

NAME_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"name": {"type": "string"}}}

ANSWERED = "The user answered: "


def refused(data: dict[str, Any]) -> ValidationError:
    """The ValidationError parse_request raises for `data` (fails the test if none)."""
    with pytest.raises(ValidationError) as info:
        parse_request(data)
    return info.value


# -- parsing each kind ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "cls"),
    [
        ({"kind": "text", "message": "Your name?"}, TextRequest),
        ({"kind": "choice", "message": "Framework?", "options": ["a", "b"]}, ChoiceRequest),
        (
            {"kind": "multi_choice", "message": "Features?", "options": ["a", "b"]},
            MultiChoiceRequest,
        ),
        ({"kind": "secret", "message": "API key?"}, SecretRequest),
        ({"kind": "confirmation", "message": "Deploy?"}, ConfirmationRequest),
        ({"kind": "form", "message": "Deploy settings", "schema": NAME_SCHEMA}, FormRequest),
    ],
    ids=["text", "choice", "multi_choice", "secret", "confirmation", "form"],
)
def test_parse_request_builds_the_class_for_each_kind(data: dict[str, Any], cls: type) -> None:
    request = parse_request(data)

    assert type(request) is cls
    assert request.kind == data["kind"]
    assert request.message == data["message"]
    assert cls.kind_name() == data["kind"]


def test_text_request_keeps_its_own_fields() -> None:
    request = parse_request(
        {
            "kind": "text",
            "message": "Describe the service",
            "default": "A web API",
            "placeholder": "one sentence",
            "multiline": True,
            "min_length": 3,
            "max_length": 200,
        }
    )

    assert isinstance(request, TextRequest)
    assert request.default == "A web API"
    assert request.placeholder == "one sentence"
    assert request.multiline is True
    assert (request.min_length, request.max_length) == (3, 200)


def test_common_fields_are_kept_and_id_is_generated() -> None:
    request = parse_request(
        {
            "kind": "confirmation",
            "message": "Deploy now?",
            "title": "Deploy",
            "description": "**prod** cluster",
            "source": "deploy-agent",
            "timeout": 30,
            "metadata": {"ticket": 42},
        }
    )

    assert request.title == "Deploy"
    assert request.description == "**prod** cluster"
    assert request.source == "deploy-agent"
    assert request.timeout == 30.0
    assert request.metadata == {"ticket": 42}
    assert request.id
    assert request.id != parse_request({"kind": "confirmation", "message": "Deploy now?"}).id


def test_defaults_of_common_fields() -> None:
    request = parse_request({"kind": "text", "message": "Name?"})

    assert request.title is None
    assert request.description is None
    assert request.source is None
    assert request.timeout is None
    assert request.metadata == {}


def test_an_explicit_id_is_kept() -> None:
    assert parse_request({"kind": "text", "message": "Name?", "id": "req-1"}).id == "req-1"


def test_options_from_plain_strings_and_dicts() -> None:
    request = parse_request(
        {
            "kind": "choice",
            "message": "Framework?",
            "options": [
                "flask",
                {"label": "FastAPI", "value": "fastapi", "description": "async, typed"},
                {"label": "Django"},
            ],
            "default": "fastapi",
        }
    )

    assert isinstance(request, ChoiceRequest)
    assert request.options == [
        Option(label="flask", value="flask"),
        Option(label="FastAPI", value="fastapi", description="async, typed"),
        Option(label="Django", value="Django"),
    ]
    assert all(isinstance(option, Option) for option in request.options)
    assert request.options[0].description is None
    assert request.default == "fastapi"


def test_multi_choice_options_and_defaults() -> None:
    request = parse_request(
        {
            "kind": "multi_choice",
            "message": "Features?",
            "options": ["auth", {"label": "Database", "value": "db"}, "cache"],
            "default": ["auth", "db"],
            "min_selected": 1,
            "max_selected": 2,
        }
    )

    assert isinstance(request, MultiChoiceRequest)
    assert [o.value for o in request.options] == ["auth", "db", "cache"]
    assert request.default == ["auth", "db"]
    assert (request.min_selected, request.max_selected) == (1, 2)


def test_option_value_defaults_to_label() -> None:
    assert Option(label="Blue").value == "Blue"
    assert Option.model_validate("Red") == Option(label="Red", value="Red")


def test_an_empty_value_given_is_kept_not_replaced_by_the_label() -> None:
    """ "" is an answer an agent may want ("no tag"): before, picking it gave the label."""
    request = parse_request(
        {
            "kind": "choice",
            "message": "Tag?",
            "options": [{"label": "(none)", "value": ""}, {"label": "Keep", "value": "(none)"}],
            "default": "",
        }
    )

    assert isinstance(request, ChoiceRequest)
    assert [o.value for o in request.options] == ["", "(none)"]
    assert request.default == ""
    assert Option(label="Blue", value=None).value == "Blue"


def test_an_option_with_a_key_it_does_not_have_is_refused() -> None:
    # A typo ("descripton") was dropped without a word, as no request's own keys are.
    with pytest.raises(ValidationError, match="descripton"):
        Option.model_validate({"label": "a", "descripton": "typo"})


def test_tool_call_arguments_from_python_that_are_no_json_are_refused() -> None:
    # A tuple key deep in the arguments escaped as json's TypeError.
    with pytest.raises(ValidationError, match="arguments must be JSON data"):
        ToolApprovalRequest(tool_name="x", tool_call_id="c", arguments={"a": {(1, 2): 1}})


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("arguments", {"b": object()}, "b: object is no JSON type"),
        ("arguments", {"c": b"\xff"}, "c: bytes is no JSON type"),
        ("arguments", {"a": [1, float("nan")]}, "a.1: nan is no JSON number"),
        ("arguments", {"a": {"x": float("inf")}}, "a.x: inf is no JSON number"),
        ("arguments", {"a": {1: "one"}}, "a: the key 1 is not text"),
        ("metadata", {"o": object()}, "o: object is no JSON type"),
    ],
)
def test_free_form_json_that_json_cannot_carry_is_refused_naming_where(
    field: str, value: dict[Any, Any], said: str
) -> None:
    # Taken as JSON's `default=str` would print them: an `object()` was shown and approved as
    # "<object object at 0x…>", NaN recorded as null, and the request left out of the
    # transcript without a word, its replay stopping with a KeyError.
    request: dict[str, Any] = {"kind": "tool_approval", "tool_name": "x", "tool_call_id": "c"}
    with pytest.raises(ValidationError, match=f"{field} must be JSON data: {re.escape(said)}"):
        parse_request({**request, field: value})


def test_a_request_s_json_with_nan_is_refused() -> None:
    data = json.loads('{"kind": "text", "message": "m", "metadata": {"n": NaN}}')
    with pytest.raises(ValidationError, match="metadata must be JSON data: n: nan"):
        parse_request(data)


@pytest.mark.parametrize("value", [True, False])
def test_a_timeout_of_true_or_false_is_refused(value: bool) -> None:
    # Taken for 1 (or 0) seconds: `"timeout": true` timed the question out at once.
    with pytest.raises(ValidationError, match=f"not {str(value).lower()}"):
        parse_request({"kind": "text", "message": "m", "timeout": value})


def test_option_needs_a_label() -> None:
    with pytest.raises(ValidationError, match="label"):
        Option(label="")
    with pytest.raises(ValidationError, match="an option's label must not be blank"):
        parse_request({"kind": "choice", "message": "m", "options": ["  ", "x"]})


@pytest.mark.parametrize("key", ["schema", "requestedSchema", "requested_schema"])
def test_form_schema_is_accepted_under_each_name(key: str) -> None:
    request = parse_request({"kind": "form", "message": "Deploy", key: NAME_SCHEMA})

    assert isinstance(request, FormRequest)
    assert request.requested_schema == NAME_SCHEMA
    assert request.model_dump(by_alias=True)["requestedSchema"] == NAME_SCHEMA


def test_a_secret_is_always_sensitive_and_any_other_kind_may_be() -> None:
    assert SecretRequest(message="Key?").sensitive is True
    with pytest.raises(ValidationError, match="sensitive"):
        parse_request({"kind": "secret", "message": "Key?", "sensitive": False})
    assert TextRequest(message="Name?").sensitive is False
    text = parse_request({"kind": "text", "message": "PIN?", "sensitive": True})
    assert text.sensitive is True


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "text", "message": "Name?", "default": "Ada", "timeout": 5},
        {"kind": "choice", "message": "Pick", "options": ["a", {"label": "B", "value": "b"}]},
        {"kind": "multi_choice", "message": "Pick", "options": ["a", "b"], "default": ["b"]},
        {"kind": "secret", "message": "Key?", "store": {"service": "svc", "username": "me"}},
        {"kind": "confirmation", "message": "Sure?", "default": True, "yes_label": "Ship"},
        {"kind": "form", "message": "Deploy", "schema": NAME_SCHEMA},
    ],
    ids=lambda data: data["kind"],
)
def test_requests_round_trip_through_json(data: dict[str, Any]) -> None:
    request = parse_request(data)

    again = parse_request(json.loads(request.model_dump_json(by_alias=True)))

    assert again == request


# -- refusals ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["choice", "multi_choice"])
def test_empty_options_are_refused(kind: str) -> None:
    error = refused({"kind": kind, "message": "Pick", "options": []})

    assert "options" in str(error)
    assert "at least 1 item" in str(error)


@pytest.mark.parametrize("kind", ["choice", "multi_choice"])
def test_missing_options_are_refused(kind: str) -> None:
    error = refused({"kind": kind, "message": "Pick"})

    assert "options" in str(error)
    assert "Field required" in str(error)


def test_choice_default_not_among_options_is_refused() -> None:
    error = refused({"kind": "choice", "message": "Pick", "options": ["a", "b"], "default": "c"})

    assert "default" in str(error)
    assert "'c' is not one of the options: 'a', 'b'" in str(error)


def test_choice_default_must_match_a_value_not_a_label() -> None:
    error = refused(
        {
            "kind": "choice",
            "message": "Pick",
            "options": [{"label": "Blue", "value": "b"}],
            "default": "Blue",
        }
    )

    assert "default" in str(error)
    assert "'Blue' is not one of the options: 'b'" in str(error)


def test_multi_choice_default_not_among_options_is_refused() -> None:
    error = refused(
        {"kind": "multi_choice", "message": "Pick", "options": ["a", "b"], "default": ["a", "z"]}
    )

    assert "default" in str(error)
    assert "'z' is not one of the options: 'a', 'b'" in str(error)


@pytest.mark.parametrize("kind", ["choice", "multi_choice"])
def test_duplicate_option_values_are_refused(kind: str) -> None:
    error = refused(
        {"kind": kind, "message": "Pick", "options": ["a", {"label": "Also A", "value": "a"}]}
    )

    assert "options" in str(error)
    assert "option value 'a' appears more than once" in str(error)


def test_text_min_length_above_max_length_is_refused() -> None:
    error = refused({"kind": "text", "message": "Name?", "min_length": 5, "max_length": 2})

    assert "min_length (5) is greater than max_length (2)" in str(error)


def test_text_equal_min_and_max_length_is_allowed() -> None:
    request = parse_request({"kind": "text", "message": "PIN?", "min_length": 4, "max_length": 4})

    assert isinstance(request, TextRequest)
    assert (request.min_length, request.max_length) == (4, 4)


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"default": "abcdef", "max_length": 2}, "the default is 6 characters long, more than 2"),
        ({"default": "ab", "min_length": 3}, "the default is 2 characters long, less than 3"),
        ({"default": "two\nlines"}, "the default has a line break"),
        ({"default": "two\rlines"}, "the default has a line break"),
    ],
    ids=["too-long", "too-short", "line-break", "carriage-return"],
)
def test_a_text_default_a_person_could_not_give_is_refused(
    fields: dict[str, Any], why: str
) -> None:
    error = refused({"kind": "text", "message": "Name?", **fields})

    assert why in str(error)


def test_a_text_default_may_break_lines_when_multiline_and_be_left_empty() -> None:
    request = parse_request(
        {"kind": "text", "message": "Notes?", "default": "two\nlines", "multiline": True}
    )
    empty = parse_request({"kind": "text", "message": "Name?", "default": "", "min_length": 3})

    assert isinstance(request, TextRequest) and request.default == "two\nlines"
    assert isinstance(empty, TextRequest) and empty.default_content() == ""


def test_a_multi_choice_default_naming_an_option_twice_is_refused() -> None:
    error = refused(
        {"kind": "multi_choice", "message": "Pick", "options": ["a", "b"], "default": ["a", "a"]}
    )

    assert "the default names an option twice: ['a', 'a']" in str(error)


def test_a_multi_choice_default_outside_the_bounds_is_a_start_not_an_answer() -> None:
    # Ticked first, the person goes on from it; no front end, it is no answer to give.
    request = parse_request(
        {
            "kind": "multi_choice",
            "message": "Pick",
            "options": ["a", "b", "c"],
            "default": ["a"],
            "min_selected": 2,
        }
    )

    assert ElicitationQueue(policy="accept_defaults").ask(request).action == "cancel"


def test_multi_choice_min_above_max_selected_is_refused() -> None:
    error = refused(
        {
            "kind": "multi_choice",
            "message": "Pick",
            "options": ["a", "b", "c"],
            "min_selected": 3,
            "max_selected": 2,
        }
    )

    assert "min_selected (3) is greater than max_selected (2)" in str(error)


def test_multi_choice_min_selected_above_option_count_is_refused() -> None:
    error = refused(
        {"kind": "multi_choice", "message": "Pick", "options": ["a", "b"], "min_selected": 3}
    )

    assert "min_selected (3) is more than the 2 options offered" in str(error)


def test_multi_choice_min_selected_equal_to_option_count_is_allowed() -> None:
    request = parse_request(
        {"kind": "multi_choice", "message": "Pick", "options": ["a", "b"], "min_selected": 2}
    )

    assert isinstance(request, MultiChoiceRequest)
    assert request.min_selected == 2


def test_unknown_kind_is_refused_naming_kind_and_the_tag() -> None:
    error = refused({"kind": "colour_picker", "message": "Pick a colour"})

    assert "kind" in str(error)
    assert "'colour_picker'" in str(error)
    assert "'text'" in str(error)


def test_missing_kind_is_refused_naming_kind() -> None:
    assert "kind" in str(refused({"message": "What?"}))


@pytest.mark.parametrize("message", ["", "   ", "\n\t"], ids=["empty", "spaces", "whitespace"])
def test_empty_or_blank_message_is_refused(message: str) -> None:
    error = refused({"kind": "text", "message": message})

    assert error.errors()[0]["loc"] == ("text", "message")
    assert "message" in str(error)


def test_blank_message_refusal_says_blank() -> None:
    assert "message must not be blank" in str(refused({"kind": "text", "message": "  "}))


@pytest.mark.parametrize("timeout", [0, -1, -0.5])
def test_non_positive_timeout_is_refused(timeout: float) -> None:
    error = refused({"kind": "confirmation", "message": "Sure?", "timeout": timeout})

    assert "timeout" in str(error)
    assert "greater than 0" in str(error)


def test_unknown_extra_field_is_refused() -> None:
    error = refused({"kind": "text", "message": "Name?", "colour": "red"})

    assert "colour" in str(error)
    assert "Extra inputs are not permitted" in str(error)


def test_form_schema_outside_the_subset_is_refused_naming_the_property() -> None:
    schema = {"type": "object", "properties": {"address": {"type": "object"}}}

    error = refused({"kind": "form", "message": "Where?", "schema": schema})

    assert "schema" in str(error)
    assert "'address'" in str(error)


def test_form_without_schema_is_refused() -> None:
    assert "requested_schema" in str(refused({"kind": "form", "message": "Where?"}))


# -- results -------------------------------------------------------------------------


def llm_answer(text: str) -> Any:
    """The JSON value after "The user answered: " (fails if the sentence is different)."""
    assert text.startswith(ANSWERED), text
    return json.loads(text.removeprefix(ANSWERED))


@pytest.mark.parametrize(
    "content",
    ["FastAPI", ["auth", "db"], True, False, {"name": "Ada", "replicas": 3}],
    ids=["str", "list", "true", "false", "dict"],
)
def test_to_llm_text_of_accepted_content_is_its_json(content: Any) -> None:
    result = ElicitationResult(action="accept", content=content)

    assert llm_answer(result.to_llm_text()) == content


def test_to_llm_text_of_a_pydantic_model_is_its_json() -> None:
    class Deploy(BaseModel):
        region: str
        replicas: int

    result = ElicitationResult(action="accept", content=Deploy(region="eu", replicas=2))

    assert llm_answer(result.to_llm_text()) == {"region": "eu", "replicas": 2}


def test_to_llm_text_of_decline() -> None:
    text = ElicitationResult(action="decline").to_llm_text()

    assert text == "The user declined to answer."


def test_to_llm_text_of_a_denial_gives_the_persons_reason() -> None:
    # Dropped: a denied tool call's "use make test" never reached the model this way.
    denied = ElicitationResult(action="decline", content={"reason": "use make test"})

    assert denied.to_llm_text() == 'The user declined, saying: "use make test"'


def test_to_llm_text_of_cancel_gives_the_reason() -> None:
    text = ElicitationResult(action="cancel", reason="timeout").to_llm_text()

    assert "cancelled" in text
    assert "(timeout)" in text
    assert "no answer" in text


def test_to_llm_text_of_cancel_without_reason() -> None:
    text = ElicitationResult(action="cancel").to_llm_text()

    assert "cancelled" in text
    assert "(" not in text


def test_secret_content_never_appears_in_any_rendering() -> None:
    result = ElicitationResult(action="accept", content=SecretStr(CANARY))

    renderings = {
        "repr": repr(result),
        "str": str(result),
        "json": result.model_dump_json(),
        "llm": result.to_llm_text(),
        "describe": SecretRequest(message="Key?").describe_content(result.content),
    }

    for name, text in renderings.items():
        assert CANARY not in text, name
    assert "secret" in renderings["llm"]
    assert result.content.get_secret_value() == CANARY


def test_secret_nested_in_dict_content_is_not_leaked() -> None:
    result = ElicitationResult(action="accept", content={"token": SecretStr(CANARY)})

    for text in (repr(result), str(result), result.model_dump_json(), result.to_llm_text()):
        assert CANARY not in text


def test_to_llm_text_of_secret_ref_names_the_keyring_entry() -> None:
    result = ElicitationResult(
        action="accept", content=SecretRef(service="elicit-tui", username="openai")
    )

    assert result.to_llm_text() == (
        "The user stored the secret as keyring entry elicit-tui/openai."
    )


def test_accepted_is_true_only_for_accept() -> None:
    assert ElicitationResult(action="accept", content="x").accepted
    assert not ElicitationResult(action="decline").accepted
    assert not ElicitationResult(action="cancel", reason="closed").accepted


def test_result_refuses_an_unknown_action() -> None:
    with pytest.raises(ValidationError, match="action"):
        ElicitationResult(action="maybe")  # type: ignore[arg-type]


def test_result_is_frozen() -> None:
    result = ElicitationResult(action="accept", content="x")

    with pytest.raises(ValidationError, match="frozen"):
        result.content = "y"  # type: ignore[misc]


# -- default_content -----------------------------------------------------------------


def test_default_content_of_text() -> None:
    assert TextRequest(message="Name?").default_content() == ""
    assert TextRequest(message="Name?", default="Ada").default_content() == "Ada"


def test_default_content_of_choice_is_default_else_first_value() -> None:
    options = ["a", {"label": "B", "value": "b"}]

    without = parse_request({"kind": "choice", "message": "Pick", "options": options})
    with_default = parse_request(
        {"kind": "choice", "message": "Pick", "options": options, "default": "b"}
    )

    assert without.default_content() == "a"
    assert with_default.default_content() == "b"


def test_default_content_of_multi_choice_is_a_copy_of_the_default() -> None:
    request = parse_request(
        {"kind": "multi_choice", "message": "Pick", "options": ["a", "b"], "default": ["b"]}
    )

    content = request.default_content()
    content.append("a")

    assert content == ["b", "a"]
    assert request.default_content() == ["b"]
    assert (
        parse_request(
            {"kind": "multi_choice", "message": "Pick", "options": ["a"]}
        ).default_content()
        == []
    )


def test_secret_has_no_default_content() -> None:
    with pytest.raises(ValueError, match="secret"):
        SecretRequest(message="Key?").default_content()


def test_default_content_of_confirmation() -> None:
    assert ConfirmationRequest(message="Sure?").default_content() is False
    assert ConfirmationRequest(message="Sure?", default=True).default_content() is True


def test_default_content_of_form_comes_from_schema_defaults() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "api"},
            "replicas": {"type": "integer", "default": 2},
            "notes": {"type": "string"},
        },
    }
    request = parse_request({"kind": "form", "message": "Deploy", "schema": schema})

    assert request.default_content() == {"name": "api", "replicas": 2}
    assert (
        parse_request(
            {"kind": "form", "message": "Deploy", "schema": NAME_SCHEMA}
        ).default_content()
        == {}
    )


# -- describe_content ----------------------------------------------------------------


def test_describe_text_is_the_text() -> None:
    assert TextRequest(message="Name?").describe_content("Ada") == "Ada"


def test_describe_choice_shows_the_label() -> None:
    request = parse_request(
        {"kind": "choice", "message": "Pick", "options": [{"label": "FastAPI", "value": "fa"}]}
    )

    assert request.describe_content("fa") == "FastAPI"
    assert request.describe_content("unknown") == "unknown"


def test_describe_multi_choice_shows_labels_or_none() -> None:
    request = parse_request(
        {
            "kind": "multi_choice",
            "message": "Pick",
            "options": [{"label": "Auth", "value": "auth"}, {"label": "Database", "value": "db"}],
        }
    )

    assert request.describe_content(["db", "auth"]) == "Database, Auth"
    assert request.describe_content([]) == "(none)"


def test_describe_secret_is_masked() -> None:
    request = SecretRequest(message="Key?")

    assert request.describe_content(SecretStr(CANARY)) == "•••"
    assert request.describe_content(CANARY) == "•••"


def test_describe_secret_ref_names_the_keyring_entry() -> None:
    ref = SecretRef(service="elicit-tui", username="openai")

    assert SecretRequest(message="Key?").describe_content(ref) == (
        "stored in keyring elicit-tui/openai"
    )


def test_describe_confirmation_uses_its_labels() -> None:
    plain = ConfirmationRequest(message="Sure?")
    custom = ConfirmationRequest(message="Ship?", yes_label="Ship it", no_label="Hold")

    assert (plain.describe_content(True), plain.describe_content(False)) == ("Yes", "No")
    assert (custom.describe_content(True), custom.describe_content(False)) == ("Ship it", "Hold")


def test_describe_form_lists_fields() -> None:
    class Settings(BaseModel):
        name: str

    request = parse_request({"kind": "form", "message": "Deploy", "schema": NAME_SCHEMA})

    assert request.describe_content({"name": "api", "replicas": 2}) == "name=api, replicas=2"
    assert request.describe_content({}) == "(empty)"
    assert request.describe_content(Settings(name="api")) == "name=api"


def test_a_forms_content_from_elsewhere_comes_in_the_schemas_order_as_given() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "replicas": {"type": "integer", "default": 2},
            "region": {"type": "string", "default": "eu"},
        },
    }
    request = FormRequest(message="Deploy", requested_schema=schema)
    # A field left out stays out: a person may have emptied it.
    content = request.check_content({"region": "us", "name": "api"})
    assert list(content) == ["name", "region"]
    assert content == {"name": "api", "region": "us"}
    # A script's answer, which never showed the form, leaves out what stays untouched.
    filled = request.check_content(request.with_untouched({"region": "us", "name": "api"}))
    assert list(filled) == ["name", "replicas", "region"]
    assert filled == {"name": "api", "replicas": 2, "region": "us"}


@pytest.mark.parametrize(
    "request_",
    [SecretRequest(message="Token?"), TextRequest(message="Recovery code?", sensitive=True)],
    ids=["secret", "sensitive_text"],
)
def test_an_answer_of_the_wrong_type_to_a_sensitive_request_is_refused_without_quoting_it(
    request_: SecretRequest | TextRequest,
) -> None:
    with pytest.raises(ValueError, match="must be a string") as refused:
        request_.check_content(["canary-422"])
    assert "canary-422" not in str(refused.value)
    with pytest.raises(ValueError, match="canary-422"):  # any other request quotes it
        TextRequest(message="Name?").check_content(["canary-422"])

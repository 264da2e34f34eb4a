"""The scripted responder: canned answers keyed by message, for testing agents without a person."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from keyring.backends import fail
from keyring_backends import MemoryKeyring
from pydantic import BaseModel, Field, SecretStr

from tui import (
    KEYRING_UNAVAILABLE,
    ElicitationQueue,
    ElicitationResult,
    FormRequest,
    ImpossibleAnswerError,
    Request,
    ScriptedResponder,
    SecretRef,
    ToolApprovalRequest,
    UnscriptedRequestError,
    parse_request,
)
from tui.approvals.rules import ApprovalPolicy
from tui.core.models import AUTO_APPROVED, ArgumentPattern

CANARY = "sk-CANARY-0b1d-never-print-me"

FRAMEWORK = "Which framework should the new service use?"
FEATURES = "Which features should it start with?"
API_KEY = "Paste the API key for the model provider"
DEPLOY = "Where should it be deployed?"
CONFIRM = "Create and deploy the service now?"


def text_request(message: str, **fields: Any) -> Request:
    return parse_request({"kind": "text", "message": message, **fields})


def test_plain_content_is_accepted() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Your name?": "Ada"})

    result = queue.ask(text_request("Your name?"))

    assert result == ElicitationResult(action="accept", content="Ada")


@pytest.mark.parametrize(
    ("data", "content"),
    [
        ({"kind": "text", "message": "Q"}, ""),
        ({"kind": "confirmation", "message": "Q"}, False),
        ({"kind": "choice", "message": "Q", "options": ["a", "b"]}, "b"),
        ({"kind": "multi_choice", "message": "Q", "options": ["a", "b"]}, ["b", "a"]),
        ({"kind": "url", "message": "Q", "url": "https://example.com"}, True),
    ],
    ids=["text", "confirmation", "choice", "multi_choice", "url"],
)
def test_content_the_ui_could_give_is_accepted_as_is(data: dict[str, Any], content: Any) -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Q": content})

    result = queue.ask(parse_request(data))

    assert result == ElicitationResult(action="accept", content=content)
    assert type(result.content) is type(content)


@pytest.mark.parametrize(
    ("data", "content", "why"),
    [
        ({"kind": "choice", "options": ["a", "b"]}, "zzz", "'zzz' is not one of the options: 'a', 'b'"),
        ({"kind": "multi_choice", "options": ["a", "b"], "max_selected": 1}, ["a", "b"], "more than 1"),
        ({"kind": "multi_choice", "options": ["a", "b"]}, ["a", "c"], "'c' is not one of the options"),
        ({"kind": "text", "min_length": 3}, "ab", "less than 3"),
        ({"kind": "text"}, "two\nlines", "line break"),
        ({"kind": "text"}, "two\rlines", "line break"),
        ({"kind": "text"}, None, "must be a string, not NoneType"),
        ({"kind": "confirmation"}, "yes", "must be True or False"),
        ({"kind": "form", "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
         {"n": "not-a-number"}, "property 'n': 'not-a-number' is not of type 'integer'"),
        ({"kind": "form", "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
         {"m": 1}, "no field 'm'"),
        ({"kind": "form", "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}},
         {}, "property 'n': required"),
        ({"kind": "form", "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
         {"n": 5.5}, "property 'n': 5.5 is not of type 'integer'"),
        ({"kind": "form", "requestedSchema": {"type": "object", "properties": {"x": {"type": "number"}}}},
         {"x": float("nan")}, "property 'x': must be a number"),
        ({"kind": "form", "requestedSchema": {"type": "object", "properties": {"x": {"type": "number"}}}},
         {"x": float("inf")}, "property 'x': must be a number"),
        ({"kind": "form", "requestedSchema": {"type": "object", "properties": {"s": {"type": "string"}}, "required": ["s"]}},
         {"s": " "}, "property 's': required"),
        ({"kind": "form", "requestedSchema": {"type": "object", "properties": {"s": {"type": "string"}}}},
         {"s": "two\nlines"}, "property 's': must be one line"),
    ],
    ids=["choice", "too-many", "not-an-option", "too-short", "line-break", "carriage-return",
         "none", "not-bool",
         "form-type", "form-unknown-field", "form-required", "form-float-integer", "form-nan",
         "form-inf", "form-blank-required", "form-line-break"],
)  # fmt: skip
def test_an_answer_the_ui_could_not_give_is_refused_naming_the_request_and_why(
    data: dict[str, Any], content: Any, why: str
) -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Pick one": content})
    request = parse_request({"message": "Pick one", **data})

    with pytest.raises(ImpossibleAnswerError) as raised:
        queue.ask(request)

    message = str(raised.value)
    assert f"{request.kind} request 'Pick one' (id {request.id})" in message
    assert why in message
    assert queue.pending() == []


def test_a_whole_number_written_as_a_float_is_an_integer_as_json_schema_says() -> None:
    # 4.0 was refused "must be a whole number", from a script, queue.respond() and the inbox.
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"How many?": {"n": 4.0}})
    answered = queue.ask(FormRequest(message="How many?", requested_schema=schema)).content
    waiting = ElicitationQueue(policy="wait")
    request = FormRequest(message="How many?", requested_schema=schema)
    asked = waiting.submit(request)
    waiting.respond(request.id, ElicitationResult(action="accept", content={"n": 4.0}))
    for content in (answered, asked.result(1).content):
        assert content == {"n": 4} and type(content["n"]) is int


def test_an_accepted_result_is_checked_too() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Q": ElicitationResult(action="accept", content="zzz")})

    with pytest.raises(ImpossibleAnswerError, match="'zzz' is not one of the options"):
        queue.ask(parse_request({"kind": "choice", "message": "Q", "options": ["a"]}))


def test_a_form_answer_left_short_takes_the_defaults_as_the_form_would() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Q": {"name": "api"}})
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "replicas": {"type": "integer", "default": 2}},
    }

    result = queue.ask(parse_request({"kind": "form", "message": "Q", "requestedSchema": schema}))

    assert result.content == {"name": "api", "replicas": 2}


class Deployment(BaseModel):
    region: str
    replicas: int = Field(default=1, ge=1, le=10)
    token: SecretStr | None = None


def test_ask_form_with_a_model_gets_an_instance_of_it() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Deploy where?": {"region": "eu", "replicas": 3}})

    result = queue.ask_form(Deployment, message="Deploy where?")

    assert result.content == Deployment(region="eu", replicas=3)
    assert isinstance(result.content, Deployment)


def test_a_refused_secret_is_never_quoted() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(
        queue, {"Q": {"region": "eu", "replicas": 99, "token": CANARY}, "Key?": CANARY}
    )

    with pytest.raises(ImpossibleAnswerError) as form_error:
        queue.ask_form(Deployment, message="Q")
    with pytest.raises(ImpossibleAnswerError) as secret_error:
        queue.ask(parse_request({"kind": "secret", "message": "Key?", "min_length": 99}))

    assert "replicas" in str(form_error.value)
    assert "less than 99" in str(secret_error.value)
    assert CANARY not in str(form_error.value) + str(secret_error.value)


@pytest.mark.parametrize(
    ("fields", "answer", "why"),
    [
        ({"pattern": "sk-..."}, "pk-" + CANARY, "That does not look like sk-..."),
        ({}, CANARY + "\n", "the secret has a line break"),
    ],
    ids=["pattern", "line-break"],
)
def test_a_secret_the_ui_would_refuse_is_refused_without_quoting_it(
    fields: dict[str, Any], answer: str, why: str
) -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Key?": answer})

    with pytest.raises(ImpossibleAnswerError) as raised:
        queue.ask(parse_request({"kind": "secret", "message": "Key?", **fields}))

    assert why in str(raised.value)
    assert CANARY not in str(raised.value)


def test_a_secret_of_the_patterns_shape_is_accepted() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Key?": CANARY})

    result = queue.ask(parse_request({"kind": "secret", "message": "Key?", "pattern": "sk-..."}))

    assert isinstance(result.content, SecretStr)
    assert result.content.get_secret_value() == CANARY


STORED_KEY = {"kind": "secret", "message": "Key?", "store": {"service": "app", "username": "key"}}


def test_a_secret_to_store_is_stored_in_the_keyring_and_answered_with_its_reference(
    isolated_keyring: MemoryKeyring,
) -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Key?": CANARY})

    result = queue.ask(parse_request(STORED_KEY))

    assert result.content == SecretRef(service="app", username="key")
    assert result.content.get().get_secret_value() == CANARY
    assert isolated_keyring.entries == {("app", "key"): CANARY}
    assert CANARY not in result.to_llm_text()


def test_a_secret_the_person_chose_to_keep_in_memory_is_not_stored(
    isolated_keyring: MemoryKeyring,
) -> None:
    queue = ElicitationQueue()
    kept = ElicitationResult(action="accept", content=CANARY, reason=KEYRING_UNAVAILABLE)
    ScriptedResponder(queue, {"Key?": kept})

    result = queue.ask(parse_request(STORED_KEY))

    assert isinstance(result.content, SecretStr)
    assert result.content.get_secret_value() == CANARY
    assert isolated_keyring.entries == {}


def test_a_secret_to_store_without_a_keyring_asks_for_the_persons_choice(
    no_keyring: fail.Keyring,
) -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Key?": CANARY})

    with pytest.raises(ImpossibleAnswerError) as raised:
        queue.ask(parse_request(STORED_KEY))

    assert "Could not store keyring entry app/key" in str(raised.value)
    assert f"reason='{KEYRING_UNAVAILABLE}'" in str(raised.value)
    assert CANARY not in str(raised.value)


def test_a_result_is_returned_as_given() -> None:
    queue = ElicitationQueue()
    declined = ElicitationResult(action="decline")
    ScriptedResponder(queue, {"Your name?": declined})

    assert queue.ask(text_request("Your name?")) is declined


def test_a_callable_is_called_with_the_request() -> None:
    queue = ElicitationQueue()
    seen: list[Request] = []

    def answer(request: Request) -> ElicitationResult:
        seen.append(request)
        return ElicitationResult(action="accept", content=request.message.upper())

    ScriptedResponder(queue, {"Your name?": answer})
    request = text_request("Your name?")

    result = queue.ask(request)

    assert seen == [request]
    assert seen[0] is request
    assert result == ElicitationResult(action="accept", content="YOUR NAME?")


def test_a_callable_returning_plain_content_is_accepted() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Your name?": lambda request: f"re: {request.message}"})

    result = queue.ask(text_request("Your name?"))

    assert result == ElicitationResult(action="accept", content="re: Your name?")


def test_the_same_message_is_answered_every_time() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Again?": "yes"})

    results = [queue.ask(text_request("Again?")).content for _ in range(3)]

    assert results == ["yes", "yes", "yes"]


def test_asked_records_every_request_in_order() -> None:
    queue = ElicitationQueue()
    responder = ScriptedResponder(queue, {"one": "1", "two": "2"})
    first, second, third = text_request("one"), text_request("two"), text_request("one")

    for request in (first, second, third):
        queue.ask(request)

    assert responder.asked == [first, second, third]


def test_a_call_a_remembered_rule_allowed_as_it_arrived_was_asked_of_nobody() -> None:
    queue = ElicitationQueue()
    policy = ApprovalPolicy(persistent=False)
    policy.allow("shell", ArgumentPattern(argument="command", pattern="ls*"))
    policy.attach(queue)
    responder = ScriptedResponder(queue, {"shell": ElicitationResult(action="decline")})
    covered = ToolApprovalRequest(tool_name="shell", arguments={"command": "ls"}, tool_call_id="1")
    other = ToolApprovalRequest(tool_name="shell", arguments={"command": "rm x"}, tool_call_id="2")

    assert queue.ask(covered).reason == AUTO_APPROVED
    assert queue.ask(other).action == "decline"
    assert responder.asked == [other]


def test_unknown_message_makes_ask_raise_naming_it_and_the_scripted_ones() -> None:
    queue = ElicitationQueue()
    responder = ScriptedResponder(queue, {"Your name?": "Ada", "Your age?": "36"})
    request = text_request("Your favourite colour?")

    with pytest.raises(UnscriptedRequestError) as raised:
        queue.ask(request)

    message = str(raised.value)
    assert "'Your favourite colour?'" in message
    assert "'Your name?'" in message
    assert "'Your age?'" in message
    assert isinstance(raised.value, LookupError)
    assert responder.asked == [request]
    assert queue.pending() == []


def test_unknown_message_with_an_empty_script_says_none_are_scripted() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {})

    with pytest.raises(UnscriptedRequestError, match=r"'Anything\?'.*none"):
        queue.ask(text_request("Anything?"))


def test_known_messages_still_work_after_an_unknown_one() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Your name?": "Ada"})

    with pytest.raises(UnscriptedRequestError):
        queue.ask(text_request("Surprise?"))

    assert queue.ask(text_request("Your name?")).content == "Ada"


def test_unsubscribe_hands_requests_back_to_the_policy() -> None:
    queue = ElicitationQueue()
    responder = ScriptedResponder(queue, {"Your name?": "Ada"})

    responder.unsubscribe()

    result = queue.ask(text_request("Your name?"))
    assert result == ElicitationResult(action="cancel", reason="no_front_end")
    assert responder.asked == []


def test_requests_already_waiting_are_answered_when_the_responder_subscribes() -> None:
    queue = ElicitationQueue(policy="wait")
    future = queue.submit(text_request("Your name?"))

    ScriptedResponder(queue, {"Your name?": "Ada"})

    assert future.result(timeout=5).content == "Ada"


def test_answers_agents_in_other_threads() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {f"question {i}": f"answer {i}" for i in range(20)})
    results: dict[int, Any] = {}

    def agent(i: int) -> None:
        results[i] = queue.ask(text_request(f"question {i}")).content

    threads = [threading.Thread(target=agent, args=(i,), daemon=True) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)

    assert results == {i: f"answer {i}" for i in range(20)}


async def test_works_with_ask_async() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Your name?": "Ada"})

    result = await queue.ask_async(text_request("Your name?"))

    assert result.content == "Ada"


# -- a realistic agent, tested end to end --------------------------------------------


def set_up_service(queue: ElicitationQueue) -> dict[str, Any]:
    """A small agent: asks what a new service needs, and returns a plan (or why it stopped)."""
    framework = queue.ask(
        parse_request(
            {
                "kind": "choice",
                "message": FRAMEWORK,
                "source": "setup-agent",
                "options": [
                    {"label": "FastAPI", "value": "fastapi", "description": "async, typed"},
                    {"label": "Flask", "value": "flask"},
                    {"label": "Django", "value": "django"},
                ],
                "default": "fastapi",
            }
        )
    )
    if not framework.accepted:
        return {"status": "stopped", "at": "framework", "why": framework.to_llm_text()}

    features = queue.ask(
        parse_request(
            {
                "kind": "multi_choice",
                "message": FEATURES,
                "options": ["auth", "database", "cache", "metrics"],
                "default": ["auth"],
                "max_selected": 3,
            }
        )
    )
    key_request = parse_request({"kind": "secret", "message": API_KEY, "min_length": 8})
    api_key = queue.ask(key_request)
    deploy_request = parse_request(
        {
            "kind": "form",
            "message": DEPLOY,
            "schema": {
                "type": "object",
                "properties": {
                    "region": {"type": "string", "default": "eu-west-1"},
                    "replicas": {"type": "integer", "minimum": 1, "default": 2},
                },
                "required": ["region"],
            },
        }
    )
    deploy = queue.ask(deploy_request)
    confirm = queue.ask(parse_request({"kind": "confirmation", "message": CONFIRM}))

    plan = {
        "framework": framework.content,
        "features": features.content if features.accepted else [],
        "api_key": api_key.content if api_key.accepted else None,
        "deploy": deploy.content if deploy.accepted else deploy_request.default_content(),
    }
    summary = "; ".join(
        [
            f"framework: {framework.content}",
            f"features: {', '.join(plan['features']) or 'none'}",
            f"api key: {key_request.describe_content(api_key.content)}",
            f"deploy: {deploy_request.describe_content(plan['deploy'])}",
        ]
    )
    status = "deployed" if confirm.accepted and confirm.content else "planned"
    return {"status": status, "plan": plan, "summary": summary}


def happy_script() -> dict[str, Any]:
    return {
        FRAMEWORK: "fastapi",
        FEATURES: ["auth", "database"],
        API_KEY: SecretStr(CANARY),
        DEPLOY: lambda request: ElicitationResult(
            action="accept", content={**request.default_content(), "replicas": 3}
        ),
        CONFIRM: True,
    }


def test_agent_end_to_end_with_every_answer() -> None:
    queue = ElicitationQueue()
    responder = ScriptedResponder(queue, happy_script())

    outcome = set_up_service(queue)

    assert outcome["status"] == "deployed"
    plan = outcome["plan"]
    assert plan["framework"] == "fastapi"
    assert plan["features"] == ["auth", "database"]
    assert plan["api_key"].get_secret_value() == CANARY
    assert plan["deploy"] == {"region": "eu-west-1", "replicas": 3}
    assert outcome["summary"] == (
        "framework: fastapi; features: auth, database; api key: •••; "
        "deploy: region=eu-west-1, replicas=3"
    )
    assert CANARY not in outcome["summary"]
    assert CANARY not in repr(outcome)
    assert [r.message for r in responder.asked] == [FRAMEWORK, FEATURES, API_KEY, DEPLOY, CONFIRM]
    assert [r.kind for r in responder.asked] == [
        "choice",
        "multi_choice",
        "secret",
        "form",
        "confirmation",
    ]
    assert responder.asked[0].source == "setup-agent"


def test_agent_end_to_end_when_the_user_says_no_at_the_end() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {**happy_script(), CONFIRM: False})

    outcome = set_up_service(queue)

    assert outcome["status"] == "planned"


def test_agent_end_to_end_with_declines_and_cancels() -> None:
    queue = ElicitationQueue()
    script = {
        **happy_script(),
        FEATURES: ElicitationResult(action="decline"),
        API_KEY: ElicitationResult(action="cancel", reason="timeout"),
        DEPLOY: ElicitationResult(action="decline"),
        CONFIRM: ElicitationResult(action="cancel", reason="closed"),
    }
    ScriptedResponder(queue, script)

    outcome = set_up_service(queue)

    assert outcome["status"] == "planned"
    assert outcome["plan"]["features"] == []
    assert outcome["plan"]["api_key"] is None
    assert outcome["plan"]["deploy"] == {"region": "eu-west-1", "replicas": 2}


def test_agent_end_to_end_stops_when_the_first_question_is_declined() -> None:
    queue = ElicitationQueue()
    responder = ScriptedResponder(
        queue, {**happy_script(), FRAMEWORK: ElicitationResult(action="decline")}
    )

    outcome = set_up_service(queue)

    assert outcome == {
        "status": "stopped",
        "at": "framework",
        "why": "The user declined to answer.",
    }
    assert [r.message for r in responder.asked] == [FRAMEWORK]


def test_agent_end_to_end_fails_loudly_on_a_question_nobody_scripted() -> None:
    queue = ElicitationQueue()
    script = happy_script()
    del script[DEPLOY]
    ScriptedResponder(queue, script)

    with pytest.raises(UnscriptedRequestError, match="Where should it be deployed"):
        set_up_service(queue)


def test_agent_end_to_end_in_a_worker_thread() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, happy_script())
    outcome: dict[str, Any] = {}

    worker = threading.Thread(target=lambda: outcome.update(set_up_service(queue)), daemon=True)
    worker.start()
    worker.join(5)

    assert not worker.is_alive()
    assert outcome["status"] == "deployed"


BATCH = {
    "questions": [
        {
            "question": "Which database?",
            "header": "DB",
            "options": [{"label": "SQLite"}, {"label": "Postgres"}],
        },
        {
            "question": "Which extras?",
            "header": "Extras",
            "options": [{"label": "auth"}, {"label": "jobs"}],
            "multi_select": True,
        },
    ]
}


def test_a_batch_is_answered_question_by_question_by_each_text() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Which database?": "Postgres", "Which extras?": ["jobs"]})
    result = queue.ask(parse_request({"kind": "questions", **BATCH}))
    assert result.content == {
        "answers": {"Which database?": "Postgres", "Which extras?": ["jobs"]},
        "notes": {},
    }


def test_a_batch_answered_in_part_names_the_questions_left() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Which database?": "Postgres"})
    with pytest.raises(UnscriptedRequestError, match="but not 'Which extras\\?'"):
        queue.ask(parse_request({"kind": "questions", **BATCH}))


def test_a_question_answered_as_the_ui_could_not_is_impossible() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Which database?": "SQLite", "Which extras?": "jobs"})
    with pytest.raises(ImpossibleAnswerError, match=r"a list of answers to 'Which extras\?'"):
        queue.ask(parse_request({"kind": "questions", **BATCH}))


def test_a_batch_of_one_question_is_answered_by_its_question() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Which database?": "Postgres"})
    batch = {"questions": BATCH["questions"][:1]}

    result = queue.ask(parse_request({"kind": "questions", **batch}))

    assert result.content == {"answers": {"Which database?": "Postgres"}, "notes": {}}


def test_a_batch_of_one_question_is_still_answered_whole_by_its_message() -> None:
    queue = ElicitationQueue()
    whole = {"answers": {"Which database?": "SQLite"}, "notes": {"Which database?": "for now"}}
    ScriptedResponder(queue, {"Which database?": whole})
    batch = {"questions": BATCH["questions"][:1]}

    result = queue.ask(parse_request({"kind": "questions", **batch}))

    assert result.content == whole

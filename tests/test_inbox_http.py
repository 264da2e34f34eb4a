"""The askers' HTTP API of a real `elicit-tui serve --headless`, through a real HTTP client."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from inbox_process import InboxProcess, keyring_env, running_inbox

from tui.mcp.auth import MAX_BODY

CHOICE = {"kind": "choice", "message": "Which database?", "options": ["Postgres", "SQLite"]}

EVERY_KIND: list[tuple[dict[str, Any], Any, Any]] = [
    ({"kind": "text", "message": "Name?"}, "Ada", "Ada"),
    (CHOICE, "SQLite", "SQLite"),
    (
        {"kind": "multi_choice", "message": "Which?", "options": ["a", "b", "c"]},
        ["a", "c"],
        ["a", "c"],
    ),
    ({"kind": "confirmation", "message": "Deploy?"}, True, True),
    (
        {
            "kind": "form",
            "message": "Who?",
            "requested_schema": {
                "type": "object",
                "properties": {"age": {"type": "integer"}},
                "required": ["age"],
            },
        },
        {"age": 36},
        {"age": 36},
    ),
    (
        {
            "kind": "questions",
            "message": "Setup",
            "questions": [
                {
                    "question": "Which?",
                    "options": [{"label": "x", "preview": "# X"}, {"label": "y"}],
                }
            ],
        },
        {"answers": {"Which?": "x"}},
        {"answers": {"Which?": "x"}, "notes": {}},
    ),
    (
        {"kind": "tool_approval", "tool_name": "shell", "tool_call_id": "c1", "arguments": {}},
        {"scope": "once"},
        {"scope": "once"},
    ),
    ({"kind": "url", "message": "Open?", "url": "https://example.com/a"}, True, True),
    ({"kind": "secret", "message": "Token?"}, "s3cret-value", "s3cret-value"),
]


@pytest.fixture
def inbox() -> Iterator[InboxProcess]:
    with running_inbox() as running:
        yield running


def post(inbox: InboxProcess, request: dict[str, Any], timeout: float | None = None) -> str:
    return inbox.post(request, timeout)[0]


def result(inbox: InboxProcess, request_id: str, wait: float = 10) -> httpx2.Response:
    return inbox.result(request_id, wait=wait)


@pytest.mark.parametrize(
    ("request_data", "answer", "expected"), EVERY_KIND, ids=[k[0]["kind"] for k in EVERY_KIND]
)
def test_every_kind_is_asked_over_http_and_its_answer_comes_back(
    inbox: InboxProcess, request_data: dict[str, Any], answer: Any, expected: Any
) -> None:
    request_id, key = inbox.post(request_data)
    (pending,) = inbox.wait_pending(1)
    assert pending["id"] == request_id and pending["kind"] == request_data["kind"]

    assert inbox.answer(request_id, {"action": "accept", "content": answer}).status_code == 200
    response = inbox.result(request_id, key)

    assert response.status_code == 200
    assert response.json() == {
        "id": request_id,
        "result": {"action": "accept", "content": expected, "reason": None},
    }
    assert inbox.pending() == []


def test_a_post_that_waits_returns_the_result_given_meanwhile_and_says_what_a_bad_wait_is(
    inbox: InboxProcess,
) -> None:
    answered: list[int] = []

    def answer_once_it_waits() -> None:
        (pending,) = inbox.wait_pending(1)
        answered.append(
            inbox.answer(pending["id"], {"action": "accept", "content": "Postgres"}).status_code
        )

    answerer = threading.Thread(target=answer_once_it_waits)
    answerer.start()
    with inbox.client() as http:
        response = http.post("/v1/requests", params={"wait": 10}, json={"request": CHOICE})
        bad_wait = http.post("/v1/requests", params={"wait": "soon"}, json={"request": CHOICE})
    answerer.join(10)

    assert answered == [200]
    assert response.status_code == 200, response.text
    assert response.json()["result"]["content"] == "Postgres"
    assert bad_wait.status_code == 422 and bad_wait.json() == {
        "error": "wait must be a number of seconds"
    }
    assert inbox.pending() == []  # the bad wait queued nothing


def test_a_malformed_request_is_refused_422_naming_the_field_and_never_asked(
    inbox: InboxProcess,
) -> None:
    bad = {**CHOICE, "default": "MySQL"}
    with inbox.client() as http:
        response = http.post("/v1/requests", json={"request": bad})
        empty = http.post("/v1/ask", json={"request": {"kind": "choice", "message": "?"}})
        not_json = http.post("/v1/requests", content=b"{nope")

    assert response.status_code == 422
    assert response.json()["error"] == (
        "invalid request:\n  choice.default: 'MySQL' is not one of the options: "
        "'Postgres', 'SQLite'"
    )
    assert empty.status_code == 422 and "choice.options: Field required" in empty.json()["error"]
    assert not_json.status_code == 422 and "not valid JSON" in not_json.json()["error"]
    assert inbox.pending() == []


@pytest.mark.parametrize("token", [None, "wrong"], ids=["no token", "a wrong token"])
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/v1/requests"),
        ("POST", "/v1/ask"),
        ("GET", "/v1/requests"),
        ("GET", "/v1/requests/x/result"),
        ("DELETE", "/v1/requests/x"),
        ("GET", "/v1/events"),
        ("POST", "/v1/requests/x/answer"),
        ("POST", "/v1/cancel-all"),
        ("POST", "/v1/hooks/claude-code"),
    ],
)
def test_every_endpoint_refuses_a_request_without_the_token(
    inbox: InboxProcess, token: str | None, method: str, path: str
) -> None:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    body = {"request": CHOICE, "result": {"action": "accept", "content": "SQLite"}}
    with httpx2.Client(base_url=inbox.base, timeout=10) as http:
        response = http.request(method, path, json=body, headers=headers)

    assert response.status_code == 401
    assert inbox.pending() == []


@pytest.mark.parametrize(
    ("scheme", "status"), [("bearer", 200), ("BEARER", 200), ("Basic", 401), ("", 401)]
)
def test_the_bearer_scheme_is_named_in_any_case_the_token_exactly(
    inbox: InboxProcess, scheme: str, status: int
) -> None:
    # `Authorization: bearer TOKEN` was refused: HTTP compares a scheme's name without case.
    headers = {"Authorization": f"{scheme} {inbox.token}".strip()}
    with httpx2.Client(base_url=inbox.base, timeout=10) as http:
        assert http.get("/v1/requests", headers=headers).status_code == status
        headers = {"Authorization": f"{scheme} {inbox.token.upper()}x".strip()}
        assert http.get("/v1/requests", headers=headers).status_code == 401


def test_rebinding_and_oversized_bodies_are_refused_on_the_api(inbox: InboxProcess) -> None:
    with inbox.client() as http:
        rebinding = http.get("/v1/requests", headers={"Host": "evil.example:80"})
        foreign = http.post(
            "/v1/requests", json={"request": CHOICE}, headers={"Origin": "http://evil.example"}
        )
        huge = http.post("/v1/requests", content=b"x" * (MAX_BODY + 1))

    assert rebinding.status_code == 421
    assert foreign.status_code == 403
    assert huge.status_code == 413
    assert inbox.pending() == []


def test_ask_blocks_until_answered(inbox: InboxProcess) -> None:
    answered: list[httpx2.Response] = []

    def ask() -> None:
        with inbox.client() as http:
            answered.append(http.post("/v1/ask", json={"request": CHOICE}))

    asker = threading.Thread(target=ask)
    asker.start()
    (pending,) = inbox.wait_pending(1)
    inbox.answer(pending["id"], {"action": "decline"})
    asker.join(10)

    assert answered[0].status_code == 200
    assert answered[0].json()["result"] == {"action": "decline", "content": None, "reason": None}


def test_ask_answers_at_once_then_a_space_a_second_until_the_result(inbox: InboxProcess) -> None:
    # So an asker tells a stopped inbox (Ctrl+Z) from a person still thinking.
    with inbox.client() as http, http.stream("POST", "/v1/ask", json={"request": CHOICE}) as asked:
        assert asked.status_code == 200
        chunks = asked.iter_raw()
        (pending,) = inbox.wait_pending(1)
        started = time.monotonic()
        assert next(chunks) == b" "
        assert next(chunks) == b" "
        between = time.monotonic() - started
        inbox.answer(pending["id"], {"action": "accept", "content": "SQLite"})
        rest = b"".join(chunks)

    assert 0.5 < between < 3
    assert json.loads(rest)["result"] == {"action": "accept", "content": "SQLite", "reason": None}


def test_a_pending_result_is_204_and_an_unknown_one_404(inbox: InboxProcess) -> None:
    request_id = post(inbox, CHOICE)
    started = time.monotonic()
    waiting = result(inbox, request_id, wait=0.5)

    assert waiting.status_code == 204
    assert time.monotonic() - started >= 0.45
    assert result(inbox, "no-such-id", wait=0).status_code == 404


def test_delete_withdraws_and_the_asker_hears_cancelled_by_agent(inbox: InboxProcess) -> None:
    request_id = post(inbox, CHOICE)
    with inbox.client() as http:
        withdrawn = http.delete(f"/v1/requests/{request_id}").json()
        again = http.delete(f"/v1/requests/{request_id}").json()

    assert (withdrawn, again) == ({"withdrawn": True}, {"withdrawn": False})
    assert result(inbox, request_id).json()["result"] == {
        "action": "cancel",
        "content": None,
        "reason": "cancelled_by_agent",
    }


@pytest.mark.parametrize("path", ["/v1/ask", "/v1/requests/{id}/result?wait=30"])
def test_an_asker_that_hangs_up_while_waiting_withdraws_its_request(
    inbox: InboxProcess, path: str
) -> None:
    request_id = post(inbox, CHOICE) if "{id}" in path else None
    # Half a second: within the space a second that `/v1/ask` sends.
    with inbox.client(timeout=0.5) as http, pytest.raises(httpx2.ReadTimeout):
        if request_id is None:
            http.post(path, json={"request": {**CHOICE, "id": "hang-up"}})
        else:
            http.get(path.format(id=request_id))
    deadline = time.monotonic() + 10
    while inbox.pending() and time.monotonic() < deadline:
        time.sleep(0.05)

    assert inbox.pending() == []
    late = inbox.answer(request_id or "hang-up", {"action": "accept", "content": "SQLite"})
    assert late.status_code == 409
    assert late.json()["answered_by"] == "cancelled_by_agent"


def test_the_list_shows_what_waits_in_arrival_order(inbox: InboxProcess) -> None:
    first = post(inbox, CHOICE)
    second = post(inbox, {"kind": "text", "message": "Name?"})
    with inbox.client() as http:
        listing = http.get("/v1/requests").json()

    assert listing["waiting"] == 2
    assert [r["id"] for r in listing["pending"]] == [first, second]


def test_a_request_times_out_after_the_timeout_given_with_it(inbox: InboxProcess) -> None:
    request_id = post(inbox, CHOICE, timeout=0.3)

    assert result(inbox, request_id).json()["result"]["reason"] == "timeout"


def test_quitting_the_inbox_answers_every_waiting_asker_closed(inbox: InboxProcess) -> None:
    answered: list[dict[str, Any]] = []

    def ask(n: int) -> None:
        with inbox.client() as http:
            request = {**CHOICE, "id": f"q{n}"}
            answered.append(http.post("/v1/ask", json={"request": request}).json())

    askers = [threading.Thread(target=ask, args=(n,)) for n in range(3)]
    for asker in askers:
        asker.start()
    inbox.wait_pending(3)
    assert inbox.stop() == 0
    for asker in askers:
        asker.join(10)

    assert sorted(a["id"] for a in answered) == ["q0", "q1", "q2"]
    assert {a["result"]["reason"] for a in answered} == {"closed"}


def test_a_secret_with_store_goes_to_the_inboxs_keyring_and_the_asker_gets_the_reference(
    tmp_path: Path,
) -> None:
    secret = {"kind": "secret", "message": "Token?", "store": {"service": "gh", "username": "me"}}
    with running_inbox(env=keyring_env(tmp_path)) as inbox:
        request_id = post(inbox, secret)
        inbox.wait_pending(1)
        applied = inbox.answer(request_id, {"action": "accept", "content": "ghp-canary-123"})
        response = result(inbox, request_id)
        inbox.stop()
        log = inbox.output

    assert response.json()["result"] == {
        "action": "accept",
        "content": {"service": "gh", "username": "me"},
        "reason": None,
    }
    assert "ghp-canary-123" not in applied.text + log
    stored = next(tmp_path.rglob("keyring_pass.cfg")).read_text()
    assert "gh" in stored and "me" in stored


def test_a_secret_to_store_without_a_keyring_is_refused_before_anyone_types_it(
    inbox: InboxProcess,
) -> None:
    secret = {"kind": "secret", "message": "Token?", "store": {"service": "gh", "username": "me"}}
    request_id = post(inbox, secret)

    assert inbox.pending() == []
    assert result(inbox, request_id).json()["result"]["reason"] == "keyring_unavailable"


def test_a_bad_timeout_is_refused_422_in_the_requests_own_words(inbox: InboxProcess) -> None:
    with inbox.client() as http:
        response = http.post("/v1/requests", json={"request": CHOICE, "timeout": -1})

    assert response.status_code == 422
    assert "timeout: timeout must be greater than 0" in response.json()["error"]


def test_serve_headless_records_a_transcript_without_the_secrets(tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    with running_inbox("--transcript", str(transcript)) as inbox:
        question = post(inbox, CHOICE)
        secret = post(inbox, {"kind": "secret", "message": "Password?"})
        inbox.answer(question, {"action": "accept", "content": "SQLite"})
        inbox.answer(secret, {"action": "accept", "content": "canary-4471"})
        # An agent that echoes the secret in its next question (a sensitive answer's too).
        pin = post(inbox, {"kind": "text", "message": "PIN?", "sensitive": True})
        inbox.answer(pin, {"action": "accept", "content": "pin-canary-9921"})
        post(
            inbox, {"kind": "text", "message": "Is canary-4471 right?", "title": "pin-canary-9921"}
        )
        inbox.stop()

    text = transcript.read_text()
    assert "Which database?" in text and "SQLite" in text and "Password?" in text
    assert "canary-4471" not in text and "pin-canary-9921" not in text
    assert "Is ••• right?" in text

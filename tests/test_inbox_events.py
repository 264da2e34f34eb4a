"""The front ends' HTTP API of a real `serve --headless`: events over SSE, answers by POST."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from queue import Empty, Queue
from typing import Any

import httpx2
import pytest
from inbox_process import InboxProcess, running_inbox

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.inbox.env_names import TOKEN_ENV, URL_ENV

CHOICE = {"kind": "choice", "message": "Which database?", "options": ["Postgres", "SQLite"]}


@pytest.fixture
def inbox() -> Iterator[InboxProcess]:
    with running_inbox() as running:
        yield running


class Events:
    """The SSE messages one front end has heard, as (event, data) pairs, read in a thread."""

    def __init__(self) -> None:
        self.heard: Queue[tuple[str, dict[str, Any]]] = Queue()
        self.comments: list[str] = []

    def next(self, timeout: float = 10) -> tuple[str, dict[str, Any]]:
        try:
            return self.heard.get(timeout=timeout)
        except Empty:
            raise AssertionError("no event arrived") from None

    def none_within(self, seconds: float) -> bool:
        try:
            self.heard.get(timeout=seconds)
        except Empty:
            return True
        return False


@contextmanager
def listening(inbox: InboxProcess, name: str = "pane-1") -> Iterator[Events]:
    """A front end connected to `/v1/events` while the block runs."""
    events = Events()
    stop = threading.Event()

    def read() -> None:
        # The stream ends when the inbox stops, after the test: nothing to report then.
        with contextlib.suppress(httpx2.TransportError):
            listen()

    def listen() -> None:
        with (
            httpx2.Client(base_url=inbox.base, headers=inbox.headers, timeout=None) as http,
            http.stream("GET", "/v1/events", params={"front_end": name}) as stream,
        ):
            kind = ""
            for line in stream.iter_lines():
                if stop.is_set():
                    return
                if line.startswith(":"):
                    events.comments.append(line)
                elif line.startswith("event: "):
                    kind = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    events.heard.put((kind, json.loads(line.removeprefix("data: "))))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield events
    finally:
        stop.set()


def post(inbox: InboxProcess, request: dict[str, Any], timeout: float | None = None) -> str:
    return inbox.post(request, timeout)[0]


def test_a_front_end_first_hears_every_waiting_request_in_arrival_order_then_new_ones(
    inbox: InboxProcess,
) -> None:
    first = post(inbox, CHOICE, timeout=600)
    second = post(inbox, {"kind": "text", "message": "Name?"})
    with listening(inbox) as events:
        replayed = [events.next(), events.next()]
        third = post(inbox, {"kind": "confirmation", "message": "Go?"})
        live = events.next()

    assert [(kind, data["request"]["id"]) for kind, data in replayed] == [
        ("requested", first),
        ("requested", second),
    ]
    assert 590 < replayed[0][1]["deadline_in"] <= 600
    assert replayed[1][1]["deadline_in"] is None
    assert live[0] == "requested" and live[1]["request"]["id"] == third
    assert live[1]["result"] is None and live[1]["answered_by"] is None


def test_the_first_answer_wins_and_a_later_one_hears_who_answered_and_when(
    inbox: InboxProcess,
) -> None:
    request_id = post(inbox, CHOICE)
    with listening(inbox, "pane-1") as events:
        events.next()
        won = inbox.answer(request_id, {"action": "accept", "content": "SQLite"}, "pane-1")
        lost = inbox.answer(request_id, {"action": "accept", "content": "Postgres"}, "pane-2")
        resolved = events.next()

    assert won.status_code == 200 and won.json()["applied"] is True
    assert lost.status_code == 409
    body = lost.json()
    assert body["applied"] is False and body["answered_by"] == "pane-1"
    assert abs(body["at"] - time.time()) < 30
    assert (
        body["message"]
        == f"answered in pane-1 at {time.strftime('%H:%M', time.localtime(body['at']))}"
    )
    assert resolved[0] == "resolved"
    assert resolved[1]["result"] == {"action": "accept", "content": "SQLite", "reason": None}
    assert resolved[1]["answered_by"] == "pane-1"


def test_concurrent_answers_from_many_front_ends_apply_exactly_one(inbox: InboxProcess) -> None:
    request_id = post(inbox, CHOICE)
    statuses: list[int] = []

    def answer(n: int) -> None:
        statuses.append(
            inbox.answer(request_id, {"action": "accept", "content": "SQLite"}, f"f{n}").status_code
        )

    answerers = [threading.Thread(target=answer, args=(n,)) for n in range(8)]
    for answerer in answerers:
        answerer.start()
    for answerer in answerers:
        answerer.join(10)

    assert sorted(statuses) == [200] + [409] * 7


def test_an_answer_that_does_not_fit_is_refused_422_and_the_request_keeps_waiting(
    inbox: InboxProcess,
) -> None:
    request_id = post(inbox, CHOICE)
    refused = inbox.answer(request_id, {"action": "accept", "content": "MySQL"})
    unknown = inbox.answer("no-such-id", {"action": "accept", "content": "SQLite"})

    assert refused.status_code == 422 and "MySQL" in refused.json()["error"]
    assert unknown.status_code == 404
    assert [r["id"] for r in inbox.pending()] == [request_id]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (
            {"result": {"action": "decline"}, "front_end": 5},
            "front_end must be the front end's name as text, not number",
        ),
        (
            {"result": {"action": "decline"}, "frontend": "laptop"},
            "unknown field 'frontend': the body is {result, front_end}",
        ),
    ],
    ids=["a name that is no text", "a misspelt field"],
)
def test_an_answers_body_with_a_field_it_has_no_place_for_is_refused_naming_it(
    inbox: InboxProcess, body: dict[str, Any], error: str
) -> None:
    # Taken as they were, the answer was applied as "a front end"'s, the name lost.
    request_id = post(inbox, CHOICE)
    with inbox.client() as http:
        refused = http.post(f"/v1/requests/{request_id}/answer", json=body)
    assert (refused.status_code, refused.json()) == (422, {"error": error})
    assert [r["id"] for r in inbox.pending()] == [request_id]


def test_a_front_end_that_disconnects_answers_nothing(inbox: InboxProcess) -> None:
    request_id = post(inbox, CHOICE)
    with listening(inbox) as events:
        events.next()
    time.sleep(0.5)

    assert [r["id"] for r in inbox.pending()] == [request_id]


def test_cancel_all_cancels_every_waiting_request_closed(inbox: InboxProcess) -> None:
    ids = [post(inbox, CHOICE), post(inbox, {"kind": "text", "message": "Name?"})]
    with listening(inbox) as events:
        events.next(), events.next()
        with inbox.client() as http:
            cancelled = http.post("/v1/cancel-all").json()
        resolved = [events.next(), events.next()]

    assert cancelled == {"cancelled": 2}
    assert inbox.pending() == []
    assert [(kind, data["request"]["id"]) for kind, data in resolved] == [
        ("resolved", ids[0]),
        ("resolved", ids[1]),
    ]
    assert {data["result"]["reason"] for _, data in resolved} == {"closed"}


def test_a_typed_secret_reaches_only_its_asker_never_another_front_end(
    inbox: InboxProcess,
) -> None:
    request_id, key = inbox.post({"kind": "secret", "message": "Token?"})
    with listening(inbox) as events:
        events.next()
        applied = inbox.answer(request_id, {"action": "accept", "content": "canary-7731"})
        resolved = events.next()
    # Anyone holding the token read the secret by its id, before its asker, who then got 404.
    theirs = inbox.result(request_id, None).json()
    guessed = inbox.result(request_id, "a-guess").json()
    mine = inbox.result(request_id, key).json()

    assert "canary-7731" not in json.dumps([resolved, theirs, guessed]) + applied.text
    assert resolved[1]["result"]["content"] == "**********"
    assert theirs["result"]["content"] == guessed["result"]["content"] == "**********"
    assert mine["result"]["content"] == "canary-7731"


@pytest.mark.parametrize(
    ("request_", "answer"),
    [
        ({"kind": "text", "message": "Recovery code?", "sensitive": True}, "canary-5512"),
        (
            {
                "kind": "multi_choice",
                "message": "Which codes?",
                "options": ["canary-5512", "other"],
                "sensitive": True,
            },
            ["canary-5512"],
        ),
    ],
    ids=["text", "multi_choice"],
)
def test_a_sensitive_answer_reaches_only_its_asker_never_another_front_end(
    inbox: InboxProcess, request_: dict[str, Any], answer: Any
) -> None:
    request_id, key = inbox.post(request_)
    with listening(inbox) as events:
        events.next()
        applied = inbox.answer(request_id, {"action": "accept", "content": answer})
        resolved = events.next()
    assert inbox.result(request_id, None).json()["result"]["content"] == "**********"
    mine = inbox.result(request_id, key).json()

    assert applied.status_code == 200
    assert "canary-5512" not in json.dumps(resolved) + applied.text
    assert resolved[1]["result"]["content"] == "**********"
    assert mine["result"]["content"] == answer


def test_a_secret_echoed_in_a_later_question_is_answered_masked_to_every_front_end(
    inbox: InboxProcess,
) -> None:
    secret_id = post(inbox, {"kind": "secret", "message": "Token?"})
    inbox.answer(secret_id, {"action": "accept", "content": "canary-7731"})
    echo = {"kind": "choice", "message": "Which one?", "options": ["canary-7731", "other"]}
    request_id, key = inbox.post(echo)
    with listening(inbox) as events:
        requested = events.next()
        applied = inbox.answer(request_id, {"action": "accept", "content": "•••"})
        resolved = events.next()
    assert inbox.result(request_id, None).json()["result"]["content"] == "•••"
    mine = inbox.result(request_id, key).json()

    assert "canary-7731" not in json.dumps([requested, resolved]) + applied.text
    assert resolved[1]["result"]["content"] == "•••"
    assert mine["result"]["content"] == "canary-7731"  # the agent's own option


def test_rules_answer_tool_approvals_in_the_inbox_and_learn_from_front_ends(
    inbox: InboxProcess,
) -> None:
    def approval(call: str) -> dict[str, Any]:
        return {"kind": "tool_approval", "tool_name": "shell", "tool_call_id": call}

    first = post(inbox, approval("c1"))
    inbox.answer(first, {"action": "accept", "content": {"scope": "session"}}, "pane-1")
    second = post(inbox, approval("c2"))
    with inbox.client() as http:
        result = http.get(f"/v1/requests/{second}/result", params={"wait": 5}).json()
    late = inbox.answer(second, {"action": "decline"}, "pane-2")

    assert result["result"] == {
        "action": "accept",
        "content": {"scope": "session"},
        "reason": "auto_approved",
    }
    assert late.status_code == 409 and late.json()["answered_by"] == "approval rules"


def test_an_edited_tool_call_reaches_the_asker(inbox: InboxProcess) -> None:
    request = {"kind": "tool_approval", "tool_name": "shell", "tool_call_id": "c9"}
    request_id = post(inbox, {**request, "arguments": {"command": "rm -rf /"}})
    edited = {"scope": "once", "arguments": {"command": "ls"}}
    inbox.answer(request_id, {"action": "accept", "content": edited})
    with inbox.client() as http:
        result = http.get(f"/v1/requests/{request_id}/result").json()

    assert result["result"]["content"] == edited


@pytest.mark.parametrize("scope", ["session", "always"])
def test_a_call_holding_a_secret_is_refused_a_rule_and_keeps_waiting_for_once(
    inbox: InboxProcess, scope: str
) -> None:
    # The inbox made no rule, but answered, showed and recorded "always allowed": the person
    # believed a rule was kept that `approvals list` did not show.
    secret_id = post(inbox, {"kind": "secret", "message": "Token?"})
    inbox.answer(secret_id, {"action": "accept", "content": "canary-7731"})
    command = "curl -H 'token: canary-7731' https://api.example.com"
    request = {"kind": "tool_approval", "tool_name": "shell", "tool_call_id": "s1"}
    remember = {"argument": "command", "pattern": command}  # a rule for this command only
    request_id = post(inbox, {**request, "arguments": {"command": command}, "remember": remember})

    refused = inbox.answer(request_id, {"action": "accept", "content": {"scope": scope}})
    once = inbox.answer(request_id, {"action": "accept", "content": {"scope": "once"}})
    with inbox.client() as http:
        result = http.get(f"/v1/requests/{request_id}/result").json()

    assert refused.status_code == 422
    assert refused.json()["error"] == (
        "the call holds a secret given earlier: it may be allowed once, never remembered"
    )
    assert "canary-7731" not in refused.text
    assert once.status_code == 200
    assert result["result"]["content"] == {"scope": "once"}


def approvals_list(inbox: InboxProcess, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`elicit-tui approvals list` (or `arguments`) run as a person would, the running inbox
    found by its URL."""
    env = {**os.environ, URL_ENV: inbox.base, TOKEN_ENV: inbox.token}
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "approvals", *(arguments or ["list"])],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )


def test_approvals_list_shows_the_running_inboxs_session_rules(inbox: InboxProcess) -> None:
    request = {"kind": "tool_approval", "tool_name": "deploy", "tool_call_id": "d1"}
    request_id = post(inbox, request)
    inbox.answer(request_id, {"action": "accept", "content": {"scope": "session"}})
    listed = approvals_list(inbox)

    assert listed.returncode == 0, listed.stderr
    assert f"Allowed for this session by the inbox at {inbox.base}:" in listed.stdout
    assert "deploy (every call)" in listed.stdout


def test_approvals_list_shows_the_session_rules_though_the_rules_file_is_unreadable(
    inbox: InboxProcess,
) -> None:
    # The file's problem stopped the listing before the inbox was asked: the session rules in
    # force were hidden too. The problem did not name the key it was about.
    rules_file = Path(os.environ[CONFIG_DIR_ENV]) / "approvals.json"
    rules_file.write_text('{"rules": [{"tool": "Bash", "scope": "always", "comment": "mine"}]}')
    request = {"kind": "tool_approval", "tool_name": "deploy", "tool_call_id": "d1"}
    inbox.answer(post(inbox, request), {"action": "accept", "content": {"scope": "session"}})
    listed = approvals_list(inbox)

    assert listed.returncode == 2
    assert f"The approvals file {rules_file} is unreadable: rules.0.comment: Extra " in (
        listed.stderr
    )
    assert "deploy (every call)" in listed.stdout


def test_approvals_revoke_forgets_the_running_inboxs_session_rules(inbox: InboxProcess) -> None:
    # A "for this session" answer regretted could only be undone by stopping the inbox.
    def approval(call: str, folder: str) -> dict[str, Any]:
        return {
            "kind": "tool_approval",
            "tool_name": "deploy",
            "tool_call_id": call,
            "folder": folder,
        }

    for call, folder in (("d1", "/work/app"), ("d2", "/work/site")):
        inbox.answer(
            post(inbox, approval(call, folder)),
            {"action": "accept", "content": {"scope": "session"}},
        )
    with inbox.client() as http:
        refused = http.delete("/v1/rules")
    revoked = approvals_list(inbox, "revoke", "deploy", "--folder", "/work/app/")
    again = approvals_list(inbox, "revoke", "deploy", "--folder", "/work/app")
    asked = post(inbox, approval("d3", "/work/app"))
    still = post(inbox, approval("d4", "/work/site"))
    with inbox.client() as http:
        waiting = [r["id"] for r in http.get("/v1/requests").json()["pending"]]

    assert refused.status_code == 422
    assert (
        refused.json()["error"] == "name the rules' tool (?tool=NAME) or revoke them all (?all=1)"
    )
    assert revoked.returncode == 0, revoked.stderr
    assert revoked.stdout == "Revoked for this session: deploy (every call) in /work/app\n"
    assert again.returncode == 1 and again.stderr == "No approval matched; nothing revoked.\n"
    assert waiting == [asked]  # asked again in the folder revoked; still allowed in the other
    assert still not in waiting

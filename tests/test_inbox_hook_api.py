"""`POST /v1/hooks/{cli}` of a real `elicit-tui serve --headless`: a hook's input in, its output back."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from hook_process import BASH, ScriptedFrontEnd
from hook_schemas import INPUTS, allows
from inbox_process import InboxProcess, running_inbox


@pytest.fixture
def inbox() -> Iterator[InboxProcess]:
    with running_inbox() as running:
        yield running


def hook(inbox: InboxProcess, body: dict[str, Any], cli: str = "claude-code") -> httpx2.Response:
    with inbox.client(timeout=30) as http:
        return http.post(f"/v1/hooks/{cli}", json=body)


def test_an_accepted_call_comes_back_as_the_clis_allow(inbox: InboxProcess) -> None:
    front = ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "once"}})
    response = hook(inbox, {"input": (INPUTS / BASH).read_text(), "wait": 10})
    assert response.status_code == 200
    answer = response.json()
    assert (answer["decided"], answer["note"]) == (True, None)
    assert allows(answer["output"])
    assert [asked["id"] for asked in front.asked] == ["toolApproval:toolu_01ABC123"]
    assert inbox.pending() == []


def test_input_that_is_not_the_clis_is_no_decision_with_the_reason(inbox: InboxProcess) -> None:
    front = ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "once"}})
    response = hook(inbox, {"input": '{"hook_event_name": "Stop"}', "wait": 10})
    assert response.status_code == 200
    answer = response.json()
    assert (answer["decided"], answer["output"]) == (False, "")
    assert answer["note"].startswith("cannot read Claude Code's hook input: ")
    assert front.asked == []


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"input": "{}"}, "wait must be a number of seconds above 0"),
        ({"input": "{}", "wait": 0}, "wait must be a number of seconds above 0"),
        ({"input": "{}", "wait": True}, "wait must be a number of seconds above 0"),
        ({"input": "{}", "wait": "5"}, "wait must be a number of seconds above 0"),
        ({"input": "{}", "wait": 1e12}, "wait must be a number of seconds above 0"),
        ({"input": {"tool_name": "Bash"}, "wait": 5}, "input must be the hook's input as text"),
        ({"input": "{}", "wait": 5, "allow": True}, "unknown field 'allow'"),
    ],
)
def test_a_malformed_hook_call_is_refused_422_and_asks_nobody(
    inbox: InboxProcess, body: dict[str, Any], error: str
) -> None:
    response = hook(inbox, body)
    assert response.status_code == 422
    assert error in response.json()["error"]
    assert inbox.pending() == []


def test_a_cli_with_no_hook_here_is_404_naming_those_there_are(inbox: InboxProcess) -> None:
    response = hook(inbox, {"input": "{}", "wait": 5}, cli="cursor")
    assert response.status_code == 404
    assert response.json()["error"] == "no hook for 'cursor': one of claude-code, codex, gemini"


def test_the_same_call_asked_twice_at_once_is_asked_once(inbox: InboxProcess) -> None:
    # A CLI that runs its hook twice for one call (two matching hook entries): the second run
    # decides nothing rather than putting a second copy of the question to the person.
    body = {"input": (INPUTS / BASH).read_text(), "wait": 10}
    first: list[httpx2.Response] = []
    waiting = threading.Thread(target=lambda: first.append(hook(inbox, body)))
    waiting.start()
    inbox.wait_pending(1)
    second = hook(inbox, body).json()
    assert (second["decided"], second["note"]) == (False, "no decision: " + _REFUSED)
    [asked] = inbox.pending()
    inbox.answer(asked["id"], {"action": "decline", "content": {"reason": "twice"}})
    waiting.join(30)
    denied = json.loads(first[0].json()["output"])
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"


_REFUSED = "the same call waits in the inbox already, asked by another run of the hook"


def test_a_call_over_the_limits_itself_is_no_decision_in_plain_words(inbox: InboxProcess) -> None:
    call = json.loads((INPUTS / BASH).read_text())
    call["tool_input"] = {"command": "x" * 300_000}
    answer = hook(inbox, {"input": json.dumps(call), "wait": 5}).json()
    assert (answer["decided"], answer["output"]) == (False, "")
    assert answer["note"].endswith(
        "arguments.command: the request has more than 256 KiB of text (the limit)"
    )
    assert "Value error" not in answer["note"]

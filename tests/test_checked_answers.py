"""An answer given in a dialog is held to the request's own rules (`check_content`, its
`content_type`), as an answer given over the inbox or by a script is: content the request
refuses keeps the dialog open, saying why, and never reaches the agent."""

from __future__ import annotations

import datetime
import io
import json
import logging
import os
import re
import time
from pathlib import Path

import pytest
from answer_kinds import DueRequest, LabelRequest, OddContentRequest, PicksRequest, VaultRequest
from app_driver import SIZE, error_line, screen_text, wait_for, wait_for_modal
from asking import burst
from failing_kinds import BrokenRequest
from front_end_processes import HeadlessInbox, attached_to_inbox
from pydantic import BaseModel, SecretStr
from rich.console import Console
from test_ask_bursts import ask

from tui import ElicitationApp, ElicitationQueue, ElicitationResult, RequestBase
from tui.core.content_check import ContentRefused
from tui.core.models import ChoiceRequest, FormRequest, SecretRequest, TextRequest
from tui.testing.scripted import ImpossibleAnswerError, ScriptedResponder
from tui.transcript.reader import read_transcript
from tui.transcript.records import ResultRecord

TESTS = Path(__file__).resolve().parent
KINDS = {"ELICIT_TUI_KINDS": "answer_kinds", "PYTHONPATH": f"{TESTS}{os.pathsep}{TESTS.parent}"}
"""The environment of a process that knows this module's kinds."""
NOT_JSON = ElicitationResult(
    action="cancel", reason="dialog_failed: odd_content_test (ContentNotJSON)"
)
NOT_JSON_JSON = {"action": "cancel", "content": None, "reason": NOT_JSON.reason}
FINE_JSON = {"action": "accept", "content": "fine", "reason": None}


def asking(
    *requests: RequestBase, transcript: Path | None = None
) -> tuple[ElicitationApp, list[ElicitationResult]]:
    """An app whose agent asks `requests` one after another, and the results it got."""
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        for request in requests:
            results.append(queue.ask(request))

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=transcript)
    return app, results


async def test_a_date_the_request_refuses_keeps_the_dialog_open_saying_why() -> None:
    # The dialog's own date check passed it, and the agent got 2024-01-05.
    app, results = asking(DueRequest(message="Due when?", earliest=datetime.date(2024, 6, 1)))
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Due when?")
        await pilot.press(*"2024-01-05", "enter")
        await wait_for(pilot, lambda: error_line(modal) == "2024-01-05 is before 2024-06-01")
        assert app.screen is modal
        assert results == []
        await pilot.press(*["backspace"] * 10, *"2024-07-01", "enter")
        await wait_for(pilot, lambda: bool(results))
    assert results == [ElicitationResult(action="accept", content=datetime.date(2024, 7, 1))]


async def test_a_refusal_quoting_a_masked_field_s_value_shows_it_masked() -> None:
    # The error line said "got 'sk-CANARY-VAULT'" under the field showing •••.
    app, results = asking(VaultRequest(message="Token?"))
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Token?")
        await pilot.press(*"sk-CANARY-VAULT", "enter")
        await wait_for(pilot, lambda: bool(error_line(modal)))
        assert error_line(modal) == "token must start with ok-, got '•••'"
        assert "CANARY" not in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(results))
    assert results == [ElicitationResult(action="cancel")]


async def test_content_of_another_type_than_the_kind_s_is_refused_and_can_be_cancelled() -> None:
    # The agent got the int 2 for a kind whose answers are strings.
    app, results = asking(
        LabelRequest(message="Label?"), ChoiceRequest(message="Next?", options=["a"])
    )
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Label?")
        await pilot.press("o", "k", "enter")
        await wait_for(pilot, lambda: error_line(modal) == "Input should be a valid string")
        assert results == []
        await pilot.press("escape")
        await wait_for_modal(pilot, "Next?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(results) == 2)
    assert results == [
        ElicitationResult(action="cancel"),
        ElicitationResult(action="accept", content="a"),
    ]


async def test_a_check_content_that_raises_any_error_refuses_the_answer_as_the_inbox_does(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The person read the developer's note: "checking the answer raised DialogBroke: ...
    # (check_content refuses an answer by raising ValueError)". It is for the log now, and
    # for the report printed as the app exits.
    app, results = asking(BrokenRequest(message="Broken?", where="check"))
    detail = (
        "checking the answer raised DialogBroke: broke in check asking 'Broken?'"
        " (check_content refuses an answer by raising ValueError)"
    )
    with caplog.at_level(logging.ERROR):
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, "Broken?")
            await pilot.press("o", "k", "enter")
            await wait_for(pilot, lambda: bool(error_line(modal)))
            assert error_line(modal) == (
                "This answer could not be checked: the question's own check went wrong."
                " Try another answer, or cancel."
            )
            assert app.screen is modal
            assert not modal.failed
            await pilot.press("ctrl+n")
            await wait_for(pilot, lambda: bool(results))
    assert results == [ElicitationResult(action="decline")]
    assert f"the 'broken_test' request's check failed: {detail}" in caplog.text
    report = Console(file=io.StringIO(), width=200)
    report.print(app._failed_dialogs)
    assert f"The check of a 'broken_test' answer failed: {detail}" in report.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("what", ["object", "bytes"])
async def test_content_no_json_can_carry_ends_its_question_as_a_failed_dialog(
    what: str, tmp_path: Path
) -> None:
    # The agent got the object itself, and the transcript lost the result: its writer failed.
    transcript = tmp_path / "session.jsonl"
    app, results = asking(
        OddContentRequest(message="Odd?", what=what),
        OddContentRequest(message="Next?"),
        transcript=transcript,
    )
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for_modal(pilot, "Odd?")
        burst(app, "enter")
        await wait_for_modal(pilot, "Next?")
        notes = " ".join(notice.message for notice in app._notifications)
        assert (
            "The 'odd_content_test' dialog failed (ContentNotJSON: the odd_content_test"
            " answer's content cannot be sent as JSON: PydanticSerializationError:" in notes
        )
        burst(app, "enter")
        await wait_for(pilot, lambda: len(results) == 2)
    assert results == [NOT_JSON, ElicitationResult(action="accept", content="fine")]
    recorded = read_transcript(transcript).records
    assert [r.result for r in recorded if isinstance(r, ResultRecord)] == [
        NOT_JSON_JSON,
        FINE_JSON,
    ]


async def test_content_checked_into_json_is_still_no_json_as_the_dialog_gave_it() -> None:
    # The kind's check makes a list of the keys, but the answer is the keys, as the dialog
    # gave them: the agent got them, and `ask`, `attach`, a transcript could not write them.
    app, results = asking(PicksRequest(message="Picks?"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for_modal(pilot, "Picks?")
        burst(app, "enter")
        await wait_for(pilot, lambda: bool(results))
    assert results == [
        ElicitationResult(action="cancel", reason="dialog_failed: picks_test (ContentNotJSON)")
    ]


def test_ask_exits_2_as_for_a_failed_dialog_when_the_content_is_no_json(tmp_path: Path) -> None:
    # It exited 1, "declined", printing PydanticSerializationError's traceback.
    request = {"kind": "odd_content_test", "message": "Odd?", "what": "object"}
    code, result = ask(
        tmp_path, "--json", json.dumps(request), shown="Enter gives", burst="\r", **KINDS
    )
    assert (code, result) == (2, NOT_JSON_JSON)


def test_an_attached_front_end_ends_a_question_whose_content_is_no_json_and_goes_on(
    tmp_path: Path,
) -> None:
    # `attach` said "Sending…" for ever, and no key reached the questions behind it.
    with attached_to_inbox(tmp_path, **KINDS) as (inbox, terminal):
        odd = inbox.submit({"kind": "odd_content_test", "message": "Odd?", "what": "object"})
        nxt = inbox.submit({"kind": "odd_content_test", "message": "Next?"})
        terminal.wait_for_plain("Enter gives object")
        time.sleep(0.5)  # past the dialog's input grace
        terminal.type("\r")
        assert inbox.result(odd, wait=10) == NOT_JSON_JSON
        terminal.wait_for_plain("Enter gives text")
        time.sleep(0.5)
        terminal.type("\r")
        assert inbox.result(nxt, wait=10) == FINE_JSON
    # Printed as it exited, with where the dialog's code gave the content.
    assert "ContentNotJSON: the odd_content_test answer's content" in terminal.plain


@pytest.mark.parametrize(
    ("what", "number"), [("nan", "NaN"), ("infinity", "-Infinity")], ids=["nan", "infinity"]
)
async def test_a_number_json_has_not_is_refused_and_the_dialog_stays(
    what: str, number: str
) -> None:
    # It reached `ask`'s output and the inbox's asker as null.
    app, results = asking(OddContentRequest(message="Odd?", what=what))
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Odd?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(error_line(modal)))
        assert error_line(modal) == (
            f"the answer holds the number {number}, which JSON cannot carry (a float that is"
            " not finite)"
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(results))
    assert results == [ElicitationResult(action="cancel")]


def test_the_inbox_and_a_script_refuse_a_number_json_has_not(tmp_path: Path) -> None:
    inbox = HeadlessInbox(tmp_path / "inbox", **KINDS)
    try:
        odd = inbox.submit({"kind": "odd_content_test", "message": "Odd?"})
        nan = {"front_end": "test", "result": {"action": "accept", "content": [float("nan")]}}
        status, reply = inbox.call("POST", f"/v1/requests/{odd}/answer", nan)
        assert (status, reply["error"]) == (
            422,
            "the answer does not fit the request: the answer holds the number NaN, which JSON"
            " cannot carry (a float that is not finite)",
        )
        assert inbox.pending_ids() == [odd]
    finally:
        inbox.stop()
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Odd?": float("inf")})
    with pytest.raises(ImpossibleAnswerError, match="holds the number Infinity"):
        queue.ask(OddContentRequest(message="Odd?"))


@pytest.mark.parametrize(
    ("request_", "content", "said"),
    [
        (TextRequest(message="Name?"), 5, "the answer must be a string, not int 5"),
        (ChoiceRequest(message="Pick", options=["a", "b"]), "zzz", "'zzz' is not one of"),
        (
            DueRequest(message="Due?", earliest=datetime.date(2026, 12, 1)),
            "2026-11-30",
            "2026-11-30 is before 2026-12-01",
        ),
    ],
    ids=["text", "choice", "own kind"],
)
def test_a_front_end_in_this_process_is_held_to_the_request_s_rules(
    request_: RequestBase, content: object, said: str
) -> None:
    # `queue.respond` took any content: a text question got 5, a choice "zzz", a kind of
    # one's own skipped its `check_content`, where the inbox refuses each with a 422.
    queue = ElicitationQueue(policy="wait")
    asked = queue.submit(request_)
    with pytest.raises(ContentRefused, match=re.escape(said)):
        queue.respond(request_.id, ElicitationResult(action="accept", content=content))
    assert not asked.done() and queue.pending() == [request_]


class Signup(BaseModel):
    user: str
    password: SecretStr


def test_a_front_end_in_this_process_gives_the_asker_what_the_dialog_would() -> None:
    # `queue.respond` passed the content on as given: a form asked from a model got a dict,
    # and its password, a plain str, reached the result's repr and the model's text.
    queue = ElicitationQueue(policy="wait")
    form = FormRequest.from_model(Signup, message="Sign up")
    asked_form = queue.submit(form)
    queue.respond(
        form.id,
        ElicitationResult(action="accept", content={"user": "bob", "password": "canary-4"}),
    )
    secret = SecretRequest(message="Token?")
    asked_secret = queue.submit(secret)
    queue.respond(secret.id, ElicitationResult(action="accept", content="canary-5"))

    signup = asked_form.result(1)
    assert isinstance(signup.content, Signup)
    assert signup.content.password.get_secret_value() == "canary-4"
    assert "canary-4" not in repr(signup) + signup.to_llm_text()
    token = asked_secret.result(1).content
    assert isinstance(token, SecretStr) and token.get_secret_value() == "canary-5"


def test_every_subscriber_hears_a_sensitive_answer_flagged() -> None:
    # The event was built before the answer was flagged: an observer logging it, or a
    # transcript, got the answer a front end in this process gave in clear.
    queue = ElicitationQueue(policy="wait")
    heard: list[ElicitationResult] = []
    queue.subscribe(lambda event: heard.append(event.result) if event.result else None)
    request = TextRequest(message="PIN?", sensitive=True)
    asked = queue.submit(request)
    queue.respond(request.id, ElicitationResult(action="accept", content="canary-6"))
    assert asked.result(1).sensitive
    assert [result.sensitive for result in heard] == [True]
    assert "canary-6" not in repr(heard)

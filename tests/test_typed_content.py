"""A kind of one's own whose `content_type` is a model gives its asker an instance of it,
whoever answered: its dialog, a front end calling `queue.respond()`, a front end over the
inbox to a `RemoteQueue`, a `ScriptedResponder`. An answer the model refuses is refused the
same way on each path, and the question goes on waiting."""

from __future__ import annotations

import datetime
import json
import os
import re
from pathlib import Path
from typing import Any, ClassVar, Literal

import pytest
from answer_kinds import Slot, SlotRequest
from app_driver import SIZE, error_line, wait_for, wait_for_modal
from inbox_process import running_inbox
from test_ask_bursts import ask

from tui import (
    ElicitationApp,
    ElicitationQueue,
    ElicitationResult,
    RemoteQueue,
    RequestBase,
    register_kind,
)
from tui.core.content_check import ContentRefused
from tui.testing.scripted import ImpossibleAnswerError, ScriptedResponder
from tui.transcript.reader import read_transcript
from tui.transcript.records import ResultRecord

TESTS = Path(__file__).resolve().parent
KINDS = {"ELICIT_TUI_KINDS": "answer_kinds", "PYTHONPATH": f"{TESTS}{os.pathsep}{TESTS.parent}"}
"""The environment of an inbox that knows the slot's kind."""

AS_JSON = {"day": "2024-05-06", "roomName": "Ada"}
"""A slot as a dialog gives it, and as a front end elsewhere sends it."""
CUT_SHORT = {"day": "2024-05-0", "roomName": "Ada"}
"""A slot whose day was not typed to its end."""
SLOT = Slot(day=datetime.date(2024, 5, 6), roomName="Ada")
NOT_A_DAY = "day: Input should be a valid date or datetime, input is too short"


def test_a_front_end_in_this_process_gives_the_asker_the_kind_s_model() -> None:
    # The asker got the dict, where a ScriptedResponder gave it the Slot.
    queue = ElicitationQueue(policy="wait")
    request = SlotRequest(message="Which slot?")
    asked = queue.submit(request)
    with pytest.raises(ContentRefused, match=re.escape(NOT_A_DAY)):
        queue.respond(request.id, ElicitationResult(action="accept", content=CUT_SHORT))
    queue.respond(request.id, ElicitationResult(action="accept", content=AS_JSON))
    assert asked.result(1) == ElicitationResult(action="accept", content=SLOT)


class CountRequest(RequestBase):
    """A count, whose check (not calling super) takes more than its `content_type` does."""

    kind: Literal["count_test"] = "count_test"
    content_type: ClassVar[Any] = int

    def check_content(self, content: Any) -> Any:
        return content


register_kind(CountRequest)


def test_an_answer_the_check_takes_but_the_content_type_does_not_is_refused_and_waits() -> None:
    queue = ElicitationQueue(policy="wait")
    request = CountRequest(message="How many?")
    asked = queue.submit(request)
    with pytest.raises(ContentRefused, match="Input should be a valid integer"):
        queue.respond(request.id, ElicitationResult(action="accept", content="many"))
    assert queue.pending() == [request] and not asked.done()
    queue.respond(request.id, ElicitationResult(action="accept", content="3"))
    assert asked.result(1) == ElicitationResult(action="accept", content=3)


def test_a_script_gives_the_same_model_and_refuses_what_a_front_end_could_not_give() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Which slot?": AS_JSON, "Another?": CUT_SHORT})
    assert queue.ask(SlotRequest(message="Which slot?")).content == SLOT
    with pytest.raises(ImpossibleAnswerError, match=re.escape(NOT_A_DAY)):
        queue.ask(SlotRequest(message="Another?"))


async def test_the_dialog_gives_the_asker_the_kind_s_model() -> None:
    # The dialog's dict reached the agent: `result.content.day` raised AttributeError.
    results: list[ElicitationResult] = []
    app = ElicitationApp(
        ElicitationQueue(),
        lambda queue: results.append(queue.ask(SlotRequest(message="Which slot?"))),
        input_grace=0,
    )
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Which slot?")
        await pilot.press(*"2024-05-0", "tab", *"Ada", "enter")
        await wait_for(pilot, lambda: bool(error_line(modal)))
        assert error_line(modal) == NOT_A_DAY
        await pilot.press("shift+tab", "end", "6", "enter")
        await wait_for(pilot, lambda: bool(results))
    assert results == [ElicitationResult(action="accept", content=SLOT)]
    assert results[0].to_llm_text() == 'The user answered: {"day":"2024-05-06","roomName":"Ada"}'
    assert SlotRequest(message="Which slot?").describe_content(SLOT) == (
        '{"day":"2024-05-06","roomName":"Ada"}'
    )


def test_a_remote_queue_gives_the_asker_the_kind_s_model() -> None:
    # The inbox's JSON reached the asker as it came: a dict.
    with running_inbox(env=KINDS) as inbox:
        asked = RemoteQueue(inbox.base, inbox.token).submit(SlotRequest(message="Which slot?"))
        (pending,) = inbox.wait_pending(1)
        refused = inbox.answer(pending["id"], {"action": "accept", "content": CUT_SHORT})
        assert (refused.status_code, refused.json()["error"]) == (
            422,
            f"the answer does not fit the request: {NOT_A_DAY}",
        )
        answered = inbox.answer(pending["id"], {"action": "accept", "content": AS_JSON})
        assert answered.status_code == 200, answered.text
        assert asked.result(10) == ElicitationResult(action="accept", content=SLOT)


def test_ask_prints_and_records_the_model_as_its_json(tmp_path: Path) -> None:
    # Walked by its fields' names, the Slot went out as {"room": ...}, which it cannot read.
    transcript = tmp_path / "session.jsonl"
    request = json.dumps({"kind": "slot_test", "message": "Which slot?"})
    args = ("--json", request, "--transcript", str(transcript))
    code, result = ask(tmp_path, *args, shown="room", burst="2024-05-06\tAda\r", **KINDS)
    assert (code, result["content"]) == (0, AS_JSON)
    (recorded,) = [r for r in read_transcript(transcript).records if isinstance(r, ResultRecord)]
    assert recorded.result["content"] == AS_JSON

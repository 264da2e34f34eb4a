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
from answer_kinds import DueRequest, Slot, SlotRequest, TallyRequest
from app_driver import SIZE, error_line, wait_for, wait_for_modal
from inbox_process import running_inbox
from pydantic import BaseModel, ConfigDict, Field, computed_field
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
NOT_A_DAY = "day: Input should be a valid date in the format YYYY-MM-DD, input is too short"


def asking(request: RequestBase, results: list[ElicitationResult]) -> ElicitationApp:
    """An app whose agent asks `request` and appends its result to `results`."""
    return ElicitationApp(
        ElicitationQueue(), lambda queue: results.append(queue.ask(request)), input_grace=0
    )


def answered_remotely(
    request: RequestBase, wrong: object, right: object
) -> tuple[str, ElicitationResult]:
    """Ask `request` with a `RemoteQueue`; a front end answers `wrong` content over the inbox,
    then `right`: the inbox's refusal of the first (a 422), and the result the asker got."""
    with running_inbox(env=KINDS) as inbox:
        asked = RemoteQueue(inbox.base, inbox.token).submit(request)
        (pending,) = inbox.wait_pending(1)
        refused = inbox.answer(pending["id"], {"action": "accept", "content": wrong})
        assert refused.status_code == 422, refused.text
        answered = inbox.answer(pending["id"], {"action": "accept", "content": right})
        assert answered.status_code == 200, answered.text
        return refused.json()["error"], asked.result(10)


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
    queue.respond(request.id, ElicitationResult(action="accept", content=3))
    assert asked.result(1) == ElicitationResult(action="accept", content=3)


EARLIEST = datetime.date(2024, 1, 1)
NOT_AN_INTEGER = "Input should be a valid integer"
NOT_A_DATE = "Input should be a valid date"


@pytest.mark.parametrize(
    ("request_", "content", "said"),
    [
        (TallyRequest(message="How many?"), True, NOT_AN_INTEGER),
        (TallyRequest(message="How many?"), "3", NOT_AN_INTEGER),
        (TallyRequest(message="How many?"), 2.5, NOT_AN_INTEGER),
        (DueRequest(message="Due?", earliest=EARLIEST), 86400, NOT_A_DATE),
        (DueRequest(message="Due?", earliest=EARLIEST), True, NOT_A_DATE),
        (
            DueRequest(message="Due?", earliest=EARLIEST),
            "4",
            "Input should be a valid date in the format YYYY-MM-DD",
        ),
    ],
    ids=[
        "true as a count",
        "text as a count",
        "a fraction as a count",
        "seconds as a date",
        "true as a date",
        "a number as text as a date",
    ],
)
def test_content_of_another_json_type_than_the_content_type_is_refused_on_every_path(
    request_: RequestBase, content: object, said: str
) -> None:
    # Taken as pydantic's lax mode takes it: `true` and "3" became counts, 86400 1970-01-02.
    queue = ElicitationQueue(policy="wait")
    asked = queue.submit(request_)
    with pytest.raises(ContentRefused) as refused:
        queue.respond(request_.id, ElicitationResult(action="accept", content=content))
    assert str(refused.value).startswith(said)
    assert queue.pending() == [request_] and not asked.done()
    scripted = ElicitationQueue()
    ScriptedResponder(scripted, {request_.message: content})
    with pytest.raises(ImpossibleAnswerError, match=re.escape(said)):
        scripted.ask(request_.model_copy(update={"id": "again"}))


@pytest.mark.parametrize(
    ("request_", "content", "delivered"),
    [
        (TallyRequest(message="How many?"), 4.0, 4),
        (TallyRequest(message="How many?"), 4, 4),
        (DueRequest(message="Due?", earliest=EARLIEST), "2024-05-06", datetime.date(2024, 5, 6)),
        (
            DueRequest(message="Due?", earliest=EARLIEST),
            datetime.date(2024, 5, 6),
            datetime.date(2024, 5, 6),
        ),
    ],
    ids=["a whole float", "an int", "a date as JSON", "a date"],
)
def test_content_the_type_s_json_holds_is_given_as_the_type(
    request_: RequestBase, content: object, delivered: object
) -> None:
    # A whole number written as a float is an integer, as JSON Schema and the forms take it.
    queue = ElicitationQueue(policy="wait")
    asked = queue.submit(request_)
    queue.respond(request_.id, ElicitationResult(action="accept", content=content))
    assert asked.result(1) == ElicitationResult(action="accept", content=delivered)
    assert type(asked.result(1).content) is type(delivered)


async def test_the_dialog_refuses_true_as_a_count_and_gives_a_whole_float_as_one() -> None:
    results: list[ElicitationResult] = []
    app = asking(TallyRequest(message="How many?"), results)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "How many?")
        await pilot.press(*"true", "enter")
        await wait_for(pilot, lambda: bool(error_line(modal)))
        assert error_line(modal) == NOT_AN_INTEGER
        await pilot.press(*["backspace"] * 4, *"4.0", "enter")
        await wait_for(pilot, lambda: bool(results))
    assert results == [ElicitationResult(action="accept", content=4)]


def test_the_inbox_refuses_true_as_a_count_and_a_remote_queue_gets_a_whole_float_as_one() -> None:
    # The inbox answered 200 with "content": 1 for `true`.
    refusal, result = answered_remotely(TallyRequest(message="How many?"), True, 4.0)
    assert refusal == f"the answer does not fit the request: {NOT_AN_INTEGER}"
    assert result == ElicitationResult(action="accept", content=4)


def test_a_script_gives_the_same_model_and_refuses_what_a_front_end_could_not_give() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Which slot?": AS_JSON, "Another?": CUT_SHORT})
    assert queue.ask(SlotRequest(message="Which slot?")).content == SLOT
    with pytest.raises(ImpossibleAnswerError, match=re.escape(NOT_A_DAY)):
        queue.ask(SlotRequest(message="Another?"))


async def test_the_dialog_gives_the_asker_the_kind_s_model() -> None:
    # The dialog's dict reached the agent: `result.content.day` raised AttributeError.
    results: list[ElicitationResult] = []
    app = asking(SlotRequest(message="Which slot?"), results)
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
    refusal, result = answered_remotely(SlotRequest(message="Which slot?"), CUT_SHORT, AS_JSON)
    assert refusal == f"the answer does not fit the request: {NOT_A_DAY}"
    assert result == ElicitationResult(action="accept", content=SLOT)


def test_ask_prints_and_records_the_model_as_its_json(tmp_path: Path) -> None:
    # Walked by its fields' names, the Slot went out as {"room": ...}, which it cannot read.
    transcript = tmp_path / "session.jsonl"
    request = json.dumps({"kind": "slot_test", "message": "Which slot?"})
    args = ("--json", request, "--transcript", str(transcript))
    code, result = ask(tmp_path, *args, shown="room", burst="2024-05-06\tAda\r", **KINDS)
    assert (code, result["content"]) == (0, AS_JSON)
    (recorded,) = [r for r in read_transcript(transcript).records if isinstance(r, ResultRecord)]
    assert recorded.result["content"] == AS_JSON


class Booking(BaseModel):
    """A model whose JSON does not validate back as itself: a computed field comes out, an
    excluded one does not, and extra fields are forbidden."""

    model_config = ConfigDict(extra="forbid")
    room: str
    internal_note: str = Field(exclude=True)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def label(self) -> str:
        return f"room {self.room}"


class BookingRequest(RequestBase):
    kind: Literal["booking_test"] = "booking_test"
    content_type: ClassVar[Any] = Booking


register_kind(BookingRequest)


def test_an_instance_of_the_content_type_is_given_as_it_is_though_its_json_is_no_booking() -> None:
    # Held to its JSON, it was refused ("label: Extra inputs are not permitted"): a dialog
    # that gave the model itself could never be answered.
    queue = ElicitationQueue(policy="wait")
    request = BookingRequest(message="Which room?")
    asked = queue.submit(request)
    booking = Booking(room="Ada", internal_note="by the window")
    queue.respond(request.id, ElicitationResult(action="accept", content=booking))
    assert asked.result(1) == ElicitationResult(action="accept", content=booking)

"""A request marked `sensitive` (any kind, as gptme marks them): typed masked, scrubbed from
every text, kept out of the timeline and transcripts, flagged on its result."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from app_driver import wait_for
from cast_badges import badges_drawn
from inbox_process import running_inbox
from secret_session import CANARY, SIZE, carries_canary
from textual.widgets import Input

from tui.app.app import ElicitationApp
from tui.cli.ask import result_json
from tui.cli.plain import PlainPrompter
from tui.core.content_check import ContentRefused
from tui.core.models import (
    ChoiceRequest,
    ElicitationResult,
    FormRequest,
    MultiChoiceRequest,
    TextRequest,
)
from tui.core.queue import ElicitationQueue
from tui.secrets.redaction import REDACTOR
from tui.testing.scripted import ImpossibleAnswerError, ScriptedResponder
from widgets.timeline import Timeline


async def test_a_sensitive_text_is_typed_masked_and_shown_nowhere(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    transcript = tmp_path / "session.jsonl"
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(TextRequest(message="Bank PIN?", multiline=True, sensitive=True)))
        logging.getLogger("agent").warning("the agent got %r", results[0].content)

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=transcript)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("#answer")))
        field = app.screen.query_one("#answer", Input)
        assert field.password
        await pilot.press(*CANARY)
        assert not carries_canary(app.export_screenshot())
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
        timeline = app.query_one(Timeline)

        def cells() -> list[str]:
            return [c.plain for row in range(timeline.row_count) for c in timeline.get_row_at(row)]

        # The timeline redraws once its rows have stopped changing for a moment.
        await wait_for(pilot, lambda: any("✔" in cell for cell in cells()))
        assert not carries_canary(app.export_screenshot())
        assert REDACTOR.scrub(f"said {CANARY}") == "said •••"
    result = results[0]
    assert (result.action, result.content, result.sensitive) == ("accept", CANARY, True)
    assert any("✔ •••" in cell for cell in cells())
    assert not carries_canary(transcript.read_text())
    assert not carries_canary(repr(result)) and not carries_canary(result.to_llm_text())
    assert not carries_canary(result_json(result))
    assert CANARY in result_json(result, reveal_secret=True)
    assert "the agent got" in caplog.text and not carries_canary(caplog.text)


def test_a_sensitive_answer_given_anywhere_is_flagged_by_the_queue() -> None:
    queue = ElicitationQueue()
    form = FormRequest(
        message="Card",
        requested_schema={"type": "object", "properties": {"number": {"type": "string"}}},
        sensitive=True,
    )
    ScriptedResponder(queue, {"Card": {"number": CANARY}, "Name?": "Ada"})
    flagged = queue.ask(form)
    assert flagged.sensitive and flagged.content["number"] == CANARY
    assert not carries_canary(repr(flagged))
    plain = queue.ask(TextRequest(message="Name?"))
    assert not plain.sensitive and "Ada" in plain.to_llm_text()


async def test_a_sensitive_form_masks_every_typed_field() -> None:
    form = FormRequest(
        message="Card",
        requested_schema={
            "type": "object",
            "properties": {"number": {"type": "string"}, "cvc": {"type": "integer"}},
        },
        sensitive=True,
    )
    app = ElicitationApp(ElicitationQueue(), lambda q: q.ask(form), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.screen.query(Input)) == 2)
        inputs = list(app.screen.query(Input))
        assert len(inputs) == 2 and all(i.password for i in inputs)


def test_plain_mode_reads_a_sensitive_text_without_echoing_it() -> None:
    out = io.StringIO()
    request = TextRequest(message="PIN?", multiline=True, sensitive=True)
    result = PlainPrompter(io.StringIO(f"{CANARY}\n"), out).ask(request)
    assert result.content == CANARY
    assert not carries_canary(out.getvalue()) and "•••" in out.getvalue()


async def test_the_keys_that_answer_a_sensitive_choice_are_not_recorded_and_it_replays(
    tmp_path: Path,
) -> None:
    # The key "2" is the answer: recorded, it told what was picked, and `--show-keys` drew it.
    from tui.app.replay_app import ReplayApp
    from tui.core.models import ChoiceRequest
    from tui.transcript.reader import read_transcript
    from tui.transcript.timing import Timing

    transcript = tmp_path / "session.jsonl"
    results: list[ElicitationResult] = []
    which = ChoiceRequest(message="Which one?", options=["flu", "measles", "none"], sensitive=True)

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(which))

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=transcript)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("#options")))
        await pilot.press("down", "2")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == "measles"
    keys = [json.loads(line) for line in transcript.read_text().splitlines()]
    pressed = next(line["keys"] for line in keys if line["type"] == "keys")
    assert len(pressed) == 2 and all(set(press) == {"t", "hidden"} for press in pressed)
    assert "measles" not in json.dumps(keys[-2:]) and '"2"' not in transcript.read_text()

    replay = ReplayApp(read_transcript(transcript), timing=Timing(speed=4, max_pause=0.2))
    await replay.run_async(headless=True, size=SIZE, auto_pilot=replay.player.drive)
    assert replay.replay_agent.summary() == "1 result, all as recorded"
    cast = tmp_path / "demo.cast"
    command = ["replay", str(transcript), "--show-keys", "-o", str(cast)]
    rendered = subprocess.run(
        [sys.executable, "-m", "tui.cli", *command],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "1 result, all as recorded" in rendered.stdout, rendered.stderr
    # Nor did the render draw a badge for those keys (it drew "?", for a key it knew nothing of).
    assert badges_drawn(cast) == set()


@pytest.mark.parametrize(
    ("request_", "answer"),
    [
        (ChoiceRequest(message="Which?", options=["a", "b"], sensitive=True), CANARY),
        (MultiChoiceRequest(message="Which?", options=["a", "b"], sensitive=True), ["a", CANARY]),
    ],
    ids=["choice", "multi_choice"],
)
def test_an_answer_a_sensitive_request_refuses_is_not_quoted_in_the_refusal(
    request_: ChoiceRequest | MultiChoiceRequest, answer: object
) -> None:
    # "'sk-...' is not one of the options" quoted it, to a front end, a script, a log.
    queue = ElicitationQueue(policy="wait")
    queue.submit(request_)
    with pytest.raises(ContentRefused) as refused:
        queue.respond(request_.id, ElicitationResult(action="accept", content=answer))
    assert "•••" in str(refused.value) and CANARY not in str(refused.value)
    scripted = ElicitationQueue()
    ScriptedResponder(scripted, {request_.message: answer})
    with pytest.raises(ImpossibleAnswerError) as impossible:
        scripted.ask(request_.model_copy(update={"id": "scripted"}))
    assert CANARY not in str(impossible.value)


def test_the_inbox_refuses_an_answer_to_a_sensitive_choice_without_quoting_it(
    tmp_path: Path,
) -> None:
    with running_inbox() as inbox:
        request_id, _ = inbox.post(
            {"kind": "choice", "message": "Which?", "options": ["a", "b"], "sensitive": True}
        )
        refused = inbox.answer(request_id, {"action": "accept", "content": CANARY})
        assert refused.status_code == 422
        assert refused.json()["error"] == (
            "the answer does not fit the request: '•••' is not one of the options: 'a', 'b'"
        )
        inbox.stop()
    assert CANARY not in inbox.output

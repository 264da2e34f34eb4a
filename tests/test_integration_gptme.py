"""gptme: its own `elicit()`, its `elicit` tool and its tool confirmations, answered by the queue.

gptme pins mcp<2, which the mcp extra excludes, so these tests run in a virtualenv of their
own (`.ci/run` makes `.venv-gptme` with the `gptme` extra).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "gptme", reason="gptme needs mcp<2: .ci/run tests it in its own virtualenv (.venv-gptme)"
)

from gptme.hooks import HookType, get_hooks
from gptme.hooks.confirm import (
    ConfirmAction,
    get_confirmation,
    reset_auto_confirm,
    set_auto_confirm,
)
from gptme.hooks.elicitation import ElicitationRequest, FormField, elicit
from gptme.tools.base import ToolUse
from gptme.tools.elicit import execute_elicit
from keyring_backends import MemoryKeyring
from pydantic import SecretStr

from tui import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationQueue,
    ElicitationResult,
    FormRequest,
    MultiChoiceRequest,
    ScriptedResponder,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
)
from tui.approvals.rules import ApprovalPolicy
from tui.integrations.gptme import register

CANARY = "sk-canary-71c2"


@pytest.fixture
def queue() -> Iterator[ElicitationQueue]:
    queue = ElicitationQueue()
    unregister = register(queue)
    yield queue
    unregister()
    assert not [h for h in get_hooks(HookType.ELICIT) if h.name == "elicit-tui"]


def _tool_says(spec: dict[str, Any]) -> str:
    """What gptme's `elicit` tool tells the model for this spec."""
    return "\n".join(m.content for m in execute_elicit(json.dumps(spec), None, None))


def test_every_elicitation_type_reaches_the_queue_as_its_kind(queue: ElicitationQueue) -> None:
    scripted = ScriptedResponder(
        queue,
        {
            "Project name?": "demo",
            "Database?": "SQLite",
            "Features?": ["auth", "jobs"],
            "Proceed?": False,
            "Setup": {"name": "svc", "port": 8080, "tests": True},
        },
    )
    assert _tool_says({"type": "text", "prompt": "Project name?"}) == "User input: demo"
    choice = {"type": "choice", "prompt": "Database?", "options": ["Postgres", "SQLite"]}
    assert _tool_says(choice) == "User input: SQLite"
    multi = {"type": "multi_choice", "prompt": "Features?", "options": ["auth", "jobs", "ui"]}
    assert _tool_says(multi) == "User selected: auth, jobs"
    assert _tool_says({"type": "confirmation", "prompt": "Proceed?"}) == "User confirmed: no"
    form = elicit(
        ElicitationRequest(
            type="form",
            prompt="Setup",
            fields=[
                FormField(name="name", prompt="Name"),
                FormField(name="port", prompt="Port", type="number"),
                FormField(name="tests", prompt="Tests?", type="boolean"),
            ],
        )
    )
    assert json.loads(form.value or "") == {"name": "svc", "port": 8080, "tests": True}
    assert [type(r) for r in scripted.asked] == [
        TextRequest,
        ChoiceRequest,
        MultiChoiceRequest,
        ConfirmationRequest,
        FormRequest,
    ]


def test_a_secret_is_stored_and_the_model_only_hears_it_was_provided(
    queue: ElicitationQueue, memory_keyring: MemoryKeyring
) -> None:
    scripted = ScriptedResponder(queue, {"OpenAI API key": SecretStr(CANARY)})
    said = _tool_says({"type": "secret", "prompt": "OpenAI API key"})
    assert said == "User provided secret value (not shown)"
    request = scripted.asked[0]
    assert isinstance(request, SecretRequest) and request.store is not None
    assert (request.store.service, request.store.username) == ("gptme", "openai-api-key")


def test_a_secret_goes_to_on_secret_when_given() -> None:
    queue = ElicitationQueue()
    kept: dict[str, str] = {}
    unregister = register(queue, on_secret=lambda p, v: kept.update({p: v.get_secret_value()}))
    try:
        ScriptedResponder(queue, {"Token": SecretStr(CANARY)})
        said = _tool_says({"type": "secret", "prompt": "Token"})
    finally:
        unregister()
    assert CANARY not in said and kept == {"Token": CANARY}


def test_a_secret_form_field_is_masked_for_the_model(queue: ElicitationQueue) -> None:
    ScriptedResponder(queue, {"Login": {"user": "ada", "password": SecretStr(CANARY)}})
    said = _tool_says(
        {
            "type": "form",
            "prompt": "Login",
            "fields": [
                {"name": "user", "prompt": "User"},
                {"name": "password", "prompt": "Password", "type": "secret"},
            ],
        }
    )
    assert CANARY not in said and '"password": "<secret provided>"' in said


def test_declining_a_question_tells_the_model_it_was_cancelled(queue: ElicitationQueue) -> None:
    ScriptedResponder(queue, {"Name?": ElicitationResult(action="decline")})
    assert _tool_says({"type": "text", "prompt": "Name?"}) == "Elicitation cancelled by user"


def _shell(command: str, call_id: str) -> ToolUse:
    return ToolUse("shell", [], command, call_id=call_id)


def test_a_tool_call_is_confirmed_or_skipped_with_the_reason(queue: ElicitationQueue) -> None:
    denied = ElicitationResult(action="decline", content={"reason": "not on main"})
    scripted = ScriptedResponder(
        queue, {'shell(content="ls")': {"scope": "once"}, 'shell(content="git push")': denied}
    )
    assert get_confirmation(_shell("ls", "c1")).action == ConfirmAction.CONFIRM
    skipped = get_confirmation(_shell("git push", "c2"))
    assert (skipped.action, skipped.message) == (
        ConfirmAction.SKIP,
        "Denied by the user: not on main",
    )
    request = scripted.asked[0]
    assert isinstance(request, ToolApprovalRequest)
    assert (request.tool_name, request.id, request.arguments) == (
        "shell",
        "toolApproval:c1",
        {"content": "ls"},
    )


def test_always_is_honoured_on_the_next_call(queue: ElicitationQueue, config_dir: Any) -> None:
    ApprovalPolicy(persistent=False).attach(queue)
    reasons: list[str | None] = []
    queue.subscribe(
        lambda e: reasons.append(e.result.reason) if e.result else None, front_end=False
    )
    ScriptedResponder(queue, {"shell": {"scope": "always"}})
    assert get_confirmation(_shell("ls", "c1")).action == ConfirmAction.CONFIRM
    assert get_confirmation(_shell("pwd", "c2")).action == ConfirmAction.CONFIRM
    assert reasons == [None, "auto_approved"]


def test_a_cancel_interrupts_the_turn(queue: ElicitationQueue) -> None:
    ScriptedResponder(queue, {"shell": ElicitationResult(action="cancel")})
    with pytest.raises(KeyboardInterrupt):
        get_confirmation(_shell("rm -rf build", "c1"))


def test_auto_confirm_mode_is_honoured_without_asking(queue: ElicitationQueue) -> None:
    scripted = ScriptedResponder(queue, {})
    set_auto_confirm(1)
    try:
        assert get_confirmation(_shell("ls", "c1")).action == ConfirmAction.CONFIRM
    finally:
        reset_auto_confirm()
    assert scripted.asked == []


async def test_a_sensitive_answer_is_typed_masked_kept_out_of_records_and_flagged(
    tmp_path: Path,
) -> None:
    # Through gptme's own elicit(), answered in the real app, recorded to a transcript.
    from textual.widgets import Input

    from tui.app.app import ElicitationApp
    from widgets.timeline import Timeline

    responses: list[Any] = []
    queue = ElicitationQueue()
    transcript = tmp_path / "session.jsonl"

    def agent(queue: ElicitationQueue) -> None:
        unregister = register(queue)  # gptme's hooks are per thread: the agent's own
        try:
            request = ElicitationRequest(type="text", prompt="Recovery phrase?", sensitive=True)
            responses.append(elicit(request))
        finally:
            unregister()

    app = ElicitationApp(queue, agent, input_grace=0, transcript=transcript)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(500):
            if app.screen.query("#answer") or responses:
                break
            await pilot.pause(0.02)
        assert app.screen.query_one("#answer", Input).password
        await pilot.press(*CANARY, "enter")
        for _ in range(500):
            if responses:
                break
            await pilot.pause(0.02)
        timeline = app.query_one(Timeline)
        # The table is redrawn once its rows stop changing (REDRAW_DELAY).
        for _ in range(500):
            if any(
                "✔" in c.plain
                for row in range(timeline.row_count)
                for c in timeline.get_row_at(row)
            ):
                break
            await pilot.pause(0.02)
        screen = app.export_screenshot()
        cells = [c.plain for row in range(timeline.row_count) for c in timeline.get_row_at(row)]
    response = responses[0]
    assert (response.value, response.sensitive, response.cancelled) == (CANARY, True, False)
    assert CANARY not in screen and CANARY not in " ".join(cells)
    assert "✔ •••" in " ".join(cells)
    assert CANARY not in transcript.read_text()


def test_an_edited_call_becomes_gptmes_edit_answer(queue: ElicitationQueue) -> None:
    edited = {"scope": "once", "arguments": {"content": "git push --dry-run"}}
    ScriptedResponder(queue, {'shell(content="git push")': edited})
    answer = get_confirmation(_shell("git push", "c1"))
    assert (answer.action, answer.edited_content) == (ConfirmAction.EDIT, "git push --dry-run")


def test_an_edit_gptme_cannot_carry_skips_the_call_naming_the_edit(
    queue: ElicitationQueue,
) -> None:
    edited = {"scope": "once", "arguments": {"content": "ls", "args": ["-la"]}}
    ScriptedResponder(queue, {'shell(content="ls")': edited})
    answer = get_confirmation(_shell("ls", "c1"))
    assert answer.action == ConfirmAction.SKIP
    assert answer.message is not None and '"args": ["-la"]' in answer.message

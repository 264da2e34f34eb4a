"""A canary secret typed through the UI turns up where it belongs and nowhere else.

The agent does its worst on purpose: it logs the secret, echoes it in its next question, and
fails with an exception that quotes it. None of that may reach the screen, a screenshot, the
timeline, a notification, a log record, the session's transcript or any text meant for a model.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from app_driver import wait_for
from keyring_backends import FailingKeyring, MemoryKeyring
from pydantic import BaseModel, SecretStr
from secret_session import (
    CANARY,
    SIZE,
    TARGET,
    carries_canary,
    rendered_text,
    static_text,
    timeline_text,
    wait_for_modal,
)
from textual.pilot import Pilot
from textual.widgets import Input, Static

from tui.app.app import ElicitationApp
from tui.core.models import (
    KEYRING_UNAVAILABLE,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    Request,
    SecretRequest,
)
from tui.core.queue import ElicitationQueue
from tui.core.secret_ref import SecretRef
from tui.secrets.redaction import MASK
from widgets.agent_status import AgentStatus
from widgets.base import ElicitationModal
from widgets.confirmation import ConfirmationModal
from widgets.form import FormModal
from widgets.secret import SecretModal

log = logging.getLogger("test.canary.agent")


class Deployment(BaseModel):
    region: str
    api_key: SecretStr


def plain(content: Any) -> str:
    """The secret inside the content the agent received, however it came."""
    if isinstance(content, SecretRef):
        return content.get().get_secret_value()
    if isinstance(content, Deployment):
        return content.api_key.get_secret_value()
    if isinstance(content, dict):
        return plain(content["token"])
    assert isinstance(content, SecretStr)
    return content.get_secret_value()


@dataclass
class Run:
    """What one run of the careless agent left behind."""

    request: Request
    results: list[ElicitationResult] = field(default_factory=list)
    screenshots: dict[str, str] = field(default_factory=dict)
    revealed: str | None = None
    """A screenshot while the typed secret was revealed (not yet accepted, so not masked)."""
    shown: dict[str, str] = field(default_factory=dict)
    """Text read off widgets while the app ran: timeline, status, keyring reason."""


def careless_agent(run: Run) -> Any:
    """Asks for the secret, then leaks it every way an agent might."""

    def agent(queue: ElicitationQueue) -> None:
        result = queue.ask(run.request)
        run.results.append(result)
        secret = plain(result.content)
        log.warning("agent got the key %s", secret)
        log.info("agent got the result %r for %r", result, run.request)
        try:
            raise ValueError(f"cannot parse {secret}")
        except ValueError:
            log.exception("agent stumbled over %s", secret)
        run.results.append(queue.ask(ConfirmationRequest(message=f"Deploy with key {secret}?")))
        raise RuntimeError(f"deploy failed with key {secret}")

    return agent


async def type_secret(pilot: Pilot[Any], run: Run) -> None:
    """Type the canary (revealing it and hiding it again) and accept."""
    app = pilot.app
    modal = await wait_for_modal(pilot, ElicitationModal)
    await pilot.press(*CANARY)
    if isinstance(modal, SecretModal):
        await pilot.press("ctrl+r")
        run.revealed = app.export_screenshot()
        await pilot.press("ctrl+r")
        assert modal.query_one("#secret", Input).password
    run.screenshots["typed"] = app.export_screenshot()
    await pilot.press("enter")


async def follow_up(pilot: Pilot[Any], run: Run) -> None:
    """Answer the question in which the agent echoes the secret, noting how it was shown."""
    modal = await wait_for_modal(pilot, ConfirmationModal)
    run.shown["follow-up question"] = static_text(modal.query_one("#message", Static))
    run.shown["header"] = pilot.app.sub_title
    run.screenshots["follow-up question"] = pilot.app.export_screenshot()
    await pilot.press("enter")


async def agent_failed(pilot: Pilot[Any], run: Run) -> None:
    """Wait for the agent's failure to show, and note the status, timeline and notifications."""
    app = pilot.app
    assert isinstance(app, ElicitationApp)
    status = app.query_one(AgentStatus)
    await wait_for(pilot, lambda: status.has_class("failed"))
    await wait_for(pilot, lambda: len(app._notifications) > 0)
    await pilot.pause()
    run.screenshots["agent failed"] = app.export_screenshot()
    run.shown["timeline"] = timeline_text(app)
    run.shown["status"] = status.summary
    run.shown["status panel"] = rendered_text(status)
    run.shown["notifications"] = "\n".join(f"{n.title}: {n.message}" for n in app._notifications)


async def drive(run: Run, *, keep_in_memory: bool = False) -> None:
    """Run the app with the careless agent to its end, recording what was on screen."""
    with tempfile.TemporaryDirectory() as folder:
        transcript = Path(folder) / "session.jsonl"
        app = ElicitationApp(
            ElicitationQueue(), careless_agent(run), input_grace=0, transcript=transcript
        )
        await _drive(app, run, keep_in_memory)
        run.shown["transcript"] = transcript.read_text(encoding="utf-8")
    assert '"message":"Deploy with key •••?"' in run.shown["transcript"]


async def _drive(app: ElicitationApp, run: Run, keep_in_memory: bool) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_secret(pilot, run)
        if keep_in_memory:
            modal = await wait_for_modal(pilot, SecretModal)
            await wait_for(pilot, lambda: modal.choosing)
            run.shown["keyring reason"] = static_text(modal.query_one("#keyring-reason", Static))
            run.screenshots["keyring failure"] = app.export_screenshot()
            await pilot.press("enter")
        await follow_up(pilot, run)
        await agent_failed(pilot, run)


def leaks(run: Run, caplog: pytest.LogCaptureFixture) -> dict[str, str]:
    """Every channel the secret must stay out of, by name, with its text."""
    channels = {f"screenshot ({name})": svg for name, svg in run.screenshots.items()}
    channels |= {f"shown: {name}": text for name, text in run.shown.items()}
    channels["log records"] = "\n".join(
        [caplog.text, *(record.getMessage() for record in caplog.records)]
    )
    # The follow-up request is the agent's own text; only what elicit-tui made is checked.
    channels["repr(request)"] = repr(run.request)
    channels["str(request)"] = str(run.request)
    channels["json(request)"] = run.request.model_dump_json()
    for number, result in enumerate(run.results):
        channels[f"repr(result {number})"] = repr(result)
        channels[f"str(result {number})"] = str(result)
        channels[f"json(result {number})"] = result.model_dump_json()
        channels[f"to_llm_text(result {number})"] = result.to_llm_text()
    return {name: text for name, text in channels.items() if carries_canary(text)}


@pytest.fixture
def agent_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="test.canary.agent")
    return caplog


def assert_scrubbed_and_shown(run: Run, caplog: pytest.LogCaptureFixture) -> None:
    """No channel carries the canary, and the places that should show a mask do."""
    if run.revealed is not None:
        # The revealed field shows the canary: proof that a screenshot could carry it.
        assert CANARY in run.revealed
    assert leaks(run, caplog) == {}
    assert run.results[1].action == "accept"
    assert f"agent got the key {MASK}" in caplog.text
    assert f"ValueError: cannot parse {MASK}" in caplog.text
    assert f"Deploy with key {MASK}?" in run.shown["timeline"]
    assert run.shown["follow-up question"] == f"Deploy with key {MASK}?"
    assert run.shown["status"] == f"✖ Agent failed: RuntimeError: deploy failed with key {MASK}"
    assert (
        f"The agent failed: RuntimeError: deploy failed with key {MASK}"
        in run.shown["notifications"]
    )


async def test_stored_secret_reaches_only_the_keyring(
    memory_keyring: MemoryKeyring, agent_log: pytest.LogCaptureFixture
) -> None:
    run = Run(SecretRequest(message="API key?", pattern="sk-...", store=TARGET))

    await drive(run)

    assert_scrubbed_and_shown(run, agent_log)
    assert run.results[0].content == SecretRef(service="myapp", username="openai_api_key")
    assert memory_keyring.entries == {("myapp", "openai_api_key"): CANARY}
    assert "✔ stored in keyring myapp/openai_api_key" in run.shown["timeline"]


async def test_secret_in_memory_reaches_only_the_secret_str(
    agent_log: pytest.LogCaptureFixture,
) -> None:
    run = Run(SecretRequest(message="API key?", min_length=8))

    await drive(run)

    assert_scrubbed_and_shown(run, agent_log)
    assert plain(run.results[0].content) == CANARY
    assert "✔ •••" in run.shown["timeline"]


async def test_secret_the_keyring_refused_is_kept_in_memory_only(
    failing_keyring: FailingKeyring, agent_log: pytest.LogCaptureFixture
) -> None:
    run = Run(SecretRequest(message="API key?", store=TARGET))

    await drive(run, keep_in_memory=True)

    assert_scrubbed_and_shown(run, agent_log)
    # The failing backend quotes the password in its error; the modal shows it masked.
    assert f"'{MASK}' rejected ({MASK})" in run.shown["keyring reason"]
    assert run.results[0].reason == KEYRING_UNAVAILABLE
    assert plain(run.results[0].content) == CANARY
    assert failing_keyring.entries == {}


@pytest.mark.parametrize(
    "request_",
    [
        FormRequest.from_model(Deployment, message="Deployment?"),
        FormRequest(
            message="Token?",
            requested_schema={
                "type": "object",
                "properties": {"token": {"type": "string", "format": "password"}},
                "required": ["token"],
            },
        ),
    ],
    ids=["model-secret-str", "schema-password"],
)
async def test_secret_form_field_is_scrubbed_like_a_secret(
    request_: FormRequest, agent_log: pytest.LogCaptureFixture
) -> None:
    run = Run(request_)
    app = ElicitationApp(ElicitationQueue(), careless_agent(run), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, FormModal)
        secret_field = modal.query(Input).last()
        assert secret_field.password
        if request_.model is not None:
            await pilot.press(*"eu-west-1", "enter")
        await pilot.press(*CANARY)
        run.screenshots["typed"] = app.export_screenshot()
        await pilot.press("enter")
        await follow_up(pilot, run)
        await agent_failed(pilot, run)

    assert_scrubbed_and_shown(run, agent_log)
    assert plain(run.results[0].content) == CANARY
    field_name = "api_key" if request_.model is not None else "token"
    assert f"{field_name}=•••" in run.shown["timeline"]

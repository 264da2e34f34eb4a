"""A session recorded through the real app: an agent asks every kind that takes typing, Pilot answers.

The agent asks for a secret (the canary, typed and pasted) and then echoes it in its next
question, as a careless agent would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from app_driver import wait_for
from secret_session import CANARY, TARGET
from textual import events
from textual.pilot import Pilot

from tui.app.app import ElicitationApp
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    MultiChoiceRequest,
    SecretRequest,
    TextRequest,
)
from tui.core.queue import ElicitationQueue
from tui.core.secret_ref import SecretRef
from widgets.base import ElicitationModal

REPO = Path(__file__).resolve().parent.parent

TOKEN_FORM = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "enum": ["eu", "us"]},
        "token": {"type": "string", "format": "password"},
    },
    "required": ["region", "token"],
}


def session_agent(results: list[ElicitationResult]) -> Any:
    """Asks six questions; the last one quotes the secret it was given."""

    def agent(queue: ElicitationQueue) -> str:
        results.append(queue.ask(TextRequest(id="name", message="Name?", default="x")))
        results.append(
            queue.ask(ChoiceRequest(id="pick", message="Framework?", options=["A", "B", "C"]))
        )
        results.append(
            queue.ask(MultiChoiceRequest(id="many", message="Features?", options=["x", "y", "z"]))
        )
        key = queue.ask(SecretRequest(id="key", message="Key?", pattern="sk-...", store=TARGET))
        results.append(key)
        results.append(
            queue.ask(FormRequest(id="form", message="Token?", requested_schema=TOKEN_FORM))
        )
        assert isinstance(key.content, SecretRef)
        secret = key.content.get().get_secret_value()
        results.append(queue.ask(ConfirmationRequest(id="echo", message=f"Deploy with {secret}?")))
        return "done"

    return agent


async def on_request(pilot: Pilot[Any], request_id: str) -> None:
    app = pilot.app
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, ElicitationModal) and app.screen.request.id == request_id,
    )
    await pilot.pause()


async def record_session(path: Path, secret: str = CANARY) -> list[ElicitationResult]:
    """Run the session with a transcript at `path`, `secret` typed and pasted as the key;
    the results the agent got, in order."""
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), session_agent(results), input_grace=0, transcript=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_request(pilot, "name")
        await pilot.press("ctrl+u", *"Ada", "enter")
        await on_request(pilot, "pick")
        await pilot.press("down", "down", "up", "enter")
        await on_request(pilot, "many")
        await pilot.press("space", "down", "space", "enter")
        await on_request(pilot, "key")
        await pilot.press(*secret[:5])
        app.post_message(events.Paste(secret[5:]))
        await pilot.pause()
        await pilot.press("ctrl+r", "ctrl+r", "enter")
        await on_request(pilot, "form")
        await pilot.press("down", "enter", *secret, "enter")
        await on_request(pilot, "echo")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.agent_result == "done")
    return results


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`elicit-tui ARGS` as a separate process without a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=False,
    )


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, records: list[dict[str, Any]]) -> None:
    """Write `records` to `path` as a transcript's JSON lines, as `lines` reads them."""
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")

"""A rule revoked while an inbox runs (`elicit-tui approvals revoke`: one for this session,
which it asks the inbox to forget, or one given "always" in the session, which it takes out
of the approvals file) is written to the inbox's transcript, as the rules given are, in the
answers that gave them; a replay revokes it at the same point. Unrecorded, the replay kept the rule, allowed the
next matching call by it where the recording had asked the person, and reported a mismatch."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from front_end_processes import HeadlessInbox
from test_approvals import shell as shell_call

from tui.app.replay_app import ReplayApp
from tui.cli.main import main
from tui.render.capture import capture
from tui.render.script import build_script
from tui.secrets.memory_keyring import memory_keyring
from tui.transcript.reader import read_transcript
from tui.transcript.timing import Timing

CANARY = "sk-canary-8f3a"
"""A secret given in the session: revoking a rule writes none."""


def shell(call_id: str, command: str) -> dict[str, Any]:
    """A shell call whose "for this session" covers `pytest*`, as an asker sends it."""
    data: dict[str, Any] = shell_call(call_id, command).model_dump(mode="json")
    return data


def answer(inbox: HeadlessInbox, request_id: str, content: dict[str, object]) -> None:
    body = {"front_end": "browser", "result": {"action": "accept", "content": content}}
    assert inbox.call("POST", f"/v1/requests/{request_id}/answer", body)[0] == 200
    assert inbox.result(request_id, wait=10) is not None


@pytest.mark.parametrize(
    ("scope", "said"),
    [("session", "Revoked for this session: shell"), ("always", "Revoked: shell")],
)
async def test_a_rule_given_then_revoked_in_the_session_is_recorded_and_replayed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    scope: str,
    said: str,
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    transcript = tmp_path / "session.jsonl"
    inbox = HeadlessInbox(config, args=("--transcript", str(transcript)))
    try:
        secret = inbox.submit({"kind": "secret", "message": "API key?"})
        body = {"front_end": "browser", "result": {"action": "accept", "content": CANARY}}
        assert inbox.call("POST", f"/v1/requests/{secret}/answer", body)[0] == 200
        answer(inbox, inbox.submit(shell("c1", "pytest -q")), {"scope": scope})
        allowed = inbox.submit(shell("c2", "pytest -x"))  # the rule allows it
        assert inbox.result(allowed, wait=10) is not None

        monkeypatch.setenv("ELICIT_TUI_CONFIG_DIR", str(config))
        to = ["--to", inbox.url, "--token", inbox.token]
        assert main(["approvals", "revoke", "shell", *to]) == 0
        assert f"{said} (command ~ pytest*" in capsys.readouterr().out

        answer(inbox, inbox.submit(shell("c3", "pytest -k slow")), {"scope": "once"})
    finally:
        inbox.stop()

    written = transcript.read_text()
    assert CANARY not in written
    records = [json.loads(line) for line in written.splitlines()]
    revoked = [record["rules"] for record in records if record["type"] == "revoked"]
    assert [[rule["tool"], rule["match"]["pattern"], rule["scope"]] for rule in revoked[0]] == [
        ["shell", "pytest*", scope]
    ], written

    app = ReplayApp(read_transcript(transcript), timing=Timing(speed=4, max_pause=0.2))
    with memory_keyring():
        await app.run_async(headless=True, size=(80, 24), auto_pilot=app.player.drive)
    agent = app.replay_agent
    assert not agent.mismatches, [mismatch.describe() for mismatch in agent.mismatches]
    assert len(agent.checked) == 4
    # A render steps through the session on the recorded clock: the same there.
    recorded = read_transcript(transcript)
    script = build_script(recorded, Timing())
    rendered = await asyncio.to_thread(capture, recorded, script, (80, 24), "textual-dark")
    assert rendered.summary == "4 results, all as recorded"

"""Rules and secrets stay with the inbox: a rule made for one asker answers every other, lasts as
long as its scope says, and a secret to store reaches the inbox's keyring, never the asker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hook_process import BASH, ScriptedFrontEnd, run_hook
from hook_schemas import INPUTS
from inbox_process import TOKEN, InboxProcess, keyring_env, running_inbox

import tui
from tui.core.models import AUTO_APPROVED


class Person:
    """Answers each question by its summary from `scopes`; declines every other question."""

    def __init__(self, scopes: dict[str, str]) -> None:
        self.scopes = scopes

    def __call__(self, request: dict[str, object]) -> dict[str, object]:
        scope = self.scopes.get(str(request.get("summary")))
        return {"action": "accept", "content": {"scope": scope}} if scope else {"action": "decline"}


def _claude_code(command: str, call_id: str, inbox: InboxProcess) -> str:
    data = json.loads((INPUTS / BASH).read_text())
    data["tool_use_id"], data["tool_input"] = call_id, {"command": command}
    return run_hook("claude-code", BASH, stdin=json.dumps(data), inbox=inbox).stdout


def _codex(command: str, inbox: InboxProcess, description: str | None = None) -> str:
    fixture = "codex_permission_request_bash.json"
    data = json.loads((INPUTS / fixture).read_text())
    data["tool_input"] = {"command": command}
    if description is not None:
        data["tool_input"]["description"] = description
    return run_hook("codex", fixture, stdin=json.dumps(data), inbox=inbox).stdout


@pytest.mark.usefixtures("no_inbox")
def test_rules_made_for_one_asker_answer_every_asker_for_as_long_as_their_scope() -> None:
    person = Person({"Bash: npm test": "session", "Bash: make lint": "always"})
    with running_inbox() as inbox:
        ScriptedFrontEnd(inbox, person)
        assert '"allow"' in _claude_code("npm test", "toolu_a1", inbox)
        assert '"allow"' in _claude_code("make lint", "toolu_a2", inbox)
        person.scopes = {}  # from now on the person declines: only a rule can allow
        # Another CLI, and a Python agent in another process, get the rules' answers at once,
        # in the project they were made in (the hooks' inputs name /home/user/my-project).
        assert '"behavior": "allow"' in _codex("npm test", inbox)
        # Not Codex's request for network access, its host in the description Claude Code's
        # rule lets vary: the person, who now declines, is asked.
        assert '"behavior": "deny"' in _codex("npm test", inbox, "network-access evil.example")
        approval = tui.ToolApprovalRequest(
            tool_name="Bash",
            arguments={"command": "make lint"},
            tool_call_id="py-1",
            folder="/home/user/my-project",
        )
        result = tui.RemoteQueue(inbox.base, TOKEN).ask(approval, timeout=10)
        assert (result.action, result.reason) == ("accept", AUTO_APPROVED)
        assert '"deny"' in _claude_code("npm publish", "toolu_a3", inbox)
    with running_inbox() as restarted:
        ScriptedFrontEnd(restarted, person)
        assert '"deny"' in _claude_code("npm test", "toolu_b1", restarted)  # the session ended
        assert '"allow"' in _claude_code("make lint", "toolu_b2", restarted)  # always is kept
    listed = subprocess.run(
        [sys.executable, "-m", "tui.cli", "approvals", "list"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "Bash (command = make lint, any description and timeout)" in listed
    assert "npm test" not in listed


def test_a_secret_asked_from_the_shell_is_stored_by_the_inbox_and_only_referenced(
    tmp_path: Path,
) -> None:
    canary = "canary-5521-never-in-the-asker"
    with running_inbox(env=keyring_env(tmp_path)) as inbox:
        answered = threading.Thread(
            target=lambda: inbox.answer(
                inbox.wait_pending(1)[0]["id"], {"action": "accept", "content": canary}
            )
        )
        answered.start()
        asking = ["--to", inbox.base, "--token", TOKEN, "secret", "GitHub token?"]
        asked = subprocess.run(
            [sys.executable, "-m", "tui.cli", "ask", *asking, "--store", "github/ada"],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        answered.join(15)
    assert json.loads(asked.stdout)["content"] == {"service": "github", "username": "ada"}
    assert canary not in asked.stdout + asked.stderr
    kept = subprocess.run(
        [sys.executable, "-c", "import keyring; print(keyring.get_password('github', 'ada'))"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **keyring_env(tmp_path)},
    )
    assert kept.stdout.strip() == canary

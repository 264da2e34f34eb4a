"""A scripted front end on a real inbox's `/v1/events`, and `elicit-tui hook` run as a CLI runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import httpx2
from hook_schemas import INPUTS
from inbox_process import TOKEN, InboxProcess

BASH = "claude_code_pre_tool_use_bash.json"
"""Claude Code's PreToolUse input for `npm test`."""

Script = Callable[[dict[str, Any]], dict[str, Any] | None]
"""What the front end answers to a request (its JSON), or None to leave it waiting."""


class ScriptedFrontEnd:
    """A front end in a thread: reads the inbox's events and answers each request by `script`."""

    def __init__(self, inbox: InboxProcess, script: Script) -> None:
        self.inbox = inbox
        self.script = script
        self.asked: list[dict[str, Any]] = []
        self.connected = threading.Event()
        threading.Thread(target=self._listen, daemon=True).start()
        assert self.connected.wait(15), "the front end could not connect"

    def _listen(self) -> None:
        try:
            with (
                self.inbox.client(timeout=None) as http,
                http.stream("GET", "/v1/events", params={"front_end": "script"}) as events,
            ):
                self.connected.set()
                kind = None
                for line in events.iter_lines():
                    if line.startswith("event: "):
                        kind = line.removeprefix("event: ")
                    elif line.startswith("data: ") and kind == "requested":
                        self._answer(json.loads(line.removeprefix("data: "))["request"])
        except httpx2.HTTPError:
            pass  # the inbox stopped: the test is over

    def _answer(self, request: dict[str, Any]) -> None:
        self.asked.append(request)
        result = self.script(request)
        if result is not None:
            self.inbox.answer(request["id"], result, front_end="script")


def run_hook(
    cli: str,
    fixture: str,
    *options: str,
    stdin: str | None = None,
    inbox: InboxProcess | None = None,
    to: str | None = None,
    token: str = TOKEN,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `elicit-tui hook CLI` on a recorded input as the CLI would, asking `inbox` (at the
    URL `serve` prints) or the inbox at `to`, with `env` added to the environment."""
    url = to or (f"{inbox.base}/mcp" if inbox else "")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "tui.cli",
            "hook",
            cli,
            "--to",
            url,
            "--token",
            token,
            *options,
        ],
        input=(INPUTS / fixture).read_text() if stdin is None else stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def started_hook(cli: str, stdin: str, inbox: InboxProcess, *options: str) -> subprocess.Popen[str]:
    """`elicit-tui hook CLI` started on `stdin` (then closed), asking `inbox`; see `ended`."""
    to = ["--to", inbox.base, "--token", inbox.token]
    hook = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "hook", cli, *to, *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert hook.stdin is not None
    hook.stdin.write(stdin)
    hook.stdin.close()
    hook.stdin = None  # written: `communicate` has nothing more to send
    return hook


def ended(hook: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    """What `hook` (see `started_hook`) printed and its status, once it has ended."""
    stdout, stderr = hook.communicate(timeout=60)
    return subprocess.CompletedProcess(hook.args, hook.returncode, stdout, stderr)

"""`elicit-tui mcp --url` with a server that wants a bearer token: `serve`'s own `/mcp`."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from inbox_process import TOKEN, InboxProcess, running_inbox

from tui.inbox.env_names import TOKEN_ENV, URL_ENV

ROOT = Path(__file__).parent.parent
ELICIT = json.dumps({"kind": "text", "message": "Your name?", "timeout": 0.5})
_CALL = ("--call", "elicit", "--args", ELICIT, "--auto", "decline")


def mcp(
    url: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`elicit-tui mcp --url URL --call elicit ... --auto decline`, as a script runs it."""
    base_env = {k: v for k, v in os.environ.items() if k not in (TOKEN_ENV, URL_ENV)}
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "mcp", "--url", url, *args, *_CALL],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**base_env, **(env or {})},
        check=False,
    )


@pytest.fixture(scope="module")
def inbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InboxProcess]:
    config = tmp_path_factory.mktemp("config")
    with running_inbox(env={"ELICIT_TUI_CONFIG_DIR": str(config)}) as running:
        yield running


def test_a_token_refused_is_said_as_such_with_how_to_give_one(inbox: InboxProcess) -> None:
    done = mcp(f"{inbox.base}/mcp", env={"ELICIT_TUI_CONFIG_DIR": "/nonexistent"})
    assert done.returncode == 1
    assert "answered HTTP 401 (Unauthorized): it wants a token; give it with --token" in done.stderr
    assert "-32603" not in done.stderr


def test_the_token_given_reaches_the_server(inbox: InboxProcess) -> None:
    done = mcp(f"{inbox.base}/mcp", "--token", TOKEN)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["structuredContent"] == {"action": "cancel", "content": None, "reason": "timeout"}


def test_the_inbox_named_by_the_environment_gets_its_token(inbox: InboxProcess) -> None:
    env = {URL_ENV: inbox.base, TOKEN_ENV: TOKEN}
    done = mcp(f"{inbox.base}/mcp", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["structuredContent"]["reason"] == "timeout"


def test_a_wrong_token_is_refused_without_being_quoted(inbox: InboxProcess) -> None:
    done = mcp(f"{inbox.base}/mcp", "--token", "not-the-token-canary")
    assert done.returncode == 1
    assert "HTTP 401" in done.stderr
    assert "canary" not in done.stderr + done.stdout


class _Recorder(http.server.BaseHTTPRequestHandler):
    heard: ClassVar[list[str | None]] = []

    def do_POST(self) -> None:
        self.heard.append(self.headers.get("Authorization"))
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


def test_the_inbox_token_goes_to_no_other_server() -> None:
    """An MCP server elsewhere never gets the inbox's token from the environment."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/mcp"
        done = mcp(url, env={URL_ENV: "http://127.0.0.1:9", TOKEN_ENV: "inbox-canary-token"})
    finally:
        server.shutdown()
    assert _Recorder.heard and set(_Recorder.heard) == {None}
    assert done.returncode == 1
    assert "answered HTTP 403 (Forbidden)" in done.stderr


def test_a_token_with_a_stdio_server_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "mcp", "--token", "t", "--", "srv"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    assert "--token is for a server at --url" in done.stderr

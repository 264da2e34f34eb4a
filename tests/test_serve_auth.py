"""`elicit-tui serve` lets in only clients with its token, and only requests of a sane size."""

from __future__ import annotations

import asyncio
import json
import os
import pty
import secrets
import select
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from front_end_processes import HeadlessInbox
from keyring_backends import MemoryKeyring
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, Implementation

from tui.app.serve_app import ServeApp
from tui.core.models import TextRequest
from tui.core.queue import ElicitationQueue
from tui.mcp.auth import MAX_BODY, new_token
from widgets.base import ElicitationModal
from widgets.timeline import Timeline

TOKEN = "test-token-0123456789"
DB = {"question": "Which database?", "options": [{"label": "Postgres"}, {"label": "SQLite"}]}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "claude-code", "version": "1"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def app(listener: socket.socket) -> ServeApp:
    return ServeApp(ElicitationQueue(policy="wait"), listener, token=TOKEN, input_grace=0)


async def call(url: str, tool: str, arguments: dict[str, Any], token: str | None) -> CallToolResult:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    info = Implementation(name="claude-code", version="1")
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30)) as http,
        Client(streamable_http_client(url, http_client=http), client_info=info) as client,
    ):
        return await client.call_tool(tool, arguments)


def refused_row(app: ServeApp) -> str:
    timeline = app.query_one(Timeline)
    return " | ".join(
        " ".join(str(cell) for cell in timeline.get_row(key))
        for key in timeline.rows
        if "refused" in str(timeline.get_row(key)[1])
    )


async def test_the_notice_for_clients_names_the_command_that_prints_the_token(
    app: ServeApp,
) -> None:
    # The token, cut across two lines of a narrow notice, was copied with the break in it.
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app._notifications))
        said = " ".join(str(notice.message) for notice in app._notifications)
    assert "Authorization: Bearer" in said and "elicit-tui token" in said
    assert TOKEN not in said


@pytest.mark.parametrize("token", [None, "wrong-token"], ids=["no token", "a wrong token"])
async def test_a_request_without_the_token_is_refused_401_and_never_asked(
    app: ServeApp, token: str | None
) -> None:
    headers = HEADERS if token is None else {**HEADERS, "Authorization": f"Bearer {token}"}
    async with app.run_test(size=SIZE) as pilot, httpx2.AsyncClient(timeout=30) as http:
        response = await http.post(app.url, headers=headers, json=INITIALIZE)
        await wait_for(pilot, lambda: app.refused == 1)

        assert response.status_code == 401
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert not isinstance(app.screen, ElicitationModal)
        assert app.queue.pending() == []
        assert "⛔ 1 refused" in refused_row(app)
        assert ("no token" if token is None else "a wrong token") in refused_row(app)


async def test_refusals_share_one_timeline_row(app: ServeApp) -> None:
    async with app.run_test(size=SIZE) as pilot, httpx2.AsyncClient(timeout=30) as http:
        for _ in range(5):
            await http.post(app.url, headers=HEADERS, json=INITIALIZE)
        await wait_for(pilot, lambda: app.refused == 5)

        assert app.query_one(Timeline).row_count == 1
        assert "⛔ 5 refused" in refused_row(app)


async def test_the_refused_row_moves_to_the_newest_place_with_each_refusal(
    app: ServeApp,
) -> None:
    # It stayed where the first refusal put it, its time updated: above rows older than
    # its time, and out of view once the timeline had scrolled.
    async with app.run_test(size=SIZE) as pilot, httpx2.AsyncClient(timeout=30) as http:
        await http.post(app.url, headers=HEADERS, json=INITIALIZE)
        await wait_for(pilot, lambda: app.refused == 1)
        timeline = app.query_one(Timeline)
        for n in range(30):
            app.queue.submit(TextRequest(id=f"q{n}", message=f"Question {n}?"))
            app.queue.cancel(f"q{n}")
        await wait_for(pilot, lambda: timeline.row_count == 31, timeout=15)
        await http.post(app.url, headers=HEADERS, json=INITIALIZE)
        await wait_for(pilot, lambda: app.refused == 2)
        await wait_for(pilot, lambda: "⛔ 2 refused" in refused_row(app))
        keys = [key.value for key in timeline.rows]
        assert (len(keys), keys[-1]) == (31, "refused")
        assert timeline.cursor_row == 30


async def test_a_client_with_the_token_asks_and_is_named_by_its_connection(
    app: ServeApp,
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.ensure_future(call(app.url, "ask_user", {"questions": [DB]}, TOKEN))
        modal = await wait_for_modal(pilot, timeout=15)
        assert modal.request.source == "client 1, said it is claude-code"
        await pilot.press("2")
        result = await asyncio.wait_for(task, 15)

    assert result.structured_content is not None
    assert result.structured_content["answers"] == {"Which database?": "SQLite"}
    assert app.refused == 0


async def test_a_3_mib_question_is_refused_at_once_and_the_tui_answers_the_next(
    app: ServeApp,
) -> None:
    huge = {**DB, "question": "x" * (3 * 1024 * 1024)}
    async with app.run_test(size=SIZE) as pilot:
        with pytest.raises(Exception):  # noqa: B017 - the client reports the 413 its own way
            await call(app.url, "ask_user", {"questions": [huge]}, TOKEN)
        assert app.refused == 1
        assert "bytes" in refused_row(app)

        task = asyncio.ensure_future(call(app.url, "ask_user", {"questions": [DB]}, TOKEN))
        await wait_for_modal(pilot, timeout=15)
        await pilot.press("1")
        result = await asyncio.wait_for(task, 15)
    assert result.structured_content is not None
    assert result.structured_content["answers"] == {"Which database?": "Postgres"}


async def test_a_question_over_the_text_limit_is_a_tool_error_naming_it(app: ServeApp) -> None:
    over = {**DB, "question": "x" * (300 * 1024)}
    assert len(json.dumps(over)) < MAX_BODY
    async with app.run_test(size=SIZE):
        result = await call(app.url, "ask_user", {"questions": [over]}, TOKEN)
        assert not isinstance(app.screen, ElicitationModal)

    assert result.is_error
    assert "256 KiB of text" in str(result.content)


async def test_a_secret_replaces_an_existing_keyring_entry_only_once_the_person_confirms(
    app: ServeApp, isolated_keyring: MemoryKeyring
) -> None:
    isolated_keyring.set_password("github", "api-token", "the-old-secret")
    arguments = {"message": "GitHub token?", "service": "github", "username": "api-token"}
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.ensure_future(call(app.url, "request_secret", arguments, TOKEN))
        modal = await wait_for_modal(pilot, timeout=15)
        await pilot.press(*"new-secret", "enter")
        await wait_for(pilot, lambda: "exists already" in str(modal.query_one("#error").render()))
        assert isolated_keyring.get_password("github", "api-token") == "the-old-secret"
        assert not task.done()

        await pilot.press("enter")
        result = await asyncio.wait_for(task, 15)

    assert result.structured_content is not None
    assert result.structured_content["stored"] is True
    assert isolated_keyring.get_password("github", "api-token") == "new-secret"


def serve_without_a_terminal(tmp_path: Path, *arguments: str, **env: str) -> str:
    """Run `serve --headless` as a process printing to a pipe, until it listens: what it
    printed. It is then killed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "serve", "--headless", "--port", "0", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        env={**os.environ, "ELICIT_TUI_CONFIG_DIR": str(tmp_path), **env},
        start_new_session=True,
    )
    assert process.stdout is not None
    lines = []
    try:
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Inbox API on"):
                break
    finally:
        process.kill()  # what it printed is all this asks for
        process.wait(timeout=30)
        process.stdout.close()
    assert lines and lines[-1].startswith("Inbox API on"), "".join(lines)
    return "".join(lines)


def pasted_config(output: str) -> dict[str, Any]:
    start = output.index("{")
    config: dict[str, Any] = json.JSONDecoder().raw_decode(output[start:])[0]
    return config["mcpServers"]["elicit-tui"]


def test_serve_prints_a_client_config_with_a_new_token_kept_owner_only(tmp_path: Path) -> None:
    # Printed to a log (`serve --headless > inbox.log`, the README's), the config left the
    # token there, readable by others: it names the command that prints it instead.
    output = serve_without_a_terminal(tmp_path)
    server = pasted_config(output)

    assert server["headers"] == {"Authorization": "Bearer <elicit-tui token>"}
    assert "the token is left out: `elicit-tui token` prints it" in output
    kept = tmp_path / "serve-token"
    token = kept.read_text().strip()
    assert len(token) >= 32 and token not in output
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    serve_without_a_terminal(tmp_path)
    assert kept.read_text().strip() != token


def test_the_token_can_be_set_with_a_flag_or_the_environment(tmp_path: Path) -> None:
    kept = tmp_path / "serve-token"
    by_flag = serve_without_a_terminal(tmp_path, "--token", "flag-token")
    assert kept.read_text().strip() == "flag-token" and "flag-token" not in by_flag
    serve_without_a_terminal(tmp_path, ELICIT_TUI_TOKEN="env-token")
    assert kept.read_text().strip() == "env-token"


def test_a_token_that_can_be_neither_saved_nor_shown_stops_serve_saying_why(
    tmp_path: Path,
) -> None:
    # The config folder a file: the token was not saved, and left out of the log, so no one
    # could ever know it; the inbox ran on, refusing everyone, after "File exists".
    config = tmp_path / "not-a-folder"
    config.write_text("")
    finished = subprocess.run(
        [sys.executable, "-m", "tui.cli", "serve", "--headless", "--port", "0"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        env={**os.environ, "ELICIT_TUI_CONFIG_DIR": str(config)},
        timeout=30,
    )
    assert finished.returncode == 1
    assert finished.stderr == (
        f"elicit-tui serve: the token could not be saved for scripts ({config} is a file, "
        "not a folder) and is not printed to no terminal: give one with --token or "
        "$ELICIT_TUI_TOKEN\n"
    )
    # Given one, the inbox runs, and says why it is not saved.
    output = serve_without_a_terminal(config, ELICIT_TUI_TOKEN="given-token")
    assert f"(the token could not be saved for scripts: {config} is a file, not a folder)" in (
        output
    )


def test_a_token_that_cannot_be_saved_says_where_it_was_to_go(tmp_path: Path) -> None:
    # The config folder under a file: it said only "(Not a directory)", not which.
    (tmp_path / "a-file").write_text("")
    config = tmp_path / "a-file" / "elicit-tui"

    output = serve_without_a_terminal(config, ELICIT_TUI_TOKEN="given-token")

    assert f"(the token could not be saved for scripts: {config}: Not a directory)" in output


def test_no_auth_is_an_explicit_choice_and_says_so(tmp_path: Path) -> None:
    output = serve_without_a_terminal(tmp_path, "--no-auth")

    assert "headers" not in pasted_config(output)
    assert "no token: --no-auth" in output
    assert not (tmp_path / "serve-token").exists()


def test_a_second_inbox_from_one_config_folder_shares_the_running_ones_token(
    tmp_path: Path,
) -> None:
    # It wrote its own token over the running inbox's, and left it there as it exited: every
    # hook, asker and front end that reads the file was refused by the inbox still running.
    first = HeadlessInbox(tmp_path, token=None)
    try:
        token = (tmp_path / "serve-token").read_text().strip()
        second = HeadlessInbox(tmp_path, token=None)
        assert second.token == token
        assert (tmp_path / "serve-token").read_text().strip() == token
        assert second.call("GET", "/v1/requests")[0] == 200
        second.stop()
        assert (tmp_path / "serve-token").read_text().strip() == token
        assert first.call("GET", "/v1/requests")[0] == 200  # found with the file's token

        # One given a token of its own keeps it, and leaves the file to the running one.
        own = HeadlessInbox(tmp_path, token="a-token-of-its-own-0123456789")
        assert own.call("GET", "/v1/requests")[0] == 200
        own.stop()
        assert (tmp_path / "serve-token").read_text().strip() == token
    finally:
        first.stop()
    # None running, the next one writes a new token.
    third = HeadlessInbox(tmp_path, token=None)
    third.stop()
    assert third.token != token


def test_a_new_token_never_starts_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    # One token in 64 did: `--token "$TOKEN"`, as the README writes it, then failed with
    # "argument --token: expected one argument".
    drawn = iter(["-8Y13T4-73Ynh", "_a-b", "-x"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda _size: next(drawn))
    assert new_token() == "_a-b"


def test_on_a_terminal_the_config_shows_the_token_to_paste(tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    serve = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "serve", "--headless", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=terminal,
        stderr=terminal,
        env={**os.environ, "ELICIT_TUI_CONFIG_DIR": str(tmp_path)},
    )
    os.close(terminal)
    try:
        seen = b""
        deadline = time.monotonic() + 30
        while b"Inbox API on" not in seen and time.monotonic() < deadline:
            if select.select([controller], [], [], 0.5)[0]:
                seen += os.read(controller, 65536)
    finally:
        serve.terminate()
        serve.wait(10)
        os.close(controller)
    token = (tmp_path / "serve-token").read_text().strip()
    assert f"Bearer {token}" in seen.decode()


def test_an_inbox_without_a_token_drops_the_token_an_earlier_one_saved(tmp_path: Path) -> None:
    # Clients on this machine read the saved token and sign with it: an inbox run with
    # --no-auth holds none and cannot prove it, so with an earlier inbox's token left in the
    # file every `ask --to` was refused as "not proven".
    (tmp_path / "serve-token").write_text("an-earlier-inbox-token-0123456789\n")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    env = {**os.environ, "ELICIT_TUI_CONFIG_DIR": str(tmp_path)}
    env.pop("ELICIT_TUI_TOKEN", None)
    repo = Path(__file__).resolve().parent.parent
    cli = [sys.executable, "-m", "tui.cli"]
    inbox = subprocess.Popen(
        [*cli, "serve", "--headless", "--no-auth", "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=repo,
        env=env,
        start_new_session=True,
    )
    try:
        assert inbox.stdout is not None
        for line in inbox.stdout:
            if line.startswith("Inbox API on"):
                break
        assert not (tmp_path / "serve-token").exists()
        asked = subprocess.run(
            [*cli, "ask", "--to", f"http://127.0.0.1:{port}", "confirm", "Go?", "--timeout", "1"],
            capture_output=True,
            text=True,
            cwd=repo,
            env=env,
            timeout=60,
        )
    finally:
        inbox.kill()
        inbox.wait(timeout=30)
        if inbox.stdout is not None:
            inbox.stdout.close()
    assert json.loads(asked.stdout)["reason"] == "timeout", asked.stderr

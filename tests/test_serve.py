"""`elicit-tui serve`: real MCP clients over streamable HTTP on 127.0.0.1, answered with Pilot."""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from app_driver import wait_for
from keyring_backends import MemoryKeyring
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult
from textual.pilot import Pilot

from tui.app.serve_app import ServeApp
from tui.cli.main import main
from tui.core.queue import ElicitationQueue
from tui.inbox.env_names import TOKEN_ENV
from widgets.base import ElicitationModal
from widgets.timeline import Timeline

SIZE = (80, 24)
CANARY = "sk-CANARY-5e1f-never-send-me"

DB = {
    "question": "Which database?",
    "header": "DB",
    "options": [
        {"label": "Postgres", "description": "a server"},
        {"label": "SQLite", "description": "a file"},
    ],
}


@pytest.fixture
def app(listener: socket.socket) -> ServeApp:
    return ServeApp(ElicitationQueue(policy="wait"), listener, token=None, input_grace=0)


def modal(app: ServeApp) -> ElicitationModal[Any] | None:
    """The modal on screen once it has mounted (acting on a half-mounted one is a race of its own)."""
    screen = app.screen
    return screen if isinstance(screen, ElicitationModal) and screen.is_mounted else None


class _RecordingStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, into: bytearray) -> None:
        self._inner, self._into = inner, into

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            self._into.extend(chunk)
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


class RecordingTransport(httpx2.AsyncBaseTransport):
    """Keeps every byte the server sent, to check that a secret never crossed the wire."""

    def __init__(self) -> None:
        self.received = bytearray()
        self._inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_RecordingStream(response.stream, self.received),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


async def call(
    url: str, tool: str, arguments: dict[str, Any], *, mode: str = "auto", name: str = "agent"
) -> CallToolResult:
    from mcp.types import Implementation

    async with Client(url, mode=mode, client_info=Implementation(name=name, version="1")) as client:
        return await client.call_tool(tool, arguments)


async def answered(
    app: ServeApp, pilot: Pilot[Any], pending: Awaitable[CallToolResult], *keys: str
) -> CallToolResult:
    task = asyncio.ensure_future(pending)
    await wait_for(pilot, lambda: modal(app) is not None or task.done())
    await pilot.press(*keys)
    return await asyncio.wait_for(task, 15)


# -- ask_user -------------------------------------------------------------------------------


async def test_the_tools_are_listed_with_input_and_output_schemas(app: ServeApp) -> None:
    async with app.run_test(size=SIZE), Client(app.url) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}

    assert set(tools) == {"elicit", "ask_user", "request_secret"}
    assert set(tools["elicit"].input_schema["required"]) == {"kind", "message"}
    question = tools["ask_user"].input_schema["properties"]["questions"]["items"]["properties"]
    assert {"question", "header", "options", "multiSelect"} <= set(question)
    assert tools["ask_user"].output_schema is not None
    assert set(tools["request_secret"].input_schema["required"]) == {
        "message",
        "service",
        "username",
    }


def walk(schema: Any) -> Iterator[tuple[str, Any]]:
    """Every key and value anywhere in a JSON schema."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            yield key, value
            yield from walk(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from walk(item)


async def test_the_input_schemas_are_flat_and_state_their_limits(app: ServeApp) -> None:
    async with app.run_test(size=SIZE), Client(app.url) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}

    for tool in tools.values():
        keys = {key for key, _ in walk(tool.input_schema)}
        assert not keys & {"$defs", "$ref", "anyOf", "oneOf"}, tool.name
        assert ("type", "null") not in walk(tool.input_schema)
    question = tools["ask_user"].input_schema["properties"]["questions"]["items"]
    options = question["properties"]["options"]
    assert (options["minItems"], options["maxItems"]) == (2, 4)
    assert question["properties"]["header"] == {
        "type": "string",
        "maxLength": 12,
        "title": "Header",
        "description": "A very short label for the question's tab (at most 12 characters).",
    }
    assert question["properties"]["question"]["pattern"] == r"\S"
    assert "at most 12 characters), 2-4 options" in (tools["ask_user"].description or "")
    assert tools["request_secret"].input_schema["properties"]["description"]["type"] == "string"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_server_names_its_version(app: ServeApp, mode: str) -> None:
    async with app.run_test(size=SIZE), Client(app.url, mode=mode) as client:
        info = client.server_info
    assert info is not None
    assert (info.name, info.version) == ("elicit-tui", importlib.metadata.version("elicit-tui"))


@pytest.mark.parametrize(
    ("tool", "arguments", "error"),
    [
        (
            "ask_user",
            {"questions": [{"question": "   ", "options": ["a", "b"]}]},
            "Invalid arguments for ask_user: questions.0.question must not be blank",
        ),
        (
            "ask_user",
            {"questions": [{"question": "Which?", "options": ["a"], "multi": True}]},
            "Invalid arguments for ask_user: questions.0.options needs at least 2 items (it has 1);"
            " questions.0.multi is not an argument this tool takes",
        ),
        (
            "ask_user",
            {
                "questions": [
                    {"question": "Which?", "header": "A header far too long", "options": ["a", "b"]}
                ]
            },
            "Invalid arguments for ask_user: questions.0.header must be at most 12 characters long",
        ),
        ("ask_user", {}, "Invalid arguments for ask_user: questions is required"),
        (
            # Refused by the tool itself, it began "Error executing tool ask_user: Invalid ..."
            "ask_user",
            {"questions": [{"question": "Which?", "options": ["a", "a"]}]},
            "Invalid arguments for ask_user: questions.0.options: option label 'a' appears more "
            "than once",
        ),
        (
            # Ignored, it asked a plain text question and told the model the answer.
            "elicit",
            {"kind": "text", "message": "Recovery code?", "sensitive": True, "mask": 1},
            "Invalid arguments for elicit: mask is not an argument this tool takes;"
            " sensitive is not an argument this tool takes",
        ),
        (
            "request_secret",
            {"message": "", "service": "github"},
            "Invalid arguments for request_secret: message must not be empty; username is required",
        ),
    ],
)
async def test_bad_arguments_are_refused_in_one_line_a_model_can_act_on(
    app: ServeApp, tool: str, arguments: dict[str, Any], error: str
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        result = await asyncio.wait_for(call(app.url, tool, arguments), 15)
        await pilot.pause()
        assert modal(app) is None

    assert result.is_error
    assert result.content[0].type == "text"
    assert result.content[0].text == error


async def test_the_server_address_is_in_the_title(app: ServeApp, listener: socket.socket) -> None:
    port = listener.getsockname()[1]
    async with app.run_test(size=SIZE):
        assert app.url == f"http://127.0.0.1:{port}/mcp"
        assert app.url in app.title


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_ask_user_returns_the_answer(app: ServeApp, mode: str) -> None:
    async with app.run_test(size=SIZE) as pilot:
        pending = call(app.url, "ask_user", {"questions": [DB]}, mode=mode, name="claude-code")
        task = asyncio.ensure_future(pending)
        await wait_for(pilot, lambda: modal(app) is not None)
        shown = modal(app)
        assert shown is not None
        assert shown.request.source == "client 1, said it is claude-code"
        await pilot.press("2")
        result = await asyncio.wait_for(task, 15)

    assert not result.is_error
    assert result.structured_content == {
        "action": "accept",
        "answers": {"Which database?": "SQLite"},
        "notes": {},
        "reason": None,
    }
    assert result.content[0].type == "text"
    assert "SQLite" in result.content[0].text


async def test_a_multi_select_answer_is_a_list(app: ServeApp) -> None:
    features = {
        "question": "Which features?",
        "options": ["auth", "jobs", "metrics"],
        "multiSelect": True,
    }
    async with app.run_test(size=SIZE) as pilot:
        pending = call(app.url, "ask_user", {"questions": [features]})
        result = await answered(app, pilot, pending, "1", "3", "enter")

    assert result.structured_content is not None
    assert result.structured_content["answers"] == {"Which features?": ["auth", "metrics"]}


async def test_declining_is_reported_in_words_and_structure(app: ServeApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        result = await answered(
            app, pilot, call(app.url, "ask_user", {"questions": [DB]}), "ctrl+n"
        )

    assert result.structured_content == {
        "action": "decline",
        "answers": {},
        "notes": {},
        "reason": None,
    }
    assert result.content[0].type == "text"
    assert result.content[0].text == "The user declined to answer."


async def test_invalid_questions_are_a_tool_error_and_nothing_is_shown(app: ServeApp) -> None:
    same_twice = {"question": "Which?", "options": ["a", "a"]}
    async with app.run_test(size=SIZE) as pilot:
        result = await asyncio.wait_for(call(app.url, "ask_user", {"questions": [same_twice]}), 15)
        await pilot.pause()
        assert modal(app) is None

    assert result.is_error
    assert result.content[0].type == "text"
    assert "option label 'a' appears more than once" in result.content[0].text


async def test_calls_from_two_agents_wait_their_turn(app: ServeApp) -> None:
    first_question = {**DB, "question": "First?"}
    second_question = {**DB, "question": "Second?"}
    async with app.run_test(size=SIZE) as pilot:
        first = asyncio.ensure_future(
            call(app.url, "ask_user", {"questions": [first_question]}, name="one")
        )
        await wait_for(pilot, lambda: modal(app) is not None)
        second = asyncio.ensure_future(
            call(app.url, "ask_user", {"questions": [second_question]}, name="two")
        )
        await wait_for(pilot, lambda: len(app.queue.pending()) == 2)
        shown = modal(app)
        assert shown is not None and shown.request.source == "client 1, said it is one"
        await pilot.press("1")
        await wait_for(
            pilot,
            lambda: (
                (m := modal(app)) is not None and m.request.source == "client 2, said it is two"
            ),
        )
        await pilot.press("2")
        results = await asyncio.wait_for(asyncio.gather(first, second), 15)

    assert [r.structured_content and r.structured_content["answers"] for r in results] == [
        {"First?": "Postgres"},
        {"Second?": "SQLite"},
    ]


# -- request_secret -------------------------------------------------------------------------


SECRET_CALL = {"message": "GitHub token?", "service": "github", "username": "ada"}


async def test_request_secret_returns_only_the_keyring_reference(
    app: ServeApp, memory_keyring: MemoryKeyring
) -> None:
    transport = RecordingTransport()
    notifications: list[Any] = []

    async def keep(message: Any) -> None:
        notifications.append(message)

    async with app.run_test(size=SIZE) as pilot:

        async def request_secret() -> CallToolResult:
            async with (
                httpx2.AsyncClient(transport=transport, timeout=httpx2.Timeout(30)) as http,
                Client(
                    streamable_http_client(app.url, http_client=http), message_handler=keep
                ) as client,
            ):
                return await client.call_tool("request_secret", SECRET_CALL)

        result = await answered(app, pilot, request_secret(), *CANARY, "enter")

    assert result.structured_content == {
        "action": "accept",
        "stored": True,
        "service": "github",
        "username": "ada",
        "reason": None,
    }
    assert result.content[0].type == "text"
    assert "github/ada" in result.content[0].text
    assert memory_keyring.entries[("github", "ada")] == CANARY
    # Nothing the client received holds the secret: not the result, not any message, no byte.
    assert CANARY not in result.model_dump_json()
    assert all(CANARY not in repr(n) for n in notifications)
    assert transport.received
    assert CANARY.encode() not in bytes(transport.received)


async def test_a_cancelled_secret_is_not_stored(
    app: ServeApp, memory_keyring: MemoryKeyring
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        result = await answered(app, pilot, call(app.url, "request_secret", SECRET_CALL), "escape")

    assert result.structured_content == {
        "action": "cancel",
        "stored": False,
        "service": None,
        "username": None,
        "reason": None,
    }
    assert memory_keyring.entries == {}


# -- agents that go away --------------------------------------------------------------------


async def raw_legacy_call(url: str, arguments: dict[str, Any]) -> None:
    """A 2025-11-25 session that calls ask_user and then drops the connection (when cancelled)."""
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    }
    async with httpx2.AsyncClient(timeout=30) as http:
        response = await http.post(url, headers=headers, json=initialize)
        session = {
            **headers,
            "mcp-session-id": response.headers["mcp-session-id"],
            "mcp-protocol-version": "2025-11-25",
        }
        await http.post(
            url, headers=session, json={"jsonrpc": "2.0", "method": "notifications/initialized"}
        )
        request = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "ask_user", "arguments": arguments},
        }
        async with http.stream("POST", url, headers=session, json=request) as stream:
            async for _ in stream.aiter_lines():
                pass


def client_call(mode: str) -> Callable[[str], Awaitable[Any]]:
    return lambda url: call(url, "ask_user", {"questions": [DB]}, mode=mode)


@pytest.mark.parametrize(
    ("agent", "reason"),
    [
        pytest.param(client_call("auto"), "cancelled_by_agent", id="2026-07-28-client-cancels"),
        pytest.param(client_call("legacy"), "cancelled_by_agent", id="2025-11-25-client-cancels"),
        pytest.param(
            lambda url: raw_legacy_call(url, {"questions": [DB]}),
            "disconnected",
            id="2025-11-25-connection-drops",
        ),
    ],
)
async def test_an_agent_that_goes_away_has_its_modal_closed(
    app: ServeApp, agent: Callable[[str], Awaitable[Any]], reason: str
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.ensure_future(agent(app.url))
        await wait_for(pilot, lambda: modal(app) is not None)
        shown = modal(app)
        assert shown is not None
        task.cancel()
        await wait_for(pilot, lambda: modal(app) is None)

        assert app.queue.pending() == []
        await pilot.pause()
        outcome = app.query_one(Timeline).cells(shown.request.id)["outcome"]
        assert (
            outcome == {"cancelled_by_agent": "⊘ withdrawn", "disconnected": "⊘ agent gone"}[reason]
        )


async def test_quitting_ends_waiting_calls_with_cancel(app: ServeApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.ensure_future(call(app.url, "ask_user", {"questions": [DB]}))
        await wait_for(pilot, lambda: modal(app) is not None)
        await pilot.press("ctrl+q", "ctrl+q")  # a question waits: the second quits
        result = await asyncio.wait_for(task, 15)

    assert result.structured_content == {
        "action": "cancel",
        "answers": {},
        "notes": {},
        "reason": "closed",
    }


# -- questions that outlive a client's timeout ----------------------------------------------


PROGRESS_INTERVAL = 0.5
IDLE_TIMEOUT = 2.0
ANSWER_AFTER = 5.0


@pytest.fixture
def patient_app(listener: socket.socket) -> ServeApp:
    """The app, sending progress every half second while a question waits."""
    return ServeApp(
        ElicitationQueue(policy="wait"),
        listener,
        token=None,
        input_grace=0,
        progress_interval=PROGRESS_INTERVAL,
    )


async def call_resetting_on_progress(
    url: str, mode: str, progress: list[tuple[float, str | None]], *, reset: bool = True
) -> CallToolResult:
    """Call ask_user with a 2 s timeout that (with `reset`) starts over at each progress.

    The Python SDK has no reset-on-progress of its own (the TypeScript SDK's
    `resetTimeoutOnProgress`), so the timeout is a cancel scope the progress callback moves.
    """

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))
        if reset:
            scope.deadline = anyio.current_time() + IDLE_TIMEOUT

    with anyio.fail_after(IDLE_TIMEOUT) as scope:
        async with Client(url, mode=mode) as client:
            return await client.call_tool(
                "ask_user", {"questions": [DB]}, progress_callback=on_progress
            )


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_progress_keeps_a_call_alive_past_the_clients_timeout(
    patient_app: ServeApp, mode: str
) -> None:
    progress: list[tuple[float, str | None]] = []
    async with patient_app.run_test(size=SIZE) as pilot:
        task = asyncio.ensure_future(call_resetting_on_progress(patient_app.url, mode, progress))
        await wait_for(pilot, lambda: modal(patient_app) is not None)
        await asyncio.sleep(ANSWER_AFTER)
        assert not task.done()
        await pilot.press("2")
        result = await asyncio.wait_for(task, 15)

    assert result.structured_content is not None
    assert result.structured_content["answers"] == {"Which database?": "SQLite"}
    # A steady beat: one notification per interval, each further along than the last.
    assert len(progress) >= ANSWER_AFTER / PROGRESS_INTERVAL - 2
    values = [value for value, _ in progress]
    assert values == sorted(set(values))
    assert all(message and "Waiting for the person" in message for _, message in progress)


async def test_without_progress_the_same_timeout_ends_the_call(patient_app: ServeApp) -> None:
    progress: list[tuple[float, str | None]] = []
    async with patient_app.run_test(size=SIZE) as pilot:
        task = asyncio.ensure_future(
            call_resetting_on_progress(patient_app.url, "legacy", progress, reset=False)
        )
        await wait_for(pilot, lambda: modal(patient_app) is not None)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(task, 15)
        await wait_for(pilot, lambda: modal(patient_app) is None)
    assert progress  # the beat was there; this client just did not listen to it


async def test_a_call_without_a_progress_token_gets_no_progress(patient_app: ServeApp) -> None:
    notifications: list[Any] = []

    async def keep(message: Any) -> None:
        notifications.append(message)

    async with patient_app.run_test(size=SIZE) as pilot:

        async def plain_call() -> CallToolResult:
            async with Client(patient_app.url, message_handler=keep) as client:
                return await client.call_tool("ask_user", {"questions": [DB]})

        task = asyncio.ensure_future(plain_call())
        await wait_for(pilot, lambda: modal(patient_app) is not None)
        await asyncio.sleep(4 * PROGRESS_INTERVAL)
        await pilot.press("1")
        result = await asyncio.wait_for(task, 15)

    assert not result.is_error
    assert not [n for n in notifications if getattr(n, "method", "") == "notifications/progress"]


TS_CLIENT = Path(__file__).with_name("ts_client")


@pytest.fixture(scope="module")
def ts_client(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TypeScript SDK client script, its dependencies installed from npm into a temp dir."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed for the TypeScript SDK client")
    folder = tmp_path_factory.mktemp("ts_client")
    for name in ("package.json", "package-lock.json", "ask_user.mjs"):
        shutil.copy(TS_CLIENT / name, folder / name)
    installed = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    return folder


async def ts_ask_user(pilot: Pilot[Any], app: ServeApp, folder: Path, *, reset: bool) -> Any:
    """Run the TypeScript client (2 s timeout) and answer 5 s after the question shows."""
    process = await asyncio.create_subprocess_exec(
        "node",
        str(folder / "ask_user.mjs"),
        app.url,
        str(int(IDLE_TIMEOUT * 1000)),
        "true" if reset else "false",
        json.dumps([DB]),
        stdout=subprocess.PIPE,
    )
    await wait_for(pilot, lambda: modal(app) is not None, timeout=30)
    await asyncio.sleep(ANSWER_AFTER)
    if modal(app) is not None:
        await pilot.press("2")
    output, _ = await asyncio.wait_for(process.communicate(), 30)
    return json.loads(output)


async def test_the_typescript_sdk_resetting_on_progress_gets_the_answer(
    patient_app: ServeApp, ts_client: Path
) -> None:
    async with patient_app.run_test(size=SIZE) as pilot:
        outcome = await ts_ask_user(pilot, patient_app, ts_client, reset=True)

    assert outcome["result"]["structuredContent"]["answers"] == {"Which database?": "SQLite"}
    assert outcome["progress"] >= ANSWER_AFTER / PROGRESS_INTERVAL - 2


async def test_the_typescript_sdk_without_the_reset_times_out_and_the_question_goes(
    patient_app: ServeApp, ts_client: Path
) -> None:
    async with patient_app.run_test(size=SIZE) as pilot:
        outcome = await ts_ask_user(pilot, patient_app, ts_client, reset=False)
        assert modal(patient_app) is None

    assert "timed out" in outcome["error"]


# -- the command ----------------------------------------------------------------------------


def test_a_busy_port_is_reported_before_the_app_starts(
    listener: socket.socket, capsys: pytest.CaptureFixture[str]
) -> None:
    port = listener.getsockname()[1]
    listener.listen()

    assert main(["serve", "--headless", "--port", str(port)]) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["-1", "65536", "http"])
def test_a_bad_port_is_a_usage_error(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", port])

    assert exited.value.code == 2
    assert "not a port number" in capsys.readouterr().err


@pytest.mark.parametrize("token", ["sec ret", "sec\nret"])
def test_a_token_no_header_can_carry_is_a_usage_error_naming_where_it_came_from_not_it(
    token: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--token", token])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "argument --token: the inbox token has a space or a control character" in err
    assert "sec" not in err

    monkeypatch.setenv(TOKEN_ENV, token)  # the default when --token is not given
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"elicit-tui serve: ${TOKEN_ENV}: the inbox token has a space or a control character: "
        "no HTTP header can carry it\n"
    )


def test_without_a_terminal_serve_says_so(tmp_path: Path) -> None:
    env = {**os.environ, "ELICIT_TUI_CONFIG_DIR": str(tmp_path)}
    finished = subprocess.run(
        [sys.executable, "-m", "tui.cli", "serve", "--port", "0"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        env=env,
        start_new_session=True,
        timeout=30,
    )

    assert finished.returncode == 1
    assert finished.stderr == (
        "elicit-tui serve: no terminal to show the question on (/dev/tty: No such device or "
        "address); `elicit-tui serve --headless` runs the inbox without one\n"
    )
    # said before anything else: no config printed, no token written, for nothing
    assert finished.stdout == ""
    assert not (tmp_path / "serve-token").exists()


def test_without_the_mcp_extra_serve_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("tui.app.serve_app", "tui.mcp.server"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    for name in [m for m in sys.modules if m.partition(".")[0] in ("mcp", "mcp_types")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "mcp", None)

    assert main(["serve", "--port", "0"]) == 1
    assert "pip install 'elicit-tui[mcp]'" in capsys.readouterr().err


async def test_a_transcript_records_what_agents_asked_through_the_server(
    listener: socket.socket, tmp_path: Path
) -> None:
    path = tmp_path / "serve.jsonl"
    app = ServeApp(
        ElicitationQueue(policy="wait"), listener, token=None, input_grace=0, transcript=path
    )
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.ensure_future(call(app.url, "ask_user", {"questions": [DB]}))
        await wait_for(pilot, lambda: modal(app) is not None)
        await pilot.press("2")
        await asyncio.wait_for(task, 15)

    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["type"] for r in records] == ["session", "request", "keys", "result", "end"]
    assert records[1]["request"]["kind"] == "questions"
    assert records[3]["result"]["content"]["answers"] == {"Which database?": "SQLite"}

"""`elicit-tui mcp`: its command line, `--auto` with no TUI, the interactive flow, and failures."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import pytest
from app_driver import app_answering, wait_for, wait_for_modal
from textual.widgets import Markdown, Static, TextArea
from textual.widgets._markdown import MarkdownParagraph

import tui.cli.main
from tui import ElicitationQueue, FormRequest, TextRequest
from tui.core.models import UrlRequest
from tui.mcp.options import McpOptions
from tui.mcp.session import CommandFailed, Results, run_session
from widgets.base import ElicitationModal

EXAMPLE = (sys.executable, "-m", "tui.examples.mcp_elicit_server")
TEST_SERVER = (sys.executable, str(Path(__file__).with_name("mcp_test_server.py")))
ROOT = Path(__file__).parent.parent

BOOKING_DEFAULTS = {
    "party_size": 2,
    "day": "friday",
    "seating": "indoors",
    "high_chair": False,
    "notes": "",
    "restaurant": "Chez Elicit",
    "confirmation": "Table for 2 at Chez Elicit on friday, indoors.",
}


def elicit_tui(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `elicit-tui` in a process of its own, as a script would."""
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )


@pytest.fixture
def errlog() -> Iterator[TextIO]:
    with tempfile.TemporaryFile("w+", encoding="utf-8") as file:
        yield file


# -- --auto: no person, no TUI -----------------------------------------------------------


def test_auto_accept_defaults_prints_the_result_with_the_defaults() -> None:
    done = elicit_tui("mcp", "--call", "book_table", "--auto", "accept-defaults", "--", *EXAMPLE)
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    result = json.loads(line)
    assert result["isError"] is False
    assert result["structuredContent"] == BOOKING_DEFAULTS


@pytest.mark.parametrize(
    ("protocol", "policy", "answer"),
    [
        ("legacy", "accept-defaults", "accept"),
        ("2026-07-28", "decline", "decline"),
        ("auto", "cancel", "cancel"),
    ],
)
async def test_auto_answers_every_elicitation_by_its_policy(
    protocol: str, policy: str, answer: str, errlog: TextIO
) -> None:
    from tui.cli.mcp import AUTO_POLICIES

    options = McpOptions(
        command=TEST_SERVER,
        call="form",
        arguments={"case": "defaults"},
        auto=policy,
        protocol=protocol,
    )
    queue = ElicitationQueue(policy=AUTO_POLICIES[policy])
    (result,) = await run_session(queue, options, errlog=errlog)
    assert result["structuredContent"]["q"]["action"] == answer


def test_auto_says_on_stderr_why_it_cancelled_a_form_with_no_default() -> None:
    done = elicit_tui(
        "mcp", "--call", "form", "--args", '{"case": "typed"}', "--auto", "accept-defaults",
        "--", *TEST_SERVER,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["structuredContent"] == {"q": {"action": "cancel"}}
    assert (
        'elicit-tui mcp: "Who is coming?" was cancelled: --auto accept-defaults has no answer '
        "for it (no default for required field: 'name')"
    ) in done.stderr


def test_auto_says_how_it_answered_each_elicitation() -> None:
    done = elicit_tui("mcp", "--call", "two_forms", "--auto", "decline", "--", *TEST_SERVER)
    assert done.returncode == 0, done.stderr
    assert 'elicit-tui mcp: "First question" was declined (--auto decline)' in done.stderr
    assert 'elicit-tui mcp: "Second question" was declined (--auto decline)' in done.stderr


def test_a_tool_error_exits_1_and_still_prints_the_result() -> None:
    done = elicit_tui("mcp", "--call", "book_table", "--auto", "decline", "--", *EXAMPLE)
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert result["isError"] is True
    assert "No table booked: the person chose to decline." in result["content"][0]["text"]


def test_a_server_that_never_answers_the_handshake_exits_1_saying_so(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    # With --auto, in CI: a command that is no MCP server kept the step waiting, for ever,
    # with nothing said.
    import tui.mcp.session

    monkeypatch.setattr(tui.mcp.session, "HANDSHAKE_SECONDS", 1.0)
    silent = [sys.executable, "-c", "import time; time.sleep(60)"]
    started = time.monotonic()
    code = tui.cli.main.main(["mcp", "--call", "x", "--auto", "decline", "--", *silent])
    assert code == 1 and time.monotonic() - started < 20
    assert "did not answer the handshake within 1 s" in capfd.readouterr().err


def test_a_server_that_crashes_mid_call_exits_1_saying_so() -> None:
    done = elicit_tui("mcp", "--call", "crash", "--auto", "cancel", "--", *TEST_SERVER)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "closed the connection" in done.stderr
    # with --auto the server's stderr is ours
    assert "test-elicitor: falling over now" in done.stderr


def test_auto_shows_a_log_record_of_the_sdk_in_one_line() -> None:
    # A line on the server's stdout that is no JSON-RPC: the SDK logged a whole traceback.
    server = f"import runpy; runpy.run_path({TEST_SERVER[1]!r}, run_name='__main__')"
    noisy = f"print('not json', flush=True); {server}"
    done = elicit_tui(
        "mcp", "--call", "poem", "--auto", "cancel", "--", sys.executable, "-c", noisy
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "elicit-tui mcp: Failed to parse JSONRPC message from server (ValidationError)"
    ]


# -- the command line --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "say which server: a command after -- (stdio), or --url URL"),
        (["--url", "http://127.0.0.1:9/mcp", "--", "srv"], "either as a command after -- or"),
        (["--args", "{}", "--", "srv"], "--args needs --call TOOL"),
        (["--auto", "cancel", "--", "srv"], "--auto needs --call TOOL"),
        (["--call", "t", "--args", "{nope", "--", "srv"], "--args is not JSON"),
        (["--call", "t", "--args", "[1]", "--", "srv"], "--args must be a JSON object"),
        (["--call", "t", "--protocol", "1999", "--auto", "cancel", "--", "srv"], "--protocol"),
        (["--url", "localhost:8000/mcp"], "--url: not an http(s) URL: 'localhost:8000/mcp'"),
        (["--url", "ftp://h/mcp"], "--url: not an http(s) URL: 'ftp://h/mcp'"),
        (["--url", "http://[::1"], "--url: not an http(s) URL: 'http://[::1' (Invalid IPv6 URL)"),
        (["--url", "http://h:99999/mcp"], "--url: not an http(s) URL: 'http://h:99999/mcp' (Port"),
    ],
)
def test_a_command_line_that_does_not_say_what_to_do_exits_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tui.cli.main.main(["mcp", *args]) == 2
    assert message in capsys.readouterr().err


def test_the_server_command_after_the_double_dash_keeps_its_own_options() -> None:
    args = tui.cli.main.build_parser().parse_args(
        ["mcp", "--call", "t", "--", "python", "-m", "srv", "--call", "x"]
    )
    options = McpOptions.from_args(args)
    assert options.command == ("python", "-m", "srv", "--call", "x")
    assert (options.call, options.label) == ("t", "python -m srv --call x")


async def test_an_unknown_tool_is_a_usage_error_naming_the_tools(errlog: TextIO) -> None:
    options = McpOptions(command=EXAMPLE, call="order_pizza", auto="cancel")
    with pytest.raises(Exception, match="no tool 'order_pizza'") as refused:
        await run_session(ElicitationQueue(), options, errlog=errlog)
    assert "its tools: book_table, connect_account" in str(refused.value)


async def test_a_server_that_cannot_start_is_named(errlog: TextIO) -> None:
    options = McpOptions(command=("no-such-mcp-server",), call="t", auto="cancel")
    with pytest.raises(CommandFailed, match="cannot start 'no-such-mcp-server'"):
        await run_session(ElicitationQueue(), options, errlog=errlog)


async def test_a_failed_servers_last_words_are_shown_literally(errlog: TextIO) -> None:
    # An escape sequence the server wrote on its stderr reached the terminal (a new title).
    dying = "import sys; sys.stderr.write('bye\\x1b]0;owned\\x07 \\x1b[31mred\\n')"
    options = McpOptions(command=(sys.executable, "-c", dying), call="t", auto="cancel")
    with pytest.raises(CommandFailed) as failed:
        await run_session(ElicitationQueue(), options, errlog=errlog)
    assert str(failed.value).endswith("\nIts last words on stderr:\nbye␛]0;owned␇ ␛[31mred")


LEGACY_ONLY = (sys.executable, str(Path(__file__).with_name("legacy_only_server.py")))


def test_a_server_that_does_not_speak_the_protocol_asked_for_is_named() -> None:
    done = elicit_tui(
        "mcp", "--call", "hello", "--auto", "cancel", "--protocol", "2026-07-28", "--", *LEGACY_ONLY
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "does not speak MCP 2026-07-28: its ListToolsResult does not fit that protocol" in line
    assert "leave out --protocol" in line
    assert "ValidationError" not in line
    assert "errors.pydantic.dev" not in line


def test_the_same_server_is_reached_when_the_protocol_is_left_to_it() -> None:
    done = elicit_tui("mcp", "--call", "hello", "--auto", "cancel", "--", *LEGACY_ONLY)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"] == [{"type": "text", "text": "hello"}]


async def test_a_url_nobody_listens_on_is_named() -> None:
    options = McpOptions(url="http://127.0.0.1:9/mcp", call="t", auto="cancel")
    with pytest.raises(CommandFailed, match=r"cannot talk to 'http://127\.0\.0\.1:9/mcp'"):
        await run_session(ElicitationQueue(), options)


def test_without_the_mcp_extra_the_command_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in [m for m in sys.modules if m.partition(".")[0] in ("mcp", "mcp_types")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "mcp", None)
    for name in ("tui.mcp.client", "tui.mcp.session"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert tui.cli.main.main(["mcp", "--", "srv"]) == 2
    assert "pip install 'elicit-tui[mcp]'" in capsys.readouterr().err


def test_importing_tui_does_not_import_mcp() -> None:
    probe = "import sys, tui, tui.cli.main; print(sorted(m for m in sys.modules if m.startswith('mcp')))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


# -- in the TUI --------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", ["legacy", "auto"])
async def test_pick_fill_answer_and_see_the_result(protocol: str, errlog: TextIO) -> None:
    options = McpOptions(command=EXAMPLE, protocol=protocol)
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(run_session(queue, options, errlog=errlog))
        pick = await wait_for_modal(pilot, "Which tool should run?")
        assert pick.request.source == "elicit-tui-example"
        await pilot.press("enter")  # book_table, the first
        arguments = await wait_for_modal(pilot, "Arguments for book_table")
        assert isinstance(arguments.request, FormRequest)
        await pilot.press("ctrl+u", *"Luigi", "ctrl+s")
        await wait_for_modal(pilot, "How should we book Luigi?")
        await pilot.press("ctrl+u", "4", "ctrl+s")
        result = await wait_for_modal(pilot, "book_table returned")
        assert "Table for 4 at Luigi on friday, indoors." in (result.request.description or "")
        await pilot.press("2")  # Done
        results: Results = await asyncio.wait_for(task, 30)
    (booked,) = results
    assert booked["structuredContent"] == BOOKING_DEFAULTS | {
        "party_size": 4,
        "restaurant": "Luigi",
        "confirmation": "Table for 4 at Luigi on friday, indoors.",
    }


async def test_arguments_no_form_fits_are_typed_as_json(errlog: TextIO) -> None:
    options = McpOptions(command=TEST_SERVER)
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(run_session(queue, options, errlog=errlog))
        await wait_for_modal(pilot, "Which tool should run?")
        await pilot.press(*"nested_arguments", "enter")  # typing filters the list
        question = "Arguments for nested_arguments, as a JSON object"
        json_modal = await wait_for_modal(pilot, question)
        assert isinstance(json_modal.request, TextRequest)
        # pydantic's own schema is read as such, so the refusal names the field and why
        assert "No form fits its schema (property 'home': nested objects are not supported" in (
            json_modal.request.description or ""
        )
        await pilot.press("end", "x", "ctrl+s")

        def asked_again() -> bool:
            request = getattr(pilot.app.screen, "request", None)
            return getattr(request, "message", question) != question

        await wait_for(pilot, asked_again)
        again = await wait_for_modal(pilot)
        # The problem is under the question (it was the title, above it), over the editor
        # and the schema, so it is in view.
        said, problem = again.request.message.split("\n")
        assert (said, again.request.title) == (question, None)
        assert problem.startswith("✖ That is not JSON yet: ")
        message = again.query_one("#message", Static)
        assert message.region.height and again.region.contains_region(message.region)
        assert again.query_one(TextArea).text == "{}x"
        again.query_one(TextArea).load_text('{"home": {"street": "Elm"}}')
        await pilot.press("ctrl+s")
        result = await wait_for_modal(pilot, "nested_arguments returned")
        assert "lives on Elm" in (result.request.description or "")
        await pilot.press("escape")
        results = await asyncio.wait_for(task, 30)
    assert [r["structuredContent"] for r in results] == [{"result": "lives on Elm"}]


async def test_plain_text_results_keep_their_lines_and_show_markup_literally(
    errlog: TextIO,
) -> None:
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(
            run_session(queue, McpOptions(command=TEST_SERVER), errlog=errlog)
        )
        await wait_for_modal(pilot, "Which tool should run?")
        await pilot.press(*"poem", "enter")
        shown = await wait_for_modal(pilot, "poem returned")
        await pilot.pause()
        paragraphs = [
            str(block._content)
            for block in shown.query_one("#description", Markdown).query(MarkdownParagraph)
        ]
        await pilot.press("escape")
        await asyncio.wait_for(task, 30)
    assert paragraphs == [
        "roses are red\nviolets *are* blue",
        "# not a heading\n indented & <b>kept</b>",
    ]


async def test_cancelling_the_pick_ends_without_a_call(errlog: TextIO) -> None:
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(run_session(queue, McpOptions(command=EXAMPLE), errlog=errlog))
        await wait_for_modal(pilot, "Which tool should run?")
        await pilot.press("escape")
        assert await asyncio.wait_for(task, 30) == []


@pytest.mark.parametrize("protocol", ["legacy", "2026-07-28"])
async def test_a_server_that_crashes_mid_call_is_a_clear_error_and_the_app_goes_on(
    protocol: str, errlog: TextIO
) -> None:
    options = McpOptions(command=TEST_SERVER, call="crash_while_asking", protocol=protocol)
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(run_session(queue, options, errlog=errlog))
        await wait_for_modal(pilot, "How many?")
        # 2026-07-28: the server asked in a result and exited; nothing waits on it, yet the
        # question is withdrawn, not left to be answered for nobody
        with pytest.raises(CommandFailed) as failed:
            await asyncio.wait_for(task, 30)
        await wait_for(pilot, lambda: not isinstance(pilot.app.screen, ElicitationModal))
        assert queue.pending() == []
        assert pilot.app.is_running
    message = str(failed.value)
    assert "closed the connection" in message
    assert "Its last words on stderr:\ntest-elicitor: about to fall over" in message


# -- streamable HTTP ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_server() -> Iterator[str]:
    """The example server on streamable HTTP at a free 127.0.0.1 port, started as the README
    says; its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [*EXAMPLE, "--http", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the example server did not start on streamable HTTP")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("protocol", ["legacy", "auto"])
async def test_a_streamable_http_server_is_reached_with_url(
    protocol: str, http_server: str
) -> None:
    options = McpOptions(
        url=http_server, call="book_table", auto="accept-defaults", protocol=protocol
    )
    queue = ElicitationQueue(policy="accept_defaults")
    (result,) = await run_session(queue, options)
    assert result["structuredContent"] == BOOKING_DEFAULTS


def test_auto_with_a_transcript_records_the_elicitations(tmp_path: Path) -> None:
    transcript = tmp_path / "mcp.jsonl"

    done = elicit_tui(
        "mcp",
        "--call",
        "book_table",
        "--auto",
        "decline",
        "--transcript",
        str(transcript),
        "--",
        *EXAMPLE,
    )

    assert done.returncode == 1, done.stderr  # the tool reports the decline as an error
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert records[0]["agent"] == "elicit-tui mcp"
    assert [r["type"] for r in records] == ["session", "request", "result", "end"]
    assert records[1]["request"]["kind"] == "form"
    assert records[2]["result"] == {"action": "decline", "content": None, "reason": "no_front_end"}
    # Replayed, the same policy answers the same way.
    replayed = elicit_tui("replay", str(transcript))
    assert replayed.returncode == 0, replayed.stderr
    assert "1 result, all as recorded" in replayed.stdout


# -- calls refused until the person has been to some links (-32042) ---------------------


SIGN_IN_LINKS = [
    "https://github.example/connect?e=github-1",
    "https://calendar.example/connect?e=calendar-1",
]


@pytest.mark.parametrize(
    "reported",
    [
        pytest.param(False, id="retried-on-the-persons-key"),
        pytest.param(True, id="retried-when-done"),
    ],
)
async def test_a_call_refused_until_two_links_are_visited_is_retried(
    reported: bool, errlog: TextIO, opened: list[str]
) -> None:
    complete = ["github-1", "calendar-1"] if reported else []
    options = McpOptions(
        command=TEST_SERVER,
        call="linked_accounts",
        arguments={"complete": complete},
        protocol="legacy",
    )
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(run_session(queue, options, errlog=errlog))
        first = await wait_for_modal(pilot, "Connect your GitHub account")
        assert isinstance(first.request, UrlRequest)
        assert first.request.title == "linked_accounts needs you in the browser (1 of 2)"
        await pilot.press("enter")
        second = await wait_for_modal(pilot, "Connect your calendar")
        assert isinstance(second.request, UrlRequest)
        await pilot.press("enter")
        if not reported:
            waiting = await wait_for_modal(
                pilot, "Retry linked_accounts when you have finished in the browser"
            )
            # the server's report for an elicitation nobody waits for changes nothing
            await asyncio.sleep(1)
            assert pilot.app.screen is waiting
            await pilot.press("enter")  # Retry now
        (result,) = await asyncio.wait_for(task, 30)
        assert queue.pending() == []
    assert opened == SIGN_IN_LINKS
    assert result["structuredContent"] == {
        "connected": ["calendar-1", "github-1"],
        "attempts": 2,
    }


async def test_declining_a_link_leaves_the_call_refused(errlog: TextIO, opened: list[str]) -> None:
    options = McpOptions(command=TEST_SERVER, call="linked_accounts", protocol="legacy")
    async with app_answering() as (queue, pilot):
        task = asyncio.create_task(run_session(queue, options, errlog=errlog))
        await wait_for_modal(pilot, "Connect your GitHub account")
        await pilot.press("ctrl+n")
        (refused,) = await asyncio.wait_for(task, 30)
    assert refused["error"]["code"] == -32042
    assert opened == []


def test_with_auto_a_call_that_needs_links_fails_saying_so() -> None:
    done = elicit_tui(
        "mcp", "--call", "linked_accounts", "--auto", "accept-defaults", "--", *TEST_SERVER
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["code"] == -32042
    assert "the server refused a call with error -32042" in done.stderr


@pytest.mark.parametrize(
    ("call", "message", "said"),
    [
        (["protocol_error"], "no calls today", "the server refused a call"),
        # elicit-tui refuses the elicitation, and so the server the call: it was said as if the
        # server had refused it
        (
            ["form", "--args", '{"case": "nested"}', "--protocol", "legacy"],
            "elicit-tui cannot show this elicitation: requested_schema: property 'address': "
            "nested objects are not supported (type 'object')",
            "a call failed",
        ),
    ],
    ids=["by-the-server", "over-an-elicitation"],
)
def test_with_call_a_refused_call_is_printed_as_its_error_and_exits_1(
    call: list[str], message: str, said: str
) -> None:
    # It printed nothing on stdout: only the interactive mode printed refusals.
    done = elicit_tui("mcp", "--call", *call, "--auto", "cancel", "--", *TEST_SERVER)
    assert done.returncode == 1
    assert json.loads(done.stdout) == {"error": {"code": -32602, "message": message}}
    assert done.stderr.splitlines()[-1] == f"elicit-tui mcp: {said} with error -32602: {message}"


# -- the whole command on a terminal ----------------------------------------------------


def test_a_protocol_error_in_the_tui_is_printed_and_exits_1(tmp_path: Path) -> None:
    from test_ask_terminal import GRACE, TerminalRun

    run = TerminalRun(tmp_path, "mcp", "--", *TEST_SERVER)
    run.wait_for("Which tool should run?")
    time.sleep(GRACE)
    run.type(*"protocol_error", "\r")
    run.wait_for("protocol_error failed")
    time.sleep(GRACE)
    run.type("\x1b")
    code, result = run.finish()
    assert code == 1
    assert result == {"error": {"code": -32602, "message": "no calls today"}}
    assert "the server refused a call with error -32602: no calls today" in run.screen


@pytest.mark.parametrize("secret", ["hunter2-canary", "e", "ab"])
def test_a_secret_the_server_echoes_is_masked_in_the_printed_result(
    tmp_path: Path, secret: str
) -> None:
    # Masked on screen and in the transcript, it was printed in clear: stdout lands in CI logs.
    # One or two characters long, it was printed in clear still.
    from test_ask_terminal import GRACE, TerminalRun

    case = json.dumps({"case": "password"})
    run = TerminalRun(tmp_path, "mcp", "--call", "form", "--args", case, "--", *TEST_SERVER)
    run.wait_for("Your password?")
    time.sleep(GRACE)
    run.type(*secret, "\r")
    code, result = run.finish()
    assert code == 0
    masked = {"q": {"action": "accept", "content": {"pw": "•••"}}}
    assert result["structuredContent"] == masked
    # The same answer as the tool's text, JSON in a JSON string.
    assert [json.loads(part["text"]) for part in result["content"]] == [masked]
    assert "hunter2" not in json.dumps(result)

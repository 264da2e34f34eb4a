"""A permission hook never allows by accident, never blocks on a fault and never hangs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from hook_runs import run_hook_answering
from hook_schemas import INPUTS, allows

import tui.cli.hook as hook_cli
import tui.inbox.hook_call as hook_call
from tui.cli.main import main as elicit_tui
from tui.core.models import ElicitationResult, Request
from tui.inbox.env_names import URL_ENV
from tui.integrations.hooks.claude_code import ClaudeCodeHook
from tui.integrations.hooks.flow import PendingCall, Verdict

BASH = (INPUTS / "claude_code_pre_tool_use_bash.json").read_text()


def _never_asked(request: Request) -> ElicitationResult:
    raise AssertionError(f"nobody should have been asked: {request.summary}")


@pytest.mark.parametrize(
    "problem",
    [
        ConnectionRefusedError("[Errno 111] Connection refused"),
        TimeoutError("timed out"),
        RuntimeError("something unforeseen"),
        ValueError("the inbox refused the request"),
    ],
)
def test_an_asker_that_fails_decides_nothing(problem: Exception) -> None:
    def ask(request: Request) -> ElicitationResult:
        raise problem

    run = run_hook_answering(ClaudeCodeHook(), BASH, ask, wait=5)
    assert (run.stdout, run.decided) == ("", False)
    assert run.note is not None and str(problem) in run.note


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "{",
        "null",
        '"PreToolUse"',
        '{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {}}',
        '{"hook_event_name": "PreToolUse", "tool_name": "", "tool_input": {}}',
        '{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "ls"}',
        pytest.param(
            json.dumps({**json.loads(BASH), "tool_input": {"command": "x" * 300_000}}),
            id="over-the-text-limit",
        ),
        # nested deeper than Python's JSON reader goes: a RecursionError crashed the inbox's
        # handler, and the hook blamed the inbox
        pytest.param(
            BASH.replace('"npm test"', '"npm test", "deep": ' + "[" * 100_000 + "]" * 100_000),
            id="nested-too-deep",
        ),
    ],
)
def test_input_that_is_not_the_clis_decides_nothing_and_asks_nobody(stdin: str) -> None:
    run = run_hook_answering(ClaudeCodeHook(), stdin, _never_asked, wait=5)
    assert run.stdout == ""
    assert run.note is not None and run.note.startswith("cannot read Claude Code's hook input")


class _Unwritable(ClaudeCodeHook):
    def write(self, call: PendingCall, verdict: Verdict) -> dict[str, Any]:
        raise TypeError("cannot write")


def test_edited_arguments_json_has_no_words_for_are_no_verdict() -> None:
    edited = {"scope": "once", "arguments": {"command": float("nan")}}
    run = run_hook_answering(
        ClaudeCodeHook(), BASH, lambda _: ElicitationResult(action="accept", content=edited), wait=5
    )
    assert run.stdout == ""
    assert run.note is not None and "could not be turned into a verdict" in run.note


def test_a_verdict_that_cannot_be_written_is_no_verdict() -> None:
    run = run_hook_answering(
        _Unwritable(), BASH, lambda _: ElicitationResult(action="accept"), wait=5
    )
    assert run.stdout == ""
    assert run.note is not None and "could not be turned into a verdict" in run.note


Stdin = Callable[[bytes], None]
"""Makes `sys.stdin` a pipe holding the bytes given, closed after them."""


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stdin]:
    """A real pipe, not `io.BytesIO`: the hook reads stdin's file descriptor."""
    with ExitStack() as opened:

        def holding(data: bytes) -> None:
            read, write = os.pipe()
            os.write(write, data)  # a hook input fits in the pipe's buffer
            os.close(write)
            monkeypatch.setattr(sys, "stdin", opened.enter_context(open(read, encoding="utf-8")))

        yield holding


def _main(monkeypatch: pytest.MonkeyPatch, stdin: Stdin, data: bytes, *argv: str) -> list[float]:
    """Run `elicit-tui hook` in this process on `stdin`; returns the wait of each hook run
    it handed to the inbox."""
    waits: list[float] = []

    def run_in_inbox(name: str, text: str, address: Any, **times: float) -> tuple[str, str]:
        waits.append(times["wait"])
        return "", "no decision: nobody answered in time"

    monkeypatch.setattr(hook_call, "run_in_inbox", run_in_inbox)
    stdin(data)
    with socket.create_server(("127.0.0.1", 0)) as inbox:  # something listens where it asks
        monkeypatch.setenv(URL_ENV, f"http://127.0.0.1:{inbox.getsockname()[1]}")
        assert elicit_tui(["hook", *argv]) == 0
    return waits


def test_the_wait_comes_from_the_flag_else_the_environment_else_the_default(
    monkeypatch: pytest.MonkeyPatch, stdin: Stdin, capsys: pytest.CaptureFixture[str]
) -> None:
    [flagged] = _main(monkeypatch, stdin, BASH.encode(), "claude-code", "--wait", "7")
    monkeypatch.setenv(hook_cli.WAIT_ENV, "12.5")
    [from_env] = _main(monkeypatch, stdin, BASH.encode(), "claude-code")
    monkeypatch.setenv(hook_cli.WAIT_ENV, "soon")
    [unusable] = _main(monkeypatch, stdin, BASH.encode(), "claude-code")
    assert (flagged, from_env, unusable) == (7, 12.5, hook_cli.DEFAULT_WAIT)
    assert "ELICIT_TUI_HOOK_WAIT: not a number of seconds" in capsys.readouterr().err


def test_a_wait_over_the_limit_is_refused_naming_the_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        elicit_tui(["hook", "claude-code", "--wait", "1e9"])
    err = capsys.readouterr().err
    assert "above 0 and at most 2592000 (30 days): '1e9'" in err


@pytest.mark.parametrize(
    "argv",
    [["claude-code", "--wait", "0"], ["claude-code", "--bogus"], ["cursor"], [], ["--help"]],
)
def test_a_bad_command_line_exits_0_with_nothing_on_stdout(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        elicit_tui(["hook", *argv])
    assert ended.value.code in (0, None)
    out, _ = capsys.readouterr()
    assert not allows(out) and "permissionDecision" not in out


def test_an_inbox_that_never_answers_cannot_hold_the_hook() -> None:
    with socket.socket() as silent:
        # Connections are queued by the kernel and never accepted: requests go unanswered.
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "tui.cli", "hook", "gemini", "--to", url, "--wait", "1"],
            input=(INPUTS / "gemini_before_tool_shell.json").read_text(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        took = time.monotonic() - started
    assert (done.returncode, done.stdout) == (0, "{}\n")  # Gemini CLI's "no decision"
    assert "the inbox sent nothing for 5 s" in done.stderr
    assert "Gemini CLI asks as usual" in done.stderr
    assert took < 1 + hook_cli.GRACE + 5  # + a process start


def test_a_url_no_connection_can_be_made_from_decides_nothing_at_once(
    stdin: Stdin, capsys: pytest.CaptureFixture[str]
) -> None:
    # It used to hold the hook for the whole wait, a traceback from a thread behind it.
    stdin(BASH.encode())
    assert elicit_tui(["hook", "claude-code", "--to", "http://[::1"]) == 0

    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "elicit-tui hook claude-code: no decision: not an http(s) URL: 'http://[::1' "
        "(Invalid IPv6 URL); Claude Code asks as usual\n"
    )


def test_an_answer_of_the_wrong_shape_to_claude_codes_questions_decides_nothing() -> None:
    ask = (INPUTS / "claude_code_pre_tool_use_ask_user_question.json").read_text()
    odd = ElicitationResult(action="accept", content={"answers": ["date-fns"]})
    run = run_hook_answering(ClaudeCodeHook(), ask, lambda _: odd, wait=5)
    assert run.stdout == ""


@pytest.mark.parametrize("fault", [RuntimeError("unforeseen\nsecond line"), KeyboardInterrupt()])
def test_any_fault_of_the_hook_decides_nothing_in_one_line_and_exits_0(
    monkeypatch: pytest.MonkeyPatch,
    stdin: Stdin,
    capsys: pytest.CaptureFixture[str],
    fault: BaseException,
) -> None:
    def run_in_inbox(*args: Any, **kwargs: Any) -> tuple[str, str]:
        raise fault

    monkeypatch.setattr(hook_call, "run_in_inbox", run_in_inbox)
    stdin(BASH.encode())
    with socket.create_server(("127.0.0.1", 0)) as inbox:
        monkeypatch.setenv(URL_ENV, f"http://127.0.0.1:{inbox.getsockname()[1]}")
        assert elicit_tui(["hook", "claude-code"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"elicit-tui hook claude-code: no decision: {type(fault).__name__}"
        + (": unforeseen" if isinstance(fault, RuntimeError) else "")
        + "; Claude Code asks as usual\n"
    )

"""`elicit-tui hook ...` as each CLI runs it: a real process with recorded hook JSON on stdin, asking a
real `elicit-tui serve --headless`, answered by a scripted front end over `/v1/events`."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hook_process import BASH, ScriptedFrontEnd, ended, run_hook, started_hook
from hook_schemas import FIXTURES, INPUTS, OUTPUTS, allows
from inbox_process import TOKEN, InboxProcess, running_inbox

import tui.cli.hook_input as hook_input
from tui.core.models import ElicitationResult, ToolApprovalRequest, parse_request
from tui.core.signed_request import answer_proof
from tui.front_ends.remote import RemoteFrontEnd
from tui.inbox.remote_queue import RemoteQueue

BASH_CALL = (INPUTS / BASH).read_text()


def output(cli: str, fixture: str, stdout: str) -> Any:
    """The hook's stdout, checked against its CLI's documented output schema."""
    event = json.loads((INPUTS / fixture).read_text())["hook_event_name"]
    return OUTPUTS[(cli, event)].model_validate_json(stdout)


def bash_decision(done: subprocess.CompletedProcess[str]) -> str:
    """What Claude Code reads in the hook's stdout for the Bash call: checked against its
    documented output schema, the decision."""
    decision: str = output("claude-code", BASH, done.stdout).hookSpecificOutput.permissionDecision
    return decision


def undecided(done: subprocess.CompletedProcess[str], why: str) -> None:
    """The hook decided nothing, exited 0, and said `why` on one line of stderr. For Gemini
    CLI it printed `{}`, its "no decision": with nothing on stdout, Gemini takes the stderr
    line for a plain-text answer (an allow, its message the note)."""
    assert done.returncode == 0
    if "gemini" in done.args:
        assert done.stdout == "{}\n"
        assert output("gemini", "gemini_before_tool_shell.json", done.stdout).decision is None
    else:
        assert done.stdout == ""
    assert not allows(done.stdout)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert why in lines[0]


@pytest.fixture
def inbox() -> Iterator[InboxProcess]:
    with running_inbox() as running:
        yield running


def listed_rules(inbox: InboxProcess) -> str:
    """What `elicit-tui approvals list` prints of the rules `inbox` keeps and remembers."""
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "approvals", "list", *_to(inbox)],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout


def test_an_allowed_call_is_allowed_and_asked_with_the_tools_call_id(inbox: InboxProcess) -> None:
    front = ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "once"}})
    done = run_hook("claude-code", BASH, inbox=inbox)
    assert done.returncode == 0, done.stderr
    specific = output("claude-code", BASH, done.stdout).hookSpecificOutput
    assert specific.permissionDecision == "allow"
    [asked] = front.asked
    assert asked["id"] == "toolApproval:toolu_01ABC123"
    assert (asked["kind"], asked["tool_name"], asked["summary"]) == (
        "tool_approval",
        "Bash",
        "Bash: npm test",
    )


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_a_denial_reaches_the_model_with_the_persons_reason(inbox: InboxProcess, name: str) -> None:
    ScriptedFrontEnd(
        inbox, lambda _: {"action": "decline", "content": {"reason": "not on a Friday"}}
    )
    done = run_hook(FIXTURES[name], name, inbox=inbox)
    assert done.returncode == 0, done.stderr
    output(FIXTURES[name], name, done.stdout)
    assert "not on a Friday" in done.stdout
    assert not allows(done.stdout)


def test_an_always_rule_answers_the_next_call_at_once_without_a_question(
    inbox: InboxProcess,
) -> None:
    answers = iter([{"action": "accept", "content": {"scope": "always"}}])
    # Only the first question gets the person's "always"; any later one would be declined.
    ScriptedFrontEnd(inbox, lambda _: next(answers, {"action": "decline"}))
    first = run_hook("claude-code", BASH, inbox=inbox)
    assert bash_decision(first) == "allow"
    later = json.loads((INPUTS / BASH).read_text())
    later["tool_use_id"] = "toolu_02LATER"
    started = time.monotonic()
    second = run_hook("claude-code", BASH, stdin=json.dumps(later), inbox=inbox)
    took = time.monotonic() - started
    specific = output("claude-code", BASH, second.stdout).hookSpecificOutput
    assert specific.permissionDecision == "allow"
    assert "rule" in specific.permissionDecisionReason
    assert took < 10  # a process start and one round trip; nobody waited on a person
    other = json.loads((INPUTS / BASH).read_text())
    other["tool_use_id"], other["tool_input"]["command"] = "toolu_03OTHER", "npm publish"
    third = run_hook("claude-code", BASH, stdin=json.dumps(other), inbox=inbox)
    assert not allows(third.stdout)  # the rule covers that command only
    elsewhere = json.loads((INPUTS / BASH).read_text())
    elsewhere["tool_use_id"], elsewhere["cwd"] = "toolu_04ELSEWHERE", "/home/user/other-project"
    fourth = run_hook("claude-code", BASH, stdin=json.dumps(elsewhere), inbox=inbox)
    assert not allows(fourth.stdout)  # and in that project only
    assert (
        "Bash (command = npm test, any description and timeout) in /home/user/my-project"
        in listed_rules(inbox)
    )


def test_an_edited_approval_runs_the_edited_call_in_claude_code(inbox: InboxProcess) -> None:
    edited = {"command": "npm test -- --bail", "description": "Run the test suite"}
    ScriptedFrontEnd(
        inbox, lambda _: {"action": "accept", "content": {"scope": "once", "arguments": edited}}
    )
    done = run_hook("claude-code", BASH, inbox=inbox)
    specific = output("claude-code", BASH, done.stdout).hookSpecificOutput
    assert (specific.permissionDecision, specific.updatedInput) == ("allow", edited)


def test_an_edited_call_cannot_be_allowed_always_so_no_rule_covers_the_call_as_asked(
    inbox: InboxProcess,
) -> None:
    ScriptedFrontEnd(inbox, lambda _: None)
    call = json.loads((INPUTS / "codex_permission_request_bash.json").read_text())
    call["tool_input"] = {"command": "git push"}
    hook = started_hook("codex", json.dumps(call), inbox, "--wait", "30")
    [waiting] = inbox.wait_pending(1)
    edited = {"command": "git push --dry-run"}
    for scope in ("always", "session"):
        refused = inbox.answer(
            waiting["id"], {"action": "accept", "content": {"scope": scope, "arguments": edited}}
        )
        assert refused.status_code == 422
        assert f'edited arguments are allowed "once" only, not {scope!r}' in refused.json()["error"]
    once = {"action": "accept", "content": {"scope": "once", "arguments": edited}}
    assert inbox.answer(waiting["id"], once).status_code == 200
    done = ended(hook)
    assert done.returncode == 0, done.stderr
    assert "git push --dry-run" in done.stdout and not allows(
        done.stdout
    )  # Codex: call again edited
    assert "git push" not in listed_rules(inbox)
    undecided(run_hook("codex", "", "--wait", "1", stdin=json.dumps(call), inbox=inbox), "in time")


def test_a_cancel_decides_nothing(inbox: InboxProcess) -> None:
    ScriptedFrontEnd(inbox, lambda _: {"action": "cancel"})
    undecided(run_hook("gemini", "gemini_before_tool_shell.json", inbox=inbox), "cancelled")


@pytest.mark.parametrize("cli", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize(
    ("options", "why"),
    [(["--wait", "300s"], "argument --wait"), (["--token"], "argument --token")],
    ids=["wait", "token"],
)
def test_a_mistake_in_the_hooks_own_arguments_decides_nothing_in_the_clis_words(
    cli: str, options: list[str], why: str
) -> None:
    # A usage error exited before `{}` was printed: Gemini CLI took the stderr line for its
    # answer, in plain text. (A token starting with "-" after `--token` was one such mistake.)
    fixture = {"claude-code": BASH, "codex": BASH, "gemini": "gemini_before_tool_shell.json"}
    done = run_hook(cli, fixture[cli], *options, to="http://127.0.0.1:9")
    undecided(done, why)


def test_no_answer_within_the_wait_decides_nothing_and_withdraws_the_question(
    inbox: InboxProcess,
) -> None:
    front = ScriptedFrontEnd(inbox, lambda _: None)
    started = time.monotonic()
    done = run_hook("claude-code", BASH, "--wait", "1", inbox=inbox)
    took = time.monotonic() - started
    undecided(done, "in time")
    assert len(front.asked) == 1
    assert took < 1 + 5 + 5  # the wait, the grace, a process start
    assert inbox.pending() == []


def test_without_an_inbox_the_hook_decides_nothing() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    done = run_hook("claude-code", BASH, to=f"http://127.0.0.1:{port}")
    undecided(done, "no inbox could be reached")


CONSOLE_SCRIPT_MODULES = """
import atexit, sys
atexit.register(lambda: print("pydantic loaded:", "pydantic" in sys.modules, file=sys.stderr))
sys.argv = ["elicit-tui", *sys.argv[1:]]
from tui.cli.entry import main
main()
"""
"""`elicit-tui ARGS` as the console script runs it, saying at exit whether pydantic was loaded."""


def test_without_an_inbox_the_hook_says_so_before_loading_pydantic() -> None:
    # The hook runs on every tool call: with no inbox running it must cost a CLI little.
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    url = "http://127.0.0.1"
    done = subprocess.run(
        [sys.executable, "-c", CONSOLE_SCRIPT_MODULES, "hook", "codex", "--to", f"{url}:{port}"],
        input=(INPUTS / "codex_permission_request_bash.json").read_text(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == (
        "elicit-tui hook codex: no decision: no inbox could be reached; Codex asks as usual\n"
        "pydantic loaded: False\n"
    )


def _to(inbox: InboxProcess) -> list[str]:
    return ["--to", inbox.base, "--token", TOKEN]


def test_with_an_inbox_the_hook_is_answered_without_loading_pydantic(
    inbox: InboxProcess,
) -> None:
    # The call is read and decided in the inbox: a tool call costs the CLI a process start
    # and one round trip, not the models and validators (about 90 ms a call).
    ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "once"}})
    done = subprocess.run(
        [sys.executable, "-c", CONSOLE_SCRIPT_MODULES, "hook", "claude-code", *_to(inbox)],
        input=(INPUTS / BASH).read_text(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bash_decision(done) == "allow"
    assert done.stderr == "pydantic loaded: False\n"


def test_a_hook_killed_while_its_question_waits_withdraws_it(inbox: InboxProcess) -> None:
    front = ScriptedFrontEnd(inbox, lambda _: None)
    hook = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "hook", "codex", *_to(inbox)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert hook.stdin is not None
    hook.stdin.write((INPUTS / "codex_permission_request_bash.json").read_bytes())
    hook.stdin.close()
    [waiting] = inbox.wait_pending(1)
    assert waiting["kind"] == "tool_approval"
    hook.kill()  # as a CLI whose own hook timeout ran out
    hook.wait(timeout=30)
    deadline = time.monotonic() + 15
    while inbox.pending() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert inbox.pending() == []
    assert len(front.asked) == 1


@pytest.mark.parametrize("cli", ["gemini", "claude-code"])
def test_a_hook_ended_by_sigterm_exits_0_deciding_nothing_and_withdraws_its_question(
    inbox: InboxProcess, cli: str
) -> None:
    # A CLI whose hook timeout ran out sends SIGTERM: the hook died with 143 and, for
    # Gemini CLI, without its "{}".
    fixture = "gemini_before_tool_shell.json" if cli == "gemini" else BASH
    hook = started_hook(cli, (INPUTS / fixture).read_text(), inbox)
    inbox.wait_pending(1)
    hook.send_signal(signal.SIGTERM)
    done = ended(hook)
    undecided(done, "no decision: ended by SIGTERM (the CLI's own timeout?)")
    inbox.wait_pending(0)


def _answering_once(status: str, body: bytes, *, proven: bool = False) -> tuple[socket.socket, int]:
    """A listener that answers the second connection (the first is the hook's look for a
    listener) with `status` and the JSON `body`: proven with the hooks' token, as an inbox
    would, if `proven`."""
    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        for _ in range(2):
            connection, _ = server.accept()
            with connection:
                nonce = re.search(rb"(?im)^elicit-nonce: *(\S+)", connection.recv(65536))
                proof = (
                    f"Elicit-Proof: {answer_proof(TOKEN, nonce[1].decode(), status[:3], body)}\r\n"
                    if proven and nonce
                    else ""
                )
                connection.sendall(
                    f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{proof}"
                    f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                    + body
                )

    threading.Thread(target=answer, daemon=True).start()
    return server, server.getsockname()[1]


@pytest.mark.parametrize("status", ["404 Not Found", "405 Method Not Allowed"])
def test_a_server_without_the_hook_endpoint_decides_nothing_saying_it_is_no_inbox(
    status: str,
) -> None:
    # A server that is no inbox (a web front end answers 405): it cannot prove it holds the
    # token, which says it is none. 405 said only "answered 405".
    server, port = _answering_once(status, b"{}")
    with server:
        done = run_hook("claude-code", BASH, to=f"http://127.0.0.1:{port}/api")
    undecided(
        done,
        f"no decision: the server at http://127.0.0.1:{port}/api did not prove it is the "
        "inbox: its answer carries no proof; Claude Code asks as usual",
    )


def test_a_server_that_implements_no_post_decides_nothing_saying_no_endpoint_is_there() -> None:
    # A file server answers 501, an error that needs no proof: it decides nothing anyway.
    server, port = _answering_once("501 Not Implemented", b"{}")
    with server:
        done = run_hook("claude-code", BASH, to=f"http://127.0.0.1:{port}/api")
    undecided(
        done,
        f"no decision: no elicit-tui hook endpoint at http://127.0.0.1:{port}/api/v1/hooks/"
        "claude-code (HTTP 501: not an elicit-tui inbox, or one started before an upgrade: "
        "restart it); Claude Code asks as usual",
    )


def test_a_url_naming_the_inbox_wrongly_says_no_hook_endpoint_is_there(
    inbox: InboxProcess,
) -> None:
    done = run_hook("codex", "codex_permission_request_bash.json", to=f"{inbox.base}/v1/")
    undecided(done, f"no elicit-tui hook endpoint at {inbox.base}/v1/v1/hooks/codex (HTTP 404")


def test_cancel_all_in_a_front_end_says_so_not_that_the_inbox_closed(
    inbox: InboxProcess,
) -> None:
    hook = started_hook("gemini", (INPUTS / "gemini_before_tool_shell.json").read_text(), inbox)
    inbox.wait_pending(1)
    assert RemoteFrontEnd(inbox.base, TOKEN, "pane").cancel_all() == 1  # attach's Ctrl+X
    undecided(ended(hook), "a person cancelled every waiting question (Ctrl+X in a front end)")


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ({"decided": True, "output": "allow", "note": None}, "the inbox answered 200"),
        ({"decided": True, "output": "[1]", "note": None}, "the inbox answered 200"),
        ({"decided": "yes", "output": '{"decision": "allow"}'}, "the inbox answered 200"),
        ({"decided": True, "output": '{"decision": "allow", "x": NaN}'}, "answered 200"),
        ({"decided": False, "output": "", "note": "gone\x1b[2J\nnext"}, "gone␛[2J␊next"),
    ],
)
def test_only_a_decided_json_object_from_the_inbox_is_printed(
    answer: dict[str, Any], why: str
) -> None:
    server, port = _answering_once("200 OK", json.dumps(answer).encode(), proven=True)
    with server:
        done = run_hook("claude-code", BASH, to=f"http://127.0.0.1:{port}")
    undecided(done, why)
    assert "\x1b" not in done.stderr


def test_a_wrong_token_decides_nothing_and_asks_nobody(inbox: InboxProcess) -> None:
    front = ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "once"}})
    done = run_hook("claude-code", BASH, to=inbox.base, token="not-the-token")
    undecided(done, f"no decision: the inbox at {inbox.base} refused the token given")
    assert front.asked == []
    assert "not-the-token" not in done.stderr


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "not json",
        "[]",
        '{"hook_event_name": "PreToolUse"}',
        '{"hook_event_name": "Stop"}',
        pytest.param(BASH_CALL.replace('"npm test"', "NaN"), id="NaN"),
        pytest.param(BASH_CALL.replace('"npm test"', "-Infinity"), id="-Infinity"),
    ],
)
def test_malformed_hook_input_decides_nothing_and_asks_nobody(
    inbox: InboxProcess, stdin: str
) -> None:
    front = ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "once"}})
    undecided(run_hook("claude-code", BASH, stdin=stdin, inbox=inbox), "hook input")
    assert front.asked == []


def test_claude_codes_questions_are_answered_in_the_inbox(inbox: InboxProcess) -> None:
    fixture = "claude_code_pre_tool_use_ask_user_question.json"
    question = "Which library should we use for date formatting?"
    front = ScriptedFrontEnd(
        inbox, lambda _: {"action": "accept", "content": {"answers": {question: "date-fns"}}}
    )
    done = run_hook("claude-code", fixture, inbox=inbox)
    specific = output("claude-code", fixture, done.stdout).hookSpecificOutput
    assert specific.permissionDecision == "allow"
    assert specific.updatedInput["answers"] == {question: "date-fns"}
    [asked] = front.asked
    assert (asked["kind"], asked["id"]) == ("questions", "toolu_01ASK789")
    assert asked["source"] == "Claude Code (user/my-project)"  # as its approvals show it


def test_a_deny_reaches_a_cli_whose_output_encoding_is_ascii(inbox: InboxProcess) -> None:
    ScriptedFrontEnd(inbox, lambda _: {"action": "decline", "content": {"reason": "不要 🎉"}})
    done = run_hook("claude-code", BASH, inbox=inbox, env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii()
    specific = output("claude-code", BASH, done.stdout).hookSpecificOutput
    assert specific.permissionDecision == "deny"
    assert "不要 🎉" in specific.permissionDecisionReason


@pytest.mark.parametrize(
    ("option", "why"),
    [
        ({"token": "令牌"}, "the inbox token has a character outside ASCII"),
        ({"to": "/ü"}, "no elicit-tui hook endpoint at"),
        ({"to": "http://a..b:1"}, "its host is no name DNS can look up"),
    ],
)
def test_a_token_or_url_no_request_can_carry_decides_nothing_saying_why(
    inbox: InboxProcess, option: dict[str, str], why: str
) -> None:
    to = option.get("to", "")
    done = run_hook(
        "claude-code",
        BASH,
        "--wait",
        "5",
        inbox=inbox,
        to=inbox.base + to if to.startswith("/") else to or None,
        token=option.get("token", TOKEN),
    )
    undecided(done, why)


def _closing(fd: int) -> subprocess.CompletedProcess[str]:
    """The hook run with its file descriptor `fd` closed, no inbox listening."""
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "tui.cli",
            "hook",
            "claude-code",
            "--to",
            f"http://127.0.0.1:{port}",
        ],
        stdin=subprocess.DEVNULL if fd == 0 else None,
        input=None if fd == 0 else (INPUTS / BASH).read_text(),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(fd),
    )


def test_a_closed_stdin_decides_nothing_saying_so() -> None:
    undecided(_closing(0), "on stdin, which is closed")


def test_with_stderr_closed_the_hook_says_nothing_on_stdout() -> None:
    done = _closing(2)
    assert (done.returncode, done.stdout) == (0, "")


def test_a_cli_gone_before_the_verdict_is_printed_leaves_the_hook_exiting_0(
    inbox: InboxProcess,
) -> None:
    ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "once"}})
    hook = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "hook", "claude-code", *_to(inbox)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert hook.stdin is not None and hook.stdout is not None and hook.stderr is not None
    hook.stdout.close()  # nobody reads the verdict
    hook.stdin.write((INPUTS / BASH).read_text())
    hook.stdin.close()
    assert hook.wait(timeout=60) == 0
    assert "Traceback" not in hook.stderr.read()


def _kept_open(cli: str, sent: bytes, *options: str) -> tuple[subprocess.Popen[bytes], float]:
    """The hook started on `sent`, its stdin left open as some CLIs and wrappers leave it;
    its run and the seconds it took to end. Stdin is closed only once it has ended."""
    hook = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "hook", cli, *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert hook.stdin is not None
    started = time.monotonic()
    hook.stdin.write(sent)
    hook.stdin.flush()
    try:
        hook.wait(timeout=30)
    finally:
        took = time.monotonic() - started
        hook.kill()
        hook.stdin.close()
    return hook, took


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_a_cli_that_never_closes_stdin_gets_its_verdict(inbox: InboxProcess, name: str) -> None:
    front = ScriptedFrontEnd(
        inbox, lambda _: {"action": "decline", "content": {"reason": "not on a Friday"}}
    )
    sent = (INPUTS / name).read_bytes() + b"\n"
    hook, took = _kept_open(FIXTURES[name], sent, *_to(inbox))
    assert hook.stdout is not None and hook.stderr is not None
    assert hook.returncode == 0, hook.stderr.read()
    stdout = hook.stdout.read().decode()
    output(FIXTURES[name], name, stdout)
    assert "not on a Friday" in stdout and not allows(stdout)
    assert len(front.asked) == 1
    assert took < hook_input.INPUT_WITHIN  # it read no further than the JSON


def test_half_a_hook_input_and_then_nothing_decides_nothing_in_bounded_time() -> None:
    half = (INPUTS / BASH).read_bytes()[:100]
    hook, took = _kept_open("claude-code", half, "--to", "http://127.0.0.1:9")
    assert hook.stdout is not None and hook.stderr is not None
    done = subprocess.CompletedProcess(
        hook.args, hook.returncode, hook.stdout.read().decode(), hook.stderr.read().decode()
    )
    undecided(done, "no decision: no complete JSON on stdin within 5 s; Claude Code asks as usual")
    assert hook_input.INPUT_WITHIN <= took < hook_input.INPUT_WITHIN + 10  # + a process start


URL_CHARACTERS = "toolu/x?y#z%2F"
"""A call id an agent may choose, holding what a URL path gives a meaning of its own."""


def test_a_call_whose_id_holds_url_characters_is_answered_from_another_front_end(
    inbox: InboxProcess,
) -> None:
    call = json.loads((INPUTS / BASH).read_text())
    call["tool_use_id"] = URL_CHARACTERS
    hook = started_hook("claude-code", json.dumps(call), inbox, "--wait", "30")
    [waiting] = inbox.wait_pending(1)
    assert waiting["id"] == f"toolApproval:{URL_CHARACTERS}"
    once = ElicitationResult(action="accept", content={"scope": "once"})
    assert RemoteFrontEnd(inbox.base, TOKEN, "pane").respond(waiting["id"], once)
    specific = output("claude-code", BASH, ended(hook).stdout).hookSpecificOutput
    assert specific.permissionDecision == "allow"


def test_an_asker_elsewhere_gets_the_result_of_and_withdraws_such_a_call(
    inbox: InboxProcess,
) -> None:
    queue = RemoteQueue(inbox.base, TOKEN)
    approval = {"kind": "tool_approval", "tool_name": "shell", "tool_call_id": URL_CHARACTERS}
    answered = queue.submit(parse_request(approval))
    [waiting] = inbox.wait_pending(1)
    declined = ElicitationResult(action="decline")
    assert RemoteFrontEnd(inbox.base, TOKEN, "pane").respond(waiting["id"], declined)
    assert answered.result(timeout=30) == declined
    withdrawn = queue.submit(parse_request({**approval, "tool_call_id": URL_CHARACTERS + "/2"}))
    inbox.wait_pending(1)
    assert withdrawn.cancel()
    inbox.wait_pending(0)


def test_a_command_of_most_of_the_text_limit_is_asked_and_reaches_a_front_end_elsewhere(
    inbox: InboxProcess,
) -> None:
    # 200,000 characters: counted once though the question repeats it (the pattern "always"
    # remembers), and sent as UTF-8 (600 kB), not as \u escapes (1.2 MB).
    command = "echo " + "令" * 200_000
    call = {**json.loads(BASH_CALL), "tool_input": {"command": command}}
    hook = started_hook("claude-code", json.dumps(call, ensure_ascii=False), inbox)
    front_end = RemoteFrontEnd(inbox.base, TOKEN, "pane")  # checks what it gets, as attach
    front_end.connect()
    try:
        deadline = time.monotonic() + 30
        while not front_end.pending():
            assert time.monotonic() < deadline, "the question reached no front end"
            time.sleep(0.05)
        [request] = front_end.pending()
        assert isinstance(request, ToolApprovalRequest)
        assert request.arguments == {"command": command}
        once = ElicitationResult(action="accept", content={"scope": "once"})
        assert front_end.respond(request.id, once)
    finally:
        front_end.close()
    done = ended(hook)
    assert bash_decision(done) == "allow", done.stderr


def test_hook_input_over_what_the_inbox_takes_is_not_sent_and_says_the_limit(
    inbox: InboxProcess,
) -> None:
    front = ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "once"}})
    call = {**json.loads(BASH_CALL), "tool_input": {"command": "x" * 1_100_000}}
    done = run_hook("claude-code", BASH, stdin=json.dumps(call), inbox=inbox)
    undecided(done, "the hook input is over 1 MiB as sent, the most the inbox takes")
    assert front.asked == []


@contextmanager
def stopped(inbox: InboxProcess) -> Iterator[None]:
    """`inbox` stopped, as Ctrl+Z stops it, while the block runs."""
    inbox.process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        inbox.process.send_signal(signal.SIGCONT)


SILENT = "no decision: the inbox sent nothing for 5 s (is it stopped, as by Ctrl+Z?"


def test_a_stopped_inbox_decides_nothing_within_seconds_not_after_the_wait(
    inbox: InboxProcess,
) -> None:
    ScriptedFrontEnd(inbox, lambda _: {"action": "accept", "content": {"scope": "always"}})
    assert allows(run_hook("claude-code", BASH, inbox=inbox).stdout)  # a rule covers it now
    with stopped(inbox):
        started = time.monotonic()
        done = run_hook("claude-code", BASH, inbox=inbox)  # the default wait: 300 s
        took = time.monotonic() - started
    undecided(done, SILENT)
    assert took < 5 + 30  # the silence, a process start: far from the wait


def test_an_inbox_stopped_while_the_question_waits_decides_nothing_within_seconds(
    inbox: InboxProcess,
) -> None:
    hook = started_hook("codex", (INPUTS / "codex_permission_request_bash.json").read_text(), inbox)
    inbox.wait_pending(1)
    with stopped(inbox):
        done = ended(hook)  # within 60 s, where the wait is 300
    undecided(done, SILENT)


def test_a_person_who_thinks_longer_than_the_silence_is_still_heard(inbox: InboxProcess) -> None:
    ScriptedFrontEnd(inbox, lambda _: None)
    hook = started_hook("claude-code", BASH_CALL, inbox)
    [waiting] = inbox.wait_pending(1)
    time.sleep(5 + 2)  # longer than the hook hears nothing: the inbox says it is there
    inbox.answer(waiting["id"], {"action": "accept", "content": {"scope": "once"}})
    done = ended(hook)
    assert bash_decision(done) == "allow", done.stderr


def test_claude_codes_questions_left_undecided_are_not_asked_again_on_permission_request(
    inbox: InboxProcess,
) -> None:
    # Claude Code's PermissionRequest for AskUserQuestion comes only when its own picker is
    # about to show: after the PreToolUse hook's question was cancelled, unanswered, unasked.
    front = ScriptedFrontEnd(inbox, lambda _: {"action": "cancel"})
    fixture = "claude_code_pre_tool_use_ask_user_question.json"
    first = run_hook("claude-code", fixture, inbox=inbox)
    undecided(first, "no decision: the person cancelled")
    again = json.loads((INPUTS / "claude_code_permission_request_bash.json").read_text())
    again["tool_name"] = "AskUserQuestion"
    again["tool_input"] = json.loads((INPUTS / fixture).read_text())["tool_input"]
    second = run_hook("claude-code", "", stdin=json.dumps(again), inbox=inbox)
    undecided(second, "one it left undecided is not asked again, Claude Code asks it")
    assert len(front.asked) == 1


@pytest.mark.parametrize("cli", ["claude-code", "gemini"])
def test_an_inbox_killed_while_the_question_waits_decides_nothing_saying_it_went_away(
    cli: str,
) -> None:
    # It said "the inbox did not answer (IncompleteRead: IncompleteRead(0 bytes read))".
    fixture = "gemini_before_tool_shell.json" if cli == "gemini" else BASH
    with running_inbox() as killed:
        hook = started_hook(cli, (INPUTS / fixture).read_text(), killed)
        killed.wait_pending(1)
        killed.process.kill()
        done = ended(hook)
    undecided(
        done, "no decision: the inbox went away before it answered (did it exit, or restart?)"
    )

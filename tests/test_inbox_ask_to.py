"""`elicit-tui ask --to URL` asks in a real inbox: with and without a terminal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from asking import ended_by
from inbox_process import InboxProcess, running_inbox

from tui.inbox.env_names import TOKEN_ENV, URL_ENV

ASK = [sys.executable, "-m", "tui.cli", "ask"]


@pytest.fixture
def inbox() -> Iterator[InboxProcess]:
    with running_inbox() as running:
        yield running


def answer_soon(inbox: InboxProcess, result: dict[str, object]) -> threading.Thread:
    def answer() -> None:
        (pending,) = inbox.wait_pending(1)
        inbox.answer(pending["id"], result)

    thread = threading.Thread(target=answer)
    thread.start()
    return thread


def ask(*arguments: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`elicit-tui ask ...` with no terminal at all: stdin, stdout and stderr are pipes."""
    return subprocess.run(
        [*ASK, *arguments],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=30,
        env={**os.environ, **(env or {}), "TERM": "dumb"},
        start_new_session=True,  # no controlling terminal: /dev/tty cannot be opened
    )


def test_ask_to_needs_no_terminal_and_prints_the_answer(inbox: InboxProcess) -> None:
    answering = answer_soon(inbox, {"action": "accept", "content": "SQLite"})
    done = ask(
        "--to",
        inbox.base + "/mcp",
        "--token",
        inbox.token,
        "choice",
        "DB?",
        "-o",
        "Postgres",
        "-o",
        "SQLite",
    )
    answering.join(10)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"action": "accept", "content": "SQLite", "reason": None}


def test_the_environment_names_the_inbox_and_raw_prints_the_content(inbox: InboxProcess) -> None:
    answering = answer_soon(inbox, {"action": "accept", "content": ["a", "c"]})
    env = {URL_ENV: inbox.base, TOKEN_ENV: inbox.token}
    done = ask("--raw", "multi", "Which?", "-o", "a", "-o", "b", "-o", "c", env=env)
    answering.join(10)

    assert (done.returncode, done.stdout) == (0, "a\nc\n")


@pytest.mark.parametrize(("flag", "shown"), [((), "**********"), (("--reveal-secret",), "c-55")])
def test_a_sensitive_answer_is_printed_as_a_secret_is(
    inbox: InboxProcess, flag: tuple[str, ...], shown: str
) -> None:
    answering = answer_soon(inbox, {"action": "accept", "content": "c-55"})
    sensitive = '{"kind": "text", "message": "Recovery code?", "sensitive": true}'
    done = ask("--to", inbox.base, "--token", inbox.token, *flag, "--json", sensitive)
    answering.join(10)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"] == shown


SECRET = "hunter2-CANARY-raw"


def test_raw_refuses_to_print_a_typed_secret_s_mask_as_its_value(tmp_path: Path) -> None:
    # `PW=$(elicit-tui ask --to ... --raw secret ...)` stored ten asterisks, exit 0.
    transcript = tmp_path / "inbox.jsonl"
    with running_inbox("--transcript", str(transcript)) as inbox:
        answering = answer_soon(inbox, {"action": "accept", "content": SECRET})
        done = ask("--to", inbox.base, "--token", inbox.token, "--raw", "secret", "Token?")
        answering.join(10)
        inbox.stop()

    assert (done.returncode, done.stdout) == (4, "")
    assert "--reveal-secret" in done.stderr
    assert "Token?" in transcript.read_text()  # the answer recorded, masked
    assert SECRET not in done.stderr + inbox.output + transcript.read_text()


def test_raw_with_reveal_secret_prints_the_secret_s_value(inbox: InboxProcess) -> None:
    answering = answer_soon(inbox, {"action": "accept", "content": SECRET})
    done = ask(
        "--to", inbox.base, "--token", inbox.token, "--raw", "--reveal-secret", "secret", "Token?"
    )
    answering.join(10)
    inbox.stop()

    assert (done.returncode, done.stdout, done.stderr) == (0, SECRET + "\n", "")
    assert SECRET not in inbox.output


def test_a_secret_the_inbox_cannot_store_exits_2_saying_why(inbox: InboxProcess) -> None:
    done = ask("--to", inbox.base, "--token", inbox.token, "secret", "Token?", "--store", "gh/me")

    assert done.returncode == 2
    assert json.loads(done.stdout)["reason"] == "keyring_unavailable"
    assert "no usable keyring" in done.stderr and inbox.base in done.stderr


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ({"action": "accept", "content": False}, 1),
        ({"action": "decline"}, 1),
        ({"action": "cancel"}, 2),
    ],
    ids=["no", "decline", "cancel"],
)
def test_exit_codes_are_those_of_ask(
    inbox: InboxProcess, answer: dict[str, object], status: int
) -> None:
    answering = answer_soon(inbox, answer)
    done = ask("--to", inbox.base, "--token", inbox.token, "confirm", "Deploy?")
    answering.join(10)

    assert done.returncode == status


def test_a_malformed_request_exits_3_with_the_parse_request_text_and_is_never_sent(
    inbox: InboxProcess,
) -> None:
    done = ask(
        "--to", inbox.base, "--token", inbox.token, "choice", "DB?", "-o", "a", "--default", "z"
    )

    assert done.returncode == 3
    assert done.stderr == (
        "elicit-tui ask: invalid request:\n  choice.default: 'z' is not one of the options: 'a'\n"
    )
    assert inbox.pending() == []


def test_a_request_the_inbox_refuses_as_invalid_exits_3_naming_why(inbox: InboxProcess) -> None:
    # A kind of one's own registered here, not in the inbox's process.
    card = {"kind": "card", "message": "Which file?", "cards": [{"name": "a", "preview": "b"}]}
    env = {"ELICIT_TUI_KINDS": "tui.examples.card_picker"}
    done = ask("--to", inbox.base, "--token", inbox.token, "--json", json.dumps(card), env=env)

    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith(
        "elicit-tui ask: the inbox refused the request: invalid request:\n"
        "  kind: 'card' is not a kind registered here"
    )
    assert done.stdout == ""


def test_an_id_already_waiting_exits_2_saying_so_without_blaming_the_token(
    inbox: InboxProcess,
) -> None:
    asked = {"kind": "text", "message": "one", "id": "dup"}
    where = ["--to", inbox.base, "--token", inbox.token]
    first = subprocess.Popen([*ASK, *where, "--json", json.dumps(asked)], stdout=subprocess.PIPE)
    try:
        inbox.wait_pending(1)
        done = ask(*where, "--json", json.dumps({**asked, "message": "two"}))

        assert done.returncode == 2
        assert "a request with id 'dup' is already waiting" in done.stderr
        assert "token" not in done.stderr
    finally:
        first.kill()
        first.wait()


def test_no_inbox_exits_2_saying_so() -> None:
    done = ask("--to", "http://127.0.0.1:9", "--token", "x", "text", "Name?")

    assert done.returncode == 2
    assert json.loads(done.stdout)["reason"] == "inbox_unreachable"
    assert "no inbox answers at http://127.0.0.1:9" in done.stderr


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://[::1", "Invalid IPv6 URL"),
        ("localhost:8765", None),
        ("http://127.0.0.1:99999", "Port out of range 0-65535"),
        ("http://127.0.0.1:8765/a b", None),
    ],
)
def test_a_url_no_connection_can_be_made_from_exits_3_saying_so(url: str, why: str | None) -> None:
    # Each of these used to leave `ask` waiting for ever, a traceback from a thread behind it.
    done = ask("--to", url, "text", "Name?")

    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == f"elicit-tui ask: not an http(s) URL: {url!r}" + (
        f" ({why})\n" if why else "\n"
    )


@pytest.mark.parametrize(
    "url", ["http://u:canary-9931@127.0.0.1:9", "http://canary-9931@127.0.0.1:9"]
)
def test_a_url_holding_a_user_or_password_exits_3_without_quoting_it(url: str) -> None:
    # "no inbox answers at http://u:canary-9931@…": the password went to stderr, and logs.
    done = ask("--to", url, "text", "Name?")

    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        "elicit-tui ask: the URL holds a user or a password (user:password@): leave it out; "
        "an inbox's token goes with --token or ELICIT_TUI_TOKEN\n"
    )


def test_a_token_no_header_can_carry_exits_3_without_quoting_it() -> None:
    # It used to end in a traceback that quoted the token.
    done = ask("--to", "http://127.0.0.1:9", "--token", "sec\nret", "text", "Name?")

    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        "elicit-tui ask: the inbox token has a space or a control character: "
        "no HTTP header can carry it\n"
    )


def asking_to(inbox: InboxProcess) -> subprocess.Popen[str]:
    """`ask --to` the inbox a text question, once the inbox holds it."""
    asking = subprocess.Popen(
        [*ASK, "--to", inbox.base, "--token", inbox.token, "text", "Name?"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    inbox.wait_pending(1)
    return asking


def test_an_inbox_that_quits_mid_wait_exits_2(inbox: InboxProcess) -> None:
    asking = asking_to(inbox)
    out = ended_by(asking, inbox.stop)

    assert asking.returncode == 2
    assert json.loads(out)["reason"] == "closed"


def test_kill_withdraws_the_question_and_exits_143_saying_terminated(
    inbox: InboxProcess,
) -> None:
    # As `ask` without --to ends on SIGTERM; it used to end printing nothing.
    asking = asking_to(inbox)
    out = ended_by(asking, asking.terminate)

    assert asking.returncode == 143
    assert json.loads(out) == {"action": "cancel", "content": None, "reason": "terminated"}
    assert inbox.wait_pending(0) == []


def ask_on_a_pty(inbox: InboxProcess, *arguments: str) -> pexpect.spawn:
    """`elicit-tui ask --to` the inbox on a pseudo-terminal, started as a shell starts a
    command: with Ctrl+C's signal not ignored, even where the tests run as a background job
    (which ignores it, and passes that on)."""
    return pexpect.spawn(
        ASK[0],
        [*ASK[1:], "--to", inbox.base, "--token", inbox.token, *arguments],
        env={**os.environ, "TERM": "xterm"},
        encoding="utf-8",
        timeout=20,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_under_a_pty_ask_to_waits_and_ctrl_c_withdraws_with_130(inbox: InboxProcess) -> None:
    child = ask_on_a_pty(inbox, "text", "Name?")
    try:
        inbox.wait_pending(1)
        child.sendintr()
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130
        assert '"reason": "interrupted"' in (child.before or "")
        assert inbox.wait_pending(0) == []
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_under_a_pty_ask_to_prints_the_answer(inbox: InboxProcess) -> None:
    answering = answer_soon(inbox, {"action": "accept", "content": "Ada"})
    child = ask_on_a_pty(inbox, "--raw", "text", "Name?")
    try:
        child.expect(pexpect.EOF)
        child.close()
    finally:
        if child.isalive():
            child.terminate(force=True)
    answering.join(10)

    assert child.exitstatus == 0
    # The answer, after the line saying where the question waits if it took a moment.
    lines = (child.before or "").strip().splitlines()
    assert lines[-1] == "Ada"
    assert all(line.startswith("elicit-tui ask: waiting for an answer") for line in lines[:-1])


def test_under_a_pty_ask_to_says_where_a_question_waits_unanswered(inbox: InboxProcess) -> None:
    # Printing nothing, a question waiting in the inbox looked like a hung command.
    child = ask_on_a_pty(inbox, "--raw", "text", "Name?")
    try:
        child.expect_exact(
            f"elicit-tui ask: waiting for an answer at {inbox.base} (Ctrl+C withdraws it)"
        )
        (pending,) = inbox.wait_pending(1)
        inbox.answer(pending["id"], {"action": "accept", "content": "Ada"})
        child.expect(pexpect.EOF)
        child.close()
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert child.exitstatus == 0
    assert (child.before or "").strip() == "Ada"

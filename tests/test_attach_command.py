"""`elicit-tui attach` as a real process on a pty, against `serve --headless` in another."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from front_end_processes import REPO, AttachedTerminal, HeadlessInbox, environment
from hook_schemas import INPUTS

from tui.cli.main import main
from tui.secrets.redaction import MASK

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

DOWN, ENTER = "\x1b[B", "\r"
GRACE = 0.5


def choice(message: str) -> dict[str, object]:
    return {"kind": "choice", "message": message, "options": ["Postgres", "SQLite"]}


def attach_once(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`elicit-tui attach ARGS` with no terminal, run to its end (for the cases that refuse)."""
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "attach", *args],
        cwd=REPO,
        env=environment(config),
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("token", [None, "not-the-token"])
def test_a_wrong_or_missing_token_is_refused_before_any_question(
    inbox: HeadlessInbox, tmp_path: Path, token: str | None
) -> None:
    inbox.submit(choice("Which secret database?"))
    done = attach_once(tmp_path / "elsewhere", inbox.url, *(["--token", token] if token else []))
    assert done.returncode == 2
    said = "no token for the inbox" if token is None else "refused the token given"
    assert said in done.stderr
    assert "Which secret database?" not in done.stdout + done.stderr


def test_no_inbox_is_said_plainly(tmp_path: Path) -> None:
    done = attach_once(tmp_path / "config", "http://127.0.0.1:9", "--token", "x")
    assert done.returncode == 1
    assert "no inbox answers at http://127.0.0.1:9" in done.stderr


def test_a_url_no_connection_can_be_made_from_is_said_plainly(tmp_path: Path) -> None:
    done = attach_once(tmp_path / "config", "http://[::1", "--token", "x")
    assert done.returncode == 1
    assert (
        done.stderr == "elicit-tui attach: not an http(s) URL: 'http://[::1' (Invalid IPv6 URL)\n"
    )


def test_a_token_no_header_can_carry_is_said_without_quoting_it(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listening:
        url = f"http://127.0.0.1:{listening.getsockname()[1]}"
        done = attach_once(tmp_path / "config", url, "--token", "sec\nret")
    assert done.returncode == 1
    assert done.stderr == (
        "elicit-tui attach: the inbox token has a space or a control character: "
        "no HTTP header can carry it\n"
    )


def test_to_names_the_inbox_as_for_ask_never_as_the_token(tmp_path: Path) -> None:
    # Without `--to` of its own, argparse read it as short for `--token`: the URL was sent
    # as the token to the default inbox.
    done = attach_once(tmp_path / "config", "--to", "http://127.0.0.1:9", "--token", "x")
    assert done.returncode == 1
    assert "no inbox answers at http://127.0.0.1:9:" in done.stderr

    both = attach_once(tmp_path / "config", "http://127.0.0.1:9", "--to", "http://127.0.0.1:8")
    assert both.returncode == 2
    assert "argument --to: not allowed with argument url" in both.stderr


def test_web_takes_to_as_attach_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--to", "http://127.0.0.1:9", "--token", "x", "--port", "0"]) == 1
    assert "no inbox answers at http://127.0.0.1:9:" in capsys.readouterr().err


def test_attach_shows_what_waits_then_what_comes_and_answers_it(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    first = inbox.submit(choice("Which database first?"))
    # The token from the serve-token file's place is not there: from the environment instead.
    terminal = AttachedTerminal(
        tmp_path / "config", inbox.url + "/mcp", env={"ELICIT_TUI_TOKEN": inbox.token}
    )
    try:
        terminal.wait_for("Which database first?")
        second = inbox.submit(choice("Which database second?"))
        time.sleep(GRACE)
        terminal.type(DOWN, ENTER)
        assert inbox.result(first, wait=10) == {
            "action": "accept",
            "content": "SQLite",
            "reason": None,
        }
        terminal.wait_for("Which database second?")
        time.sleep(GRACE)
        terminal.type(ENTER)
        result = inbox.result(second, wait=10)
        assert result is not None and result["content"] == "Postgres"
        third = inbox.submit(choice("Left for later?"))
        terminal.wait_for("Left for later?")
        assert terminal.quit() == 0
        # Quitting answered nothing.
        assert inbox.result(third) is None
        assert third in inbox.pending_ids()
    finally:
        terminal.close()


def test_ctrl_c_on_the_inbox_stops_it_at_once_and_quietly_with_a_front_end_attached(
    tmp_path: Path,
) -> None:
    # The front end reconnects as its stream ends; the inbox, closed by then, kept the new
    # stream open until uvicorn's grace ran out, and printed a traceback of the cancel.
    inbox = HeadlessInbox(tmp_path / "inbox")
    terminal = AttachedTerminal(tmp_path / "config", inbox.url, "--token", inbox.token)
    try:
        terminal.wait_for("nothing waiting")
        started = time.monotonic()
        inbox.stop()
        assert inbox.process.wait() == 0
        assert time.monotonic() - started < 5
        assert inbox.process.stderr is not None
        errors = inbox.process.stderr.read().decode()
        assert "Traceback" not in errors and "ERROR" not in errors, errors
        terminal.wait_for("Reconnecting")
    finally:
        terminal.close()
        inbox.stop()


def test_a_kind_not_registered_here_is_said_and_left_to_a_front_end_that_can_show_it(
    tmp_path: Path,
) -> None:
    # The inbox knows the example's card kind; the first front end's process was not told of
    # it: it says so, and leaves the question for the second, which was (cancelled, the
    # question would have been lost to every front end).
    inbox = HeadlessInbox(tmp_path / "inbox", ELICIT_TUI_KINDS="tui.examples.card_picker")
    try:
        card = inbox.submit({"kind": "card", "message": "Which file?", "cards": [{"name": "a"}]})
        unaware = AttachedTerminal(
            tmp_path / "config", inbox.url, env={"ELICIT_TUI_TOKEN": inbox.token}
        )
        try:
            unaware.wait_for_plain("Cannot show 'card' requests here")
            unaware.wait_for_plain("ELICIT_TUI_KINDS")
            unaware.wait_for_plain("a front end that can.")
            unaware.wait_for_plain("Which file?")  # its row in the timeline
            unaware.wait_for_plain("1 not shown here")  # not "nothing waiting"
            time.sleep(0.5)
            assert inbox.result(card) is None
            aware = AttachedTerminal(
                tmp_path / "config",
                inbox.url,
                "--name",
                "aware",
                env={
                    "ELICIT_TUI_TOKEN": inbox.token,
                    "ELICIT_TUI_KINDS": "tui.examples.card_picker",
                },
            )
            try:
                aware.wait_for("Which file?")
                time.sleep(0.5)
                aware.type("\r")
                result = inbox.result(card, wait=10)
                assert result is not None and result["action"] == "accept"
            finally:
                aware.close()
        finally:
            unaware.close()
    finally:
        inbox.stop()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"KITTY_WINDOW_ID": "1"}, "\x1b]99;i=elicit:d=0:p=title;deployer wants to run Bash"),
        (
            {"TERM_PROGRAM": "WezTerm", "TMUX": "/tmp/tmux-1/default,1,0"},
            "\x1bPtmux;\x1b\x1b]777;notify;deployer wants to run Bash;",
        ),
    ],
)
def test_an_unfocused_attach_shows_a_desktop_notification_through_its_terminal(
    inbox: HeadlessInbox, tmp_path: Path, env: dict[str, str], expected: str
) -> None:
    terminal = AttachedTerminal(tmp_path / "config", inbox.url, "--token", inbox.token, env=env)
    try:
        terminal.wait_for("Attached to")
        approval = {
            "kind": "tool_approval",
            "tool_name": "Bash",
            "arguments": {"command": "make deploy"},
            "tool_call_id": "c1",
            "source": "deployer",
        }
        # Focused: the person is looking; no notification.
        inbox.submit({**approval, "tool_call_id": "c0"})
        terminal.wait_for("make deploy")
        assert "\x1b]99;" not in terminal.output and "777;notify" not in terminal.output
        terminal.type("\x1b[O")  # the terminal reports that focus left
        since = terminal.mark()
        inbox.submit(approval)
        terminal.wait_for(expected, since=since)
    finally:
        terminal.quit()


def test_a_secret_answered_elsewhere_and_echoed_is_masked_here_and_picked_as_written(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    """Typed in one front end, the secret was masked there and in the inbox's transcript, but
    sent as written to every other front end: shown, and passed to its `--notify`."""
    canary = "canary-elsewhere-71c4"
    secret = inbox.submit({"kind": "secret", "message": "Token?"})
    status, _ = inbox.call(
        "POST",
        f"/v1/requests/{secret}/answer",
        {"result": {"action": "accept", "content": canary}, "front_end": "laptop"},
    )
    assert status == 200
    echoed = inbox.submit(
        {"kind": "choice", "message": f"Is {canary} right?", "options": [canary, "no"]}
    )
    _, listing = inbox.call("GET", "/v1/requests")
    assert canary not in str(listing) and f"Is {MASK} right?" in str(listing)
    terminal = AttachedTerminal(
        tmp_path / "config", inbox.url, env={"ELICIT_TUI_TOKEN": inbox.token}
    )
    try:
        terminal.wait_for(f"Is {MASK} right?")
        time.sleep(GRACE)
        terminal.type("1")
        # Picked as shown, masked; the agent gets the option it offered.
        assert inbox.result(echoed, wait=10) == {
            "action": "accept",
            "content": canary,
            "reason": None,
        }
        assert canary not in terminal.output
    finally:
        terminal.close()


def test_a_front_end_of_the_same_name_answering_is_not_said_to_be_this_one(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    """Two terminals both called laptop: the one that did not answer said "Answered here"."""
    token = {"ELICIT_TUI_TOKEN": inbox.token}
    first = AttachedTerminal(tmp_path / "a", inbox.url, "--name", "laptop", env=token)
    second = AttachedTerminal(tmp_path / "b", inbox.url, "--name", "laptop", env=token)
    try:
        asked = inbox.submit(choice("Which database?"))
        first.wait_for("Which database?")
        second.wait_for("Which database?")
        time.sleep(GRACE)
        first.type(ENTER)
        second.wait_for_plain("Answered in laptop at")
        assert inbox.result(asked, wait=10) == {
            "action": "accept",
            "content": "Postgres",
            "reason": None,
        }
        assert "Answered here" not in second.plain + first.plain
    finally:
        first.close()
        second.close()


def test_keys_typed_on_as_a_question_is_withdrawn_never_allow_the_call_shown_next(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    # Someone typing an answer when its asker went away typed on into the question shown
    # next, a hook's: past its 0.2 s grace, the `3` of "3 times" allowed the call always.
    to = ["--to", inbox.url, "--token", inbox.token]
    asker = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "ask", *to, "text", "How many retries?"],
        cwd=REPO,
        env=environment(tmp_path / "asker"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    hook = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "hook", "claude-code", *to],
        cwd=REPO,
        env=environment(tmp_path / "hook"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    terminal = AttachedTerminal(
        tmp_path / "config", inbox.url, env={"ELICIT_TUI_TOKEN": inbox.token}
    )
    try:
        terminal.wait_for("How many retries?")
        call = (INPUTS / "claude_code_pre_tool_use_bash.json").read_text()
        assert hook.stdin is not None
        hook.stdin.write(call.replace("npm test", "git push --force"))
        hook.stdin.close()
        hook.stdin = None  # written: `communicate` has nothing more to send
        deadline = time.monotonic() + 20
        while len(inbox.pending_ids()) < 2:
            assert time.monotonic() < deadline, "the hook's call never reached the inbox"
            time.sleep(0.05)
        time.sleep(GRACE)
        terminal.type(*"about ")  # a key each 0.1 s
        asker.terminate()
        time.sleep(0.4)  # the next question is in front, past its grace: typing goes on
        terminal.type(*"3 times", ENTER)
        time.sleep(0.5)
        assert hook.poll() is None, "a key typed for another question decided the call"
        assert not (tmp_path / "config" / "approvals.json").exists()
        time.sleep(1.2)  # the person stops typing, and reads the call
        terminal.type("1")
        out, err = hook.communicate(timeout=20)
        assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "allow", err
        assert not (tmp_path / "config" / "approvals.json").exists()
    finally:
        terminal.close()
        for process in (asker, hook):
            process.kill()
            process.wait(5)

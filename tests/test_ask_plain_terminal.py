"""`elicit-tui ask --plain` on a real terminal: a pty is the process's controlling terminal
while its stdin is a pipe and its stdout and stderr are files, as in `x=$(... | elicit-tui ask
--plain 2>log)`; the prompts and the answers go through the terminal alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from test_ask_terminal import REPO, environment
from test_suspend import Job, process_state

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

SHELL = """\
printf %s "$REQUEST" | "$@" >"$OUT" 2>"$ERR"
echo "EXIT $?"
IFS= read -r line
echo "SHELL READ [$line]"
"""
"""Runs the command with the request piped in and its output in files, says its status, then
reads a line as the shell's prompt would: what was typed and left on the terminal."""


class PlainOnTerminal:
    """`elicit-tui ask ARGS` with a fresh pty as its controlling terminal, `request` piped to
    its stdin, its stdout and stderr files."""

    def __init__(self, tmp_path: Path, *args: str, request: str = "", dumb: bool = False) -> None:
        self.out = tmp_path / "out"
        self.err = tmp_path / "err"
        env = {**environment(tmp_path), "REQUEST": request, "OUT": str(self.out)}
        env.update(ERR=str(self.err), **({"TERM": "dumb"} if dumb else {}))
        self.child = pexpect.spawn(
            "/bin/sh",
            ["-c", SHELL, "sh", sys.executable, "-m", "tui.cli", "ask", *args],
            env=env,
            cwd=str(REPO),
            dimensions=(24, 80),
            timeout=20,
        )
        self.shown = ""
        """What the terminal showed so far (till the shell said the exit status)."""
        self.left = ""
        """What the shell read after the command ended: text left typed on the terminal."""

    def expect(self, text: str) -> None:
        self.child.expect_exact(text)
        self.shown += (self.child.before + self.child.after).decode()

    def ended(self) -> tuple[int, Any, str]:
        """The exit status, the JSON on stdout, and what went to stderr; `left` is what the
        shell then reads, once Enter is pressed."""
        try:
            self.child.expect(r"EXIT (\d+)")
            self.shown += self.child.before.decode()
            code = int(self.child.match.group(1))
            self.child.send("\r")
            self.child.expect(r"SHELL READ \[(.*)\]")
            self.left = self.child.match.group(1).decode()
        finally:
            self.child.close(force=True)
        out = self.out.read_text()
        return code, json.loads(out) if out.strip() else None, self.err.read_text()


CHOICE = {"kind": "choice", "message": "Which region?", "options": ["eu", "us"]}


@pytest.mark.parametrize(
    ("args", "request_", "dumb"),
    [
        ((), json.dumps(CHOICE), True),
        (("--plain", "choice", "Which region?", "-o", "eu", "-o", "us"), "", False),
    ],
    ids=["request-piped-dumb-terminal", "plain-flag-stderr-to-a-file"],
)
def test_the_question_is_asked_and_answered_on_the_terminal(
    tmp_path: Path, args: tuple[str, ...], request_: str, dumb: bool
) -> None:
    # The terminal could not be opened: the answer was read from the pipe that gave the
    # request (cancelled at once), or the question went to stderr's file while it waited.
    asking = PlainOnTerminal(tmp_path, *args, request=request_, dumb=dumb)
    asking.expect("2) us")
    asking.expect("Type a number, 1-2:")
    asking.child.send("2\r")

    code, result, errors = asking.ended()
    assert (code, result) == (0, {"action": "accept", "content": "us", "reason": None})
    assert errors == ""


APPROVAL = {
    "kind": "tool_approval",
    "tool_name": "shell",
    "arguments": {"command": "rm -rf build"},
    "tool_call_id": "c1",
}


@pytest.mark.parametrize(
    ("args", "request_", "prompt", "typed"),
    [
        ((), json.dumps(APPROVAL), "Type a number, 1-4:", "1"),
        (("confirm", "Deploy?"), "", "y = Yes, n = No [n]:", "y"),
        (("text", "Name?"), "", "Answer:", "abc"),
        (("secret", "Key?"), "", "Secret (not shown as you type):", "abc"),
    ],
    ids=["tool-approval", "confirmation", "text", "secret"],
)
def test_ctrl_d_after_typing_cancels(
    tmp_path: Path, args: tuple[str, ...], request_: str, prompt: str, typed: str
) -> None:
    # What was typed before Ctrl+D was taken for the answer: the call allowed, yes, the text.
    asking = PlainOnTerminal(tmp_path, "--plain", *args, request=request_)
    asking.expect(prompt)
    asking.child.send(typed)
    asking.child.send("\x04")
    asking.child.send("\x04")  # the second a person presses when the first seems to do nothing

    code, result, _ = asking.ended()
    assert (code, result) == (2, {"action": "cancel", "content": None, "reason": None})
    # The prompt's line is ended: what is printed next starts a line of its own.
    shown = typed if "Secret" not in prompt else ""
    assert asking.shown.endswith(f"{prompt} {shown}\r\n")


def test_a_secret_is_read_without_echo_and_backspace_and_ctrl_u_edit_it(tmp_path: Path) -> None:
    asking = PlainOnTerminal(tmp_path, "--plain", "secret", "Key?", "--reveal-secret")
    asking.expect("Secret (not shown as you type):")
    asking.child.send("wrong\x15sk-ab9\x7fc\r")  # Ctrl+U clears the line, Backspace the 9

    code, result, _ = asking.ended()
    assert (code, result) == (0, {"action": "accept", "content": "sk-abc", "reason": None})
    assert asking.shown.endswith("Secret (not shown as you type): \r\n")
    assert "wrong" not in asking.shown


def test_a_secret_stopped_with_ctrl_z_is_still_hidden_after_fg_and_keeps_what_was_typed() -> None:
    # Continued, the rest was echoed in clear (the shell turns echo on while it has the
    # terminal), and what was typed before the stop was dropped.
    job = Job("ask", "--plain", "secret", "Key?", "--reveal-secret")
    job.expect("Secret (not shown as you type):")
    job.child.send("sk-ab")
    job.child.send("\x1a")
    job.expect("STOPPED")
    assert process_state(job.pid) == "T"

    job.child.send("fg\r")
    job.expect("SHELL READ fg")
    job.expect("what you typed before the stop is kept")
    job.expect("Secret (not shown as you type):")
    continued = len(job.output)
    job.child.send("QZX\r")
    job.expect('"reason": null}')
    job.expect("EXIT 0")
    shown_after = bytes(job.output[continued:])
    assert b'"content": "sk-abQZX"' in shown_after
    assert b"QZX" not in shown_after.split(b'{"action"')[0]
    assert b"sk-ab" not in bytes(job.output[:continued])


def test_text_typed_when_the_question_times_out_is_not_left_for_the_shell(tmp_path: Path) -> None:
    # It was: Enter after the timeout ran `echo LEAKED` in the shell.
    asking = PlainOnTerminal(tmp_path, "--plain", "--timeout", "3", "text", "Commit message?")
    asking.expect("Answer:")
    asking.child.send("echo LEAKED")
    asking.expect("echo LEAKED")  # echoed on the terminal, waiting for an Enter

    code, result, _ = asking.ended()
    assert (code, result) == (2, {"action": "cancel", "content": None, "reason": "timeout"})
    assert asking.left == ""

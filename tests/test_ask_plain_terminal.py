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

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

SHELL = 'printf %s "$REQUEST" | "$@" >"$OUT" 2>"$ERR"; echo "EXIT $?"'
"""Runs the command with the request piped in and its output in files, then says its status."""


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
            ["-c", SHELL, "sh", sys.executable, "-m", "tui.cli.main", "ask", *args],
            env=env,
            cwd=str(REPO),
            dimensions=(24, 80),
            timeout=20,
        )

    def expect(self, text: str) -> None:
        self.child.expect_exact(text)

    def ended(self) -> tuple[int, Any, str]:
        """The exit status, the JSON on stdout, and what went to stderr."""
        try:
            self.child.expect(r"EXIT (\d+)")
            code = int(self.child.match.group(1))
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

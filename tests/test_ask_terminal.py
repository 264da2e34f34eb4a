"""`elicit-tui ask` as a real process on a pseudo-terminal, its stdout a pipe, answered with keys."""

from __future__ import annotations

import fcntl
import json
import os
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Any

import pyte
import pytest

REPO = Path(__file__).resolve().parent.parent

# Makes the pty (on stderr) the session's controlling terminal, as a login shell's is.
LAUNCHER = """\
import fcntl, sys, termios
fcntl.ioctl(2, termios.TIOCSCTTY, 0)
from tui.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

GRACE = 0.5
"""Keys typed in the first 0.2 s of a modal are ignored; wait longer than that."""

CANARY = "sk-CANARY-7f3e-never-print-me"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
    env.update(
        TERM="xterm-256color",
        ELICIT_TUI_CONFIG_DIR=str(tmp_path / "config"),
        # Never the developer's keyring: keyring's "no backend" stand-in.
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
    )
    return env


class TerminalRun:
    """`elicit-tui ARGS` on a fresh 80x24 pty; stdout is a pipe, stdin a pipe when `stdin` is given."""

    def __init__(self, tmp_path: Path, *args: str, stdin: str | None = None) -> None:
        self._master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, *args],
            stdin=subprocess.PIPE if stdin is not None else slave,
            stdout=subprocess.PIPE,
            stderr=slave,
            cwd=REPO,
            env=environment(tmp_path),
            start_new_session=True,
        )
        os.close(slave)
        if stdin is not None:
            assert self.process.stdin is not None
            self.process.stdin.write(stdin.encode())
            self.process.stdin.close()
        self._screen = bytearray()
        # The pty must be drained, or the app blocks once its buffer is full.
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._master, 65536)
            except OSError:  # EIO: the process closed the terminal
                return
            if not chunk:
                return
            self._screen.extend(chunk)

    @property
    def screen(self) -> str:
        return self._screen.decode(errors="replace")

    def wait_for(self, text: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.screen:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"{text!r} never appeared on the terminal")
            time.sleep(0.05)

    def type(self, *keys: str) -> None:
        for key in keys:
            os.write(self._master, key.encode())
            time.sleep(0.15)

    def finish(self, timeout: float = 20.0) -> tuple[int, dict[str, Any]]:
        try:
            self.process.wait(timeout)
        finally:
            self.kill()
        assert self.process.stdout is not None
        out = self.process.stdout.read().decode()
        self.process.stdout.close()
        return self.process.returncode, json.loads(out)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self._reader.join(5)
        os.close(self._master)


def ask(
    tmp_path: Path, *args: str, keys: tuple[str, ...], stdin: str | None = None
) -> tuple[int, dict[str, Any], str]:
    run = TerminalRun(tmp_path, "ask", *args, stdin=stdin)
    run.wait_for("Which DB?")
    time.sleep(GRACE)
    run.type(*keys)
    code, result = run.finish()
    return code, result, run.screen


CHOICE = ("choice", "Which DB?", "-o", "Postgres", "-o", "SQLite")


def test_accept_prints_the_answer_and_exits_0(tmp_path: Path) -> None:
    code, result, screen = ask(tmp_path, *CHOICE, keys=("2",))

    assert (code, result) == (0, {"action": "accept", "content": "SQLite", "reason": None})
    # The UI went to the terminal, the JSON only to the pipe.
    assert "Postgres" in screen
    assert '"action"' not in screen


def test_decline_exits_1(tmp_path: Path) -> None:
    code, result, _ = ask(tmp_path, *CHOICE, keys=("\x0e",))  # ctrl+n

    assert (code, result) == (1, {"action": "decline", "content": None, "reason": None})


def test_cancel_exits_2(tmp_path: Path) -> None:
    code, result, _ = ask(tmp_path, *CHOICE, keys=("\x1b",))  # escape

    assert (code, result) == (2, {"action": "cancel", "content": None, "reason": None})


def seen_then_answered(run: TerminalRun, *keys: str) -> tuple[int, dict[str, Any], str, str]:
    """Wait for the question, answer it with `keys`; the exit code, the result, the bytes
    written before the answer, and the screen they draw (emulated)."""
    run.wait_for("Which DB?")
    time.sleep(GRACE)
    output = run.screen
    run.type(*keys)
    code, result = run.finish()
    screen = pyte.Screen(80, 24)
    pyte.Stream(screen).feed(output)
    return code, result, output, "\n".join(screen.display)


def test_an_agents_escape_sequences_are_shown_not_sent_to_the_terminal(tmp_path: Path) -> None:
    # Sent on, the first would clear the screen and the second retitle the window.
    run = TerminalRun(
        tmp_path, "ask", "choice", "Which DB? \x1b[2J", "-o", "Postgres\x1b]0;owned\x07"
    )
    code, result, output, shown = seen_then_answered(run, "1")

    assert "Which DB? ␛[2J" in shown and "Postgres␛]0;owned␇" in shown
    assert "\x1b]0;owned" not in output and "\x1b[2J" not in output
    # The answer is the option as the agent sent it.
    assert (code, result["content"]) == (0, "Postgres\x1b]0;owned\x07")


def test_a_tool_call_cannot_reorder_or_hide_what_the_person_approves(tmp_path: Path) -> None:
    # Where text is laid out both ways, the override would show the end of the command
    # reversed; the zero-width space and the tag characters ("hi") draw nothing.
    command = "rm -rf ./cache \u202e/ \u200b\U000e0068\U000e0069"
    request = {
        "kind": "tool_approval",
        "message": "Which DB? Run this?",
        "tool_name": "Bash",
        "arguments": {"command": command},
        "tool_call_id": "call-1",
    }
    run = TerminalRun(tmp_path, "ask", stdin=json.dumps(request))
    code, result, output, shown = seen_then_answered(run, "y")

    assert "rm -rf ./cache \\u202e/ \\u200b\\U000e0068\\U000e0069" in shown
    assert not {"\u202e", "\u200b", "\U000e0068"} & set(output)
    assert (code, result["action"]) == (0, "accept")


def test_an_inline_form_shows_its_first_field_whole_and_types_into_it(tmp_path: Path) -> None:
    # The focus goes to the first field while the inline dialog is still a row high: the
    # body must not keep the scroll that row needed (the field's top cut off, out of sight).
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Service name", "description": "lowercase"},
            "replicas": {"type": "integer", "title": "Replicas", "default": 2},
            "region": {"type": "string", "title": "Region", "enum": ["eu", "us", "ap"]},
            "public": {"type": "boolean", "title": "Public", "default": False},
        },
        "required": ["name", "region"],
    }
    request = {"kind": "form", "message": "Deployment settings", "requested_schema": schema}
    run = TerminalRun(tmp_path, "ask", stdin=json.dumps(request))
    run.wait_for("Submit")
    time.sleep(GRACE)
    run.type("web")
    time.sleep(GRACE)
    screen = pyte.Screen(80, 24)
    pyte.Stream(screen).feed(run.screen)
    lines = [line.rstrip() for line in screen.display]
    # The field in use, in its heavy border.
    title = next(i for i, line in enumerate(lines) if "┏━ Service name * " in line)
    assert lines[title + 1].startswith("│ ┃ web ")
    run.type("\x1b")
    code, _result = run.finish()
    assert code == 2


def test_request_piped_to_stdin_is_answered_on_the_terminal(tmp_path: Path) -> None:
    request = {"kind": "text", "message": "Which DB?", "default": "x"}

    code, result, _ = ask(tmp_path, stdin=json.dumps(request), keys=("\x15", "sqlite", "\r"))

    assert (code, result) == (0, {"action": "accept", "content": "sqlite", "reason": None})


def test_a_secret_is_redacted_unless_revealed(tmp_path: Path) -> None:
    secret = ("secret", "Which DB?")

    code, hidden, _ = ask(tmp_path, *secret, keys=(CANARY, "\r"))
    assert (code, hidden["content"]) == (0, "**********")

    code, revealed, screen = ask(tmp_path, *secret, "--reveal-secret", keys=(CANARY, "\r"))
    assert (code, revealed["content"]) == (0, CANARY)
    assert CANARY not in screen


def run_without_terminal(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # A new session without a controlling terminal, every stream a pipe: as in CI or cron.
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "ask", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environment(tmp_path),
        start_new_session=True,
        timeout=30,
    )


def test_invalid_request_exits_3_without_a_terminal(tmp_path: Path) -> None:
    finished = run_without_terminal(tmp_path, "choice", "Which DB?", "-o", "a", "--default", "b")

    assert finished.returncode == 3
    assert finished.stdout == ""
    assert "choice.default: 'b' is not one of the options: 'a'" in finished.stderr


def test_no_terminal_cancels_with_a_reason(tmp_path: Path) -> None:
    finished = run_without_terminal(tmp_path, *CHOICE)

    assert finished.returncode == 2
    assert json.loads(finished.stdout) == {
        "action": "cancel",
        "content": None,
        "reason": "no_terminal",
    }
    assert "no terminal" in finished.stderr


def test_a_transcript_records_the_question_the_key_and_the_answer(tmp_path: Path) -> None:
    transcript = tmp_path / "ask.jsonl"

    code, result, _ = ask(tmp_path, "--transcript", str(transcript), *CHOICE, keys=("2",))

    assert code == 0
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [r["type"] for r in records] == ["session", "request", "keys", "result", "end"]
    assert records[1]["request"]["options"][1]["label"] == "SQLite"
    assert [k["key"] for k in records[2]["keys"]] == ["2"]
    assert records[3]["result"] == result

"""Keys typed ahead of the next question, on a real terminal, in one burst: the Enter meant
for it reached the main screen in the moment between the two questions and opened the
timeline's highlighted row; the next question came over that row, and the row was still open
once it was answered. Keys that come just after a question closes are held as keys typed
in a question's grace are; once the typing pauses, Enter opens a row as before."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

REPO = Path(__file__).resolve().parent.parent
SESSION = Path(__file__).parent / "paced_session.py"

THINKING = 0.8
"""How long the agent thinks between its two questions: longer than a question's grace."""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


class Terminal:
    """`paced_session.py` on an 80x24 pty, its screen read through pyte."""

    def __init__(self, out: Path) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            [str(SESSION), str(THINKING), str(out)],
            dimensions=(24, 80),
            cwd=str(REPO),
            env={k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}},
            timeout=20,
        )
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)

    def text(self) -> str:
        with contextlib.suppress(pexpect.TIMEOUT):
            while True:
                self.stream.feed(self.child.read_nonblocking(65536, timeout=0.1))
        return "\n".join(self.screen.display)

    def wait_for(self, shown: str, seconds: float = 15.0) -> str:
        deadline = time.monotonic() + seconds
        while shown not in (text := self.text()):
            assert time.monotonic() < deadline, f"{shown!r} not shown:\n{text}"
        return text

    def footer_once(self, changed: str, seconds: float = 15.0) -> str:
        """The footer (the keys of what is in front) once it no longer shows `changed`."""
        deadline = time.monotonic() + seconds
        while changed in (footer := self.screen.display[-1]):
            assert time.monotonic() < deadline, self.text()
            self.text()
        return footer


def test_an_enter_typed_ahead_between_questions_opens_no_row(tmp_path: Path) -> None:
    out = tmp_path / "answers.json"
    terminal = Terminal(out)
    child = terminal.child
    try:
        terminal.wait_for("First?")
        time.sleep(0.5)  # past the question's grace
        child.send("1")  # answered; then, as it closes, Enter typed ahead for the next one
        time.sleep(0.1)
        child.send("\r\r")
        terminal.wait_for("typed ahead for the next one")  # said as the second is held
        terminal.wait_for("Second?")
        time.sleep(1.5)  # a pause in the typing: keys are taken again
        child.send("2")
        # The main screen, the timeline in front: no row was opened under the question.
        assert "Open" in terminal.footer_once("Accept"), terminal.text()

        time.sleep(1.5)
        child.send("\r")  # a person's Enter, after a pause: the row opens whole
        assert "Close" in terminal.footer_once("Open"), terminal.text()
        child.send("\x1b")
        assert "Open" in terminal.footer_once("Close"), terminal.text()
        child.send("\x11")  # Ctrl+Q
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert json.loads(out.read_text()) == ["alpha", "delta"]

"""A frame the full-screen app draws is on the terminal at once, not when a writer thread next
gets the interpreter's lock: a question shows while the app is still busy after its first
frame (laying out the main screen, building a dialog ahead)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import pexpect
import pyte
import pytest
from textual import constants
from textual.drivers.headless_driver import HeadlessDriver

from tui import ElicitationApp, ElicitationQueue
from tui.app.write_through_driver import WriteThroughDriver

REPO = Path(__file__).resolve().parent.parent

HELD_AFTER_THE_QUESTION = """\
import ctypes, os, sys
from tui import ElicitationApp, ElicitationQueue, TextRequest

hold = os.open(sys.argv[1], os.O_RDWR)  # a FIFO: reading it waits for the test's byte
libc = ctypes.PyDLL(None)  # a PyDLL's calls keep the interpreter's lock (the GIL)

class HeldAfterTheQuestion(ElicitationApp):
    held = False

    def post_display_hook(self):
        if not self.held and len(self.screen_stack) > 1:
            # Busy right after the question's first frame, and no other thread may run.
            self.held = True
            libc.read(hold, ctypes.create_string_buffer(1), 1)

def agent(queue):
    return queue.ask(TextRequest(message="Which release?")).action

print(HeldAfterTheQuestion(ElicitationQueue(), agent, exit_when_agent_done=True).run())
"""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def test_the_question_reaches_the_terminal_while_the_app_is_still_busy(tmp_path: Path) -> None:
    hold = tmp_path / "hold"
    os.mkfifo(hold)
    child = pexpect.spawn(
        sys.executable,
        ["-c", HELD_AFTER_THE_QUESTION, str(hold)],
        dimensions=(24, 80),
        cwd=str(REPO),
        env={
            **os.environ,
            "TERM": "xterm-256color",
            "ELICIT_TUI_BELL": "0",
            "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config"),
        },
        timeout=20,
    )
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    try:
        try:
            child.expect_exact("Which release?", timeout=10)
        except pexpect.TIMEOUT:
            pytest.fail("the question's frame was held back while the app was busy")
        finally:
            released = os.open(hold, os.O_WRONLY | os.O_NONBLOCK)
            os.write(released, b"go")
            os.close(released)
        stream.feed(child.before + child.after)
        with contextlib.suppress(pexpect.TIMEOUT):
            while True:  # the rest of the frame
                stream.feed(child.read_nonblocking(65536, timeout=0.3))
        assert any("Which release?" in line for line in screen.display)
        child.sendcontrol("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert "cancel" in child.before.decode(errors="replace")


def test_the_app_draws_through_its_own_driver_on_a_terminal_and_keeps_any_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert ElicitationApp(ElicitationQueue()).driver_class is WriteThroughDriver
    # The web front end names its driver in $TEXTUAL_DRIVER.
    monkeypatch.setattr(constants, "DRIVER", "textual.drivers.headless_driver:HeadlessDriver")
    assert ElicitationApp(ElicitationQueue()).driver_class is HeadlessDriver

"""Quitting `elicit-tui serve` while scripts wait: its TUI asks for a second Ctrl+Q, and the
headless inbox says on stderr how many questions stopping it cancelled."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2
import pexpect
import pyte
import pytest
from inbox_process import running_inbox
from test_sigterm import spawn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")

CTRL_Q = "\x11"
QUESTIONS = [{"kind": "text", "message": f"Question {n}?"} for n in (1, 2)]


class Screen:
    """What `serve` on an 80x24 pty draws, as a terminal shows it."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.stream.feed(child.buffer)  # read past what `expect` matched

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def until(self, shown: Callable[[str], bool], timeout: float = 20) -> str:
        """The screen's text once `shown` holds for it (an AssertionError after `timeout`)."""
        deadline = time.monotonic() + timeout
        while not shown(self.text):
            assert time.monotonic() < deadline, self.text
            try:
                self.stream.feed(self.child.read_nonblocking(65536, timeout=0.2))
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                pytest.fail(f"serve ended: {self.text}")
        return self.text


def result_of(http: httpx2.Client, request_id: str) -> dict[str, Any]:
    """The result of `request_id`, once it has one, as its asker hears it."""
    answer: dict[str, Any] = http.get(
        f"/v1/requests/{request_id}/result", params={"wait": 20}
    ).json()["result"]
    return answer


def flat(text: str) -> str:
    """`text` with the screen's lines and the notices' edges taken out: a sentence read whole."""
    return " ".join(text.replace("▌", " ").split())


def test_ctrl_q_with_questions_waiting_asks_for_a_second_press() -> None:
    # One Ctrl+Q ended serve at once, and every waiting script heard `closed`, exit 2.
    child = spawn("serve", "--port", "0", "--no-auth")
    child.expect(rb"elicit-tui serve on (http://127\.0\.0\.1:\d+)/mcp")
    base = child.match.group(1).decode()
    screen = Screen(child)
    try:
        with httpx2.Client(base_url=base, timeout=30) as http, ThreadPoolExecutor() as pool:
            ids = [
                http.post("/v1/requests", json={"request": question}).json()["id"]
                for question in QUESTIONS
            ]
            # Each waits for its result from now on, as `ask --to` does.
            heard = [pool.submit(result_of, http, id_) for id_ in ids]
            screen.until(lambda text: "Question 1?" in text)
            child.send(CTRL_Q)
            shown = screen.until(lambda text: "Press Ctrl+Q again" in text)
            pending = [request["id"] for request in http.get("/v1/requests").json()["pending"]]
            assert child.isalive()
            child.send(CTRL_Q)
            child.expect(pexpect.EOF)
            results = [hearing.result(timeout=20) for hearing in heard]
    finally:
        child.close(force=True)

    assert "Press Ctrl+Q again to quit and cancel the 2 questions waiting" in flat(shown)
    assert pending == ids
    assert child.exitstatus == 0
    assert [result["reason"] for result in results] == ["closed", "closed"]


def test_ctrl_q_with_nothing_waiting_quits_at_once() -> None:
    child = spawn("serve", "--port", "0", "--no-auth")
    child.expect_exact("Serving MCP")
    child.send(CTRL_Q)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_to_a_headless_inbox_says_how_many_questions_it_cancelled() -> None:
    # It exited 0 saying nothing; each waiting script heard `closed`.
    with running_inbox() as inbox:
        for question in QUESTIONS:
            inbox.post(question)
        status = inbox.stop(signal.SIGINT)

    assert status == 0
    assert "cancelled the 2 questions waiting" in inbox.output, inbox.output


def test_a_headless_inbox_stopped_with_nothing_waiting_says_nothing_of_cancelling() -> None:
    with running_inbox() as inbox:
        assert inbox.pending() == []  # serving, its Ctrl+C handled
        status = inbox.stop(signal.SIGINT)

    assert status == 0
    assert "cancelled" not in inbox.output, inbox.output

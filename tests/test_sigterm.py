"""`kill` (SIGTERM) ends `elicit-tui` as quitting does: the terminal is given back as it was
(off the alternate screen, no mouse reports, the cursor shown, an inline dialog cleared),
whoever waits for an answer hears why, and the exit status is 143, as a shell reports a
command it ended. `timeout 60 elicit-tui ask ...` in a script ends so too. `kill -HUP` ends
it the same way, with 129.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx2
import pexpect
import pyte
import pytest
from shell_started import hangups_at_default

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")

EDGES = "╭│╰"
LEFT_ALTERNATE_SCREEN = b"\x1b[?1049l"
MOUSE_OFF = b"\x1b[?1000l"
CURSOR_SHOWN = b"\x1b[?25h"


def python(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        list(args),
        dimensions=(24, 80),
        cwd=str(REPO),
        timeout=20,
        preexec_fn=hangups_at_default,  # as a shell starts it
    )


def spawn(*args: str) -> pexpect.spawn:
    """`elicit-tui ARGS` on an 80x24 pty."""
    return python("-m", "tui.cli", *args)


def terminated(child: pexpect.spawn, number: int = signal.SIGTERM) -> bytes:
    """SIGTERM (or signal `number`) to `child`; what it wrote from then on, once it has exited."""
    time.sleep(0.3)  # drawn and settled
    child.kill(number)
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus is None, "ended by the signal, not by the app"
    after: bytes = child.before
    return after


def screen(output: bytes) -> list[str]:
    emulator = pyte.Screen(80, 24)
    pyte.ByteStream(emulator).feed(output)
    return [line.rstrip() for line in emulator.display]


@pytest.mark.parametrize("mode", [(), ("--fullscreen",)], ids=["inline", "fullscreen"])
@pytest.mark.parametrize(
    ("number", "status", "reason"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGHUP, 129, "hung_up")],
    ids=["kill", "kill-HUP"],
)
def test_kill_ends_ask_cancelled_and_gives_the_terminal_back(
    mode: tuple[str, ...], number: int, status: int, reason: str
) -> None:
    # `kill -HUP` with the terminal still there: ended as SIGTERM ends it (it died of it).
    child = spawn("ask", "choice", "Which DB?", "-o", "Postgres", "-o", "SQLite", *mode)
    child.expect_exact("SQLite")
    before = bytes(child.before + child.after)
    after = terminated(child, number)

    assert child.exitstatus == status
    assert b'{"action": "cancel", "content": null, "reason": "%s"}' % reason.encode() in after
    assert MOUSE_OFF in after and CURSOR_SHOWN in after
    if mode:
        assert LEFT_ALTERNATE_SCREEN in after
    else:
        # The dialog's lines are cleared: the shell's screen holds only the printed result.
        shown = screen(before + after)
        assert not any(edge in line for line in shown for edge in EDGES), shown


def test_kill_ends_serve_and_its_waiting_asker_hears_closed() -> None:
    child = spawn("serve", "--port", "0", "--no-auth")
    child.expect(rb"elicit-tui serve on (http://127\.0\.0\.1:\d+)/mcp")
    base = child.match.group(1).decode()
    child.expect_exact("Serving MCP")
    with httpx2.Client(base_url=base, timeout=30) as http:
        request = {"kind": "choice", "message": "Ship it?", "options": ["yes", "no"]}
        request_id = http.post("/v1/requests", json={"request": request}).json()["id"]
        child.expect_exact("Ship it?")
        heard: list[Any] = []
        waiting = threading.Thread(
            target=lambda: heard.append(
                http.get(f"/v1/requests/{request_id}/result", params={"wait": 20}).json()
            )
        )
        waiting.start()
        after = terminated(child)
        waiting.join(timeout=20)

    assert child.exitstatus == 143
    assert [answer["result"] for answer in heard] == [
        {"action": "cancel", "content": None, "reason": "closed"}
    ]
    assert LEFT_ALTERNATE_SCREEN in after and MOUSE_OFF in after


def test_kill_ends_the_full_app_and_gives_the_terminal_back() -> None:
    child = spawn("demo", "--pause", "0")
    child.expect_exact("be called?")
    after = terminated(child)

    assert child.exitstatus == 143
    assert LEFT_ALTERNATE_SCREEN in after and MOUSE_OFF in after and CURSOR_SHOWN in after


@pytest.mark.parametrize(
    ("number", "status", "said"),
    [(signal.SIGTERM, 143, b"SIGTERM"), (signal.SIGHUP, 129, b"SIGHUP")],
    ids=["kill", "kill-HUP"],
)
def test_kill_ends_mcp_during_a_call_saying_so(number: int, status: int, said: bytes) -> None:
    server = [sys.executable, "-m", "tui.examples.mcp_elicit_server"]
    child = spawn("mcp", "--call", "book_table", "--", *server)
    child.expect_exact("Party size")  # the server's question, in the middle of the call
    after = terminated(child, number)

    assert child.exitstatus == status
    # The question is cancelled as the app ends: the call may return first (the server says
    # so), or the command says it ended before the call returned. Never exit 1, as if a tool
    # had failed (after SIGHUP it said "the TUI was closed").
    returned = b"No table booked: the person chose to cancel." in after
    assert returned or b"ended by " + said + b" before 'book_table' returned" in after
    assert LEFT_ALTERNATE_SCREEN in after and MOUSE_OFF in after and CURSOR_SHOWN in after


PROGRAM = """\
from tui import ElicitationApp, ElicitationQueue, ChoiceRequest

def agent(queue):
    return queue.ask(ChoiceRequest(message="Which DB?", options=["Postgres", "SQLite"]))

ElicitationApp(ElicitationQueue(), agent).run()
print("after run")
"""


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["kill", "kill-HUP"])
def test_a_program_that_runs_the_app_keeps_sigterm_and_sighup_as_it_had_them(number: int) -> None:
    # Its own process: the signal ends it at once, as Python's default does, not only the app.
    child = python("-c", PROGRAM)
    child.expect_exact("SQLite")
    time.sleep(0.3)
    child.kill(number)
    child.expect(pexpect.EOF)
    child.close()

    assert child.signalstatus == number
    assert b"after run" not in child.before


@pytest.mark.parametrize(
    ("args", "said", "status"),
    [
        (("--call", "nope"), b"the server has no tool 'nope'", 2),
        (("--url", "http://127.0.0.1:9/mcp", "--call", "x"), b"elicit-tui mcp:", 1),
    ],
    ids=["unknown tool", "no server"],
)
def test_mcp_that_cannot_call_ends_by_itself_saying_why(
    args: tuple[str, ...], said: bytes, status: int
) -> None:
    # Nothing is left to answer: the command ends, the terminal given back, and says why;
    # no full screen waiting for q.
    server = ("--", sys.executable, "-m", "tui.examples.mcp_elicit_server")
    child = spawn("mcp", *args, *(server if "--url" not in args else ()))
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    assert child.exitstatus == status
    after: bytes = child.before
    assert said in after
    assert b"Traceback" not in after
    assert LEFT_ALTERNATE_SCREEN in after and CURSOR_SHOWN in after

"""An app whose terminal has gone without hanging it up (a pseudo-terminal that is not its
controlling terminal, closed by whoever held it; or its own, with SIGHUP ignored) ends by
itself, exit status 129, instead of reading the closed terminal for ever."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest
from inbox_process import TOKEN

REPO = Path(__file__).resolve().parent.parent
ELICIT_TUI = [sys.executable, "-m", "tui.cli"]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def read_until(controller: int, text: bytes, timeout: float = 30) -> bytes:
    """What the pty showed until `text` was among it."""
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen:
        assert time.monotonic() < deadline, f"never saw {text!r}"
        if select.select([controller], [], [], 0.5)[0]:
            seen += os.read(controller, 65536)
    return seen


@dataclass
class OnAPty:
    """A process on a pty, and the pty's controlling side."""

    process: subprocess.Popen[bytes]
    controller: int
    closed: bool = False

    def close(self) -> None:
        """Close the pty's controlling side (once): the terminal is gone."""
        if not self.closed:
            self.closed = True
            os.close(self.controller)


@contextmanager
def on_a_pty(
    argv: list[str], *, env: dict[str, str] | None = None, answer_on_terminal: bool = True
) -> Iterator[OnAPty]:
    """`argv` in a session of its own on a new pty; its answer printed on the pty or to a
    pipe. Killed if still running once the block ends."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        argv,
        stdin=terminal,
        stdout=terminal if answer_on_terminal else subprocess.PIPE,
        stderr=terminal,
        cwd=REPO,
        env={**os.environ, "TERM": "xterm-256color", "ELICIT_TUI_BELL": "0", **(env or {})},
        start_new_session=True,
    )
    os.close(terminal)
    started = OnAPty(process, controller)
    try:
        yield started
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
        started.close()


def test_the_app_ends_by_itself_once_its_terminal_has_gone(tmp_path: Path) -> None:
    # Its own session, the pty not its controlling terminal.
    config = {"ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config")}
    with on_a_pty([*ELICIT_TUI, "demo"], env=config) as app:
        read_until(app.controller, b"billing-api")  # the demo's first question is on screen
        app.close()  # the terminal is gone; no SIGHUP comes

        # Not a success: ended as a shell reports a command a hangup ended.
        assert app.process.wait(timeout=10) == 129


ON_ITS_TERMINAL = """\
import fcntl, signal, sys, termios
fcntl.ioctl(2, termios.TIOCSCTTY, 0)  # the pty is its controlling terminal, as in a login
# `nohup`: closing it hangs nobody up; `hup`: SIGHUP at its default, whatever pytest inherited
signal.signal(signal.SIGHUP, signal.SIG_IGN if sys.argv[1] == "nohup" else signal.SIG_DFL)
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a shell starts a foreground job
sys.argv[:2] = ["elicit-tui"]
from tui.cli.entry import main
main()
"""
"""`elicit-tui ARGS` as the console script runs it on its controlling terminal, argv[1]
`nohup` (closing the terminal hangs nobody up) or `hup` (it sends SIGHUP, as a closed
terminal window or a dropped SSH connection does)."""


def on_its_terminal(hang_up: str, *args: str) -> list[str]:
    return [sys.executable, "-c", ON_ITS_TERMINAL, hang_up, *args]


@contextmanager
def ask_whose_terminal_goes(
    *args: str, shown: bytes, answer_on_terminal: bool, hang_up: str = "nohup"
) -> Iterator[subprocess.Popen[bytes]]:
    """`elicit-tui ask ARGS` on a pty, its answer printed there or to a pipe; the pty is
    closed once `shown` is on it."""
    command = on_its_terminal(hang_up, "ask", *args)
    with on_a_pty(command, answer_on_terminal=answer_on_terminal) as ask:
        read_until(ask.controller, shown)
        ask.close()
        yield ask.process


@pytest.mark.parametrize("hang_up", ["nohup", "hup"])
def test_ask_ends_by_itself_when_its_terminal_goes_away(hang_up: str) -> None:
    with ask_whose_terminal_goes(
        "choice", "Zebra?", "-o", "a", shown=b"Zebra?", answer_on_terminal=False, hang_up=hang_up
    ) as ask:
        # Unhung, it used to read the closed terminal for ever, a processor core at full load;
        # hung up, it died of SIGHUP, its asker told nothing.
        assert ask.wait(timeout=10) == 129
        assert ask.stdout is not None
        assert json.loads(ask.stdout.read()) == {
            "action": "cancel",
            "content": None,
            "reason": "hung_up",
        }


def test_ask_printing_its_answer_on_the_terminal_that_went_away_still_says_hung_up() -> None:
    # Its answer cannot be printed there: exit 1 (a traceback's) would read as "declined".
    with ask_whose_terminal_goes(
        "confirm", "Deploy?", shown=b"Deploy?", answer_on_terminal=True
    ) as ask:
        assert ask.wait(timeout=10) == 129


@pytest.mark.parametrize(
    ("end", "status"), [("close its terminal", 129), ("kill it (SIGTERM)", 143)]
)
def test_a_replay_ended_from_outside_says_how_and_leaves_no_folder_behind(
    tmp_path: Path, end: str, status: int
) -> None:
    """SIGHUP (its terminal window closed) and SIGTERM end a replay as quitting does, its
    keyring folder removed, not left in the temporary folder; its exit status says how it
    ended, as a shell reports such a command (it said 0, or 1 for a mismatch)."""
    env = {"TMPDIR": str(tmp_path), "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config")}
    replay = on_its_terminal("hup", "demo", "--replay")
    with on_a_pty(replay, env=env) as app:
        read_until(app.controller, b"billing-api")
        assert [p.name for p in tmp_path.glob("elicit-tui-keyring-*")] != []
        if end == "close its terminal":
            app.close()
        else:
            app.process.terminate()
        assert app.process.wait(timeout=10) == status
        assert [p.name for p in tmp_path.glob("elicit-tui-keyring-*")] == []


@pytest.mark.parametrize(
    ("headless", "status"), [((), 129), (("--headless",), -signal.SIGHUP)], ids=["tui", "headless"]
)
def test_an_inbox_whose_terminal_hangs_up_tells_its_waiting_askers(
    tmp_path: Path, headless: tuple[str, ...], status: int
) -> None:
    """`serve` whose terminal window is closed ends as quitting does (headless: as Ctrl+C
    does, then as a hangup ends a process): an `ask --to` waiting on it is told its question
    was closed, not that the inbox cannot be reached."""
    config = {"ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config"), "ELICIT_TUI_TOKEN": TOKEN}
    serve = on_its_terminal("hup", "serve", "--port", "0", "--token", TOKEN, *headless)
    with on_a_pty(serve, env=config) as inbox:
        said = read_until(inbox.controller, b"/mcp")
        found = re.search(rb"elicit-tui serve on (http://127\.0\.0\.1:\d+)/mcp", said)
        assert found, said
        url = found.group(1).decode()
        asking = subprocess.Popen(
            [*ELICIT_TUI, "ask", "--to", url, "choice", "Pick?", "-o", "a"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env={**os.environ, **config},
        )
        try:
            with drained(inbox.controller):
                waiting(url)
            inbox.close()

            assert inbox.process.wait(timeout=10) == status
            out, err = asking.communicate(timeout=10)
        finally:
            if asking.poll() is None:
                asking.kill()
                asking.communicate()
    assert json.loads(out) == {"action": "cancel", "content": None, "reason": "closed"}, err


def waiting(url: str, timeout: float = 15) -> None:
    """Return once the inbox at `url` has a question waiting."""
    deadline = time.monotonic() + timeout
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with httpx2.Client(base_url=url, headers=headers, timeout=10) as http:
        while not http.get("/v1/requests").json()["pending"]:
            assert time.monotonic() < deadline, "the question never reached the inbox"
            time.sleep(0.05)


@contextmanager
def drained(controller: int) -> Iterator[None]:
    """Read what the pty shows, in a thread, while the block runs: unread, a full pty stops
    the app drawing, and then answering (the test's requests time out)."""
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            if select.select([controller], [], [], 0.05)[0]:
                try:
                    if not os.read(controller, 65536):
                        return
                except OSError:
                    return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield
    finally:
        stop.set()
        reader.join()

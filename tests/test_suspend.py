"""Ctrl+Z stops `elicit-tui` as it stops other shell commands, and `fg` shows the question
again, still unanswered: `ask` (inline or full screen) and the full app; `serve`, whose inbox
every agent asks, says why it does not stop. Stopped from outside (SIGSTOP), it takes the
terminal back when continued, its keys still read in order.

A small job-control shell runs the command in a process group of its own in the foreground,
as an interactive shell does (a process group without one is orphaned, and the kernel
ignores Ctrl+Z's stop there).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest
from app_driver import wait_for_modal
from textual.widgets import TextArea

import tui.app.app
from tui import ElicitationApp, ElicitationQueue, TextRequest

REPO = Path(__file__).resolve().parent.parent

JOB_SHELL = """\
import contextlib, os, signal, sys, termios
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
shell_modes = termios.tcgetattr(0)
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(0, os.getpgrp())
    command = [sys.executable, "-m", "tui.cli", *sys.argv[1:]]
    if sys.argv[1:2] == ["--in-script"]:
        command[3:4] = []
        command[:0] = ["/bin/sh", "-c", '"$@"; echo "SCRIPT GOES ON $?"', "sh"]
    os.execv(command[0], command)
# Fails once the child has run exec, by which time it has put itself in its group.
with contextlib.suppress(PermissionError):
    os.setpgid(pid, pid)
print(f"JOB {pid}", flush=True)
while True:
    _, status = os.waitpid(pid, os.WUNTRACED)
    if not os.WIFSTOPPED(status):
        print(f"EXIT {os.waitstatus_to_exitcode(status)}", flush=True)
        break
    os.tcsetpgrp(0, os.getpgrp())
    # The terminal in the shell's own modes again, whatever the job left it in.
    termios.tcsetattr(0, termios.TCSADRAIN, shell_modes)
    print("\\r\\nSTOPPED", flush=True)
    line = sys.stdin.readline().strip()
    print(f"SHELL READ {line}", flush=True)
    if line != "bg":
        os.tcsetpgrp(0, pid)
    os.killpg(pid, signal.SIGCONT)
"""
"""Runs `elicit-tui ARGS` as a job (`--in-script ARGS`: in a shell script); on a stop it reads
a line (what the person types at the shell's prompt) and continues the job: in the
background for `bg`, else in the foreground, as `fg` does."""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX job control")


def process_state(pid: int) -> str:
    """The kernel's letter for the process: T when stopped."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0]


class Job:
    def __init__(self, *args: str) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-c", JOB_SHELL, *args],
            dimensions=(24, 80),
            cwd=str(REPO),
            timeout=20,
        )
        self.child.expect(r"JOB (\d+)")
        self.pid = int(self.child.match.group(1))
        self.output = bytearray()

    def expect(self, text: str) -> None:
        self.child.expect_exact(text)
        self.output += self.child.before + self.child.after

    def screen(self) -> list[str]:
        screen = pyte.Screen(80, 24)
        pyte.ByteStream(screen).feed(bytes(self.output))
        return [line.rstrip() for line in screen.display]


def shows_question(job: Job, last: int = 24) -> bool:
    return any("Which DB?" in line for line in job.screen()[-last:])


def stopped_job(mode: tuple[str, ...], by: str = "ctrl+z") -> Job:
    """`ask choice "Which DB?"` as a job, stopped once its question is on screen by Ctrl+Z,
    or by SIGTSTP from outside (`by="sigtstp"`)."""
    job = Job("ask", "choice", "Which DB?", "-o", "Postgres", "-o", "SQLite", *mode)
    job.expect("SQLite")
    time.sleep(0.5)  # past the input grace period
    if by == "sigtstp":
        os.kill(job.pid, signal.SIGTSTP)
    else:
        job.child.send("\x1a")
    job.expect("STOPPED")
    assert process_state(job.pid) == "T"
    assert not shows_question(job, last=10)
    return job


def bring_to_foreground(job: Job) -> None:
    """`fg` at the shell's prompt: the job runs and shows the question again, unanswered."""
    # Typed at the shell's prompt, so it must not answer the question.
    job.child.send("fg\r")
    job.expect("SHELL READ fg")
    job.expect("SQLite")
    time.sleep(0.5)
    assert process_state(job.pid) in "SR"
    assert shows_question(job)


@pytest.mark.parametrize("by", ["ctrl+z", "sigtstp"])
@pytest.mark.parametrize("mode", [(), ("--fullscreen",)], ids=["inline", "fullscreen"])
def test_ctrl_z_stops_and_fg_shows_the_question_again(mode: tuple[str, ...], by: str) -> None:
    job = stopped_job(mode, by)
    bring_to_foreground(job)
    job.child.send("2")
    job.expect("EXIT 0")
    assert b'"content": "SQLite"' in job.output


def test_ctrl_z_in_a_script_stops_the_script_too_and_fg_brings_both_back() -> None:
    """The shell waits on the script, not on `ask`: stopped alone, `ask` left the script
    running and the shell waiting on it, the terminal its own and `fg` typed into nothing."""
    job = Job("--in-script", "ask", "choice", "Which DB?", "-o", "Postgres", "-o", "SQLite")
    job.expect("SQLite")
    time.sleep(0.5)  # past the input grace period
    job.child.send("\x1a")
    job.expect("STOPPED")
    assert process_state(job.pid) == "T"  # the script's shell

    bring_to_foreground(job)
    job.child.send("2")
    job.expect("SCRIPT GOES ON 0")
    job.expect("EXIT 0")
    assert b'"content": "SQLite"' in job.output


@pytest.mark.parametrize("mode", [(), ("--fullscreen",)], ids=["inline", "fullscreen"])
def test_continued_in_the_background_it_stops_again_until_fg(mode: tuple[str, ...]) -> None:
    job = stopped_job(mode)
    job.child.send("bg\r")
    job.expect("SHELL READ bg")
    # Without the terminal it cannot show the question, so it waits stopped, drawing nothing.
    job.expect("STOPPED")
    assert process_state(job.pid) == "T"
    assert not shows_question(job, last=10)

    bring_to_foreground(job)
    job.child.send("1")
    job.expect("EXIT 0")
    assert b'"content": "Postgres"' in job.output


def stopped_after_typing(job: Job, question: str) -> int:
    """Type "zq" into the text field of the question ending in `question`, then Ctrl+Z;
    returns how much output came before the stop."""
    job.expect(question)
    time.sleep(0.5)  # past the input grace period
    job.child.send("zq")
    job.expect("zq")
    before = len(job.output)
    job.child.send("\x1a")
    job.expect("STOPPED")
    assert process_state(job.pid) == "T"
    return before


def fg_shows_what_was_typed(job: Job) -> None:
    job.child.send("fg\r")
    job.expect("SHELL READ fg")
    job.expect("zq")  # drawn again, with what was typed


def test_stopped_inline_it_leaves_nothing_of_the_dialog_on_the_shell_screen() -> None:
    # A text field keeps the terminal's cursor on its caret, lines below the dialog's top.
    job = Job("ask", "text", "Which DB?")
    stopped_after_typing(job, "DB?")
    assert [line for line in job.screen() if any(edge in line for edge in "╭│╰")] == []

    fg_shows_what_was_typed(job)
    assert shows_question(job)
    job.child.send("x\r")
    job.expect("EXIT 0")
    assert b'"content": "zqx"' in job.output


def test_the_full_app_stops_and_fg_brings_it_back_as_it_was() -> None:
    job = Job("demo", "--pause", "0")
    # On a modal, which hides the app's own keys, with a text field focused.
    before = stopped_after_typing(job, "be called?")
    # The shell's screen back: the terminal leaves the alternate screen the app drew on.
    assert b"\x1b[?1049l" in job.output[before:]

    fg_shows_what_was_typed(job)
    job.child.send("x\r")
    # The agent goes on from where it was, with the answer.
    job.expect("should zqx use?")
    job.child.send("\x11")
    job.child.send("\x11")
    job.expect("EXIT")


@pytest.mark.parametrize("mode", [(), ("--fullscreen",)], ids=["inline", "fullscreen"])
def test_a_stopped_job_killed_as_a_shell_kills_it_ends(mode: tuple[str, ...]) -> None:
    job = stopped_job(mode)
    # `kill %1`: SIGTERM, and SIGCONT for a stopped job to get it; the shell keeps the terminal.
    os.kill(job.pid, signal.SIGTERM)
    os.kill(job.pid, signal.SIGCONT)
    deadline = time.monotonic() + 10
    while process_state(job.pid) != "Z" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process_state(job.pid) == "Z"  # ended, not yet reaped by the job shell


BURST = "abcdefghijklmnopqrstuvwxyz0123456789"


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


@pytest.mark.parametrize("mode", [(), ("--fullscreen",)], ids=["inline", "fullscreen"])
def test_stopped_from_outside_fg_takes_the_terminal_back(mode: tuple[str, ...]) -> None:
    job = Job("ask", "text", "Which DB?", *mode)
    job.expect("DB?")
    time.sleep(0.5)  # past the input grace period
    running = threads(job.pid)
    # Not Ctrl+Z: the app gives nothing back; the shell sets its own modes over the app's.
    os.kill(job.pid, signal.SIGSTOP)
    job.expect("STOPPED")
    mark = len(job.output)
    job.child.send("fg\r")
    job.expect("SHELL READ fg")
    job.expect("DB?")  # drawn again
    assert b"DB?" in job.output[mark:]
    time.sleep(0.3)
    # One reader of keys, as before the stop, in the app's modes: a burst arrives whole.
    assert threads(job.pid) == running
    job.child.send(BURST + "\r")
    job.expect("EXIT 0")
    assert f'"content": "{BURST}"'.encode() in job.output


@pytest.mark.parametrize("mode", [(), ("--fullscreen",)], ids=["inline", "fullscreen"])
def test_paused_and_continued_it_reads_the_keys_typed_meanwhile_in_order(
    mode: tuple[str, ...],
) -> None:
    # No shell takes the terminal: the process is only paused, as a debugger or a tool does.
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tui.cli", "ask", "text", "Which DB?", *mode],
        dimensions=(24, 80),
        cwd=str(REPO),
        timeout=20,
    )
    child.expect_exact("DB?")
    time.sleep(0.5)
    running = threads(child.pid)
    for part in (BURST[:12], BURST[12:24], BURST[24:]):
        child.kill(signal.SIGSTOP)
        child.send(part[:6])  # typed while it is paused
        time.sleep(0.2)
        child.kill(signal.SIGCONT)
        child.send(part[6:])  # typed as it runs again
        time.sleep(0.3)
        assert threads(child.pid) == running
    child.send("\r")
    child.expect(pexpect.EOF)
    assert f'"content": "{BURST}"' in child.before.decode()


def test_serve_says_why_ctrl_z_does_not_stop_it() -> None:
    job = Job("serve", "--port", "0")
    job.expect("Serving MCP")
    time.sleep(0.5)
    job.child.send("\x1a")
    job.expect("does not stop serve")
    time.sleep(0.3)
    assert process_state(job.pid) in "SR"
    job.child.send("\x11")
    job.expect("EXIT 0")


async def test_in_a_text_area_ctrl_z_undoes_and_stops_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stops: list[object] = []
    monkeypatch.setattr(tui.app.app, "suspend", stops.append)
    queue = ElicitationQueue()
    app = ElicitationApp(
        queue, lambda queue: queue.ask(TextRequest(message="Notes?", multiline=True)), input_grace=0
    )
    async with app.run_test() as pilot:
        await wait_for_modal(pilot, "Notes?")
        await pilot.press("a", "b", "c", "ctrl+z")
        await pilot.pause()
        area = app.focused
        assert isinstance(area, TextArea)
        assert (area.text, stops) == ("", [])

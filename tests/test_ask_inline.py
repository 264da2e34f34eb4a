"""`elicit-tui ask` drawn inline: under the shell's output, as tall as the dialog, gone after."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pyte
import pytest
import test_ask_terminal
from test_ask_terminal import GRACE, TerminalRun

# As the shell would: some output, then the command, on the same terminal.
LAUNCHER = """\
import fcntl, os, sys, termios
fcntl.ioctl(2, termios.TIOCSCTTY, 0)
os.write(2, b"BEFORE-1 the shell's output\\r\\nBEFORE-2 stays in view\\r\\n")
from tui.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


@pytest.fixture(autouse=True)
def shell_output_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_ask_terminal, "LAUNCHER", LAUNCHER)


def screen_of(run: TerminalRun) -> list[str]:
    """The 80x24 screen as a terminal shows it after everything written so far."""
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(bytes(run._screen))
    return [line.rstrip() for line in screen.display]


def dialog_rows(lines: list[str]) -> int:
    """How many rows the dialog's box takes, borders included."""
    top = next(i for i, line in enumerate(lines) if line.startswith("╭"))
    bottom = next(i for i, line in enumerate(lines) if line.startswith("╰"))
    return bottom - top + 1


def asked(tmp_path: Path, *args: str) -> tuple[TerminalRun, list[str]]:
    run = TerminalRun(tmp_path, "ask", *args)
    run.wait_for("Which DB?")
    time.sleep(GRACE)
    return run, screen_of(run)


def test_output_before_the_prompt_stays_on_screen_after_the_answer(tmp_path: Path) -> None:
    run, during = asked(tmp_path, "confirm", "Which DB?")
    assert during[:2] == ["BEFORE-1 the shell's output", "BEFORE-2 stays in view"]
    # Drawn under the output, not over the whole screen.
    assert any("Which DB?" in line for line in during[2:])
    run.type("y")
    code, result = run.finish()
    after = screen_of(run)

    assert (code, result["content"]) == (0, True)
    assert after[:2] == ["BEFORE-1 the shell's output", "BEFORE-2 stays in view"]
    # The dialog is gone: the rest of the screen is empty again.
    assert not any("Which DB?" in line for line in after)


def test_the_dialog_is_as_tall_as_its_content(tmp_path: Path) -> None:
    two = ("choice", "Which DB?", "-o", "Postgres", "-o", "SQLite")
    six = (*two, "-o", "MySQL", "-o", "DuckDB", "-o", "Oracle", "-o", "MSSQL")
    heights = []
    for args in (two, six):
        run, lines = asked(tmp_path, *args)
        heights.append(dialog_rows(lines))
        run.type("\x1b")
        run.finish()

    assert heights[0] < 12
    assert heights[1] == heights[0] + 4


def test_fullscreen_fills_the_terminal(tmp_path: Path) -> None:
    run, lines = asked(tmp_path, "confirm", "Which DB?", "--fullscreen")
    run.type("\x1b")
    run.finish()

    assert dialog_rows(lines) >= 20
    assert "BEFORE-1 the shell's output" not in lines

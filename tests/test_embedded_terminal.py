"""A program of one's own that runs `ElicitationApp` draws at its terminal's size, also with
its standard output sent to a file (where it prints the agent's answer)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pexpect
import pyte
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

REPO = Path(__file__).resolve().parent.parent

PROGRAM = """\
from tui import ChoiceRequest, ElicitationApp, ElicitationQueue

def agent(queue):
    return queue.ask(ChoiceRequest(message="Which framework?", options=["FastAPI", "Django"])).content

print(ElicitationApp(ElicitationQueue(), agent, exit_when_agent_done=True).run())
"""

COLUMNS, ROWS = 60, 20


def test_with_its_output_in_a_file_the_app_fills_its_60x20_terminal(tmp_path: Path) -> None:
    script, answer = tmp_path / "agent.py", tmp_path / "answer.txt"
    script.write_text(PROGRAM)
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", f'exec "{sys.executable}" "{script}" > "{answer}"'],
        dimensions=(ROWS, COLUMNS),
        cwd=str(REPO),
        env={"PYTHONPATH": str(REPO), "ELICIT_TUI_CONFIG_DIR": str(tmp_path), "TERM": "xterm"},
        timeout=30,
    )
    drawn = io.BytesIO()
    child.logfile_read = drawn
    child.expect_exact("Django")
    child.expect(pexpect.TIMEOUT, timeout=0.5)  # the rest of the frame
    screen = pyte.Screen(COLUMNS, ROWS)
    pyte.ByteStream(screen).feed(drawn.getvalue())
    rows = [row.rstrip() for row in screen.display]
    # The dialog's top edge, both corners on screen (at 80 columns, its right one was cut).
    framed = [row for row in rows if "╭" in row]
    assert framed and framed[0].endswith("╮"), rows
    child.send("2")
    child.expect(pexpect.EOF)
    child.close()
    assert answer.read_text() == "Django\n"

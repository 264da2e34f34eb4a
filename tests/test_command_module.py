"""`python -m tui.cli` is the `elicit-tui` command as its console script runs it: a Ctrl+C
that a command does not answer for ends it as Ctrl+C ends a command, without a traceback;
closed output is no fault; `python -m tui.cli.main` is refused, not a silent success."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ELICIT_TUI = [sys.executable, "-m", "tui.cli"]


def run(command: list[str], tmp_path: Path, **options: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config")}
    return subprocess.run(
        command, cwd=REPO, env=env, capture_output=True, text=True, timeout=60, **options
    )


def test_the_module_is_the_command(tmp_path: Path) -> None:
    done = run([*ELICIT_TUI, "--help"], tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: elicit-tui ")


def test_the_parser_module_run_by_itself_is_refused_not_a_success(tmp_path: Path) -> None:
    # It used to be the command; run now, it did nothing and exited 0, which `ask` says for
    # "accepted": `python -m tui.cli.main ask confirm Deploy? && deploy` deployed.
    done = run([sys.executable, "-m", "tui.cli.main", "ask", "confirm", "Deploy?"], tmp_path)
    assert done.returncode == 2
    assert done.stderr == "elicit-tui: run `elicit-tui` or `python -m tui.cli`\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_a_command_does_not_answer_for_ends_it_as_ctrl_c_does(tmp_path: Path) -> None:
    # `token --wait` waits for an inbox that is not there; Ctrl+C printed a traceback.
    waiting = subprocess.Popen(
        [*ELICIT_TUI, "token", "--wait", "60", "http://127.0.0.1:9"],
        cwd=REPO,
        env={**os.environ, "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    with waiting:
        time.sleep(2)  # (Ctrl+C while it loads its modules is the same)
        waiting.send_signal(signal.SIGINT)
        out, err = waiting.communicate(timeout=30)
    assert waiting.returncode == -signal.SIGINT  # a script's loop stops, as for any command
    assert (out, err) == ("", "")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX descriptors")
def test_a_hook_whose_output_is_closed_still_decides_nothing_and_blocks_nothing(
    tmp_path: Path,
) -> None:
    event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}
    done = run(
        [*ELICIT_TUI, "hook", "claude-code", "--to", "http://127.0.0.1:9"],
        tmp_path,
        input=json.dumps(event),
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 0, done.stderr  # a traceback's 1 would block the tool call
    assert "Traceback" not in done.stderr

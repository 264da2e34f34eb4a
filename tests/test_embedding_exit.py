"""A program that embeds elicit-tui ends as it would without it: its objects finalized."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = """
import sys
from tui import {name}

class Noted:
    def __del__(self):
        print("finalized", flush=True)

kept = Noted()
log = open(sys.argv[1], "w")
log.write("written, never closed\\n")
"""


@pytest.mark.parametrize("name", ["ElicitationQueue", "ElicitationApp"])
def test_a_file_left_open_keeps_what_was_written_and_del_runs(tmp_path: Path, name: str) -> None:
    # Loading tui's names set every object alive aside from the collector (gc.freeze), the
    # program's own module with them: at exit its open file lost what it wrote.
    script = tmp_path / "program.py"
    script.write_text(PROGRAM.format(name=name))
    log = tmp_path / "log.txt"
    done = subprocess.run(
        [sys.executable, str(script), str(log)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=Path(__file__).parent.parent,
    )
    assert done.returncode == 0, done.stderr
    assert log.read_text() == "written, never closed\n"
    assert done.stdout == "finalized\n"

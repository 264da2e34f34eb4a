"""Many asker processes through HTTP, one scripted front end: every question answered once,
to the right asker (the small run of benchmarks/bench_inbox.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_inbox.py"


def test_ten_askers_of_five_questions_each_get_exactly_their_own_answers() -> None:
    finished = subprocess.run(
        [sys.executable, str(BENCHMARK), "--askers", "10", "--questions", "5", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    figures = json.loads(finished.stdout)

    assert figures["front_end"] == {"applied": 50, "refused": 0}
    assert (figures["right"], figures["wrong"]) == (50, [])
    assert figures["ok"] and finished.returncode == 0

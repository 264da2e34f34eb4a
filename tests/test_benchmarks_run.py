"""The quick benchmarks still run, each at its smallest, and print ours beside bare Textual.

Their figures are not checked here (speed targets live in the benchmarks); a benchmark that
no longer runs against today's dialogs is.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

SMALLEST = {
    "bench_key_burst.py": (["--keys", "10", "--runs", "2"], ["pages:", "elicit-tui", "bare"]),
    "bench_form.py": (
        ["--runs", "2", "--warmup", "0", "--fields", "4"],
        ["4  ours", "4  naive"],
    ),
    "bench_latency.py": (["--questions", "3"], ["form(4) elicit-tui", "form(4) bare Textual"]),
    "bench_hook.py": (["--runs", "2"], ["baseline: python -c pass", "a rule allows the call"]),
}
"""Each benchmark's smallest run, and lines of its report that must be there."""


@pytest.mark.parametrize("script", sorted(SMALLEST))
def test_the_benchmark_runs_and_reports_each_case(script: str) -> None:
    arguments, reported = SMALLEST[script]
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=BENCHMARKS.parent,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for line in reported:
        assert line in done.stdout

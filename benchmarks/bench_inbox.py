"""Load on the inbox: many asker processes through HTTP, one scripted front end answering.

Starts `elicit-tui serve --headless`, a scripted front end process (inbox_front_end.py:
reads /v1/events, POSTs "re: <message>" to each text request) and ASKERS asker processes
(inbox_asker.py), each submitting QUESTIONS questions at once through `tui.RemoteQueue`.
Checks that every question was answered exactly once (the front end had no answer refused
and answered exactly ASKERS x QUESTIONS) and to the right asker (each asker got the answer to
its own message), then reports the wall time, the per-question latency and the inbox's
peak RSS. Run: `python benchmarks/bench_inbox.py [--askers 50] [--questions 20] [--json]`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TOKEN = "bench-inbox-token"
_URL = re.compile(r"elicit-tui serve on (http://127\.0\.0\.1:\d+)/mcp")


def run(askers: int, questions: int) -> dict[str, Any]:
    """Run the load once; returns the figures and the checks (`ok` says whether all held)."""
    serve = [sys.executable, "-m", "tui.cli", "serve", "--headless", "--port", "0"]
    inbox = subprocess.Popen(
        [*serve, "--token", TOKEN],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    started: list[subprocess.Popen[str]] = []
    try:
        base = _url(inbox)
        total = askers * questions
        front_end = _spawn([str(HERE / "inbox_front_end.py"), base, TOKEN, str(total)])
        started.append(front_end)
        began = time.perf_counter()
        asking = [
            _spawn([str(HERE / "inbox_asker.py"), base, TOKEN, str(n), str(questions)])
            for n in range(askers)
        ]
        started.extend(asking)
        reports = [json.loads(process.communicate(timeout=600)[0]) for process in asking]
        wall = time.perf_counter() - began
        answered = json.loads(front_end.communicate(timeout=60)[0])
        peak_rss = _peak_rss_kib(inbox.pid)
        inbox.send_signal(signal.SIGINT)
        inbox.wait(timeout=30)
    finally:
        for process in [*started, inbox]:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        if inbox.stdout is not None:
            inbox.stdout.close()
    seconds = sorted(s for report in reports for s in report["seconds"])
    right = sum(report["right"] for report in reports)
    wrong = [w for report in reports for w in report["wrong"]]
    return {
        "askers": askers,
        "questions": questions,
        "total": total,
        "right": right,
        "wrong": wrong,
        "front_end": answered,
        "ok": right == total and not wrong and answered == {"applied": total, "refused": 0},
        "wall_seconds": round(wall, 2),
        "median_seconds": round(statistics.median(seconds), 3),
        "p95_seconds": round(seconds[int(0.95 * (len(seconds) - 1))], 3),
        "inbox_peak_rss_mib": round(peak_rss / 1024, 1),
    }


def _spawn(arguments: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *arguments],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(HERE.parent)},
    )


def _url(inbox: subprocess.Popen[str]) -> str:
    assert inbox.stdout is not None
    for line in inbox.stdout:
        found = _URL.search(line)
        if found:
            return found.group(1)
    raise RuntimeError("the inbox printed no URL")


def _peak_rss_kib(pid: int) -> int:
    """The process's peak resident set size (VmHWM), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--askers", type=int, default=50)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = run(args.askers, args.questions)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['askers']} askers x {figures['questions']} questions = {figures['total']}: "
            f"{figures['right']} answered right, {len(figures['wrong'])} wrong, front end "
            f"{figures['front_end']}\n"
            f"wall {figures['wall_seconds']} s (asker processes started to all answered), "
            f"per question median {figures['median_seconds']} s, p95 {figures['p95_seconds']} s\n"
            f"inbox peak RSS {figures['inbox_peak_rss_mib']} MiB"
        )
    sys.exit(0 if figures["ok"] else 1)


if __name__ == "__main__":
    main()

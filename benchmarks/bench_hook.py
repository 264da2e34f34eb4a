"""What `elicit-tui hook` costs a coding-agent CLI on each tool call, beside a bare Python start.

A CLI with the hook installed runs `elicit-tui hook claude-code` for each tool call it would
ask about, and waits for it to exit. Each case is timed from outside, process start to exit:
wall time, and CPU time (the child's user + system), interleaved run by run:

* baseline: `python -c pass`, the floor of any hook written in Python;
* no inbox: nothing listens at the inbox's address; the hook says so and decides nothing;
* a rule: an inbox (`elicit-tui serve --headless`) whose "always" rule covers the call, so the
  hook prints an allow at once and nobody is asked.

Run: `python benchmarks/bench_hook.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tui.inbox.discovery import listening

TOKEN = "bench-hook-token"
HOOK_INPUT = json.dumps(
    {
        "session_id": "bench",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "npm test"},
        "tool_use_id": "toolu_bench",
        "cwd": "/tmp",
    }
)
RULE = {
    "rules": [
        {"tool": "Bash", "match": {"argument": "command", "pattern": "npm test"}, "scope": "always"}
    ]
}
ELICIT_TUI = str(Path(sys.executable).with_name("elicit-tui"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU milliseconds of one run of `argv` with the hook input on stdin, and its
    stdout."""
    started = time.perf_counter()
    child = subprocess.Popen(
        argv,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(HOOK_INPUT)
    child.stdin.close()
    out = child.stdout.read()
    child.stdout.close()
    # Reaped here, not by Popen: wait4 gives this child's own CPU time.
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = (time.perf_counter() - started) * 1000
    return wall, (usage.ru_utime + usage.ru_stime) * 1000, out


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="runs of each case")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "ELICIT_TUI_CONFIG_DIR": folder}
        (Path(folder) / "approvals.json").write_text(json.dumps(RULE))
        port = free_port()
        inbox = subprocess.Popen(
            [ELICIT_TUI, "serve", "--headless", "--port", str(port), "--token", TOKEN],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while not listening(f"http://127.0.0.1:{port}", timeout=1):
                if time.monotonic() > deadline:
                    raise RuntimeError("the inbox did not start")
                time.sleep(0.1)
            hook = [ELICIT_TUI, "hook", "claude-code", "--token", TOKEN, "--to"]
            cases = {
                "baseline: python -c pass": [sys.executable, "-c", "pass"],
                "no inbox": [*hook, f"http://127.0.0.1:{free_port()}"],
                "a rule allows the call": [*hook, f"http://127.0.0.1:{port}"],
            }
            figures: dict[str, list[tuple[float, float]]] = {case: [] for case in cases}
            for argv in cases.values():  # one unrecorded run each: the page cache, the rules
                timed(argv, env)
            for _ in range(args.runs):
                for case, argv in cases.items():
                    wall, cpu, out = timed(argv, env)
                    if case == "a rule allows the call" and '"allow"' not in out:
                        raise RuntimeError(f"the rule did not allow the call: {out!r}")
                    figures[case].append((wall, cpu))
        finally:
            inbox.terminate()
            inbox.wait(30)
    base_wall = statistics.median(wall for wall, _ in figures["baseline: python -c pass"])
    print(f"elicit-tui hook claude-code, process start to exit, {args.runs} runs a case")
    print(f"{'case':<26} {'wall p50/p90 ms':>16} {'cpu p50/p90 ms':>16} {'wall ÷ baseline':>16}")
    for case, runs in figures.items():
        walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
        print(
            f"{case:<26} {statistics.median(walls):>7.1f}/{_p90(walls):>6.1f}"
            f"   {statistics.median(cpus):>7.1f}/{_p90(cpus):>6.1f}"
            f"   {statistics.median(walls) / base_wall:>13.2f}×"
        )


if __name__ == "__main__":
    main()

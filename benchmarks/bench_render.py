"""What rendering the bundled demo session costs, beside the session's own length.

The demo (10 requests, 9 of them asked, 62 keys) is replayed headless at 80x24 with keys
shown, at its recorded pace (`--speed 1`, no `--max-pause`), and written as GIF, SVG, cast,
and (with ffmpeg) MP4 and WebM. Printed: the session's length, the capture's wall and CPU
time, each output's size and encoding time, and the whole run against the session.
Targets: GIF ≤ 2 MB, MP4 ≤ 1 MB, the whole run ≤ 1× the session's length.
Run: `python benchmarks/bench_render.py [--max-pause SECONDS] [--theme NAME]`.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import tui.cli
from tui.render.capture import capture
from tui.render.frames import Overlays
from tui.render.outputs import Render, write_outputs
from tui.render.script import build_script
from tui.transcript.reader import read_transcript
from tui.transcript.timing import Timing

DEMO = Path(tui.cli.__file__).parent / "demo_session.jsonl"
TARGETS = {".gif": 2_000_000, ".mp4": 1_000_000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-pause", type=float, default=None)
    parser.add_argument("--theme", default="textual-dark")
    args = parser.parse_args()
    transcript = read_transcript(DEMO)
    script = build_script(transcript, Timing(max_pause=args.max_pause))
    wall, cpu = time.perf_counter(), time.process_time()
    captured = capture(transcript, script, (80, 24), args.theme)
    capture_wall, capture_cpu = time.perf_counter() - wall, time.process_time() - cpu
    session = script.duration
    keys = sum(step.kind == "key" for step in script.steps)
    print(f"session: {session:.1f} s, {len(script.shown_chapters)} chapters, {keys} keys")
    print(
        f"capture: {capture_wall:.2f} s wall, {capture_cpu:.2f} s CPU "
        f"({len(script.steps)} steps, {len(set(captured.screens))} distinct screens)"
    )
    render = Render(script, captured, Overlays(show_keys=True), "elicit-tui demo")
    formats = [".gif", ".svg", ".cast", ".png"]
    formats += [".mp4", ".webm"] if shutil.which("ffmpeg") else []
    with tempfile.TemporaryDirectory() as folder:
        for suffix in formats:
            started, cpu_started = time.perf_counter(), time.process_time()
            [written, *_] = write_outputs(render, [Path(folder) / f"demo{suffix}"])
            took = time.perf_counter() - started
            cpu_took = time.process_time() - cpu_started  # ffmpeg's own CPU is not counted
            target = TARGETS.get(suffix)
            verdict = "" if target is None else (" ✓" if written.size <= target else " ✗ over")
            print(
                f"{suffix:6} {written.size / 1e6:6.2f} MB{verdict:8} {written.frames:4} frames  "
                f"{took:5.2f} s wall  {cpu_took:5.2f} s CPU"
            )
    total = time.perf_counter() - wall
    print(f"whole run: {total:.1f} s wall = {total / session:.2f}x the session's {session:.1f} s")


if __name__ == "__main__":
    main()

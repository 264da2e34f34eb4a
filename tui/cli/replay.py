"""`elicit-tui replay`: re-enact a recorded session, check its results, write a cast or SVGs."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tui.cli.kinds_note import KINDS_NOTE
from tui.cli.render import add_render_options, positive, render_only, run_render, wants_render
from tui.cli.report import print_report
from tui.core.ended_from_outside import EndedFromOutside, signals_raise, temporary_folder
from tui.core.loading import loading_modules

EXIT_MISMATCH = 1
EXIT_USAGE = 2
"""An unreadable transcript or a bad option, as argparse exits for its own errors."""

DEFAULT_SIZE = (80, 24)


def add_replay_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `replay` on the `elicit-tui` parser."""
    replay = commands.add_parser(
        "replay",
        help="re-enact a recorded session (a --transcript file) and check its results",
        description="Re-enact a session recorded with --transcript: the same requests at the "
        "same times, the same keys at the same pace (secrets typed as a fixed dummy), no agent "
        "and no person needed. Each result is checked against the recorded one; a difference "
        "is reported and the exit code is 1. The keyring is never touched: secrets meant for it "
        "go to a keyring in memory.",
        epilog=KINDS_NOTE,
    )
    replay.add_argument("file", type=Path, metavar="FILE", help="the transcript (JSON lines)")
    add_replay_options(replay)
    replay.add_argument(
        "--report", type=Path, help=argparse.SUPPRESS
    )  # where a replay run for --cast leaves its report for the recording process
    replay.set_defaults(handler=run_replay)


def add_replay_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The options of a replay, shared with `demo --replay`."""
    parser.add_argument(
        "--speed",
        type=positive,
        default=1.0,
        metavar="FACTOR",
        help="play FACTOR times as fast: 2 halves every pause (default: 1)",
    )
    parser.add_argument(
        "--max-pause",
        type=_duration,
        metavar="SECONDS",
        help="shorten every longer pause to this, like 2s or 500ms (default: keep them)",
    )
    parser.add_argument(
        "--size",
        type=_size,
        metavar="COLSxROWS",
        help="the screen size, like 100x30 (default: the terminal's; 80x24 without one)",
    )
    parser.add_argument(
        "--theme", default="textual-dark", help="the Textual theme (default: textual-dark)"
    )
    parser.add_argument("--show-keys", action="store_true", help="show each key pressed in a badge")
    parser.add_argument(
        "--cast",
        type=Path,
        metavar="OUT.cast",
        help="write an asciicast v2 recording of the replay (no terminal or asciinema needed)",
    )
    parser.add_argument(
        "--svg",
        type=Path,
        metavar="DIR",
        help="write a masked SVG screenshot of each modal, just before it is answered",
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help="draw nothing, even on a terminal (implied without one)",
    )
    add_render_options(parser)


def _duration(value: str) -> float:
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)?\s*", value)
    number = 0.0 if match is None else float(match.group(1))
    if match is None or not number > 0:
        raise argparse.ArgumentTypeError(f"not a duration above 0 like 2s or 500ms: {value!r}")
    return number / 1000 if match.group(2) == "ms" else number


SMALLEST, LARGEST = (20, 10), (300, 100)
"""The screen sizes a replay takes (a render's time grows with the cells: 2000x600 ran for
minutes)."""


def _size(value: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)x(\d+)", value.strip())
    size = (0, 0) if match is None else (int(match.group(1)), int(match.group(2)))
    if not all(low <= n <= high for n, low, high in zip(size, SMALLEST, LARGEST, strict=True)):
        raise argparse.ArgumentTypeError(
            f"not a screen size like 100x30 (from {SMALLEST[0]}x{SMALLEST[1]}"
            f" to {LARGEST[0]}x{LARGEST[1]}): {value!r}"
        )
    return size


def run_replay(args: argparse.Namespace) -> int:
    """Replay `args.file`; print what differed, the timing and what was written."""
    from textual.theme import BUILTIN_THEMES

    from tui.transcript.reader import TranscriptError, read_transcript

    if args.theme not in BUILTIN_THEMES:
        themes = ", ".join(sorted(BUILTIN_THEMES))
        print(f"elicit-tui replay: no theme {args.theme!r}; pick one of: {themes}", file=sys.stderr)
        return EXIT_USAGE
    try:
        transcript = read_transcript(args.file)
    except TranscriptError as error:
        print(f"elicit-tui replay: {error}", file=sys.stderr)
        return EXIT_USAGE
    if wants_render(args):
        return run_render(args)
    if unapplied := render_only(args):
        shape, them = ("shapes", "it") if len(unapplied) == 1 else ("shape", "them")
        print(
            f"elicit-tui replay: {', '.join(unapplied)} {shape} what -o, --update and --check"
            f" write, and a live replay would not apply {them}: add -o OUT",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.svg is not None:
        args.svg.mkdir(parents=True, exist_ok=True)
    if args.cast is not None:
        return _replay_into_cast(args)
    lines, code = _replay(args, transcript)
    print_report(lines, code)
    return code


def _replay(args: argparse.Namespace, transcript: object) -> tuple[list[str], int]:
    with loading_modules():
        from tui.app.replay_app import ReplayApp
    from tui.secrets.memory_keyring import memory_keyring
    from tui.transcript.reader import Transcript
    from tui.transcript.timing import Timing

    assert isinstance(transcript, Transcript)
    app = ReplayApp(
        transcript,
        timing=Timing(args.speed, args.max_pause),
        theme=args.theme,
        show_keys=args.show_keys,
        svg_dir=args.svg,
    )
    headless = args.headless or not sys.stdout.isatty()
    size = args.size or (DEFAULT_SIZE if headless else None)
    # A session recorded without a keyring is replayed without one: the same screens and results.
    with memory_keyring(usable=not transcript.keyring_was_unusable):
        app.run(headless=headless, size=size, auto_pilot=app.player.drive)
    agent = app.replay_agent
    lines = [f"mismatch: {mismatch.describe()}" for mismatch in agent.mismatches]
    lines.append(f"replayed {args.file}: {agent.summary()}; {app.player.error_summary()}")
    if transcript.stopped:
        lines.append(f"stopped early: {transcript.stopped}")
    lines += [f"wrote {path}" for path in app.player.svgs]
    # Ended by SIGTERM or a hang-up (143, 129, as a shell reports such a command) or by a
    # crash (1): said so, whatever was replayed before.
    code = app.return_code or (EXIT_MISMATCH if agent.mismatches else 0)
    if args.report is not None:
        args.report.write_text(json.dumps({"lines": lines, "code": code}), encoding="utf-8")
    return lines, code


def _replay_into_cast(args: argparse.Namespace) -> int:
    """Run this replay again under a pseudo-terminal of `--size`, recording it as a cast.
    Ended by Ctrl+C, SIGTERM or SIGHUP, it says the cast was not written and raises
    `EndedFromOutside` again, once the replay has ended and its folder is gone."""
    from tui.cli.cast import record_cast

    size = args.size or DEFAULT_SIZE
    recorded = False
    try:
        with signals_raise(), temporary_folder("elicit-tui-replay-") as folder:
            report = Path(folder) / "report.json"
            command = [sys.executable, "-m", "tui.cli", "replay", str(args.file)]
            command += ["--speed", str(args.speed), "--theme", args.theme]
            command += ["--report", str(report), "--size", "{}x{}".format(*size)]
            if args.max_pause is not None:
                command += ["--max-pause", str(args.max_pause)]
            if args.show_keys:
                command.append("--show-keys")
            if args.svg is not None:
                command += ["--svg", str(args.svg)]
            says = (
                f"elicit-tui replay: recording the replay of {args.file} into {args.cast} "
                "({}x{}); it plays in the cast, not on this screen".format(*size)
            )
            with _saying(says, live=not args.headless) as progress:
                code, seconds = record_cast(
                    command,
                    args.cast,
                    size,
                    title=f"elicit-tui: {args.file.name}",
                    # What the replay leaves in a temporary folder goes with this one, even
                    # where a hang-up ended it before it could remove it.
                    env={**os.environ, "TMPDIR": folder},
                    progress=progress,
                )
            recorded = True
            if not report.exists():
                print(f"elicit-tui replay: the replay failed (exit code {code})", file=sys.stderr)
                return code if code > 0 else EXIT_MISMATCH  # (killed: a negative code)
            outcome = json.loads(report.read_text(encoding="utf-8"))
    except EndedFromOutside as ended:
        cast = f" after writing {args.cast}" if recorded else f"; {args.cast} not written"
        print(f"elicit-tui replay: {ended.says}{cast}", file=sys.stderr)
        raise
    lines = [*outcome["lines"], f"wrote {args.cast} ({seconds:.1f} s)"]
    print_report(lines, int(outcome["code"]), [args.cast])
    return int(outcome["code"])


@contextmanager
def _saying(line: str, *, live: bool) -> Iterator[Callable[[float], None] | None]:
    """Say `line` on stderr as a recording starts: the person's screen shows nothing of it.
    On a terminal (and `live`) the seconds recorded so far follow on a line of their own,
    redrawn by the `progress` this yields (else None) and erased when the recording ends."""
    print(line, file=sys.stderr, flush=True)
    if not (live and sys.stderr.isatty()):
        yield None
        return

    def progress(seconds: float) -> None:
        print(f"\rrecording: {seconds:.0f} s", end="", file=sys.stderr, flush=True)

    try:
        yield progress
    finally:
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)

"""`replay -o FILE`: render a replayed session to GIF, PNG, SVG, cast, MP4 or WebM, headless;
`--update DIR` / `--check DIR` save or compare each chapter's final screen as text."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

EXIT_DRIFT = 1
EXIT_USAGE = 2


def add_render_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The options that turn a replay into files (shared with `demo --replay`)."""
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        action="append",
        metavar="OUT",
        help="render to OUT, headless: .gif, .png (a poster), .svg (animated), .cast, .mp4 "
        "or .webm (these two need ffmpeg); repeat for several",
    )
    parser.add_argument(
        "--edits",
        type=Path,
        metavar="FILE",
        help="the edit file to apply (default: FILE.edit.json beside the transcript, if any)",
    )
    parser.add_argument(
        "--captions",
        nargs="?",
        const="",
        metavar="VTT",
        help="draw a caption line: each question's source and title, or the cues of VTT",
    )
    parser.add_argument(
        "--redact",
        action="append",
        type=_pattern,
        metavar="REGEX",
        help="replace text matching REGEX in every request with ••• before it is drawn",
    )
    parser.add_argument(
        "--max-size",
        type=_bytes,
        metavar="SIZE",
        help="keep each GIF, MP4 and WebM under SIZE, like 2MB, by lowering the frame rate",
    )
    parser.add_argument(
        "--fps", type=float, default=20.0, help="the highest frame rate of an output (default: 20)"
    )
    parser.add_argument(
        "--update", type=Path, metavar="DIR", help="save each chapter's final screen as text in DIR"
    )
    parser.add_argument(
        "--check",
        type=Path,
        metavar="DIR",
        help="compare each chapter's final screen with DIR (saved by --update); exit 1 on drift",
    )


def wants_render(args: argparse.Namespace) -> bool:
    """True when the options ask for files or a screen check rather than a live replay."""
    return bool(args.output or args.update or args.check)


def run_render(args: argparse.Namespace) -> int:
    """Render `args.file` as asked; print each output's size; 1 on drift or a mismatch."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        print(
            "elicit-tui replay: rendering needs Pillow: pip install 'elicit-tui[render]'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from tui.render.captions import CaptionsError, read_webvtt, request_cues
    from tui.render.capture import capture
    from tui.render.edits import Edits, EditsError, edited_transcript, load_edits, sidecar_path
    from tui.render.frames import Overlays
    from tui.render.golden import chapter_screens, check, update
    from tui.render.outputs import FORMATS, Render, write_outputs
    from tui.render.script import build_script
    from tui.render.video import VideoError, find_ffmpeg
    from tui.transcript.reader import TranscriptError, read_transcript
    from tui.transcript.timing import Timing

    outputs: list[Path] = args.output or []
    if args.cast is not None or args.svg is not None:
        print(
            "elicit-tui replay: --cast and --svg run a live replay; with -o, --update or --check "
            "write -o OUT.cast or -o OUT.svg instead",
            file=sys.stderr,
        )
        return EXIT_USAGE
    unknown = [str(path) for path in outputs if path.suffix.lower() not in FORMATS]
    if unknown:
        print(
            f"elicit-tui replay: cannot render {', '.join(unknown)}: use one of "
            f"{', '.join(FORMATS)}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        if any(path.suffix.lower() in (".mp4", ".webm") for path in outputs):
            find_ffmpeg()  # before the replay, not after it
        transcript = read_transcript(args.file)
        edits_file = args.edits or sidecar_path(args.file)
        edits = load_edits(edits_file) if args.edits or edits_file.exists() else Edits()
        redact = (
            re.compile("|".join(f"(?:{p.pattern})" for p in args.redact)) if args.redact else None
        )
        transcript = edited_transcript(transcript, edits, redact)
        script = build_script(transcript, Timing(args.speed, args.max_pause), edits)
        cues = None
        if args.captions is not None:
            cues = (
                read_webvtt(Path(args.captions))
                if args.captions
                else request_cues(transcript, script)
            )
    except (TranscriptError, EditsError, CaptionsError, VideoError) as error:
        print(f"elicit-tui replay: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        captured = capture(transcript, script, args.size or (80, 24), args.theme)
    except (RuntimeError, TimeoutError) as error:
        print(f"elicit-tui replay: {error}", file=sys.stderr)
        return EXIT_DRIFT
    lines: list[str] = []
    code = 0
    changed = edits.changes_results or redact is not None
    for mismatch in captured.mismatches:
        lines.append(f"{'edited' if changed else 'mismatch'}: {mismatch.describe()}")
    if captured.mismatches and not changed:
        code = EXIT_DRIFT
    lines.append(f"replayed {args.file}: {captured.summary}")
    render = Render(
        script,
        captured,
        Overlays(args.show_keys, tuple(cues) if cues is not None else None),
        transcript.title or "elicit-tui",
        fps=args.fps,
        max_size=args.max_size,
    )
    try:
        written = write_outputs(render, outputs)
    except VideoError as error:
        print(f"elicit-tui replay: {error}", file=sys.stderr)
        return EXIT_USAGE
    lines += [item.describe() for item in written]
    if any(item.over_budget for item in written):
        code = EXIT_DRIFT
    screens = chapter_screens(script, captured)
    if args.update is not None:
        paths = update(args.update, screens)
        lines.append(f"saved {len(paths)} chapter screens in {args.update}")
    if args.check is not None and not any(args.check.glob("*.txt")):
        lines.append(f"no chapter screens in {args.check}: save them first with --update")
        code = EXIT_DRIFT
    elif args.check is not None:
        drifts = check(args.check, screens)
        for drift in drifts:
            lines.append(f"chapter {drift.name} differs from {args.check}:\n{drift.diff}")
        if drifts:
            code = EXIT_DRIFT
        else:
            lines.append(f"all {len(screens)} chapter screens match {args.check}")
    stream = sys.stderr if code else sys.stdout
    for line in lines:
        print(line, file=stream)
    return code


def _pattern(value: str) -> re.Pattern[str]:
    try:
        return re.compile(value)
    except re.error as error:
        raise argparse.ArgumentTypeError(f"not a regular expression: {value!r}: {error}") from None


def _bytes(value: str) -> int:
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(k|kb|m|mb|b)?\s*", value.lower())
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size like 2MB or 500kB: {value!r}")
    scale = {"k": 1000, "kb": 1000, "m": 1_000_000, "mb": 1_000_000}.get(match.group(2) or "", 1)
    return int(float(match.group(1)) * scale)

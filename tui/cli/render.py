"""`replay -o FILE`: render a replayed session to GIF, PNG, SVG, cast, MP4 or WebM, headless;
`--update DIR` / `--check DIR` save or compare each chapter's final screen as text."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.report import print_report

if TYPE_CHECKING:
    from tui.render.outputs import Render, Written

EXIT_DRIFT = 1
EXIT_USAGE = 2


def positive(value: str) -> float:
    """A command-line number above 0, and finite (`inf` would play no pause at all)."""
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not 0 < number < float("inf"):
        raise argparse.ArgumentTypeError(f"not a number above 0: {value!r}")
    return number


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
        help="replace text matching REGEX with ••• wherever it would be drawn",
    )
    parser.add_argument(
        "--max-size",
        type=_bytes,
        metavar="SIZE",
        help="keep each GIF, MP4 and WebM under SIZE, like 2MB, by lowering the frame rate",
    )
    parser.add_argument(
        "--fps",
        type=positive,
        default=20.0,
        help="the highest frame rate of an output (default: 20)",
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


def render_only(args: argparse.Namespace) -> list[str]:
    """The options given that shape rendered files only: a live replay (on the terminal,
    `--cast`, `--svg`) does not apply them, and must not seem to (`--redact` unapplied
    shows what it was given to hide)."""
    given = {
        "--redact": args.redact,
        "--edits": args.edits,
        "--captions": args.captions,
        "--max-size": args.max_size,
    }
    return [flag for flag, value in given.items() if value is not None]


def run_render(args: argparse.Namespace) -> int:
    """Render `args.file` as asked; print each output's size; 1 on drift or a mismatch.
    Ended by Ctrl+C, SIGTERM or SIGHUP, it says which outputs it wrote and which not (those
    are left as they were), and raises `EndedFromOutside` again: the process ends as the
    signal ends one."""
    refusal = _refusal(args)
    if refusal is not None:
        print(f"elicit-tui replay: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    from tui.core.ended_from_outside import EndedFromOutside, signals_raise

    written: list[Written] = []
    try:
        with signals_raise():
            lines, code = _render(args, written)
    except EndedFromOutside as ended:
        done = {item.path for item in written}
        left = [str(path) for path in dict.fromkeys(args.output or []) if path not in done]
        unwritten = f"; {', '.join(left)} not written" if left else ""
        said = [item.describe() for item in written]
        print_report([*said, f"elicit-tui replay: {ended.says}{unwritten}"], 1)
        raise
    print_report(lines, code, args.output or [])
    return code


def _render(args: argparse.Namespace, written: list[Written]) -> tuple[list[str], int]:
    """`run_render`'s work: the lines to report and the exit code. Each output is added to
    `written` once it is complete."""
    from tui.core.error_text import os_error_text
    from tui.render.capture import capture
    from tui.render.frames import Overlays
    from tui.render.outputs import Render, write_outputs
    from tui.render.plan import PlanError, plan_render
    from tui.render.video import VideoError

    try:
        plan = plan_render(args.file, args.edits, args.redact, args.speed, args.max_pause)
        cues = plan.cues(args.captions)
    except PlanError as error:
        return [f"elicit-tui replay: {error}"], EXIT_USAGE
    try:
        captured = capture(
            plan.transcript,
            plan.script,
            args.size or (80, 24),
            args.theme,
            edited=plan.changes_results,
        )
    except (RuntimeError, TimeoutError) as error:
        return [f"elicit-tui replay: {error}"], EXIT_DRIFT
    changed = plan.changes_results
    lines = [
        f"{'edited' if changed else 'mismatch'}: {mismatch.describe()}"
        for mismatch in captured.mismatches
    ]
    code = EXIT_DRIFT if captured.mismatches and not changed else 0
    lines.append(f"replayed {args.file}: {captured.summary}")
    if plan.transcript.stopped:
        lines.append(f"stopped early: {plan.transcript.stopped}")
    overlays = Overlays(args.show_keys, tuple(cues) if cues is not None else None)
    title = plan.transcript.title or "elicit-tui"
    render = Render(plan.script, captured, overlays, title, args.fps, args.max_size)
    try:
        write_outputs(render, args.output or [], written)
    except VideoError as error:
        return [*(item.describe() for item in written), f"elicit-tui replay: {error}"], EXIT_USAGE
    except OSError as error:  # (a folder of outputs made read-only, a disk full)
        said = [item.describe() for item in written]
        return [*said, f"elicit-tui replay: cannot write {os_error_text(error)}"], EXIT_USAGE
    lines += [item.describe() for item in written]
    if render.missing_glyphs:
        lines.append(_missing_glyphs(render.missing_glyphs))
    if any(item.over_budget for item in written):
        code = EXIT_DRIFT
    screen_lines, screen_code = _chapter_screens(args, render)
    return lines + screen_lines, code or screen_code


MISSING_SHOWN = 20
"""The most characters without a glyph the note names."""


def _missing_glyphs(missing: set[str]) -> str:
    """The note on characters drawn as boxes in the pictures (the SVG and cast keep them)."""
    from tui.core.terminal_text import literal_line

    named = " ".join(sorted(missing)[:MISSING_SHOWN]) + (
        " …" if len(missing) > MISSING_SHOWN else ""
    )
    return (
        f"note: {len(missing)} characters are drawn as boxes in the GIF, PNG and video, the "
        f"bundled font having no glyph for them (the SVG and cast keep them): {literal_line(named)}"
    )


def _refusal(args: argparse.Namespace) -> str | None:
    """Why the options cannot be rendered, before anything runs; None if they can."""
    from tui.render.outputs import DRAWN, FORMATS

    if args.cast is not None or args.svg is not None:
        return (
            "--cast and --svg run a live replay; with -o, --update or --check "
            "write -o OUT.cast or -o OUT.svg instead"
        )
    outputs: list[Path] = args.output or []
    unknown = [str(path) for path in outputs if path.suffix.lower() not in FORMATS]
    if unknown:
        return f"cannot render {', '.join(unknown)}: use one of {', '.join(FORMATS)}"
    drawn = [str(path) for path in outputs if path.suffix.lower() in DRAWN]
    if drawn and not _has_pillow():
        return f"drawing {', '.join(drawn)} needs Pillow: pip install 'elicit-tui[render]'"
    # A typo in a folder's name must not make new folders, the render written there unseen.
    missing = next((path for path in outputs if not path.parent.is_dir()), None)
    if missing is not None:
        return f"cannot write {missing}: there is no folder {missing.parent}"
    if any(path.suffix.lower() in (".mp4", ".webm") for path in outputs):
        from tui.render.video import VideoError, find_ffmpeg

        try:
            find_ffmpeg()
        except VideoError as error:
            return str(error)
    return None


def _has_pillow() -> bool:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True


def _chapter_screens(args: argparse.Namespace, render: Render) -> tuple[list[str], int]:
    """`--update` and `--check`: what was saved or how the screens drifted, and the exit code."""
    from tui.render.golden import chapter_screens, check, update

    screens = chapter_screens(render.script, render.captured)
    lines: list[str] = []
    if args.update is not None:
        paths = update(args.update, screens)
        lines.append(f"saved {len(paths)} chapter screens in {args.update}")
    if args.check is None:
        return lines, 0
    if not any(args.check.glob("*.txt")):
        lines.append(f"no chapter screens in {args.check}: save them first with --update")
        return lines, EXIT_DRIFT
    drifts = check(args.check, screens)
    lines += [drift.describe(args.check) for drift in drifts]
    if not drifts:
        lines.append(f"all {len(screens)} chapter screens match {args.check}")
    return lines, EXIT_DRIFT if drifts else 0


def _pattern(value: str) -> re.Pattern[str]:
    try:
        pattern = re.compile(value)
    except re.error as error:
        raise argparse.ArgumentTypeError(f"not a regular expression: {value!r}: {error}") from None
    if pattern.fullmatch("") is not None:
        raise argparse.ArgumentTypeError(
            f"{value!r} matches empty text, so it would put ••• between every two characters:"
            " make it match at least one character"
        )
    return pattern


def _bytes(value: str) -> int:
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(k|kb|m|mb|b)?\s*", value.lower())
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size like 2MB or 500kB: {value!r}")
    scale = {"k": 1000, "kb": 1000, "m": 1_000_000, "mb": 1_000_000}.get(match.group(2) or "", 1)
    size = int(float(match.group(1)) * scale)
    if size < 1:
        raise argparse.ArgumentTypeError(f"not a size above 0 like 2MB or 500kB: {value!r}")
    return size

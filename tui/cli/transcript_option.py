"""The `--transcript FILE` option every command that shows questions takes."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_transcript_option(parser: argparse.ArgumentParser, default: object = None) -> None:
    """Add `--transcript FILE` (`args.transcript`, a Path or `default`) to `parser`."""
    parser.add_argument(
        "--transcript",
        default=default,
        type=transcript_path,
        metavar="FILE",
        help="record the session in FILE as JSON lines (requests, results, keys; never a "
        "secret), for `elicit-tui replay FILE`",
    )


def transcript_path(value: str) -> Path:
    """`value` as a path whose folder exists, so a typo fails before anything is asked."""
    path = Path(value).expanduser()
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{value!r} is a folder; give a file name")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(
            f"no folder {str(path.parent)!r} to write {path.name!r} in"
        )
    return path

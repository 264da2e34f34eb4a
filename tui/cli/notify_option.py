"""The `--notify COMMAND` option of the commands that show questions."""

from __future__ import annotations

import argparse


def add_notify_option(parser: argparse.ArgumentParser, when: str = "") -> None:
    """Add `--notify COMMAND` to `parser` (stored as `args.notify`); `when` says more of when
    it runs, for the command's help."""
    parser.add_argument(
        "--notify",
        metavar="COMMAND",
        help="run COMMAND (through the shell) when a question arrives while this window does "
        f"not have focus{when}, with ELICIT_TITLE, ELICIT_BODY, ELICIT_SOURCE, ELICIT_KIND, "
        "ELICIT_TOOL, ELICIT_COMMAND, ELICIT_ID and ELICIT_COUNT in its environment; at most "
        'one every 2 s, then one summary. E.g. --notify \'notify-send "$ELICIT_TITLE" '
        '"$ELICIT_BODY"\'',
    )

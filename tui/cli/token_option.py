"""The `--token` option of the commands that talk to an inbox elsewhere."""

from __future__ import annotations

import argparse

from tui.inbox.env_names import TOKEN_ENV


def add_token_option(parser: argparse.ArgumentParser, default: object = None) -> None:
    """Add `--token TOKEN` to `parser` (stored as `args.token`; `default` when not given)."""
    parser.add_argument(
        "--token",
        default=default,
        help=f"the inbox's bearer token (default: ${TOKEN_ENV}, else, for a 127.0.0.1 or "
        "localhost URL, the serve-token file)",
    )

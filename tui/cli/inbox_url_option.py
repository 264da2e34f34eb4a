"""Where the commands that attach to an inbox elsewhere find it: their argument, or `--to URL`
as `ask` and `hook` take it (without it, argparse would read `--to` as short for `--token`)."""

from __future__ import annotations

import argparse


def add_inbox_url_options(parser: argparse.ArgumentParser, help_text: str) -> None:
    """Add the inbox URL to `parser` as an optional argument or as `--to URL`, one or the
    other (read it with `inbox_url`)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("url", nargs="?", help=help_text)
    where.add_argument(
        "--to", dest="to_url", metavar="URL", help="the inbox, as `ask --to` names it"
    )


def inbox_url(args: argparse.Namespace) -> str | None:
    """The inbox URL given on the command line, if one was (see `add_inbox_url_options`)."""
    url: str | None = args.to_url or args.url
    return url

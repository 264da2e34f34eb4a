"""Subcommands that hand every argument to a parser of their own."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from importlib import import_module


def add_passthrough_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    *,
    help: str,
    main: Callable[[Sequence[str]], int],
) -> None:
    """Register `name` on the `elicit-tui` parser so that `main` gets every argument after it
    and returns the exit status."""
    command = commands.add_parser(
        name,
        help=help,
        add_help=False,
        # No option prefix: every argument, `--help` included, reaches the command's own
        # parser, so its usage errors exit with the status that command documents, not 2.
        prefix_chars="\0",
    )
    command.add_argument("arguments", nargs=argparse.REMAINDER)
    command.set_defaults(handler=lambda args: main(args.arguments))


def imported_when_run(module: str) -> Callable[[Sequence[str]], int]:
    """`module`'s `main(argv)`, imported only when the command runs: `elicit-tui`'s other
    commands (`ask` among them, whose dialog should appear at once) never load it."""

    def main(argv: Sequence[str]) -> int:
        command_main: Callable[[Sequence[str]], int] = import_module(module).main
        return command_main(argv)

    return main

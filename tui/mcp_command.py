"""`elicit-tui mcp`: connect to an MCP server, call one of its tools, answer its elicitations.

The person picks a tool and fills its arguments in the TUI (or names them with `--call`
and `--args`); the server's elicitations during the call are answered in the same TUI, or
by a policy with `--auto` and no TUI at all. Each call's result is printed on stdout as one
line of JSON once the TUI is gone. The `mcp` package is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
import tempfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tui.queue import ElicitationQueue, Policy

if TYPE_CHECKING:
    from tui.mcp_session import Results

__all__ = [
    "AUTO_POLICIES",
    "EXIT_FAILED",
    "EXIT_USAGE",
    "McpOptions",
    "UsageError",
    "add_mcp_command",
    "run",
]

AUTO_POLICIES: dict[str, Policy] = {
    "accept-defaults": "accept_defaults",
    "decline": "decline",
    "cancel": "cancel",
}
"""`--auto` values and the queue policy that answers every elicitation without a person."""

EXIT_FAILED = 1
"""Exit status when a tool reported an error, or the server could not be used."""

EXIT_USAGE = 2
"""Exit status for a command line that does not say what to do (argparse's own)."""

_EPILOG = """\
examples:
  elicit-tui mcp -- python -m tui.examples.mcp_elicit_server
  elicit-tui mcp --url http://127.0.0.1:8000/mcp
  elicit-tui mcp --call book_table --args '{"restaurant": "Trattoria"}' -- python -m tui.examples.mcp_elicit_server
  elicit-tui mcp --call book_table --auto accept-defaults -- python -m tui.examples.mcp_elicit_server

Each call's result is printed on stdout as one line of JSON (the MCP CallToolResult).
exit status: 0 done, 1 a tool reported an error or the server failed, 2 usage error.
"""


class UsageError(ValueError):
    """The command line does not say what to do; the message says what to change."""


@dataclass(frozen=True)
class McpOptions:
    """What `elicit-tui mcp` was asked to do, checked."""

    command: tuple[str, ...] = ()
    """The stdio server's command line, or empty with `url`."""
    url: str | None = None
    call: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    auto: str | None = None
    protocol: str = "auto"
    """The SDK's `mode`: "auto", "legacy" (2025-11-25 handshake) or a 2026-era version."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> McpOptions:
        """Options from the parsed command line; `UsageError` says what is wrong with it."""
        command = tuple(args.server_command)
        if bool(command) == bool(args.url):
            raise UsageError(
                "give the server either as a command after -- or with --url, not both"
                if command
                else "say which server: a command after -- (stdio), or --url URL (streamable HTTP)"
            )
        if args.call is None and args.args is not None:
            raise UsageError("--args needs --call TOOL")
        if args.call is None and args.auto is not None:
            raise UsageError("--auto needs --call TOOL: without a person nobody can pick a tool")
        return cls(
            command=command,
            url=args.url,
            call=args.call,
            arguments=_arguments(args.args),
            auto=args.auto,
            protocol=args.protocol,
        )

    @property
    def label(self) -> str:
        """The server as the person knows it, until it tells its own name."""
        return self.url or shlex.join(self.command)


def add_mcp_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `mcp` on the `elicit-tui` parser."""
    mcp = commands.add_parser(
        "mcp",
        help="call an MCP server's tools and answer its elicitations here",
        description="Connect to an MCP server, pick one of its tools and fill its arguments, "
        "call it, and answer the questions (elicitations) the server asks during the call.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mcp.add_argument("--url", help="the server's streamable HTTP endpoint, like .../mcp")
    mcp.add_argument("--call", metavar="TOOL", help="call this tool, without picking one")
    mcp.add_argument(
        "--args", metavar="JSON", help="the tool's arguments, a JSON object (default: {})"
    )
    mcp.add_argument(
        "--auto",
        choices=list(AUTO_POLICIES),
        help="answer every elicitation this way, with no TUI (needs --call)",
    )
    mcp.add_argument(
        "--protocol",
        default="auto",
        metavar="VERSION",
        help="'auto' (default: probe), 'legacy' (the 2025-11-25 handshake) or '2026-07-28'",
    )
    mcp.add_argument(
        "server_command",
        nargs="*",
        metavar="-- COMMAND",
        help="the stdio server to start, after --",
    )
    mcp.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run `elicit-tui mcp` from its parsed arguments; returns the exit status."""
    try:
        options = McpOptions.from_args(args)
        # mcp_client first: it says how to install the `mcp` extra when it is missing
        import tui.mcp_client  # noqa: F401
        from tui.mcp_session import CommandFailed, run_session
    except UsageError as error:
        print(f"elicit-tui mcp: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ImportError as missing:
        if missing.name != "mcp":
            raise
        print(f"elicit-tui mcp: {missing}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if options.auto is not None:
            queue = ElicitationQueue(policy=AUTO_POLICIES[options.auto])
            # nobody is looking at a screen: the server's stderr goes to ours
            results = asyncio.run(run_session(queue, options))
        else:
            results = _run_in_tui(options)
    except UsageError as error:
        print(f"elicit-tui mcp: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except (CommandFailed, OSError) as error:
        print(f"elicit-tui mcp: {error}", file=sys.stderr)
        return EXIT_FAILED
    for result in results:
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return EXIT_FAILED if any(result.get("isError") for result in results) else 0


def _run_in_tui(options: McpOptions) -> Results:
    """Talk to the server from the app's agent thread; the results once the app has exited."""
    from tui.app import ElicitationApp
    from tui.mcp_session import CommandFailed, run_session
    from tui.terminal import streams_on_terminal

    finished: list[Results] = []
    failures: list[Exception] = []
    # the server's stderr would draw over the TUI: keep it, to quote if the server fails
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:

        def agent(queue: ElicitationQueue) -> Results:
            try:
                finished.append(asyncio.run(run_session(queue, options, errlog=errlog)))
            except Exception as error:
                failures.append(error)
                raise
            return finished[0]

        app = ElicitationApp(
            ElicitationQueue(),
            agent,
            agent_name=options.label,
            title="elicit-tui mcp",
            exit_when_agent_done=True,
        )
        # the TUI on the terminal, so `elicit-tui mcp ... | jq` still shows it
        with streams_on_terminal():
            app.run()
    if failures:
        raise failures[0]
    if not finished and options.call is not None:
        raise CommandFailed(f"the TUI was closed before {options.call!r} returned")
    return finished[0] if finished else []


def _arguments(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"--args is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise UsageError('--args must be a JSON object, like {"name": "value"}')
    return value

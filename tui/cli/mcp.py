"""`elicit-tui mcp`: connect to an MCP server, call one of its tools, answer its elicitations.

The person picks a tool and fills its arguments in the TUI (or names them with `--call`
and `--args`); the server's elicitations during the call are answered in the same TUI, or
by a policy with `--auto` and no TUI at all. Each call's result is printed on stdout as one
line of JSON once the TUI is gone. The `mcp` package is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.ask import EXIT_HUNG_UP, EXIT_TERMINATED
from tui.cli.transcript_option import add_transcript_option
from tui.core.loading import loading_modules
from tui.core.terminal_text import literal_line

if TYPE_CHECKING:
    from tui.core.queue import ElicitationQueue, Policy, QueueEvent
    from tui.mcp.options import McpOptions
    from tui.mcp.session import Results
    from tui.secrets.redaction import Redactor

__all__ = [
    "AUTO_POLICIES",
    "EXIT_FAILED",
    "EXIT_USAGE",
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
  elicit-tui mcp --url http://127.0.0.1:8765/mcp --token "$(elicit-tui token)"
  elicit-tui mcp --call book_table --args '{"restaurant": "Trattoria"}' -- python -m tui.examples.mcp_elicit_server
  elicit-tui mcp --call book_table --auto accept-defaults -- python -m tui.examples.mcp_elicit_server

Each call's result is printed on stdout as one line of JSON (the MCP CallToolResult, or
{"error": {"code", "message"}} for a call the server refused).
exit status: 0 done, 1 a tool reported an error, a call was refused or the server failed,
2 usage error, 143 ended by SIGTERM (kill), 129 by SIGHUP (its terminal gone); what the
calls returned meanwhile is printed.
"""


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
    mcp.add_argument(
        "--token",
        help="a bearer token to send to the server at --url (default: the inbox's token, "
        "when --url is the inbox $ELICIT_TUI_URL names; no other server is sent it)",
    )
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
    add_transcript_option(mcp)
    mcp.add_argument(
        "server_command",
        nargs="*",
        metavar="-- COMMAND",
        help="the stdio server to start, after --",
    )
    mcp.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run `elicit-tui mcp` from its parsed arguments; returns the exit status."""
    # Loaded here, not with the parser of every `elicit-tui` command (`ask` and `hook` too).
    import asyncio

    from tui.core.queue import ElicitationQueue
    from tui.mcp.options import McpOptions, UsageError
    from tui.secrets.redaction import Redactor

    try:
        options = McpOptions.from_args(args)
        token, inbox = _server_token(options.url, args.token)
        options = replace(options, token=token, signed=inbox and token is not None)
        # mcp_client first: it says how to install the `mcp` extra when it is missing
        import tui.mcp.client  # noqa: F401
        from tui.mcp.session import CommandFailed, refusal, run_session
    except UsageError as error:
        print(f"elicit-tui mcp: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ImportError as missing:
        if missing.name != "mcp":
            raise
        print(f"elicit-tui mcp: {missing}", file=sys.stderr)
        return EXIT_USAGE
    secrets = Redactor()
    try:
        if options.auto is not None:
            queue = ElicitationQueue(policy=AUTO_POLICIES[options.auto])
            queue.subscribe(_say_how_it_was_answered(options.auto), front_end=False)
            _keep_secrets(queue, secrets)
            # nobody is looking at a screen: the server's stderr goes to ours
            with _recording(queue, args.transcript), _log_in_one_line():
                results = asyncio.run(run_session(queue, options))
            ended: int | None = None
        else:
            results, ended = _run_in_tui(options, secrets, args.transcript)
    except UsageError as error:
        print(f"elicit-tui mcp: error: {secrets.scrub(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except (CommandFailed, OSError) as error:
        print(f"elicit-tui mcp: {secrets.scrub(str(error))}", file=sys.stderr)
        return EXIT_FAILED
    except Terminated as outside:
        print(f"elicit-tui mcp: {outside}", file=sys.stderr)
        return outside.status
    for result in results:
        print(secrets.scrub(json.dumps(result, ensure_ascii=False)), flush=True)
        if "error" in result:
            said = refusal(result["error"]["code"], str(result["error"]["message"]))
            print(f"elicit-tui mcp: {literal_line(secrets.scrub(said))}", file=sys.stderr)
    if ended is not None:
        return ended  # what the calls gave back is printed; the signal decides
    failed = any(result.get("isError") or "error" in result for result in results)
    return EXIT_FAILED if failed else 0


def _server_token(url: str | None, given: str | None) -> tuple[str | None, bool]:
    """The token for the server at `url`: the one given, else the inbox's own (from
    `$ELICIT_TUI_TOKEN`, else the `serve-token` file) when `url` is the inbox the environment
    names: another server is never sent it. And whether `url` is that inbox, which is then
    sent no token, only requests signed with it (`tui.core.signed_request`)."""
    from tui.inbox.discovery import checked_token, find_inbox, inbox_base
    from tui.inbox.env_names import TOKEN_ENV
    from tui.mcp.options import UsageError

    try:
        inbox = url is not None and inbox_base(url) == inbox_base()
    except ValueError:
        inbox = False  # $ELICIT_TUI_URL is no URL: there is no inbox to send a token to
    if given is not None:
        try:
            return checked_token(given), inbox
        except ValueError as error:
            raise UsageError(f"--token: {error}") from None
    if not inbox:
        return None, False
    try:
        return find_inbox(url).token, True
    except ValueError as error:
        raise UsageError(f"${TOKEN_ENV}: {error}") from None


@contextmanager
def _recording(queue: ElicitationQueue, path: Path | None) -> Iterator[None]:
    """Record `queue`'s requests and results (answered by its policy) in `path`, if given."""
    if path is None:
        yield
        return
    from tui.transcript.writer import TranscriptWriter

    writer = TranscriptWriter(path, agent="elicit-tui mcp")
    detach = writer.attach(queue)
    try:
        yield
    finally:
        detach()
        writer.close()


@contextmanager
def _log_in_one_line() -> Iterator[None]:
    """Log records go to stderr as one line each, without a traceback, while the block runs:
    the SDK's, say, for a line a server wrote on stdout that is no JSON-RPC (the TUI hides them)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


class _OneLine(logging.Formatter):
    """A record as `elicit-tui mcp: MESSAGE (ERROR TYPE)`, shown literally."""

    def format(self, record: logging.LogRecord) -> str:
        line = record.getMessage()
        if record.exc_info is not None and record.exc_info[1] is not None:
            line += f" ({type(record.exc_info[1]).__name__})"
        return f"elicit-tui mcp: {literal_line(line)}"


def _keep_secrets(queue: ElicitationQueue, secrets: Redactor) -> None:
    """Register in `secrets` every secret answered on `queue`, to scrub what is printed: the
    app's own redactor is emptied as it exits, before the results are printed."""
    from tui.secrets.redaction import registered

    def keep(event: QueueEvent) -> None:
        if event.type == "resolved" and event.result is not None:
            registered(event.request, event.result, secrets)

    queue.subscribe(keep, front_end=False)


def _say_how_it_was_answered(auto: str) -> Callable[[QueueEvent], None]:
    """An observer putting one line on stderr per elicitation `--auto` answered, with why."""

    def say(event: QueueEvent) -> None:
        if event.type != "resolved" or event.result is None:
            return
        action = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}
        line = f"{json.dumps(event.request.message, ensure_ascii=False)} was "
        line += action[event.result.action]
        if event.result.action == "accept":
            line += f" with its defaults (--auto {auto})"
        elif AUTO_POLICIES[auto] == "accept_defaults":
            try:
                event.request.default_content()
            except ValueError as missing:
                line += f": --auto {auto} has no answer for it ({missing})"
            else:
                line += f" (--auto {auto}, {event.result.reason})"
        else:
            line += f" (--auto {auto})"
        print(f"elicit-tui mcp: {line}", file=sys.stderr, flush=True)

    return say


def _run_in_tui(
    options: McpOptions, secrets: Redactor, transcript: Path | None = None
) -> tuple[Results, int | None]:
    """Talk to the server from the app's agent thread; the results once the app has exited,
    and, if SIGTERM or SIGHUP ended it, the exit status that says so (the calls may have
    returned as it did, their questions cancelled). Every secret answered is registered in
    `secrets`."""
    import asyncio

    with loading_modules():
        from tui.app.app import ElicitationApp
        from tui.app.terminal import streams_on_terminal
        from tui.core.queue import ElicitationQueue
        from tui.mcp.session import CommandFailed, run_session

    finished: list[Results] = []
    failures: list[Exception] = []
    # the server's stderr would draw over the TUI: keep it, to quote if the server fails
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:

        def connected(server: str) -> None:
            app.set_activity(f"Connected to MCP server {server}")

        def agent(queue: ElicitationQueue) -> Results:
            try:
                session = run_session(queue, options, errlog=errlog, on_connected=connected)
                finished.append(asyncio.run(session))
            except Exception as error:
                # Said as the command ends, the app closed (there is nothing left to answer):
                # a tool the server lacks, a server that cannot be reached or went away.
                failures.append(error)
                return []
            return finished[0]

        queue = ElicitationQueue()
        _keep_secrets(queue, secrets)
        app = ElicitationApp(
            queue,
            agent,
            agent_name=options.label,
            title="elicit-tui mcp",
            exit_when_agent_done=True,
            transcript=transcript,
        )
        # the TUI on the terminal, so `elicit-tui mcp ... | jq` still shows it
        with streams_on_terminal():
            app.run()
    if failures:
        raise failures[0]
    ended_by = _ENDED_BY.get(app.return_code or 0)
    if ended_by is not None and not finished:
        call = f" before {options.call!r} returned" if options.call is not None else ""
        raise Terminated(f"ended by {ended_by}{call}", app.return_code or 0)
    if not finished and options.call is not None:
        raise CommandFailed(f"the TUI was closed before {options.call!r} returned")
    return (finished[0] if finished else []), app.return_code if ended_by else None


_ENDED_BY = {EXIT_TERMINATED: "SIGTERM", EXIT_HUNG_UP: "SIGHUP"}
"""The exit statuses of an app ended from outside, and what ended it (SIGHUP: its terminal
gone, or `kill -HUP`)."""


class Terminated(Exception):
    """SIGTERM (`kill`) or SIGHUP ended the command while the server's tools were still at
    work; `status` is the command's exit status (143, 129)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status

"""`elicit-tui serve`: the TUI plus an MCP server on 127.0.0.1 through which agents ask you."""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys

from tui.cli.kinds_note import KINDS_NOTE
from tui.cli.notify_option import add_notify_option
from tui.cli.transcript_option import add_transcript_option
from tui.core.error_text import os_error_text
from tui.core.loading import loading_modules
from tui.inbox.discovery import checked_token
from tui.inbox.env_names import TOKEN_ENV

HOST = "127.0.0.1"
"""Only this machine's agents may ask: the server never listens on other interfaces."""

DEFAULT_PORT = 8765


def add_serve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `serve` on the `elicit-tui` parser."""
    serve = commands.add_parser(
        "serve",
        help="run the TUI with an MCP server that agents call to ask you questions",
        description="Run the TUI with an MCP server (streamable HTTP on "
        f"http://{HOST}:PORT/mcp) whose tools elicit, ask_user and request_secret show each "
        "agent's question here and return your answer, and the inbox's HTTP API on "
        f"http://{HOST}:PORT/v1/ for askers and front ends in other processes. It answers "
        "only to the names 127.0.0.1 or localhost (not this machine's host name): reach it "
        "from elsewhere through `ssh -L`. Needs the `mcp` extra.",
        epilog=KINDS_NOTE,
    )
    serve.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"the port to listen on (default: {DEFAULT_PORT}; 0 picks a free one)",
    )
    serve.add_argument(
        "--headless",
        action="store_true",
        help="run the inbox without a TUI: requests wait until a front end answers them over "
        "the HTTP API (GET /v1/events, POST /v1/requests/ID/answer)",
    )
    add_transcript_option(serve)
    add_notify_option(serve, when=" (with --headless: whenever one arrives)")
    access = serve.add_mutually_exclusive_group()
    access.add_argument(
        "--token",
        type=_token,
        help="the bearer token clients must send (default: $ELICIT_TUI_TOKEN, else a new "
        "random one each start, written owner-only to the config folder's serve-token)",
    )
    access.add_argument(
        "--no-auth",
        action="store_true",
        help="accept requests without a token: any local process of any user may then ask",
    )
    serve.set_defaults(handler=_run)


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number (0-65535): {value!r}")
    return port


def _token(value: str) -> str:
    try:
        return str(checked_token(value))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _run(args: argparse.Namespace) -> int:
    if args.token is None and not args.no_auth and (given := os.environ.get(TOKEN_ENV)):
        try:
            args.token = checked_token(given)
        except ValueError as error:
            print(f"elicit-tui serve: ${TOKEN_ENV}: {error}", file=sys.stderr)
            return 2
    try:
        with loading_modules():
            if args.headless:
                from tui.inbox.headless import run_headless
                from tui.inbox.inbox import Inbox
            else:
                from tui.app.serve_app import ServeApp
    except ImportError as error:
        print(
            f"elicit-tui serve needs the MCP SDK ({error.name} is not installed): "
            "pip install 'elicit-tui[mcp]'",
            file=sys.stderr,
        )
        return 1
    from tui.app.terminal import (
        CANNOT_DRAW,
        NoTerminalError,
        cannot_draw,
        check_terminal,
        streams_on_terminal,
    )
    from tui.core.queue import ElicitationQueue
    from tui.secrets.keyring_store import keyring_status

    if not args.headless:
        if cannot_draw():
            print(
                f"elicit-tui serve: {CANNOT_DRAW}: {HEADLESS_HINT}, and `elicit-tui web` "
                "answers it in a browser",
                file=sys.stderr,
            )
            return 2
        try:
            check_terminal()  # before a token is written or a config printed, for nothing
        except NoTerminalError as error:
            print(f"elicit-tui serve: {error}; {HEADLESS_HINT}", file=sys.stderr)
            return 1

    try:
        listener = socket.create_server((HOST, args.port))
    except OSError as error:
        print(
            f"elicit-tui serve: cannot listen on {HOST}:{args.port} ({error.strerror}); "
            "pick another with --port",
            file=sys.stderr,
        )
        return 1
    url = f"http://{HOST}:{listener.getsockname()[1]}/mcp"
    token, note, unsaved = None, "", None
    if not args.no_auth:
        token, note, unsaved = _claim_token(args.token)
    elif (stale := _drop_saved_token()) is not None:
        note = (
            f"(an earlier inbox's saved token could not be removed: {stale}; clients that "
            "read it will not trust this inbox, which holds none)"
        )
    shown: str | None = token
    if token is not None and not sys.stdout.isatty():
        # A log, a file, a pipe: the token stays out of what others may read.
        if unsaved is not None and args.token is None:
            listener.close()
            print(
                f"elicit-tui serve: the token could not be saved for scripts ({unsaved}) and "
                f"is not printed to no terminal: give one with --token or ${TOKEN_ENV}",
                file=sys.stderr,
            )
            return 1
        shown = LOGGED_TOKEN
        if unsaved is None:
            note = f"{note}\n{TOKEN_LEFT_OUT}".strip()
    print(client_config(url, shown) + (f"\n{note}" if note else ""), flush=True)
    if (no_keyring := keyring_status()) is not None:
        print(f"{KEYRING_MISSING} {no_keyring}", flush=True)
    if args.headless:
        print(f"Inbox API on {url.removesuffix('/mcp')}/v1/ (no TUI; Ctrl+C stops)", flush=True)
        inbox = Inbox(ElicitationQueue(policy="wait"), transcript=args.transcript, serving=url)
        if args.notify:
            from tui.front_ends.notify import notify_by_command
            from tui.secrets.redaction import REDACTOR

            notify_by_command(inbox.queue, args.notify, REDACTOR.scrub)
        return run_headless(listener, inbox, token=token)
    # Calls that arrive before the app shows them wait for it instead of being cancelled.
    app = ServeApp(
        ElicitationQueue(policy="wait"),
        listener,
        token=token,
        token_note=note,
        transcript=args.transcript,
        notify_command=args.notify,
    )
    try:
        # On the terminal even when the output is logged: `elicit-tui serve > serve.log 2>&1`.
        with streams_on_terminal():
            app.run()
    except NoTerminalError as error:
        listener.close()
        print(f"elicit-tui serve: {error}; {HEADLESS_HINT}", file=sys.stderr)
        return 1
    return app.return_code or 0


HEADLESS_HINT = "`elicit-tui serve --headless` runs the inbox without one"
"""What a serve without a terminal is told: the inbox itself needs none."""

KEYRING_MISSING = "request_secret calls will be refused (reason keyring_unavailable)."
"""What serve prints before the reason it finds no usable keyring; its TUI says it in a line."""

LOGGED_TOKEN = "<elicit-tui token>"
"""The token as a config printed to no terminal shows it: the command that prints it."""

TOKEN_LEFT_OUT = "(printed to no terminal, the token is left out: `elicit-tui token` prints it)"


def client_config(url: str, token: str | None) -> str:
    """What to paste into an MCP client's configuration to reach the server at `url`."""
    server: dict[str, object] = {"type": "http", "url": url}
    if token is not None:
        server["headers"] = {"Authorization": f"Bearer {token}"}
    config = json.dumps({"mcpServers": {"elicit-tui": server}}, indent=2)
    where = (
        "MCP client configuration" if token else "MCP client configuration (no token: --no-auth)"
    )
    return f"elicit-tui serve on {url}\n{where}:\n{config}"


def _drop_saved_token() -> str | None:
    """Remove the token an earlier inbox saved (see `tui.mcp.token_claim.drop_token`): why it
    could not be, or None."""
    from tui.core.config_folder import config_folder
    from tui.mcp.token_claim import drop_token

    try:
        drop_token(config_folder())
    except OSError as error:
        return os_error_text(error)
    return None


def _claim_token(wanted: str | None) -> tuple[str, str, str | None]:
    """The token to answer to, written owner-only where scripts find it unless an inbox from
    the same config folder runs already (see `tui.mcp.token_claim`), a note saying where,
    and why it could not be saved (None if it was)."""
    from tui.core.config_folder import config_folder
    from tui.mcp.auth import new_token
    from tui.mcp.token_claim import claim_token

    folder = config_folder()
    try:
        return (*claim_token(folder, wanted), None)
    except OSError as error:
        why = f"{folder} is a file, not a folder" if folder.is_file() else os_error_text(error)
        return wanted or new_token(), f"(the token could not be saved for scripts: {why})", why

"""`elicit-tui token`: print the inbox's token, for scripts and MCP clients.

The token every client of the inbox sends: `$ELICIT_TUI_TOKEN` if set, else the one `serve`
writes anew to the `serve-token` file in the config folder at each start, read wherever that
folder is (`$ELICIT_TUI_CONFIG_DIR`, or the platform's config folder). With `--wait` it first
waits until an inbox at the URL takes it: a script that has just started `serve` in the
background reads the new token, not the one an earlier run left.

Exit status: 0 printed, 1 no token file, 2 no inbox took the token within `--wait`, 3 a URL
that is not http(s), or a token in `$ELICIT_TUI_TOKEN` no HTTP header can carry.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from tui.cli.inbox_url_option import add_inbox_url_options, inbox_url
from tui.cli.seconds_type import seconds

NO_TOKEN = 1
NOT_TAKEN = 2
BAD_URL = 3

RETRY = 0.1
"""Seconds between two looks at the inbox while `--wait` lasts."""


def add_token_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `token` on the `elicit-tui` parser."""
    token = commands.add_parser(
        "token",
        help="print the inbox's bearer token (for curl, scripts, MCP client settings)",
        description="Print the bearer token clients of the inbox send: $ELICIT_TUI_TOKEN if "
        "set, else the one `elicit-tui serve` wrote to the serve-token file in the config "
        "folder ($ELICIT_TUI_CONFIG_DIR, else the platform's). With --wait, first wait until "
        "an inbox at the URL takes it: right after starting `serve`, the file may still hold "
        "an earlier run's token.",
        epilog="exit status: 0 printed, 1 no token file, 2 no inbox took the token within "
        "--wait, 3 the URL is not http(s) or $ELICIT_TUI_TOKEN holds what no header can carry",
    )
    add_inbox_url_options(
        token,
        "the inbox --wait checks (as `serve` prints it, or its base URL; default: "
        "$ELICIT_TUI_URL, else http://127.0.0.1:8765)",
    )
    token.add_argument(
        "--wait",
        type=seconds,
        metavar="SECONDS",
        help="wait up to SECONDS for an inbox at the URL to take the token, re-reading the file",
    )
    token.set_defaults(handler=_run)


def _current_token(path: Path) -> tuple[str | None, str]:
    """The token clients send (`$ELICIT_TUI_TOKEN`, else the one in the `serve-token` file at
    `path`, else None) and where it was read from."""
    from tui.inbox.discovery import saved_token
    from tui.inbox.env_names import TOKEN_ENV

    if token := os.environ.get(TOKEN_ENV):
        return token, f"${TOKEN_ENV}"
    return saved_token(), str(path)


def _run(args: argparse.Namespace) -> int:
    from tui.core.config_folder import TOKEN_FILE, config_folder
    from tui.inbox.discovery import checked_token, inbox_base

    path = config_folder() / TOKEN_FILE
    try:
        base = inbox_base(inbox_url(args))
    except ValueError as error:
        return _fail(BAD_URL, str(error))
    deadline = time.monotonic() + (args.wait or 0)
    seen: tuple[int | None, dict[str, Any]] = (None, {})  # the inbox's last answer
    while True:
        token, source = _current_token(path)
        if token is None and args.wait is None:
            return _fail(
                NO_TOKEN, f"no token in {path}: `elicit-tui serve` writes one as it starts"
            )
        if token is not None:
            try:
                checked_token(token)
            except ValueError as error:  # from the environment: `serve` writes none such
                return _fail(BAD_URL, f"{error} (in {source})")
            if args.wait is None or (seen := _answer(base, token))[0] == 200:
                print(token)
                return 0
        if time.monotonic() >= deadline:
            return _fail(NOT_TAKEN, _why_not(base, source, token, seen, args.wait))
        time.sleep(RETRY)


def _answer(base: str, token: str) -> tuple[int | None, dict[str, Any]]:
    """The HTTP status (None if nothing answers there) and JSON body the inbox at `base`
    answers a call carrying `token` with."""
    from tui.inbox.discovery import InboxAddress, listening
    from tui.inbox.remote_queue import inbox_call

    if not listening(base, timeout=RETRY):
        return None, {}
    try:
        return inbox_call(InboxAddress(base, token), "GET", "/v1/requests", timeout=2)
    except OSError:  # not HTTP there (https to a plain inbox), or no answer in time
        return None, {}


def _why_not(
    base: str, source: str, token: str | None, seen: tuple[int | None, dict[str, Any]], wait: float
) -> str:
    from tui.core.config_folder import TOKEN_FILE, config_folder
    from tui.inbox.discovery import InboxAddress, listening
    from tui.inbox.door_refusal import DOOR, door_refusal

    status, body = seen
    if token is None:
        return f"no token in {source} after {wait:g} s: is `elicit-tui serve` starting?"
    if status == 401 and isinstance(body.get("error"), str):
        # The inbox's own refusal of the token (the door's advice names --token, which
        # this command has not).
        refused = f"the inbox at {base} refused the token in {source} (for {wait:g} s)"
        if source.startswith("$"):
            saved = config_folder() / TOKEN_FILE
            return (
                f"{refused}: not this inbox's; unset it to read the one `elicit-tui serve`"
                f" saved in {saved}"
            )
        return (
            f"{refused}: it was started with another ($ELICIT_TUI_TOKEN, or another config"
            " folder's); set $ELICIT_TUI_TOKEN to that one"
        )
    if status in DOOR:
        address = InboxAddress(base, token)
        return f"{door_refusal(address, status, body)} (for {wait:g} s)"
    if status is not None:
        return f"what answers at {base} is no inbox (HTTP {status} to /v1/requests)"
    if listening(base):
        return f"what listens at {base} does not answer as an inbox does (is it http or https?)"
    return f"no inbox at {base} after {wait:g} s: is `elicit-tui serve` running?"


def _fail(status: int, message: str) -> int:
    print(f"elicit-tui token: {message}", file=sys.stderr)
    return status

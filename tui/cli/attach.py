"""`elicit-tui attach [URL]`: the full TUI as one more front end of an inbox elsewhere."""

from __future__ import annotations

import argparse
import os
import sys

from tui.cli.inbox_url_option import add_inbox_url_options, inbox_url
from tui.cli.kinds_note import KINDS_NOTE
from tui.cli.notify_option import add_notify_option
from tui.cli.token_option import add_token_option
from tui.core.loading import loading_modules

ATTACH_REFUSED = 2
"""Exit status when the inbox refuses this front end (a wrong or missing token), or the
terminal cannot draw it."""

NO_INBOX = 1
"""Exit status when no inbox answers at the URL, or the app cannot start."""


def add_attach_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `attach` on the `elicit-tui` parser."""
    attach = commands.add_parser(
        "attach",
        help="answer an inbox's questions from this terminal (one more front end)",
        description="Show the questions waiting in the inbox that `elicit-tui serve` runs, "
        "and new ones as they come, and answer them here. Several front ends may attach; the "
        "first answer wins. Quitting answers nothing: the questions stay in the inbox. Exit "
        "status: 0 when you quit, 1 when no inbox answers at the URL, 2 when it refuses the "
        "token or the terminal cannot draw (TERM=dumb).",
        epilog=KINDS_NOTE,
    )
    add_inbox_url_options(
        attach,
        "the inbox (as `serve` prints it, or its base URL; default: $ELICIT_TUI_URL, "
        "else http://127.0.0.1:8765)",
    )
    add_token_option(attach)
    attach.add_argument(
        "--name",
        default=f"terminal {os.getpid()}",
        help="how other front ends name this one when it answers (default: terminal PID)",
    )
    add_notify_option(attach)
    attach.set_defaults(handler=_run)


WEB_TOKEN_REMEDY = "start `elicit-tui web` again with the inbox's new token"
"""What a browser's tab is told to do when the inbox refuses the token `web` gave it."""


def _run(args: argparse.Namespace) -> int:
    from tui.app.terminal import CANNOT_DRAW, cannot_draw
    from tui.front_ends.remote import (
        TOKEN_REMEDY,
        InboxRefused,
        InboxUnreachable,
        RemoteFrontEnd,
    )
    from tui.inbox.discovery import find_inbox, saved_token

    # A browser's tab (`elicit-tui web`) draws in the browser, whatever terminal web runs in.
    if cannot_draw() and not os.environ.get("TEXTUAL_DRIVER"):
        print(
            f"elicit-tui attach: {CANNOT_DRAW}, and attach has no plain mode: answer in a "
            "browser with `elicit-tui web`, or attach from a terminal that can draw",
            file=sys.stderr,
        )
        return ATTACH_REFUSED
    try:
        address = find_inbox(inbox_url(args), args.token)
        front_end = RemoteFrontEnd(
            address.base,
            address.token,
            args.name,
            reread_token=saved_token if address.token_saved else None,
            # A browser's tab (`elicit-tui web`) is given the token web was: web must change.
            token_remedy=WEB_TOKEN_REMEDY if os.environ.get("TEXTUAL_DRIVER") else TOKEN_REMEDY,
        )
        front_end.connect()
    except ValueError as error:
        print(f"elicit-tui attach: {error}", file=sys.stderr)
        return NO_INBOX
    except InboxRefused as error:
        print(f"elicit-tui attach: {error}", file=sys.stderr)
        return ATTACH_REFUSED
    except InboxUnreachable as error:
        print(f"elicit-tui attach: {error}; is `elicit-tui serve` running?", file=sys.stderr)
        return NO_INBOX
    with loading_modules():
        from tui.app.attach_app import AttachApp
        from tui.app.terminal import NoTerminalError, streams_on_terminal

    app = AttachApp(front_end, notify_command=args.notify)
    try:
        if os.environ.get("TEXTUAL_DRIVER"):
            app.run()  # a browser tab of `elicit-tui web`: the driver talks over the pipes
        else:
            with streams_on_terminal():
                app.run()
    except NoTerminalError as error:
        front_end.close()
        print(f"elicit-tui attach: {error}", file=sys.stderr)
        return NO_INBOX
    finally:
        front_end.close()
    return app.return_code or 0

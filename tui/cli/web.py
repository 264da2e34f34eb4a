"""`elicit-tui web [URL]`: answer an inbox's questions from a browser (one front end per tab)."""

from __future__ import annotations

import argparse
import contextlib
import signal
import socket
import sys
from typing import TYPE_CHECKING

from tui.cli.inbox_url_option import add_inbox_url_options, inbox_url
from tui.cli.kinds_note import KINDS_NOTE
from tui.cli.notify_option import add_notify_option
from tui.cli.token_option import add_token_option

if TYPE_CHECKING:
    from tui.front_ends.web import WebFrontEnds

HOST = "127.0.0.1"
DEFAULT_PORT = 8766


def add_web_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `web` on the `elicit-tui` parser."""
    web = commands.add_parser(
        "web",
        help="answer an inbox's questions from a browser (needs the `web` extra)",
        description="Serve the attach front end to browsers on http://127.0.0.1:PORT/: each "
        "tab is one front end of the inbox. Open the link it prints; it works once and "
        "leaves a cookie, so the page's address carries no secret. From another machine or "
        "a phone, go through `ssh -L` or a reverse proxy with TLS.",
        epilog=KINDS_NOTE,
    )
    add_inbox_url_options(web, "the inbox (default: $ELICIT_TUI_URL, else local)")
    add_token_option(web)
    web.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"default: {DEFAULT_PORT}; 0 picks one"
    )
    web.add_argument(
        "--host",
        default=HOST,
        help=f"the address to listen on (default: {HOST}; anything else is plain HTTP on a "
        "network: put a TLS reverse proxy in front)",
    )
    web.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name browsers may use besides this machine's (a reverse proxy's)",
    )
    add_notify_option(web)
    web.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        from tui.front_ends.web import WebFrontEnds
    except ImportError as error:
        print(
            f"elicit-tui web needs textual-serve ({error.name} is not installed): "
            "pip install 'elicit-tui[web]'",
            file=sys.stderr,
        )
        return 1
    import asyncio  # here, not with the parser of every `elicit-tui` command

    from tui.front_ends.remote import InboxRefused, InboxUnreachable, RemoteFrontEnd
    from tui.inbox.discovery import find_inbox

    try:
        address = find_inbox(inbox_url(args), args.token)
    except ValueError as error:
        print(f"elicit-tui web: {error}", file=sys.stderr)
        return 1
    probe = RemoteFrontEnd(address.base, address.token, "elicit-tui web")
    try:
        probe.connect()
    except (InboxRefused, InboxUnreachable) as error:
        print(f"elicit-tui web: {error}", file=sys.stderr)
        return 2 if isinstance(error, InboxRefused) else 1
    finally:
        probe.close()
    try:
        listener = socket.create_server((args.host, args.port))
    except OSError as error:
        print(f"elicit-tui web: cannot listen on {args.host}:{args.port} ({error.strerror})")
        return 1
    server = WebFrontEnds(
        address.base,
        # A token from the file `serve` writes is left for each tab to read there: a tab
        # opened, or reconnecting, after the inbox restarted reads the new one.
        None if address.token_saved else address.token,
        listener,
        allowed_hosts=frozenset(args.allow_host),
        say=lambda text: print(text, flush=True),
        notify_command=args.notify,
    )
    print(f"elicit-tui web for the inbox at {address.base}", flush=True)
    if args.host != HOST:
        print("  (not on loopback: plain HTTP on the network; put TLS in front)", flush=True)
    print(f"Open once in your browser: {server.login_link()}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve_until_stopped(server))
    return 0


STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
"""What stops `web`, every tab's front end with it: Ctrl+C, `kill`, its terminal closing."""


async def _serve_until_stopped(server: WebFrontEnds) -> None:
    """Serve until one of `STOP_SIGNALS` arrives, also where SIGINT was ignored (started in
    the background by a shell without job control): the tabs' processes do not get it from
    the terminal, as they run in process groups of their own."""
    import asyncio

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            with contextlib.suppress(
                NotImplementedError
            ):  # Windows: Ctrl+C stays KeyboardInterrupt
                loop.add_signal_handler(number, stop.set)
    await server.run(stop)

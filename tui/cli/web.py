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
from tui.core.ended_from_outside import EndedFromOutside

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
        "leaves a cookie, so the page's address carries no secret. Printed to no terminal (a "
        "log, a pipe), the link is left out: `elicit-tui web --link --port PORT` prints it. "
        "From another machine or a phone, go through `ssh -L` or a reverse proxy with TLS.",
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
    web.add_argument(
        "--link",
        action="store_true",
        help="print the login link of the `web` running on --port (from this config folder) "
        "and exit",
    )
    add_notify_option(web)
    web.set_defaults(handler=_run)


def _print_link(port: int) -> int:
    from tui.front_ends.web_link import link_file, saved_link

    link = saved_link(port)
    if link is None:
        print(
            f"elicit-tui web: no login link in {link_file(port)}: is `elicit-tui web --port "
            f"{port}` running, with this config folder?",
            file=sys.stderr,
        )
        return 1
    print(link)
    return 0


def _run(args: argparse.Namespace) -> int:
    if args.link:
        return _print_link(args.port)
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
    port = listener.getsockname()[1]
    doorman = _Doorman(port, on_terminal=sys.stdout.isatty())
    server = WebFrontEnds(
        address.base,
        # A token from the file `serve` writes is left for each tab to read there: a tab
        # opened, or reconnecting, after the inbox restarted reads the new one.
        None if address.token_saved else address.token,
        listener,
        allowed_hosts=frozenset(args.allow_host),
        logged_in=doorman.logged_in,
        notify_command=args.notify,
    )
    try:
        if not doorman.keep(server.login_link()):
            listener.close()
            return 1
        print(f"elicit-tui web for the inbox at {address.base}", flush=True)
        if args.host != HOST:
            print("  (not on loopback: plain HTTP on the network; put TLS in front)", flush=True)
        print(doorman.first(server.login_link(), server.address), flush=True)
        stopped_by = asyncio.run(_serve_until_stopped(server))
    finally:
        doorman.leave()
    # Its tabs' front ends ended, the process ends as that signal ends one (exit status
    # 128 + its number to a shell, as `serve`), not as if it had finished its work.
    raise EndedFromOutside(stopped_by)


class _Doorman:
    """Hands out the login links: printed to a terminal; to a log or a pipe, which others may
    read, left out, with the command that prints them (`--link`, from the file kept for it)."""

    def __init__(self, port: int, *, on_terminal: bool) -> None:
        self._port = port
        self._on_terminal = on_terminal
        self._how = f"`elicit-tui web --link --port {port}` prints it"

    def keep(self, link: str) -> bool:
        """Keep `link` for `--link`; False (said why) if no link can reach anyone."""
        from tui.front_ends.web_link import link_file, save_link

        try:
            save_link(self._port, link)
        except OSError as error:
            if self._on_terminal:
                return True
            print(
                f"elicit-tui web: the login link could not be kept in {link_file(self._port)} "
                f"({error.strerror}) and is not printed to no terminal: run `web` in one",
                file=sys.stderr,
            )
            return False
        return True

    def first(self, link: str, address: str) -> str:
        """What `web` prints as it starts, for the first browser."""
        if self._on_terminal:
            return f"Open once in your browser: {link}"
        return (
            f"Listening on {address}: printed to no terminal, the login link is left out: "
            f"{self._how}"
        )

    def logged_in(self, link: str) -> None:
        """A browser used the last link: `link` is the one for the next."""
        self.keep(link)
        if self._on_terminal:
            print(f"A browser logged in. The link for another one: {link}", flush=True)
        else:
            print(f"A browser logged in. The link for another one: {self._how}", flush=True)

    def leave(self) -> None:
        """`web` stops: its link lets no one in any more."""
        from tui.front_ends.web_link import drop_link

        with contextlib.suppress(OSError):
            drop_link(self._port)


STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
"""What stops `web`, every tab's front end with it: Ctrl+C, `kill`, its terminal closing."""


async def _serve_until_stopped(server: WebFrontEnds) -> int:
    """Serve until one of `STOP_SIGNALS` arrives, also where SIGINT was ignored (started in
    the background by a shell without job control): the tabs' processes do not get it from
    the terminal, as they run in process groups of their own. Returns the signal's number."""
    import asyncio

    stop = asyncio.Event()
    stopped_by: list[int] = []

    def stopping(number: int) -> None:
        stopped_by.append(number)
        stop.set()

    loop = asyncio.get_running_loop()
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            with contextlib.suppress(
                NotImplementedError
            ):  # Windows: Ctrl+C stays KeyboardInterrupt
                loop.add_signal_handler(number, stopping, number)
    await server.run(stop)
    return stopped_by[0]

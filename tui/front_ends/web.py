"""`elicit-tui web`: the attach front end in a browser, through textual-serve, behind a door.

textual-serve runs a command per browser tab and relays its screen over a websocket; it
checks no token and no Origin, builds an absolute websocket URL and links web fonts from the
internet. This server closes each of those gaps:

- Nothing is served without a session cookie. The login link carries a code that works
  once: it sets an HttpOnly, SameSite=Strict cookie and redirects to the same address
  without the code (and `web` is told the next link, for another browser). No request is
  logged, so the code reaches no log.
- Every request (the page, the websocket, anything else) must name a local host, or one
  allowed with `--allow-host`, in Host, and come from the page's own origin when it says
  where it comes from (Origin); only GET is served.
- The page builds the websocket's URL from its own address and loads the font from here:
  it works offline, through `ssh -L` on any port and behind a reverse proxy with TLS.

Each tab runs `elicit-tui attach` as a front end of its own ("browser 1", "browser 2", ...)
on this machine: a secret typed in the browser goes to this machine's inbox and keyring. Its
process, in a process group of its own, ends with its tab (asked to quit, then ended) and
with the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import logging
import os
import secrets
import shlex
import signal
import socket
import sys
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

COOKIE = "elicit_web_{port}"
"""The session cookie's name: one per port, as a browser keeps cookies per host, not per port
(with one name, logging in to a second `web` on this machine logged the first one's tab out)."""
LOGIN_PARAMETER = "token"
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
PAGE = Path(__file__).parent / "web_page"
FONTS = Path(__file__).parent.parent / "render" / "fonts"
"""DejaVu Sans Mono, which the page's font (Roboto Mono) falls back to for the characters it
has no glyph for: ✔, ⚙, ⏎, block elements (and the box it draws for a control picture, ␛)."""
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' 'unsafe-inline'; "
        "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
}
"""On every response: nothing cached, no address leaked to another site, never in a frame,
nothing loaded or contacted but this server, and a page opened from here (a link a question
asked to open) with no hold on this one (`window.opener`)."""

QUIT_GRACE = 3.0
"""Seconds a tab's front end has to quit once its tab closed (or the server stops), as any
attach that quits does (the questions left waiting in the inbox), before its process group is
sent SIGTERM."""

TERM_GRACE = 2.0
"""Seconds its process group has after SIGTERM before SIGKILL."""

OUTPUT_GRACE = 2.0
"""Seconds to read what a front end's process wrote before it ended, once it has."""

_log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
LinkTold = Callable[[str], None]


def host_name(host: str) -> str:
    """The name in a Host header (`name`, `name:port`, `[v6]:port`), lower-cased."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class _AttachService(AppService):
    """One tab's `elicit-tui attach`, with the inbox's token in its environment (never on its
    command line, which other local users may read).

    Its process is started without a shell, in a session (so a process group) of its own: a
    Ctrl+C in the terminal of `web` reaches `web` only, and `stop` can end the whole group."""

    def __init__(self, argv: list[str], environment: dict[str, str], **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self._argv = argv
        self._extra = environment
        self._stopping = asyncio.Lock()

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return {**super()._build_environment(width, height), **self._extra}

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        self._process = process = await asyncio.create_subprocess_exec(
            *self._argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width, height),
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        await super().run()
        # Ended without saying so (it could not start: no inbox, a token refused): the tab's
        # connection closes too, and the page offers to attach again.
        await self.remote_close()

    async def stop(self) -> None:
        """End the front end: asked to quit, as any attach that quits (the questions stay
        waiting in the inbox); still running after `QUIT_GRACE` seconds, its process group is
        sent SIGTERM, then SIGKILL. textual-serve's own waits for the process for ever."""
        async with self._stopping:  # the tab's handler and the server's shutdown both call it
            task, self._task = self._task, None
            if task is None:
                return
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
            await self.send_meta({"type": "quit"})
            if self._process is not None:
                await _end_process(self._process)
            with contextlib.suppress(asyncio.TimeoutError):
                # At its end, or held open by a process it left behind: given up on (cancelled).
                await asyncio.wait_for(task, OUTPUT_GRACE)


async def _end_process(process: Process) -> None:
    """Wait `QUIT_GRACE` seconds for `process` to end, then end its process group."""
    for kill, grace in ((None, QUIT_GRACE), (False, TERM_GRACE), (True, 5.0)):
        if kill is not None:
            _signal_group(process, kill=kill)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(process.wait(), grace)
            return
    _log.error("a browser tab's front end (pid %d) did not end", process.pid)


def _signal_group(process: Process, *, kill: bool) -> None:
    """SIGTERM (SIGKILL if `kill`) to the process group `process` leads."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if sys.platform == "win32":
            process.kill() if kill else process.terminate()
        else:
            os.killpg(process.pid, signal.SIGKILL if kill else signal.SIGTERM)


class WebFrontEnds(Server):
    """Serves the attach front end of the inbox at `inbox_url` to browsers, one per tab, on
    `listener` (a socket bound already, so a busy port is reported before anything starts).

    `token` is the inbox's (given to each tab's process only); `allowed_hosts` are host names
    besides this machine's that a browser may use (a reverse proxy's); `logged_in` is called
    after each login with the link for the next browser.
    """

    def __init__(
        self,
        inbox_url: str,
        token: str | None,
        listener: socket.socket,
        *,
        allowed_hosts: frozenset[str] = frozenset(),
        logged_in: LinkTold,
        notify_command: str | None = None,
    ) -> None:
        super().__init__(command="elicit-tui attach", title="elicit-tui")
        self.inbox_url = inbox_url
        self.allowed_hosts = LOCAL_NAMES | {name.lower() for name in allowed_hosts}
        self._token = token
        self._notify_command = notify_command
        self._logged_in = logged_in
        self._login_code = secrets.token_urlsafe(24)
        self._sessions: set[str] = set()
        self._tabs = 0
        self._services: set[_AttachService] = set()
        self._listener = listener
        host, port = listener.getsockname()[:2]
        self.address = f"http://{f'[{host}]' if ':' in host else host}:{port}/"
        """Where the server listens: http://HOST:PORT/."""
        self._cookie = COOKIE.format(port=port)

    # -- the door ---------------------------------------------------------------------

    def login_link(self) -> str:
        """The link that lets one browser in, once."""
        return f"{self.address}?{LOGIN_PARAMETER}={self._login_code}"

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        host = request.headers.get("Host", "")
        if host_name(host) not in self.allowed_hosts:
            return _refusal(421, "This address is not one elicit-tui web answers to.")
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            return _refusal(403, "Requests from other sites are refused.")
        if request.method not in ("GET", "HEAD"):
            return _refusal(405, "Only the page and its websocket are served here.")
        session = request.cookies.get(self._cookie, "")
        logged_in = any(hmac.compare_digest(session, known) for known in self._sessions)
        if LOGIN_PARAMETER in request.query:
            if logged_in:
                # This browser is in already (a link used again from its history): the page,
                # the code left unused for the next browser.
                return _to_page()
            return self._log_in(request)
        if not logged_in and session:
            # A session of a server before this one: logins do not outlive a restart.
            return _refusal(
                401,
                "elicit-tui web has restarted since this page was opened: open the link it"
                " printed since.",
            )
        if not logged_in:
            return _refusal(
                401, "Open the link that `elicit-tui web` printed to use this page here."
            )
        response = await handler(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    def _log_in(self, request: web.Request) -> web.StreamResponse:
        code = request.query.get(LOGIN_PARAMETER, "")
        if not hmac.compare_digest(code, self._login_code):
            return _refusal(401, "This link was used already, or is wrong: ask for a new one.")
        # Once only: a link seen by someone else (a shoulder, a screen share) is spent.
        self._login_code = secrets.token_urlsafe(24)
        session = secrets.token_urlsafe(32)
        self._sessions.add(session)
        response = _to_page()
        secure = request.secure or request.headers.get("X-Forwarded-Proto") == "https"
        response.set_cookie(
            self._cookie, session, httponly=True, samesite="Strict", secure=secure, path="/"
        )
        self._logged_in(self.login_link())
        return response

    # -- textual-serve, adjusted --------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(PAGE))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.static("/static", self.statics_path, name="static"),
                web.static("/fonts", FONTS, name="fonts"),
            ]
        )
        return app

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        context = {"title": "elicit-tui", "font_size": _font_size(request.query.get("fontsize"))}
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    def _tab_command(self) -> tuple[list[str], dict[str, str]]:
        self._tabs += 1
        args = [sys.executable, "-m", "tui.cli", "attach", self.inbox_url]
        args += ["--name", f"browser {self._tabs}"]
        if self._notify_command:
            args += ["--notify", self._notify_command]
        # The page turns OSC 9 into a browser notification (see web_page/app_index.html).
        environment = {"ELICIT_TUI_OSC_NOTIFY": "9"}
        if self._token is not None:
            environment["ELICIT_TUI_TOKEN"] = self._token
        return args, environment

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: its own `elicit-tui attach`, until the tab closes (answering nothing)."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = _number(request.query.get("width"), 80)
        height = _number(request.query.get("height"), 24)
        argv, environment = self._tab_command()
        service: _AttachService | None = None
        try:
            await websocket.prepare(request)
            service = _AttachService(
                argv,
                environment,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
            )
            self._services.add(service)
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception:
            _log.exception("a browser tab's front end failed")
        finally:
            if service is not None:
                await service.stop()
                self._services.discard(service)
        return websocket

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Serve until `stop` is set (or cancelled), then end every tab's front end; nothing is
        logged per request."""
        runner = web.AppRunner(await self._make_app(), access_log=None)
        await runner.setup()
        site = web.SockSite(runner, self._listener)
        await site.start()
        try:
            await (stop or asyncio.Event()).wait()
        finally:
            # Before the connections close: textual-serve would wait for each process for
            # ever, and the server for each connection's handler a minute.
            await self.end_tabs()
            await runner.cleanup()

    async def end_tabs(self) -> None:
        """End every tab's front end (each tab's page then says it was closed)."""
        services = list(self._services)
        await asyncio.gather(*(service.stop() for service in services), return_exceptions=True)


def _font_size(value: str | None) -> int:
    return min(max(_number(value, 16), 8), 40)


def _number(value: str | None, default: int) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


def _to_page() -> web.Response:
    """Back to this address without the login code (relative: whatever the browser calls it)."""
    response = web.HTTPSeeOther(location="./")
    response.headers.update(SECURITY_HEADERS)
    return response


def _refusal(status: int, text: str) -> web.Response:
    body = f"<!DOCTYPE html><title>elicit-tui</title><p>{html.escape(text)}</p>"
    response = web.Response(status=status, text=body, content_type="text/html")
    response.headers.update(SECURITY_HEADERS)
    return response

"""Where the inbox is and the token it wants: one answer for every client that reaches it.

The URL comes from the flag, else `$ELICIT_TUI_URL`, else `http://127.0.0.1:8765`; the token
from the flag, else `$ELICIT_TUI_TOKEN`, else the `serve-token` file `elicit-tui serve` writes
(for an inbox on this machine only: another host is never sent this one's token).
The URL `serve` prints (`.../mcp`) and the bare base both work.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

from tui.core.http_url import http_url_parts, one_word
from tui.inbox.env_names import TOKEN_ENV, URL_ENV

DEFAULT_URL = "http://127.0.0.1:8765"
"""Where `elicit-tui serve` listens without `--port`."""

_PATH_CHARACTERS = "/%:@!$&'()*+,;=~"
"""What a URL's path may hold as it is besides letters and digits (RFC 3986), `%` of an
escape included: everything else is percent-encoded."""


@dataclass(frozen=True)
class InboxAddress:
    """How to reach one inbox: its base URL (no trailing slash, no `/mcp`) and its token."""

    base: str
    token: str | None
    token_saved: bool = False
    """Whether the token was read from the `serve-token` file, which `serve` writes anew at
    each start: a front end that outlives one inbox reads it again (`saved_token`)."""


def find_inbox(url: str | None = None, token: str | None = None) -> InboxAddress:
    """The inbox to ask: `url` and `token` where given, else the environment, else the defaults
    (the token then from the `serve-token` file; None if there is none). Raises ValueError
    naming the URL unless it is an http(s) URL with a host, and unless a header can carry the
    token (see `checked_token`)."""
    token = token or os.environ.get(TOKEN_ENV) or None
    base = inbox_base(url)
    if token is not None:
        return InboxAddress(base, checked_token(token))
    if not on_this_machine(base):
        # The file holds this machine's inbox's token: never sent to a host named elsewhere
        # (a project's $ELICIT_TUI_URL), which would then hold it.
        return InboxAddress(base, None)
    saved = saved_token()
    return InboxAddress(base, checked_token(saved), token_saved=saved is not None)


def on_this_machine(base: str) -> bool:
    """Whether the URL `base` names this machine by a loopback address (or `localhost`)."""
    host = urlsplit(base).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name, not an address
        return False


def inbox_base(url: str | None = None) -> str:
    """The base URL of the inbox to ask: `url` if given, else the environment, else the
    default (see `find_inbox`); raises ValueError naming the URL unless it is an http(s) URL
    with a host."""
    base = (url or os.environ.get(URL_ENV) or DEFAULT_URL).strip().rstrip("/")
    parts = http_url_parts(base)
    # A path HTTP cannot send as it is typed (`/ü`) is sent percent-encoded, as browsers do.
    base = urlunsplit(parts._replace(path=quote(parts.path, safe=_PATH_CHARACTERS)))
    return base.removesuffix("/mcp")


def checked_token(token: str | None) -> str | None:
    """`token` as given, if an HTTP header can carry it; else ValueError saying what is wrong
    with it without quoting it (it is a credential: an error message may end up in a log)."""
    if token is not None and not one_word(token):
        raise ValueError(
            "the inbox token has a space or a control character: no HTTP header can carry it"
        )
    if token is not None and not token.isascii():
        raise ValueError("the inbox token has a character outside ASCII: no HTTP header carries it")
    return token


def listening(base: str, timeout: float = 2.0) -> bool:
    """Whether anything accepts a connection at the inbox at `base` (a URL `inbox_base`
    gave): a look that takes one connection attempt, for a client that would otherwise load
    everything asking takes only to find nobody there. True says nothing about what listens."""
    parts = urlsplit(base)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname or "", port), timeout=timeout):
            return True
    except OSError:  # refused, unreachable, unresolvable, no answer in time
        return False


def saved_token() -> str | None:
    """The token in the `serve-token` file, if there is one."""
    from tui.core.config_folder import TOKEN_FILE, config_folder

    try:
        text = (config_folder() / TOKEN_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return text or None

"""Where the inbox is and the token it wants: one answer for every client that reaches it.

The URL comes from the flag, else `$ELICIT_TUI_URL`, else `http://127.0.0.1:8765`; the token
from the flag, else `$ELICIT_TUI_TOKEN`, else the `serve-token` file `elicit-tui serve` writes.
The URL `serve` prints (`.../mcp`) and the bare base both work.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

URL_ENV = "ELICIT_TUI_URL"
"""Names the inbox, as `--to` does."""

TOKEN_ENV = "ELICIT_TUI_TOKEN"
"""The bearer token, as `--token` does."""

DEFAULT_URL = "http://127.0.0.1:8765"
"""Where `elicit-tui serve` listens without `--port`."""


@dataclass(frozen=True)
class InboxAddress:
    """How to reach one inbox: its base URL (no trailing slash, no `/mcp`) and its token."""

    base: str
    token: str | None

    def headers(self) -> dict[str, str]:
        """The headers every request to the inbox carries."""
        if self.token is None:
            return {}
        return {"Authorization": f"Bearer {self.token}"}


def find_inbox(url: str | None = None, token: str | None = None) -> InboxAddress:
    """The inbox to ask: `url` and `token` where given, else the environment, else the defaults
    (the token then from the `serve-token` file; None if there is none)."""
    base = (url or os.environ.get(URL_ENV) or DEFAULT_URL).strip().rstrip("/")
    base = base.removesuffix("/mcp")
    return InboxAddress(base, token or os.environ.get(TOKEN_ENV) or _saved_token())


def _saved_token() -> str | None:
    from tui.mcp.auth import TOKEN_FILE
    from tui.secrets.keyring_store import index_path

    try:
        text = (index_path().parent / TOKEN_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return text or None

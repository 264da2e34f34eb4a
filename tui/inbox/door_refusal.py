"""What a person is told when the inbox's door turns a call away, or what answers is no inbox.

The door answers 401 (no token, or a wrong one), 403 (a foreign Origin) and 421 (a Host that
is not 127.0.0.1 or localhost), each with a JSON body naming the fault; what else listens on
a port (`elicit-tui web`, another program) answers otherwise, and is named for what it is.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from tui.inbox.discovery import InboxAddress, on_this_machine
from tui.inbox.env_names import TOKEN_ENV

DOOR = frozenset({401, 403, 421})
"""The statuses the door answers with before a call reaches the inbox."""


def door_refusal(address: InboxAddress, status: int, body: dict[str, Any]) -> str:
    """Why the call to the inbox at `address` (sending its token) was answered `status` with
    `body` (its JSON object, {} if none), in words that say what to do: for a status in `DOOR`."""
    base = address.base
    if status == 421:
        return only_local(base)
    if not isinstance(body.get("error"), str):
        return (
            f"what answers at {base} is not an elicit-tui inbox (HTTP {status}; a wrong port, "
            "`elicit-tui web`'s?): use the URL `elicit-tui serve` printed"
        )
    if status == 403:
        return f"the inbox at {base} refused the call: {body['error']}"
    if address.token is None:
        return no_token(base)
    if address.token_saved:
        return (
            f"the inbox at {base} refused the token in {_token_file()} (an earlier inbox's? "
            f"pass --token or set ${TOKEN_ENV})"
        )
    return (
        f"the inbox at {base} refused the token given (--token or ${TOKEN_ENV}): a wrong one? "
        "`elicit-tui token` prints the inbox's, on its machine"
    )


def no_token(base: str) -> str:
    """What to say when no token was found for the inbox at `base`, naming where it was looked for."""
    given = f"none given with --token, none in ${TOKEN_ENV}"
    if not on_this_machine(base):
        return (
            f"no token for the inbox at {base}: {given} (the serve-token file is read for a "
            "127.0.0.1 or localhost URL only)"
        )
    return (
        f"no token for the inbox at {base}: {given}, none in {_token_file()} (`elicit-tui "
        "serve` writes it there as it starts, for the same user and config folder)"
    )


def only_local(base: str) -> str:
    """What to say when the inbox at `base` turned the host name in its URL away."""
    parts = urlsplit(base)
    port = f":{parts.port}" if parts.port else ""
    local = urlunsplit(parts._replace(netloc=f"127.0.0.1{port}"))
    return f"the inbox answers only to 127.0.0.1 or localhost, not to {parts.hostname}: use {local}"


def _token_file() -> str:
    from tui.core.config_folder import TOKEN_FILE, config_folder

    return str(config_folder() / TOKEN_FILE)

"""The client of `POST /v1/hooks/{cli}` (`tui.inbox.hook_api`): what `elicit-tui hook` runs
once an inbox listens. Only the standard library: a CLI waits for this on every tool call.

Only a decided JSON object from the inbox is printed, once the inbox proved it holds the token
(`tui.core.signed_request`); anything else decides nothing, and the inbox's note reaches the
terminal as one literal line.
"""

from __future__ import annotations

import json
from http.client import HTTPException, IncompleteRead, RemoteDisconnected
from typing import Any

from tui.core.limits import MAX_BODY
from tui.core.signed_request import NotProven
from tui.core.terminal_text import literal_line
from tui.inbox.discovery import InboxAddress
from tui.inbox.door_refusal import DOOR, door_refusal
from tui.inbox.held_call import Overdue, held_call, json_object

SILENCE = 5.0
"""Seconds without a byte from the inbox after which the hook gives up: a running inbox
answers at once and then sends a space every `HEARTBEAT`, a stopped one (Ctrl+Z) nothing."""

NO_ENDPOINT = (404, 405, 501)
"""What a server with no such endpoint answers a POST: not found, not allowed there (a web
front end), not implemented (a plain file server)."""

WENT_AWAY = "the inbox went away before it answered (did it exit, or restart?)"
"""Why a hook decides nothing when the inbox's connection ended before its answer."""


def run_in_inbox(
    name: str, text: str, address: InboxAddress, *, wait: float, give_up: float
) -> tuple[str, str]:
    """Run the hook of the CLI `name` on its input `text` in the inbox at `address`, the
    person given `wait` seconds: what to print, else "" and why nothing was decided. Gives up
    after `SILENCE` seconds without a byte from the inbox, or `give_up` seconds in all;
    hanging up withdraws the question."""
    # UTF-8, not \u escapes: a command in another script is sent at its own size.
    body = json.dumps({"input": text, "wait": wait}, ensure_ascii=False).encode()
    if len(body) > MAX_BODY:
        return "", (
            f"no decision: the hook input is over {MAX_BODY // 2**20} MiB as sent, the most "
            "the inbox takes"
        )
    path = f"/v1/hooks/{name}"
    try:
        status, answer = held_call(address, path, body, silence=SILENCE, give_up=give_up)
    except TimeoutError:
        return "", (
            f"no decision: the inbox sent nothing for {SILENCE:g} s (is it stopped, as by "
            "Ctrl+Z? one started before an upgrade needs a restart)"
        )
    except Overdue:
        return "", f"no decision: the inbox did not answer within {give_up:g} s"
    except NotProven as error:
        return "", f"no decision: {error}"
    except (IncompleteRead, RemoteDisconnected, ConnectionResetError, BrokenPipeError):
        return "", f"no decision: {WENT_AWAY}"
    except (OSError, HTTPException) as error:
        return "", f"the inbox did not answer ({type(error).__name__}: {error})"
    if status in DOOR:
        return "", f"no decision: {door_refusal(address, status, answer)}"
    if status in NO_ENDPOINT:
        return "", (
            f"no decision: no elicit-tui hook endpoint at {address.base}{path} (HTTP"
            f" {status}: not an elicit-tui inbox, or one started before an upgrade: restart it)"
        )
    output, note = answer.get("output"), answer.get("note")
    printed = _ascii_json_object(output)
    if status == 200 and answer.get("decided") is True and printed:
        return printed, ""
    if status == 200 and isinstance(note, str) and note:
        return "", literal_line(note)  # one line on a terminal, whatever the inbox sent
    said = answer.get("error")
    return "", f"no decision: the inbox answered {status}" + (f" ({said})" if said else "")


def _ascii_json_object(text: Any) -> str:
    """`text` as ASCII JSON if it is a JSON object as text, the only output a CLI's hook
    reads, else "". Escaped, it prints on any terminal encoding and means the same to a CLI."""
    data = json_object(text.encode()) if isinstance(text, str) else {}
    return json.dumps(data) if data else ""

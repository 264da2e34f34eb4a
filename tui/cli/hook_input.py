"""A coding-agent CLI's hook input, read from a stdin the CLI may never close.

The hook stops reading at the end of the first complete JSON value, so a caller that keeps
its end of the pipe open (a CLI, a wrapper script) cannot hold the hook, and so the agent.
"""

from __future__ import annotations

import json
import os
import threading

from tui.core.limits import MAX_BODY

INPUT_WITHIN = 5.0
"""Seconds from the start of reading within which the whole input must arrive: a CLI writes
it at once, so one that is still incomplete by then decides nothing."""


def read_hook_input(fd: int) -> bytes | None:
    """The bytes on `fd` up to the end of the first complete JSON value (whitespace after it
    not waited for), the end of the input, or `MAX_BODY` + 1 bytes, whichever comes first;
    None if none came within `INPUT_WITHIN` seconds."""
    read: list[bytes] = []
    failed: list[Exception] = []

    def run() -> None:
        try:
            read.append(_until_complete(fd))
        except Exception as error:  # raised again in the hook's thread, which says it
            failed.append(error)

    # A thread, not select(): select() takes no pipe on Windows. Left blocked, it ends with
    # the process (daemon), holding no lock: it reads the descriptor, not `sys.stdin`.
    reader = threading.Thread(target=run, name="hook-input", daemon=True)
    reader.start()
    reader.join(INPUT_WITHIN)
    if failed:
        raise failed[0]
    return read[0] if read else None


def _until_complete(fd: int) -> bytes:
    data = b""
    # More than the inbox takes is never sent (`run_in_inbox` says so): no need to read it.
    while len(data) <= MAX_BODY and not _holds_json_value(data):
        chunk = os.read(fd, MAX_BODY + 1 - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _holds_json_value(data: bytes) -> bool:
    """Whether `data` starts with a complete JSON value (after whitespace). A character cut
    in two at the end is no matter: a value never ends in one."""
    try:
        json.JSONDecoder().raw_decode(data.decode("utf-8", errors="replace").lstrip())
    except (ValueError, RecursionError):  # incomplete, or not JSON at all: the inbox says which
        return False
    return True

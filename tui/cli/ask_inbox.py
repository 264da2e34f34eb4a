"""`elicit-tui ask --to URL`: the question goes to the inbox, and `ask` waits for its answer.

Nothing is drawn here, so no terminal is needed: a hook, a CI job or a container can ask.
"""

from __future__ import annotations

import sys

from tui.core.models import ElicitationResult, Request


def ask_inbox(request: Request, url: str | None, token: str | None) -> ElicitationResult:
    """Ask `request` in the inbox at `url` (found as `find_inbox` does) and wait for the result.

    Ctrl+C withdraws it (reason `interrupted`); an inbox that cannot be reached, or goes away,
    gives `cancel` (reason `inbox_unreachable`), said on stderr.
    """
    from tui.inbox.remote_queue import (
        INBOX_REFUSED,
        INBOX_UNREACHABLE,
        InboxRefusedError,
        RemoteQueue,
    )

    queue = RemoteQueue(url, token)
    try:
        result = queue.ask(request)
    except KeyboardInterrupt:
        return ElicitationResult(action="cancel", reason="interrupted")
    except InboxRefusedError as refused:
        print(f"elicit-tui ask: the inbox refused the request: {refused}", file=sys.stderr)
        return ElicitationResult(action="cancel", reason=INBOX_REFUSED)
    where = queue.address.base
    if result.reason == INBOX_UNREACHABLE:
        print(
            f"elicit-tui ask: no inbox answers at {where} (not running, or it stopped); "
            "start one with `elicit-tui serve`",
            file=sys.stderr,
        )
    elif result.reason == INBOX_REFUSED:
        print(
            f"elicit-tui ask: the inbox at {where} refused the request (a wrong token? "
            "see --token and ELICIT_TUI_TOKEN)",
            file=sys.stderr,
        )
    return result

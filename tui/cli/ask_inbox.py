"""`elicit-tui ask --to URL`: the question goes to the inbox, and `ask` waits for its answer.

Nothing is drawn here, so no terminal is needed: a hook, a CI job or a container can ask.
"""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING

from tui.core.ended_from_outside import EndedFromOutside, signals_raise
from tui.core.models import KEYRING_UNAVAILABLE, ElicitationResult, Request

if TYPE_CHECKING:
    from tui.inbox.remote_queue import RemoteQueue


class InvalidInInbox(ValueError):
    """The inbox refused the request as invalid (HTTP 422), or it cannot be sent (it holds a
    `SecretStr`): exit as for any invalid request."""


SAY_WAITING_AFTER = 0.5
"""Seconds a question waits unanswered before `ask` says, on a terminal, where it waits."""


def ask_inbox(request: Request, url: str | None, token: str | None) -> ElicitationResult:
    """Ask `request` in the inbox at `url` (found as `find_inbox` does) and wait for the result.

    Ctrl+C withdraws it (reason `interrupted`), and so does SIGTERM (`kill`, `timeout`; reason
    `terminated`); an inbox that cannot be reached, or goes away, gives `cancel` (reason
    `inbox_unreachable`), said on stderr, and so does a server that did not prove it is the
    inbox (`inbox_not_proven`).
    """
    from tui.inbox.remote_queue import (
        INBOX_NOT_PROVEN,
        INBOX_REFUSED,
        INBOX_UNREACHABLE,
        InboxRefusedError,
        RemoteQueue,
    )
    from tui.inbox.wire import SecretInRequest

    queue = RemoteQueue(url, token)
    try:
        with signals_raise((signal.SIGTERM,)):
            result = _answer(queue, request)
    except KeyboardInterrupt:
        return ElicitationResult(action="cancel", reason="interrupted")
    except EndedFromOutside:
        return ElicitationResult(action="cancel", reason="terminated")
    except SecretInRequest as secret:
        raise InvalidInInbox(str(secret)) from None
    except InboxRefusedError as refused:
        if refused.status == 422:
            raise InvalidInInbox(f"the inbox refused the request: {refused}") from None
        said = (
            refused
            if refused.status not in (409, 413)
            else f"the inbox refused the request: {refused}"
        )
        print(f"elicit-tui ask: {said}", file=sys.stderr)
        return ElicitationResult(action="cancel", reason=INBOX_REFUSED)
    where = queue.address.base
    if result.reason == INBOX_UNREACHABLE:
        print(
            f"elicit-tui ask: no inbox answers at {where} (not running, or it stopped); "
            "start one with `elicit-tui serve`",
            file=sys.stderr,
        )
    elif result.reason == INBOX_NOT_PROVEN:
        print(
            f"elicit-tui ask: the server at {where} did not prove it is the inbox (it does not "
            "hold its token: another program on the inbox's port?); its answer was not used",
            file=sys.stderr,
        )
    elif result.reason == KEYRING_UNAVAILABLE and not result.accepted:
        print(
            f"elicit-tui ask: the inbox at {where} has no usable keyring to store the secret "
            "in, so it was not kept (without --store the answer holds the secret itself)",
            file=sys.stderr,
        )
    elif result.reason == INBOX_REFUSED:
        print(f"elicit-tui ask: {queue.refusal}", file=sys.stderr)
    return result


def _answer(queue: RemoteQueue, request: Request) -> ElicitationResult:
    """`queue.ask(request)`, saying on a terminal where the question waits once it has waited
    `SAY_WAITING_AFTER` seconds unanswered: a command that prints nothing looks hung. Refused,
    unreachable or answered at once, nothing is said."""
    future = queue.submit(request)
    try:
        try:
            return future.result(timeout=SAY_WAITING_AFTER)
        except TimeoutError:
            if sys.stderr.isatty():
                print(
                    f"elicit-tui ask: waiting for an answer at {queue.address.base}"
                    " (Ctrl+C withdraws it)",
                    file=sys.stderr,
                    flush=True,
                )
            return future.result()
    except BaseException:
        # As `queue.ask` does: an interrupted asker withdraws its question.
        if future.cancel():
            queue.cancel(request.id)
        raise

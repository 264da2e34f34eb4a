"""What a framework adapter raises when the person cancels: the agent's run stops there."""

from __future__ import annotations

from tui.core.models import ElicitationResult, Request


class RunCancelled(Exception):
    """The person cancelled a question or an approval (Escape, quit, timeout), so the run stops.

    `request` is what was asked and `result` how it ended (`result.reason` says why when the
    person did not: `timeout`, `closed`, ...).
    """

    def __init__(self, request: Request, result: ElicitationResult) -> None:
        why = f" ({result.reason})" if result.reason else ""
        super().__init__(f"the person cancelled {request.message!r}{why}")
        self.request = request
        self.result = result


def raise_if_cancelled(request: Request, result: ElicitationResult) -> ElicitationResult:
    """`result`, unless it is a cancel: then `RunCancelled`."""
    if result.action == "cancel":
        raise RunCancelled(request, result)
    return result

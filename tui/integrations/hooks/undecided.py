"""Why a hook run decided nothing, as its note on stderr says it. Light to load, as `clis`."""

from __future__ import annotations

CANCELLED_ALL = "cancelled_all"
"""The reason a hook's note gives a question that "cancel all" (Ctrl+X in a front end)
ended: the inbox's API says `closed` for it, as for the inbox closing."""

_CANCELLED_BECAUSE = {
    "timeout": "nobody answered in time",
    "closed": "the inbox closed",
    CANCELLED_ALL: "a person cancelled every waiting question (Ctrl+X in a front end)",
    "cancelled_by_agent": "the question was withdrawn",
    "inbox_unreachable": "no inbox could be reached",
    "inbox_refused": "the same call waits in the inbox already, asked by another run of the hook",
}


def undecided(reason: str | None) -> str:
    """The note of a run whose question was cancelled with `reason` (a result's reason)."""
    reason = reason or ""
    return f"no decision: {_CANCELLED_BECAUSE.get(reason, reason or 'the person cancelled')}"

"""The four answers to a tool approval, as every front end words them (the dialog, plain mode)."""

from __future__ import annotations

from typing import NamedTuple

DENY = "deny"
"""The value of the answer that denies the call (the others are its scopes)."""


class ApprovalAnswer(NamedTuple):
    value: str
    """`once`, `session`, `always`, or `DENY`."""
    label: str
    hint: str
    offered: bool


def approval_answers(
    reach: str, *, not_offered: str | None = None, not_covered: str | None = None
) -> list[ApprovalAnswer]:
    """The answers, in their order (numbered from 1): `reach` is what allowing for the session
    would allow; where no rule may be made, `not_offered` says why, and 2 and 3 are not offered;
    where the rule would not cover this call made again, `not_covered` says why, before `reach`."""
    remembers = not_offered is None
    if not remembers:
        session = f"not offered: {not_offered}"
    elif not_covered is not None:
        session = f"not this call again ({not_covered}): {reach}"
    else:
        session = reach
    return [
        ApprovalAnswer("once", "Allow once", "just this call", True),
        ApprovalAnswer("session", "Allow for this session", session, remembers),
        ApprovalAnswer(
            "always",
            "Always allow",
            "as 2, and remembered" if remembers else f"not offered: {not_offered}",
            remembers,
        ),
        ApprovalAnswer(DENY, "Deny", "tell the agent no, and why", True),
    ]

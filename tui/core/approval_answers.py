"""The four answers to a tool approval, as every front end words them (the dialog, plain mode)."""

from __future__ import annotations

from typing import NamedTuple

DENY = "deny"
"""The value of the answer that denies the call (the others are its scopes)."""

NOT_OFFERED = "not offered: the call holds a secret given earlier"
"""The hint of "for this session" and "always" where a rule would keep a secret given earlier."""


class ApprovalAnswer(NamedTuple):
    value: str
    """`once`, `session`, `always`, or `DENY`."""
    label: str
    hint: str
    offered: bool


def approval_answers(reach: str, *, remembers: bool) -> list[ApprovalAnswer]:
    """The answers, in their order (numbered from 1): `reach` is what allowing for the session
    would allow; unless a rule may be made (`remembers`), 2 and 3 are not offered."""
    return [
        ApprovalAnswer("once", "Allow once", "just this call", True),
        ApprovalAnswer(
            "session", "Allow for this session", reach if remembers else NOT_OFFERED, remembers
        ),
        ApprovalAnswer(
            "always",
            "Always allow",
            "as 2, and remembered" if remembers else NOT_OFFERED,
            remembers,
        ),
        ApprovalAnswer(DENY, "Deny", "tell the agent no, and why", True),
    ]

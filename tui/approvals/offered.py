"""Whether a rule may be made from a tool call: front ends offer "for this session" and
"always" by it, and the inbox and the policy refuse them by it; and whether it would cover
the call itself, which front ends say. (No queue here: widgets ask.)"""

from __future__ import annotations

from tui.core.models import ToolApprovalRequest
from tui.secrets.redaction import holds_secret

HOLDS_A_SECRET = "the call holds a secret given earlier"
"""A rule would keep the secret in clear, on disk and in `approvals list`."""

NO_RULE_FOR_THE_CALL = "no rule could keep to this call"
"""The call asks to be allowed once only (`once_only`): a hook's shell call whose command is
not text, which a rule would allow whatever the command."""


def why_not_remembered(request: ToolApprovalRequest) -> str | None:
    """Why no rule may be made from `request`'s call, or None if one may."""
    if request.once_only:
        return NO_RULE_FOR_THE_CALL
    if holds_secret(request.rule_text()):
        return HOLDS_A_SECRET
    return None


def why_not_covered(request: ToolApprovalRequest) -> str | None:
    """Why the rule "for this session" and "always" would make from `request` does not cover
    the call itself (`it has &&`), which is then asked again when made again; or None."""
    remember = request.remember
    return None if remember is None else remember.why_unmatched(request.arguments)

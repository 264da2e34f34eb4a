"""Codex's `PermissionRequest` hook (shell commands, `apply_patch`, network access, MCP tools).

Input fields read: `hook_event_name`, `tool_name`, `tool_input` (`command` and the model's
`description` for shell calls), `session_id`, `turn_id`, `cwd`, `model`, `permission_mode`.
Output: `hookSpecificOutput.{hookEventName, decision.{behavior, message}}`. Codex's output
schema reserves `decision.updatedInput` and fails closed when it is present, so an approval
with edited arguments is written as a denial that gives the model those arguments to retry.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tui.integrations.hooks.clis import CLI_NAMES
from tui.integrations.hooks.flow import (
    Allow,
    PendingCall,
    ToolHookInput,
    Verdict,
    derived_call_id,
    pending_approval,
    permission_request_output,
    string_argument,
)

NAMING_ARGUMENTS = {"Bash": "command", "apply_patch": "command"}
"""The argument that says what a call of each built-in tool does."""

VARYING_ARGUMENTS: dict[str, tuple[str, ...]] = {}
"""What a call may change and still be covered by a rule made from another with the same
naming argument: nothing. Codex asks for network access as a `Bash` call of the same command,
its `description` naming the host (`network-access example.com`)."""


class CodexHookInput(ToolHookInput):
    """The fields of Codex's PermissionRequest input that an approval needs; others are ignored."""

    hook_event_name: Literal["PermissionRequest"]
    tool_use_id: str | None = Field(default=None, min_length=1)
    turn_id: str | None = None
    model: str | None = None
    permission_mode: str | None = None


class CodexHook:
    """`elicit-tui hook codex`: Codex's PermissionRequest hook."""

    cli = CLI_NAMES["codex"]

    def read(self, data: Any, *, wait: float) -> PendingCall:
        hook = CodexHookInput.model_validate(data)
        call_id = hook.tool_use_id or derived_call_id(
            "codex", hook.session_id, hook.turn_id, hook.tool_name, hook.tool_input
        )
        return pending_approval(
            hook,
            cli=self.cli,
            call_id=call_id,
            wait=wait,
            naming_arguments=NAMING_ARGUMENTS,
            varying_arguments=VARYING_ARGUMENTS,
            description=string_argument(hook.tool_input, "description"),
            # A patch shows as one, its lines marked, not as one JSON string of \n.
            diff=string_argument(hook.tool_input, "command")
            if hook.tool_name == "apply_patch"
            else None,
            # `updatedInput` is reserved: an edited allow is a deny asking for the edited call.
            edits_retried=True,
            metadata={"turn_id": hook.turn_id, "model": hook.model},
        )

    def can_update(self, call: PendingCall, arguments: dict[str, Any]) -> bool:
        return False

    def write(self, call: PendingCall, verdict: Verdict) -> dict[str, Any]:
        decision: dict[str, Any] = (
            {"behavior": "allow"}
            if isinstance(verdict, Allow)
            else {"behavior": "deny", "message": verdict.reason}
        )
        return permission_request_output(decision)

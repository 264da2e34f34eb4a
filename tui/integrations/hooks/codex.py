"""Codex's `PermissionRequest` hook (shell commands, `apply_patch`, network access, MCP tools).

Input fields read: `hook_event_name`, `tool_name`, `tool_input` (`command` and the model's
`description` for shell calls), `session_id`, `turn_id`, `cwd`, `model`, `permission_mode`.
Output: `hookSpecificOutput.{hookEventName, decision.{behavior, message}}`. Codex's output
schema reserves `decision.updatedInput` and fails closed when it is present, so an approval
with edited arguments is written as a denial that gives the model those arguments to retry.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tui.integrations.hooks.flow import Allow, PendingCall, Verdict, approval, derived_call_id

NAMING_ARGUMENTS = {"Bash": "command", "apply_patch": "command"}
"""The argument that says what a call of each built-in tool does."""


class CodexHookInput(BaseModel):
    """The fields of Codex's PermissionRequest input that an approval needs; others are ignored."""

    model_config = ConfigDict(extra="ignore")

    hook_event_name: Literal["PermissionRequest"]
    tool_name: str = Field(min_length=1)
    tool_input: dict[str, Any]
    tool_use_id: str | None = Field(default=None, min_length=1)
    session_id: str | None = None
    turn_id: str | None = None
    cwd: str | None = None
    model: str | None = None
    permission_mode: str | None = None


class CodexHook:
    """`elicit-tui hook codex`: Codex's PermissionRequest hook."""

    cli = "Codex"

    def read(self, data: Any, *, wait: float) -> PendingCall:
        hook = CodexHookInput.model_validate(data)
        call_id = hook.tool_use_id or derived_call_id(
            "codex", hook.session_id, hook.turn_id, hook.tool_name, hook.tool_input
        )
        description = hook.tool_input.get("description")
        request = approval(
            cli=self.cli,
            tool_name=hook.tool_name,
            arguments=hook.tool_input,
            call_id=call_id,
            wait=wait,
            naming_argument=NAMING_ARGUMENTS.get(hook.tool_name),
            cwd=hook.cwd,
            description=description if isinstance(description, str) else None,
            metadata={
                "hook_event_name": hook.hook_event_name,
                "session_id": hook.session_id,
                "turn_id": hook.turn_id,
                "model": hook.model,
            },
        )
        return PendingCall(request, hook.hook_event_name, hook.tool_input)

    def can_update(self, call: PendingCall, arguments: dict[str, Any]) -> bool:
        return False

    def write(self, call: PendingCall, verdict: Verdict) -> dict[str, Any]:
        decision: dict[str, Any] = (
            {"behavior": "allow"}
            if isinstance(verdict, Allow)
            else {"behavior": "deny", "message": verdict.reason}
        )
        return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}

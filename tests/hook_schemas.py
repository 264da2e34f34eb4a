"""Each CLI's documented permission-hook output, as strict pydantic models (unknown keys refused).

Written from the CLIs' own references: Claude Code's hooks reference (PreToolUse and
PermissionRequest decision control), Codex's `permission-request.command.output` schema, and
Gemini CLI's hooks reference (`BeforeTool`). A hook's stdout must validate against the model of
its event, and nothing else may be printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

INPUTS = Path(__file__).parent / "hook_inputs"
"""Recorded example inputs, one JSON file per CLI and event."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class _Common(_Strict):
    """Fields every Claude Code and Codex hook output may carry."""

    continue_: bool | None = Field(default=None, alias="continue")
    stopReason: str | None = None
    suppressOutput: bool | None = None
    systemMessage: str | None = None


class ClaudePreToolUseSpecific(_Strict):
    hookEventName: Literal["PreToolUse"]
    permissionDecision: Literal["allow", "deny", "ask", "defer"]
    permissionDecisionReason: str | None = None
    updatedInput: dict[str, Any] | None = None
    additionalContext: str | None = None


class ClaudePreToolUseOutput(_Common):
    hookSpecificOutput: ClaudePreToolUseSpecific


class ClaudePermissionDecision(_Strict):
    behavior: Literal["allow", "deny"]
    updatedInput: dict[str, Any] | None = None
    updatedPermissions: list[dict[str, Any]] | None = None
    message: str | None = None
    interrupt: bool | None = None

    @model_validator(mode="after")
    def _fields_of_behavior(self) -> ClaudePermissionDecision:
        # updatedInput/updatedPermissions belong to allow; message/interrupt to deny
        if self.behavior == "allow" and (self.message, self.interrupt) != (None, None):
            raise ValueError("message and interrupt go with deny")
        if self.behavior == "deny" and (self.updatedInput, self.updatedPermissions) != (None, None):
            raise ValueError("updatedInput and updatedPermissions go with allow")
        return self


class ClaudePermissionRequestSpecific(_Strict):
    hookEventName: Literal["PermissionRequest"]
    decision: ClaudePermissionDecision


class ClaudePermissionRequestOutput(_Common):
    hookSpecificOutput: ClaudePermissionRequestSpecific


class CodexDecision(_Strict):
    behavior: Literal["allow", "deny"]
    message: str | None = None
    interrupt: bool = False

    # `updatedInput` and `updatedPermissions` are reserved: Codex fails closed when present,
    # so `extra="forbid"` refusing them is the documented behaviour.


class CodexSpecific(_Strict):
    hookEventName: Literal["PermissionRequest"]
    decision: CodexDecision | None = None


class CodexPermissionRequestOutput(_Common):
    hookSpecificOutput: CodexSpecific | None = None


class GeminiBeforeToolSpecific(_Strict):
    hookEventName: Literal["BeforeTool"]
    tool_input: dict[str, Any] | None = None


class GeminiBeforeToolOutput(_Common):
    decision: Literal["allow", "deny", "block", "ask", "approve"] | None = None
    reason: str | None = None
    hookSpecificOutput: GeminiBeforeToolSpecific | None = None

    @model_validator(mode="after")
    def _denial_has_reason(self) -> GeminiBeforeToolOutput:
        # "reason: Required if denied"
        if self.decision in ("deny", "block") and not self.reason:
            raise ValueError("a denial needs a reason")
        return self


OUTPUTS: dict[tuple[str, str], type[BaseModel]] = {
    ("claude-code", "PreToolUse"): ClaudePreToolUseOutput,
    ("claude-code", "PermissionRequest"): ClaudePermissionRequestOutput,
    ("codex", "PermissionRequest"): CodexPermissionRequestOutput,
    ("gemini", "BeforeTool"): GeminiBeforeToolOutput,
}
"""The output model of each CLI's hook event."""

FIXTURES: dict[str, str] = {
    "claude_code_pre_tool_use_bash.json": "claude-code",
    "claude_code_pre_tool_use_edit.json": "claude-code",
    "claude_code_permission_request_bash.json": "claude-code",
    "codex_permission_request_bash.json": "codex",
    "gemini_before_tool_write_file.json": "gemini",
    "gemini_before_tool_shell.json": "gemini",
}
"""Each recorded input and the CLI whose hook reads it."""


def allows(stdout: str) -> bool:
    """True if a hook's stdout, in any CLI's format, would let the call run."""
    return any(word in stdout for word in ('"allow"', '"approve"'))

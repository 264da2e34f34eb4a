"""Gemini CLI's `BeforeTool` hook.

Input fields read: `hook_event_name`, `tool_name`, `tool_input`, `session_id`, `cwd`,
`timestamp`, `mcp_context`. Output: `decision` (`allow` / `deny`), `reason` (sent to the model
on a denial) and `hookSpecificOutput.{hookEventName, tool_input}`, which Gemini CLI merges
over the model's arguments. A merge cannot drop an argument, so an edit that removes one is
written as a denial that gives the model the edited arguments to retry with.
"""

from __future__ import annotations

from typing import Any, Literal

from tui.integrations.hooks.clis import CLI_NAMES
from tui.integrations.hooks.flow import (
    Allow,
    PendingCall,
    ToolHookInput,
    Verdict,
    derived_call_id,
    pending_approval,
    replacement_diff,
    string_argument,
)

NAMING_ARGUMENTS = {
    "run_shell_command": "command",
    "write_file": "file_path",
    "replace": "file_path",
    "web_fetch": "prompt",
}
"""The argument that says what a call of each built-in tool does."""

VARYING_ARGUMENTS = {
    "run_shell_command": ("description",),
    "write_file": ("content",),
    "replace": ("old_string", "new_string", "expected_replacements", "instruction"),
}
"""What a call may change and still be covered by a rule made from another with the same
naming argument: what an edit writes, a command's description. Any other argument (the
`dir_path` a command runs in) must be as in the call allowed."""


class GeminiHookInput(ToolHookInput):
    """The fields of Gemini CLI's BeforeTool input that an approval needs; others are ignored."""

    hook_event_name: Literal["BeforeTool"]
    timestamp: str | None = None
    mcp_context: dict[str, Any] | None = None


class GeminiHook:
    """`elicit-tui hook gemini`: Gemini CLI's BeforeTool hook."""

    cli = CLI_NAMES["gemini"]

    def read(self, data: Any, *, wait: float) -> PendingCall:
        hook = GeminiHookInput.model_validate(data)
        # The input names no call; its timestamp tells two identical calls of a session apart.
        call_id = derived_call_id(
            "gemini", hook.session_id, hook.timestamp, hook.tool_name, hook.tool_input
        )
        return pending_approval(
            hook,
            cli=self.cli,
            call_id=call_id,
            wait=wait,
            naming_arguments=NAMING_ARGUMENTS,
            varying_arguments=VARYING_ARGUMENTS,
            description=string_argument(hook.tool_input, "description"),
            diff=replacement_diff(hook.tool_input)
            if hook.tool_name in ("replace", "write_file")
            else None,
            metadata={"mcp_server": (hook.mcp_context or {}).get("server_name")},
        )

    def can_update(self, call: PendingCall, arguments: dict[str, Any]) -> bool:
        return set(call.tool_input) <= set(arguments)

    def write(self, call: PendingCall, verdict: Verdict) -> dict[str, Any]:
        if not isinstance(verdict, Allow):
            return {"decision": "deny", "reason": verdict.reason}
        output: dict[str, Any] = {"decision": "allow", "reason": verdict.reason}
        if verdict.updated_input is not None:
            output["hookSpecificOutput"] = {
                "hookEventName": "BeforeTool",
                "tool_input": verdict.updated_input,
            }
        return output

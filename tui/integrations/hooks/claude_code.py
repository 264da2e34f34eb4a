"""Claude Code's permission hooks: `PreToolUse` and `PermissionRequest`.

Input fields read: `hook_event_name`, `tool_name`, `tool_input`, `tool_use_id` (PreToolUse),
`session_id`, `cwd`, `permission_mode`. Output: for PreToolUse,
`hookSpecificOutput.{hookEventName, permissionDecision, permissionDecisionReason, updatedInput}`;
for PermissionRequest, `hookSpecificOutput.{hookEventName, decision.{behavior, message,
updatedInput}}`. Both take edited arguments as `updatedInput`, which replaces the whole input.

A call of `AskUserQuestion` is not approved but answered: its questions are asked as they are
(`tui.integrations.claude_code`), and the answers go back as `updatedInput.answers` with an
allow, so Claude Code takes them without showing its own question. Its PreToolUse hook asks
them; a PermissionRequest for it decides nothing, as it comes only once Claude Code is about
to show its own picker, after the inbox left the questions undecided.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tui.core.models import ElicitationResult
from tui.integrations.claude_code import from_ask_user_question, to_ask_user_question_answer
from tui.integrations.hooks.clis import CLI_NAMES
from tui.integrations.hooks.flow import (
    Allow,
    Deny,
    LeftToTheCli,
    PendingCall,
    ToolHookInput,
    Verdict,
    call_source,
    derived_call_id,
    pending_approval,
    permission_request_output,
    replacement_diff,
)

ASK_USER_QUESTION = "AskUserQuestion"
"""Claude Code's tool for asking the person questions, answered here instead of approved."""

NAMING_ARGUMENTS = {
    "Bash": "command",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "Write": "file_path",
    "NotebookEdit": "notebook_path",
    "WebFetch": "url",
    "ExitPlanMode": "plan",
    "Read": "file_path",
    "NotebookRead": "notebook_path",
    "Grep": "pattern",
    "Glob": "pattern",
}
"""The argument that says what a call of each built-in tool does. (A rule for a read keeps to
what it read: without one, "always" on a read of one file allowed reading any file.)"""

VARYING_ARGUMENTS = {
    "Bash": ("description", "timeout"),
    "Edit": ("old_string", "new_string", "replace_all"),
    "MultiEdit": ("edits",),
    "Write": ("content",),
    "NotebookEdit": ("new_source", "cell_id", "cell_type", "edit_mode"),
    "WebFetch": ("prompt",),
    "Read": ("offset", "limit"),
    "Grep": ("output_mode", "head_limit", "-n", "-i", "-A", "-B", "-C"),
}
"""What a call may change and still be covered by a rule made from another with the same
naming argument: what an edit writes, a command's description. Any other argument (Bash's
`run_in_background`, `dangerouslyDisableSandbox`) must be as in the call allowed."""

DESCRIBING_ARGUMENTS = {"Bash": "description", "ExitPlanMode": "plan"}
"""The argument whose text (markdown) explains a call: shown above its arguments."""


class ClaudeCodeHookInput(ToolHookInput):
    """The fields of Claude Code's hook input that an approval needs; others are ignored."""

    hook_event_name: Literal["PreToolUse", "PermissionRequest"]
    tool_use_id: str | None = Field(default=None, min_length=1)
    permission_mode: str | None = None


class ClaudeCodeHook:
    """`elicit-tui hook claude-code`: Claude Code's PreToolUse and PermissionRequest hooks."""

    cli = CLI_NAMES["claude-code"]

    def read(self, data: Any, *, wait: float) -> PendingCall:
        hook = ClaudeCodeHookInput.model_validate(data)
        call_id = hook.tool_use_id or derived_call_id(
            "claude-code", hook.session_id, hook.tool_name, hook.tool_input
        )
        if hook.tool_name == ASK_USER_QUESTION and hook.hook_event_name == "PermissionRequest":
            # Claude Code asks this only where its own picker would show: after the
            # PreToolUse hook's question was left undecided (cancelled, unanswered, no inbox).
            raise LeftToTheCli(
                "Claude Code's questions reach the inbox through its PreToolUse hook; one it "
                "left undecided is not asked again, Claude Code asks it"
            )
        if hook.tool_name == ASK_USER_QUESTION:
            return _questions(hook, call_id, wait)
        return pending_approval(
            hook,
            cli=self.cli,
            call_id=call_id,
            wait=wait,
            naming_arguments=NAMING_ARGUMENTS,
            varying_arguments=VARYING_ARGUMENTS,
            description=_text(hook.tool_input.get(DESCRIBING_ARGUMENTS.get(hook.tool_name, ""))),
            diff=replacement_diff(hook.tool_input) if hook.tool_name in ("Edit", "Write") else None,
            metadata={"permission_mode": hook.permission_mode},
        )

    def can_update(self, call: PendingCall, arguments: dict[str, Any]) -> bool:
        return True

    def write(self, call: PendingCall, verdict: Verdict) -> dict[str, Any]:
        allowed = isinstance(verdict, Allow)
        updated = verdict.updated_input if isinstance(verdict, Allow) else None
        if call.event == "PreToolUse":
            output: dict[str, Any] = {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow" if allowed else "deny",
                "permissionDecisionReason": verdict.reason,
            }
            if updated is not None:
                output["updatedInput"] = updated
            return {"hookSpecificOutput": output}
        decision: dict[str, Any] = {"behavior": "allow" if allowed else "deny"}
        if not allowed:
            decision["message"] = verdict.reason
        if updated is not None:
            decision["updatedInput"] = updated
        return permission_request_output(decision)


def _questions(hook: ClaudeCodeHookInput, call_id: str, wait: float) -> PendingCall:
    """An AskUserQuestion call, asked as its questions; the answers allow it with them."""
    asked = from_ask_user_question(
        hook.tool_input, source=call_source(ClaudeCodeHook.cli, hook.cwd)
    )
    request = asked.model_copy(update={"id": call_id, "timeout": wait})

    def answered(result: ElicitationResult) -> Verdict | None:
        answer = to_ask_user_question_answer(request, result)
        if answer is not None:
            return Allow("Answered in elicit-tui", {**hook.tool_input, **answer})
        if result.action == "decline":
            return Deny("The person declined to answer these questions.")
        return None

    return PendingCall(request, hook.hook_event_name, hook.tool_input, answered)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None

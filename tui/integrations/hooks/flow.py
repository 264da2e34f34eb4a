"""One permission-hook run, whatever the CLI: its JSON in, a tool approval asked, its verdict out.

A hook must never allow by accident: a call is allowed only when the person (or a rule they
made) accepted it, and denied only when they declined. Everything else (no inbox, a wrong
token, a cancel, the wait running out, malformed input, any error) decides nothing: the hook
prints nothing, so the CLI asks the person in its own way, and the reason goes to stderr.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tui.core.json_type import json_type
from tui.core.limits import LimitError
from tui.core.models import (
    AUTO_APPROVED,
    ArgumentPattern,
    ElicitationResult,
    Request,
    ToolApprovalRequest,
    call_summary,
    folder_name,
)
from tui.core.one_line import one_line
from tui.integrations.hooks.undecided import undecided

Asker = Callable[[Request], Awaitable[ElicitationResult]]
"""Asks one request in the inbox and returns how it ended; may raise on any fault."""

_SUMMARY_LENGTH = 120


@dataclass(frozen=True)
class Allow:
    """Run the call; with `updated_input`, run it with these arguments instead."""

    reason: str
    updated_input: dict[str, Any] | None = None


@dataclass(frozen=True)
class Deny:
    """Do not run the call; `reason` is for the model, so it can do something else."""

    reason: str


Verdict = Allow | Deny


@dataclass(frozen=True)
class PendingCall:
    """A tool call a CLI wants approved: the request to ask, and what the CLI sent."""

    request: Request
    """A `ToolApprovalRequest`, or what `answered` reads the answer of."""
    event: str
    """The hook event that asked (`PreToolUse`, `PermissionRequest`, `BeforeTool`)."""
    tool_input: dict[str, Any]
    answered: Callable[[ElicitationResult], Verdict | None] | None = None
    """For a call whose request is not a tool approval: what its result decides."""


class HookFormat(Protocol):
    """One CLI's hook: how its input becomes a pending call and a verdict becomes its output."""

    cli: str
    """The CLI's name as people know it: `Claude Code`."""

    def read(self, data: Any, *, wait: float) -> PendingCall:
        """The call in `data`, asked with `wait` seconds to answer; raises `ValueError`
        (a pydantic `ValidationError` naming the field) when it is not this CLI's hook input."""
        ...

    def can_update(self, call: PendingCall, arguments: dict[str, Any]) -> bool:
        """True if this CLI can run `call` with `arguments` instead of its own."""
        ...

    def write(self, call: PendingCall, verdict: Verdict) -> dict[str, Any]:
        """`verdict` as this CLI's documented hook output."""
        ...


@dataclass(frozen=True)
class HookRun:
    """What the hook prints: `stdout` (empty when nothing is decided) and a line for stderr."""

    stdout: str
    note: str | None = None

    @property
    def decided(self) -> bool:
        return bool(self.stdout)


class LeftToTheCli(Exception):
    """A call the hook leaves to the CLI's own dialog without asking; the message says why."""


class HookInputError(ValueError):
    """The hook's stdin is not what the CLI documents; the message says what is wrong."""


async def run_hook(hook: HookFormat, stdin: str, ask: Asker, *, wait: float) -> HookRun:
    """Ask the call in `stdin` with `ask` and return what to print; never raises.

    An accept allows (with the person's edited arguments where the CLI takes them, else it is
    denied with those arguments for the model to retry with), a decline denies with the
    person's reason, and anything else decides nothing, with the reason as the note.
    """
    try:
        call = hook.read(_json_object(stdin), wait=wait)
    except LeftToTheCli as error:
        return HookRun("", f"no decision: {error}")
    except ValidationError as error:
        return HookRun("", f"cannot read {hook.cli}'s hook input: {_first_line(error)}")
    except ValueError as error:
        return HookRun("", f"cannot read {hook.cli}'s hook input: {error}")
    try:
        result = await ask(call.request)
    except LimitError as error:
        return HookRun("", f"cannot ask {hook.cli}'s call: {error}")
    except Exception as error:  # no inbox, a wrong token, a broken connection: never a verdict
        return HookRun("", f"the inbox did not answer ({_first_line(error)})")
    try:
        verdict = verdict_for(hook, call, result)
        if verdict is None:
            return HookRun("", undecided(result.reason))
        return HookRun(json.dumps(hook.write(call, verdict), allow_nan=False))
    except Exception as error:  # an answer that cannot be read or written is no verdict
        return HookRun("", f"the answer could not be turned into a verdict ({_first_line(error)})")


def verdict_for(hook: HookFormat, call: PendingCall, result: ElicitationResult) -> Verdict | None:
    """What `result` decides for `call`: None unless the person accepted or declined it."""
    request = call.request
    if call.answered is not None:
        return call.answered(result)
    if not isinstance(request, ToolApprovalRequest):
        return None
    if request.scope_of(result) is not None:
        edited = _edited_arguments(result)
        if edited is None or edited == call.tool_input:
            return Allow(_allowed_because(result))
        if hook.can_update(call, edited):
            return Allow("Allowed in elicit-tui with edited arguments", edited)
        return Deny(request.call_again_as_edited(edited))
    if result.action == "decline":
        reason = request.denial_reason(result)
        return Deny(
            f"The person denied this call in elicit-tui: {reason}"
            if reason
            else "The person denied this call in elicit-tui."
        )
    return None


def approval(
    *,
    cli: str,
    tool_name: str,
    arguments: dict[str, Any],
    call_id: str,
    wait: float,
    naming_argument: str | None = None,
    varying: tuple[str, ...] = (),
    cwd: str | None = None,
    description: str | None = None,
    diff: str | None = None,
    edits_retried: bool = False,
    metadata: Mapping[str, Any] | None = None,
) -> ToolApprovalRequest:
    """The approval asked for a call, waiting at most `wait` seconds for the person.

    `naming_argument` is the argument that says what the call does (a shell command, a file
    path): it heads the summary, and "for this session" / "always" then cover calls with
    exactly that value, never every call of the tool, and with the other arguments as they
    are here but those named in `varying` (what an edit writes, a command's description),
    and in the folder `cwd` (the CLI's project) only. Where that argument is not text, the
    call is allowed once or denied only (`once_only`). `edits_retried`: the CLI cannot run
    the call with edited arguments (the dialog says an edit asks the model to retry).
    """
    named = arguments.get(naming_argument) if naming_argument else None
    remember = None
    summary = call_summary(tool_name, arguments)
    # A call whose naming argument is not text (a command as a list) has nothing a rule could
    # keep to: one would allow every call of the tool.
    once_only = naming_argument is not None and not (isinstance(named, str) and named)
    if isinstance(named, str) and named:
        left_out = {naming_argument, *varying}
        remember = ArgumentPattern(
            argument=naming_argument,
            pattern=exact_pattern(named),
            others={key: value for key, value in arguments.items() if key not in left_out},
            varying=varying or None,
        )
        summary = one_line(f"{tool_name}: {named}", _SUMMARY_LENGTH)
    return ToolApprovalRequest(
        tool_name=tool_name,
        arguments=arguments,
        summary=summary,
        tool_call_id=call_id,
        source=call_source(cli, cwd),
        description=description or None,
        diff=diff,
        remember=remember,
        folder=cwd or None,
        once_only=once_only,
        edits_retried=edits_retried,
        timeout=wait,
        metadata=dict(metadata or {}),
    )


class ToolHookInput(BaseModel):
    """The fields every CLI's tool hook input carries; each CLI narrows `hook_event_name`
    and adds its own. Other fields are ignored."""

    model_config = ConfigDict(extra="ignore")

    hook_event_name: str
    tool_name: str = Field(min_length=1)
    tool_input: dict[str, Any]
    session_id: str | None = None
    cwd: str = Field(default_factory=os.getcwd)
    """The CLI's project folder, which a remembered answer keeps to; where the input has
    none, the folder the hook runs in (each CLI runs its hooks in the project's)."""

    @field_validator("cwd", mode="before")
    @classmethod
    def _hooks_own_folder(cls, value: object) -> object:
        return os.getcwd() if value is None or value == "" else value


def pending_approval(
    hook: ToolHookInput,
    *,
    cli: str,
    call_id: str,
    wait: float,
    naming_arguments: Mapping[str, str],
    varying_arguments: Mapping[str, tuple[str, ...]],
    description: str | None = None,
    diff: str | None = None,
    edits_retried: bool = False,
    metadata: Mapping[str, Any] | None = None,
) -> PendingCall:
    """The call in `hook` as a pending tool approval (see `approval`): its naming argument
    and the arguments a rule lets vary looked up by tool name in `naming_arguments` and
    `varying_arguments`, and its metadata the hook event and session followed by `metadata`."""
    request = approval(
        cli=cli,
        tool_name=hook.tool_name,
        arguments=hook.tool_input,
        call_id=call_id,
        wait=wait,
        naming_argument=naming_arguments.get(hook.tool_name),
        varying=varying_arguments.get(hook.tool_name, ()),
        cwd=hook.cwd,
        description=description,
        diff=diff,
        edits_retried=edits_retried,
        metadata={
            "hook_event_name": hook.hook_event_name,
            "session_id": hook.session_id,
            **(metadata or {}),
        },
    )
    return PendingCall(request, hook.hook_event_name, hook.tool_input)


def string_argument(arguments: dict[str, Any], name: str) -> str | None:
    """The argument `name` when it is a string, else None."""
    value = arguments.get(name)
    return value if isinstance(value, str) else None


def permission_request_output(decision: dict[str, Any]) -> dict[str, Any]:
    """The output of a `PermissionRequest` hook (Claude Code, Codex) carrying `decision`."""
    return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}


def derived_call_id(prefix: str, *parts: Any) -> str:
    """A call id for a CLI whose hook input carries none: the same call gives the same id."""
    digest = hashlib.sha256(
        json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False).encode()
    ).hexdigest()
    return f"{prefix}-{digest[:16]}"


def exact_pattern(value: str) -> str:
    """An `ArgumentPattern` glob that matches `value` and nothing else."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in value)


def _edited_arguments(result: ElicitationResult) -> dict[str, Any] | None:
    """The arguments the person edited before allowing, if they did (`content["arguments"]`)."""
    content = result.content
    arguments = content.get("arguments") if isinstance(content, dict) else None
    return arguments if isinstance(arguments, dict) else None


def _allowed_because(result: ElicitationResult) -> str:
    if result.reason == AUTO_APPROVED:
        return "Allowed by a rule remembered in elicit-tui"
    return "Allowed in elicit-tui"


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError as error:
        raise HookInputError(f"not JSON ({error.msg} at line {error.lineno})") from None
    except RecursionError:
        raise HookInputError("it nests lists and objects too deep to read") from None
    if not isinstance(data, dict):
        raise HookInputError(f"a JSON object is expected, not {json_type(data)}")
    return data


def _not_json(constant: str) -> Any:
    """Python's JSON reader takes `NaN` and `Infinity`; JSON, and so no CLI, has them."""
    raise HookInputError(f"not JSON ({constant} is no JSON value)")


def _first_line(error: BaseException) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "input"
        said = first.get("ctx", {}).get("error") if first["type"] == "value_error" else None
        return f"{where}: {said or first['msg']}"  # "cause", not pydantic's "Value error, cause"
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def call_source(cli: str, cwd: str | None) -> str:
    """Who asks, as a question's source shows it: the CLI and its project's folder by its
    last two names, `Claude Code (work/proj)`, or the CLI alone where the input names none."""
    if not cwd:
        return cli
    return f"{cli} ({folder_name(cwd)})"


def replacement_diff(tool_input: Mapping[str, Any]) -> str | None:
    """For a call that replaces text in a file (`file_path`, `old_string`, `new_string`:
    Claude Code's Edit, Gemini CLI's replace) or writes a whole file (`file_path`, `content`:
    Claude Code's Write, Gemini CLI's write_file, each of its lines added), the change as a
    unified diff; else None."""
    old, new, path = (tool_input.get(k) for k in ("old_string", "new_string", "file_path"))
    if old is None and new is None:
        old, new = "", tool_input.get("content")
    if not (isinstance(old, str) and isinstance(new, str) and isinstance(path, str)):
        return None
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=path, tofile=path
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines) or None

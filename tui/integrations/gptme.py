"""gptme: elicit-tui answers gptme's `elicit` requests and confirms its tool calls.

`register(queue)` registers two gptme hooks: `HookType.ELICIT` (the `elicit` tool and every
`elicit()` call: text, choice, multi_choice, secret, confirmation, form) and
`HookType.TOOL_CONFIRM` (each tool call becomes a `ToolApprovalRequest`; allowing it for the
session or always is remembered by the front end's approval rules, a denial skips the call
with the person's reason, an edited call becomes gptme's edit answer with the new content,
and a cancel interrupts the turn as Ctrl+C does in gptme).

A request gptme marks `sensitive` is typed masked, kept out of the timeline and transcripts,
and answered with `sensitive=True`, so gptme keeps it out of the model's context.

A secret never reaches gptme, so never the model: gptme hears only that it was provided. The
value goes to `on_secret(prompt, value)` if given, else into the system keyring
(service `gptme`, the prompt as the entry's name).
"""

from __future__ import annotations

import dataclasses
import json
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gptme.hooks import HookType, register_hook, unregister_hook
from gptme.hooks.confirm import ConfirmationResult, check_auto_confirm
from gptme.hooks.elicitation import ElicitationRequest, ElicitationResponse, FormField
from gptme.tools import get_tool
from pydantic import SecretStr

from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    KeyringTarget,
    MultiChoiceRequest,
    Request,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
)
from tui.core.queue import ElicitationQueue

__all__ = ["SECRET_SERVICE", "register"]

SOURCE = "gptme"
HOOK_NAME = "elicit-tui"
SECRET_SERVICE = "gptme"
"""The keyring service secrets are stored under when no `on_secret` is given."""

SecretSink = Callable[[str, SecretStr], None]


def register(
    queue: ElicitationQueue, *, on_secret: SecretSink | None = None, priority: int = 100
) -> Callable[[], None]:
    """Answer gptme's elicitations and tool confirmations through `queue`; returns an unregister.

    `priority` puts these hooks ahead of gptme's own terminal prompts (priority 0).
    """

    def elicit_hook(request: ElicitationRequest) -> ElicitationResponse:
        return _elicit(queue, request, on_secret)

    def confirm_hook(
        tool_use: Any, preview: str | None = None, workspace: Path | None = None
    ) -> ConfirmationResult:
        return _confirm(queue, tool_use, preview)

    register_hook(HOOK_NAME, HookType.ELICIT, elicit_hook, priority=priority)
    register_hook(HOOK_NAME, HookType.TOOL_CONFIRM, confirm_hook, priority=priority)

    def unregister() -> None:
        unregister_hook(HOOK_NAME, HookType.ELICIT)
        unregister_hook(HOOK_NAME, HookType.TOOL_CONFIRM)

    return unregister


def _elicit(
    queue: ElicitationQueue, request: ElicitationRequest, on_secret: SecretSink | None
) -> ElicitationResponse:
    asked = _request(request, store=on_secret is None)
    result = queue.ask(asked)
    if not result.accepted:
        return ElicitationResponse.cancel()
    response = _response(asked, result.content, request.prompt, on_secret)
    # gptme keeps a sensitive answer out of the model's context only if told so.
    return dataclasses.replace(response, sensitive=True) if asked.sensitive else response


def _response(
    asked: Request, content: Any, prompt: str, on_secret: SecretSink | None
) -> ElicitationResponse:
    if isinstance(asked, SecretRequest):
        if on_secret is not None and isinstance(content, SecretStr):
            on_secret(prompt, content)
        return ElicitationResponse(value=None, sensitive=True)
    if isinstance(asked, MultiChoiceRequest):
        return ElicitationResponse.multi(list(content))
    if isinstance(asked, ConfirmationRequest):
        return ElicitationResponse.text("yes" if content else "no")
    if isinstance(asked, FormRequest):
        shown = {
            name: "<secret provided>" if isinstance(value, SecretStr) else value
            for name, value in dict(content).items()
        }
        return ElicitationResponse.text(json.dumps(shown))
    return ElicitationResponse.text(str(content))


def _request(request: ElicitationRequest, *, store: bool) -> Request:
    """The elicit-tui request showing a gptme elicitation."""
    common: dict[str, Any] = {
        "message": request.prompt,
        "description": request.description,
        "source": SOURCE,
    }
    if request.sensitive and request.type != "secret":
        common["sensitive"] = True
    options = request.options or []
    if request.type == "choice" and options:
        default = request.default if request.default in options else None
        return ChoiceRequest(options=options, default=default, **common)
    if request.type == "multi_choice" and options:
        return MultiChoiceRequest(options=options, **common)
    if request.type == "secret":
        target = KeyringTarget(service=SECRET_SERVICE, username=_slug(request.prompt))
        return SecretRequest(store=target if store else None, **common)
    if request.type == "confirmation":
        default = (request.default or "yes").strip().lower() in ("yes", "y", "true", "1")
        return ConfirmationRequest(default=default, **common)
    if request.type == "form" and request.fields:
        return FormRequest(requested_schema=_schema(request.fields), **common)
    return TextRequest(default=request.default, **common)


def _schema(fields: list[FormField]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for field in fields:
        prop: dict[str, Any] = {"title": field.prompt or field.name}
        if field.type == "choice" and field.options:
            prop |= {"type": "string", "enum": list(field.options)}
        elif field.type == "boolean":
            prop["type"] = "boolean"
        elif field.type == "number":
            prop["type"] = "number"
        else:
            prop["type"] = "string"
            if field.type == "secret":
                prop["format"] = "password"
        if field.default is not None and field.type != "secret":
            prop["default"] = _typed_default(field)
        properties[field.name] = prop
    required = [f.name for f in fields if f.required and f.default is None]
    return {"type": "object", "properties": properties, "required": required}


def _typed_default(field: FormField) -> Any:
    text = str(field.default)
    if field.type == "boolean":
        return text.strip().lower() in ("yes", "y", "true", "1")
    if field.type == "number":
        try:
            return float(text) if "." in text else int(text)
        except ValueError:
            return None
    return text


def _slug(prompt: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", prompt.lower()).strip("-")[:60] or "secret"


def _confirm(queue: ElicitationQueue, tool_use: Any, preview: str | None) -> ConfirmationResult:
    # as gptme's own prompt does: read-only builtin tools and auto-confirm mode (-y) never ask
    tool = get_tool(tool_use.tool)
    if (tool is not None and tool.read_only and not tool.is_mcp) or check_auto_confirm()[0]:
        return ConfirmationResult.confirm()
    content = preview or tool_use.content
    arguments: dict[str, Any] = dict(tool_use.kwargs or {})
    if tool_use.args:
        arguments["args"] = list(tool_use.args)
    if tool_use.content:
        arguments["content"] = tool_use.content
    request = ToolApprovalRequest(
        tool_name=tool_use.tool,
        arguments=arguments,
        diff=content if content and _is_diff(content) else None,
        tool_call_id=tool_use.call_id or uuid.uuid4().hex,
        source=SOURCE,
    )
    result = queue.ask(request)
    if result.action == "cancel":
        # gptme's own way to stop a turn: Ctrl+C at its prompt raises the same
        raise KeyboardInterrupt(f"tool call {tool_use.tool} cancelled at its confirmation")
    return _confirmation(request, result)


def _confirmation(request: ToolApprovalRequest, result: ElicitationResult) -> ConfirmationResult:
    edited = request.edited_arguments(result)
    if edited is not None:
        return _edited(request.arguments, edited)
    if request.scope_of(result) is not None:
        return ConfirmationResult.confirm()
    reason = request.denial_reason(result)
    return ConfirmationResult.skip(
        f"Denied by the user: {reason}" if reason else "Declined by user"
    )


def _edited(asked: dict[str, Any], edited: dict[str, Any]) -> ConfirmationResult:
    """gptme's edit answer: it runs the call with new content, the one part it lets change.
    Edits to anything else cannot reach the tool, so the call is skipped, telling the model
    the arguments the person wanted, never run as it was asked."""
    others_kept = {k: v for k, v in edited.items() if k != "content"} == {
        k: v for k, v in asked.items() if k != "content"
    }
    if others_kept and isinstance(edited.get("content"), str):
        return ConfirmationResult.edit(edited["content"])
    return ConfirmationResult.skip(
        f"The user edited this call to {json.dumps(edited, ensure_ascii=False)}; "
        "only its content can be edited here, so it was not run. Call it again as edited."
    )


def _is_diff(text: str) -> bool:
    return text.startswith(("--- ", "diff ")) or "\n@@ " in text

"""The MCP server of `elicit-tui serve`: tools through which outside agents ask the person.

`ask_user` takes a batch of multiple-choice questions (the shape of Claude Code's
AskUserQuestion) and `request_secret` has a secret typed and stored in the keyring, returning
only where it was stored. Each call becomes a request on the shared `ElicitationQueue`, so
calls from several agents wait their turn; a call whose client goes away is withdrawn.
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from starlette.requests import Request as HTTPRequest

from tui.core.models import (
    KEYRING_UNAVAILABLE,
    Action,
    ElicitationResult,
    KeyringTarget,
    QuestionAnswer,
    Request,
    SecretRequest,
)
from tui.core.queue import ElicitationQueue
from tui.core.secret_ref import SecretRef
from tui.integrations.claude_code import from_ask_user_question
from tui.secrets.keyring_store import keyring_status

SERVER_NAME = "elicit-tui"

INSTRUCTIONS = """\
These tools reach the person at the keyboard through the elicit-tui terminal app; a call
waits until they answer. Use ask_user for decisions (several related questions in one call);
use request_secret for passwords, tokens and API keys: never ask for a secret in chat. The
secret is stored in the system keyring and you receive only its service/username.
"""


class QuestionOptionInput(BaseModel):
    """One answer a question offers."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(min_length=1, description="What the person picks; returned as the answer.")
    description: str | None = Field(
        default=None, description="What picking it means, shown under the label."
    )

    @model_validator(mode="before")
    @classmethod
    def _from_plain_string(cls, data: Any) -> Any:
        # Models sometimes send bare labels; they are options without a description.
        return {"label": data} if isinstance(data, str) else data


class QuestionInput(BaseModel):
    """One question of an `ask_user` call (the shape of Claude Code's AskUserQuestion)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    question: str = Field(min_length=1, description="The full question, ending in '?'.")
    header: str | None = Field(
        default=None, description="A very short label for the question's tab (max ~12 chars)."
    )
    options: list[QuestionOptionInput] = Field(
        min_length=1,
        description="The choices (2-4 work best). The person may always type another answer.",
    )
    multi_select: bool = Field(
        default=False,
        alias="multiSelect",
        description="Let the person pick several options; the answer is then a list.",
    )


class AskUserOutput(BaseModel):
    """What `ask_user` returns as structured content."""

    action: Action = Field(
        description="accept: answered; decline: refused to answer; cancel: dismissed or withdrawn."
    )
    answers: dict[str, QuestionAnswer] = Field(
        default_factory=dict,
        description="Question text -> the chosen label (a list for multiSelect), or typed text.",
    )
    notes: dict[str, str] = Field(
        default_factory=dict, description="Question text -> a note the person added."
    )
    reason: str | None = Field(
        default=None, description="Why it ended without an answer (timeout, closed, ...)."
    )


class SecretOutput(BaseModel):
    """What `request_secret` returns as structured content: never the secret itself."""

    action: Action
    stored: bool = Field(description="True if the secret is now in the keyring entry below.")
    service: str | None = Field(default=None, description="The keyring service it is stored under.")
    username: str | None = Field(default=None, description="The keyring username (entry name).")
    reason: str | None = None


def create_server(queue: ElicitationQueue) -> MCPServer:
    """An MCP server whose `ask_user` and `request_secret` tools ask through `queue`."""
    # WARNING: the SDK configures root logging from this, and INFO would chatter per request.
    server: MCPServer = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")

    async def ask_user(
        questions: Annotated[
            list[QuestionInput],
            Field(min_length=1, description="The questions, asked together in one dialog."),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, AskUserOutput]:
        try:
            request = from_ask_user_question(
                {"questions": [q.model_dump(by_alias=True) for q in questions]},
                source=_client_name(ctx),
            )
        except ValidationError as error:
            raise ToolError(f"Invalid questions: {_problems(error)}") from None
        result = await _ask(queue, request, ctx)
        content: dict[str, Any] = result.content if isinstance(result.content, dict) else {}
        output = AskUserOutput(
            action=result.action,
            answers=content.get("answers", {}),
            notes=content.get("notes", {}),
            reason=result.reason,
        )
        return _tool_result(result.to_llm_text(), output)

    async def request_secret(
        message: Annotated[
            str, Field(min_length=1, description="What the secret is for, shown to the person.")
        ],
        service: Annotated[
            str,
            Field(min_length=1, description="Keyring service to store it under, e.g. 'github'."),
        ],
        username: Annotated[
            str, Field(min_length=1, description="Keyring username (entry name), e.g. 'api-token'.")
        ],
        ctx: Context,
        description: Annotated[
            str | None, Field(description="More detail, in markdown: where to find it, scopes.")
        ] = None,
    ) -> Annotated[CallToolResult, SecretOutput]:
        problem = keyring_status()
        if problem is not None:
            # Refused before the person types anything: a typed secret could not be kept.
            text = f"The secret was not asked for: {problem}"
            output = SecretOutput(action="cancel", stored=False, reason=KEYRING_UNAVAILABLE)
            return _tool_result(text, output)
        request = SecretRequest(
            message=message,
            description=description,
            source=_client_name(ctx),
            store=KeyringTarget(service=service, username=username),
        )
        result = await _ask(queue, request, ctx)
        if isinstance(result.content, SecretRef):
            output = SecretOutput(
                action="accept",
                stored=True,
                service=result.content.service,
                username=result.content.username,
                reason=result.reason,
            )
            return _tool_result(result.to_llm_text(), output)
        if result.accepted:
            # Typed, but the keyring could not keep it: the value stays behind, unsaved.
            text = (
                "The user typed the secret, but the keyring could not store it, so it was not "
                f"saved ({result.reason or 'keyring unavailable'}). Ask again once a keyring works."
            )
            return _tool_result(
                text, SecretOutput(action="accept", stored=False, reason=result.reason)
            )
        output = SecretOutput(action=result.action, stored=False, reason=result.reason)
        return _tool_result(result.to_llm_text(), output)

    server.add_tool(
        ask_user,
        name="ask_user",
        title="Ask the user",
        description="Ask the person at the keyboard one or more multiple-choice questions and "
        "wait for the answers. Each question has a short header, 2-4 options with "
        "descriptions, and multiSelect for pick-several; the person can always type their own "
        "answer instead. Returns the answers keyed by question text.",
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    server.add_tool(
        request_secret,
        name="request_secret",
        title="Request a secret",
        description="Have the person type a secret (password, token, API key) into a masked "
        "field; it is stored in the system keyring under service/username. You receive only "
        "that reference, never the value: read it from the keyring in the code that needs it.",
        annotations=ToolAnnotations(read_only_hint=False, open_world_hint=False),
    )
    return server


async def _ask(queue: ElicitationQueue, request: Request, ctx: Context) -> ElicitationResult:
    """`queue.ask_async(request)`, withdrawn when the client goes away.

    A cancelled call (or, on 2026-07-28, a closed response stream) cancels this task, and
    `ask_async` then cancels the request. A 2025 session keeps the task running when the HTTP
    connection drops, so the connection that carried the call is watched as well.
    """
    http = ctx.request_context.request
    if not isinstance(http, HTTPRequest):
        return await queue.ask_async(request)
    result = ElicitationResult(action="cancel", reason="disconnected")
    async with anyio.create_task_group() as group:

        async def ask() -> None:
            nonlocal result
            result = await queue.ask_async(request)
            group.cancel_scope.cancel()

        group.start_soon(ask)
        await _until_disconnected(http)
        group.cancel_scope.cancel()
    return result


async def _until_disconnected(http: HTTPRequest) -> None:
    # The body was read before the call was dispatched: all that can arrive now is the end.
    while (await http.receive())["type"] != "http.disconnect":
        pass


def _client_name(ctx: Context) -> str:
    params = ctx.request_context.session.client_params
    if params is None:
        return "MCP client"
    info = params.client_info
    return info.title or info.name


def _problems(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}"
        for problem in error.errors(include_url=False)
    )


def _tool_result(text: str, output: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=output.model_dump(mode="json"),
    )

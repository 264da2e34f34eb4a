"""The MCP server of `elicit-tui serve`: tools through which outside agents ask the person.

`elicit` takes any request kind (see `tui.mcp.elicit_tool`); `ask_user` takes a batch of multiple-choice questions (the shape of Claude Code's
AskUserQuestion) and `request_secret` has a secret typed and stored in the keyring, returning
only where it was stored. Each call becomes a request on the shared `ElicitationQueue`, so
calls from several agents wait their turn; a call whose client goes away is withdrawn.
"""

from __future__ import annotations

import itertools
import weakref
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, InputRequiredResult, TextContent, Tool, ToolAnnotations
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails
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
from tui.mcp.elicit_tool import register_elicit
from tui.secrets.keyring_store import keyring_status

SERVER_NAME = "elicit-tui"

INSTRUCTIONS = """\
These tools reach the person at the keyboard through the elicit-tui terminal app; a call
waits until they answer. Use elicit for any other kind of request (text, a long choice, a
form, a confirmation, a tool approval). Use ask_user for decisions (several related questions in one call);
use request_secret for passwords, tokens and API keys: never ask for a secret in chat. The
secret is stored in the system keyring and you receive only its service/username.
"""


_NOT_BLANK = r"\S"
"""A pattern for text that must hold more than whitespace."""

HEADER_LIMIT = 12
"""The most characters a question's header (its tab label) may have."""

OPTIONS_LIMITS = (2, 4)
"""How many options a question offers, at least and at most."""


class QuestionOptionInput(BaseModel):
    """One answer a question offers."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(
        min_length=1,
        pattern=_NOT_BLANK,
        description="What the person picks; returned as the answer.",
    )
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

    question: str = Field(
        min_length=1, pattern=_NOT_BLANK, description="The full question, ending in '?'."
    )
    header: str | None = Field(
        default=None,
        max_length=HEADER_LIMIT,
        description=f"A very short label for the question's tab (at most {HEADER_LIMIT} characters).",
    )
    options: list[QuestionOptionInput] = Field(
        min_length=OPTIONS_LIMITS[0],
        max_length=OPTIONS_LIMITS[1],
        description=f"The choices, {OPTIONS_LIMITS[0]} to {OPTIONS_LIMITS[1]}. "
        "The person may always type another answer.",
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


PROGRESS_INTERVAL = 5.0
"""Seconds between progress notifications while a call waits for the person."""


def create_server(
    queue: ElicitationQueue, *, progress_interval: float = PROGRESS_INTERVAL
) -> MCPServer:
    """An MCP server whose `ask_user` and `request_secret` tools ask through `queue`.

    A call that carries a progress token gets a progress notification every
    `progress_interval` seconds while the person has not answered.
    """
    # WARNING: the SDK configures root logging from this, and INFO would chatter per request.
    server = _ElicitServer(
        SERVER_NAME, version=_version(), instructions=INSTRUCTIONS, log_level="WARNING"
    )
    clients = _Clients()

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
                source=clients.source(ctx),
            )
        except ValidationError as error:
            raise ToolError(f"Invalid arguments for ask_user: {_problems(error)}") from None
        result = await _ask(queue, request, ctx, progress_interval)
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
            str,
            Field(
                min_length=1,
                pattern=_NOT_BLANK,
                description="What the secret is for, shown to the person.",
            ),
        ],
        service: Annotated[
            str,
            Field(
                min_length=1,
                pattern=_NOT_BLANK,
                description="Keyring service to store it under, e.g. 'github'.",
            ),
        ],
        username: Annotated[
            str,
            Field(
                min_length=1,
                pattern=_NOT_BLANK,
                description="Keyring username (entry name), e.g. 'api-token'.",
            ),
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
        try:
            request = SecretRequest(
                message=message,
                description=description,
                source=clients.source(ctx),
                store=KeyringTarget(service=service, username=username),
            )
        except ValidationError as error:
            raise ToolError(f"Invalid request: {_problems(error)}") from None
        result = await _ask(queue, request, ctx, progress_interval)
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

    register_elicit(
        server, lambda request, ctx: _ask(queue, request, ctx, progress_interval), clients.source
    )
    server.add_tool(
        ask_user,
        name="ask_user",
        title="Ask the user",
        description="Ask the person at the keyboard one or more multiple-choice questions and "
        "wait for the answers. Each question has a short header (at most "
        f"{HEADER_LIMIT} characters), {OPTIONS_LIMITS[0]}-{OPTIONS_LIMITS[1]} options with "
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


async def _ask(
    queue: ElicitationQueue, request: Request, ctx: Context, progress_interval: float
) -> ElicitationResult:
    """`queue.ask_async(request)`, kept alive with progress and withdrawn when the client goes away.

    While the person thinks, a progress notification goes out every `progress_interval`
    seconds (only if the call carried a progress token), so a client that resets its timeout
    on progress keeps waiting. A cancelled call (or, on 2026-07-28, a closed response stream)
    cancels this task, and `ask_async` then withdraws the request as `cancelled_by_agent`.
    A 2025-11-25 session keeps the task running when the HTTP connection drops, so there the
    connection that carried the call is watched, and a drop withdraws it as `disconnected`.
    """
    result = ElicitationResult(action="cancel", reason="disconnected")
    http = ctx.request_context.request
    async with anyio.create_task_group() as group:

        async def ask() -> None:
            nonlocal result
            result = await queue.ask_async(request)
            group.cancel_scope.cancel()

        async def withdraw_when_disconnected(http: HTTPRequest) -> None:
            await _until_disconnected(http)
            queue.cancel(request.id, reason="disconnected")
            group.cancel_scope.cancel()

        group.start_soon(ask)
        group.start_soon(_report_waiting, ctx, progress_interval)
        if isinstance(http, HTTPRequest) and not _modern(ctx):
            group.start_soon(withdraw_when_disconnected, http)
    return result


async def _report_waiting(ctx: Context, interval: float) -> None:
    """Progress every `interval` seconds until cancelled; nothing goes out without a token."""
    waited = 0.0
    while True:
        await anyio.sleep(interval)
        waited += interval
        await ctx.report_progress(
            waited, message=f"Waiting for the person at the keyboard ({waited:.0f} s so far)"
        )


async def _until_disconnected(http: HTTPRequest) -> None:
    # The body was read before the call was dispatched: all that can arrive now is the end.
    while (await http.receive())["type"] != "http.disconnect":
        pass


def _modern(ctx: Context) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, "2026-07-28")


class _Clients:
    """Numbers MCP sessions as they first call, so the person sees which connection asks.

    A client's name is only its claim: any local process may say it is "claude-code". The
    source shown is "client 2, said it is claude-code", the number being this server's own.
    """

    def __init__(self) -> None:
        self._numbers: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()
        self._next = itertools.count(1)

    def source(self, ctx: Context) -> str:
        session = ctx.request_context.session
        number = self._numbers.get(session)
        if number is None:
            number = self._numbers[session] = next(self._next)
        params = session.client_params
        claim = None if params is None else params.client_info.title or params.client_info.name
        return f"client {number}, said it is {claim}" if claim else f"client {number}"


class _ElicitServer(MCPServer):
    """An MCPServer whose tools list flat input schemas and refuse arguments in one line each.

    Clients handle `$ref` and `anyOf [..., null]` unevenly, so each tool's schema is listed
    with its definitions inlined and optional fields as their plain type. Arguments that do
    not fit are answered with a tool error a model can act on: each problem as its argument
    path and what to change, no pydantic dump.
    """

    async def list_tools(self) -> list[Tool]:
        return [
            tool.model_copy(update={"input_schema": flat_schema(tool.input_schema)})
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        tool = self._tool_manager.get_tool(name)
        # A tool made from a function ignores arguments it has no parameter for: the caller
        # would never learn that what it asked for (`sensitive`, a misspelt field) was not done.
        unknown = (
            []
            if tool is None
            else sorted(set(arguments) - set(tool.parameters.get("properties", {})))
        )
        if unknown:
            problems = "; ".join(f"{key} is not an argument this tool takes" for key in unknown)
            raise ToolError(f"Invalid arguments for {name}: {problems}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                problems = _problems(error.__cause__)
                raise ToolError(f"Invalid arguments for {name}: {problems}") from error.__cause__
            if type(error.__cause__) is ToolError:
                # One of the tools refused: in its own words, not after "Error executing tool"
                raise error.__cause__ from None
            raise


def flat_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with every `$ref` replaced by its definition and `anyOf [T, null]` by `T`."""
    definitions = schema.get("$defs", {})

    def flatten(node: Any) -> Any:
        if isinstance(node, list):
            return [flatten(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].removeprefix("#/$defs/")
            rest = {key: value for key, value in node.items() if key != "$ref"}
            return flatten({**definitions[name], **rest})
        options = node.get("anyOf")
        if isinstance(options, list) and {"type": "null"} in options and len(options) == 2:
            (kept,) = (option for option in options if option != {"type": "null"})
            rest = {key: value for key, value in node.items() if key != "anyOf"}
            if rest.get("default", ...) is None:
                del rest["default"]
            return flatten({**kept, **rest})
        return {key: flatten(value) for key, value in node.items() if key != "$defs"}

    flat: dict[str, Any] = flatten(schema)
    return flat


def _problems(error: ValidationError) -> str:
    """Each problem as its argument path and what to change, joined on one line."""
    return "; ".join(_in_plain_words(problem) for problem in error.errors(include_url=False))


def _in_plain_words(problem: ErrorDetails) -> str:
    path = ".".join(str(part) for part in problem["loc"]) or "the arguments"
    limits = problem.get("ctx", {})
    match problem["type"]:
        case "missing":
            return f"{path} is required"
        case "extra_forbidden":
            return f"{path} is not an argument this tool takes"
        case "string_pattern_mismatch":
            return f"{path} must not be blank"
        case "string_too_short" if limits.get("min_length") == 1:
            return f"{path} must not be empty"
        case "string_too_long":
            return f"{path} must be at most {limits['max_length']} characters long"
        case "too_short":
            return f"{path} needs at least {_items(limits['min_length'])} (it has {limits['actual_length']})"
        case "too_long":
            return f"{path} takes at most {_items(limits['max_length'])} (it has {limits['actual_length']})"
    return f"{path}: {problem['msg'].removeprefix('Value error, ')}"


def _items(count: int) -> str:
    return f"{count} item" if count == 1 else f"{count} items"


def _version() -> str:
    try:
        return version("elicit-tui")
    except PackageNotFoundError:
        return "0+unknown"


def _tool_result(text: str, output: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=output.model_dump(mode="json"),
    )

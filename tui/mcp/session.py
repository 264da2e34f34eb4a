"""The conversation of `elicit-tui mcp` with a server: connect, pick a tool, fill it, call it.

Every question to the person goes through the queue, like the server's own elicitations,
so the same code runs under the TUI and under a policy with nobody there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import string
import sys
from collections.abc import Callable
from typing import Any, TextIO

from mcp import Client, StdioServerParameters
from mcp.client._transport import Transport
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import (
    CONNECTION_CLOSED,
    INTERNAL_ERROR,
    CallToolResult,
    EmbeddedResource,
    ResourceLink,
    TextContent,
    Tool,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from tui.core.models import ChoiceRequest, FormRequest, TextRequest
from tui.core.options import Option
from tui.core.queue import ElicitationQueue
from tui.core.terminal_text import literal_line
from tui.mcp.client import CANNOT_SHOW, elicitation_callback
from tui.mcp.http_transport import HttpRefusals, http_transport
from tui.mcp.options import McpOptions, UsageError
from tui.mcp.stream_end import ending_seen
from tui.mcp.url_required import ElicitationCompletions, call_tool

__all__ = ["PROTOCOLS", "CommandFailed", "Results", "refusal", "run_session"]

Results = list[dict[str, Any]]
"""The results of the calls made, in order: each a `CallToolResult` as JSON, or for a call the
server refused, its JSON-RPC error as `{"error": {"code", "message", "data"}}`."""

PROTOCOLS = ("auto", "legacy", *MODERN_PROTOCOL_VERSIONS)
"""`--protocol` values: probe, the 2025-11-25 handshake, or a 2026-era version."""

_ANOTHER = "another"
_LOG_LINES = 12
"""How much of a failed server's stderr an error message quotes."""


class CommandFailed(RuntimeError):
    """The server could not be started or reached, went away, or answered with an error
    outside a call (one refusing a call is among the results)."""


HANDSHAKE_SECONDS = 30.0
"""Seconds a server has to answer the handshake: one that never does (a command that is no
MCP server, a listener that never replies) ends the command rather than hang it."""


async def run_session(
    queue: ElicitationQueue,
    options: McpOptions,
    *,
    errlog: TextIO | None = None,
    on_connected: Callable[[str], None] | None = None,
) -> Results:
    """`_session`, ended with `CommandFailed` if the server has not answered the handshake
    within `HANDSHAKE_SECONDS`, or if a stdio server's output ends while the session waits
    on the person (its question is then withdrawn)."""
    shaken = asyncio.Event()
    ended = asyncio.Event()

    def connected(server: str) -> None:
        shaken.set()
        if on_connected is not None:
            on_connected(server)

    session = asyncio.ensure_future(
        _session(queue, options, errlog=errlog, on_connected=connected, ended=ended)
    )
    if not await _first(session, shaken, HANDSHAKE_SECONDS):
        await _cancelled(session)
        raise CommandFailed(
            literal_line(
                f"the server {options.label!r} did not answer the handshake within "
                f"{HANDSHAKE_SECONDS:g} s"
            )
            + _log_tail(errlog)
        )
    await _first(session, ended)
    if not session.done():
        # A request waiting on the server hears of its end, and the session says so itself;
        # one waiting on the person is withdrawn.
        await _first(session, None, ENDED_GRACE)
    if not session.done():
        await _cancelled(session)
        raise CommandFailed(
            literal_line(f"the server {options.label!r} closed the connection") + _log_tail(errlog)
        )
    return await session


ENDED_GRACE = 1.0
"""Seconds a session has to end by itself once its stdio server's output ended."""


async def _first(
    session: asyncio.Future[Results], event: asyncio.Event | None, timeout: float | None = None
) -> bool:
    """Wait until `event` (if any) is set or `session` is done (or `timeout` passed): whether
    either happened. Cancelled, it cancels `session` too, as awaiting it would."""
    waiting: list[asyncio.Future[Any]] = [session]
    if event is not None:
        waiting.append(asyncio.ensure_future(event.wait()))
    try:
        await asyncio.wait(waiting, timeout=timeout, return_when="FIRST_COMPLETED")
    except asyncio.CancelledError:
        session.cancel()
        raise
    finally:
        for waiter in waiting[1:]:
            waiter.cancel()
    return (event is not None and event.is_set()) or session.done()


async def _cancelled(session: asyncio.Future[Results]) -> None:
    session.cancel()
    with contextlib.suppress(BaseException):
        await session


async def _session(
    queue: ElicitationQueue,
    options: McpOptions,
    *,
    errlog: TextIO | None = None,
    on_connected: Callable[[str], None] | None = None,
    ended: asyncio.Event | None = None,
) -> Results:
    """Connect, call (the `--call` tool, or what the person picks), and return the results.

    Elicitations go to `queue`, and so do the questions of picking and filling a tool. A
    stdio server's stderr goes to `errlog` (a file, quoted when the server fails), else to
    ours. `on_connected` is called with the server's name once the handshake is done;
    `ended` is set when a stdio server's output ends.
    A call the server refuses is among the results. Raises `UsageError` for a tool the
    server does not have or an unknown protocol, and `CommandFailed` when the server cannot
    be started or reached, goes away, or answers with an error outside a call.
    """
    if options.protocol not in PROTOCOLS:
        raise UsageError(f"--protocol must be one of: {', '.join(PROTOCOLS)}")
    results: Results = []
    target: Transport
    refusals = HttpRefusals()
    if options.url is not None:
        target = http_transport(options.url, options.token, refusals, signed=options.signed)
    else:
        server = StdioServerParameters(command=options.command[0], args=[*options.command[1:]])
        target = stdio_client(server, errlog=errlog or sys.stderr)
        if ended is not None:
            target = ending_seen(target, ended)
    callback = elicitation_callback(queue, source=options.label)
    completions = ElicitationCompletions()
    try:
        async with Client(
            target,
            mode=options.protocol,
            elicitation_callback=callback,
            message_handler=completions,
        ) as client:
            info = client.session.server_info
            asker = info.name if info is not None and info.name else options.label
            if on_connected is not None:
                on_connected(asker)
            tools = await _all_tools(client)
            if options.call is not None:
                tool = _find(tools, options.call)
                await _call(
                    client, queue, completions, tool.name, options.arguments, asker, results
                )
            else:
                await _pick_and_call(client, queue, completions, tools, asker, results)
    except Exception as error:
        # the client's task groups wrap what went wrong, often twice
        cause = _innermost(error)
        if isinstance(cause, UsageError | CommandFailed):
            raise cause from None
        raise CommandFailed(_explain(cause, options, errlog, refusals.why())) from error
    return results


async def _all_tools(client: Client) -> list[Tool]:
    tools: list[Tool] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None or not page.tools:
            return tools


def _find(tools: list[Tool], name: str) -> Tool:
    for tool in tools:
        if tool.name == name:
            return tool
    names = ", ".join(tool.name for tool in tools) or "none"
    raise UsageError(f"the server has no tool {name!r} (its tools: {names})")


async def _pick_and_call(
    client: Client,
    queue: ElicitationQueue,
    completions: ElicitationCompletions,
    tools: list[Tool],
    asker: str,
    results: Results,
) -> None:
    """Pick a tool, fill its arguments, call it, show the result; again until the person is done."""
    if not tools:
        raise CommandFailed(f"{asker} offers no tools")
    while True:
        tool = await _pick_tool(queue, tools, asker)
        if tool is None:
            return
        arguments = await _ask_arguments(queue, tool, asker)
        if arguments is None:
            continue
        outcome = await _call(client, queue, completions, tool.name, arguments, asker, results)
        if not await _show_result(queue, tool, outcome, asker):
            return


async def _call(
    client: Client,
    queue: ElicitationQueue,
    completions: ElicitationCompletions,
    name: str,
    arguments: dict[str, Any],
    asker: str,
    results: Results,
) -> CallToolResult | MCPError:
    """Call the tool: what it returned, or the error the call was refused with; either is also
    added to `results`. A connection that closed is raised."""
    try:
        result = await call_tool(client, queue, completions, name, arguments, asker=asker)
    except MCPError as error:
        if error.code == CONNECTION_CLOSED:
            raise
        results.append({"error": error.error.model_dump(mode="json", exclude_none=True)})
        return error
    results.append(_as_json(result))
    return result


async def _pick_tool(queue: ElicitationQueue, tools: list[Tool], asker: str) -> Tool | None:
    request = ChoiceRequest(
        message="Which tool should run?",
        source=asker,
        options=[
            Option(label=tool.name, value=tool.name, description=_first_line(tool.description))
            for tool in tools
        ],
    )
    result = await queue.ask_async(request)
    return _find(tools, result.content) if result.accepted else None


async def _ask_arguments(queue: ElicitationQueue, tool: Tool, asker: str) -> dict[str, Any] | None:
    """The arguments from a form of the tool's input schema, or as JSON where no form fits it."""
    # the title is the SDK's "<tool>Arguments": the message already says so
    schema = {key: value for key, value in tool.input_schema.items() if key != "title"}
    if not schema.get("properties"):
        return {}
    try:
        request = FormRequest(
            message=f"Arguments for {tool.name}",
            description=tool.description,
            requested_schema=schema,
            source=asker,
        )
    except ValidationError as error:
        why = str(error.errors(include_url=False)[0]["msg"]).removeprefix("Value error, ")
        return await _ask_json_arguments(queue, tool, asker, f"No form fits its schema ({why}).")
    result = await queue.ask_async(request)
    return dict(result.content) if result.accepted else None


async def _ask_json_arguments(
    queue: ElicitationQueue, tool: Tool, asker: str, why_json: str
) -> dict[str, Any] | None:
    """The arguments typed as JSON, asked again (the problem under the question, in view)
    until they are."""
    text = "{}"
    schema = json.dumps(tool.input_schema, indent=2, ensure_ascii=False)
    about = f"{tool.description}\n\n" if tool.description else ""
    question = f"Arguments for {tool.name}, as a JSON object"
    problem: str | None = None
    while True:
        request = TextRequest(
            message=question if problem is None else f"{question}\n✖ {problem}",
            description=f"{about}{why_json}\n\nThe input schema:\n\n```json\n{schema}\n```",
            default=text,
            multiline=True,
            source=asker,
        )
        result = await queue.ask_async(request)
        if not result.accepted:
            return None
        text = str(result.content)
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            problem = f"That is not JSON yet: {error}. Fix it and press Ctrl+S again."
            continue
        if isinstance(value, dict):
            return value
        problem = 'The arguments must be a JSON object, like {"name": "value"}.'


async def _show_result(
    queue: ElicitationQueue, tool: Tool, outcome: CallToolResult | MCPError, asker: str
) -> bool:
    """Show what the call gave; True when the person wants to call another tool."""
    failed = isinstance(outcome, MCPError) or outcome.is_error
    request = ChoiceRequest(
        message=f"{tool.name} {'failed' if failed else 'returned'}",
        description=_as_markdown(outcome),
        source=asker,
        options=[Option(label="Call another tool", value=_ANOTHER), Option(label="Done")],
    )
    result = await queue.ask_async(request)
    return result.accepted and result.content == _ANOTHER


def refusal(code: int, message: str) -> str:
    """Why a call ended with the JSON-RPC error `code`, in a sentence: the server refused it,
    or an elicitation of it failed that elicit-tui could not show (the server passes that on)."""
    if message.startswith(CANNOT_SHOW):
        return f"a call failed with error {code}: {message}"
    return f"the server refused a call with error {code}: {message}"


def _as_json(result: CallToolResult) -> dict[str, Any]:
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


def _as_markdown(outcome: CallToolResult | MCPError) -> str:
    if isinstance(outcome, MCPError):
        sentence = refusal(outcome.code, outcome.message)
        return _literal_markdown(sentence[0].upper() + sentence[1:])
    parts: list[str] = []
    for block in outcome.content:
        if isinstance(block, TextContent):
            parts.append(_text_as_markdown(block.text))
        elif isinstance(block, ResourceLink):
            parts.append(f"[{block.name}]({block.uri})")
        elif isinstance(block, EmbeddedResource):
            parts.append(f"*a resource: {block.resource.uri}*")
        else:
            parts.append(f"*{block.type} content ({block.mime_type})*")
    if not parts and outcome.structured_content is not None:
        parts.append(_json_block(outcome.structured_content))
    return "\n\n".join(parts) or "*(no content)*"


def _text_as_markdown(text: str) -> str:
    """Text shown as it is, with its line breaks; JSON (as servers send structured content) as JSON."""
    try:
        value = json.loads(text)
    except ValueError:
        return _literal_markdown(text)
    return _json_block(value) if isinstance(value, dict | list) else _literal_markdown(text)


def _literal_markdown(text: str) -> str:
    """Markdown that renders as `text` itself: no markup taken from it, every line kept."""
    paragraphs = re.split(r"\n[ \t]*\n", text.strip("\n"))
    return "\n\n".join("\\\n".join(map(_literal_line, p.splitlines())) for p in paragraphs)


def _literal_line(line: str) -> str:
    # Leading spaces would make a code block or vanish: keep them as non-breaking spaces.
    body = line.lstrip(" ")
    return "\u00a0" * (len(line) - len(body)) + _MARKDOWN_SYNTAX.sub(r"\\\g<0>", body)


_MARKDOWN_SYNTAX = re.compile(f"[{re.escape(string.punctuation)}]")
"""Every ASCII punctuation character may be escaped with a backslash in CommonMark."""


def _json_block(value: Any) -> str:
    return f"```json\n{json.dumps(value, indent=2, ensure_ascii=False)}\n```"


def _first_line(text: str | None) -> str | None:
    return text.strip().splitlines()[0] if text and text.strip() else None


def _innermost(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def _explain(
    error: BaseException, options: McpOptions, errlog: TextIO | None, refused: str | None
) -> str:
    """What went wrong with the server, in one sentence (and its last stderr lines, if kept),
    shown literally: the server's words may hold escape sequences. `refused` is the HTTP
    status a server at a URL refused a request with, which the SDK's error does not say."""
    if isinstance(error, MCPError) and error.code == INTERNAL_ERROR and refused is not None:
        what = f"the server {options.label!r} answered {refused}"
    elif isinstance(error, MCPError) and error.code == CONNECTION_CLOSED:
        what = f"the server {options.label!r} closed the connection"
    elif isinstance(error, MCPError):
        what = f"the server {options.label!r} answered with error {error.code}: {error.message}"
    elif isinstance(error, ValidationError):
        what = _protocol_mismatch(error, options)
    elif isinstance(error, OSError) and options.url is None:
        what = f"cannot start {options.label!r}: {error}"
    else:
        what = f"cannot talk to {options.label!r}: {type(error).__name__}: {error}"
    return literal_line(what) + _log_tail(errlog)


def _protocol_mismatch(error: ValidationError, options: McpOptions) -> str:
    """A server's answer that does not fit the protocol: say which, instead of the dump."""
    problem = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in problem["loc"])
    shape = f"its {error.title} does not fit that protocol ({where}: {problem['msg']})"
    if options.protocol in MODERN_PROTOCOL_VERSIONS:
        return (
            f"the server {options.label!r} does not speak MCP {options.protocol}: {shape}; "
            "leave out --protocol (or say --protocol legacy) to use the protocol it speaks"
        )
    return f"the server {options.label!r} broke the MCP protocol it agreed to: {shape}"


def _log_tail(errlog: TextIO | None) -> str:
    if errlog is None:
        return ""
    errlog.seek(0)
    lines = [line for line in errlog.read().splitlines() if line.strip()]
    if not lines:
        return ""
    return "\nIts last words on stderr:\n" + "\n".join(map(literal_line, lines[-_LOG_LINES:]))

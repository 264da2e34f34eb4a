"""The MCP tool `elicit`: any built-in request kind, in one flat argument list.

The arguments are the request's own fields, every built-in kind's side by side (`kind` says
which apply), so a client sees one plain object schema with `kind` an enum; a kind of one's
own, whose fields no schema here names, is asked through the inbox's HTTP API instead. The request is validated by
`parse_request`, and refused with its error text, before anyone sees it. A secret must name
where the keyring keeps it (`store`): the caller gets the reference, never the value, and
secret form fields come back as `"**********"`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from tui.core.models import KEYRING_UNAVAILABLE, Action, ElicitationResult, Request, parse_request
from tui.core.validation_text import describe_validation_error
from tui.secrets.keyring_store import keyring_status

Ask = Callable[[Request, Context], Awaitable[ElicitationResult]]
"""Asks the person and waits, withdrawing the request if the call is cancelled."""

Kind = Literal[
    "text",
    "choice",
    "multi_choice",
    "secret",
    "confirmation",
    "form",
    "questions",
    "tool_approval",
    "url",
]


class ElicitOutput(BaseModel):
    """What `elicit` returns as structured content."""

    action: Action = Field(
        description="accept: answered; decline: refused to answer; cancel: dismissed or withdrawn."
    )
    content: Any = Field(
        default=None,
        description="The answer on accept: text, the chosen option value(s), true/false, the "
        'form\'s fields, {"answers": ...} for questions, {"scope": ...} for a tool approval, '
        "the keyring service/username for a secret.",
    )
    reason: str | None = Field(
        default=None, description="Why it ended without an answer (timeout, closed, ...)."
    )


def _field(text: str) -> Any:
    return Field(default=None, description=text)


def register_elicit(server: MCPServer, ask: Ask, source: Callable[[Context], str]) -> None:
    """Add the `elicit` tool to `server`; each call asks through `ask`, shown as from `source`."""

    async def elicit(
        kind: Annotated[Kind, Field(description="Which kind of request; says which fields apply.")],
        message: Annotated[str, Field(min_length=1, description="The question, shown first.")],
        ctx: Context,
        title: Annotated[str | None, _field("A heading above the question.")] = None,
        description: Annotated[str | None, _field("More detail, in markdown.")] = None,
        timeout: Annotated[
            float | None, _field("Seconds before it is cancelled unanswered.")
        ] = None,
        options: Annotated[
            list[Any] | None,
            _field("choice, multi_choice: the options, as labels or {label, value, description}."),
        ] = None,
        default: Annotated[
            Any,
            _field(
                "text: the text filled in; choice: an option value; multi_choice: a list of "
                "values; confirmation: true or false."
            ),
        ] = None,
        placeholder: Annotated[
            str | None, _field("text, secret: a hint in the empty field.")
        ] = None,
        multiline: Annotated[bool | None, _field("text: allow several lines.")] = None,
        min_length: Annotated[int | None, _field("text, secret: fewest characters.")] = None,
        max_length: Annotated[int | None, _field("text: most characters.")] = None,
        min_selected: Annotated[int | None, _field("multi_choice: fewest options.")] = None,
        max_selected: Annotated[int | None, _field("multi_choice: most options.")] = None,
        yes_label: Annotated[str | None, _field("confirmation: the yes button.")] = None,
        no_label: Annotated[str | None, _field("confirmation: the no button.")] = None,
        store: Annotated[
            dict[str, str] | None,
            _field("secret (required): {service, username} of the keyring entry to store it in."),
        ] = None,
        confirm: Annotated[bool | None, _field("secret: have it typed twice.")] = None,
        pattern: Annotated[str | None, _field("secret: its expected shape, like sk-...")] = None,
        requested_schema: Annotated[
            dict[str, Any] | None, _field("form: a flat JSON object schema (MCP requestedSchema).")
        ] = None,
        questions: Annotated[
            list[dict[str, Any]] | None,
            _field(
                "questions: each {question, header, options: [{label, description, preview}], "
                "multi_select, allow_other}; any number of options."
            ),
        ] = None,
        preview_format: Annotated[
            str | None, _field("questions: how option previews render, markdown or html.")
        ] = None,
        tool_name: Annotated[str | None, _field("tool_approval: the tool to run.")] = None,
        tool_call_id: Annotated[str | None, _field("tool_approval: the call's id.")] = None,
        arguments: Annotated[
            dict[str, Any] | None, _field("tool_approval: the call's arguments.")
        ] = None,
        summary: Annotated[
            str | None, _field("tool_approval: one line saying what it does.")
        ] = None,
        diff: Annotated[str | None, _field("tool_approval: a unified diff it would apply.")] = None,
        remember: Annotated[
            dict[str, str] | None,
            _field("tool_approval: {argument, pattern} that 'always allow' covers."),
        ] = None,
        folder: Annotated[
            str | None,
            _field("tool_approval: the folder it runs in; rules made then hold there only."),
        ] = None,
        url: Annotated[str | None, _field("url: the http(s) page to open on consent.")] = None,
    ) -> Annotated[CallToolResult, ElicitOutput]:
        fields = {
            name: value
            for name, value in locals().items()
            if name not in ("ctx", "ask", "source") and value is not None
        }
        fields["source"] = source(ctx)
        try:
            request = parse_request(fields)
        except ValidationError as error:
            raise ToolError(describe_validation_error(error)) from None
        if request.kind == "secret" and fields.get("store") is None:
            raise ToolError(
                "invalid request:\n  store: a secret asked through MCP must name the keyring "
                "entry {service, username} it is stored in; you get only that reference"
            )
        if request.kind == "secret" and (problem := keyring_status()) is not None:
            result = ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE)
            return _output(f"The secret was not asked for: {problem}", result)
        result = await ask(request, ctx)
        return _output(result.to_llm_text(), result)

    server.add_tool(
        elicit,
        name="elicit",
        title="Ask the user anything",
        description="Ask the person at the keyboard one request of any kind and wait for the "
        "answer: text, choice (any number of options), multi_choice, confirmation, form (a "
        "JSON schema), questions (several questions, options with previews), tool_approval "
        "(may a tool call run?), url (consent to open a page) or secret (stored in the "
        "keyring; you get only its service/username). Set kind and the fields it uses.",
        annotations=ToolAnnotations(read_only_hint=False, open_world_hint=False),
    )


_ANY: TypeAdapter[Any] = TypeAdapter(Any)


def _output(text: str, result: ElicitationResult) -> CallToolResult:
    # In JSON mode a secret form field dumps as "**********", a keyring reference as itself.
    content = _ANY.dump_python(result.content, mode="json")
    output = ElicitOutput(action=result.action, content=content, reason=result.reason)
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=output.model_dump(mode="json"),
    )

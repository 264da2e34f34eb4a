"""AgentPool: an `InputProvider` that asks the person through elicit-tui.

AgentPool (Python 3.13 or newer) routes every question its agents have for the person to the
pool's input provider: text input, structured input (a pydantic model: asked as a form, the
answer is a model instance), tool confirmations (a `ToolApprovalRequest`: allowed, skipped
when denied, the run aborted when cancelled) and MCP elicitations (asked as elicit-tui's MCP
bridge asks them, answered with an MCP `ElicitResult`).
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from agentpool.ui.base import InputProvider as _AgentPoolInputProvider
from mcp_types import ElicitRequestParams, ElicitResult, ErrorData
from pydantic import BaseModel

from tui.core.models import FormRequest, TextRequest, ToolApprovalRequest
from tui.core.queue import ElicitationQueue
from tui.integrations.ask_all import RunCancelled, ask_all_async
from tui.mcp.client import elicitation_callback

__all__ = ["InputProvider", "RunCancelled"]

SOURCE = "agentpool"

Confirmation = Literal["allow", "skip", "abort_run", "abort_chain"]


class InputProvider(_AgentPoolInputProvider):  # type: ignore[misc]
    """AgentPool's input provider answering through `queue` (give it to the pool or agent)."""

    def __init__(self, queue: ElicitationQueue) -> None:
        self.queue = queue
        self._elicit = elicitation_callback(queue, source=SOURCE)

    async def get_text_input(self, context: Any, prompt: str) -> str:
        """The person's text; a decline answers that they declined, a cancel stops the run."""
        (result,) = await ask_all_async(
            self.queue, [TextRequest(message=prompt, source=_source(context))]
        )
        return str(result.content) if result.accepted else result.to_llm_text()

    async def get_structured_input(
        self, context: Any, prompt: str, output_type: type[BaseModel]
    ) -> BaseModel:
        """An `output_type` instance filled in as a form; anything but an answer stops the run."""
        request = FormRequest.from_model(output_type, message=prompt, source=_source(context))
        (result,) = await ask_all_async(self.queue, [request])
        content = result.content
        if result.accepted and isinstance(content, dict):
            # front ends other than the app (a script) answer with the form's plain content
            content = request.finish_content(content)
        if not isinstance(content, output_type):
            raise RunCancelled(request, result)
        return content

    async def get_tool_confirmation(self, context: Any, tool_description: str = "") -> Confirmation:
        """ "allow" when the person allows the call, "skip" when they deny it, else "abort_run".

        AgentPool runs a call only as the model made it: one the person allowed with edited
        arguments is skipped, never run as it was asked."""
        request = ToolApprovalRequest(
            tool_name=context.tool_name or "tool",
            arguments=dict(context.tool_input or {}),
            description=tool_description or None,
            tool_call_id=context.tool_call_id or uuid.uuid4().hex,
            source=_source(context),
        )
        result = await self.queue.ask_async(request)
        if result.action == "cancel":
            return "abort_run"
        if request.scope_of(result) is None:
            return "skip"
        edited = request.edited_arguments(result)
        return "allow" if edited is None or edited == request.arguments else "skip"

    async def get_elicitation(self, params: ElicitRequestParams) -> ElicitResult | ErrorData:
        """The MCP answer to a server's (or a tool's) elicitation."""
        return await self._elicit(None, params)


def _source(context: Any) -> str:
    node = getattr(context, "node_name", None)
    return node if isinstance(node, str) and node else SOURCE

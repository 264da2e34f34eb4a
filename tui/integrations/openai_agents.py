"""OpenAI Agents SDK: run an agent, and ask the person about every tool call needing approval.

A tool made with `needs_approval` interrupts the run; each interruption becomes a
`ToolApprovalRequest`. An allow approves that one call, whatever its scope: "for this session"
and "always" are remembered by the front end's approval rules, which answer a later call they
cover and leave the others to the person. The request names no pattern, so such a rule
covers every call of the tool, as the dialog says ("every shell call"); an "always" rule
made elsewhere for one command covers that command only. "Deny" rejects the call, the
person's reason going to the model. The SDK approves a call only with the model's own arguments, so a
call the person edited is rejected with a message giving the model the edited arguments to
call the tool again with: the call as the model made it never runs. A cancel stops the run
with `RunCancelled`.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

from agents import Agent, Runner, RunResult, ToolApprovalItem

from tui.core.models import ElicitationResult, ToolApprovalRequest
from tui.core.queue import ElicitationQueue
from tui.integrations.ask_all import RunCancelled, ask_all_async

__all__ = ["RunCancelled", "approval_request", "run", "run_async"]


def run(agent: Agent[Any], input: Any, queue: ElicitationQueue, **run_options: Any) -> RunResult:
    """`Runner.run(agent, input)` with every interruption resolved by the person; the final result.

    Blocks the calling thread (an agent thread); `run_options` go to `Runner.run`.
    """
    return asyncio.run(run_async(agent, input, queue, **run_options))


async def run_async(
    agent: Agent[Any], input: Any, queue: ElicitationQueue, **run_options: Any
) -> RunResult:
    """The same as `run`, awaited on the caller's event loop."""
    result = await Runner.run(agent, input, **run_options)
    while result.interruptions:
        state = result.to_state()
        items = list(result.interruptions)
        requests = [approval_request(item) for item in items]
        answers = await ask_all_async(queue, requests)
        for item, request, answer in zip(items, requests, answers, strict=True):
            _decide(state, item, request, answer)
        result = await Runner.run(agent, state, **run_options)
    return result


def approval_request(item: ToolApprovalItem) -> ToolApprovalRequest:
    """The approval asked for one interruption: its tool, arguments and call id."""
    raw = item.arguments or "{}"
    try:
        arguments = json.loads(raw)
    except ValueError:
        arguments = {"arguments": raw}
    if not isinstance(arguments, dict):
        arguments = {"arguments": arguments}
    return ToolApprovalRequest(
        tool_name=item.tool_name or item.name or "tool",
        arguments=arguments,
        tool_call_id=item.call_id or uuid.uuid4().hex,
        source=item.agent.name,
        edits_retried=True,  # `_decide`: an edited call is rejected, the model told to retry
    )


def _decide(
    state: Any, item: ToolApprovalItem, request: ToolApprovalRequest, answer: ElicitationResult
) -> None:
    scope = request.scope_of(answer)
    edited = request.edited_arguments(answer)
    if scope is not None and edited is not None and edited != request.arguments:
        state.reject(item, rejection_message=request.call_again_as_edited(edited))
        return
    if scope is not None:
        state.approve(item)
        return
    reason = request.denial_reason(answer)
    state.reject(item, rejection_message=f"Denied by the user: {reason}" if reason else None)

"""App-wide messages: what other threads tell the UI thread, posted with `App.post_message`."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from tui.core.queue import QueueEvent


class QueueEventPosted(Message):
    """A queue event, carried from whichever thread caused it to the UI thread."""

    def __init__(self, event: QueueEvent) -> None:
        super().__init__()
        self.event = event


class AgentFinished(Message):
    """The agent callable returned `value`."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


class AgentFailed(Message):
    """The agent callable raised `error`."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


class AgentActivity(Message):
    """What the agent is doing now, in a few words ("Connected to MCP server x")."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

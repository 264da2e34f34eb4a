"""The main screen's panel saying what the agent is doing, what it returned, or how it failed."""

from __future__ import annotations

import traceback
from typing import Any

from rich.console import Group
from rich.pretty import Pretty
from rich.text import Text
from textual.widgets import Static


class AgentStatus(Static):
    """Idle, running, finished with a value, or failed with an exception (shown, not fatal)."""

    def show_idle(self) -> None:
        self.set_classes("idle")
        self.update(Text("No agent attached: requests from the queue appear as they come."))

    def show_running(self, name: str) -> None:
        self.set_classes("running")
        self.update(Text.assemble(("● ", "bold"), f"Agent {name} is running"))

    def show_finished(self, value: Any) -> None:
        self.set_classes("finished")
        heading = Text.assemble(("✔ ", "bold"), "Agent finished")
        self.update(heading if value is None else Group(heading, Text("returned:"), Pretty(value)))

    def show_failed(self, error: BaseException) -> None:
        self.set_classes("failed")
        lines = traceback.format_exception(error)
        self.update(
            Group(
                Text.assemble(("✖ ", "bold"), f"Agent failed: {type(error).__name__}: {error}"),
                Text("".join(lines[-6:]).rstrip(), style="dim"),
            )
        )

"""A secret asked for through the real app: an agent thread asks, Pilot types, the test reads."""

from __future__ import annotations

import io
from typing import Any, TypeVar

from app_driver import wait_for
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from tui.app.app import ElicitationApp
from tui.core.models import ElicitationResult, KeyringTarget, Request
from tui.core.queue import ElicitationQueue
from widgets.base import ElicitationModal
from widgets.timeline import Timeline

SIZE = (80, 24)
CANARY = "sk-Q7vX93kLmZ2p"
"""The secret the tests type; it must turn up only where it is meant to."""
CANARY_PIECES = frozenset(CANARY[start : start + 6] for start in range(len(CANARY) - 5))
"""Every six characters of the canary: a cut-off secret ("sk-Q7vX93…") leaks too."""
TARGET = KeyringTarget(service="myapp", username="openai_api_key")

ModalT = TypeVar("ModalT", bound=ElicitationModal[Any])


async def wait_for_modal(pilot: Pilot[Any], modal_type: type[ModalT]) -> ModalT:
    """The modal of `modal_type` once it is the app's screen."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, modal_type))
    screen = pilot.app.screen
    assert isinstance(screen, modal_type)
    return screen


def asking_app(request: Request) -> tuple[ElicitationApp, list[ElicitationResult]]:
    """An app whose agent asks `request` once; the result lands in the returned list."""
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(request))

    return ElicitationApp(ElicitationQueue(), agent, input_grace=0), results


def carries_canary(text: str) -> bool:
    """True if `text` holds the canary, or six characters of it in a row."""
    return any(piece in text for piece in CANARY_PIECES)


def static_text(widget: Static) -> str:
    """The plain text of a Static updated with a string."""
    return str(widget.content)


def rendered_text(widget: Static) -> str:
    """What a Static updated with a Rich renderable draws, lines unwrapped."""
    console = Console(width=1000, file=io.StringIO(), color_system=None)
    with console.capture() as capture:
        console.print(widget.content)
    return capture.get()


def timeline_text(app: ElicitationApp) -> str:
    """Every cell of the timeline, one row a line."""
    table = app.query_one(Timeline)
    return "\n".join(" | ".join(table.cells(key.value or "").values()) for key in table.rows)

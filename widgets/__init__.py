"""The modal screens of elicit-tui, one per request kind, and the main screen's parts."""

from __future__ import annotations

from widgets import (
    choice,
    confirmation,
    form,
    multi_choice,
    questions,
    secret,
    text,
    tool_approval,
    url,
)
from widgets.registry import modal_for

__all__ = [
    "choice",
    "confirmation",
    "form",
    "modal_for",
    "multi_choice",
    "questions",
    "secret",
    "text",
    "tool_approval",
    "url",
]

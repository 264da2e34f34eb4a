"""Which modal shows which request kind."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from tui.core.models import Request
from widgets.base import ElicitationModal

MODAL_MODULES = {
    kind: f"widgets.{kind}"
    for kind in (
        "choice",
        "confirmation",
        "form",
        "multi_choice",
        "questions",
        "secret",
        "text",
        "tool_approval",
        "url",
    )
}
"""The module whose modal shows each kind, loaded on the first request of that kind."""


def modal_class_for(kind: str) -> type[ElicitationModal[Any]] | None:
    """The modal class that shows `kind` (its module loaded now if it was not), or None."""
    if kind in MODAL_MODULES:
        import_module(MODAL_MODULES[kind])
    return ElicitationModal.registry.get(kind)


def modal_for(
    request: Request, *, deadline: float | None = None, input_grace: float = 0.2
) -> ElicitationModal[Any]:
    """A new modal for `request`; raises LookupError for a kind no modal shows."""
    modal_class = modal_class_for(request.kind)
    if modal_class is None:
        raise LookupError(f"no modal shows requests of kind {request.kind!r}")
    return modal_class(request, deadline=deadline, input_grace=input_grace)

"""Which modal shows which request kind."""

from __future__ import annotations

from typing import Any

from tui.core.models import Request
from widgets.base import ElicitationModal


def modal_for(
    request: Request, *, deadline: float | None = None, input_grace: float = 0.2
) -> ElicitationModal[Any]:
    """A new modal for `request`; raises LookupError for a kind no modal shows."""
    try:
        modal_class = ElicitationModal.registry[request.kind]
    except KeyError:
        raise LookupError(f"no modal shows requests of kind {request.kind!r}") from None
    return modal_class(request, deadline=deadline, input_grace=input_grace)

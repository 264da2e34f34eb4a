"""Which modal shows which request kind: the one `tui.register_kind` names for it."""

from __future__ import annotations

import inspect
from importlib import import_module
from typing import Any

from tui.core.error_text import error_text
from tui.core.kinds import kind, unloaded_kind_modules
from tui.core.models import Request
from widgets.base import ElicitationModal


def modal_class_for(name: str) -> type[ElicitationModal[Any]] | None:
    """The modal class registered for kind `name` (its module imported now if it was not),
    or None if the kind has no modal; raises LookupError if the registered one cannot load,
    or is no modal that can answer."""
    found = kind(name)
    if found is None or found.modal is None:
        return None
    module_name, _, class_name = found.modal.partition(":")
    try:
        modal_class = getattr(import_module(module_name), class_name)
    except Exception as error:  # any error as its module is imported: a program's own module
        raise LookupError(
            f"the modal of kind {name!r}, {found.modal}, cannot load: {error_text(error)}"
        ) from None
    if not (isinstance(modal_class, type) and issubclass(modal_class, ElicitationModal)):
        raise LookupError(f"the modal of kind {name!r}, {found.modal}, is not an ElicitationModal")
    if modal_class.content is ElicitationModal.content:
        # Found now, not once the person has typed an answer it could never give.
        raise LookupError(
            f"the modal of kind {name!r}, {found.modal}, has no content() to give an answer"
        )
    if inspect.iscoroutinefunction(modal_class.content):
        # A natural slip in Textual code; called, it gives a coroutine, which is no answer.
        raise LookupError(
            f"the modal of kind {name!r}, {found.modal}, has an async content(): it must"
            " return the answer's content, so make it a plain def"
        )
    return modal_class


def modal_for(
    request: Request, *, deadline: float | None = None, input_grace: float = 0.2
) -> ElicitationModal[Any]:
    """A new modal for `request`; raises LookupError for a kind no modal shows."""
    modal_class = modal_class_for(request.kind)
    if modal_class is None and kind(request.kind) is None:
        raise LookupError(
            f"kind {request.kind!r} is not registered in this process:"
            f" name its module in ELICIT_TUI_KINDS{unloaded_kind_modules()}"
        )
    if modal_class is None:
        raise LookupError(f"no modal shows requests of kind {request.kind!r}")
    return modal_class(request, deadline=deadline, input_grace=input_grace)

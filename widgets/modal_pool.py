"""Answered modals kept, one per shape, to show the next request of that shape at once."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import count
from typing import Any

from textual.app import App

from tui.core.models import Request
from widgets.base import ElicitationModal
from widgets.registry import modal_class_for, modal_for


class ModalPool:
    """Hands out a modal for each request: an idle one of the same shape, reloaded, if the
    pool has one, else a new one. Composing and styling a modal's widgets is most of the
    time a question takes to appear; a reloaded modal only updates their values.

    A modal given out by `take()` must come back through `give_back()` once it is answered.
    Reusable modals are installed in `app`, so that Textual keeps them when they close.
    """

    def __init__(self, app: App[Any], *, input_grace: float = 0.2) -> None:
        self._app = app
        self._input_grace = input_grace
        self._idle: dict[Hashable, ElicitationModal[Any]] = {}
        self._names = count(1)

    def take(self, request: Request, *, deadline: float | None = None) -> ElicitationModal[Any]:
        """A modal showing `request`; raises LookupError for a kind no modal shows."""
        modal_class = modal_class_for(request.kind)
        shape = None if modal_class is None else modal_class.shape(request)
        idle = self._idle.pop(shape, None) if shape is not None else None
        if idle is not None:
            idle.reload(request, deadline=deadline)
            return idle
        modal = modal_for(request, deadline=deadline, input_grace=self._input_grace)
        if shape is not None:
            self._app.install_screen(modal, name=f"elicitation-modal-{next(self._names)}")
        return modal

    def give_back(self, modal: ElicitationModal[Any]) -> None:
        """`modal` is answered: keep it for the next request of its shape, with what was
        entered in it forgotten."""
        shape = modal.shape(modal.request)
        if shape is None:
            return
        modal.release()
        # One modal is shown at a time, so the pool has none of this shape idle now.
        self._idle[shape] = modal

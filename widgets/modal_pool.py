"""Answered modals kept, one per shape, to show the next request of that shape at once."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import count
from typing import Any

from textual.app import App

from styles import add_sheets
from tui.core.models import Request
from widgets.base import ElicitationModal
from widgets.key_footer import KeyFooter
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
        self._undrawn: set[Hashable] = set()
        """Shapes whose idle modal was built ahead and not drawn yet (see `draw_ahead`)."""
        self._names = count(1)
        self.building: ElicitationModal[Any] | None = None
        """The modal `prebuild()` is mounting, not yet given out."""

    def take(self, request: Request, *, deadline: float | None = None) -> ElicitationModal[Any]:
        """A modal showing `request`; raises LookupError for a kind no modal shows, and what
        a kind's own modal raised as it was made or filled."""
        shape = _shape_of(request)
        idle = self._idle.pop(shape, None) if shape is not None else None
        self._undrawn.discard(shape)
        if idle is not None:
            try:
                idle.reload(request, deadline=deadline)
            except Exception:
                # A kind's own `fill` raised: the modal may be half filled; it goes.
                self.discard(idle)
                idle.remove()
                raise
            return idle
        modal = self._made(request, deadline)
        if shape is not None:
            self._app.install_screen(modal, name=f"elicitation-modal-{next(self._names)}")
        return modal

    def _made(self, request: Request, deadline: float | None = None) -> ElicitationModal[Any]:
        """A new modal for `request`, the app's stylesheet given the sheets its kind needs."""
        modal = modal_for(request, deadline=deadline, input_grace=self._input_grace)
        add_sheets(self._app.stylesheet, modal.STYLESHEETS)
        return modal

    def give_back(self, modal: ElicitationModal[Any]) -> BaseException | None:
        """`modal` is answered: keep it for the next request of its shape, with what was
        entered in it forgotten, unless it `failed`; returns the error a kind's own `forget`
        raised now (the modal is then `failed` too, and not kept)."""
        shape = modal.shape(modal.request)
        if shape is None:
            return None
        forgot: BaseException | None = None
        if modal.failed is None:
            try:
                modal.release()
            except Exception as error:
                modal.failed = forgot = error
        if modal.failed is not None:
            self.discard(modal)
            return forgot
        kept = self._idle.get(shape)
        if kept is not None:
            # Built ahead (`prebuild`) while this one was shown: one idle per shape is enough.
            self._app.uninstall_screen(kept)
            kept.remove()
        self._idle[shape] = modal
        self._undrawn.discard(shape)  # it has been on screen
        return None

    def discard(self, modal: ElicitationModal[Any]) -> None:
        """Forget `modal`, which is off the screen stack (its code raised an error): it is
        never given out again, and no longer installed, so Textual removes it as it leaves
        the stack (or, never shown, as it is removed)."""
        for shape, idle in list(self._idle.items()):
            if idle is modal:
                del self._idle[shape]
                self._undrawn.discard(shape)
        self._app.uninstall_screen(modal)

    async def prebuild(self, request: Request) -> ElicitationModal[Any] | None:
        """Build a modal for requests of `request`'s shape and keep it idle, composed and
        styled but not shown, so that the first such request is shown by a reload. Builds
        nothing if the pool has one idle already or the kind is composed afresh for each
        request; returns once the modal's widgets are mounted (`building` until then), with
        the modal kept, if it was, or the one kept already if it is yet to be drawn."""
        shape = _shape_of(request)
        if shape is None or shape in self._idle:
            return self._idle[shape] if shape in self._undrawn else None
        modal = self._made(request)
        self._app.install_screen(modal, name=f"elicitation-modal-{next(self._names)}")
        self.building = modal
        try:
            # Textual has no public way to start a screen without showing it: pushing one
            # does this first (load its CSS, run it, mount what it composes), then shows it.
            # Waited for here, not as pushing waits (as the app's next message, which holds
            # every message behind it): a question arriving meanwhile is handled at once.
            self._app._load_screen_css(modal)
            self._app._register(self._app, modal)
            await modal._mounted_event.wait()
        finally:
            self.building = None
        if modal.failed is not None:
            return None  # its code raised as it was built: the app has discarded it
        if shape in self._idle:
            # A request of this shape was shown meanwhile, in a modal of its own, now kept.
            self._app.uninstall_screen(modal)
            await modal.remove()
            return None
        if not self._app.is_running:
            return None  # the app began to shut down meanwhile
        # Kept as an answered one is: its reload expects what it showed forgotten.
        modal.release()
        self._idle[shape] = modal
        self._undrawn.add(shape)
        return modal

    async def draw_ahead(self, modal: ElicitationModal[Any]) -> None:
        """Lay `modal`, kept idle, out at the app's size and draw it once, unseen (nothing
        reaches the terminal): a widget's first frame costs more than its next ones (render
        caches, styles resolved), even once the next request's text is in it. A step apart
        from `prebuild()`, so that a question arriving meanwhile is not kept waiting for it.

        Its footer first builds the keys the modal offers as set aside: until then it may
        have none (its screen, never shown, has not said its bindings are ready) or those
        offered as it was built, and it would build them only after the next refresh, too
        late to be drawn here: they were drawn for the first time with the first question."""
        if not self._undrawn_idle(modal):
            return
        await modal.query_one(KeyFooter).catch_up()
        if not self._undrawn_idle(modal):
            return  # taken meanwhile by a question of its shape, or the app is ending
        self._undrawn.discard(modal.shape(modal.request))
        modal._refresh_layout(self._app.size)
        modal._compositor.render_full_update()

    def _undrawn_idle(self, modal: ElicitationModal[Any]) -> bool:
        """Whether `modal` is kept idle, not drawn yet, and the app still runs."""
        shape = modal.shape(modal.request)
        return self._idle.get(shape) is modal and shape in self._undrawn and self._app.is_running


def _shape_of(request: Request) -> Hashable | None:
    """The shape of the modal that shows `request` (see `ElicitationModal.shape`); None for
    a kind composed afresh for each request, or that no modal shows."""
    modal_class = modal_class_for(request.kind)
    return None if modal_class is None else modal_class.shape(request)

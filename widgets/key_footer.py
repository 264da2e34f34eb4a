"""The footer that lists the keys of the screen in front, rebuilt only when they change."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """A `Footer` that rebuilds its keys only when the keys to show differ and its screen is
    in view, and then lets go of the keys it replaced.

    Footer rebuilds all its keys whenever the screen's bindings may have changed: a modal
    opens or closes, the focus moves, a modal is reloaded with the next question. Most of
    the time the keys are the same, and rebuilding them (mounting and styling a widget per
    key) is the largest cost of showing a question. Each key built also binds itself to the
    footer's `compact` setting, and Textual drops such a binding only when `compact`
    changes: without pruning, every key ever shown would stay alive through the footer.

    A screen covered by another (the main screen under a question) rebuilds nothing: the
    question just asked would wait for it. Textual refreshes a screen's bindings as it comes
    back into view, and the footer catches up then.
    """

    _keys_built: Hashable = None
    """What the keys now in the footer were built from (None: nothing yet)."""

    def _keys_to_show(self) -> Hashable:
        """Everything `compose()` builds the keys from."""
        return self.show_command_palette, tuple(
            (
                binding.key,
                binding.action,
                binding.description,
                binding.key_display,
                binding.group,
                enabled,
                tooltip,
            )
            for _, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )

    def _covered(self) -> bool:
        """Whether an opaque screen hides this footer's screen (Textual's `is_current` counts
        the screen right under the top one as in view, whatever covers it)."""
        stack = self.app.screen_stack
        screen = self.screen
        if screen not in stack:
            return False  # not shown yet (a modal built ahead): its keys are built ahead too
        above = stack[stack.index(screen) + 1 :]
        return any(covering.styles.background.a == 1 for covering in above)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # A key starts compact and its binding to the footer's `compact` then sets it
                # as the footer is: a restyle each way, for every key. Started as the footer
                # is, neither happens (a fifth of building a question's dialog ahead). The
                # command palette's key is not bound: it stays compact.
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    async def recompose(self) -> None:
        if not self.is_attached:
            return  # a rebuild asked for just before the screen closed
        if self._covered():
            return  # rebuilt as its screen comes back into view
        keys = self._keys_to_show() if self._bindings_ready else None
        if keys is not None and keys == self._keys_built:
            return
        self._keys_built = keys
        await super().recompose()
        # Textual keeps each binding as a watcher in the watched node's "__watchers" map;
        # drop those of keys no longer in the footer (without re-running the others).
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        bound = watchers.get("compact", [])
        bound[:] = [(node, callback) for node, callback in bound if node.is_attached]

"""The footer that lists the keys of the screen in front, rebuilt only when they change."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer, Label
from textual.widgets._footer import FooterKey

LAST_ACTIONS = ("cancel", "decline", "app.quit")
"""The keys every dialog has, in this order after the dialog's own keys: in a narrow pane
they are the ones cut, not the keys only this dialog has."""

MORE = "…"
"""Shown after the last key that fits whole when the keys are cut."""


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

    The dialog's own keys come first, then `LAST_ACTIONS`. Keys that do not fit whole are
    hidden, and "…" after the last one shown says there are more.
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
        first: list[Widget] = []
        last: list[FooterKey] = []
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # A key starts compact and its binding to the footer's `compact` then sets it
                # as the footer is: a restyle each way, for every key. Started as the footer
                # is, neither happens (a fifth of building a question's dialog ahead). The
                # command palette's key is not bound: it stays compact.
                widget.set_reactive(FooterKey.compact, self.compact)
                if widget.action in LAST_ACTIONS:
                    last.append(widget)
                    continue
            first.append(widget)
        yield from first
        yield from sorted(last, key=lambda key: LAST_ACTIONS.index(key.action))
        if first or last:  # (none before the first frame: the keys are built after it)
            more = Label(MORE, classes="more")
            more.display = False
            yield more

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Show the keys that fit whole, in order, and "…" after them if any do not."""
        room = self.size.width
        if not room:
            return  # not laid out yet: its first resize fits it
        keys: list[FooterKey] = []
        for child in self.children:
            if isinstance(child, FooterKey):
                if child.has_class("-command-palette"):
                    room -= _width(child)  # docked at the right
                else:
                    keys.append(child)
        widths = [_width(key) for key in keys]
        cut = sum(widths) > room
        if cut:
            room -= len(MORE)
        for key, width in zip(keys, widths, strict=True):
            key.display = width <= room
            room = room - width if key.display else -1
        for more in self.query_children(".more"):
            more.display = cut

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
        self._fit()


def _width(key: FooterKey) -> int:
    """The cells `key` takes in the footer: its text and its margins."""
    return key.render().cell_len + key.styles.margin.width

"""The footer that lists the keys of the screen in front, without keeping the keys it replaced."""

from __future__ import annotations

from textual.widgets import Footer


class KeyFooter(Footer):
    """A `Footer` that lets go of its old keys each time it rebuilds them.

    Footer rebuilds its keys whenever the bindings change (a modal opens or closes, the focus
    moves). Each key it builds binds itself to the footer's `compact` setting, and Textual
    drops such a binding only when `compact` changes: without this, every key ever shown stays
    alive through the footer, and a long session grows by a few widgets per question.
    """

    async def recompose(self) -> None:
        await super().recompose()
        # Running the `compact` watchers prunes those of keys that were removed (closed).
        self.mutate_reactive(Footer.compact)

"""The footer that lists the keys of the screen in front, without keeping the keys it replaced."""

from __future__ import annotations

from typing import Any

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
        # Textual keeps each binding as a watcher in the watched node's "__watchers" map;
        # drop those of keys no longer in the footer (without re-running the others).
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        bound = watchers.get("compact", [])
        bound[:] = [(node, callback) for node, callback in bound if node.is_attached]

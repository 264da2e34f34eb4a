"""What makes a frame the same on every run: cursors that do not blink, and knowing when the
app has finished what a step set going."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widgets import Input, Markdown, TextArea

from tui.app.key_order import KeyOrderApp


def steady_cursors(app: App[Any]) -> None:
    """Stop every cursor on the current screen blinking, so frames do not depend on time."""
    for widget in app.screen.query(Input).results():
        widget.cursor_blink = False
    for area in app.screen.query(TextArea).results():
        area.cursor_blink = False


def is_quiet(app: KeyOrderApp[Any]) -> bool:
    """True when no key is waiting or being handled, no message is queued anywhere and no
    Markdown is being parsed (Textual parses it in a thread, done whenever the thread is).

    A frame taken before that depends on the machine's speed."""
    if app.keys_pending or app.message_queue_size:
        return False
    for screen in app.screen_stack:
        for node in screen.walk_children(with_self=True):
            if node.message_queue_size or (isinstance(node, Markdown) and node.lock.is_locked):
                return False
    return True

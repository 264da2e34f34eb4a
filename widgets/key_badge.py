"""A small badge naming the key just pressed, so viewers of a recording see what was done."""

from __future__ import annotations

from textual.widgets import Static

_SYMBOLS = {
    "enter": "⏎",
    "tab": "Tab",
    "shift+tab": "⇧Tab",
    "escape": "Esc",
    "backspace": "⌫",
    "delete": "Del",
    "space": "␣",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "home": "Home",
    "end": "End",
    "pageup": "PgUp",
    "pagedown": "PgDn",
}


def key_label(key: str | None, char: str | None) -> str:
    """How a key is shown: `⏎`, `Tab`, `3`, `ctrl+s`."""
    if key is None:
        return char or "?"
    if key in _SYMBOLS:
        return _SYMBOLS[key]
    if char is not None and char.isprintable() and len(char) == 1:
        return char
    return key


class KeyBadge(Static):
    """Shows one key label in the screen's bottom-right corner, above the footer."""

    DEFAULT_CSS = """
    KeyBadge {
        position: absolute;
        width: auto;
        height: 3;
        min-width: 5;
        padding: 0 1;
        content-align: center middle;
        border: round $accent;
        background: $surface;
        color: $text;
        text-style: bold;
    }
    """

    def show_key(self, label: str) -> None:
        """Show `label` and move to the corner of the screen as it is now."""
        self.update(label)
        self.place()

    def place(self) -> None:
        width = max(5, len(self.content_text) + 4)
        screen_width, screen_height = self.screen.size
        self.styles.offset = (max(0, screen_width - width - 1), max(0, screen_height - 4))

    @property
    def content_text(self) -> str:
        return str(self.content)

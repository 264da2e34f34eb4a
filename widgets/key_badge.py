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


WIDTH = 14
"""Wide enough for `shift+tab` or `paste •••`; a fixed width keeps frames steady."""


class KeyBadge(Static):
    """Shows one key label in the screen's bottom-right corner, on the row above the footer:
    blank, or the bottom edge of a dialog as tall as the screen, never what it says."""

    DEFAULT_CSS = """
    KeyBadge {
        /* a layer of its own (the app's styles declare it): in the screen's layer, it counted
           in centring the dialog, which jumped when the first key was shown */
        layer: key-badge;
        position: absolute;
        width: 14;
        height: 1;
        content-align: center middle;
        background: $accent;
        color: $text;
        text-style: bold;
    }
    """

    def __init__(self) -> None:
        # A key like `[` is shown as it is, never read as markup.
        super().__init__(markup=False)

    def show_key(self, label: str) -> None:
        """Show `label` and move to the corner of the screen as it is now."""
        self.update(label if len(label) <= WIDTH - 4 else label[: WIDTH - 5] + "…")
        self.place()

    def place(self) -> None:
        """Sit in the bottom-right corner, one cell in, above the footer."""
        screen_width, screen_height = self.screen.size
        self.styles.offset = (max(0, screen_width - WIDTH - 1), max(0, screen_height - 2))

"""The filter of a long list of options (a choice's, a checklist's): the text typed into it, the
options it lets through, and which of them stays highlighted as it changes."""

from __future__ import annotations

from tui.core.options import Option
from widgets.digit_keys import DIGITS, digits_after

FILTER_THRESHOLD = 10
"""From this many options on, typing filters the list."""


class ListFilter:
    """What typing has made of a long list: `text` and the options it lets through (`shown`).

    The option highlighted stays so while the filter lets it through; once it does not, the
    first option shown is, until the filter lets the kept one through again.
    """

    def __init__(self) -> None:
        self._options: list[Option] = []
        self.text = ""
        """What is typed into the filter."""
        self.shown: list[Option] = []
        """The options the filter lets through, in the order listed."""
        self._kept: Option | None = None
        """The option to highlight whenever the filter lets it through: the default, or the
        one the arrows last moved to (None: the first shown)."""
        self._placed: Option | None = None
        """The option the last change highlighted for want of `_kept`, the first it let
        through: the arrows moving off it make another option `_kept`."""
        self._digits_for: tuple[list[Option], frozenset[str]] | None = None
        """The options let through last and the digits that, typed next, go into the text."""

    def start(self, options: list[Option], kept: Option | None = None) -> None:
        """Filter `options` afresh, nothing typed, highlighting `kept` (None: the first)."""
        self._options = options
        self.text = ""
        self.shown = []
        self._kept = kept
        self._placed = None
        self._digits_for = None

    def type(self, key: str, character: str | None) -> bool:
        """Change the text as `key` asks: Backspace takes its last character off, Escape
        clears it, a character it takes (`takes`) goes on its end. False, the text unchanged,
        for any other key, and for Backspace and Escape with nothing typed."""
        if key == "backspace" and self.text:
            self.text = self.text[:-1]
        elif key == "escape" and self.text:
            self.text = ""
        elif character and character.isprintable() and self.takes(character):
            self.text += character
        else:
            return False
        return True

    def takes(self, character: str) -> bool:
        """Whether `character`, typed, goes into the text: any but a digit from 1 to 9, and
        such a digit too where an option shown holds it after the text ("8" among ports,
        "us-0" then "8": "us-08"). Elsewhere (a list of words) it picks by number."""
        return character not in DIGITS or character in self.digits()

    def digits(self) -> frozenset[str]:
        """The digits that go into the text after it, worked out once per change (the
        footer asks for each digit each time it is drawn)."""
        if self._digits_for is None or self._digits_for[0] is not self.shown:
            texts = (t for o in self.shown for t in (o.label, o.description or ""))
            self._digits_for = (self.shown, digits_after(self.text, texts))
        return self._digits_for[1]

    def apply(self, highlighted: int | None) -> int | None:
        """Let through the options that hold the text, `highlighted` being the row the list
        highlighted until now; the row to highlight among those shown (None: none shown)."""
        if highlighted is not None and highlighted < len(self.shown):
            moved_to = self.shown[highlighted]
            if moved_to is not self._placed:
                self._kept = moved_to
        shown = self.shown = self._matching()
        kept = next((i for i, o in enumerate(shown) if o is self._kept), None)
        if kept is not None:
            self._placed = None
            return kept
        if shown:
            self._placed = shown[0]
            return 0
        return None

    def line(self) -> str:
        """The filter's line: what is typed (or how to) and how many options it shows."""
        hint = self.text or "type to filter"
        return f"Filter: {hint}  ({len(self.shown)} of {len(self._options)})"

    def _matching(self) -> list[Option]:
        """The options whose label or description holds the text, in any case."""
        needle = self.text.casefold()
        return [
            o
            for o in self._options
            if not needle
            or needle in o.label.casefold()
            or needle in (o.description or "").casefold()
        ]

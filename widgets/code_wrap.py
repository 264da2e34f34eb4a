"""Code that wraps at its spaces, else after punctuation: never inside a word while it can."""

from __future__ import annotations

from rich.cells import get_character_cell_size
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

PUNCTUATION = frozenset(".,_(/:=-")
"""After which a word longer than its row goes on to the next one, where the row has no
space to break at: the end of a part of a name or a call (`oauth.google.` / `authorize_`)."""


class CodeWrap(Visual):
    """`code`, each line wrapped to the width at its last space before the edge; a row with
    none (a word longer than it) after its last `.`, `_` or `(`, not wherever the edge falls
    (`authorize_redire` / `ct(request)`); only a row with neither is cut at the edge."""

    def __init__(self, code: Content) -> None:
        self.code = code
        self._rows: tuple[int, list[Content]] | None = None

    def __str__(self) -> str:
        return self.code.plain

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.code.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return 1

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self._wrapped(width))

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return [
            strip
            for row in self._wrapped(width)
            for strip in row.render_strips(width, 1, style, options)
        ]

    def _wrapped(self, width: int) -> list[Content]:
        if self._rows is None or self._rows[0] != width:
            rows = []
            for line in self.code.split("\n", allow_blank=True):
                rows.extend(line.divide(_breaks(line.plain, max(1, width))) if line else [line])
            self._rows = (width, rows)
        return self._rows[1]


def _breaks(text: str, width: int) -> list[int]:
    """The offsets in `text` where its rows of `width` cells start, after the first."""
    breaks: list[int] = []
    start = cells = 0
    space = punctuation = None
    """Where the row could end: after its last space past its indent, or its last
    punctuation."""
    for index, character in enumerate(text):
        size = get_character_cell_size(character)
        if cells + size > width and index > start:
            cut = space or punctuation or index
            breaks.append(cut)
            start, space = cut, None
            if punctuation is not None and punctuation <= cut:
                punctuation = None  # behind the break; one past it ends the next row
            cells = sum(get_character_cell_size(c) for c in text[start:index])
        cells += size
        if character == " " and text[start:index].strip():
            space = index + 1
        elif character in PUNCTUATION:
            punctuation = index + 1
    return breaks

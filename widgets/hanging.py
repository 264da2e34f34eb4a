"""A mark beside text that wraps under itself, not under the mark: an option's prompt."""

from __future__ import annotations

from dataclasses import replace

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual


class Hanging(Visual):
    """`mark` (its trailing blank included), then `body` wrapped to the width left beside it;
    every line after the first starts under the body's first character.

    What a two-column `rich` grid draws, made of Textual's own `Content`: measured and drawn
    without rich's table layout, which took most of the time a question batch spent on its
    options before its first frame.
    """

    def __init__(self, mark: Content, body: Content) -> None:
        self.mark = mark
        self.body = body
        self._indent = mark.cell_length
        self._one_line = "\n" not in body.plain
        self._line: Content | None = None
        """Mark and body as one line, for a body of one line (made when first drawn)."""

    def __str__(self) -> str:
        """The plain text: the mark, then the body (as `str()` of a `Content` is)."""
        return f"{self.mark.plain}{self.body.plain}"

    def _body_width(self, width: int) -> int:
        return max(1, width - self._indent)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        body = self.body.get_optimal_width(rules, self._body_width(container_width))
        return self._indent + body

    def get_minimal_width(self, rules: RulesMap) -> int:
        return self._indent + self.body.get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.body.get_height(rules, self._body_width(width))

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        if not width:
            return []
        if self._one_line and self.body.cell_length <= self._body_width(width):
            # Most options: one line that fits beside the mark, drawn as one `Content`, as
            # quickly as a plain prompt (two drawn and joined cost each question of a burst
            # of choices about 0.3 ms more).
            if self._line is None:
                self._line = Content.assemble(self.mark, self.body)
            return self._line.render_strips(width, height, style, options)
        # A selection's offsets are the whole prompt's; neither part would place it right.
        options = replace(options, selection=None, selection_style=None)
        lines = self.body.render_strips(self._body_width(width), height, style, options)
        if not lines:
            return []
        mark = self.mark.render_strips(self._indent, 1, style, options)[0]
        mark = mark.extend_cell_length(self._indent, style.rich_style)
        under = Strip.blank(self._indent, style.rich_style)
        return [Strip.join([mark if n == 0 else under, line]) for n, line in enumerate(lines)]

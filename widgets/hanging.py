"""A mark beside text that wraps under itself, not under the mark: an option's prompt."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from rich.color import Color
from textual.constants import DIM_FACTOR
from textual.content import Content, Span
from textual.css.styles import RulesMap
from textual.filter import dim_color
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

from widgets.contrast import READABLE, contrast_ratio


class Hanging(Visual):
    """`mark` (its trailing blank included), then `body` wrapped to the width left beside it;
    every line after the first starts under the body's first character. Their dim parts (a
    number, a description) are drawn dim where that reads, and only as faint as still reads
    where it would not (on the highlighted row of a dark theme, 2.5:1).

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
        self._brighter: tuple[str, Content, Content, Content] | None = None
        """The colour dim parts are last drawn in where dim does not read, with the mark,
        the body and the two as one line drawn so (see `_readable_dim`)."""

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
        mark, body, line = self._parts_on(style)
        if self._one_line and body.cell_length <= self._body_width(width):
            # Most options: one line that fits beside the mark, drawn as one `Content`, as
            # quickly as a plain prompt (two drawn and joined cost each question of a burst
            # of choices about 0.3 ms more).
            return line().render_strips(width, height, style, options)
        # A selection's offsets are the whole prompt's; neither part would place it right.
        options = replace(options, selection=None, selection_style=None)
        lines = body.render_strips(self._body_width(width), height, style, options)
        if not lines:
            return []
        mark_line = mark.render_strips(self._indent, 1, style, options)[0]
        mark_line = mark_line.extend_cell_length(self._indent, style.rich_style)
        under = Strip.blank(self._indent, style.rich_style)
        return [Strip.join([mark_line if n == 0 else under, row]) for n, row in enumerate(lines)]

    def _parts_on(self, style: Style) -> tuple[Content, Content, Callable[[], Content]]:
        """The mark, the body and the two as one line (made when first asked for, where
        dim reads), as drawn in `style`: dim parts in a colour that reads where dim would
        not."""
        fg, bg = style.rich_style.color, style.rich_style.bgcolor
        # An ANSI theme's colours are the terminal's, unknown here: dim as the terminal does.
        colour = None
        if fg is not None and bg is not None and None not in (fg.triplet, bg.triplet):
            colour = _readable_dim(bg, fg)
        if colour is None:
            return self.mark, self.body, self._one_line_prompt
        if self._brighter is None or self._brighter[0] != colour:
            mark, body = _dim_as(self.mark, colour), _dim_as(self.body, colour)
            self._brighter = (colour, mark, body, Content.assemble(mark, body))
        _, mark, body, line = self._brighter
        return mark, body, lambda: line

    def _one_line_prompt(self) -> Content:
        if self._line is None:
            self._line = Content.assemble(self.mark, self.body)
        return self._line


@lru_cache(maxsize=64)
def _readable_dim(background: Color, foreground: Color) -> str | None:
    """The colour dim text in `foreground` is drawn in on `background` where Textual's dim
    (`DIM_FACTOR` of the way from the background to the text's colour) reads less than
    `READABLE`: the faintest one that reads, or the text's own; None where dim reads."""
    factor = DIM_FACTOR
    while factor < 1 and contrast_ratio(dim_color(background, foreground, factor), background) < (
        READABLE
    ):
        factor = min(1.0, factor + 0.02)
    if factor == DIM_FACTOR:
        return None
    return dim_color(background, foreground, factor).get_truecolor().hex


def _dim_as(content: Content, colour: str) -> Content:
    """`content` with its dim parts in `colour` instead."""
    spans = [Span(s.start, s.end, colour) if s.style == "dim" else s for s in content.spans]
    return Content(content.plain, spans, content.cell_length)

"""A hint in a column beside its label where it fits there on one line, else under the label."""

from __future__ import annotations

from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual


class BesideOrUnder(Visual):
    """`beside` where `width` cells hold it on one line (`needs` of them), else `under`: in
    a narrow pane a hint beside its label wrapped into a column of a word a row, taller than
    the room and cut; under the label it reads in a line or two."""

    def __init__(self, beside: Visual, under: Visual, needs: int) -> None:
        self.beside = beside
        self.under = under
        self.needs = needs

    def __str__(self) -> str:
        return str(self.beside)

    def _at(self, width: int) -> Visual:
        return self.beside if width >= self.needs else self.under

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self._at(container_width).get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return self.under.get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self._at(width).get_height(rules, width)

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self._at(width).render_strips(width, height, style, options)

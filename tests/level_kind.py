"""A kind of one's own whose modal binds keys the dialog's body scrolls with: Up and Down
move a level, End takes it to the top; a long description makes the body scroll."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from tui import RequestBase, register_kind
from widgets import ElicitationModal

TOP = 5


class LevelRequest(RequestBase):
    """A level from 0 to `TOP`; the content is the level."""

    kind: Literal["level_test"] = "level_test"
    content_type: ClassVar[Any] = int


class LevelModal(ElicitationModal[LevelRequest]):
    """The level as a bar, which has the focus: the keys go through the body first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(1)", "Higher"),
        Binding("down", "move(-1)", "Lower"),
        Binding("end", f"move({TOP})", "Top"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up | One level higher. |
    | down | One level lower. |
    | end | The top level. |
    """

    level = 0

    def compose_body(self) -> ComposeResult:
        bar = Static(self._bar(), id="level")
        bar.can_focus = True
        yield bar

    def fill(self) -> None:
        self.query_one("#level").focus()

    def _bar(self) -> str:
        return "●" * self.level + "○" * (TOP - self.level)

    def action_move(self, by: int) -> None:
        self.level = max(0, min(TOP, self.level + by))
        self.query_one("#level", Static).update(self._bar())

    def content(self) -> int:
        return self.level


register_kind(LevelRequest, modal="level_kind:LevelModal")

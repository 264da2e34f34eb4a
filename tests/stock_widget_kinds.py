"""A kind of one's own whose modal is a Textual RadioSet, labelled with an agent's text: a
radio set learns which button was pressed from a message, after the key that pressed it."""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.widgets import RadioButton, RadioSet

from tui import RequestBase, register_kind
from widgets import ElicitationModal, InvalidAnswer


class PaletteRequest(RequestBase):
    """Pick a colour of `palette`; the content is its name."""

    kind: Literal["palette_test"] = "palette_test"
    palette: list[str]


class PaletteModal(ElicitationModal[PaletteRequest]):
    """Arrows move, Space presses, Enter accepts the pressed colour."""

    def compose_body(self) -> ComposeResult:
        with RadioSet(id="palette"):
            for name in self.request.palette:
                yield RadioButton(self.literal(name))

    def fill(self) -> None:
        self.query_one(RadioSet).focus()

    def content(self) -> str:
        palette = self.query_one(RadioSet)
        if palette.pressed_index < 0:
            raise InvalidAnswer("Press a colour first.", palette)
        return self.request.palette[palette.pressed_index]


register_kind(PaletteRequest, modal="palette_kind:PaletteModal")

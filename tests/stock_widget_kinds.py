"""Kinds of one's own whose modals use stock Textual widgets that act after the key that
moves them (a RadioSet learns which button was pressed from a message, a Select opens its
menu and focuses it through the app's queue) or take Enter themselves (a TextArea, a
Button)."""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.widgets import Button, Input, RadioButton, RadioSet, Select, TextArea

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


register_kind(PaletteRequest, modal="stock_widget_kinds:PaletteModal")


class SizeRequest(RequestBase):
    """Pick one of `sizes` from a drop-down; the content is its name."""

    kind: Literal["size_test"] = "size_test"
    sizes: list[str]


class SizeModal(ElicitationModal[SizeRequest]):
    """Down opens the menu, Enter in the menu picks, Enter then accepts."""

    def compose_body(self) -> ComposeResult:
        yield Select([(self.literal(size), size) for size in self.request.sizes])

    def fill(self) -> None:
        self.query_one(Select).focus()

    def content(self) -> str:
        picked = self.query_one(Select).value
        if picked == Select.NULL:
            raise InvalidAnswer("Pick a size first.", self.query_one(Select))
        return str(picked)


register_kind(SizeRequest, modal="stock_widget_kinds:SizeModal")


class LinesRequest(RequestBase):
    """Write a note of several lines; the content is its text."""

    kind: Literal["lines_test"] = "lines_test"


class LinesModal(ElicitationModal[LinesRequest]):
    """Enter starts a line, Ctrl+S accepts."""

    def compose_body(self) -> ComposeResult:
        yield TextArea()

    def fill(self) -> None:
        self.query_one(TextArea).focus()

    def content(self) -> str:
        return self.query_one(TextArea).text


register_kind(LinesRequest, modal="stock_widget_kinds:LinesModal")


class NameRequest(RequestBase):
    """Type a name, or have one suggested; the content is the name."""

    kind: Literal["name_test"] = "name_test"
    suggestion: str


class NameModal(ElicitationModal[NameRequest]):
    """Enter on the Suggest button fills the field; Enter in the field accepts."""

    def compose_body(self) -> ComposeResult:
        yield Input()
        yield Button("Suggest")

    def fill(self) -> None:
        self.query_one(Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        field = self.query_one(Input)
        field.value = self.request.suggestion
        field.focus()

    def content(self) -> str:
        return self.query_one(Input).value


register_kind(NameRequest, modal="stock_widget_kinds:NameModal")


class PinRequest(RequestBase):
    """A PIN, typed masked in a field of the modal's own; the content is the PIN."""

    kind: Literal["pin_test"] = "pin_test"


class PinModal(ElicitationModal[PinRequest]):
    """One masked field, as a kind of one's own takes a secret: `Input(password=True)`."""

    def compose_body(self) -> ComposeResult:
        yield Input(password=True, id="pin")

    def fill(self) -> None:
        self.query_one(Input).focus()

    def content(self) -> str:
        return self.query_one(Input).value


register_kind(PinRequest, modal="stock_widget_kinds:PinModal")

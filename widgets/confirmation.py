"""Yes or no, with the default focused."""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Button

from tui.core.models import ConfirmationRequest, ElicitationResult
from widgets.base import ElicitationModal
from widgets.key_footer import key_label
from widgets.literal import shown


class ConfirmationModal(ElicitationModal[ConfirmationRequest]):
    """Two buttons; `y` and `n` answer at once, Enter answers with the focused one; the
    footer names each key after its button."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("left,right", "switch", "Switch", show=False),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | y | Answer yes. |
    | n | Answer no. |
    | left, right | Move between the two buttons. |
    """

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="buttons"):
            yield Button(_label(self.request.yes_label), id="yes", variant="success")
            yield Button(_label(self.request.no_label), id="no", variant="error")

    @classmethod
    def body_shape(cls, request: ConfirmationRequest) -> tuple[Hashable, ...]:
        return ()

    def reload(self, request: ConfirmationRequest, *, deadline: float | None = None) -> None:
        self.query_one("#yes", Button).label = _label(request.yes_label)
        self.query_one("#no", Button).label = _label(request.no_label)
        super().reload(request, deadline=deadline)

    def fill(self) -> None:
        self.query_one("#yes" if self.request.default else "#no", Button).focus()

    def _fit_to_screen(self, screen: object) -> None:
        super()._fit_to_screen(screen)
        # Two labels wrapped to different heights: both buttons as tall as the taller, its
        # label centred in it, not one button hanging lower than the other.
        row = self.query_one("#buttons", Horizontal)
        buttons = list(row.query(Button).results(Button))
        heights = [
            button.get_content_height(row.size, self.size, button.content_size.width)
            for button in buttons
        ]
        even = min(heights) == max(heights)
        for button in buttons:
            wanted = None if even else max(heights) + button.styles.gutter.height
            # Set only when it changes: each setting lays the dialog out again, a frame later.
            now = button.styles.min_height
            if (None if now is None else now.value) != wanted:
                button.styles.min_height = wanted

    def action_switch(self) -> None:
        focused_yes = self.focused is not None and self.focused.id == "yes"
        self.query_one("#no" if focused_yes else "#yes", Button).focus()

    def describe_action(self, action: str, parameters: tuple[object, ...], description: str) -> str:
        if action == "answer":
            request = self.request
            return key_label(shown(request.yes_label if parameters[0] else request.no_label))
        return super().describe_action(action, parameters, description)

    def action_answer(self, value: bool) -> None:
        self.dismiss(ElicitationResult(action="accept", content=value))

    def action_submit(self) -> None:
        self.action_answer(self.content())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_answer(event.button.id == "yes")

    def content(self) -> bool:
        focused = self.focused
        return focused.id == "yes" if focused is not None else self.request.default


LABEL_CHARACTERS = 80
"""The most of a label a button shows, a longer one cut with …: wrapped in a button, 80 take
four or five lines at 60x20, and the two buttons stay in the dialog."""


def _label(text: str) -> Text:
    """A button's label: `text` as shown (secrets scrubbed first, so none is cut in two and
    missed), cut to `LABEL_CHARACTERS` with …"""
    label = shown(text)
    if len(label) > LABEL_CHARACTERS:
        label = label[: LABEL_CHARACTERS - 1] + "…"
    return Text(label, end="")

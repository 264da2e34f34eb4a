"""The modal that shows a `CardRequest`: the cards listed on the left, the highlighted one's
preview on the right, shown literally."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import OptionList, Static

from tui.examples.card_picker import CardRequest
from widgets import ElicitationModal, InvalidAnswer


class CardPickerModal(ElicitationModal[CardRequest]):
    """Arrows move through the cards, 1-9 pick one, Enter accepts the highlighted card."""

    DEFAULT_CSS = """
    CardPickerModal #cards-and-preview { height: auto; }
    CardPickerModal #cards {
        width: 26; max-height: 12; text-wrap: nowrap; text-overflow: ellipsis;
    }
    CardPickerModal #preview-pane {
        width: 1fr; height: 12; padding-left: 1; border-left: vkey $border-blurred;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(n), f"pick({n})", "Pick", show=n == 1, key_display="1-9") for n in range(1, 10)
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | 1-9 | Pick the numbered card and accept. |
    """

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="cards-and-preview"):
            names = [card.name for card in self.request.cards]
            yield OptionList(
                # Literal text, never markup; one line each, a long name cut with an ellipsis.
                *(
                    self.literal(f"{n if n <= 9 else ' '} {name}")
                    for n, name in enumerate(names, 1)
                ),
                id="cards",
            )
            with VerticalScroll(id="preview-pane", can_focus=False):
                yield Static(id="preview", markup=False)

    def fill(self) -> None:
        cards = self.query_one("#cards", OptionList)
        cards.highlighted = 0
        cards.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        card = self.request.cards[event.option_index]
        self.query_one("#preview", Static).update(self.literal(card.preview or "(no preview)"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()  # a click on a card answers with it
        self.action_accept()

    def action_pick(self, number: int) -> None:
        if number <= len(self.request.cards):
            self.query_one("#cards", OptionList).highlighted = number - 1
            self.action_accept()

    def content(self) -> str:
        cards = self.query_one("#cards", OptionList)
        if cards.highlighted is None:
            raise InvalidAnswer("Highlight a card first.", cards)
        return self.request.cards[cards.highlighted].name

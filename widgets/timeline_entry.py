"""One row of the timeline whole, read-only: what the row's columns cut short, and a tool
call's every argument."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from widgets.key_footer import KeyFooter


class TimelineEntry(ModalScreen[None]):
    """A timeline row in full over the main screen (the call a rule allowed, which nobody saw,
    above all), until Esc. Its text is shown as the row holds it: literally, never as markup."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", key_display="Esc"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | escape, q | Back to the timeline. |
    """

    def __init__(self, cells: dict[str, str], call: str | None = None) -> None:
        """`cells`: the row's full text by column (`Timeline.cells`); `call`: a tool call's
        arguments, as JSON."""
        super().__init__()
        self.cells = cells
        self.call = call

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="entry"):
            yield Static(self._text(), id="entry-text")
        yield KeyFooter()

    def _text(self) -> Text:
        cells = self.cells
        text = Text(f"{cells['time']} · {cells['kind']}\n", style="dim", end="")
        text.append(f"{cells['outcome']}\n", style="bold")
        text.append(f"\n{cells['question']}\n")
        if self.call is not None:
            text.append("\narguments\n", style="dim")
            text.append(self.call)
        return text

    def on_mount(self) -> None:
        # The keys scroll a long call (↑↓, PgUp/PgDn) from the first.
        self.query_one("#entry", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)

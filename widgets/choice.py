"""Pick one option from a list; many options get a filter that typing fills."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option as ListOption

from tui.core.models import ChoiceRequest
from tui.core.options import Option
from widgets.base import FITTED, InvalidAnswer
from widgets.filtered_list_modal import FilteredListModal
from widgets.frame_drawn import frame_drawn
from widgets.hanging import Hanging
from widgets.literal import shown
from widgets.long_lists import LongOptionList

INDENT = "  "
"""Where a label's text starts: after the number of the first nine options and a space."""


def prompt_lines(option: Option) -> tuple[list[str], list[str]]:
    """The label's lines and the description's lines, as drawn (without the number), every
    secret answered so far scrubbed."""
    label = shown(option.label).splitlines() or [""]
    description = shown(option.description).splitlines() if option.description else []
    return label, description


def option_prompt(number: int, option: Option) -> Hanging:
    """The label (numbered for the first nine) with the description dimmed beneath it, each
    line, a wrapped one too, starting under the label's first character."""
    label, description = prompt_lines(option)
    mark = Content.styled(f"{number} " if number <= 9 else INDENT, "dim")
    body = Content("\n".join(label))
    if description:
        body = Content.assemble(body, ("\n" + "\n".join(description), "dim"))
    return Hanging(mark, body)


def row_text(option: Option) -> str:
    """The lines `option_prompt` draws after the number, joined by newlines."""
    label, description = prompt_lines(option)
    return "\n".join(label + description)


class ChoiceModal(FilteredListModal[ChoiceRequest]):
    """One choice: arrows move, 1–9 pick, Enter accepts the highlighted option.

    A long list has a filter that typing fills, a digit too where the options hold it (see
    `ListFilter.takes`); the option highlighted stays so while the filter lets it through.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(n), f"pick({n})", "Pick", show=n == 1, key_display="1-9") for n in range(1, 10)
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | 1-9 | Pick the numbered option and accept. |
    """

    NUMBER_ACTION = "pick"

    def compose_body(self) -> ComposeResult:
        if self.filtering:
            yield Static(id="filter", markup=False)
        yield LongOptionList(id="options", classes=FITTED)

    def fill(self) -> None:
        default = self.request.default
        kept = next((o for o in self.request.options if o.value == default), None)
        self._filter.start(self.request.options, kept)
        self.apply_filter()
        self.query_one(OptionList).focus()

    def apply_filter(self) -> None:
        options = self.query_one(LongOptionList)
        highlight = self._filter.apply(options.highlighted)
        matches = self._filter.shown
        options.show_rows(
            # most options are one printable line, their label: no call each for those
            [
                shown(o.label) if o.description is None and o.label.isprintable() else row_text(o)
                for o in matches
            ],
            lambda i: ListOption(option_prompt(i + 1, matches[i])),
            indent=len(INDENT),
        )
        if highlight is not None:
            options.highlighted = highlight
        if self.filtering:
            self.query_one("#filter", Static).update(self._filter.line())

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._numbers_may_have_moved()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # A mouse click on an option answers with it.
        event.stop()
        self.action_accept()

    async def action_pick(self, number: int) -> None:
        self.query_one(OptionList).highlighted = number - 1
        await frame_drawn(self)
        self.action_accept()

    def content(self) -> str:
        options = self.query_one(OptionList)
        shown = self._filter.shown
        if options.highlighted is None or not shown:
            raise InvalidAnswer("Nothing matches the filter; Backspace to widen it.", options)
        return shown[options.highlighted].value

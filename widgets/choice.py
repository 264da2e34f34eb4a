"""Pick one option from a list; many options get a filter that typing fills."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option as ListOption

from tui.core.models import ChoiceRequest
from tui.core.options import Option
from widgets.base import FITTED, ElicitationModal, InvalidAnswer
from widgets.digit_keys import DIGITS, digits_after, number_in_view
from widgets.hanging import Hanging
from widgets.literal import shown
from widgets.long_lists import LongOptionList

FILTER_THRESHOLD = 10
"""From this many options on, typing filters the list."""


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


class ChoiceModal(ElicitationModal[ChoiceRequest]):
    """One choice: arrows move, 1–9 pick, Enter accepts the highlighted option.

    A long list has a filter that typing fills, a digit too where the options hold it (see
    `_filters`); the option highlighted stays so while the filter lets it through.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(n), f"pick({n})", "Pick", show=n == 1, key_display="1-9") for n in range(1, 10)
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | 1-9 | Pick the numbered option and accept. |
    """

    def __init__(self, request: ChoiceRequest, **kwargs: Any) -> None:
        super().__init__(request, **kwargs)
        self._shown: list[Option] = []
        """The options the filter lets through, in the order listed."""

    _filter_text = ""
    """What is typed into the filter (a long list's)."""

    _kept: Option | None = None
    """The option to highlight whenever the filter lets it through: the default, or the
    one the arrows last moved to (None: the first shown)."""

    _placed: Option | None = None
    """The option the last filter change highlighted for want of `_kept`, the first it let
    through: the arrows moving off it make another option `_kept`."""

    _digits_for: tuple[list[Option], frozenset[str]] | None = None
    """The options the filter let through last and the digits that, typed next, go into
    the filter (`_filter_digits`)."""

    _picked_aside = True
    """Whether the footer offers `1-9 Pick` while the dialog is set aside between questions:
    as it did for the last question, whose keys the next one like it needs again (a list of
    ports hides them). Else the footer was rebuilt twice a question, once each way."""

    def compose_body(self) -> ComposeResult:
        if self.filtering:
            yield Static(id="filter", markup=False)
        yield LongOptionList(id="options", classes=FITTED)

    @classmethod
    def body_shape(cls, request: ChoiceRequest) -> tuple[Hashable, ...]:
        return (len(request.options) >= FILTER_THRESHOLD,)

    @property
    def filtering(self) -> bool:
        return len(self.request.options) >= FILTER_THRESHOLD

    def fill(self) -> None:
        self._filter_text = ""
        default = self.request.default
        self._kept = next((o for o in self.request.options if o.value == default), None)
        self._placed = None
        self._shown = []
        self._apply_filter()
        self.query_one(OptionList).focus()

    def forget(self) -> None:
        self._picked_aside = self._picks("1")
        self._shown = []
        self._kept = self._placed = None
        self._digits_for = None
        self.query_one(OptionList).clear_options()

    def _apply_filter(self) -> None:
        options = self.query_one(LongOptionList)
        highlighted = options.highlighted
        if highlighted is not None and highlighted < len(self._shown):
            moved_to = self._shown[highlighted]
            if moved_to is not self._placed:
                self._kept = moved_to
        matches = self._shown = self._matching(self._filter_text)
        options.show_rows(
            # most options are one printable line, their label: no call each for those
            [
                shown(o.label) if o.description is None and o.label.isprintable() else row_text(o)
                for o in matches
            ],
            lambda i: ListOption(option_prompt(i + 1, matches[i])),
            indent=len(INDENT),
        )
        kept = next((i for i, o in enumerate(matches) if o is self._kept), None)
        if kept is not None:
            options.highlighted = kept
            self._placed = None
        elif matches:
            options.highlighted = 0
            self._placed = matches[0]
        if self.filtering:
            count = f"{len(self._shown)} of {len(self.request.options)}"
            hint = self._filter_text or "type to filter"
            self.query_one("#filter", Static).update(f"Filter: {hint}  ({count})")

    def on_key(self, event: events.Key) -> None:
        if not self.filtering:
            return
        if event.key == "backspace" and self._filter_text:
            self._filter_text = self._filter_text[:-1]
        elif event.key == "escape" and self._filter_text:
            self._filter_text = ""
        elif event.is_printable and event.character and self._filters(event.character):
            self._filter_text += event.character
        else:
            return
        event.stop()
        event.prevent_default()
        self._apply_filter()
        self.show_error("")  # said of the filter before
        # Escape clears a filter typed, else cancels; digits pick or filter.
        self.refresh_bindings()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.max_scroll_y or self._body.max_scroll_y:
            self.refresh_bindings()  # the numbers beside the options may have scrolled away

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # A mouse click on an option answers with it.
        event.stop()
        self.action_accept()

    def describe_action(self, action: str, parameters: tuple[object, ...], description: str) -> str:
        if action == "cancel" and self._filter_text:
            return "Clear filter"
        return super().describe_action(action, parameters, description)

    def _filters(self, character: str) -> bool:
        """Whether `character`, typed, goes into the filter: any but a digit from 1 to 9,
        and such a digit too where an option shown holds it after the filter's text ("8"
        among ports, "us-0" then "8": "us-08"). Elsewhere (a list of words) it picks."""
        return character not in DIGITS or character in self._filter_digits()

    def _filter_digits(self) -> frozenset[str]:
        """The digits that go into the filter after its text, worked out once per filter
        change (the footer asks for each digit each time it is drawn)."""
        if not self.filtering:
            return frozenset()
        if self._digits_for is None or self._digits_for[0] is not self._shown:
            texts = (t for o in self._shown for t in (o.label, o.description or ""))
            self._digits_for = (self._shown, digits_after(self._filter_text, texts))
        return self._digits_for[1]

    def _matching(self, text: str) -> list[Option]:
        """The options whose label or description holds `text`, in any case."""
        needle = text.casefold()
        return [
            o
            for o in self.request.options
            if not needle
            or needle in o.label.casefold()
            or needle in (o.description or "").casefold()
        ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":
            if not self._shown:  # set aside between questions
                return self._picked_aside
            return self._picks(str(parameters[0]))
        return super().check_action(action, parameters)

    def _picks(self, digit: str) -> bool:
        """Whether `digit` picks the option numbered so: a digit the filter does not take,
        the option's number on screen beside it (not scrolled out of view)."""
        number = int(digit)
        return (
            digit not in self._filter_digits()
            and number <= len(self._shown)
            and number_in_view(self.query_one(OptionList), number - 1)
        )

    def action_pick(self, number: int) -> None:
        self.query_one(OptionList).highlighted = number - 1
        self.action_accept()

    def content(self) -> str:
        options = self.query_one(OptionList)
        if options.highlighted is None or not self._shown:
            raise InvalidAnswer("Nothing matches the filter; Backspace to widen it.", options)
        return self._shown[options.highlighted].value

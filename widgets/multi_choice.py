"""Pick several options from a checklist, within the request's bounds."""

from __future__ import annotations

from collections.abc import Hashable
from functools import partial
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from tui.core.models import MultiChoiceRequest
from tui.core.options import Option
from widgets.base import FITTED, ElicitationModal, InvalidAnswer
from widgets.checklist import Checklist
from widgets.hanging import Hanging
from widgets.literal import shown_on_one_line
from widgets.long_selection_list import LazySelection, LongSelectionList


def selection_line(option: Option) -> str:
    """What the entry shows after its number: a checklist entry is one line, every line of
    the label and description joined on it."""
    text = f"{option.label} — {option.description}" if option.description else option.label
    return shown_on_one_line(text)


def selection_prompt(number: int, option: Option) -> Hanging:
    """The number (first nine), the label, and the description dimmed beside it, on one
    line that wraps under the label's first character."""
    body = Content(shown_on_one_line(option.label))
    if option.description:
        body = Content.assemble(body, " — ", (shown_on_one_line(option.description), "dim"))
    return Hanging(Content.styled(f"{number} " if number <= 9 else "  ", "dim"), body)


def checklist_entry(number: int, option: Option, ticked: bool) -> LazySelection:
    """`option` as a checklist entry, its prompt built when the entry is first drawn."""
    line = "  " + selection_line(option)
    return LazySelection(line, partial(selection_prompt, number, option), option.value, ticked)


class MultiChoiceModal(ElicitationModal[MultiChoiceRequest]):
    """A checklist: Space or 1–9 tick, `a` ticks all, Enter accepts when the count fits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_highlighted", "Tick", priority=True),
        *(
            Binding(str(n), f"toggle_number({n})", "Tick", show=n == 1, key_display="1-9")
            for n in range(1, 10)
        ),
        Binding("a", "toggle_all", "All/none"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | space | Tick or untick the highlighted option. |
    | a | Tick all, or untick all when all are ticked. |
    | 1-9 | Tick or untick the numbered option. |
    """

    @classmethod
    def body_shape(cls, request: MultiChoiceRequest) -> tuple[Hashable, ...]:
        return ()

    def compose_body(self) -> ComposeResult:
        yield LongSelectionList(*_entries(self.request), id="options", classes=FITTED)
        yield Static(id="count")

    def reload(self, request: MultiChoiceRequest, *, deadline: float | None = None) -> None:
        self.checklist.add_options(_entries(request))
        self.checklist.highlighted = 0
        super().reload(request, deadline=deadline)

    def fill(self) -> None:
        self._update_count()
        self.checklist.focus()

    def forget(self) -> None:
        self.checklist.clear_options()

    @property
    def checklist(self) -> Checklist:
        return self.query_one(Checklist)

    def action_toggle_highlighted(self) -> None:
        highlighted = self.checklist.highlighted
        if highlighted is not None:
            self._toggle_highlighted(highlighted)

    def _toggle_highlighted(self, index: int) -> None:
        """Toggle the option at `index` by value (SelectionList ids are not values)."""
        self.checklist.toggle(self.request.options[index].value)

    def action_toggle_number(self, number: int) -> None:
        if number <= len(self.request.options):
            self.checklist.highlighted = number - 1
            self._toggle_highlighted(number - 1)

    def action_toggle_all(self) -> None:
        checklist = self.checklist
        if len(checklist.selected) == len(self.request.options):
            checklist.deselect_all()
        else:
            checklist.select_all()

    def on_selection_list_selected_changed(self) -> None:
        self._update_count()
        self.show_error("")

    def _update_count(self) -> None:
        request = self.request
        count = len(self.checklist.selected)
        bounds = _bounds_text(request.min_selected, request.max_selected)
        self.query_one("#count", Static).update(f"{count} selected{bounds}")

    def content(self) -> list[str]:
        request = self.request
        chosen = set(self.checklist.selected)
        # Report in the order the options were offered, not the order they were ticked.
        values = [o.value for o in request.options if o.value in chosen]
        if len(values) < request.min_selected:
            raise InvalidAnswer(f"Pick at least {request.min_selected} (you picked {len(values)}).")
        if request.max_selected is not None and len(values) > request.max_selected:
            raise InvalidAnswer(f"Pick at most {request.max_selected} (you picked {len(values)}).")
        return values


def _entries(request: MultiChoiceRequest) -> list[LazySelection]:
    defaults = set(request.default)
    return [checklist_entry(i, o, o.value in defaults) for i, o in enumerate(request.options, 1)]


def _bounds_text(low: int, high: int | None) -> str:
    if high is None:
        return f" · pick at least {low}" if low else ""
    if low == high:
        return f" · pick exactly {low}"
    return f" · pick {low}–{high}" if low else f" · pick up to {high}"

"""Pick several options from a checklist, within the request's bounds."""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import SelectionList, Static

from tui.core.models import MultiChoiceRequest
from tui.core.options import Option
from widgets.base import FITTED, InvalidAnswer
from widgets.checklist import Checklist
from widgets.cut_mark import CutText
from widgets.filtered_list_modal import FilteredListModal
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


def entry_cells(option: Option) -> int:
    """The width of the entry of `option`: the number's room, then its `selection_line`."""
    return cell_len("  " + selection_line(option))


def checklist_entry(number: int, option: Option, ticked: bool, cells: int) -> LazySelection:
    """`option` as a checklist entry `cells` wide, its prompt built when first drawn."""
    return LazySelection(cells, partial(selection_prompt, number, option), option.value, ticked)


class MultiChoiceModal(FilteredListModal[MultiChoiceRequest]):
    """A checklist: Space or 1–9 tick, `a` ticks all, Enter accepts when the count fits.

    A long list has a filter that typing fills, a digit too where the options hold it (see
    `ListFilter.takes`); Space ticks, so no space is typed into it, and Ctrl+A ticks all it
    shows. What is ticked stays ticked while the filter hides it, and is answered with the
    rest.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_highlighted", "Tick", priority=True),
        *(
            Binding(str(n), f"toggle_number({n})", "Tick", show=n == 1, key_display="1-9")
            for n in range(1, 10)
        ),
        # A long list's letters go into its filter: there Ctrl+A ticks all (those shown).
        Binding("a", "toggle_all(False)", "All/none"),
        Binding("ctrl+a", "toggle_all(True)", "All/none"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | space | Tick or untick the highlighted option. |
    | a | Tick all, or untick all when all are ticked (a short list). |
    | ctrl+a | Tick all the filter shows, or untick them when all are ticked (a long list). |
    | 1-9 | Tick or untick the numbered option. |
    """

    NUMBER_ACTION = "toggle_number"

    def __init__(self, request: MultiChoiceRequest, **kwargs: Any) -> None:
        super().__init__(request, **kwargs)
        self._cells: dict[str, int] = {}
        """The `entry_cells` of each option shown so far, by value: a filter widened again
        shows them without measuring them again."""
        self._hidden_ticks: set[str] = set()
        """The values of the options ticked that the filter hides (the list holds the ticks
        of those it shows)."""

    def compose_body(self) -> ComposeResult:
        if self.filtering:
            yield Static(id="filter", markup=False)
        yield LongSelectionList(id="options", classes=FITTED)
        yield CutText(id="count")

    def fill(self) -> None:
        self._cells = {}
        self._filter.start(self.request.options)
        self._hidden_ticks = set(self.request.default)
        self.apply_filter()
        self.checklist.focus()

    def forget(self) -> None:
        super().forget()
        self._cells = {}
        self._hidden_ticks = set()

    @property
    def checklist(self) -> Checklist:
        return self.query_one(Checklist)

    def ticked(self) -> set[str]:
        """The values of every option ticked, shown or hidden by the filter."""
        return self._hidden_ticks | set(self.checklist.selected)

    def apply_filter(self) -> None:
        checklist = self.checklist
        ticked = self.ticked()
        before = len(self._filter.shown)
        highlight = self._filter.apply(checklist.highlighted)
        shown = self._filter.shown
        # The text only grows by a character, loses its last or is cleared: the options
        # shown before and now are one within the other, the same where as many.
        if len(shown) != before:
            self._hidden_ticks = ticked - {o.value for o in shown}
            checklist.clear_options()
            checklist.add_options(
                self._entry(n, o, o.value in ticked) for n, o in enumerate(shown, 1)
            )
        checklist.highlighted = highlight
        if self.filtering:
            self.query_one("#filter", Static).update(self._filter.line())
        self._update_count()

    def _entry(self, number: int, option: Option, ticked: bool) -> LazySelection:
        cells = self._cells.get(option.value)
        if cells is None:
            cells = self._cells[option.value] = entry_cells(option)
        return checklist_entry(number, option, ticked, cells)

    def on_selection_list_selection_highlighted(
        self, event: SelectionList.SelectionHighlighted[Any]
    ) -> None:
        self._numbers_may_have_moved()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_all":
            return parameters[0] == self.filtering
        return super().check_action(action, parameters)

    def action_toggle_highlighted(self) -> None:
        highlighted = self.checklist.highlighted
        if highlighted is not None:
            self._toggle_shown(highlighted)

    def _toggle_shown(self, index: int) -> None:
        """Toggle the option shown at `index` by value (SelectionList ids are not values)."""
        self.checklist.toggle(self._filter.shown[index].value)

    def action_toggle_number(self, number: int) -> None:
        self.checklist.highlighted = number - 1
        self._toggle_shown(number - 1)

    def action_toggle_all(self, in_long_list: bool) -> None:
        """Tick the options shown, or untick them when all are; `in_long_list` names the key
        (`check_action` lets only the one for this list's length through)."""
        checklist = self.checklist
        if len(checklist.selected) == checklist.option_count:
            checklist.deselect_all()
        else:
            checklist.select_all()

    def on_selection_list_selected_changed(self) -> None:
        self._update_count()
        self.show_error("")

    def _update_count(self) -> None:
        request = self.request
        count = len(self.ticked())
        hidden = f", {len(self._hidden_ticks)} not shown" if self._hidden_ticks else ""
        bounds = _bounds_text(request.min_selected, request.max_selected)
        self.query_one("#count", Static).update(f"{count} selected{hidden}{bounds}")

    def content(self) -> list[str]:
        request = self.request
        chosen = self.ticked()
        # Report in the order the options were offered, not the order they were ticked.
        values = [o.value for o in request.options if o.value in chosen]
        if len(values) < request.min_selected:
            raise InvalidAnswer(f"Pick at least {request.min_selected} (you picked {len(values)}).")
        if request.max_selected is not None and len(values) > request.max_selected:
            raise InvalidAnswer(f"Pick at most {request.max_selected} (you picked {len(values)}).")
        return values


def _bounds_text(low: int, high: int | None) -> str:
    if high is None:
        return f" · pick at least {low}" if low else ""
    if low == high:
        return f" · pick exactly {low}"
    return f" · pick {low}–{high}" if low else f" · pick up to {high}"

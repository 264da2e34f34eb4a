"""What a choice and a checklist share: a list of options whose first nine shown are numbered,
and past `FILTER_THRESHOLD` options a filter that typing fills."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar, TypeVar

from textual import events
from textual.widgets import OptionList

from tui.core.models import ChoiceRequest, MultiChoiceRequest
from widgets.base import ElicitationModal
from widgets.digit_keys import number_in_view
from widgets.list_filter import FILTER_THRESHOLD, ListFilter

ListRequestT = TypeVar("ListRequestT", bound=ChoiceRequest | MultiChoiceRequest)


class FilteredListModal(ElicitationModal[ListRequestT]):
    """A dialog answered from a list: a digit acts on the option numbered so (`NUMBER_ACTION`)
    where the filter does not take it and the number is on screen; in a long list, typing
    filters, Backspace and Escape clear (see `ListFilter`)."""

    NUMBER_ACTION: ClassVar[str]
    """The action a digit key is bound to, with its digit as parameter."""

    _numbers_aside = True
    """Whether the footer offers the digits while the dialog is set aside between questions:
    as it did for the last question, whose keys the next one like it needs again (a list of
    ports hides them). Else the footer was rebuilt twice a question, once each way."""

    def __init__(self, request: ListRequestT, **kwargs: Any) -> None:
        super().__init__(request, **kwargs)
        self._filter = ListFilter()
        """What is typed into a long list's filter and the options it lets through (a short
        list's are all)."""

    @classmethod
    def body_shape(cls, request: ListRequestT) -> tuple[Hashable, ...]:
        return (len(request.options) >= FILTER_THRESHOLD,)

    @property
    def filtering(self) -> bool:
        return len(self.request.options) >= FILTER_THRESHOLD

    def numbered_list(self) -> OptionList:
        """The list whose options the digits act on."""
        return self.query_one("#options", OptionList)

    def apply_filter(self) -> None:
        """Show the options the filter lets through (called whenever its text changes)."""
        raise NotImplementedError

    def forget(self) -> None:
        self._numbers_aside = self._numbered("1")
        self._filter.start([])
        self.numbered_list().clear_options()

    def on_key(self, event: events.Key) -> None:
        if not self.filtering or not self._filter.type(event.key, event.character):
            return
        event.stop()
        event.prevent_default()
        self.apply_filter()
        self.show_error("")  # said of the filter before
        # Escape clears a filter typed, else cancels; digits act by number or filter.
        self.refresh_bindings()

    def describe_action(self, action: str, parameters: tuple[object, ...], description: str) -> str:
        if action == "cancel" and self._filter.text:
            return "Clear filter"
        return super().describe_action(action, parameters, description)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == self.NUMBER_ACTION:
            if not self._filter.shown:  # set aside between questions
                return self._numbers_aside
            return self._numbered(str(parameters[0]))
        return super().check_action(action, parameters)

    def _numbered(self, digit: str) -> bool:
        """Whether `digit` acts on the option numbered so: a digit the filter does not take,
        the option's number on screen beside it (not scrolled out of view)."""
        number = int(digit)
        return (
            digit not in self._filter_digits()
            and number <= len(self._filter.shown)
            and number_in_view(self.numbered_list(), number - 1)
        )

    def _filter_digits(self) -> frozenset[str]:
        """The digits that go into the filter, typed next (none in a short list)."""
        return self._filter.digits() if self.filtering else frozenset()

    def _numbers_may_have_moved(self) -> None:
        """After a highlight moved: the numbers beside the options may have scrolled out of
        view (or back), where the list or the body scrolls."""
        if self.numbered_list().max_scroll_y or self._body.max_scroll_y:
            self.refresh_bindings()

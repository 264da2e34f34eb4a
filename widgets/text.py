"""Free text: a single-line input, or a text area when the request is multiline."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, Static

from tui.core.models import TextRequest
from widgets.base import FITTED, ElicitationModal, InvalidAnswer
from widgets.cut_mark import CutText
from widgets.ellipsis_input import EllipsisInput
from widgets.literal import shown

if TYPE_CHECKING:
    from textual.widgets import TextArea


def length_problem(length: int, low: int | None, high: int | None) -> str | None:
    """Why a text of `length` characters does not fit the bounds, or None if it does."""
    if low is not None and length < low:
        return f"Enter at least {low} characters (you have {length})."
    if high is not None and length > high:
        return f"Enter at most {high} characters (you have {length})."
    return None


class TextModal(ElicitationModal[TextRequest]):
    """Type an answer; Enter accepts (Ctrl+S in a multiline area, where Enter starts a line).

    A sensitive request is typed masked, in one line: a text area cannot hide what it holds.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "accept", "Accept"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | ctrl+s | Accept (the way to accept a multiline answer). |
    """

    @classmethod
    def body_shape(cls, request: TextRequest) -> tuple[Hashable, ...]:
        return (_in_area(request), request.sensitive)

    @property
    def in_area(self) -> bool:
        """Whether the answer is typed in a multiline text area (else in a one-line input)."""
        return _in_area(self.request)

    def compose_body(self) -> ComposeResult:
        request = self.request
        if self.in_area:
            # Loaded only for a multiline request: a one-line question, the common one, is
            # shown sooner in a new process without it.
            from textual.widgets import TextArea

            # Fitted: too tall for a short terminal, it scrolls in the room left to it, the
            # line being typed in view, instead of running past the dialog's edge.
            area = TextArea(
                _shown_default(self.request), id="answer", soft_wrap=True, classes=FITTED
            )
            area.show_line_numbers = False
            yield area
        else:
            yield EllipsisInput(
                _shown_default(self.request),
                placeholder=shown(request.placeholder or ""),
                max_length=request.max_length or 0,
                password=request.sensitive,
                id="answer",
            )
        yield CutText(id="count")

    def reload(self, request: TextRequest, *, deadline: float | None = None) -> None:
        if _in_area(request):
            area = self._area()
            area.load_text(_shown_default(request))
            area.move_cursor(area.document.end)
        else:
            field = self.query_one("#answer", Input)
            field.placeholder = shown(request.placeholder or "")
            field.max_length = request.max_length or 0
            field.value = _shown_default(request)
            # Selected whole, as a fresh field is when focused: typing replaces the default.
            field.select_all()
        self.query_one("#count", Static).update("")
        self.query_one("#answer").focus()
        super().reload(request, deadline=deadline)

    def fill(self) -> None:
        self._update_count()

    def forget(self) -> None:
        if self.in_area:
            self._area().clear()
        else:
            self.query_one("#answer", Input).clear()

    def on_input_changed(self) -> None:
        self._update_count()

    def on_text_area_changed(self) -> None:
        self._update_count()
        self._show_typed(self._area())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Multiline: Enter belongs to the text area and Ctrl+S accepts; single line: Enter.
        if action == "submit":
            return not self.in_area
        if action == "accept":
            return self.in_area
        return super().check_action(action, parameters)

    @property
    def text(self) -> str:
        if self.in_area:
            return self._area().text
        return self.query_one("#answer", Input).value

    def _area(self) -> TextArea:
        """The multiline answer's text area (`in_area` only)."""
        from textual.widgets import TextArea

        return self.query_one("#answer", TextArea)

    @property
    def _counted(self) -> bool:
        return self.request.min_length is not None or self.request.max_length is not None

    def _update_count(self) -> None:
        request = self.request
        if not self._counted:
            return
        limit = f"/{request.max_length}" if request.max_length else ""
        minimum = f" · at least {request.min_length}" if request.min_length else ""
        self.query_one("#count", Static).update(f"{len(self.text)}{limit} characters{minimum}")
        self.show_error("")

    def content(self) -> str:
        text = self.text
        if text == _shown_default(self.request):
            # Left as shown: the default itself, with any secret the screen masked in it.
            text = self.request.default or ""
        problem = length_problem(len(text), self.request.min_length, self.request.max_length)
        if problem:
            raise InvalidAnswer(problem, self.query_one("#answer"))
        return text


def _shown_default(request: TextRequest) -> str:
    """The default as the field shows it (see `shown`), and so as it is answered if kept."""
    return shown(request.default or "")


def _in_area(request: TextRequest) -> bool:
    return request.multiline and not request.sensitive

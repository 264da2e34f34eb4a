"""A form generated from a JSON schema (or a pydantic model), validated while it is typed."""

from __future__ import annotations

from collections.abc import Hashable
from functools import partial
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Button, Input, OptionList, Select, SelectionList, Switch
from textual.widgets._select import SelectOverlay

from tui.core.models import FormRequest
from tui.core.schema import FieldSpec, FormSpec, build_content, validate_content
from tui.secrets.redaction import REDACTOR
from widgets.base import ElicitationModal, InvalidAnswer
from widgets.form_field import FormField, field_rows, field_shape, field_values, title_cells

_CHROME_ROWS = 12
"""Rows of the dialog around its fields: borders, source, title, message, button, error."""


NAMED_ERRORS = 3
"""Fields the line under a refused form names, at most; it counts the rest."""


class FormModal(ElicitationModal[FormRequest]):
    """Fields in schema order; Enter takes a valid field and moves on (on the last field and
    the button it submits), Ctrl+S (or the button) submits when all is valid.

    Only the fields that fill the first screen are built and composed; the rest are built
    and mounted in one batch right after the first paint, so a long form shows at once.
    Fields not built yet count as untouched: they give their defaults.

    A form is kept once answered, and shows the next form of the same fields (see
    `field_shape`: the same controls, input types, row counts and help lines, in order) by
    reloading them with its titles, hints, options and defaults. A form with a long enum,
    whose searchable Select is built for its own options, is composed afresh each time.
    """

    STYLESHEETS = ("fields.tcss", "form.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        # One key, two labels: the footer says what Enter does on the focused field.
        Binding("enter", "submit", "Next", priority=True),
        Binding("enter", "submit_here", "Submit", priority=True),
        # Shown while Enter moves on; while Enter submits too, one "Submit" in the footer is enough.
        Binding("ctrl+s", "accept", "Submit"),
        Binding("ctrl+s", "accept_unlisted", "Submit", show=False),
        # Priority, like Enter: keys typed in a burst then reach the field they were meant for
        Binding("tab", "step_focus(1)", "Next field", show=False, priority=True),
        Binding("shift+tab", "step_focus(-1)", "Previous field", show=False, priority=True),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter | Move to the next field if this one is valid; on the last field or the button, submit. |
    | ctrl+s | Submit the form. |
    | tab | Move to the next field (in schema order), then to the button. |
    | shift+tab | Move to the previous field. |
    """

    ERROR_LINE_AHEAD = True
    """A refused form keeps its focused field in view once the error line has taken its row
    from the body (`show_error`): that row must be laid out by then."""

    def __init__(self, request: FormRequest, **kwargs: Any) -> None:
        super().__init__(request, **kwargs)
        self.spec: FormSpec = request.spec
        self.fields: list[FormField] = []
        """The fields built so far, in schema order: all of them once `complete`."""
        self._by_control: dict[Widget, FormField] = {}
        self._submitted_once = False
        self.set_class(self._taller_than_screen(), "tall")

    @property
    def complete(self) -> bool:
        """True once the form is mounted, with every field, and has focused its first field."""
        return (
            self.is_mounted
            and len(self.fields) == len(self.spec.fields)
            and all(f.control.is_mounted for f in self.fields)
        )

    def _build(self, specs: tuple[FieldSpec, ...]) -> list[Widget]:
        """Build fields for `specs`; returns their widgets to mount, top to bottom."""
        cells = title_cells(self.app.size.width)
        built = [FormField(spec, cells) for spec in specs]
        if self.request.sensitive:
            # A sensitive form is typed masked throughout, its answers stay the types asked.
            for form_field in built:
                if isinstance(form_field.control, Input):
                    form_field.control.password = True
        self.fields.extend(built)
        self._by_control.update((f.control, f) for f in built)
        return [widget for form_field in built for widget in form_field.widgets]

    @classmethod
    def body_shape(cls, request: FormRequest) -> tuple[Hashable, ...] | None:
        fields = tuple(field_shape(field) for field in request.spec.fields)
        return None if None in fields else fields

    def reload(self, request: FormRequest, *, deadline: float | None = None) -> None:
        self.spec = request.spec
        self._submitted_once = False
        for form_field, field in zip(self.fields, self.spec.fields, strict=False):
            form_field.reload(field, masked=request.sensitive)
        super().reload(request, deadline=deadline)
        self.set_class(self._taller_than_screen(), "tall")

    def forget(self) -> None:
        for form_field in self.fields:
            form_field.forget()

    def compose_body(self) -> ComposeResult:
        yield from self._build(self.spec.fields[: self._first_screenful()])

    def compose_pinned(self) -> ComposeResult:
        # Under the fields, never scrolled away with them: how to submit is always in view.
        yield Button("Submit", id="submit", variant="primary")

    def _first_screenful(self) -> int:
        """How many fields fill the screen, at least."""
        rows = 0
        for count, field in enumerate(self.spec.fields, 1):
            rows += field_rows(field)
            if rows >= self.app.size.height:
                return count
        return len(self.spec.fields)

    def _taller_than_screen(self) -> bool:
        """About whether the dialog, with every field, is taller than the screen."""
        description = self.request.description
        around = _CHROME_ROWS + (len(description.splitlines()) + 1 if description else 0)
        rows = around + sum(field_rows(field) for field in self.spec.fields)
        return rows > self.app.size.height

    def on_resize(self) -> None:
        self.set_class(self._taller_than_screen(), "tall")

    def on_mount(self) -> None:
        self.screen_layout_refresh_signal.subscribe(self, self._fit_titles)

    def _fit_titles(self, _screen: object) -> None:
        """After a layout, cut each required field's title to the room its box has now: the
        screen's width and the scrollbar of a form taller than it both decide it."""
        most = title_cells(self.app.size.width)
        for form_field in self.fields:
            cells = form_field.title_room(most)
            if form_field.title_cells != cells:
                form_field.fit_title(cells)

    def fill(self) -> None:
        if len(self.fields) < len(self.spec.fields):
            # Not built yet (or the form answered before closed before they were mounted).
            self.call_after_refresh(self._mount_rest)
        self.set_focus(self.fields[0].control if self.fields else self.query_one("#submit"))

    async def _mount_rest(self) -> None:
        if self not in self.app.screen_stack:
            return  # answered or withdrawn before the first paint
        widgets = self._build(self.spec.fields[len(self.fields) :])
        await self.query_one("#body").mount_all(widgets)

    def field_of(self, widget: Widget) -> FormField | None:
        """The field `widget` belongs to (its control, or a part of the control), if any."""
        for node in widget.ancestors_with_self:
            if isinstance(node, Widget) and node in self._by_control:
                return self._by_control[node]
        return None

    # -- validation while typing -------------------------------------------------------

    def _changed(self, control: Widget) -> None:
        form_field = self.field_of(control)
        if form_field is None:
            return
        # controls report their first value as they mount: nothing to check or clear then
        if form_field.touched or form_field.error is not None or self._submitted_once:
            form_field.check(show_required=self._submitted_once)
        if self.error_shown:
            self.show_error("")

    def on_input_changed(self, event: Input.Changed) -> None:
        self._changed(event.input)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        form_field = self.field_of(event.switch)
        if form_field is not None:
            form_field.show_switch(event.value)
        self._changed(event.switch)

    def on_select_changed(self, event: Select.Changed) -> None:
        self._changed(event.select)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        self._changed(event.selection_list)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # a Select's overlay highlights as the person browses: only its Changed counts
        if isinstance(event.option_list, SelectOverlay | SelectionList):
            return
        form_field = self.field_of(event.option_list)
        # A list the answer cleared has nothing to show: the last pick of a burst can be
        # reported after the Enter that answered.
        if form_field is not None and event.option_list.option_count:
            # The option highlighted now, not the message's: a list made with options
            # highlights its first, and that message comes after its highlight was cleared.
            form_field.show_choice(event.option_list.highlighted)
            self._changed(event.option_list)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.refresh_bindings()
        # Once laid out: scrolled to where it is before, as the focus first goes to a field
        # (in an inline `ask`, while the dialog is still a row high), the body would keep that
        # offset, the first field's top cut off.
        self.show_in_order(partial(self._show_field_of, event.widget, immediate=True))

    def show_error(self, message: str) -> None:
        super().show_error(message)
        # The error line takes a row from the body once laid out: keep the focused field in view.
        self.call_after_refresh(lambda: self._show_field_of(self.focused))

    def _show_field_of(self, widget: Widget | None, *, immediate: bool = False) -> None:
        """Scroll the field `widget` is part of into view: `immediate`, as laid out now, else
        once laid out again."""
        form_field = self.field_of(widget) if widget is not None else None
        if form_field is not None:
            # the whole box with its title and hint or error, and the help line if there is room
            if form_field.help is not None:
                form_field.help.scroll_visible(animate=False, immediate=immediate)
            form_field.box.scroll_visible(animate=False, immediate=immediate)

    # -- keys ----------------------------------------------------------------------------

    @property
    def enter_submits(self) -> bool:
        """Whether Enter submits the form from where the focus is (the last field or the button)."""
        focused = self.focused
        if isinstance(focused, SelectOverlay):
            return False
        if focused is None or isinstance(focused, Button):
            return True
        return (
            len(self.fields) == len(self.spec.fields) and self.field_of(focused) is self.fields[-1]
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("submit", "submit_here"):
            return self.enter_submits == (action == "submit_here")
        if action in ("accept", "accept_unlisted"):
            return self.enter_submits == (action == "accept_unlisted")
        return super().check_action(action, parameters)

    def action_submit(self) -> None:
        focused = self.focused
        if isinstance(focused, SelectOverlay):
            focused.action_select()
            return
        if self.enter_submits:
            self.action_accept()
            return
        form_field = self.field_of(focused) if focused is not None else None
        # An invalid field keeps the focus: the keys that follow are still meant for it.
        if form_field is not None and form_field.check(show_required=True) is not None:
            return
        self.action_step_focus(1)

    action_submit_here = action_submit

    def action_accept_unlisted(self) -> None:
        self.action_accept()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Submit pressed by a click or a tap: submit the form, as Ctrl+S does."""
        if event.button.id == "submit":
            event.stop()
            self.action_accept()

    def action_step_focus(self, step: int) -> None:
        """Focus the field `step` places on, in schema order, the button last.

        Textual's own order follows where widgets are on screen, which fields mounted a
        moment ago do not know yet.
        """
        order = [f.control for f in self.fields if f.control.is_mounted]
        order.append(self.query_one("#submit"))
        focused = self.focused
        if focused in order:
            # Shown by `_show_field_of`, without Textual's glide there: one still gliding to a
            # field a fast Tab left behind carried the view away from the field focused last.
            self.set_focus(order[(order.index(focused) + step) % len(order)], scroll_visible=False)
        elif step > 0:
            self.focus_next()
        else:
            self.focus_previous()

    def content(self) -> dict[str, Any] | BaseModel:
        self._submitted_once = True
        for form_field in self.fields:
            form_field.check(show_required=True)
        content, errors = build_content(self.spec, field_values(self.fields))
        if errors:
            titles = [f.title for f in self.spec.fields if f.name in errors]
            # A few names: the line must leave the dialog room for the fields to fix.
            names = ", ".join(titles[:NAMED_ERRORS]) + (
                f" and {len(titles) - NAMED_ERRORS} more" if len(titles) > NAMED_ERRORS else ""
            )
            mounted = [f.control for f in self.fields if f.control.is_mounted]
            first = next((c for c in mounted if self._by_control[c].field.name in errors), None)
            raise InvalidAnswer(
                f"Fix {len(errors)} field{'s' if len(errors) > 1 else ''} first: {names}", first
            )
        # Before anything checks them: a model's validator may quote a rejected secret.
        for name in self.request.secret_fields():
            if isinstance(typed := content.get(name), str):
                REDACTOR.register(typed)
        try:
            validate_content(self.request.requested_schema, content)
            return self.request.finish_content(content)
        except ValidationError as problem:
            raise self._refused_by_model(problem) from None
        except ValueError as problem:
            raise InvalidAnswer(str(problem)) from None

    def _refused_by_model(self, error: ValidationError) -> InvalidAnswer:
        """A model's refusal (a validator the schema cannot say) as the form says its own:
        under each field it names, by its title, the first of them focused."""
        by_name = {f.field.name: f for f in self.fields}
        said, first = [], None
        for problem in error.errors(include_url=False, include_input=False):
            loc = problem["loc"]
            # A validator may quote the secret it rejects: scrubbed here, under the field too.
            message = REDACTOR.scrub(problem["msg"].removeprefix("Value error, "))
            form_field = by_name.get(str(loc[0])) if loc else None
            if form_field is None:
                # Not one field's (the model as a whole): by its path, if any.
                said.append(f"{'.'.join(str(part) for part in loc) or 'form'}: {message}")
                continue
            form_field.show_error(message)
            said.append(f"{form_field.field.title}: {message}")
            if first is None and form_field.control.is_mounted:
                first = form_field.control
        return InvalidAnswer("; ".join(said), first)

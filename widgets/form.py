"""A form generated from a JSON schema (or a pydantic model), validated while it is typed."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button, Input, OptionList, Select, SelectionList, Switch
from textual.widgets._select import SelectOverlay

from tui.models import FormRequest
from tui.schema import FormSpec, build_content, parse_schema, validate_content
from widgets.base import ElicitationModal, InvalidAnswer
from widgets.form_field import FormField, field_values


class FormModal(ElicitationModal[FormRequest]):
    """Fields in schema order; Enter moves on, Ctrl+S (or the button) submits when all is valid."""

    kind = "form"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Next", priority=True),
        Binding("ctrl+s", "accept", "Submit"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter | Move to the next field; on the last field or the button, submit. |
    | ctrl+s | Submit the form. |
    """

    def __init__(self, request: FormRequest, **kwargs: Any) -> None:
        super().__init__(request, **kwargs)
        self.spec: FormSpec = parse_schema(request.requested_schema)
        self._submitted_once = False

    def compose_body(self) -> ComposeResult:
        for field in self.spec.fields:
            yield FormField(field)
        yield Button("Submit", id="submit", variant="primary")

    @property
    def fields(self) -> list[FormField]:
        return list(self.query(FormField))

    def on_mount(self) -> None:
        for form_field in self.fields:
            form_field.show_error(None)
        first = self.query(".control").first()
        first.focus()

    # -- validation while typing -------------------------------------------------------

    def _changed(self, control: Any) -> None:
        for form_field in control.ancestors:
            if isinstance(form_field, FormField):
                form_field.touched = True
                form_field.check(show_required=self._submitted_once)
                self.show_error("")
                return

    def on_input_changed(self, event: Input.Changed) -> None:
        self._changed(event.input)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        self._changed(event.switch)

    def on_select_changed(self, event: Select.Changed) -> None:
        self._changed(event.select)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        self._changed(event.selection_list)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if not isinstance(event.option_list, SelectOverlay) and event.option_list.has_focus:
            self._changed(event.option_list)

    # -- keys ----------------------------------------------------------------------------

    def action_submit(self) -> None:
        focused = self.focused
        if isinstance(focused, SelectOverlay):
            focused.action_select()
            return
        if isinstance(focused, Select):
            focused.action_show_overlay()
            return
        controls = list(self.query(".control"))
        if focused is None or isinstance(focused, Button) or focused is controls[-1]:
            self.action_accept()
        else:
            self.focus_next()

    def content(self) -> dict[str, Any] | BaseModel:
        self._submitted_once = True
        fields = self.fields
        for form_field in fields:
            form_field.check(show_required=True)
        content, errors = build_content(self.spec, field_values(fields))
        if errors:
            first = next(f for f in fields if f.field.name in errors)
            names = ", ".join(f.field.title for f in fields if f.field.name in errors)
            raise InvalidAnswer(f"Fix {len(errors)} field(s) first: {names}", first.control)
        try:
            validate_content(self.request.requested_schema, content)
            return self.request.finish_content(content)
        except (ValueError, ValidationError) as problem:
            raise InvalidAnswer(str(problem)) from None

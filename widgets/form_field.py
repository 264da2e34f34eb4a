"""One field of a form: a control chosen for the keyboard, titled, with help or error beneath."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, OptionList, Select, SelectionList, Static, Switch
from textual.widgets.option_list import Option as ListOption
from textual.widgets.selection_list import Selection

from tui.schema import FieldSpec, parse_value

SHORT_ENUM = 6
"""Enums with at most this many options show as a list; longer ones as a searchable Select."""

_INPUT_TYPES = {"integer": "integer", "number": "number"}


def make_control(field: FieldSpec) -> Widget:
    """The widget that edits `field`, prefilled with its default."""
    default = field.default
    if field.type == "boolean":
        return Switch(value=bool(default), classes="control")
    if field.type == "enum" and len(field.options) > SHORT_ENUM:
        return Select(
            [(o.label, o.value) for o in field.options],
            value=default if default is not None else Select.NULL,
            allow_blank=default is None,
            prompt=f"Type to search {len(field.options)} options",
            classes="control",
        )
    if field.type == "enum":
        options = OptionList(
            *(ListOption(o.label, id=o.value) for o in field.options), classes="control"
        )
        values = [o.value for o in field.options]
        if default in values:
            options.highlighted = values.index(default)
        return options
    if field.type == "multi_enum":
        chosen = set(default or ())
        return SelectionList[str](
            *(Selection(o.label, o.value, o.value in chosen) for o in field.options),
            classes="control",
        )
    return Input(
        "" if default is None else str(default),
        placeholder=field.hint(),
        password=field.secret,
        type=_INPUT_TYPES.get(field.type, "text"),  # type: ignore[arg-type]
        max_length=field.max_length or 0,
        classes="control",
    )


def control_value(control: Widget) -> str | bool | list[str] | None:
    """What the control holds, in the raw form `tui.schema.parse_value` takes."""
    if isinstance(control, Input):
        return control.value
    if isinstance(control, Switch):
        return control.value
    if isinstance(control, SelectionList):
        return list(control.selected)
    if isinstance(control, Select):
        return None if control.is_blank() else str(control.value)
    if isinstance(control, OptionList):
        index = control.highlighted
        return None if index is None else control.get_option_at_index(index).id
    raise TypeError(f"not a form control: {control!r}")


class FormField(Vertical):
    """A field's control in a titled box; the help line beneath turns into the error."""

    def __init__(self, field: FieldSpec) -> None:
        super().__init__(classes=f"form-field type-{field.type}")
        self.field = field
        self.touched = False
        """True once the person changed the value (untouched fields give their default)."""
        self.border_title = f"{field.title} *" if field.required else field.title
        self._help = " · ".join(part for part in (field.description, _hint_beside(field)) if part)

    def compose(self) -> ComposeResult:
        yield make_control(self.field)
        yield Static(self._help, classes="help", markup=False)

    @property
    def control(self) -> Widget:
        return self.query_one(".control", Widget)

    @property
    def raw(self) -> str | bool | list[str] | None:
        return control_value(self.control)

    def check(self, *, show_required: bool) -> str | None:
        """Validate the current value and show the outcome; returns the error, if any."""
        try:
            parse_value(self.field, self.raw)
        except ValueError as problem:
            message = str(problem)
            if message == "required" and not show_required:
                self.show_error(None)
                return message
            self.show_error(message)
            return message
        self.show_error(None)
        return None

    def show_error(self, message: str | None) -> None:
        """Show `message` under the control in place of the help; None restores the help."""
        help_line = self.query_one(".help", Static)
        help_line.update(f"✖ {message}" if message else self._help)
        help_line.display = bool(message or self._help)
        self.set_class(bool(message), "invalid")


def _hint_beside(field: FieldSpec) -> str:
    """The hint for the help line: text inputs already show it as their placeholder."""
    return field.hint() if field.type in ("multi_enum",) else ""


def field_values(fields: list[FormField]) -> dict[str, Any]:
    """The raw values of the fields a person touched (required switches count as touched)."""
    return {
        f.field.name: f.raw
        for f in fields
        if f.touched or (f.field.type == "boolean" and f.field.required)
    }

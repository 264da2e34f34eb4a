"""One field of a form: a control chosen for the keyboard in a titled box, with hint and help."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, OptionList, Select, SelectionList, Static, Switch
from textual.widgets._select import NULL, NoSelection, SelectCurrent, SelectOverlay
from textual.widgets.option_list import Option as ListOption
from textual.widgets.selection_list import Selection

from tui.core.options import Option
from tui.core.schema import FieldSpec, parse_value
from widgets.checklist import NOT_PICKED, PICKED, Checklist, NumberedChecklist
from widgets.ellipsis_input import EllipsisInput
from widgets.hanging import Hanging
from widgets.literal import literal, shown, shown_on_one_line
from widgets.long_lists import LazyRows, LongOptionList
from widgets.radio_list import RadioList
from widgets.yes_no_switch import YesNoSwitch

SHORT_ENUM = 6
"""Enums with at most this many options show as a radio list; longer ones as a searchable Select."""

LIST_ROWS = 8
"""The most rows a radio list or checklist shows before it scrolls (as in styles/app.tcss)."""

RawValue = str | bool | list[str] | None
"""What a control holds, in the form `tui.core.schema.parse_value` takes."""

_NONE_LABEL = "(none)"
TITLE_CELLS = 64
"""The most of a required field's title its box's top border shows: with the `*` after it,
a box at 80 columns has room for both."""

TITLE_MARGIN = 80 - TITLE_CELLS
"""Columns of the screen besides a required field's title: a narrower screen cuts the title
shorter, the `*` after it kept in view."""


TITLE_BORDER = 8
"""Columns of a field's box besides a required field's title: the corners, the stroke and a
space before the title, and ` *` and a space and the stroke after it."""


def title_cells(screen_width: int) -> int:
    """The most of a required field's title shown on a screen `screen_width` columns wide."""
    return max(8, min(TITLE_CELLS, screen_width - TITLE_MARGIN))


class _LiteralCurrent(SelectCurrent):
    """What a Select shows closed: the picked label, literally (never as markup)."""

    def update(self, label: RenderableType | NoSelection) -> None:
        super().update(literal(label) if isinstance(label, str) else label)


class _LongOverlay(SelectOverlay, LongOptionList):
    """A Select's list that makes an option's row only when it is drawn, and says in its
    bottom edge what has been typed to search it (Textual's search shows nothing of it)."""

    _typed_shown: Timer | None = None
    """Looks again, while something typed is shown, for when the search forgets it."""
    _typed_said: str = ""
    """The search's keys the bottom edge says now."""

    def watch_has_focus(self, value: bool) -> None:
        # SelectOverlay forgets what was typed when it gains focus, but the letter that opened
        # the list arrives before the focus does: it is the start of the search, not stale
        typed = self._search_query
        super().watch_has_focus(value)
        if value:
            self._search_query = typed
        self._show_typed()

    async def _on_key(self, event: events.Key) -> None:
        await super()._on_key(event)
        self._show_typed()

    def _show_typed(self) -> None:
        """Say what the search has of the keys typed, and whether anything matches it;
        nothing once it forgets them (0.7 to 1.4 s after the last, by Textual's timer)."""
        if self._typed_shown is not None:
            self._typed_shown.stop()
            self._typed_shown = None
        typed = self._search_query
        if typed != self._typed_said:
            self._typed_said = typed
            found = not typed or self._find_search_match(typed) is not None
            said = f" {shown_on_one_line(typed)}{'' if found else ' · no match'} "
            self.border_subtitle = Content(said) if typed else ""
        if typed:
            self._typed_shown = self.set_timer(0.1, self._show_typed)

    _searched: tuple[LazyRows, list[str]] | None = None
    """The rows searched last and their texts as shown, in lower case."""

    def _find_search_match(self, query: str) -> int | None:
        # SelectOverlay's search (the earliest match in a prompt wins), on the rows' texts,
        # without making every row
        rows = self._options
        if not isinstance(rows, LazyRows):
            return super()._find_search_match(query)
        if self._searched is None or self._searched[0] is not rows:
            self._searched = rows, [shown(text).lower() for text in rows.texts]
        query = query.lower()
        best: int | None = None
        earliest = -1
        for index, text in enumerate(self._searched[1]):
            at = text.find(query)
            if at != -1 and (best is None or at < earliest):
                best, earliest = index, at
        return best


class _SearchSelect(Select[str]):
    """A Select that opens on the first letter typed and searches with it (type to search).

    Its list makes only the rows it draws, so an enum of 10,000 options shows at once.
    """

    def compose(self) -> ComposeResult:
        yield _LiteralCurrent(self.prompt)
        yield _LongOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)

    def _setup_options_renderables(self) -> None:
        blank = Text(self.prompt, style="dim")
        options = self._options
        texts = [self.prompt if value is NULL else str(label) for label, value in options]

        def make(index: int) -> ListOption:
            label, value = options[index]
            return ListOption(blank if value is NULL else literal(str(label)))

        self.query_one(_LongOverlay).show_rows(texts, make)

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        return character is not None and character.isprintable()

    def _on_mount(self, event: events.Mount) -> None:
        # removed while it mounted (the request ended meanwhile): Select's own mount handler,
        # called after this one, would look for children that are gone
        if not self.children:
            event.prevent_default()

    async def _on_key(self, event: events.Key) -> None:
        if self.expanded or not event.is_printable:
            return
        event.stop()
        event.prevent_default()
        self.action_show_overlay()
        # the overlay, focused now, searches for the letter as if it had been typed there
        self.query_one(OptionList).post_message(events.Key(event.key, event.character))


def _radio_choices(field: FieldSpec) -> list[Option | None]:
    """The options of a short enum, led by None ("(none)") when the field is optional: its
    pick, the default's too, can be undone."""
    if field.required:
        return list(field.options)
    return [None, *field.options]


def _radio_prompt(option: Option | None, chosen: bool, number: int) -> Hanging:
    """The mark and the row's `number` (the key that picks it: 0 for "(none)"), and beside
    them the label and its description, wrapped under the label: a long label never leaves
    its mark alone on a line."""
    mark = Content.assemble(
        f"{PICKED if chosen else NOT_PICKED} ", (f"{number} " if number <= 9 else "  ", "dim")
    )
    if option is None:
        return Hanging(mark, Content.styled(_NONE_LABEL, "dim"))
    label = Content(shown(option.label))
    if option.description:
        label = Content.assemble(label, (f" · {shown(option.description)}", "dim"))
    return Hanging(mark, label)


def _radio_options(field: FieldSpec) -> tuple[list[ListOption], int | None]:
    """A short enum's rows, and the index of its default (None: none picked)."""
    choices = _radio_choices(field)
    # "(none)" is the one option without an id: it stands for no value
    ids = [None if option is None else option.value for option in choices]
    chosen = ids.index(field.default) if field.default in ids else None
    rows = [
        ListOption(_radio_prompt(option, index == chosen, number), id=ids[index])
        for index, (option, number) in enumerate(_numbered(choices))
    ]
    return rows, chosen


def _numbered(choices: list[Option | None]) -> list[tuple[Option | None, int]]:
    """Each row and its number: the options from 1, as in every list, "(none)" 0."""
    first = 0 if choices and choices[0] is None else 1
    return [(option, first + index) for index, option in enumerate(choices)]


def _checklist_entries(field: FieldSpec) -> list[Selection[str]]:
    """A multi-enum's rows, numbered as a pick-one list's, its defaults ticked."""
    picked = set(field.default or ())
    # One line each (Textual's Selection keeps only a prompt's first line): joined, none lost.
    return [
        Selection(
            Content.assemble(
                (f"{number} " if number <= 9 else "  ", "dim"), shown_on_one_line(o.label)
            ),
            o.value,
            o.value in picked,
        )
        for number, o in enumerate(field.options, 1)
    ]


def make_control(field: FieldSpec, classes: str = "") -> Widget:
    """The widget that edits `field`, prefilled with its default, with the class `control`
    and `classes` (given here: classes added later cost a restyle each)."""
    default = field.default
    classes = f"control {classes}".strip()
    if field.type == "boolean":
        return YesNoSwitch(value=bool(default), classes=classes)
    if field.type == "enum" and len(field.options) > SHORT_ENUM:
        return _SearchSelect(
            [(o.label, o.value) for o in field.options],
            value=default if default is not None else Select.NULL,
            # An optional field can be unset, from its default too.
            allow_blank=default is None or not field.required,
            prompt=f"type to search {len(field.options)} options",
            compact=True,
            classes=classes,
        )
    if field.type == "enum":
        rows, chosen = _radio_options(field)
        radio = RadioList(*rows, classes=f"{classes} radio")
        radio.highlighted = chosen
        return radio
    if field.type == "multi_enum":
        return NumberedChecklist(*_checklist_entries(field), classes=classes)
    # A text input whatever the type and length: Textual's number types and max_length drop
    # what does not fit unsaid; the field's check says what is wrong and keeps it to fix.
    return EllipsisInput(
        "" if default is None else shown(str(default)),
        placeholder=shown(field.hint()),
        password=field.secret,
        classes=classes,
    )


def field_shape(field: FieldSpec) -> tuple[str, int, bool] | None:
    """What of `field` decides the widgets it is shown with, for a field whose control can
    take another field's values: a switch; an input; a pick-one list or a checklist of as
    many rows. None for a long enum: its searchable Select is built for its own options."""
    if field.type == "enum" and len(field.options) > SHORT_ENUM:
        return None
    if field.type == "enum":
        control, rows = "radio", len(_radio_choices(field))
    elif field.type == "multi_enum":
        control, rows = "checklist", len(field.options)
    else:
        control = "switch" if field.type == "boolean" else "input"
        rows = 1
    return (control, rows, field.description is not None)


def field_rows(field: FieldSpec) -> int:
    """About how many rows `field` takes on screen: its box, the control in it, the help line."""
    if field.type == "multi_enum" or (field.type == "enum" and len(field.options) <= SHORT_ENUM):
        content = min(len(field.options) + 1, LIST_ROWS)
    else:
        content = 1
    return content + 2 + (field.description is not None)


def control_value(control: Widget) -> RawValue:
    """What the control holds, in the raw form `tui.core.schema.parse_value` takes."""
    if isinstance(control, Input):
        return control.value
    if isinstance(control, Switch):
        return control.value
    if isinstance(control, SelectionList):
        # In the order the options are offered, as a checklist question's: not as ticked.
        chosen = set(control.selected)
        options = (control.get_option_at_index(i) for i in range(control.option_count))
        return [option.value for option in options if option.value in chosen]
    if isinstance(control, Select):
        return None if control.is_blank() else str(control.value)
    if isinstance(control, OptionList):
        index = control.highlighted
        return None if index is None else control.get_option_at_index(index).id
    raise TypeError(f"not a form control: {control!r}")


class FormField:
    """The widgets of one field and what the person did with it.

    The field is a box titled with its name (`*` when required): the control itself, or for
    a boolean the switch with "yes"/"no" beside it. The box's bottom border shows the hint
    ("YYYY-MM-DD", "1–100", "pick 1–3"; an empty input shows it as its placeholder instead)
    or, while the value is invalid, the error; the description is a help line under the box.
    Not a container widget: one per field would double what a long form costs to show.
    """

    def __init__(self, field: FieldSpec, title_cells: int = TITLE_CELLS) -> None:
        self.field = field
        self.title_cells = title_cells
        """The most of a required field's title shown (see `fit_title`)."""
        box_classes = f"form-field type-{field.type}"
        self._state: Static | None = None
        if field.type == "boolean":
            control = make_control(field)
            self._state = Static(_yes_no(bool(field.default)), classes="switch-state")
            box: Widget = Horizontal(control, self._state, classes=f"{box_classes} switch-row")
        else:
            control = box = make_control(field, box_classes)
        self.control = control
        """The widget that edits the value (what gets focus)."""
        self.box = box
        """The widget drawn as the field's titled box."""
        self.help: Static | None = None
        """The line under the box, where there is something to say: the title whole, where
        its border cuts it, and the description, where the schema gives one."""
        self._help_text = ""
        self.error: str | None = None
        """The message shown for the current value, or None while it is valid."""
        self._subtitle = ""
        self._show_fresh()

    def reload(self, field: FieldSpec, *, masked: bool) -> None:
        """Show `field`, of this field's `field_shape()`, with its default, in place of the
        field answered; `masked`: typed masked whatever its type (a sensitive form)."""
        self.field = field
        control = self.control
        if isinstance(control, Switch):
            _set_at_once(control, bool(field.default))
            self.show_switch(control.value)
        elif isinstance(control, Checklist):
            control.clear_options()
            control.add_options(_checklist_entries(field))
            control.highlighted = 0
        elif isinstance(control, OptionList):
            rows, chosen = _radio_options(field)
            control.clear_options()
            control.add_options(rows)
            control.highlighted = chosen
        elif isinstance(control, Input):
            control.password = field.secret or masked
            control.placeholder = shown(field.hint())
            control.value = "" if field.default is None else shown(str(field.default))
            # Selected whole, as a fresh field is when focused: typing replaces the default.
            control.select_all()
        self._show_fresh()

    def forget(self) -> None:
        """Drop what the control holds: the answer is given."""
        if isinstance(self.control, Input):
            self.control.clear()
        elif isinstance(self.control, Switch):
            _set_at_once(self.control, False)
        elif isinstance(self.control, OptionList):  # a pick-one list or a checklist
            self.control.clear_options()

    def _show_fresh(self) -> None:
        """Title, hint and no error for the field as it starts, its value untouched."""
        self._initial = _comparable(self.raw)
        self.fit_title(self.title_cells)
        self.show_error(None)

    def title_room(self, most: int) -> int:
        """The most of a required field's title its box shows with the `*`, at most `most`
        (before the box is laid out: `most`)."""
        width = self.box.outer_size.width
        return most if not width else max(8, min(most, width - TITLE_BORDER))

    def fit_title(self, cells: int) -> None:
        """Title the box, a required field's title cut at `cells` with "…" (an optional
        one's, with no `*`, two cells later): one line (a border has no second), short
        enough that its `*` stays in view (past the border's room, Textual cuts the title's
        end, `*` and all). A title cut shows whole in the help line under the box."""
        self.title_cells = cells
        field = self.field
        title = Content(shown_on_one_line(field.title))
        room = cells if field.required else cells + 2
        fitted = title.truncate(room, ellipsis=True)
        self.box.border_title = (
            Content.assemble(fitted, (" *", "bold $text-error")) if field.required else fitted
        )
        self._show_help(whole_title=title.cell_length > room)

    def _show_help(self, *, whole_title: bool) -> None:
        """Say under the box the title whole (`whole_title`), then the description, if any;
        a help line made here while the box is shown is mounted under it."""
        said = [self.field.title] if whole_title else []
        said += [self.field.description] if self.field.description else []
        text = "\n".join(said)
        if text == self._help_text and (self.help is not None or not text):
            return
        self._help_text = text
        if self.help is None:
            self.help = Static(literal(text), classes="help")
            body = self.box.parent
            if self.box.is_mounted and isinstance(body, Widget):
                body.mount(self.help, after=self.box)
        else:
            self.help.update(literal(text))
        self.help.display = bool(text)

    @property
    def widgets(self) -> list[Widget]:
        """What to mount for this field, top to bottom."""
        return [self.box] if self.help is None else [self.box, self.help]

    @property
    def raw(self) -> RawValue:
        """What the control holds now."""
        return control_value(self.control)

    @property
    def touched(self) -> bool:
        """True while the value differs from what the field started with.

        Untouched fields give their default exactly (not as retyped by their control), and a
        value changed back counts as untouched.
        """
        return _comparable(self.raw) != self._initial

    def check(self, *, show_required: bool) -> str | None:
        """Validate the current value and show the outcome; returns the error, if any.

        "required" is returned but only shown with `show_required` (after a first submit):
        an empty field is no mistake until the person tries to send the form. An untouched
        field with a default is valid: it gives the default, which the schema's check passed.
        """
        if not self.touched and self.field.default is not None:
            self.show_error(None)
            return None
        try:
            parse_value(self.field, self.raw)
        except ValueError as problem:
            message = str(problem)
            self.show_error(message if show_required or message != "required" else None)
            return message
        self.show_error(None)
        return None

    def show_error(self, message: str | None) -> None:
        """Show `message` under the control, in place of the hint; None restores the hint."""
        self.error = message
        subtitle = f"✖ {message}" if message else self._hint_line()
        # setting a border title repaints the box: not on every key that changes nothing here
        if subtitle != self._subtitle:
            self.box.border_subtitle = self._subtitle = subtitle
        self.box.set_class(message is not None, "invalid")

    def show_switch(self, value: bool) -> None:
        """Say "yes" or "no" beside the switch."""
        if self._state is not None:
            self._state.update(_yes_no(value))

    def show_choice(self, index: int | None) -> None:
        """Mark the option at `index` of a radio list as the chosen one (None: none is)."""
        if self.field.type == "enum" and isinstance(self.control, OptionList):
            for at, (option, number) in enumerate(_numbered(_radio_choices(self.field))):
                prompt = _radio_prompt(option, at == index, number)
                self.control.replace_option_prompt_at_index(at, prompt)

    def _hint_line(self) -> str:
        """The hint for the bottom border, unless an empty input shows it as its placeholder."""
        if isinstance(self.control, Input) and not self.control.value:
            return ""
        return shown(self.field.hint())


def _comparable(raw: RawValue) -> RawValue | frozenset[str]:
    """`raw` compared as the answer it is: the order things were ticked in does not count."""
    return frozenset(raw) if isinstance(raw, list) else raw


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def field_values(fields: list[FormField]) -> dict[str, RawValue]:
    """The raw values of the fields a person touched (see `build_content` for the others)."""
    return {f.field.name: f.raw for f in fields if f.touched}


def _set_at_once(switch: Switch, value: bool) -> None:
    """Set `switch` to `value` with its knob already in place: a reloaded field shows as a
    fresh one does, not sliding from the last answer."""
    switch.value = value
    switch.app.animator.force_stop_animation(switch, "_slider_position")

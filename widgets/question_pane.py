"""One question of a batch: its options, an "Other" field, a note, and the highlighted preview."""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from tui.core.models import Question, QuestionAnswer
from widgets.checklist import NOT_PICKED, PICKED, TICKED, UNTICKED
from widgets.counted_input import CountedInput
from widgets.digit_keys import DIGITS, digits_after, number_in_view
from widgets.hanging import Hanging
from widgets.html_preview import html_as_markdown
from widgets.labelled_input import LabelledInput
from widgets.list_filter import FILTER_THRESHOLD
from widgets.literal import literal, shown
from widgets.screen_share import ScreenShare

NO_PREVIEW = "*No preview for this option.*"


class _Choices(Horizontal, ScreenShare):
    """The options and the preview beside them, with their filter line at most 40% of the
    screen's height: the question, its "Other" and note lines and the tabs stay in view."""

    SHARE = 0.4


class _Options(OptionList):
    """The options; a typed character sent to them goes to "Other" the moment it arrives.

    The app hands a key to the focused widget on arrival (`post_message`), before it is
    handled: moving it to "Other" here keeps it in order with the keys that follow it,
    which then find "Other" focused (a queued redirect would let a following space tick
    an option, say).
    """

    def __init__(self, pane: QuestionPane) -> None:
        super().__init__(classes="options")
        self.pane = pane

    def post_message(self, message: Message) -> bool:
        if (
            isinstance(message, events.Key)
            and message.is_printable
            and message.character is not None
            and self.pane.take_character(message.character)
        ):
            return True
        return super().post_message(message)


class QuestionPane(Vertical):
    """A question's own widgets and state; nothing in one pane ever shows in another.

    Single-select: picking an option replaces the "Other" answer and typing in "Other"
    replaces the pick. Multi-select: the ticked options plus the "Other" text, if any.
    Printable keys typed on the list go to "Other" (or, without it, to the filter), a digit
    only where it does not pick (`picks`). The option highlighted stays so while the filter
    lets it through.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | / | Filter a long list of options. |
    """

    class Changed(Message):
        """The pane's answer or note changed."""

        def __init__(self, pane: QuestionPane) -> None:
            super().__init__()
            self.pane = pane

        @property
        def control(self) -> QuestionPane:
            return self.pane

    class Chosen(Message):
        """An option was clicked (a single-select question may move on)."""

        def __init__(self, pane: QuestionPane) -> None:
            super().__init__()
            self.pane = pane

        @property
        def control(self) -> QuestionPane:
            return self.pane

    def __init__(
        self,
        question: Question,
        *,
        show_question: bool = True,
        html_previews: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, classes="question-pane")
        self.question = question
        self.show_question = show_question
        self.html_previews = html_previews
        self._picked: set[int] = set()
        self._other_chosen = False
        self._shown: list[int] = list(range(len(question.options)))
        """The options the filter lets through, by their index in the question's."""
        self._kept: int | None = None
        """The option to highlight whenever the filter lets it through: the one the arrows
        last moved to (None: the first shown)."""
        self._placed: int | None = None
        """The option the last filter change highlighted for want of `_kept`, the first it
        let through: the arrows moving off it make another option `_kept`."""
        self._digits_for: tuple[str, frozenset[str]] | None = None
        """The filter's text and the digits typed as text after it (`_text_digits`)."""
        self._previewed: int | None = None
        """The option whose preview is shown (None: none yet for this question)."""
        # Made here and kept: the dialog reads them on every key and every change, and looking
        # them up each time (a query of the pane) was a large part of handling a key.
        # select_on_focus=False: a key typed on the list lands in a field and the focus follows;
        # selecting all on focus would let the next key replace it.
        self._filter = (
            CountedInput(
                placeholder="/ filter the options", classes="filter", select_on_focus=False
            )
            if self.filtering
            else None
        )
        self._question = (
            Static(self._question_text(), classes="question-text") if show_question else None
        )
        self._options = _Options(self)
        self._other = (
            LabelledInput(
                "Other",
                placeholder="type your own answer",
                classes="other",
                select_on_focus=False,
            )
            if question.allow_other
            else None
        )
        self._note = LabelledInput(
            "Note",
            placeholder="optional note for the agent",
            classes="note note-line" if question.allow_other else "note",
            select_on_focus=False,
        )

    @staticmethod
    def shape(question: Question, *, show_question: bool) -> tuple[Hashable, ...]:
        """What of `question` decides which widgets a pane composes: a pane can show another
        question of the same shape (`load`)."""
        return (
            question.multi_select,
            question.allow_other,
            _filters(question),
            _has_previews(question),
            show_question,
        )

    @property
    def composed_shape(self) -> tuple[Hashable, ...]:
        """The `shape` of the questions this pane's widgets were composed for."""
        return self.shape(self.question, show_question=self.show_question)

    def load(self, question: Question) -> None:
        """Show `question`, of this pane's `shape`, as a fresh pane would; what was picked and
        typed for the last one is gone already (`forget`)."""
        self.question = question
        self._shown = list(range(len(question.options)))
        self._kept = self._placed = self._digits_for = None
        self._previewed = None
        if self._question is not None:
            self._question.update(self._question_text())
        if not self.is_mounted:
            return  # still mounting (the batch's first frame came first): it shows `question`
        self._render_options()
        if self.has_previews:
            # At once: the highlight's own message could come after the next frame.
            self._show_preview(0)
            self.query_one(".preview-pane").scroll_home(animate=False, immediate=True)

    def forget(self) -> None:
        """Drop what was picked and typed, and the options shown, once the batch is answered."""
        self._picked.clear()
        self._other_chosen = False
        self._kept = self._placed = None
        if not self.is_mounted:
            return  # nothing was typed in it: it was never shown
        if self._filter is not None:
            self._filter.count = ""
        fields = (self.filter_input, self.other_input, self.note_input)
        with self.prevent(Input.Changed):
            for field in fields:
                if field is not None:
                    field.value = ""
        self.option_list.clear_options()

    # -- layout ---------------------------------------------------------------------------

    @property
    def filtering(self) -> bool:
        return _filters(self.question)

    @property
    def has_previews(self) -> bool:
        return _has_previews(self.question)

    def _question_text(self) -> Text:
        kind = "pick any" if self.question.multi_select else "pick one"
        text = literal(self.question.question, style="bold")
        text.append(f"  ({kind})", style="dim")
        return text

    def compose(self) -> ComposeResult:
        if self._question is not None:
            yield self._question
        if self._filter is not None:
            yield self._filter
        choices = _Choices(classes="choices")
        choices.reserved = 0 if self._filter is None else 1
        with choices:
            yield self._options
            if self.has_previews:
                # Markdown and its parser load only for a question with previews.
                from widgets.preview_markdown import PreviewMarkdown

                with VerticalScroll(classes="preview-pane", can_focus=False):
                    yield PreviewMarkdown(classes="preview")
        if self._other is not None:
            yield self._other
        yield self._note

    def on_mount(self) -> None:
        self._render_options()

    @property
    def question_text(self) -> Static | None:
        """The line that asks the question, or None where the dialog's message does."""
        return self._question

    @property
    def option_list(self) -> OptionList:
        return self._options

    @property
    def other_input(self) -> Input | None:
        return self._other

    @property
    def note_input(self) -> Input:
        return self._note

    @property
    def filter_input(self) -> Input | None:
        return self._filter

    # -- state ----------------------------------------------------------------------------

    @property
    def answer(self) -> QuestionAnswer | None:
        """The answer so far: a label or the typed text (a list for multi-select); None if none."""
        labels = [o.label for i, o in enumerate(self.question.options) if i in self._picked]
        other = self.other_input.value.strip() if self.other_input is not None else ""
        if self.question.multi_select:
            answer = labels + ([other] if other else [])
            return answer or None
        if self._other_chosen and other:
            return other
        return labels[0] if labels else None

    @property
    def note(self) -> str:
        """The note typed for the agent, stripped ("" if none)."""
        return self.note_input.value.strip()

    def picks(self, number: int) -> bool:
        """Whether the digit `number` typed on the list picks the option numbered so: a digit
        not typed as text (`_text_digits`), the option's number on screen beside it (not
        scrolled out of view)."""
        return (
            str(number) not in self._text_digits()
            and 1 <= number <= len(self._shown)
            and number_in_view(self.option_list, number - 1)
        )

    def pick(self, number: int) -> bool:
        """Pick (single) or toggle (multi) the option shown as `number`; False if there is none."""
        if not 1 <= number <= len(self._shown):
            return False
        self.option_list.highlighted = number - 1
        self._choose(self._shown[number - 1])
        return True

    def pick_highlighted(self) -> bool:
        """Pick or toggle the highlighted option; False if nothing is highlighted."""
        highlighted = self.option_list.highlighted
        if highlighted is None or not self._shown:
            return False
        self._choose(self._shown[highlighted])
        return True

    def choose_other(self) -> None:
        """Make the typed "Other" text the single-select answer (if there is any text)."""
        other = self.other_input
        if other is not None and other.value.strip() and not self.question.multi_select:
            self._other_chosen = True
            self._picked.clear()
            self._changed()

    def _choose(self, index: int) -> None:
        if self.question.multi_select:
            self._picked ^= {index}
        else:
            self._picked = {index}
            self._other_chosen = False
        self._changed()

    def _changed(self) -> None:
        self._render_options()
        self.post_message(self.Changed(self))

    # -- rendering ------------------------------------------------------------------------

    def _render_options(self, highlight: int | None = None) -> None:
        """Draw the options shown, highlighting row `highlight` (None: the row highlighted)."""
        options = self.option_list
        if highlight is None:
            highlight = options.highlighted or 0
        options.set_options(
            ListOption(self._prompt(number, index), id=str(index))
            for number, index in enumerate(self._shown, 1)
        )
        if self._shown:
            options.highlighted = min(highlight, len(self._shown) - 1)
        other = self.other_input
        if other is not None:
            other.set_class(self._other_chosen or self.question.multi_select, "chosen")

    def _prompt(self, number: int, index: int) -> Hanging:
        option = self.question.options[index]
        picked = index in self._picked
        if self.question.multi_select:
            mark = TICKED if picked else UNTICKED
        else:
            mark = PICKED if picked else NOT_PICKED
        # The label beside the mark, a long description hanging under the label.
        gutter = Content.assemble(
            (mark, "bold" if picked else "dim"),
            (f" {number} " if number <= 9 else "   ", "dim"),
        )
        body = Content.assemble((shown(option.label), "bold" if picked else ""))
        if option.description:
            body = Content.assemble(body, ("\n" + shown(option.description), "dim"))
        return Hanging(gutter, body)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        # The option highlighted now, not the message's: one sent before the pane was loaded
        # with the next question names an option of the last.
        highlighted = self.option_list.highlighted
        if self.has_previews and highlighted is not None and highlighted < len(self._shown):
            self._show_preview(self._shown[highlighted])
        self.refresh_bindings()  # the numbers beside the options may have scrolled away

    def _show_preview(self, index: int) -> None:
        """Show the preview of option `index` (of the question's options), unless it is shown:
        a reload shows the first at once, and the list's highlight of it follows."""
        if index == self._previewed:
            return
        self._previewed = index
        from textual.widgets import Markdown  # loaded as the pane was composed

        preview = self.question.options[index].preview
        if preview and self.html_previews:
            preview = html_as_markdown(preview)
        self.query_one(".preview", Markdown).update(shown(preview or NO_PREVIEW))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # A click (Enter never reaches the list: the modal's Enter binding has priority).
        event.stop()
        if event.option_id is not None:
            self._choose(int(event.option_id))
            self.post_message(self.Chosen(self))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.has_class("filter"):
            self._apply_filter(event.value)
            self.refresh_bindings()  # Escape clears a filter typed, else cancels
            return
        if event.input.has_class("other") and not self.question.multi_select:
            self._other_chosen = bool(event.value.strip())
            if self._other_chosen:
                self._picked.clear()
        self._changed()

    def _apply_filter(self, text: str) -> None:
        highlighted = self.option_list.highlighted
        if highlighted is not None and highlighted < len(self._shown):
            moved_to = self._shown[highlighted]
            if moved_to != self._placed:
                self._kept = moved_to
        needle = text.casefold()
        shown = self._shown = [
            i
            for i, o in enumerate(self.question.options)
            if needle in o.label.casefold() or needle in (o.description or "").casefold()
        ]
        if self._filter is not None:
            self._filter.count = f"({len(shown)} of {len(self.question.options)})" if text else ""
        if self._kept in shown:
            self._placed = None
            self._render_options(shown.index(self._kept))
        else:
            self._placed = shown[0] if shown else None
            self._render_options(0)

    def _text_digits(self) -> frozenset[str]:
        """The digits that, typed on a long list, are text (going where letters go) rather
        than numbers: those an option holds after the filter's text ("8" among ports, "3"
        among versions), worked out once per filter text (the footer asks for each digit
        each time it is drawn)."""
        if self._filter is None:
            return frozenset()
        text = self._filter.value
        if self._digits_for is None or self._digits_for[0] != text:
            options = self.question.options
            texts = (t for o in options for t in (o.label, o.description or ""))
            self._digits_for = (text, digits_after(text, texts))
        return self._digits_for[1]

    # -- moving around --------------------------------------------------------------------

    @property
    def fields(self) -> list[Widget]:
        """The focusable parts, top to bottom."""
        parts: list[Widget | None] = [
            self.filter_input,
            self.option_list,
            self.other_input,
            self.note_input,
        ]
        return [part for part in parts if part is not None]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "filter":
            # In the filter, "/" is typed into it.
            return self.filtering and self.screen.focused is not self._filter
        return True

    def action_filter(self) -> None:
        if self.filter_input is not None:
            self.screen.set_focus(self.filter_input)

    def focus_options(self) -> None:
        """Put the focus on the option list (at once, so the next key lands there)."""
        self.screen.set_focus(self.option_list)

    def take_character(self, character: str) -> bool:
        """Type `character` into "Other" (or, without it, the filter), focusing it.

        False, and nothing typed, for the list's own keys (space, / on a long list, and a
        digit 1–9 but one typed as text: `_text_digits`) or when the question has neither
        field.
        """
        if character == " " or (character == "/" and self.filtering):
            return False
        if character in DIGITS and character not in self._text_digits():
            return False
        target = self.other_input or self.filter_input
        if target is None:
            return False
        self.screen.set_focus(target)
        target.insert_text_at_cursor(character)
        return True

    def move(self, step: int) -> None:
        """Up (-1) or down (1): through the options, and past either end to the next field.

        The fields run filter → options → "Other" → note.
        """
        focused = self.screen.focused
        fields = self.fields
        options = self.option_list
        if focused is options:
            highlighted = options.highlighted
            last = len(self._shown) - 1
            if step > 0 and (highlighted is None or highlighted >= last):
                self._focus_field(fields, fields.index(options) + 1, step)
            elif step < 0 and highlighted in (None, 0):
                self._focus_field(fields, fields.index(options) - 1, step)
            elif step > 0:
                options.action_cursor_down()
            else:
                options.action_cursor_up()
        elif focused in fields:
            self._focus_field(fields, fields.index(focused) + step, step)
        else:
            self.focus_options()

    def _focus_field(self, fields: list[Widget], position: int, step: int) -> None:
        if 0 <= position < len(fields):
            target = fields[position]
            self.screen.set_focus(target)
            if target is self.option_list and self._shown:
                self.option_list.highlighted = 0 if step > 0 else len(self._shown) - 1


def _filters(question: Question) -> bool:
    """Whether the pane of `question` has a filter field: a long list of options."""
    return len(question.options) >= FILTER_THRESHOLD


def _has_previews(question: Question) -> bool:
    """Whether the pane of `question` shows the highlighted option's preview beside the list."""
    return any(option.preview for option in question.options)

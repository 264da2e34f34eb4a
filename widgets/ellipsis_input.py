"""A one-line `Input` whose placeholder, when too long for it, ends in an ellipsis, and whose
view follows the cursor after a paste."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Input


class EllipsisInput(Input):
    """An `Input` that cuts a placeholder longer than its field with "…".

    Textual's `Input` wraps such a placeholder at a word and shows only its first line, so a
    hint (an agent's, a form field's format) looks whole when it is not. The field is
    drawn as an `Input` is in every other case: its value, a placeholder that fits, the
    cursor on the first cell of the placeholder while focused.

    After a paste longer than the field, Textual's `Input` scrolls to the cursor before it
    knows the new width of its text, and so stays at the start, the cursor out of view until
    the next key: this one scrolls to the cursor once it is laid out.

    A paste of several lines is refused, saying so, where Textual's keeps its first line
    unsaid: a pasted private key reached its asker as its first line, the dots looking whole.

    Text past `max_length`, typed or pasted, is left out saying so, where Textual's only rings
    the bell most terminals keep silent: the answer was cut unseen.

    Masked (`password`), it copies and cuts nothing, as a browser's password field: a copy
    would put the secret on the clipboard, and send it through the terminal (OSC 52) into
    whatever records it. Ctrl+C then says how to quit, as it does where nothing is selected.
    Nor is all of it selected as the focus comes back to it: a selection of dots hardly
    shows, and the next key typed would replace what the person meant to add to.
    """

    _full_said_for: str | None = None
    """The value the field held when it last said keys typed past its limit were left out."""

    @property
    def select_on_focus(self) -> bool:
        """Whether the focus coming to the field selects what it holds: never while masked."""
        return self._select_on_focus and not self.password

    @select_on_focus.setter
    def select_on_focus(self, select: bool) -> None:
        self._select_on_focus = select

    def action_copy(self) -> None:
        if self.password:
            raise SkipAction()
        super().action_copy()

    def action_cut(self) -> None:
        if self.password:
            raise SkipAction()
        super().action_cut()

    def _on_paste(self, event: events.Paste) -> None:
        # (Input's own handler, called after this one as Textual calls each class's, pastes
        # one line: its first.)
        lines = event.text.rstrip("\r\n").splitlines()
        if len(lines) > 1:
            event.prevent_default()
            event.stop()
            self.notify(
                f"This field takes one line; the paste had {len(lines)}, and was left out.",
                severity="warning",
            )
            return
        line = lines[0] if lines else ""
        if self.max_length and len(self.value) - len(self.selected_text) + len(line) > (
            self.max_length
        ):
            event.prevent_default()
            event.stop()
            self._say_too_long(f"the paste had {len(line)}, and was left out")
            return
        self.call_after_refresh(self._show_cursor)

    def restricted(self) -> None:
        if not self.max_length or len(self.value) < self.max_length:
            super().restricted()  # a character the field's type refuses
        elif self._full_said_for != self.value:
            # Once for the keys of a burst run past the limit, not once for each.
            self._full_said_for = self.value
            self._say_too_long("what was typed past them was left out")

    def _say_too_long(self, what: str) -> None:
        self.notify(
            f"This field takes at most {self.max_length} characters; {what}.", severity="warning"
        )

    def _show_cursor(self) -> None:
        self.scroll_to_region(
            Region(self._cursor_offset, 0, width=1, height=1), force=True, animate=False
        )

    def render_line(self, y: int) -> Strip:
        if y != 0 or self.value:
            return super().render_line(y)  # (a key typed: the common case, decided first)
        width = self.scrollable_content_region.width
        if cell_len(self.placeholder) <= width:
            return super().render_line(y)
        placeholder = Text(self.placeholder, justify="left", no_wrap=True, end="")
        placeholder.truncate(width, overflow="ellipsis")
        placeholder.stylize(self.get_component_rich_style("input--placeholder"))
        if self.has_focus and self._cursor_visible:
            placeholder.stylize(self.get_component_rich_style("input--cursor"), 0, 1)
        # One cell wider than the field, as Input draws its placeholder: the cursor's cell.
        options = self.app.console_options.update_width(width + 1)
        strip = Strip(self.app.console.render(placeholder, options))
        return strip.extend_cell_length(width + 1).apply_style(self.rich_style)

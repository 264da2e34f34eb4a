"""The modal every request kind builds on: header, body, error line, footer, countdown."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.actions import SkipAction
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import ActiveBinding, Binding, BindingsMap, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static

from tui.core.content_check import ContentRefused, check_sendable, checked_content
from tui.core.models import ElicitationResult, Request
from tui.core.strings_in import strings_in
from tui.secrets.redaction import REDACTOR, Redactor
from widgets.cut_mark import CutText
from widgets.highlight_in_view import highlight_region, scroll_to_highlight
from widgets.key_footer import KeyFooter, key_label
from widgets.literal import literal, shown, shown_on_one_line
from widgets.style_context import skip_needless_restyle, style_context

if TYPE_CHECKING:
    from textual.widgets import Button, SelectionList

RequestT = TypeVar("RequestT", bound=Request)

FITTED = "fitted-part"
"""The class of the body's part that gives up rows when the dialog is too tall for the
screen, a list or another widget that scrolls (given as the kind makes it): the part then
scrolls in its own frame in the room the rest leaves, and the body does not scroll."""

FITTED_ROWS = 5
"""The fewest rows, its frame's included, a dialog too tall for the screen fits its `FITTED`
part in; with less room left, the body scrolls instead. A part that is of use in fewer sets
its own `fitted_rows` (a tool call's box, whose title and two lines say what it is)."""


def _is_stock(widget: Widget | None, module: str, name: str) -> bool:
    """True if `widget` is Textual's widget `name`, of `textual.widgets.<module>`.

    That module is not imported here (a dialog without such a widget should not load it):
    until something has loaded it, no widget can be one.
    """
    loaded = sys.modules.get(f"textual.widgets.{module}")
    return loaded is not None and isinstance(widget, getattr(loaded, name))


def _takes_enter(widget: Widget | None) -> bool:
    """True for a widget that takes Enter itself: the open menu of a `Select` (to pick the
    option it highlights) and a `TextArea` (to start a line)."""
    return _is_stock(widget, "_select", "SelectOverlay") or _is_stock(
        widget, "_text_area", "TextArea"
    )


class InvalidAnswer(ValueError):
    """What the person entered cannot be accepted; `widget` is where to put the focus."""

    def __init__(self, message: str, widget: Widget | None = None) -> None:
        super().__init__(message)
        self.widget = widget


MIN_SOURCE_CELLS = 8
"""The least of the source a narrow dialog's first line keeps, cut with …, beside the counts;
narrower still, the line wraps."""

TITLE_LINES = 2
"""The most lines a title takes, a longer one cut with …: the room is the question's and its
answers' (a title of a few hundred words hid both, while Enter still answered)."""


class _Body(VerticalScroll):
    """The part of a dialog between its header and its error line: it scrolls with the arrow
    keys, Home, End and the page keys, but each of those keys its modal binds for itself goes
    to the modal (and shows in its footer), even while the body has something to scroll."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        key = _SCROLL_KEY.get(action)
        if key is not None:
            # The modal's priority bindings come first anyway: one of them that declines
            # leaves the key to scroll the body.
            taken = self.screen._bindings.key_to_bindings.get(key, ())
            if any(not binding.priority for binding in taken):
                return False
        return super().check_action(action, parameters)

    # Each key of a burst scrolls on from where the one before it went. Textual's own keys
    # glide, and start from a target set only after the next refresh: five Downs sent at
    # once moved the body three lines.
    def action_scroll_up(self) -> None:
        self._scroll_by(-1)

    def action_scroll_down(self) -> None:
        self._scroll_by(1)

    def action_page_up(self) -> None:
        self._scroll_by(-self.scrollable_content_region.height)

    def action_page_down(self) -> None:
        self._scroll_by(self.scrollable_content_region.height)

    def _scroll_by(self, lines: int) -> None:
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_to(y=self.scroll_y + lines, animate=False, immediate=True)


_SCROLL_KEY = {
    binding.action: key
    for key, bindings in BindingsMap(VerticalScroll.BINDINGS).key_to_bindings.items()
    for binding in bindings
}
"""The key of each action that scrolls the body."""


class ElicitationModal(ModalScreen[ElicitationResult], Generic[RequestT]):
    """Shows one request and dismisses with its result; a kind builds the body and the content.

    The contract every modal keeps, built-in or your own (register it with
    `tui.register_kind(Model, modal="package.module:ClassName")`):

    - The base composes the frame: the source, waiting count and countdown line (`#meta`),
      the title, the message and the description (Markdown), with a `KeyFooter` listing
      the screen's bindings; `show_error()` mounts an error line under the body. A kind
      yields only its own widgets from `compose_body()`, and from `compose_heading()` and
      `compose_pinned()` those that stay in view above and under the body while it scrolls; the base runs the countdown and
      answers for the person never.
    - Keys: Enter accepts (`action_submit`), Escape cancels, Ctrl+N declines, Ctrl+Q quits.
      A kind adds its keys to `BINDINGS` (they are merged with these) and keeps a `|
      Key(s) | Description |` table under them, as the built-in kinds do. A kind's own key
      among those that scroll the body (arrows, Home, End, the page keys) is the kind's: the
      body does not take it, and the footer shows it (a focused widget still takes its own). A kind's own
      `check_action()` returns `super().check_action(action, parameters)` for the actions it
      does not decide: the base shows Shift+Up/Down only for a question too long to show.
      Where a key does different things in different states, `describe_action()` says in
      the footer what it does now (ending with `super().describe_action(...)`): the base
      names the button Enter presses.
    - A dialog too tall for the screen fills it, and its body scrolls; a kind whose body is
      mostly one list (or other part that scrolls) gives it the class `FITTED`, and the list
      scrolls in its own frame instead. A kind whose body holds what the answer is about (a
      tool's call, a link) returns it from `asked()`: the dialog opens with its top in view,
      the answers under it, and Shift+Up/Down scroll the body. A key that brings another
      part into view once laid out (a page, a field further down) does it with
      `show_in_order()`, so that a scroll key typed right behind it is not undone.
    - Accepting calls `content()`: return the answer's content (what the request's
      `check_content` accepts), or raise `InvalidAnswer` to keep the modal open with the
      message shown and the focus on its widget. Every accepted answer, however the modal
      gives it, then goes through `check_content`, and content it refuses keeps the modal
      open too, with its error shown (a check that raised what it should not, a KeyError, is
      said to have gone wrong, and `CheckFailed` takes its error to the app, for the
      developer). `accept_content()`, `action_decline()`
      and `action_cancel()` dismiss with the result; override them to do more first.
    - Text an agent wrote is shown literally: give a widget `literal(text)`, a `Text` no
      widget parses as markup (or `scrubbed(text)` to one made with `markup=False`), so that
      no markup acts, no control character reaches the terminal and no secret answered so
      far shows.
    - Where the answer travels (an inbox in another process), the app sets `send`: the
      modal's `dismiss(result)` then hands the result over and the modal stays, showing it
      is sending and ignoring further answers, until the app `close()`s it or says it was
      not sent (`send_failed()`: what was entered is still there, to be sent again).
    - Any other error the modal's code raises (in compose, mount, `fill`, `content`, a
      handler, an action, a timer) ends its question, not the app: the app cancels it with
      `dialog_failed: <kind> (<error type>)`, says so, sets `failed` and never shows the
      modal again.

    A kind whose `body_shape()` is not None can show one request after another without
    being composed again: the app keeps the answered modal and `reload()`s it with the next
    request of the same `shape()`. Such a kind composes only what the shape decides and
    fills its widgets from the request in `fill()`, which runs on mount and on each reload.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: Input and OptionList would otherwise take Enter for themselves.
        Binding("enter", "submit", "Accept", priority=True),
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+n", "decline", "Decline"),
        # The app's own Ctrl+Q binding quits; this one shows it in the modal's footer.
        Binding("ctrl+q", "app.quit", "Quit"),
        # A modal hides the app's bindings: without this, Ctrl+C would do nothing here.
        Binding("ctrl+c", "app.help_quit", "Help quit", show=False),
        # Likewise; a text area's own Ctrl+Z (undo) comes first.
        Binding("ctrl+z", "app.suspend", "Suspend", show=False),
        # Shown only while the question is too long for its room (see `check_action`).
        Binding("shift+down", "scroll_message(1)", "Scroll question", key_display="⇧↑↓"),
        Binding("shift+up", "scroll_message(-1)", "Scroll question", show=False),
        # Shown and bound only while a text area has the focus, where Enter starts a line;
        # last, so that a kind's own Ctrl+S keeps its place in the footer.
        Binding("ctrl+s", "accept_text", "Accept"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter | Accept the answer (a kind may first move to its next field); in a `Select`'s open menu, pick; in a `TextArea`, start a line. |
    | escape | Cancel: the agent learns the question was dismissed. |
    | ctrl+n | Decline: the person refuses to answer. |
    | ctrl+q | Quit the app. |
    | ctrl+c | What it does on the app's main screen (say how to quit). |
    | ctrl+z | What it does on the app's main screen (stop the process until `fg`). |
    | shift+down, shift+up | Scroll a question too long for the screen (its answers keep their room), or a description that pushes its top out of view. |
    | ctrl+s | Accept the answer, from a `TextArea`. |
    """

    ERROR_LINE_AHEAD: ClassVar[bool] = False
    """Whether the error line is composed with the dialog, rather than mounted by the first
    message (`show_error`): for a kind that must know at once the room it leaves the body."""

    STYLESHEETS: ClassVar[tuple[str, ...]] = ()
    """The sheets in `styles/` a built-in kind's dialog needs besides the app's own, added
    to the app's stylesheet with its first dialog (a kind of your own styles its modal with
    `DEFAULT_CSS`)."""

    waiting: reactive[int] = reactive(0)
    """How many other requests wait behind this one."""

    remaining: reactive[float | None] = reactive(None)
    """Seconds left before the request times out, or None without a timeout."""

    _meta_shown = ""
    _title_shown = ""
    """The text `#meta` shows now."""

    sending: reactive[bool] = reactive(False)
    """True while an answer given here is on its way (see `send`)."""

    SENDING = "Sending…"
    """The line under the body while an answer is on its way."""

    class CheckFailed(Message):
        """The request's `check_content` raised what it should not as it checked an answer
        given here: the person was told the answer could not be checked; `detail` names the
        error, for the developer."""

        def __init__(self, modal: ElicitationModal[Any], detail: str) -> None:
            super().__init__()
            self.modal = modal
            self.detail = detail

    def __init__(
        self,
        request: RequestT,
        *,
        deadline: float | None = None,
        input_grace: float = 0.2,
    ) -> None:
        super().__init__(classes=f"elicitation {kind_class(request.kind)}")
        self.request = request
        self.deadline = deadline
        """A `clock()` reading when the request times out."""
        self.clock: Callable[[], float] = time.monotonic
        """What the countdown reads the time from: `time.monotonic`, except in a render,
        which draws the time left as it was at each moment of the recording (`count_down`)."""
        self.input_grace = input_grace
        self._shown_at = time.monotonic()
        self._appeared = False
        """Whether the modal has appeared with its request (its ScreenResume since it was
        made or reloaded): no key read before that is for it, however long it took."""
        self._countdown: Timer | None = None
        self._reloaded = False
        """True from a `reload()` until the modal is shown with it."""
        self._styled_for: Hashable = None
        """What of the app the modal's widgets were last styled for (see `style_context`)."""
        self._highlight_to_show: OptionList | None = None
        """The list whose highlight the body scrolls to after the next refresh."""
        self._answer_to_show = True
        """Whether each layout brings the focused answer back into view: from the question's
        start until the person scrolls the question themselves."""
        self._shows: list[Callable[[], None]] = []
        """What a key or a layout asked to bring into view once laid out, in the order asked
        (see `show_in_order`)."""
        self._left_overflow: tuple[Size, int] | None = None
        """The screen's size and the rows the dialog's content took when it last stopped
        filling the screen (see `_fit_to_screen`)."""
        self._dialog = Vertical(id="dialog")
        self._body = _Body(id="body", can_focus=False)
        self._message = self._message_text()
        self._message_box: VerticalScroll | None = None
        """Where the message scrolls, made the first time it is too long for the screen (a
        Static cannot scroll; a box for every message would slow every first question)."""
        self._error: Static | None = None
        """The line under the body that says what is wrong, mounted by its first message
        (`show_error`) unless `ERROR_LINE_AHEAD`: hidden until then, it would cost every
        first question a widget."""
        self.send: Callable[[ElicitationResult], None] | None = None
        """Set by the app where an answer must travel before the modal may close: called
        with the answer instead of closing (see `dismiss`)."""
        self.failed: BaseException | None = None
        """Set by the app once code of this modal raised an error: the modal has ended its
        question and is not shown again."""

    def post_message(self, message: Message) -> bool:
        # Textual ends a widget's message loop at an error in one of its handlers (a kind's
        # `fill()` in on_mount): what it is sent then is never handled, and whatever waits
        # for it (a Pilot's pause, as a render takes each screen) would wait for ever.
        if self.failed is not None and not self._running:
            return False
        return super().post_message(message)

    async def _message_loop_exit(self) -> None:
        await super()._message_loop_exit()
        if self.failed is not None:
            self.release_unhandled()

    def release_unhandled(self) -> None:
        """Once this failed modal's message loop has ended: run the callbacks it was sent and
        will never handle, so that whoever waits on one (a Pilot's pause) is not left
        waiting; the other messages are dropped. (An error in its mount ends the loop before
        it begins: the app calls this then.)"""
        queue: asyncio.Queue[Message | None] = self._message_queue
        # The loop takes the message after the one it handles out of the queue, to merge the
        # two where they allow it, and holds it aside: that one comes first.
        held, self._pending_message = self._pending_message, None
        unhandled: list[Message | None] = [held]
        while not queue.empty():
            unhandled.append(queue.get_nowait())
        for message in unhandled:
            if isinstance(message, events.Callback):
                with contextlib.suppress(Exception):  # the modal's own, on a dead modal
                    message.callback()

    # -- what a kind provides --------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        """The widgets between the header and the error line."""
        yield from ()

    def compose_heading(self) -> ComposeResult:
        """The widgets above the body, under the message, that stay in view while the body
        scrolls (a batch's tabs and progress)."""
        yield from ()

    def compose_pinned(self) -> ComposeResult:
        """The widgets under the body, above the error line, that stay in view while the
        body scrolls (a form's Submit button)."""
        yield from ()

    def content(self) -> Any:
        """The typed content of an accepted answer; raise `InvalidAnswer` if there is none yet."""
        raise NotImplementedError

    @classmethod
    def body_shape(cls, request: Any) -> tuple[Hashable, ...] | None:
        """What of `request` decides which widgets the body composes, or None if the modal
        cannot be reloaded with another request (it is composed afresh for each)."""
        return None

    def fill(self) -> None:
        """Put the request's values into the body's widgets and focus the first; a kind with
        a `body_shape()` must set everything a previous request may have changed."""

    def forget(self) -> None:
        """Drop what was typed or picked once the answer is given, so nothing of it stays
        in a modal kept for the next request."""

    # -- reuse ------------------------------------------------------------------------

    @classmethod
    def shape(cls, request: Request) -> tuple[Hashable, ...] | None:
        """Requests of one shape can be shown by one modal in turn; None: this one cannot."""
        body = cls.body_shape(request)
        if body is None:
            return None
        return (request.kind, bool(request.title), bool(request.description), *body)

    def reload(self, request: RequestT, *, deadline: float | None = None) -> None:
        """Show `request` instead of the one answered; it must have this modal's `shape()`."""
        self.request = request
        self.deadline, self.clock = deadline, time.monotonic
        # Unarmed from now, not from its ScreenResume: a key read before that runs (typed for
        # the request answered, held up by a stopped process) must not answer this one.
        self._shown_at = time.monotonic()
        self._appeared = False
        self.waiting = 0
        self.remaining = None
        self._render_meta()
        self._render_title()
        self._message.update(self.shown_message())
        if self._message_box is not None:
            self._message_box.scroll_home(animate=False, immediate=True)
        if request.description:
            from widgets.literal_markdown import LiteralMarkdown  # with the first description

            self.query_one("#description", LiteralMarkdown).update(shown(request.description))
        self.query_one("#body", VerticalScroll).scroll_home(animate=False, immediate=True)
        self.show_error("")
        self._start()
        self.refresh_bindings()
        self._reloaded = True

    def release(self) -> None:
        """The answer is given: stop the countdown and `forget()` what was entered."""
        if self._countdown is not None:
            self._countdown.pause()
        self.sending = False
        self.forget()

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        request = self.request
        with self._dialog:
            self._meta_shown = self._meta_text()
            yield Static(self._meta_shown, id="meta", markup=False)
            if request.title:
                self._title_shown = shown(request.title)
                yield Static(self._title_shown, id="title", markup=False)
            yield self._message
            yield from self.compose_heading()
            with self._body:
                if request.description:
                    # Markdown and its parser load only for a request with a description.
                    from widgets.literal_markdown import LiteralMarkdown

                    yield LiteralMarkdown(shown(request.description), id="description")
                yield from self.compose_body()
            yield from self.compose_pinned()
            if self.ERROR_LINE_AHEAD:
                self._error = Static(id="error", markup=False)
                yield self._error
        yield KeyFooter()

    def on_mount(self) -> None:
        if not self._has_widgets():
            return
        self.screen_layout_refresh_signal.subscribe(self, self._fit_to_screen)
        # Its widgets were styled as they mounted, for the app as it is now.
        self._styled_for = style_context(self.app)
        self._start()

    def _start(self) -> None:
        self._answer_to_show = True
        if self.deadline is not None:
            self.tick()
            if self._countdown is None:
                self._countdown = self.set_interval(1.0, self.tick)
            else:
                self._countdown.reset()
                self._countdown.resume()
        self.fill()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._keep_highlight_in_view(event.option_list)

    def on_selection_list_selection_highlighted(
        self, event: SelectionList.SelectionHighlighted[Any]
    ) -> None:
        self._keep_highlight_in_view(event.selection_list)

    def _keep_highlight_in_view(self, options: OptionList) -> None:
        """Once the layout is up to date, scroll the body to the highlighted option of
        `options`, the list being answered with; a burst of moves is followed once, to where
        the last one left it."""
        if self._highlight_to_show is None:
            self.call_after_refresh(self._show_highlight)
        self._highlight_to_show = options

    def _show_highlight(self) -> None:
        options, self._highlight_to_show = self._highlight_to_show, None
        # Only the list in use: another list's highlight (a form's checklist, set as it
        # mounts) must not scroll the focused field away.
        if options is not None and options.has_focus and self.is_attached:
            scroll_to_highlight(self._body, options)

    def _fit_to_screen(self, _screen: object) -> None:
        """After a layout: a dialog taller than the screen fills it, with its body scrolling
        in the room left, and takes its own height again once its content fits. Otherwise
        the dialog would cut the body at its edge, out of reach (the end of a long list,
        and the highlight moved there).

        A question (the message) longer than half the room scrolls too, in what the body
        leaves of the room, but never more than half of it: else it would push the answers
        off the screen."""
        # At the width they now have: a source too long is cut to fit, a title to two lines.
        self._render_meta()
        self._render_title()
        dialog, body = self._dialog, self._body
        message = self._message_box or self._message
        if self.has_class("-overflow"):
            # The room the two share, and what their content would take (a scroll area is
            # never shorter than its content).
            room = body.outer_size.height + message.outer_size.height
            question = self._content_height(message)
            part = self._fitted_part()
            needed = self._answers_height(part) + question
            # Back as it was when it last left, it stays: some content fits only while it
            # scrolls (a form's button has a margin above it only out of it), and the dialog
            # went back and forth for ever, deaf to keys.
            if needed < room and self._left_overflow != (self.app.size, needed):
                self._left_overflow = (self.app.size, needed)
                self.remove_class("-overflow", "-long-message", "-fit-part")
            else:
                long = question > room // 2
                if long and self._message_box is None:
                    self._box_message()
                self.set_class(long, "-long-message")
                self._fit_part(part)
            if self._message_box is not None or self._body_asks():
                # Whether the question can scroll, and so its key shows, may have changed.
                self.call_after_refresh(self.refresh_bindings)
            if self._answer_to_show:
                # The body shrank as it began to scroll, after the answer was shown in it: a
                # long description then pushed the answer out of view, to be typed blind.
                self.show_in_order(self._show_answer_unless_moved)
        elif dialog.max_scroll_y > 0:
            # Its list, if it has one, most often fits in the room left: fitted at once, the
            # list is not first drawn cut by the body's edge (`_fit_part` then decides).
            self.add_class("-overflow")
            self.set_class(self._fitted_part() is not None, "-fit-part")
            # Focused before the body could scroll, the answer widget may now be cut by its
            # edge (buttons that appeared under a long text): bring it back into view.
            self.show_in_order(self._show_answer_unless_moved)

    def _fitted_part(self) -> Widget | None:
        parts = self._body.query_children(f".{FITTED}")
        return parts.first() if parts else None

    def _fit_part(self, part: Widget | None) -> None:
        """Give the fitted `part` the body's room left by the rest of it, so that it scrolls
        in its whole frame, if that leaves it `FITTED_ROWS` (or its own `fitted_rows`); else
        the body scrolls."""
        if part is not None and part.display:
            rest = laid_out_height(self._body) - part.outer_size.height
            room = self._body.scrollable_content_region.height - rest
            self.set_class(room >= getattr(part, "fitted_rows", FITTED_ROWS), "-fit-part")

    def _answers_height(self, part: Widget | None) -> int:
        """The rows the body's content takes, its fitted `part` at the part's own height."""
        if part is None or not part.display or not self.has_class("-fit-part"):
            return self._content_height(self._body)
        # Given the room left, the part may have rows its content does not fill. (Measured
        # again instead of as laid out, the part would take no room at all.)
        spare = part.scrollable_content_region.height - laid_out_height(part)
        return laid_out_height(self._body) - max(0, spare)

    def _message_text(self) -> Static:
        return CutText(self.shown_message(), id="message", markup=False)

    def shown_message(self) -> str:
        """The question as the screen shows it (`shown`): an agent may echo an earlier secret
        back in its question; the screen never does."""
        return shown(self.request.message)

    def _box_message(self) -> None:
        """Show the message in a box that scrolls, from now on."""
        message = self._message_text()
        self._message_box = VerticalScroll(message, id="message-box", can_focus=False)
        self._dialog.mount(self._message_box, after=self._message)
        self._message.remove()
        self._message = message

    def _content_height(self, widget: Widget) -> int:
        """The rows `widget`'s content takes at its width, scrolled or not."""
        region = widget.scrollable_content_region
        return widget.get_content_height(region.size, self.app.size, region.width)

    def _question_scroll(self) -> Widget | None:
        """What Shift+Up/Down scrolls, if anything: the question's own box while it scrolls,
        else the body while a description or what is `asked()` may be pushed out of view
        (the body scrolls to keep the highlighted answer on screen, and their top could be
        cut; or it opened on what is asked, and the answers are under it)."""
        box = self._message_box
        if box is not None and box.max_scroll_y > 0:
            return box
        if self._body_asks() and self._body.max_scroll_y > 0:
            return self._body
        return None

    def _body_asks(self) -> bool:
        """Whether the body holds part of the question: a description, or what is `asked()`."""
        return bool(self.request.description) or self.asked() is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scroll_message":
            return self._question_scroll() is not None
        if action == "submit":
            # Enter goes to the open menu of a Select, which picks the option it highlights,
            # and to a text area, where it starts a line (Ctrl+S accepts from there).
            return not _takes_enter(self.focused)
        if action == "accept_text":
            return _is_stock(self.focused, "_text_area", "TextArea")
        return True

    def describe_action(self, action: str, parameters: tuple[object, ...], description: str) -> str:
        """What the footer says the key bound to `action` does now; `description` is what its
        binding says. Enter on a button presses it: the footer names the button."""
        if action == "submit" and _is_stock(self.focused, "_button", "Button"):
            return key_label(str(cast("Button", self.focused).label))
        return description

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The screen's keys as its footer shows them, each saying what it does now (see
        `describe_action`); while an answer is on its way (`sending`), the dialog's keys show
        disabled, all but scrolling the question: the answer is given."""
        active = super().active_bindings
        for key, (node, binding, enabled, tooltip) in active.items():
            if node is not self or not binding.show:
                continue
            namespace, action, parameters = parse_action(binding.action)
            if namespace:
                continue  # the app's (Quit)
            description = self.describe_action(action, parameters, binding.description)
            live = enabled and not (self.sending and action != "scroll_message")
            if description != binding.description or live != enabled:
                binding = replace(binding, description=description)
                active[key] = ActiveBinding(node, binding, live, tooltip)
        return active

    @on(Input.Changed)
    def _typed_in_view(self, event: Input.Changed) -> None:
        """What is typed is seen: a field scrolled out of view (the question read with
        Shift+Up) comes back as it is typed into."""
        self._show_typed(event.control)

    def _show_typed(self, control: Widget | None) -> None:
        """Bring `control`, typed into, back into view. (A kind with a text area calls it for
        its changes: this module loads no TextArea, which `ask`'s first frame would wait for.)"""
        if control is not None and control is self.focused and self._body in control.ancestors:
            self._body.scroll_to_widget(control, animate=False, immediate=True)

    def show_in_order(self, show: Callable[[], None]) -> None:
        """Run `show`, which brings into view what a key or a layout brought up (a field it
        focused, a batch's next question, an answer a long description pushed down), once
        the layout is up to date: after the next refresh, or before the next key the dialog
        does not take, if that comes first. A scroll key typed right behind then scrolls on
        from there, as typed slowly: run after it, `show` undid it. Shows asked for before
        either run in the order asked."""
        if not self._shows:
            self.call_after_refresh(self._run_shows)
        self._shows.append(show)

    def _run_shows(self, *, lay_out: bool = False) -> None:
        """Run the shows asked for; `lay_out` (before a key): first lay out what the keys
        before it changed. (After a refresh the layout is done: laid out again there, each
        layout would ask for a show, and each show for a layout, for ever.)"""
        shows, self._shows = self._shows, []
        if not shows or not self.is_attached:
            return
        if lay_out and self._layout_required:
            self._refresh_layout(self.app.size)
        for show in shows:
            show()

    def on_key(self, event: events.Key) -> None:
        self._run_shows(lay_out=True)
        # A key the answer does not take (Shift+Up, or Up over buttons, scrolls the question):
        # from now on the person moves the view, and the dialog leaves it where they put it.
        self._answer_to_show = False

    def on_mouse_scroll_up(self) -> None:
        self._answer_to_show = False

    def on_mouse_scroll_down(self) -> None:
        self._answer_to_show = False

    def action_scroll_message(self, lines: int) -> None:
        if (scrolled := self._question_scroll()) is not None:
            scrolled.scroll_relative(y=lines, animate=False, immediate=True)

    def _show_answer_unless_moved(self) -> None:
        """`_show_focused()`, unless the person has moved the view since the question was
        shown (Shift+Up, the mouse wheel): a layout then leaves the view where they put it."""
        if self._answer_to_show:
            self._show_focused()

    def _show_focused(self) -> None:
        """Scroll the body to the focused answer and, where they fit with it, all the rows
        under it (a checklist's count, a dialog's buttons), but no further down than the top
        of what is `asked()`: it is read first, and where the two do not fit together, the
        answer is the one a key brings into view."""
        focused = self.focused
        body = self._body
        if focused is None or not self.is_attached or body not in focused.ancestors:
            return
        room = body.scrollable_content_region.height
        top = self._top_in_body(focused)
        y: float = body.max_scroll_y
        if body.virtual_size.height - top > room:
            # A list taller than the room: its highlight, not its top, is what must show.
            region = (
                highlight_region(body, focused)
                if isinstance(focused, OptionList)
                else Region(0, top, 1, focused.outer_size.height)
            )
            y = body.scroll_y if region is None else _scrolled_to(body.scroll_y, region, room)
        asked = self.asked()
        if asked is not None and asked.region.height and body in asked.ancestors:
            y = min(y, self._top_in_body(asked))
        # Once, to where it ends: scrolled there and back, the body would be laid out again,
        # and the layout calls this again.
        body.scroll_to(y=y, animate=False, immediate=True)

    def _top_in_body(self, widget: Widget) -> int:
        """The row of the body's content that `widget`, inside it, starts on."""
        body = self._body
        return widget.region.y - body.scrollable_content_region.y + round(body.scroll_y)

    def asked(self) -> Widget | None:
        """The body's part that says what the answer is about, if the kind has one there (a
        tool's call, a link, a batch's question): the dialog opens with its top in view,
        above the answer."""
        return None

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self._shown_at = time.monotonic()
        self._appeared = True
        # Its widgets were styled as they mounted, or when it was last shown.
        self._styled_for = skip_needless_restyle(event, self.app, self._styled_for)
        if self._reloaded:
            self._reloaded = False
            # Shown again at its old size, Textual would paint it at the screen's next update
            # tick, up to a frame away (its ticks keep the pace of the last question's frames);
            # a new screen is laid out and painted as it resumes, and so is a reloaded one,
            # once Textual's own resume handler (after this one) has run.
            self.call_next(self._paint_whole)

    def _paint_whole(self) -> None:
        """Lay the modal out and paint all of it, as a new screen's first frame is: painting
        only what changed since it was last shown would leave out its unchanged parts (its
        frame, say) over whatever the screen under it drew meanwhile."""
        self.refresh()
        self._dirty_widgets.add(self)
        self._refresh_layout(self.app.size)
        self._repaint_required = False  # done: Textual would paint it all once more

    @property
    def shown_at(self) -> float:
        """The `time.monotonic()` reading when the modal last appeared."""
        return self._shown_at

    @property
    def appeared(self) -> bool:
        """Whether the modal has appeared with its request: taken to show it, it appears as
        its screen resumes, which a busy machine can put off for longer than the grace."""
        return self._appeared

    @property
    def armed(self) -> bool:
        """False until the modal appears and during the grace period after it, when keys
        are ignored."""
        return self.armed_for()

    def armed_for(self, at: float | None = None) -> bool:
        """Whether what came at `at` (monotonic; default: now) came after the grace period
        (with none, whenever it came); never before the modal appeared."""
        if self.input_grace <= 0:
            return True
        if not self._appeared:
            return False
        return (time.monotonic() if at is None else at) - self._shown_at >= self.input_grace

    def tick(self) -> None:
        """Show the time left now, by `clock` (the countdown does each second)."""
        if self.deadline is not None:
            self.remaining = max(0.0, self.deadline - self.clock())

    def count_down(self, deadline: float | None, clock: Callable[[], float]) -> None:
        """Count down to `deadline` as `clock` reads the time, from now until the modal shows
        another question (which counts by `time.monotonic` again, unless it is told so too)."""
        self.deadline, self.clock = deadline, clock
        self.tick()

    def watch_waiting(self) -> None:
        self._render_meta()

    def watch_remaining(self) -> None:
        self._render_meta()

    def _has_widgets(self) -> bool:
        """Whether the modal's widgets are there to update: composed, and not being taken
        away by the app shutting down (it may, while a modal built ahead still mounts)."""
        return self.is_attached and bool(self.children) and self.app.is_running

    def _render_meta(self) -> None:
        if self._has_widgets():
            meta = self.query_one("#meta", Static)
            text = self._meta_text(meta.content_size.width)
            if text != self._meta_shown:
                self._meta_shown = text
                meta.update(text)

    def _render_title(self) -> None:
        if self.request.title and self._has_widgets():
            title = self.query_one("#title", Static)
            text = clamped(shown(self.request.title), title.content_size.width, TITLE_LINES)
            if text != self._title_shown:
                self._title_shown = text
                title.update(text)

    def _meta_text(self, room: int = 0) -> str:
        """The source, then how many more wait and the time left, on one line of `room`
        cells (0: not laid out yet): a source too long for it is cut with …, never the
        counts after it."""
        # On one line: a line break in it (a folder's name, say) would break the header.
        source = shown_on_one_line(self.request.source or "agent")
        counts = []
        if self.waiting:
            counts.append(f"{self.waiting} more waiting")
        if self.remaining is not None:
            counts.append(f"⏱ {format_seconds(self.remaining)}")
        tail = "".join(f" · {part}" for part in counts)
        left = room - cell_len(tail)
        if room and cell_len(source) > left >= MIN_SOURCE_CELLS:
            cut = Text(source)
            cut.truncate(left, overflow="ellipsis")
            source = cut.plain
        return source + tail

    @staticmethod
    def scrubbed(text: str) -> str:
        """`text` as agents' text is shown: every secret answered so far replaced by •••, each
        control character as its picture (ESC as ␛), never sent on to the terminal, and each
        character that reorders or hides text as its code point (`\\u202e`). A string, for
        a widget made with `markup=False`; any other widget takes `literal()`."""
        return shown(text)

    @staticmethod
    def literal(text: str) -> Text:
        """`text` as `scrubbed()` makes it, as a rich `Text`, which every widget shows as it
        is: most widgets parse a `str` as markup, so `[/x]` in an option's or a button's label
        would crash the app and `[@click=app.quit]` would become an action."""
        return literal(text)

    # -- answering --------------------------------------------------------------------

    @property
    def error_shown(self) -> bool:
        """Whether the line under the body says something (see `show_error`)."""
        return self._error is not None and self._error.has_class("visible")

    def show_error(self, message: str) -> None:
        """Show `message` under the body, in the line `#error`; an empty message clears it."""
        if self._error is None:
            if not message:
                return
            self._error = Static(id="error", markup=False)
            self._dialog.mount(self._error)  # last: under the body and what is pinned there
        self._error.update(shown(message))
        self._error.set_class(bool(message), "visible")

    def action_submit(self) -> Awaitable[None] | None:
        """Enter: accept; a kind with several fields may move to the next one instead (the
        app handles the next key once what this returns, if anything, is awaited). On a
        button of the dialog's own, Enter presses it, as it does anywhere else."""
        focused = self.focused
        if _is_stock(focused, "_button", "Button"):
            cast("Button", focused).press()
            return None
        self.action_accept()
        return None

    def action_accept(self) -> None:
        try:
            content = self.content()
        except InvalidAnswer as invalid:
            self.show_error(self._without_typed_secrets(str(invalid)))
            if invalid.widget is not None:
                invalid.widget.focus()
            return
        except SystemExit as exited:  # a library's sys.exit(): this question ends, not the app
            raise DialogExited(f"content() raised SystemExit({exited.code!r})") from None
        self.accept_content(content)

    action_accept_text = action_accept

    def accept_content(self, content: Any) -> None:
        """Dismiss with `content` accepted; a kind may do more first (store a secret, ...)."""
        self.dismiss(ElicitationResult(action="accept", content=content))

    def action_decline(self) -> None:
        self.dismiss(ElicitationResult(action="decline"))

    def action_cancel(self) -> None:
        self.dismiss(ElicitationResult(action="cancel"))

    def dismiss(self, result: ElicitationResult | None = None) -> AwaitComplete:
        """Answer with `result`: close the modal with it, or, where `send` is set, hand it to
        `send` and stay open, `sending`, until the app closes the modal or says the answer
        was not sent. An answer given while one is on its way is ignored.

        An accepted answer's content is first checked as every answer to the request is, by
        its `check_content`, and given as the modal gave it; content the check refuses (by
        raising anything) keeps the modal open, the error line saying why. Content JSON cannot
        carry raises `ContentNotJSON`: the modal's code failed, and its question ends with it."""
        if result is not None and result.action == "accept" and not result.sensitive:
            # Typed masked in a field of the modal's own: kept as the secret it is, as a
            # sensitive request's answer is (masked in the timeline and the transcript).
            result = result.model_copy(update={"sensitive": self._typed_masked(result.content)})
        if result is not None and result.action == "accept" and not self.sending:
            try:
                # Sent as the modal gave it: JSON must carry it as it is, not only as checked.
                check_sendable(self.request, result.content)
                checked_content(self.request, result.content)
            except ContentRefused as refused:
                self.show_error(self._without_typed_secrets(refused.plain))
                if refused.check_failed:
                    detail = self._without_typed_secrets(str(refused))
                    self.post_message(self.CheckFailed(self, detail))
                return AwaitComplete()  # complete already: the modal does not close now
        if self.send is None or result is None:
            return super().dismiss(result)
        if not self.sending:
            self.sending = True
            self.send(result)
        return AwaitComplete()  # complete already: the modal does not close now

    def _typed_masked(self, content: Any) -> bool:
        """Whether `content` holds, as plain text, what a masked field here holds, or text
        made from it: the value trimmed, in another case, within a longer text ("Bearer …"),
        or a part of it (its first characters). A `SecretStr` keeps itself hidden: no need."""
        typed = {value.strip().casefold() for value in self._masked_values()} - {""}
        if not typed:
            return False
        texts = {text.strip().casefold() for text in strings_in(content) if isinstance(text, str)}
        return any(secret in text or text in secret for secret in typed for text in texts - {""})

    def hide_typed_secrets(self) -> None:
        """Scrub what the masked fields here hold (`Input(password=True)`) from every text the
        program shows, logs or prints from now on, as an answered secret is: for an error of
        the modal's own code, which may quote it."""
        for value in self._masked_values():
            REDACTOR.register(value)

    def _without_typed_secrets(self, message: str) -> str:
        """`message` (the modal's own refusal, or the request's) with what a masked field here
        holds as •••: it may quote what it refuses."""
        typed = Redactor()
        for value in self._masked_values():
            typed.register(value)
        return typed.scrub(message)

    def _masked_values(self) -> set[str]:
        """What the masked fields here hold (`Input(password=True)`), the empty ones left out."""
        return {field.value for field in self.query(Input) if field.password and field.value}

    def close(self, result: ElicitationResult) -> AwaitComplete:
        """Close the modal with `result`, sending nothing: the answer given here was sent,
        or the request ended elsewhere."""
        self.sending = False
        return super().dismiss(result)

    def send_failed(self, message: str) -> None:
        """The answer was not sent: say `message`; what was entered stays, to answer again.

        Said only while the modal's widgets are there: the app may be taking them down."""
        self.sending = False
        if self._has_widgets():
            self.show_error(message)

    def watch_sending(self, sending: bool) -> None:
        self.set_class(sending, "-sending")
        if self._has_widgets():
            self.show_error(self.SENDING if sending else "")
            self.refresh_bindings()  # the footer's keys are disabled while it sends


class DialogExited(RuntimeError):
    """A dialog's `content()` raised `SystemExit`: as any error of a dialog's, it ends the
    dialog's question, not the app (a `SystemExit` would pass every handler and end it)."""


def kind_class(kind: str) -> str:
    """The CSS class of a modal showing `kind` requests: `kind-<kind>`, each character a
    class cannot hold (anything but ASCII letters, digits, `-` and `_`) made `_`, as in
    `kind-colour_v2`: any name a kind is registered under can be shown."""
    return "kind-" + _NOT_IN_CLASS.sub("_", kind)


_NOT_IN_CLASS = re.compile(r"[^A-Za-z0-9_-]")


def laid_out_height(widget: Widget) -> int:
    """The rows `widget`'s content takes as laid out: a container's children as arranged
    (cached; its virtual size is never less than its own), a list's lines."""
    if widget.is_container:
        return widget.arrange(widget.scrollable_content_region.size).total_region.height
    return widget.virtual_size.height


def _scrolled_to(y: float, region: Region, room: int) -> float:
    """Where a view of `room` rows now at `y` scrolls to bring `region`'s rows into it, moving
    least (to its top if it is taller than the room)."""
    if region.y < y or region.height > room:
        return region.y
    return max(y, region.bottom - room)


def format_seconds(seconds: float) -> str:
    """A countdown as a person reads it: "45s", "3m 05s", "2h 07m", "30d 00h"."""
    whole = int(seconds + 0.999)
    if whole < 120:
        return f"{whole}s"
    minutes = whole // 60
    if minutes < 120:
        return f"{minutes}m {whole % 60:02d}s"
    hours = minutes // 60
    if hours < 48:
        return f"{hours}h {minutes % 60:02d}m"
    return f"{hours // 24}d {hours % 24:02d}h"


def clamped(text: str, width: int, lines: int) -> str:
    """`text` as it wraps at `width` cells, cut to its first `lines` lines, the last ending in
    … when cut; all of it while `width` is 0 (not laid out yet)."""
    if not width:
        return text
    wrapped = Content(text).wrap(width)
    if len(wrapped) <= lines:
        return text
    last = Text(wrapped[lines - 1].plain.rstrip())
    last.truncate(width - 1)
    return "\n".join([*(line.plain for line in wrapped[: lines - 1]), last.plain + "…"])

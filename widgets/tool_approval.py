"""May the agent run this tool call? Its arguments, its diff, four answers, and an editor
to correct the arguments before allowing it."""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar, cast

from pygments.token import Token  # type: ignore[import-untyped]
from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.css.scalar import Scalar
from textual.highlight import HighlightTheme, highlight
from textual.visual import Visual
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from tui.approvals.offered import why_not_covered, why_not_remembered
from tui.core.approval_answers import DENY, approval_answers
from tui.core.models import ApprovalScope, ElicitationResult, ToolApprovalRequest
from tui.core.one_line import one_line
from tui.core.terminal_text import literal_spaces
from tui.secrets.redaction import REDACTOR, holds_secret
from widgets.base import FITTED, ElicitationModal, InvalidAnswer
from widgets.beside_or_under import BesideOrUnder
from widgets.cut_mark import CutMark, CutText
from widgets.frame_drawn import frame_drawn
from widgets.hanging import Hanging
from widgets.labelled_input import LabelledInput
from widgets.literal import shown_in_call, shown_on_one_line

if TYPE_CHECKING:
    from textual.widget import Widget
    from textual.widgets import TextArea


class _DiffTheme(HighlightTheme):
    """Textual's highlighting (in the app theme's colours), with added and removed lines."""

    STYLES = {  # noqa: RUF012 (the base declares it so; themes are classes, never instances)
        **HighlightTheme.STYLES,
        Token.Generic.Inserted: "$text-success on $success-muted",
        Token.Generic.Deleted: "$text-error on $error-muted",
        Token.Generic.Subheading: "$text-accent",
        Token.Generic.Heading: "bold",
    }


CALL_SCROLLS = " · PgDn/PgUp, Ctrl+End/Home: more"
"""After the title of the call's first box while the call is longer than its room."""

COLLAPSED_LENGTH = 40
"""The most characters of an argument the diff already shows: one line at 80 columns."""

REACH_LENGTH = 100
"""The most characters the reach of the one call a pattern matches takes: two lines under its
label."""

PATH_END = 30
"""The least of a long path's end its reach keeps, whatever comes before it."""

GLOB_REACH_LENGTH = 400
"""The most characters a glob's reach takes (five lines at 80 columns): read whole, as what
it covers is not the call above; a longer one keeps both its ends."""

HINT_ROOM = 50
"""The columns beside the choices' labels at 80 columns: a longer hint goes under its label,
as a shorter one does in a pane too narrow to hold it beside the label on one line. Under
the label it wraps under itself, never back to the list's left edge."""


def _title(part: Static, name: str, *, scrolls: bool = False) -> None:
    """Title a box of the call, saying how to scroll it if `scrolls`. Textual sets a title
    apart by a blank on each side only beside a corner; these rules have none."""
    part.border_title = f" {name}{CALL_SCROLLS if scrolls else ''} "


class _Choices(CutMark, OptionList):
    """The four answers: a row the body's bottom edge cuts ends in …."""


class _Call(VerticalScroll):
    """The call's diff and arguments, as high as they are; a dialog too tall for the screen
    gives them all the room the rest of it leaves, and more scrolls."""

    fitted_rows = 3
    """Its title and two of its lines: fewer rows than a list needs, rather than a body that
    scrolls and leaves the question's top or the answers out of view (a description and four
    answers take most of an 80x24 screen)."""

    def allow_focus(self) -> bool:
        # While a deny reason is typed, the field keeps the focus: a Tab there would move it
        # here, and the rest of the reason would be lost (PageUp/PageDown still scroll).
        return not self.screen.has_class("denying") and super().allow_focus()


class ToolApprovalModal(ElicitationModal[ToolApprovalRequest]):
    """Allow once, for this session, always, or deny (with an optional reason for the agent)."""

    STYLESHEETS = ("labelled_input.tcss", "tool_approval.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1,y", "allow('once')", "Once", key_display="1/y"),
        Binding("2", "allow('session')", "Session"),
        Binding("3", "allow('always')", "Always"),
        Binding("4,n", "deny", "Deny", key_display="4/n"),
        Binding("e", "edit", "Edit"),
        Binding("ctrl+s", "allow_edited", "Allow edited", priority=True),
        # Declining is Deny here; the base's Ctrl+N still works but needs no room in the footer.
        Binding("ctrl+n", "decline", "Decline", show=False),
        Binding("enter", "choose", "Choose", priority=True),
        Binding("enter", "deny_with_reason", "Deny", priority=True),
        # Escape leaves the reason field or the editor, else it cancels: the footer says which.
        Binding("escape", "back", "Back"),
        Binding("escape", "cancel", "Cancel"),
        Binding("pagedown", "scroll_call(1)", "Scroll", show=False, priority=True),
        Binding("pageup", "scroll_call(-1)", "Scroll", show=False, priority=True),
        Binding("ctrl+end", "scroll_call_to_end(True)", "Scroll", show=False, priority=True),
        Binding("ctrl+home", "scroll_call_to_end(False)", "Scroll", show=False, priority=True),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | 1, y | Allow this call once. |
    | 2 | Allow matching calls for the rest of this session. |
    | 3 | Always allow matching calls (remembered on disk). |
    | 4, n | Deny: type an optional reason for the agent, then Enter. |
    | e | Edit the call's arguments (JSON), then Ctrl+S allows it once as edited. |
    | ctrl+s | While editing: allow the edited call once. |
    | enter | Answer with the highlighted choice; in the reason field, deny. |
    | escape | In the reason field or the editor: back to the choices. |
    | pagedown, pageup | Scroll a long call (arguments and diff). |
    | ctrl+end, ctrl+home | To the end or the top of a long call (Home and End move in the list). |
    """

    _listed: tuple[str, str | None, str | None] | None = None
    """The reach the choices listed now were made for, why they do not offer to remember it,
    if they do not, and why it would not cover the call itself, if not (None: none listed yet)."""

    _call_scrolls = False
    """Whether the call is longer than its room, and its box's title says how to scroll it."""

    def compose_body(self) -> ComposeResult:
        yield Static(id="tool")
        with _Call(id="call", classes=FITTED):
            # The diff first: it is the change the person allows, and what a small screen
            # shows of the call; the arguments follow it.
            if self.request.diff:
                diff = CutText(id="diff")
                _title(diff, "diff")
                yield diff
            arguments = CutText(id="arguments", markup=False)
            _title(arguments, "arguments")
            yield arguments
        yield _Choices(id="choices")
        # The reason line and the editor are mounted by the first Deny and the first `e`
        # (`_reason_field`, `action_edit`): hidden until then, they would cost a first
        # approval a third of the time it takes to appear.

    @classmethod
    def body_shape(cls, request: ToolApprovalRequest) -> tuple[Hashable, ...]:
        return (bool(request.diff),)

    def fill(self) -> None:
        request = self.request
        # Scrubbed: an agent may put a secret answered earlier into the call it asks about.
        tool = Text("⚙ ", style="bold")
        tool.append(shown_in_call(request.tool_name), style="bold")
        # The summary is the message unless the agent gave both (a summary ending in a space
        # or a line break is the same summary).
        if request.summary != request.message.strip():
            tool.append(f" · {shown_in_call(request.summary)}")
        self.query_one("#tool", Static).update(tool)
        shown_call = _arguments(request.arguments, request.diff, request.description)
        self.query_one("#arguments", Static).update(shown_call)
        if request.diff:
            diff = highlight(shown_in_call(request.diff), language="diff", theme=_DiffTheme)
            self.query_one("#diff", Static).update(diff)
        self.query_one("#call", VerticalScroll).scroll_home(animate=False, immediate=True)
        if (editor := self._editor()) is not None:
            editor.load_text(_editable_json(request.arguments) or "")
        choices = self.query_one("#choices", OptionList)
        listed = (self._reach(), self._not_offered(), why_not_covered(request))
        if listed != self._listed:  # (most calls are of the tool asked about last)
            choices.set_options(_choices(*listed))
            self._listed = listed
        choices.highlighted = 0
        choices.focus()

    def forget(self) -> None:
        # The reason typed and the arguments as edited; the call shown is the agent's own.
        self.remove_class("editing", "denying")
        if (reason := self._reason()) is not None:
            reason.value = ""
        if (editor := self._editor()) is not None:
            editor.load_text("")

    def _reason(self) -> Input | None:
        """The deny reason's field, once a Deny has mounted it."""
        found = self.query("#deny-reason")
        return found.first(Input) if found else None

    def _editor(self) -> TextArea | None:
        """The arguments' editor, once an `e` has mounted it."""
        found = self.query("#edited")
        return cast("TextArea", found.first()) if found else None

    async def _reason_field(self) -> Input:
        """The deny reason's field, mounted by the first Deny."""
        reason = self._reason()
        if reason is None:
            reason = LabelledInput(
                "✖ Deny · reason",
                placeholder="optional, the agent reads it · Esc goes back",
                max_length=200,
                id="deny-reason",
            )
            await self.query_one("#body", VerticalScroll).mount(reason)
        return reason

    def shown_message(self) -> str:
        # The call's summary, unless the agent gave a message: its spaces are a command's.
        return shown_in_call(self.request.message)

    def _not_offered(self) -> str | None:
        """Why the dialog does not offer to remember the call, if it does not: the rule would
        hold a secret given earlier (written to disk, listed by `approvals list`), or the call
        asks to be allowed once only."""
        return why_not_remembered(self.request)

    def _reach(self) -> str:
        """What "for this session" and "always" would allow from now on. The one call a
        pattern matches is cut short: the call above shows it whole (a script of many lines);
        a file's path loses its front, never its name.
        A glob is shown whole up to `GLOB_REACH_LENGTH`, then with both its ends: it may
        reach further than the call, and where it ends (`*` or not) says how far."""
        remember = self.request.remember
        if remember is None:
            return shown_in_call(self.request.reach())
        # Scrubbed before it is cut: a secret cut in two would no longer be recognised. (The
        # folder comes first, where no cut reaches it.)
        reach = literal_spaces(shown_on_one_line(self.request.reach()))
        # What the other arguments may be is kept whole, at the end: the cut is the value's.
        rest = len(literal_spaces(shown_on_one_line(remember.describe_others())))
        exact = remember.exact_value()
        if exact is not None and (remember.argument or "").endswith("path"):
            return _path_cut(reach, len(literal_spaces(shown_on_one_line(exact))), rest)
        if exact is not None:
            return one_line(reach, REACH_LENGTH + rest, keep_end=rest)
        glob_end = GLOB_REACH_LENGTH // 4 + rest
        return one_line(reach, GLOB_REACH_LENGTH + rest, keep_end=glob_end)

    @property
    def denying(self) -> bool:
        return self.has_class("denying")

    @property
    def editing(self) -> bool:
        return self.has_class("editing")

    # -- answering ------------------------------------------------------------------------

    async def action_allow(self, scope: ApprovalScope) -> None:
        # The answer's row highlighted on screen first: a recording shows which was chosen.
        choices = self.query_one("#choices", OptionList)
        choices.highlighted = choices.get_option_index(scope)
        await frame_drawn(self)
        self.dismiss(ElicitationResult(action="accept", content={"scope": scope}))

    async def action_deny(self) -> None:
        """Show the reason field; Enter in it denies. Keys typed after the Deny wait until
        this returns (`KeyOrderApp`), so they reach the field even as it is first mounted."""
        reason = await self._reason_field()
        self.add_class("denying")
        choices = self.query_one("#choices", OptionList)
        choices.highlighted = len(choices.options) - 1
        self.set_focus(reason)
        self.refresh_bindings()

    async def action_edit(self) -> None:
        """Show the arguments' editor in place of the call and the choices."""
        arguments = _editable_json(self.request.arguments)
        if arguments is None:
            self.show_error(
                "These arguments hold a secret given earlier: they cannot be edited here, where "
                "it would show. Allow or deny the call as it is."
            )
            return
        editor = self._editor()
        if editor is None:
            # Mounted on first use: TextArea costs a first approval about as much as the rest
            # of the dialog. Keys typed after `e` wait until this returns (`KeyOrderApp`),
            # so they reach the editor.
            from textual.widgets import TextArea

            editor = TextArea(arguments, id="edited", soft_wrap=True)
            label = Label(id="edit-label")
            pane = Vertical(label, editor, id="edit-pane")
            await self.query_one("#body", VerticalScroll).mount(pane)
        self.query_one("#edit-label", Label).update(_edit_label(self.request))
        self.add_class("editing")
        self.set_focus(editor)
        self.refresh_bindings()

    def action_allow_edited(self) -> None:
        """Allow the call once with the edited arguments; unchanged ones allow it as asked."""
        editor = self._editor()
        if editor is None:
            return  # (`check_action` allows this only while editing, with the editor there)
        try:
            edited = json.loads(editor.text)
        except json.JSONDecodeError as error:
            self.show_error(
                f"Not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})."
            )
            return
        if not isinstance(edited, dict):
            self.show_error("The arguments must be a JSON object: {...}.")
            return
        content: dict[str, Any] = {"scope": "once"}
        if edited != self.request.arguments:
            content["arguments"] = edited
        self.dismiss(ElicitationResult(action="accept", content=content))

    def action_deny_with_reason(self) -> None:
        reason = self.query_one("#deny-reason", Input).value.strip()
        self.dismiss(
            ElicitationResult(action="decline", content={"reason": reason} if reason else None)
        )

    async def action_choose(self) -> None:
        """Enter: answer with the highlighted choice; Deny asks for a reason first."""
        if self._highlighted() == DENY:
            await self.action_deny()
        else:
            self.action_accept()

    def asked(self) -> Widget | None:
        # The tool, then the call: what is allowed. Denying or editing, the field typed in.
        tool = self.query("#tool")  # (none before the dialog is composed)
        return None if self.denying or self.editing or not tool else tool.first()

    def _fit_to_screen(self, screen: object) -> None:
        super()._fit_to_screen(screen)
        call = self.query_one("#call", _Call)
        # With less room than its least rows, the body scrolls; at its full height the call
        # would then fill the room (a small screen opened on its end, no answer in view).
        # At its least, it scrolls in its own frame, its start and the first answer shown.
        least = self.has_class("-overflow") and not self.has_class("-fit-part")
        height = call.fitted_rows if least else None
        if call.styles.max_height != (None if height is None else Scalar.from_number(height)):
            call.styles.max_height = height
        # A call longer than its room: its title says how to see the rest, before anyone
        # allows a diff they saw only the top of.
        scrolls = call.max_scroll_y > 0
        if scrolls != self._call_scrolls:
            self._call_scrolls = scrolls
            first = "diff" if self.request.diff else "arguments"
            _title(self.query_one(f"#{first}", Static), first, scrolls=scrolls)

    def action_scroll_call(self, pages: int) -> None:
        call = self.query_one("#call", VerticalScroll)
        page = max(1, call.size.height - 1)
        # From where the keys before it went, not where the screen still is: in a burst, each
        # key moves a page on from the last.
        call.scroll_to(y=call.scroll_y + pages * page, animate=False, immediate=True)

    def action_scroll_call_to_end(self, end: bool) -> None:
        call = self.query_one("#call", VerticalScroll)
        call.scroll_to(y=call.max_scroll_y if end else 0, animate=False, immediate=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter chooses from the list, or denies from the reason field: the footer says which.
        # Editing, the editor takes every key but Ctrl+S (allow) and Escape (back).
        if action == "choose":
            return not (self.denying or self.editing)
        if action == "deny_with_reason":
            return self.denying
        if action == "allow_edited":
            return self.editing
        if action == "back":
            return self.editing or self.denying
        if action == "cancel":
            return not (self.editing or self.denying)
        if action == "allow" and parameters[0] != "once" and self._not_offered() is not None:
            return None  # shown, and dimmed: the list says why
        if action in ("allow", "deny", "edit"):
            # Typing a reason, the person has denied: a `y` or `1` that reaches the dialog
            # rather than the field, however the focus left it, must not allow.
            return not (self.editing or self.denying)
        return super().check_action(action, parameters)

    def action_back(self) -> None:
        """Leave the reason field or the editor for the choices."""
        if self.editing:
            self.remove_class("editing")
            self.show_error("")
        self.remove_class("denying")
        self.set_focus(self.query_one("#choices", OptionList))
        self.refresh_bindings()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # A click on a choice answers with it.
        event.stop()
        await self.action_choose()

    def _highlighted(self) -> str | None:
        choices = self.query_one("#choices", OptionList)
        if choices.highlighted is None:
            return None
        return choices.get_option_at_index(choices.highlighted).id

    def content(self) -> dict[str, Any]:
        scope = self._highlighted()
        if scope not in ("once", "session", "always"):
            raise InvalidAnswer("Pick how far to allow the call, or Deny.")
        return {"scope": scope}


def _edit_label(request: ToolApprovalRequest) -> str:
    """What the editor says Ctrl+S does: where the harness cannot run an edited call (Codex),
    it denies the call, and the agent is asked to call it again as edited."""
    if request.edits_retried:
        ctrl_s = "Ctrl+S denies the call, asking the agent to call it again as edited"
    else:
        ctrl_s = "Ctrl+S allows the call once, as edited"
    return f"Arguments as JSON · {ctrl_s} · Esc: back"


def _path_cut(reach: str, value: int, rest: int) -> str:
    """`reach`, whose last `value` characters before the `rest` name a file, cut to
    `REACH_LENGTH` and its `rest` by the front of the path, `file_path = …/render/frame.go`:
    the file's name is what the rule is about (cut in the middle, it was lost)."""
    head = len(reach) - rest - value
    if len(reach) <= REACH_LENGTH + rest or head < 0:
        return reach
    kept = max(REACH_LENGTH - head - 1, PATH_END)
    if kept >= value:
        return reach
    return reach[:head] + "…" + reach[len(reach) - rest - kept :]


def _choices(reach: str, not_offered: str | None, not_covered: str | None) -> list[ListOption]:
    """The four answers, numbered; `reach` is what allowing for the session would allow;
    where `not_offered` says why no rule may be made, 2 and 3 are not offered; `not_covered`
    says why the rule would not cover this call made again."""
    rows = approval_answers(reach, not_offered=not_offered, not_covered=not_covered)
    width = max(len(row.label) for row in rows)
    options = []
    for number, (value, label, hint, offered) in enumerate(rows, 1):
        number_mark = Content.styled(f"{number} ", "dim")
        # Under the label, each line starting where the label does.
        under = Hanging(number_mark, Content.assemble(label, "\n", (hint, "dim")))
        prompt: Visual = under
        if len(hint) <= HINT_ROOM:
            # The hint in a column of its own, beside the label, where it fits on one line.
            mark = Content.assemble(number_mark, f"{label.ljust(width)}  ")
            beside = Hanging(mark, Content.styled(hint, "dim"))
            prompt = BesideOrUnder(beside, under, mark.cell_length + cell_len(hint))
        options.append(ListOption(prompt, id=value, disabled=not offered))
    return options


def _arguments_json(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=str)


def _editable_json(arguments: dict[str, Any]) -> str | None:
    """The arguments as JSON for the editor; None if they hold a secret answered earlier:
    here, or elsewhere, masked by the inbox (an edit would run the call with `•••`)."""
    text = _arguments_json(arguments)
    return None if holds_secret(text) else text


def _arguments(arguments: dict[str, Any], diff: str | None, description: str | None) -> Content:
    """The arguments as JSON; each the diff, or the description above them, already shows
    on one line, cut with …, so that what shows it keeps the room (the editor, `e`, still
    has them whole): an edit's old and new text, a plan to approve."""
    if not arguments:
        return Content.styled("(no arguments)", "$text-muted")
    arguments = {
        name: _collapsed(value) if _shown_above(value, diff, description) else value
        for name, value in arguments.items()
    }
    return highlight(shown_in_call(_lined_json(arguments)), language="json")


def _shown_above(value: object, diff: str | None, description: str | None) -> bool:
    """Whether `value` is text longer than one short line that the description is, or whose
    lines the diff shows."""
    if not isinstance(value, str) or ("\n" not in value and len(value) <= COLLAPSED_LENGTH):
        return False
    if description is not None and value.strip() == description.strip():
        return True
    return diff is not None and _shown_by(diff, value)


def _lined_json(arguments: dict[str, Any]) -> str:
    """The arguments as JSON, but a string of several lines as its lines, each after the
    first under the first character after its quote: a script or a file's text is read as
    written, not as one line of `\\n`s. The rest of each line is as JSON writes it."""
    lines = ["{"]
    for number, (name, value) in enumerate(arguments.items(), 1):
        head = f"  {json.dumps(name, ensure_ascii=False)}: "
        comma = "," if number < len(arguments) else ""
        if isinstance(value, str) and "\n" in value:
            parts = [json.dumps(part, ensure_ascii=False)[1:-1] for part in value.split("\n")]
            text = '"' + ("\n" + " " * (len(head) + 1)).join(parts) + '"'
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
            text = text.replace("\n", "\n  ")
        lines.append(f"{head}{text}{comma}")
    return "\n".join([*lines, "}"])


def _shown_by(diff: str, value: str) -> bool:
    """Whether each line of `value` but blank ones is a line of `diff` as it is or after the
    column that marks it added, removed or kept."""
    lines = diff.splitlines()
    known = {*lines, *(line[1:] for line in lines)}
    written = [line for line in value.splitlines() if line.strip()]
    return bool(written) and all(line in known for line in written)


def _collapsed(text: str) -> str:
    # Scrubbed before it is cut: a secret cut in two would no longer be recognised.
    return one_line(REDACTOR.scrub(text), COLLAPSED_LENGTH)

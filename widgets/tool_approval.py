"""May the agent run this tool call? Its arguments, its diff, and four answers."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from pygments.token import Token  # type: ignore[import-untyped]
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.highlight import HighlightTheme, highlight
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from tui.core.models import ApprovalScope, ElicitationResult, ToolApprovalRequest
from widgets.base import ElicitationModal, InvalidAnswer

DENY = "deny"


class _DiffTheme(HighlightTheme):
    """Textual's highlighting (in the app theme's colours), with added and removed lines."""

    STYLES = {  # noqa: RUF012 (the base declares it so; themes are classes, never instances)
        **HighlightTheme.STYLES,
        Token.Generic.Inserted: "$text-success on $success-muted",
        Token.Generic.Deleted: "$text-error on $error-muted",
        Token.Generic.Subheading: "$text-accent",
        Token.Generic.Heading: "bold",
    }


class ToolApprovalModal(ElicitationModal[ToolApprovalRequest]):
    """Allow once, for this session, always, or deny (with an optional reason for the agent)."""

    kind = "tool_approval"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1,y", "allow('once')", "Allow once", key_display="1/y"),
        Binding("2", "allow('session')", "Session"),
        Binding("3", "allow('always')", "Always"),
        Binding("4,n", "deny", "Deny", key_display="4/n"),
        # Declining is Deny here; the base's Ctrl+N still works but needs no room in the footer.
        Binding("ctrl+n", "decline", "Decline", show=False),
        Binding("enter", "submit", "Choose", priority=True),
        Binding("enter", "deny_with_reason", "Deny", priority=True),
        Binding("pagedown", "scroll_call(1)", "Scroll", show=False, priority=True),
        Binding("pageup", "scroll_call(-1)", "Scroll", show=False, priority=True),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | 1, y | Allow this call once. |
    | 2 | Allow matching calls for the rest of this session. |
    | 3 | Always allow matching calls (remembered on disk). |
    | 4, n | Deny: type an optional reason for the agent, then Enter. |
    | enter | Answer with the highlighted choice; in the reason field, deny. |
    | pagedown, pageup | Scroll a long call (arguments and diff). |
    """

    def compose_body(self) -> ComposeResult:
        request = self.request
        tool = Text("⚙ ", style="bold")
        tool.append(request.tool_name, style="bold")
        if request.summary != request.message:
            tool.append(f" · {request.summary}")
        yield Static(tool, id="tool")
        with VerticalScroll(id="call"):
            arguments = Static(_arguments(request.arguments), id="arguments", markup=False)
            arguments.border_title = "arguments"
            yield arguments
            if request.diff:
                diff = Static(highlight(request.diff, language="diff", theme=_DiffTheme), id="diff")
                diff.border_title = "diff"
                yield diff
        yield OptionList(*self._choices(), id="choices")
        with Horizontal(id="deny-line"):
            yield Label("✖ Deny · reason", id="deny-label")
            yield Input(
                placeholder="optional, the agent reads it · Esc goes back",
                max_length=200,
                id="deny-reason",
            )

    def _choices(self) -> list[ListOption]:
        request = self.request
        reach = (
            f"{request.tool_name}, {request.remember.describe()}"
            if request.remember is not None
            else f"every {request.tool_name} call"
        )
        rows = [
            ("once", "Allow once", "just this call"),
            ("session", "Allow for this session", reach),
            ("always", "Always allow", "as 2, and remembered"),
            (DENY, "Deny", "tell the agent no, and why"),
        ]
        width = max(len(label) for _, label, _ in rows)
        options = []
        for number, (value, label, hint) in enumerate(rows, 1):
            prompt = Text(f"{number} ", style="dim")
            prompt.append(label.ljust(width))
            prompt.append(f"  {hint}", style="dim")
            options.append(ListOption(prompt, id=value))
        return options

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#choices", OptionList))

    @property
    def denying(self) -> bool:
        return self.has_class("denying")

    # -- answering ------------------------------------------------------------------------

    def action_allow(self, scope: ApprovalScope) -> None:
        self.dismiss(ElicitationResult(action="accept", content={"scope": scope}))

    def action_deny(self) -> None:
        """Show the reason field; Enter in it denies."""
        self.add_class("denying")
        choices = self.query_one("#choices", OptionList)
        choices.highlighted = len(choices.options) - 1
        self.set_focus(self.query_one("#deny-reason", Input))
        self.refresh_bindings()

    def action_deny_with_reason(self) -> None:
        reason = self.query_one("#deny-reason", Input).value.strip()
        self.dismiss(
            ElicitationResult(action="decline", content={"reason": reason} if reason else None)
        )

    def action_submit(self) -> None:
        if self._highlighted() == DENY:
            self.action_deny()
        else:
            self.action_accept()

    def action_scroll_call(self, pages: int) -> None:
        call = self.query_one("#call", VerticalScroll)
        call.scroll_to(y=call.scroll_y + pages * max(1, call.size.height - 1), animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter chooses from the list, or denies from the reason field: the footer says which.
        if action == "submit":
            return not self.denying
        if action == "deny_with_reason":
            return self.denying
        return True

    def action_cancel(self) -> None:
        # Escape first leaves the reason field; from the choices it cancels the request.
        if self.denying:
            self.remove_class("denying")
            self.set_focus(self.query_one("#choices", OptionList))
            self.refresh_bindings()
        else:
            super().action_cancel()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # A click on a choice answers with it.
        event.stop()
        self.action_submit()

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


def _arguments(arguments: dict[str, Any]) -> Content:
    if not arguments:
        return Content.styled("(no arguments)", "$text-muted")
    return highlight(
        json.dumps(arguments, indent=2, ensure_ascii=False, default=str), language="json"
    )

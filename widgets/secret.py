"""A secret typed into a masked input (optionally twice), revealed only on request."""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import SecretStr
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widgets import Input, Static

from tui.models import SecretRequest
from widgets.base import ElicitationModal, InvalidAnswer


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """`sk-...` style hints as a regex: `...` stands for one or more characters."""
    return re.compile(".+".join(re.escape(part) for part in pattern.split("...")))


class SecretModal(ElicitationModal[SecretRequest]):
    """Masked entry; Ctrl+R shows the characters on screen until pressed again."""

    kind = "secret"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "toggle_reveal", "Reveal"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | ctrl+r | Show or hide what was typed (on screen only). |
    """

    revealed: reactive[bool] = reactive(False)

    def compose_body(self) -> ComposeResult:
        request = self.request
        yield Input(password=True, placeholder=request.placeholder or "", id="secret")
        if request.confirm:
            yield Input(password=True, placeholder="type it again", id="again")
        hints = []
        if request.pattern:
            hints.append(f"looks like {request.pattern}")
        if request.min_length:
            hints.append(f"at least {request.min_length} characters")
        if request.store:
            hints.append(f"saved to keyring {request.store.service}/{request.store.username}")
        yield Static(" · ".join(hints), id="hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#secret", Input).focus()

    def watch_revealed(self, revealed: bool) -> None:
        for field in self.query(Input):
            field.password = not revealed

    def action_toggle_reveal(self) -> None:
        self.revealed = not self.revealed

    def on_input_changed(self) -> None:
        self.show_error("")

    def action_submit(self) -> None:
        again = self.query("#again").first(Input) if self.request.confirm else None
        if again is not None and self.focused is not again and not again.value:
            again.focus()
        else:
            self.action_accept()

    def content(self) -> SecretStr:
        request = self.request
        first = self.query_one("#secret", Input)
        value = first.value
        if not value:
            raise InvalidAnswer("Type the secret, or press Escape to cancel.", first)
        if request.min_length and len(value) < request.min_length:
            raise InvalidAnswer(
                f"Too short: at least {request.min_length} characters (you typed {len(value)}).",
                first,
            )
        if request.pattern and not pattern_regex(request.pattern).fullmatch(value):
            raise InvalidAnswer(f"That does not look like {request.pattern}.", first)
        if request.confirm:
            again = self.query_one("#again", Input)
            if again.value != value:
                raise InvalidAnswer("The two entries differ; type it again.", again)
        return SecretStr(value)

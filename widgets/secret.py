"""A secret typed into a masked input (optionally twice), revealed only on request."""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from pydantic import SecretStr
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Button, Input, Static
from textual.worker import Worker, WorkerState

from tui.core.models import KEYRING_UNAVAILABLE, ElicitationResult, KeyringTarget, SecretRequest
from tui.core.secret_ref import SecretRef
from tui.secrets.keyring_store import KeyringError, keyring_status, store_secret
from tui.secrets.redaction import REDACTOR
from widgets.base import ElicitationModal, InvalidAnswer
from widgets.button_row import ButtonRow
from widgets.ellipsis_input import EllipsisInput
from widgets.literal import shown


class SecretModal(ElicitationModal[SecretRequest]):
    """Masked entry; Ctrl+R shows the characters on screen until pressed again.

    With `store`, accepting saves the value in the keyring and the content is its `SecretRef`.
    If the keyring cannot keep it, the modal says why and offers two ways out: keep the secret
    in memory for this run only (accept, content `SecretStr`) or cancel; both results carry
    the reason `keyring_unavailable`. With `offer_memory` False (the answer leaves this
    process, where an in-memory value is of no use, or the request's `memory_fallback` is
    False) only cancel is offered.
    """

    STYLESHEETS = ("fields.tcss", "secret.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "toggle_reveal", "Reveal"),
        # Shown or not, a secret is never copied or cut: a copy would also cross the
        # terminal (OSC 52) into whatever records it. Before its fields see the keys.
        Binding("ctrl+c", "app.help_quit", "Help quit", show=False, priority=True),
        Binding("ctrl+x", "refuse_cut", "Refuse cut", show=False, priority=True),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | ctrl+r | Show or hide what was typed (on screen only). |
    | ctrl+c | Say how to quit; nothing is copied, even with the secret shown and selected. |
    | ctrl+x | Ring the bell; nothing is cut. |
    """

    revealed: reactive[bool] = reactive(False)
    """True while the typed characters are shown; False again whenever the modal is hidden."""

    storing: reactive[bool] = reactive(False)
    """True while the keyring is being written."""

    choosing: reactive[bool] = reactive(False)
    """True once the keyring refused the secret: keep it in memory, or cancel."""

    offer_memory: bool = True
    """Whether a secret the keyring refused may be kept in memory; set before the modal shows."""

    stores_here: bool = True
    """Whether `store` is done by this modal, in this machine's keyring; False where the
    answer goes to an inbox in another process, which stores it in its own machine's keyring
    (the result then carries the value, as `SecretStr`). Set before the modal shows."""

    _no_keyring = False
    """True when the keyring was found unable to store secrets before typing: a line under
    the field says so, and the choice after Enter says why and what to do."""

    _value: SecretStr | None = None
    """The accepted value while it goes to the keyring, and while the person chooses."""
    _replace: bool = False
    """True once the person was told the keyring entry exists: the next accept replaces it."""

    @classmethod
    def body_shape(cls, request: SecretRequest) -> tuple[Hashable, ...] | None:
        # Storing brings the keyring's state into the body: composed afresh each time.
        return None if request.store else (request.confirm,)

    def compose_body(self) -> ComposeResult:
        request = self.request
        placeholder = shown(request.placeholder or "")
        yield _field("Secret", placeholder, "secret")
        if request.confirm:
            yield _field("Confirm secret", "type it again", "again")
        if request.store and self.stores_here:
            self._no_keyring = keyring_status() is not None
        yield Static(_hint(request, saved=not self._no_keyring), id="hint", markup=False)
        if self._no_keyring:
            # Short, so that the field stays in view on a small screen: why, and how to fix
            # it, are said once, with the choice that follows Enter.
            yield Static(
                "⚠ No usable keyring: the secret cannot be saved, only kept in memory for this run."
                if self.offer_memory
                else "⚠ No usable keyring: the secret cannot be saved here.",
                id="keyring-warning",
            )
        # What to do when the keyring refuses a secret is mounted then (`_offer_memory`): its
        # buttons would cost every dialog that stores a secret a third of its first frame.

    def reload(self, request: SecretRequest, *, deadline: float | None = None) -> None:
        self.query_one("#secret", Input).placeholder = shown(request.placeholder or "")
        self.query_one("#hint", Static).update(_hint(request))
        super().reload(request, deadline=deadline)

    def fill(self) -> None:
        self.query_one("#secret", Input).focus()

    def forget(self) -> None:
        for field in self.query(Input):
            field.clear()
        self.revealed = False
        self._value = None
        self._replace = False

    # -- the reveal toggle ---------------------------------------------------------------

    def watch_revealed(self, revealed: bool) -> None:
        for field in self.query(Input):
            field.password = not revealed

    def action_refuse_cut(self) -> None:
        self.app.bell()

    def action_toggle_reveal(self) -> None:
        self.revealed = not self.revealed

    def on_screen_suspend(self) -> None:
        # Whatever covers or closes the modal, the characters are hidden again.
        self.revealed = False

    # -- typing and accepting --------------------------------------------------------------

    def on_input_changed(self) -> None:
        self.show_error("")

    def action_submit(self) -> None:
        if self.storing:
            return
        if self.choosing:
            if isinstance(self.focused, Button):
                self.focused.press()
            return
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
        if (problem := request.pattern_problem(value)) is not None:
            raise InvalidAnswer(problem, first)
        if request.confirm:
            again = self.query_one("#again", Input)
            if again.value != value:
                raise InvalidAnswer("The two entries differ; type it again.", again)
        return SecretStr(value)

    def accept_content(self, content: SecretStr) -> None:
        target = self.request.store
        if target is None or not self.stores_here:
            super().accept_content(content)
            return
        # The result will hold only the reference, so the app never sees this value: register
        # it here, before the keyring (or its error message) can echo it anywhere.
        REDACTOR.register(content)
        self._value = content
        self.storing = True
        self._store(target, content, self._replace)

    def watch_storing(self) -> None:
        self._lock_fields()

    def watch_choosing(self, choosing: bool) -> None:
        self._lock_fields()
        # The class hides what no longer matters (description, hints, the keyring warning the
        # choice's reason now says in full) and shows the choice.
        self.set_class(choosing, "choosing")

    def _lock_fields(self) -> None:
        for field in self.query(Input):
            field.disabled = self.storing or self.choosing

    @work(thread=True, exit_on_error=False, group="keyring")
    def _store(self, target: KeyringTarget, value: SecretStr, replace: bool) -> SecretRef:
        # A thread: a keyring may take its time (an unlock prompt, a D-Bus round trip).
        return store_secret(target, value, replace=replace)

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        # Not current: the request ended (a timeout, the agent withdrew it) while storing.
        if worker.group != "keyring" or not self.is_current:
            return
        if event.state == WorkerState.SUCCESS:
            self.dismiss(ElicitationResult(action="accept", content=worker.result))
        elif isinstance(worker.error, KeyringError) and worker.error.problem == "exists":
            # Whoever asks chose the entry: only the person may let it replace one.
            self.storing = False
            self._replace = True
            self.show_error(f"⚠ {worker.error} Enter replaces it; Escape cancels.")
        elif event.state == WorkerState.ERROR:
            await self._offer_memory(worker.error)

    # -- when the keyring cannot keep it ---------------------------------------------------

    async def _offer_memory(self, error: BaseException | None) -> None:
        """Say why the keyring failed, and offer to keep the value in memory or to cancel."""
        reason = str(error) if error else "The keyring failed without saying why."
        await self.query_one("#body", VerticalScroll).mount(self._keyring_problem(reason))
        self.choosing = True
        self.storing = False
        self.show_error("")
        first = "#keep-in-memory" if self.offer_memory else "#cancel-secret"
        self.query_one(first, Button).focus(scroll_visible=False)
        # Once the panel is laid out, bring the whole choice into view on a small screen.
        self.call_after_refresh(self.query_one("#keyring-problem").scroll_visible, animate=False)

    def _keyring_problem(self, reason: str) -> Vertical:
        """Why the keyring refused the secret, and the ways out: keep it in memory for this
        run (if `offer_memory`), or cancel."""
        choices = [Button("Cancel", id="cancel-secret")]
        parts = [Static(f"✖ {shown(reason)}", id="keyring-reason", markup=False)]
        if self.offer_memory:
            choices.insert(
                0,
                Button("Keep in memory for this run only", id="keep-in-memory", variant="warning"),
            )
            parts.append(Static("Keep the secret in memory for this run only, or cancel?"))
        return Vertical(*parts, ButtonRow(*choices, id="keyring-choices"), id="keyring-problem")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "keep-in-memory":
            self.dismiss(
                ElicitationResult(action="accept", content=self._value, reason=KEYRING_UNAVAILABLE)
            )
        elif event.button.id == "cancel-secret":
            self.action_cancel()

    def action_cancel(self) -> None:
        if self.choosing:
            self.dismiss(ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE))
        else:
            super().action_cancel()


def _field(label: str, placeholder: str, field_id: str) -> EllipsisInput:
    """A masked field in a box titled `label`, as a form's fields are: the title stays in
    view once the placeholder gives way to what is typed."""
    field = EllipsisInput(password=True, placeholder=placeholder, id=field_id, classes="form-field")
    field.border_title = label
    return field


def _hint(request: SecretRequest, *, saved: bool = True) -> str:
    """What the secret should look like, and where it will be kept (where it was meant to be,
    unless `saved`: the keyring cannot, as the warning under it says)."""
    hints = []
    if request.pattern:
        hints.append(f"looks like {request.pattern}")
    if request.min_length:
        hints.append(f"at least {request.min_length} characters")
    if request.store:
        where = f"keyring {request.store.service}/{request.store.username}"
        hints.append(f"saved to {where}" if saved else f"meant for {where}")
    return shown(" · ".join(hints))

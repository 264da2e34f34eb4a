"""Kinds of one's own with bugs. One's dialog raises an error where its request says: as it
is made, composed, mounted or filled, in a handler, an action, a timer, as it gives its
content or forgets it; a dialog that fails ends its own question, the app goes on. Another's
model has a validator that raises what pydantic does not make a validation error of: a
KeyError, an error whose message cannot be read, SystemExit."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import field_validator
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

from tui import RequestBase, register_kind
from widgets import ElicitationModal, InvalidAnswer

Where = Literal[
    "nowhere",
    "init",
    "compose",
    "mount",
    "fill",
    "handler",
    "action",
    "timer",
    "over",
    "content",
    "forget",
    "describe",
    "check",
    "unsayable",
    "exit",
]
"""Where the dialog fails; "over": in a timer, under a screen the dialog opened over itself;
"describe", "check": the request's `describe_content`, `check_content`; "unsayable": in
its action, with an error whose message cannot be read; "exit": its `content()` raises
`SystemExit(5)`, as a library calling `sys.exit()` does."""


class BrokenRequest(RequestBase):
    """A line of text; the dialog raises `DialogBroke` at `where`."""

    kind: Literal["broken_test"] = "broken_test"
    where: Where = "nowhere"

    def describe_content(self, content: object) -> str:
        BrokenModal._fail_at(self, "describe")
        return f"line {content}"

    def check_content(self, content: object) -> object:
        BrokenModal._fail_at(self, "check")
        return content


class DialogBroke(RuntimeError):
    """What the dialog raises."""


class Picker(ModalScreen[None]):
    """A screen a dialog opens over itself."""

    def compose(self) -> ComposeResult:
        yield Label("Picking…")


class BrokenModal(ElicitationModal[BrokenRequest]):
    """An Input and a button; F2 runs an action, the button its handler."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "explode", "Explode")]

    def __init__(self, request: BrokenRequest, **kwargs: object) -> None:
        self._fail_at(request, "init")
        super().__init__(request, **kwargs)  # type: ignore[arg-type]

    @classmethod
    def body_shape(cls, request: BrokenRequest) -> tuple[str, ...]:
        return ()

    @staticmethod
    def _fail_at(request: BrokenRequest, where: Where) -> None:
        if request.where == where:
            raise DialogBroke(f"broke in {where} asking {request.message!r}")

    def compose_body(self) -> ComposeResult:
        self._fail_at(self.request, "compose")
        yield Input(id="line")
        yield Button("Press", id="press")

    def on_mount(self) -> None:
        self._fail_at(self.request, "mount")
        if self.request.where in ("timer", "over"):
            self.set_timer(0.05, lambda: self._fail_at(self.request, self.request.where))
        if self.request.where == "over":
            self.app.push_screen(Picker())

    def fill(self) -> None:
        self._fail_at(self.request, "fill")
        self.query_one(Input).focus()

    def on_button_pressed(self) -> None:
        self._fail_at(self.request, "handler")

    def action_explode(self) -> None:
        if self.request.where == "unsayable":
            raise Unsayable
        raise DialogBroke(f"broke in action asking {self.request.message!r}")

    def content(self) -> str:
        self._fail_at(self.request, "content")
        if self.request.where == "exit":
            raise SystemExit(5)
        return self.query_one(Input).value

    def forget(self) -> None:
        self._fail_at(self.request, "forget")
        self.query_one(Input).value = ""


register_kind(BrokenRequest, modal="failing_kinds:BrokenModal")


class ZoneRequest(RequestBase):
    """A zone; its validator knows one, and raises KeyError for any other."""

    kind: Literal["zone_test"] = "zone_test"
    zone: str

    @field_validator("zone")
    @classmethod
    def _known(cls, zone: str) -> str:
        return {"eu": "eu-west-1"}[zone]


register_kind(ZoneRequest)


class Unsayable(Exception):
    """An error whose message cannot be read: its `__str__` raises."""

    def __str__(self) -> str:
        raise RuntimeError("no words")


class GateRequest(RequestBase):
    """A gate: its validator raises `Unsayable` for "mute" and SystemExit(5) for "exit", its
    `check_content` raises `Unsayable` for the answer "mute"."""

    kind: Literal["gate_test"] = "gate_test"
    gate: str = "open"

    @field_validator("gate")
    @classmethod
    def _known(cls, gate: str) -> str:
        if gate == "mute":
            raise Unsayable
        if gate == "exit":
            raise SystemExit(5)
        return gate

    def check_content(self, content: object) -> object:
        if content == "mute":
            raise Unsayable
        return content


register_kind(GateRequest)


class MisplacedRequest(RequestBase):
    """A kind registered with a modal whose module is not there (a wrong import path)."""

    kind: Literal["misplaced_test"] = "misplaced_test"


register_kind(MisplacedRequest, modal="failing_kinds_nowhere:MisplacedModal")


class ClashingRequest(RequestBase):
    """A kind whose modal's module raises ValueError as it is imported."""

    kind: Literal["clashing_test"] = "clashing_test"


register_kind(ClashingRequest, modal="clashing_modal:ClashingModal")


class ContentlessRequest(RequestBase):
    """A kind whose modal forgot `content()`: it could never give an answer."""

    kind: Literal["contentless_test"] = "contentless_test"


register_kind(ContentlessRequest, modal="failing_kinds:ContentlessModal")


class ContentlessModal(ElicitationModal[ContentlessRequest]):
    """A field to type in, and nothing that turns it into an answer."""

    def compose_body(self) -> ComposeResult:
        yield Input()


class AsyncContentRequest(RequestBase):
    """A kind whose modal's `content()` is async, as Textual code often is: it would give a
    coroutine, not an answer."""

    kind: Literal["async_content_test"] = "async_content_test"


register_kind(AsyncContentRequest, modal="failing_kinds:AsyncContentModal")


class AsyncContentModal(ElicitationModal[AsyncContentRequest]):
    def compose_body(self) -> ComposeResult:
        yield Input()

    async def content(self) -> str:  # type: ignore[override]
        return self.query_one(Input).value


class PinCheckRequest(RequestBase):
    """A PIN typed masked in a field of the dialog's own, whose code quotes it: `content()`
    takes it as a number, raising what `int()` does for one that is none (`how` "int"), or
    refuses such a PIN with `InvalidAnswer` ("refuse"); F2 raises naming it."""

    kind: Literal["masked_pin_test"] = "masked_pin_test"
    how: Literal["int", "refuse"] = "int"


register_kind(PinCheckRequest, modal="failing_kinds:PinCheckModal")


class PinCheckModal(ElicitationModal[PinCheckRequest]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "explode", "Explode")]

    def compose_body(self) -> ComposeResult:
        yield Input(password=True, id="pin")

    def fill(self) -> None:
        self.query_one(Input).focus()

    def action_explode(self) -> None:
        raise DialogBroke(f"no use for PIN {self.query_one(Input).value}")

    def content(self) -> str:
        pin = self.query_one(Input)
        if self.request.how == "refuse" and not pin.value.isdigit():
            raise InvalidAnswer(f"{pin.value!r} is no number", pin)
        return str(int(pin.value))

"""Kinds of one's own whose dialogs give content their request may refuse: a date earlier
than the request allows, a count where the kind takes text, a token typed masked that the
check quotes as it refuses it. The request's own rules
(`check_content`, `content_type`) are what an answer from anywhere is held to. Another's
dialog gives content no JSON can carry; another's content is a model of the kind's own."""

from __future__ import annotations

import datetime
import json
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field
from textual.app import ComposeResult
from textual.widgets import Input, Static

from tui import RequestBase, register_kind
from widgets import ElicitationModal, InvalidAnswer


class DueRequest(RequestBase):
    """A date, no earlier than `earliest`; the content is a `datetime.date`."""

    kind: Literal["due_test"] = "due_test"
    earliest: datetime.date
    content_type: ClassVar[Any] = datetime.date

    def check_content(self, content: Any) -> datetime.date:
        due: datetime.date = super().check_content(content)
        if due < self.earliest:
            raise ValueError(f"{due} is before {self.earliest}")
        return due


class DueModal(ElicitationModal[DueRequest]):
    """A date typed as YYYY-MM-DD: the dialog checks the form, the request the rest."""

    def compose_body(self) -> ComposeResult:
        yield Input(placeholder="YYYY-MM-DD", id="due")

    def fill(self) -> None:
        self.query_one(Input).focus()

    def content(self) -> datetime.date:
        field = self.query_one(Input)
        try:
            return datetime.date.fromisoformat(field.value)
        except ValueError:
            raise InvalidAnswer("Type a date like 2024-05-01.", field) from None


register_kind(DueRequest, modal="answer_kinds:DueModal")


class LabelRequest(RequestBase):
    """Text; its dialog, wrongly, gives the length of what was typed."""

    kind: Literal["label_test"] = "label_test"
    content_type: ClassVar[Any] = str


class LabelModal(ElicitationModal[LabelRequest]):
    def compose_body(self) -> ComposeResult:
        yield Input(id="label")

    def fill(self) -> None:
        self.query_one(Input).focus()

    def content(self) -> int:
        return len(self.query_one(Input).value)


register_kind(LabelRequest, modal="answer_kinds:LabelModal")


class VaultRequest(RequestBase):
    """A token typed masked in the dialog's own field; its check quotes what it refuses."""

    kind: Literal["vault_test"] = "vault_test"
    content_type: ClassVar[Any] = dict[str, str]

    def check_content(self, content: Any) -> dict[str, str]:
        checked: dict[str, str] = super().check_content(content)
        if not checked["token"].startswith("ok-"):
            raise ValueError(f"token must start with ok-, got {checked['token']!r}")
        return checked


class VaultModal(ElicitationModal[VaultRequest]):
    def compose_body(self) -> ComposeResult:
        yield Input(password=True, id="token")

    def fill(self) -> None:
        self.query_one(Input).focus()

    def content(self) -> dict[str, str]:
        return {"token": self.query_one(Input).value}


register_kind(VaultRequest, modal="answer_kinds:VaultModal")


DERIVED: dict[str, Any] = {
    "trimmed": lambda token: token.strip(),
    "bearer": lambda token: f"Bearer {token.strip()}",
    "upper": lambda token: token.strip().upper(),
    "first characters": lambda token: token.strip()[:8],
}
"""What a `HeaderRequest`'s dialog makes of the token typed into it, by `how`."""


class HeaderRequest(RequestBase):
    """A token typed masked; the content is text made from it (see `DERIVED`), not the token
    as typed, and the request says nothing of it being secret."""

    kind: Literal["header_test"] = "header_test"
    how: str
    content_type: ClassVar[Any] = dict[str, str]


class HeaderModal(ElicitationModal[HeaderRequest]):
    def compose_body(self) -> ComposeResult:
        yield Input(password=True, id="token")

    def fill(self) -> None:
        self.query_one(Input).focus()

    def content(self) -> dict[str, str]:
        return {"header": DERIVED[self.request.how](self.query_one(Input).value)}


register_kind(HeaderRequest, modal="answer_kinds:HeaderModal")


ODD_CONTENT: dict[str, object] = {
    "object": object(),
    "bytes": b"\xff\x00",
    "nan": float("nan"),
    "infinity": {"scores": [1.5, -float("inf")]},
    "text": "fine",
}
"""What the dialog of an `OddContentRequest` gives, by its `what`."""


class OddContentRequest(RequestBase):
    """Any content (no `content_type`): its dialog gives `ODD_CONTENT[what]` on Enter."""

    kind: Literal["odd_content_test"] = "odd_content_test"
    what: str = "text"


class OddContentModal(ElicitationModal[OddContentRequest]):
    def compose_body(self) -> ComposeResult:
        yield Static(self.literal(f"Enter gives {self.request.what}"))

    def content(self) -> object:
        return ODD_CONTENT[self.request.what]


register_kind(OddContentRequest, modal="answer_kinds:OddContentModal")


class PicksRequest(RequestBase):
    """Names picked; the kind's check makes a list of any iterable of them."""

    kind: Literal["picks_test"] = "picks_test"
    content_type: ClassVar[Any] = list[str]


class PicksModal(ElicitationModal[PicksRequest]):
    """Gives the names as a dict's keys, which JSON cannot carry (a list of them it can)."""

    def compose_body(self) -> ComposeResult:
        yield Static(self.literal("Enter gives a and b"))

    def content(self) -> object:
        return dict.fromkeys(["a", "b"]).keys()


register_kind(PicksRequest, modal="answer_kinds:PicksModal")


class Slot(BaseModel):
    """A booked slot: what a `SlotRequest`'s answer is, under the names its JSON has."""

    day: datetime.date
    room: str = Field(alias="roomName")


class SlotRequest(RequestBase):
    """A day and a room; the content is a `Slot`."""

    kind: Literal["slot_test"] = "slot_test"
    content_type: ClassVar[Any] = Slot


class SlotModal(ElicitationModal[SlotRequest]):
    """The day and the room typed as text, given as the JSON a front end elsewhere sends."""

    def compose_body(self) -> ComposeResult:
        yield Input(placeholder="YYYY-MM-DD", id="day")
        yield Input(placeholder="room", id="room")

    def fill(self) -> None:
        self.query_one("#day", Input).focus()

    def content(self) -> dict[str, str]:
        return {
            "day": self.query_one("#day", Input).value,
            "roomName": self.query_one("#room", Input).value,
        }


register_kind(SlotRequest, modal="answer_kinds:SlotModal")


class TallyRequest(RequestBase):
    """A count; its dialog gives what is typed read as JSON (`true`, `"3"`, `4.0`), as a
    front end elsewhere may send it."""

    kind: Literal["tally_test"] = "tally_test"
    content_type: ClassVar[Any] = int


class TallyModal(ElicitationModal[TallyRequest]):
    def compose_body(self) -> ComposeResult:
        yield Input(id="tally")

    def fill(self) -> None:
        self.query_one(Input).focus()

    def content(self) -> object:
        return json.loads(self.query_one(Input).value)


register_kind(TallyRequest, modal="answer_kinds:TallyModal")

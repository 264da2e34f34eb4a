"""Kinds of one's own whose dialogs give content their request may refuse: a date earlier
than the request allows, a count where the kind takes text. The request's own rules
(`check_content`, `content_type`) are what an answer from anywhere is held to."""

from __future__ import annotations

import datetime
from typing import Any, ClassVar, Literal

from textual.app import ComposeResult
from textual.widgets import Input

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

"""One modal registered for two kinds, whose `DEFAULT_CSS` styles one of them by its
`kind-<name>` class, with the rule the README gives."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from textual.app import ComposeResult
from textual.widgets import Static

from tui import RequestBase, register_kind
from widgets import ElicitationModal

README_RULE = "RateModal.kind-rate_v2 #stars { color: $warning; }"
"""The README's example, word for word."""


class RateRequest(RequestBase):
    """Shown with stars; accepting it answers "seen"."""

    kind: Literal["rate"] = "rate"
    content_type: ClassVar[Any] = str


class RateV2Request(RequestBase):
    """The same modal's other kind, whose stars the rule colours."""

    kind: Literal["rate.v2"] = "rate.v2"
    content_type: ClassVar[Any] = str


class RateModal(ElicitationModal[Any]):
    DEFAULT_CSS = README_RULE

    def compose_body(self) -> ComposeResult:
        yield Static("★★★☆☆", id="stars")

    def content(self) -> str:
        return "seen"


register_kind(RateRequest, modal="tinted_kinds:RateModal")
register_kind(RateV2Request, modal="tinted_kinds:RateModal")

"""A modal's module that raises as it is imported, and not an ImportError: it registers a
kind of its own under a name taken already (a program whose module ran twice, as `__main__`
and under its name, does)."""

from __future__ import annotations

from typing import Literal

from tui import RequestBase, register_kind
from widgets import ElicitationModal


class SecondBrokenRequest(RequestBase):
    kind: Literal["broken_test"] = "broken_test"


register_kind(SecondBrokenRequest)


class ClashingModal(ElicitationModal[SecondBrokenRequest]):
    """Never made: its module cannot be imported."""

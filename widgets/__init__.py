"""The modal screens of elicit-tui, one per request kind, and the main screen's parts.

A kind's module (`widgets.choice`, `widgets.form`, ...) loads when `modal_for` first meets a
request of that kind, so an app that asks one choice never loads the form's widgets.
`ElicitationModal`, `InvalidAnswer` and `FITTED` are what a modal of your own kind builds on.
"""

from __future__ import annotations

from widgets.base import FITTED, ElicitationModal, InvalidAnswer
from widgets.registry import modal_for

__all__ = ["FITTED", "ElicitationModal", "InvalidAnswer", "modal_for"]

"""The modal screens of elicit-tui, one per request kind, and the main screen's parts.

A kind's module (`widgets.choice`, `widgets.form`, ...) loads when `modal_for` first meets a
request of that kind, so an app that asks one choice never loads the form's widgets.
"""

from __future__ import annotations

from widgets.registry import modal_for

__all__ = ["modal_for"]

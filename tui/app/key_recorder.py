"""Notes the keys and pastes that reach each modal, for a transcript; secret fields only count,
and of a sensitive request's other keys only their time is kept."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from widgets.base import ElicitationModal

if TYPE_CHECKING:
    from tui.transcript.records import KeyPress


def secret_field(screen: Screen[Any], widget: Widget | None) -> str | None:
    """The name of `widget` if it is a field taking a secret on `screen`, else None.

    A field of a secret request is secret even while its characters are revealed.
    The name (the widget's id, else its place among the screen's inputs) finds it again on replay.
    """
    if not isinstance(screen, ElicitationModal) or not isinstance(widget, Input):
        return None
    if not (widget.password or screen.request.sensitive):
        return None
    return field_name(screen, widget)


def field_name(screen: Screen[Any], widget: Input) -> str:
    """The id of `widget`, or `#N` for the Nth input on `screen` (from 0)."""
    if widget.id:
        return widget.id
    return f"#{list(screen.query(Input)).index(widget)}"


def find_field(screen: Screen[Any], name: str) -> Input | None:
    """The input `field_name` named `name`, if it is on `screen`."""
    if name.startswith("#"):
        inputs = list(screen.query(Input))
        index = int(name[1:])
        return inputs[index] if index < len(inputs) else None
    return screen.query(f"#{name}").first(Input) if screen.query(f"#{name}") else None


def secret_lengths(screen: Screen[Any]) -> dict[str, int]:
    """How many characters each secret field on `screen` holds."""
    lengths: dict[str, int] = {}
    for widget in screen.query(Input):
        name = secret_field(screen, widget)
        if name is not None:
            lengths[name] = len(widget.value)
    return lengths


class KeyRecorder:
    """Collects, per request, the keys pressed while its modal was shown."""

    def __init__(self) -> None:
        self._presses: dict[str, list[KeyPress]] = {}

    def note(self, screen: Screen[Any], event: events.Key | events.Paste) -> KeyPress | None:
        """Record `event` if `screen` is a modal; returns what was recorded."""
        if not isinstance(screen, ElicitationModal):
            return None
        # Loaded with the first key, not before the first question is drawn.
        from tui.transcript.records import SECRET_SHOWN, KeyPress

        t = round(max(0.0, event.time - screen.shown_at), 3)
        secret = secret_field(screen, screen.focused)
        if secret is None and screen.request.sensitive and screen.request.kind != "secret":
            # The key is the answer ("2" picks option 2); a secret's is typed in its fields,
            # and its other keys only choose what to do with it (keep it in memory).
            press = KeyPress(t=t, hidden=True)
        elif isinstance(event, events.Paste):
            if secret is None:
                press = KeyPress(t=t, paste=event.text)
            else:
                press = KeyPress(t=t, paste=SECRET_SHOWN, masked=len(event.text), field=secret)
        elif secret is not None and event.is_printable:
            press = KeyPress(t=t, masked=1, field=secret)
        else:
            press = KeyPress(t=t, key=event.key, char=event.character)
        self._presses.setdefault(screen.request.id, []).append(press)
        return press

    def take(self, request_id: str) -> list[KeyPress]:
        """The keys recorded for `request_id`, forgetting them."""
        return self._presses.pop(request_id, [])
